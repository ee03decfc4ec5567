// baresm_sm_stack: the reconvergence stack of one warp, exactly as docs/isa.md
// "SIMT execution" describes it. Entries {pc, rpc, mask}; the top is what the
// warp executes. At most one of init / op / pop happens in a cycle:
//  - init_i: the stack becomes {init_pc_i, NONE, init_mask_i};
//  - op_valid_i: the warp's instruction at the top was issued (NEXT, BRA,
//    EXIT), with op_guard_i its guard over all 32 lanes;
//  - otherwise, when the top is finished (empty mask or pc == rpc) it is
//    popped, one entry per cycle. settled_o says the top is runnable.
// bra_overflow_o is combinational from the op inputs: the branch would need
// more than Depth entries (the issue stage raises STACK_OVERFLOW and does not
// assert op_valid_i).
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_stack #(
  parameter int Depth = 16,
  parameter int DepthW = $clog2(Depth + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  input  logic              clear_i,      // empty the stack (launch start)
  input  logic              init_i,
  input  logic [31:0]       init_pc_i,
  input  logic [31:0]       init_mask_i,

  input  logic              op_valid_i,
  input  logic [1:0]        op_kind_i,    // 0 NEXT (pc += 8), 1 BRA, 2 EXIT
  input  logic [31:0]       op_guard_i,
  input  logic [31:0]       op_target_i,  // BRA: T
  input  logic [31:0]       op_reconv_i,  // BRA: R (PC_NONE for none)
  output logic              bra_overflow_o,
  output logic              bra_diverge_o,

  output logic [31:0]       top_pc_o,
  output logic [31:0]       top_rpc_o,
  output logic [31:0]       top_mask_o,
  output logic              empty_o,
  output logic              settled_o,
  output logic [DepthW-1:0] depth_o
);

  localparam int IdxW = $clog2(Depth);  // Depth >= 2
  localparam logic [1:0] OP_NEXT = 2'd0;
  localparam logic [1:0] OP_BRA = 2'd1;
  localparam logic [1:0] OP_EXIT = 2'd2;

  logic [31:0] pc_q [Depth];
  logic [31:0] rpc_q [Depth];
  logic [31:0] mask_q [Depth];
  logic [DepthW-1:0] sp_q;  // number of entries
  // Lanes that exited since init. An entry's mask is read through ~exited_q
  // instead of every entry being masked at EXIT: one 32-bit register in
  // place of an extra write source on every entry's mask.
  logic [31:0] exited_q;

  logic [DepthW-1:0] top_d;
  logic [IdxW-1:0] top;
  logic [31:0] tpc, trpc, tmask;
  assign top_d = sp_q - DepthW'(1);
  assign top = top_d[IdxW-1:0];
  always_comb begin
    tpc = 32'd0;
    trpc = baresm_sm_pkg::PC_NONE;
    tmask = 32'd0;
    if (sp_q != '0) begin
      tpc = pc_q[top];
      trpc = rpc_q[top];
      tmask = mask_q[top] & ~exited_q;
    end
  end

  assign top_pc_o = tpc;
  assign top_rpc_o = trpc;
  assign top_mask_o = tmask;
  assign empty_o = sp_q == '0;
  assign settled_o = (sp_q != '0) && (tmask != 32'd0) && (tpc != trpc);
  assign depth_o = sp_q;

  // ---- BRA: what the branch does to the stack -------------------------------------
  logic [31:0] taken, rest, fpc;
  logic same_join, pop_top, push_f, push_t;
  logic [DepthW:0] keep, need;
  assign taken = tmask & op_guard_i;
  assign rest = tmask & ~op_guard_i;
  assign fpc = tpc + 32'd8;
  assign same_join = op_reconv_i == trpc;
  assign bra_diverge_o = (taken != 32'd0) && (rest != 32'd0);
  assign pop_top = same_join && (fpc == op_reconv_i);
  assign push_f = !same_join && (fpc != op_reconv_i);
  assign push_t = op_target_i != op_reconv_i;
  // Entries kept below the pushes, then the depth the branch needs.
  assign keep = pop_top ? {1'b0, top_d} : {1'b0, sp_q};
  assign need = keep + (DepthW + 1)'(push_f) + (DepthW + 1)'(push_t);
  assign bra_overflow_o = bra_diverge_o && (need > (DepthW + 1)'(Depth));

  logic [IdxW-1:0] push_at, push_at2;  // free indices after the kept entries
  assign push_at = keep[IdxW-1:0];
  assign push_at2 = push_at + IdxW'(push_f);

  logic [31:0] exec_exit;
  assign exec_exit = tmask & op_guard_i;

  always_ff @(posedge clk_i) begin
    if (!clear_i && init_i) exited_q <= '0;
    else if (!clear_i && op_valid_i && sp_q != '0 && op_kind_i == OP_EXIT) exited_q <= exited_q | exec_exit;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_q <= '0;
    end else if (clear_i) begin
      sp_q <= '0;
    end else if (init_i) begin
      sp_q <= DepthW'(1);
    end else if (op_valid_i) begin
      if (op_kind_i == OP_BRA && bra_diverge_o && !bra_overflow_o) begin
        sp_q <= need[DepthW-1:0];
      end
    end else if (sp_q != '0 && !settled_o) begin
      sp_q <= top_d;
    end
  end

  // Entry storage: written only where the operation says (no reset needed:
  // entries above sp_q are never read).
  always_ff @(posedge clk_i) begin
    if (!clear_i && init_i) begin
      pc_q[0] <= init_pc_i;
      rpc_q[0] <= baresm_sm_pkg::PC_NONE;
      mask_q[0] <= init_mask_i;
    end else if (!clear_i && op_valid_i && sp_q != '0) begin
      unique case (op_kind_i)
        OP_NEXT: pc_q[top] <= fpc;
        OP_BRA: begin
          if (rest == 32'd0) begin
            pc_q[top] <= op_target_i;
          end else if (taken == 32'd0) begin
            pc_q[top] <= fpc;
          end else if (!bra_overflow_o) begin
            if (same_join) begin
              if (!pop_top) begin
                pc_q[top] <= fpc;
                mask_q[top] <= rest;
              end
              if (push_t) begin
                pc_q[push_at] <= op_target_i;
                rpc_q[push_at] <= op_reconv_i;
                mask_q[push_at] <= taken;
              end
            end else begin
              pc_q[top] <= op_reconv_i;
              if (push_f) begin
                pc_q[push_at] <= fpc;
                rpc_q[push_at] <= op_reconv_i;
                mask_q[push_at] <= rest;
              end
              if (push_t) begin
                pc_q[push_at2] <= op_target_i;
                rpc_q[push_at2] <= op_reconv_i;
                mask_q[push_at2] <= taken;
              end
            end
          end
        end
        OP_EXIT: begin
          if ((tmask & ~exec_exit) != 32'd0) pc_q[top] <= fpc;
        end
        default: ;
      endcase
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The stack never holds more than Depth entries (a branch that would need
  // more faults instead).
  `BARESM_ASSERT(a_depth_in_bounds, 32'(sp_q) <= Depth)
  // The issue stage's side of the contract: one of init / op per cycle, an
  // op only on a settled top, never an overflowing branch, a known kind.
  `BARESM_ASSUME(m_init_or_op, !(init_i && op_valid_i))
  `BARESM_ASSUME(m_op_settled, !op_valid_i || clear_i || init_i || settled_o)
  `BARESM_ASSUME(m_op_no_overflow, !op_valid_i || op_kind_i != OP_BRA || !bra_overflow_o)
  `BARESM_ASSUME(m_op_kind, !op_valid_i || op_kind_i != 2'd3)

endmodule

`default_nettype wire
