// baresm_sm_scoreboard: which warps may issue. Per warp slot it holds
//   - a pending bit per register (set when an instruction that writes it
//     issues to the pipe, cleared by the register-file write that ends it;
//     RZ is never set) and, apart, whether the LSU is the writer;
//   - a pending bit per predicate (cleared by the last beat's write);
//   - the number of its memory instructions not completed (in the gather
//     buffer or the LSU: at most MemDepth).
// From them and each warp's buffered instruction (the pre-decode of
// baresm_sm_ibuf) it computes, every cycle and for every warp, whether the
// instruction's registers and predicates are free (hazard), whether its
// unit can take it, and so whether the warp is ready for the scheduler.
// A BAR waits for its warp's loads and stores (a memory fence). Bits rather
// than counters per register: an instruction's operands are checked in one
// cycle with a few multiplexers, and a register has one writer in flight.
// One bit per register the SM holds (NumRegs): the pre-decode marks a word
// naming a register at or past the launch's count illegal and puts RZ in the
// fields an opcode ignores, so a register >= NumRegs (RZ) is never pending.
// drained_o (nothing of the warp in flight) lets a CTA retire.
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm_scoreboard #(
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,     // registers per thread the SM holds (<= 63)
  parameter int MemDepth = 7,     // memory instructions in flight at most (gather buffer + LSU)
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    clear_i,
  input  logic                    running_i,

  // ---- each warp's state and buffered instruction ------------------------------
  input  logic [NumWarps-1:0]     eligible_i,     // live, CTA running, stack top settled
  input  logic [NumWarps-1:0]     ib_valid_i,
  input  logic [NumWarps*baresm_sm_pkg::DEC_W-1:0] ib_dec_i,
  input  logic [NumWarps-1:0]     ib_bar_i,       // the buffered instruction is a BAR
  input  logic [NumWarps-1:0]     bar_wait_i,     // waiting at a barrier
  input  logic [NumWarps-1:0]     exec_busy_i,    // the pipe holds an instruction of the warp
  input  logic                    sq_ready_i,     // the pipe takes an instruction
  input  logic                    gather_free_i,  // ... and the gather buffer is free

  // ---- set at issue ------------------------------------------------------------------
  input  logic                    iss_pipe_i,     // an instruction issues to the pipe
  input  logic [WarpW-1:0]        iss_warp_i,
  input  logic [2:0]              iss_class_i,
  input  logic [5:0]              iss_rd_i,       // register written (63 none)
  input  logic [2:0]              iss_pd_i,       // predicate written (7 none)

  // ---- released by writeback ------------------------------------------------------------
  input  logic [2:0]              clr_valid_i,    // register writes (ALU, FPU, LSU/shuffle)
  input  logic [3*WarpW-1:0]      clr_warp_i,
  input  logic [17:0]             clr_rd_i,
  input  logic [1:0]              pw_valid_i,     // predicate writes (ALU, FPU)
  input  logic [1:0]              pw_last_i,      // ... the last beat
  input  logic [2*WarpW-1:0]      pw_warp_i,
  input  logic [5:0]              pw_pd_i,
  input  logic                    lsu_done_i,     // the LSU completed an instruction
  input  logic [WarpW-1:0]        lsu_done_warp_i,

  output logic [NumWarps-1:0]     ready_o,
  output logic [NumWarps-1:0]     hazard_o,       // an operand is pending
  output logic [NumWarps-1:0]     hazard_mem_o,   // ... on a load
  output logic [NumWarps-1:0]     unit_ok_o,      // the unit takes the instruction
  output logic [NumWarps-1:0]     drained_o       // nothing of the warp in flight
);

  localparam int DecW = baresm_sm_pkg::DEC_W;
  localparam logic [5:0] RZ = 6'd63;
  localparam int CntW = $clog2(MemDepth + 1);

  logic [NumWarps*NumRegs-1:0] pend_reg_q;   // register being written
  logic [NumWarps*NumRegs-1:0] pend_mem_q;   // ... by the LSU
  logic [NumWarps*8-1:0]  pend_pred_q;  // predicate being written (bit 7 never set)
  logic [CntW-1:0] lsu_cnt_q [NumWarps];  // memory instructions not completed

  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      drained_o[w] = pend_reg_q[w*NumRegs +: NumRegs] == '0 && pend_pred_q[w*8 +: 8] == '0 &&
                     lsu_cnt_q[w] == '0 && !exec_busy_i[w];
    end
  end

  // Bit (w, r) of a pending vector; 0 for r >= NumRegs (RZ).
  function automatic logic pend_of(input logic [NumWarps*NumRegs-1:0] v, input int w,
                                   input logic [5:0] r);
    pend_of = (32'(r) < NumRegs) ? v[w*NumRegs + 32'(r)] : 1'b0;
  endfunction

  logic [DecW-1:0] d;
  always_comb begin
    d = '0;
    for (int w = 0; w < NumWarps; w++) begin
      d = ib_dec_i[w*DecW +: DecW];
      hazard_o[w] = pend_of(pend_reg_q, w, d[33:28]) | pend_of(pend_reg_q, w, d[27:22]) |
                    pend_of(pend_reg_q, w, d[21:16]) | pend_of(pend_reg_q, w, d[15:10]) |
                    pend_pred_q[w*8 + 32'(d[9:7])] | pend_pred_q[w*8 + 32'(d[6:4])] |
                    pend_pred_q[w*8 + 32'(d[3:1])];
      hazard_mem_o[w] = pend_of(pend_mem_q, w, d[33:28]) | pend_of(pend_mem_q, w, d[27:22]) |
                        pend_of(pend_mem_q, w, d[21:16]) | pend_of(pend_mem_q, w, d[15:10]);
      unique case (d[36:34])
        baresm_sm_pkg::CL_ALU, baresm_sm_pkg::CL_FPU: unit_ok_o[w] = sq_ready_i;
        baresm_sm_pkg::CL_SHFL, baresm_sm_pkg::CL_LSU: unit_ok_o[w] = sq_ready_i && gather_free_i;
        default:
          // BAR is a memory fence for its warp: its loads and stores are done.
          unit_ok_o[w] = !ib_bar_i[w] || lsu_cnt_q[w] == '0;
      endcase
      ready_o[w] = running_i && eligible_i[w] && ib_valid_i[w] &&
                   !bar_wait_i[w] && !hazard_o[w] && unit_ok_o[w];
    end
  end

  // An illegal word reads no operand (its fields are RZ and PT).
  logic unused_ill;
  assign unused_ill = d[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_reg_q <= '0;
      pend_mem_q <= '0;
      pend_pred_q <= '0;
      for (int w = 0; w < NumWarps; w++) lsu_cnt_q[w] <= '0;
    end else if (clear_i) begin
      pend_reg_q <= '0;
      pend_mem_q <= '0;
      pend_pred_q <= '0;
      for (int w = 0; w < NumWarps; w++) lsu_cnt_q[w] <= '0;
    end else begin
      // Per bit: set at issue, else cleared by a release naming it (explicit
      // decoders per warp and register rather than an index computation).
      for (int w = 0; w < NumWarps; w++) begin
        for (int r = 0; r < NumRegs; r++) begin
          if (iss_pipe_i && iss_warp_i == WarpW'(w) && iss_rd_i == 6'(r)) begin
            pend_reg_q[w*NumRegs + r] <= 1'b1;
            pend_mem_q[w*NumRegs + r] <= iss_class_i == baresm_sm_pkg::CL_LSU;
          end else if ((clr_valid_i[0] && clr_warp_i[0 +: WarpW] == WarpW'(w) && clr_rd_i[5:0] == 6'(r)) ||
                       (clr_valid_i[1] && clr_warp_i[WarpW +: WarpW] == WarpW'(w) && clr_rd_i[11:6] == 6'(r)) ||
                       (clr_valid_i[2] && clr_warp_i[2*WarpW +: WarpW] == WarpW'(w) &&
                        clr_rd_i[17:12] == 6'(r))) begin
            pend_reg_q[w*NumRegs + r] <= 1'b0;
            pend_mem_q[w*NumRegs + r] <= 1'b0;
          end
        end
        for (int p = 0; p < 7; p++) begin
          if (iss_pipe_i && iss_warp_i == WarpW'(w) && iss_pd_i == 3'(p)) begin
            pend_pred_q[w*8 + p] <= 1'b1;
          end else if ((pw_valid_i[0] && pw_last_i[0] && pw_warp_i[0 +: WarpW] == WarpW'(w) &&
                        pw_pd_i[2:0] == 3'(p)) ||
                       (pw_valid_i[1] && pw_last_i[1] && pw_warp_i[WarpW +: WarpW] == WarpW'(w) &&
                        pw_pd_i[5:3] == 3'(p))) begin
            pend_pred_q[w*8 + p] <= 1'b0;
          end
        end
      end
      for (int w = 0; w < NumWarps; w++) begin
        lsu_cnt_q[w] <= lsu_cnt_q[w] +
            ((iss_pipe_i && iss_class_i == baresm_sm_pkg::CL_LSU && iss_warp_i == WarpW'(w)) ? CntW'(1) : '0) -
            ((lsu_done_i && lsu_done_warp_i == WarpW'(w)) ? CntW'(1) : '0);
      end
    end
  end

  // The scoreboard never releases a register or predicate it does not hold,
  // and a warp's count of memory instructions never underflows or exceeds
  // MemDepth.
  logic [2:0] clr_unheld;
  logic [1:0] pw_unheld;
  logic [NumWarps-1:0] lsu_cnt_under, lsu_cnt_over;
  always_comb begin
    for (int k = 0; k < 3; k++)
      clr_unheld[k] = clr_valid_i[k] &&
                      !pend_of(pend_reg_q, 32'(clr_warp_i[k*WarpW +: WarpW]), clr_rd_i[k*6 +: 6]);
    for (int k = 0; k < 2; k++)
      pw_unheld[k] = pw_valid_i[k] && pw_last_i[k] &&
                     !pend_pred_q[32'(pw_warp_i[k*WarpW +: WarpW])*8 + 32'(pw_pd_i[k*3 +: 3])];
    for (int w = 0; w < NumWarps; w++) begin
      lsu_cnt_under[w] = lsu_done_i && lsu_done_warp_i == WarpW'(w) && lsu_cnt_q[w] == '0;
      lsu_cnt_over[w] = iss_pipe_i && iss_class_i == baresm_sm_pkg::CL_LSU && iss_warp_i == WarpW'(w) &&
                        32'(lsu_cnt_q[w]) >= MemDepth;
    end
  end
  `BARESM_ASSERT(a_sb_release_held, clr_unheld == '0)
  `BARESM_ASSERT(a_pred_release_held, pw_unheld == '0)
  `BARESM_ASSERT(a_lsu_cnt_no_underflow, lsu_cnt_under == '0)
  `BARESM_ASSERT(a_lsu_cnt_no_wrap, lsu_cnt_over == '0)
  // Registers set pending are ones the SM holds (RZ is never set).
  `BARESM_ASSERT(a_rd_held, !iss_pipe_i || iss_rd_i == RZ || 32'(iss_rd_i) < NumRegs)

endmodule

`default_nettype wire
