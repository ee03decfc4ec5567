// baresm_sm_stacks: the reconvergence stacks of all warp slots, exactly as
// docs/isa.md "SIMT execution" describes one. Entries {pc, rpc, mask}; a
// warp's top is what it executes. Per warp, at most one of init / op / pop
// happens in a cycle:
//  - init_i for init_warp_i: its stack becomes {init_pc_i, NONE, init_mask_i};
//  - op_valid_i for op_warp_i: the warp's instruction at the top was issued
//    (NEXT, BRA, EXIT), with op_guard_i its guard over all 32 lanes;
//  - otherwise, when a warp's top is finished (empty mask or pc == rpc) it
//    is popped, one entry per cycle. settled_o says the top is runnable.
// bra_overflow_o and bra_diverge_o are combinational, for op_warp_i's top and
// the op inputs: the branch would need more than Depth entries (the issue
// stage raises STACK_OVERFLOW and does not assert op_valid_i).
//
// Why this shape: one warp issues per cycle, so what a branch does to a
// stack (the compares, the fall-through adder, the new entries) is computed
// once, for op_warp_i, and each warp only stores and pops. Per warp the top
// entry is in flip-flops; the Depth - 1 entries below it are in two
// memories, entry i in bank i % 2. An operation writes at most two entries
// below the new top and they are neighbours (a diverging branch leaves the
// old top and its fall-through under the taken path), so each bank has one
// write port; a pop reads the entry under the top, so each bank has one
// asynchronous read port: the shape of a LUT RAM (Xilinx RAM32M, ECP5
// DPR16X4). The iCE40 has none: there the banks are flip-flops.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_stacks #(
  parameter int NumWarps = 16,
  parameter int Depth = 16,
  parameter int NumLanes = 32,     // the SM's lanes: at 1 the entries below the tops are in RAM
  parameter int DepthW = $clog2(Depth + 1),
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  input  logic                       clear_i,      // empty every stack (launch start)
  input  logic                       init_i,
  input  logic [WarpW-1:0]           init_warp_i,
  input  logic [31:0]                init_pc_i,
  input  logic [31:0]                init_mask_i,

  input  logic                       op_valid_i,
  input  logic [WarpW-1:0]           op_warp_i,
  input  logic [1:0]                 op_kind_i,    // 0 NEXT (pc += 8), 1 BRA, 2 EXIT
  input  logic [31:0]                op_guard_i,
  input  logic [31:0]                op_target_i,  // BRA: T
  input  logic [31:0]                op_reconv_i,  // BRA: R (PC_NONE for none)
  output logic                       bra_overflow_o,
  output logic                       bra_diverge_o,

  output logic [NumWarps*32-1:0]     top_pc_o,
  output logic [NumWarps*32-1:0]     top_rpc_o,
  output logic [NumWarps*32-1:0]     top_mask_o,
  output logic [NumWarps-1:0]        empty_o,
  output logic [NumWarps-1:0]        settled_o,
  output logic [NumWarps*DepthW-1:0] depth_o
);

  localparam logic [1:0] OP_NEXT = 2'd0;
  localparam logic [1:0] OP_BRA = 2'd1;
  localparam logic [1:0] OP_EXIT = 2'd2;
  localparam int EntryW = 96;  // {pc, rpc, mask}

  // ---- per-warp state ------------------------------------------------------------------
  logic [NumWarps*DepthW-1:0] sp_q;       // entries, the top included
  logic [NumWarps*32-1:0] pc_q, rpc_q, mask_q;  // the top entry
  // Lanes that exited since init. An entry's mask is read through ~exited
  // instead of every entry being masked at EXIT.
  logic [NumWarps*32-1:0] exited_q;
  // ready_top: the top entry is runnable; hold: not yet usable (RAM variant:
  // its top is being read, or an entry is still being written).
  logic [NumWarps-1:0] ready_top, hold;

  for (genvar w = 0; w < NumWarps; w++) begin : g_top
    logic [DepthW-1:0] sp;
    logic [31:0] tpc, trpc, tmask;
    assign sp = sp_q[w*DepthW +: DepthW];
    assign tpc = (sp != '0) ? pc_q[w*32 +: 32] : 32'd0;
    assign trpc = (sp != '0) ? rpc_q[w*32 +: 32] : baresm_sm_pkg::PC_NONE;
    assign tmask = (sp != '0) ? mask_q[w*32 +: 32] & ~exited_q[w*32 +: 32] : 32'd0;
    assign top_pc_o[w*32 +: 32] = tpc;
    assign top_rpc_o[w*32 +: 32] = trpc;
    assign top_mask_o[w*32 +: 32] = tmask;
    assign empty_o[w] = sp == '0;
    assign ready_top[w] = (sp != '0) && (tmask != 32'd0) && (tpc != trpc);
  end
  assign settled_o = ready_top & ~hold;
  assign depth_o = sp_q;

  // ---- the operation, for op_warp_i -----------------------------------------------------
  logic [DepthW-1:0] sp_s, top_d;
  logic [31:0] tpc, trpc, tmask;
  assign sp_s = sp_q[op_warp_i*DepthW +: DepthW];
  assign tpc = top_pc_o[op_warp_i*32 +: 32];
  assign trpc = top_rpc_o[op_warp_i*32 +: 32];
  assign tmask = top_mask_o[op_warp_i*32 +: 32];
  assign top_d = sp_s - DepthW'(1);

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
  assign keep = pop_top ? {1'b0, top_d} : {1'b0, sp_s};
  assign need = keep + (DepthW + 1)'(push_f) + (DepthW + 1)'(push_t);
  assign bra_overflow_o = bra_diverge_o && (need > (DepthW + 1)'(Depth));

  logic [31:0] exec_exit;
  assign exec_exit = tmask & op_guard_i;

  // What the op does: the new top (or the entry below it: from_below), the
  // new depth, and up to two entries written under the new top, at index
  // sp-1 (lo: the old top, changed) and at index sp (hi: a diverging
  // branch's fall-through). Masks are stored as read (exited lanes already
  // cleared): equivalent, since exited lanes only grow.
  logic [EntryW-1:0] op_top, wr_lo, wr_hi;
  logic from_below, we_lo, we_hi;
  logic [DepthW-1:0] op_sp;
  always_comb begin
    op_top = {tpc, trpc, tmask};
    from_below = 1'b0;
    wr_lo = {op_reconv_i, trpc, tmask};
    wr_hi = {fpc, op_reconv_i, rest};
    we_lo = 1'b0;
    we_hi = 1'b0;
    op_sp = sp_s;
    unique case (op_kind_i)
      OP_NEXT: op_top[95:64] = fpc;
      OP_EXIT: if ((tmask & ~exec_exit) != 32'd0) op_top[95:64] = fpc;
      OP_BRA: begin
        if (rest == 32'd0) begin
          op_top[95:64] = op_target_i;
        end else if (taken == 32'd0) begin
          op_top[95:64] = fpc;
        end else if (!bra_overflow_o) begin
          op_sp = need[DepthW-1:0];
          if (same_join) begin
            if (pop_top && push_t) begin
              op_top = {op_target_i, op_reconv_i, taken};
            end else if (pop_top) begin
              from_below = 1'b1;
            end else if (push_t) begin
              wr_lo = {fpc, trpc, rest};
              we_lo = 1'b1;
              op_top = {op_target_i, op_reconv_i, taken};
            end else begin
              op_top = {fpc, trpc, rest};
            end
          end else begin
            // The old top stays below as the join point R.
            we_lo = push_f || push_t;
            we_hi = push_f && push_t;
            if (push_t) op_top = {op_target_i, op_reconv_i, taken};
            else if (push_f) op_top = {fpc, op_reconv_i, rest};
            else op_top[95:64] = op_reconv_i;
          end
        end
      end
      default: ;
    endcase
  end

  // The entries written under the new top: index sp-1 (lo) and sp (hi).
  logic [DepthW-1:0] lo_idx, hi_idx;
  assign lo_idx = top_d;
  assign hi_idx = sp_s;

  // ---- per-warp update ------------------------------------------------------------------
  // Which warp inits, takes the op, or pops: whole-vector operations on
  // one-hot warp selects (one word each in Verilator, not a NumWarps-term
  // expression per bit).
  logic [NumWarps-1:0] do_init, do_op, do_pop, init_sel, op_sel;
  assign init_sel = init_i ? NumWarps'(1) << init_warp_i : '0;
  assign op_sel = op_valid_i ? NumWarps'(1) << op_warp_i : '0;
  assign do_init = clear_i ? '0 : init_sel;
  assign do_op = clear_i ? '0 : op_sel & ~init_sel & ~empty_o;
  if (NumLanes > 1) begin : g_ff
    // ---- the entries below the tops in flip-flops (wide SMs) --------------------------
    // Every warp pops in the same cycle as its top finishes; settled_o is
    // never held back (the cycle behaviour the wide configurations keep).
    assign hold = '0;
    assign do_pop = clear_i ? '0 : ~op_sel & ~init_sel & ~empty_o & ~ready_top;

    // Rows per bank: entries 0 .. Depth-2 live below the top (Depth >= 2).
    localparam int Rows = (Depth / 2 > 1) ? Depth / 2 : 1;
    localparam int RowW = (Rows > 1) ? $clog2(Rows) : 1;

    // Bank b takes the one of the two writes whose index has parity b.
    logic [1:0] bank_we;
    logic [2*RowW-1:0] bank_row;
    logic [2*EntryW-1:0] bank_wd;
    for (genvar b = 0; b < 2; b++) begin : g_wr
      assign bank_we[b] = (we_lo && lo_idx[0] == 1'(b)) || (we_hi && hi_idx[0] == 1'(b));
      assign bank_row[b*RowW +: RowW] = RowW'(((lo_idx[0] == 1'(b)) ? lo_idx : hi_idx) >> 1);
      assign bank_wd[b*EntryW +: EntryW] = (lo_idx[0] == 1'(b)) ? wr_lo : wr_hi;
    end

    for (genvar w = 0; w < NumWarps; w++) begin : g_warp
      logic [DepthW-1:0] sp, under;
      assign sp = sp_q[w*DepthW +: DepthW];
      assign under = sp - DepthW'(2);

      // The two banks of the entries below the top.
      logic [EntryW-1:0] bank0_q [Rows];
      logic [EntryW-1:0] bank1_q [Rows];
      always_ff @(posedge clk_i) begin
        if (do_op[w] && bank_we[0]) bank0_q[bank_row[0 +: RowW]] <= bank_wd[0 +: EntryW];
        if (do_op[w] && bank_we[1]) bank1_q[bank_row[RowW +: RowW]] <= bank_wd[EntryW +: EntryW];
      end

      // The top: written by init, an op, or a pop that leaves an entry (the
      // entry below, read from its bank here, at the clock edge: Verilator
      // then reads the banks only for the warp whose top changes, not for
      // every warp every cycle).
      always_ff @(posedge clk_i) begin
        if (do_init[w])
          {pc_q[w*32 +: 32], rpc_q[w*32 +: 32], mask_q[w*32 +: 32]} <= {init_pc_i, baresm_sm_pkg::PC_NONE, init_mask_i};
        else if (do_op[w] && !from_below)
          {pc_q[w*32 +: 32], rpc_q[w*32 +: 32], mask_q[w*32 +: 32]} <= op_top;
        else if (do_op[w] || (do_pop[w] && sp > DepthW'(1)))
          {pc_q[w*32 +: 32], rpc_q[w*32 +: 32], mask_q[w*32 +: 32]} <= under[0] ? bank1_q[RowW'(under >> 1)]
                                                                                : bank0_q[RowW'(under >> 1)];
        if (do_init[w]) exited_q[w*32 +: 32] <= '0;
        else if (do_op[w] && op_kind_i == OP_EXIT) exited_q[w*32 +: 32] <= exited_q[w*32 +: 32] | exec_exit;
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) sp_q[w*DepthW +: DepthW] <= '0;
        else if (clear_i) sp_q[w*DepthW +: DepthW] <= '0;
        else if (do_init[w]) sp_q[w*DepthW +: DepthW] <= DepthW'(1);
        else if (do_op[w]) sp_q[w*DepthW +: DepthW] <= op_sp;
        else if (do_pop[w]) sp_q[w*DepthW +: DepthW] <= sp - DepthW'(1);
      end

      // A stack never holds more than Depth entries (a branch that would need
      // more faults instead).
      `BARESM_ASSERT(a_depth_in_bounds, 32'(sp) <= Depth)
    end
  end else begin : g_ram
    // ---- the entries below the tops in one RAM (NumLanes == 1) ------------------------
    // One RAM of NumWarps x 2^IdxW entries (row {warp, index}), one write and
    // one synchronous read port (baresm_ram_1r1w: iCE40 EBR). The tops stay
    // in flip-flops. What the ports cost, against the flip-flop version:
    //  - a pop that leaves an entry reads it (one warp per cycle; an op's
    //    from_below read goes first) and the top takes it on the next cycle,
    //    in which every warp is held (settled_o low) so that no op competes
    //    for the tops' shared update path;
    //  - a diverging branch that writes two entries writes the lower one at
    //    once and the other on the next cycle, from wb_q; in that cycle every
    //    warp is held (settled_o low), so no op competes for the write port.
    // A pop whose stack has one entry needs no port: any number per cycle.
    localparam int IdxW = (Depth - 1 > 1) ? $clog2(Depth - 1) : 1;
    localparam int RamRows = NumWarps << IdxW;
    localparam int RamAW = (RamRows > 1) ? $clog2(RamRows) : 1;

    logic ld_q;                        // the RAM's read data is warp ld_warp_q's new top
    logic [WarpW-1:0] ld_warp_q;
    logic wb_q;                        // the second entry of a branch, written this cycle
    logic [RamAW-1:0] wb_addr_q;
    logic [EntryW-1:0] wb_data_q;
    logic [NumWarps-1:0] loading;
    assign loading = ld_q ? NumWarps'(1) << ld_warp_q : '0;
    // Every warp is held while a port is busy for one (a load's capture or
    // a branch's second entry): the tops then take at most one shared
    // update (upd, below) besides an init, so each top bit needs a 2:1
    // multiplexer, not a 3:1 one.
    assign hold = (wb_q || ld_q) ? '1 : '0;

    // Pops: finished tops, not being loaded. Those with one entry just empty;
    // of those that leave an entry, the lowest-numbered warp reads it, unless
    // the op reads the entry below its top (from_below) this cycle.
    logic op_go, op_read;
    assign op_go = do_op != '0;
    assign op_read = op_go && from_below && op_sp != '0;  // (a branch can pop the last entry)
    logic [NumWarps-1:0] pop_want, pop_deep, pop_pick;
    assign pop_want = clear_i ? '0 : ~op_sel & ~init_sel & ~empty_o & ~ready_top & ~loading;
    for (genvar w = 0; w < NumWarps; w++) begin : g_deep
      assign pop_deep[w] = sp_q[w*DepthW +: DepthW] > DepthW'(1);
    end
    assign pop_pick = op_read ? '0 : (pop_want & pop_deep) & (~(pop_want & pop_deep) + NumWarps'(1));
    assign do_pop = pop_want & (~pop_deep | pop_pick);

    logic [WarpW-1:0] pop_warp;
    always_comb begin
      pop_warp = '0;
      for (int w = 0; w < NumWarps; w++) if (pop_pick[w]) pop_warp = WarpW'(w);
    end
    logic [DepthW-1:0] pop_sp;
    assign pop_sp = sp_q[pop_warp*DepthW +: DepthW];

    // The read: the entry under the top (index sp - 2) of the op's warp or
    // the popping warp.
    logic re;
    logic [WarpW-1:0] rd_warp;
    logic [IdxW-1:0] rd_idx;
    logic [RamAW-1:0] raddr;
    logic [EntryW-1:0] rdata;
    assign re = op_read || pop_pick != '0;
    assign rd_warp = op_read ? op_warp_i : pop_warp;
    assign rd_idx = IdxW'((op_read ? sp_s : pop_sp) - DepthW'(2));
    assign raddr = RamAW'((RamAW'(rd_warp) << IdxW) | RamAW'(rd_idx));

    // The write: the pending second entry, else the op's (lo before hi).
    logic we, op_we;
    logic [RamAW-1:0] waddr, lo_addr, hi_addr;
    logic [EntryW-1:0] wdata;
    assign op_we = op_go && (we_lo || we_hi);
    assign lo_addr = RamAW'((RamAW'(op_warp_i) << IdxW) | RamAW'(lo_idx[IdxW-1:0]));
    assign hi_addr = RamAW'((RamAW'(op_warp_i) << IdxW) | RamAW'(hi_idx[IdxW-1:0]));
    assign we = wb_q || op_we;
    assign waddr = wb_q ? wb_addr_q : (we_lo ? lo_addr : hi_addr);
    assign wdata = wb_q ? wb_data_q : (we_lo ? wr_lo : wr_hi);

    baresm_ram_1r1w #(
      .Depth(RamRows),
      .Width(EntryW)
    ) u_ram (
      .clk_i,
      .re_i   (re),
      .raddr_i(raddr),
      .rdata_o(rdata),
      .we_i   (we),
      .waddr_i(waddr),
      .wmask_i(1'b1),
      .wdata_i(wdata)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ld_q <= 1'b0;
        wb_q <= 1'b0;
      end else begin
        ld_q <= re && !clear_i;
        wb_q <= op_go && we_lo && we_hi;
      end
    end
    always_ff @(posedge clk_i) begin
      if (re) ld_warp_q <= rd_warp;
      if (op_go && we_lo && we_hi) begin
        wb_addr_q <= hi_addr;
        wb_data_q <= wr_hi;
      end
    end

    logic [EntryW-1:0] upd;
    assign upd = ld_q ? rdata : op_top;

    for (genvar w = 0; w < NumWarps; w++) begin : g_warp
      logic [DepthW-1:0] sp;
      assign sp = sp_q[w*DepthW +: DepthW];

      // The top: written by init, an op, or the RAM's read data (a pop's or
      // a from_below op's entry, read in the cycle before): the last two
      // never in one cycle (hold), so they share upd.
      always_ff @(posedge clk_i) begin
        if (do_init[w])
          {pc_q[w*32 +: 32], rpc_q[w*32 +: 32], mask_q[w*32 +: 32]} <= {init_pc_i, baresm_sm_pkg::PC_NONE, init_mask_i};
        else if ((do_op[w] && !from_below) || loading[w])
          {pc_q[w*32 +: 32], rpc_q[w*32 +: 32], mask_q[w*32 +: 32]} <= upd;
        if (do_init[w]) exited_q[w*32 +: 32] <= '0;
        else if (do_op[w] && op_kind_i == OP_EXIT) exited_q[w*32 +: 32] <= exited_q[w*32 +: 32] | exec_exit;
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) sp_q[w*DepthW +: DepthW] <= '0;
        else if (clear_i) sp_q[w*DepthW +: DepthW] <= '0;
        else if (do_init[w]) sp_q[w*DepthW +: DepthW] <= DepthW'(1);
        else if (do_op[w]) sp_q[w*DepthW +: DepthW] <= op_sp;
        else if (do_pop[w]) sp_q[w*DepthW +: DepthW] <= sp - DepthW'(1);
      end

      `BARESM_ASSERT(a_depth_in_bounds, 32'(sp) <= Depth)
    end

    // The port contract: no op while an entry is pending (settled_o was low),
    // no read of the entry being written, reads inside the entries written.
    `BARESM_ASSERT(a_no_op_during_wb, !(wb_q && op_go))
    `BARESM_ASSERT(a_no_op_during_load, !(ld_q && op_go))
    `BARESM_ASSERT(a_no_rw_same_entry, !(re && we && raddr == waddr))
    `BARESM_ASSERT(a_read_below_top, !re || (op_read ? sp_s : pop_sp) >= DepthW'(2))
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The banks are written inside their rows.
  `BARESM_ASSERT(a_bank_lo_in_range, !(op_valid_i && we_lo) || 32'(lo_idx) < Depth - 1)
  `BARESM_ASSERT(a_bank_hi_in_range, !(op_valid_i && we_hi) || 32'(hi_idx) < Depth - 1)
  // The issue stage's side of the contract: no init and op of one warp in a
  // cycle, an op only on a settled top, never an overflowing branch, a known
  // kind.
  `BARESM_ASSUME(m_init_or_op, !(init_i && op_valid_i && init_warp_i == op_warp_i))
  `BARESM_ASSUME(m_op_settled, !op_valid_i || clear_i || settled_o[op_warp_i])
  `BARESM_ASSUME(m_op_no_overflow, !op_valid_i || op_kind_i != OP_BRA || !bra_overflow_o)
  `BARESM_ASSUME(m_op_kind, !op_valid_i || op_kind_i != 2'd3)

endmodule

`default_nettype wire
