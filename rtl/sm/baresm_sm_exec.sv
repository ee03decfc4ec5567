// baresm_sm_exec: everything between issue and register writeback.
//
//   issue -> SQ (beat sequencer: one beat of NumLanes threads per cycle,
//            Beats = 32/NumLanes beats per warp-instruction; the register
//            file is read here)
//         -> EX (operands arrive; lane ALU / FPU inputs / gather buffer)
//         -> the pipe: PipeLat cycles after EX for the ALU and the FPU alike
//            (the FPU's latency, 1 without an FPU), then written through
//            the register file's port P
//   SHFL and memory instructions collect all 32 lanes' operands in the gather
//   buffer (with one lane, in RAM); a memory instruction is then handed to
//   the LSU, whose stage A reads the operands there, and a shuffle to the
//   writer. LSU completions and shuffle results are written back by the
//   writer (port C), one beat per cycle when its bank is free.
// The register file is RfBanks single-port-pair RAMs (baresm_sm_rf). Two
// operands of an instruction in one bank at different entries are read in
// successive cycles, the same for every beat (a "slow" instruction: 2 or 3
// cycles per beat); otherwise a beat takes one cycle. One latency for the
// ALU and the FPU means one pipe write per cycle at most; the writer takes
// the cycles in which the pipe does not write its bank.
// Once issued, an instruction's beats flow without stalling. A fast
// instruction's beats are written back to back, so its register's
// scoreboard bit is cleared one cycle before beat 0 is written: a dependent
// instruction issues the cycle after the clear and reads beat b two cycles
// after that, plus b, when beat b is already there. A slow instruction, and
// the writer, clear one cycle before the last beat is written.
// warp_busy_o keeps a warp slot from being reused while any of its beats is
// still on the way.
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm_exec #(
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,
  parameter int RfDepth = 1008,
  parameter int RfBanks = 8,      // register-file RAMs: a power of two; 32/NumLanes is 1 or >= RfBanks
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b1,    // 0: no FPU lanes (the issue stage never sends CL_FPU)
  parameter int GatherDepth = 5,  // gather-buffer entries (SHFL, memory instructions until the LSU has read their operands)
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1,
  parameter int BeatW = (NumLanes < 32) ? $clog2(32 / NumLanes) : 1   // a beat number
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     clear_i,    // launch start: drop everything in flight
  input  logic                     drain_i,    // fault: take LSU completions, write nothing

  // ---- issue (a pipe instruction: CL_ALU, CL_FPU, CL_SHFL, CL_LSU) ---------
  input  logic                     iss_valid_i,
  input  logic [2:0]               iss_class_i,
  input  logic [6:0]               iss_op_i,
  input  logic [7:0]               iss_mod_i,
  input  logic [5:0]               iss_rd_i,    // destination register (63: none)
  input  logic [2:0]               iss_pd_i,    // destination predicate (7: none)
  input  logic [5:0]               iss_sa_i,    // source registers (63 reads 0)
  input  logic [5:0]               iss_sb_i,
  input  logic [5:0]               iss_sc_i,
  input  logic                     iss_bimm_i,  // operand b is iss_imm_i
  input  logic [31:0]              iss_imm_i,
  input  logic [WarpW-1:0]         iss_warp_i,
  input  logic [AddrW-1:0]         iss_base_i,  // the warp's first register-file entry
  input  logic [31:0]              iss_exec_i,  // lanes with a true guard
  input  logic [31:0]              iss_pvec_i,  // SEL/SETP: pc per lane; VOTE.BALLOT: the ballot
  input  logic [31:0]              iss_pc_i,
  input  logic [47:0]              iss_tid0_i,  // {z,y,x} of lane 0 (S2R TID)
  input  logic [31:0]              iss_sreg_i,  // S2R of a warp-uniform register
  input  logic [31:0]              iss_sbase_i, // the CTA's shared-memory base
  input  logic [31:0]              block_i,     // {y,x} block dims
  output logic                     sq_ready_o,  // an instruction may issue this cycle
  output logic                     gather_free_o,

  input  logic [NumWarps*AddrW-1:0] warp_base_i,
  input  logic                     place_i,     // a warp was placed: its registers read 0
  input  logic [WarpW-1:0]         place_warp_i,

  // ---- scoreboard: register written (beat 0), predicate written (last beat)
  output logic [2:0]               clr_valid_o,
  output logic [3*WarpW-1:0]       clr_warp_o,
  output logic [17:0]              clr_rd_o,
  output logic [1:0]               pw_valid_o,   // 0: ALU, 1: FPU
  output logic [2*WarpW-1:0]       pw_warp_o,
  output logic [5:0]               pw_pd_o,
  output logic [63:0]              pw_mask_o,    // lanes written (32 per port)
  output logic [63:0]              pw_bits_o,
  output logic [1:0]               pw_last_o,    // last beat: clear the pending bit

  // ---- LSU -----------------------------------------------------------------
  output logic                     lsu_req_valid_o,
  input  logic                     lsu_req_ready_i,
  output logic [6:0]               lsu_req_op_o,
  output logic [7:0]               lsu_req_mod_o,
  output logic [WarpW-1:0]         lsu_req_warp_o,
  output logic [5:0]               lsu_req_rd_o,
  output logic [31:0]              lsu_req_mask_o,
  output logic [31:0]              lsu_req_sbase_o,
  output logic [31:0]              lsu_req_pc_o,
  // The operands of the instruction in the LSU's stage A, read in place in
  // its gather entry one beat at a time (baresm_lsu "opnd_*").
  input  logic [BeatW-1:0]         lsu_opnd_beat_i,
  output logic [NumLanes*32-1:0]   lsu_opnd_addr_o,
  output logic [NumLanes*32-1:0]   lsu_opnd_data_o,
  output logic [NumLanes*32-1:0]   lsu_opnd_swap_o,
  input  logic                     lsu_opnd_done_i,
  input  logic                     cpl_valid_i,
  output logic                     cpl_ready_o,
  input  logic [WarpW-1:0]         cpl_warp_i,
  input  logic [5:0]               cpl_rd_i,
  input  logic [31:0]              cpl_mask_i,
  input  logic                     cpl_we_i,
  input  logic [32*32-1:0]         cpl_data_i,
  input  logic                     cpl_fault_i,
  input  logic [3:0]               cpl_fault_kind_i,
  input  logic [4:0]               cpl_fault_lane_i,
  input  logic [31:0]              cpl_fault_addr_i,
  input  logic [31:0]              cpl_pc_i,        // the completed instruction's pc
  output logic                     lsu_done_o,     // a completion was taken
  output logic [WarpW-1:0]         lsu_done_warp_o,
  output logic                     lsu_fault_o,    // ... and it was a fault
  output logic [3:0]               lsu_fault_kind_o,
  output logic [4:0]               lsu_fault_lane_o,
  output logic [31:0]              lsu_fault_addr_o,
  output logic [31:0]              lsu_fault_pc_o,
  output logic                     idle_o,         // nothing in flight
  output logic [NumWarps-1:0]      warp_busy_o     // something of this warp is in flight
`ifndef SYNTHESIS
  ,
  // ---- trace: the register file's write ports A, B, C (lockstep checking) ----
  output logic [2:0]               trace_rf_we_o,
  output logic [3*AddrW-1:0]       trace_rf_addr_o,
  output logic [3*NumLanes-1:0]    trace_rf_mask_o,
  output logic [3*NumLanes*32-1:0] trace_rf_data_o
`endif
);

  localparam int Beats = 32 / NumLanes;
  localparam int LW = NumLanes * 32;
  localparam logic [5:0] RZ = 6'd63;
  localparam logic [2:0] PT = 3'd7;
  localparam int BankBits = (RfBanks > 1) ? $clog2(RfBanks) : 0;
  // Cycles from EX to the register-file write, the ALU's and the FPU's.
  localparam int PipeLat = HasFpu ? FpuLatency : 1;
  localparam int PL = PipeLat - 1;
  localparam int GW = (GatherDepth > 1) ? $clog2(GatherDepth) : 1;   // gather-entry index
  localparam bit GatherRam = NumLanes == 1;   // the gather entries' lanes in RAM (below)

  function automatic logic [AddrW-1:0] rf_addr(input logic [AddrW-1:0] base, input logic [5:0] r,
                                               input logic [BeatW-1:0] beat);
    rf_addr = base + (AddrW'(r) << $clog2(Beats)) + AddrW'(beat);
  endfunction
  function automatic logic [3:0] rf_bank(input logic [AddrW-1:0] e);
    rf_bank = baresm_sm_pkg::rf_bank(16'(e), BankBits, $clog2(Beats));
  endfunction

  // =========================================================================
  // SQ: the beat sequencer
  // =========================================================================
  logic sq_valid_q;
  logic [BeatW-1:0] sq_beat_q;
  logic [2:0] sq_class_q;
  logic [6:0] sq_op_q;
  logic [7:0] sq_mod_q;
  logic [5:0] sq_rd_q, sq_sa_q, sq_sb_q, sq_sc_q;
  logic [2:0] sq_pd_q;
  logic sq_bimm_q;
  logic [31:0] sq_imm_q, sq_exec_q, sq_pvec_q, sq_sreg_q;
  logic [WarpW-1:0] sq_warp_q;
  logic [AddrW-1:0] sq_base_q;
  logic [47:0] sq_tid0_q;
  logic [1:0] sq_sub_q;   // read cycle within the beat
  logic [GW-1:0] sq_gidx_q;   // gather-buffer entry (SHFL, memory instructions)
  logic [GW-1:0] g_head_q, g_tail_q;   // gather buffer: the oldest entry; the next one to take
  logic sq_last, sq_beat_done;

  // ---- operand reads: which cycle of the beat reads which operand ---------------
  // Registers read from the file (RZ reads 0, an immediate b reads nothing)
  // and their beat's entries; two operands that share a bank at different
  // entries are read in different cycles (group 0, 1, 2), the same for every
  // beat (baresm_sm_pkg::rf_bank).
  logic [AddrW-1:0] ra_addr, rb_addr, rc_addr;
  assign ra_addr = rf_addr(sq_base_q, sq_sa_q, sq_beat_q);
  assign rb_addr = rf_addr(sq_base_q, sq_sb_q, sq_beat_q);
  assign rc_addr = rf_addr(sq_base_q, sq_sc_q, sq_beat_q);

  logic [2:0] sq_act;   // c, b, a
  logic c_ab, c_ac, c_bc;
  logic [1:0] grp_b, grp_c, sq_ngrp;
  assign sq_act = {sq_sc_q != RZ, !sq_bimm_q && sq_sb_q != RZ, sq_sa_q != RZ};
  assign c_ab = sq_act[0] && sq_act[1] && rf_bank(ra_addr) == rf_bank(rb_addr) && ra_addr != rb_addr;
  assign c_ac = sq_act[0] && sq_act[2] && rf_bank(ra_addr) == rf_bank(rc_addr) && ra_addr != rc_addr;
  assign c_bc = sq_act[1] && sq_act[2] && rf_bank(rb_addr) == rf_bank(rc_addr) && rb_addr != rc_addr;
  assign grp_b = c_ab ? 2'd1 : 2'd0;
  assign grp_c = (c_ac || (c_bc && !c_ab)) ? ((c_bc && c_ab) ? 2'd2 : 2'd1) : 2'd0;
  assign sq_ngrp = (grp_b > grp_c) ? grp_b : grp_c;

  logic [2:0] rf_ren;
  assign rf_ren = sq_valid_q ? (sq_act & {grp_c == sq_sub_q, grp_b == sq_sub_q, sq_sub_q == 2'd0})
                             : 3'b000;

  assign sq_beat_done = sq_sub_q == sq_ngrp;
  assign sq_last = sq_beat_q == BeatW'(Beats - 1) && sq_beat_done;
  assign sq_ready_o = !sq_valid_q || sq_last;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sq_valid_q <= 1'b0;
      sq_beat_q <= '0;
      sq_sub_q <= '0;
    end else if (clear_i) begin
      sq_valid_q <= 1'b0;
      sq_beat_q <= '0;
      sq_sub_q <= '0;
    end else if (iss_valid_i) begin
      sq_valid_q <= 1'b1;
      sq_beat_q <= '0;
      sq_sub_q <= '0;
    end else if (sq_valid_q) begin
      if (sq_beat_done) begin
        sq_valid_q <= !sq_last;
        sq_beat_q <= sq_last ? '0 : sq_beat_q + BeatW'(1);
        sq_sub_q <= '0;
      end else begin
        sq_sub_q <= sq_sub_q + 2'd1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (iss_valid_i) begin
      sq_class_q <= iss_class_i;
      sq_op_q <= iss_op_i;
      sq_mod_q <= iss_mod_i;
      sq_rd_q <= iss_rd_i;
      sq_pd_q <= iss_pd_i;
      sq_sa_q <= iss_sa_i;
      sq_sb_q <= iss_sb_i;
      sq_sc_q <= iss_sc_i;
      sq_bimm_q <= iss_bimm_i;
      sq_imm_q <= iss_imm_i;
      sq_warp_q <= iss_warp_i;
      sq_base_q <= iss_base_i;
      sq_exec_q <= iss_exec_i;
      sq_pvec_q <= iss_pvec_i;
      sq_tid0_q <= iss_tid0_i;
      sq_sreg_q <= iss_sreg_i;
      sq_gidx_q <= g_tail_q;
    end
  end

  // ---- register file ----------------------------------------------------------
  logic [LW-1:0] rd_a, rd_b, rd_c;
  logic wp_en, wc_en;
  logic wp_first, wc_first;   // beat 0 of the instruction's write
  logic [WarpW-1:0] wp_warp, wc_warp;
  logic [5:0] wp_reg, wc_reg;
  logic [AddrW-1:0] wp_addr, wc_addr;
  logic [NumLanes-1:0] wp_mask, wc_mask;
  logic [LW-1:0] wp_data, wc_data;

  baresm_sm_rf #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs (NumRegs),
    .Depth   (RfDepth),
    .Banks   (RfBanks),
    .AddrW   (AddrW),
    .WarpW   (WarpW)
  ) u_rf (
    .clk_i,
    .rst_ni,
    .clr_i     (place_i),
    .clr_warp_i(place_warp_i),
    .ren_i     (rf_ren),
    .rfirst_i  (sq_beat_q == '0),
    .rwarp_i   (sq_warp_q),
    .rreg_a_i  (sq_sa_q),
    .rreg_b_i  (sq_sb_q),
    .rreg_c_i  (sq_sc_q),
    .raddr_a_i (ra_addr),
    .raddr_b_i (rb_addr),
    .raddr_c_i (rc_addr),
    .rdata_a_o (rd_a),
    .rdata_b_o (rd_b),
    .rdata_c_o (rd_c),
    .we_p_i    (wp_en),
    .wfirst_p_i(wp_first),
    .wwarp_p_i (wp_warp),
    .wreg_p_i  (wp_reg),
    .waddr_p_i (wp_addr),
    .wmask_p_i (wp_mask),
    .wdata_p_i (wp_data),
    .we_c_i    (wc_en),
    .wfirst_c_i(wc_first),
    .wwarp_c_i (wc_warp),
    .wreg_c_i  (wc_reg),
    .waddr_c_i (wc_addr),
    .wmask_c_i (wc_mask),
    .wdata_c_i (wc_data)
  );

  // =========================================================================
  // EX: operands are here
  // =========================================================================
  logic ex_valid_q;
  logic [BeatW-1:0] ex_beat_q;
  logic [2:0] ex_class_q;
  logic [6:0] ex_op_q;
  logic [7:0] ex_mod_q;
  logic [5:0] ex_rd_q;
  logic [2:0] ex_pd_q;
  logic ex_rza_q, ex_rzb_q, ex_rzc_q, ex_bimm_q, ex_last_q, ex_slow_q;
  logic [31:0] ex_imm_q, ex_exec_q, ex_pvec_q, ex_sreg_q;
  logic [WarpW-1:0] ex_warp_q;
  logic [AddrW-1:0] ex_base_q;
  logic [2:0] ex_held_q;   // c, b, a: the operand was read before the beat's last read cycle
  logic [GW-1:0] ex_gidx_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ex_valid_q <= 1'b0;
    else if (clear_i) ex_valid_q <= 1'b0;
    else ex_valid_q <= sq_valid_q && sq_beat_done;
  end

  always_ff @(posedge clk_i) begin
    if (sq_valid_q && sq_beat_done) begin
      ex_slow_q <= sq_ngrp != 2'd0;
      ex_held_q <= {grp_c != sq_ngrp, grp_b != sq_ngrp, sq_ngrp != 2'd0};
      ex_beat_q <= sq_beat_q;
      ex_last_q <= sq_last;
      ex_class_q <= sq_class_q;
      ex_op_q <= sq_op_q;
      ex_mod_q <= sq_mod_q;
      ex_rd_q <= sq_rd_q;
      ex_pd_q <= sq_pd_q;
      ex_rza_q <= sq_sa_q == RZ;
      ex_rzb_q <= sq_sb_q == RZ;
      ex_rzc_q <= sq_sc_q == RZ;
      ex_bimm_q <= sq_bimm_q;
      ex_imm_q <= sq_imm_q;
      ex_exec_q <= sq_exec_q;
      ex_pvec_q <= sq_pvec_q;
      ex_sreg_q <= sq_sreg_q;
      ex_warp_q <= sq_warp_q;
      ex_base_q <= sq_base_q;
      ex_gidx_q <= sq_gidx_q;
    end
  end

  // Operands read in an earlier cycle of a slow beat wait in hold_*_q: taken
  // from the file the cycle after their read, before their bank's output
  // can change.
  logic [2:0] hold_take_q;
  logic [LW-1:0] hold_a_q, hold_b_q, hold_c_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) hold_take_q <= '0;
    else hold_take_q <= rf_ren & {grp_c != sq_ngrp, grp_b != sq_ngrp, sq_ngrp != 2'd0};
  end
  always_ff @(posedge clk_i) begin
    if (hold_take_q[0]) hold_a_q <= rd_a;
    if (hold_take_q[1]) hold_b_q <= rd_b;
    if (hold_take_q[2]) hold_c_q <= rd_c;
  end

  // Operands of this beat's lanes.
  logic [LW-1:0] op_a, op_b, op_c;
  assign op_a = ex_rza_q ? '0 : (ex_held_q[0] ? hold_a_q : rd_a);
  assign op_b = ex_bimm_q ? {NumLanes{ex_imm_q}} : (ex_rzb_q ? '0 : (ex_held_q[1] ? hold_b_q : rd_b));
  assign op_c = ex_rzc_q ? '0 : (ex_held_q[2] ? hold_c_q : rd_c);

  // The lanes of this beat: exec mask and per-lane predicate operand.
  logic [NumLanes-1:0] ex_lmask, ex_lpvec;
  assign ex_lmask = ex_exec_q[ex_beat_q*NumLanes +: NumLanes];
  assign ex_lpvec = ex_pvec_q[ex_beat_q*NumLanes +: NumLanes];

  // S2R of a per-thread register: TID.X/Y/Z walk the thread ids from the
  // beat's first lane (ex_tid_q: lane 0's ids at beat 0, then NumLanes
  // threads further each beat), LANEID; everything else is warp-uniform
  // (ex_sreg_q). Only NumLanes id steps per beat, no divider.
  logic [47:0] ex_tid_q, tid_adv;
  always_comb begin
    tid_adv = ex_tid_q;
    if (sq_valid_q && sq_beat_done && sq_op_q == baresm_isa_pkg::OP_S2R && sq_beat_q != '0) begin
      for (int p = 0; p < NumLanes; p++) tid_adv = baresm_sm_pkg::tid_next(tid_adv, block_i);
    end
  end
  always_ff @(posedge clk_i) begin
    if (sq_valid_q && sq_beat_done) ex_tid_q <= (sq_beat_q == '0) ? sq_tid0_q : tid_adv;
  end

  logic [LW-1:0] sreg_lane;
  logic [47:0] tid;
  always_comb begin
    sreg_lane = '0;
    tid = ex_tid_q;
    if (ex_valid_q && ex_class_q == baresm_sm_pkg::CL_ALU && ex_op_q == baresm_isa_pkg::OP_S2R) begin
      for (int p = 0; p < NumLanes; p++) begin
        unique case (ex_mod_q)
          baresm_isa_pkg::SR_TID_X: sreg_lane[p*32 +: 32] = {16'd0, tid[15:0]};
          baresm_isa_pkg::SR_TID_Y: sreg_lane[p*32 +: 32] = {16'd0, tid[31:16]};
          baresm_isa_pkg::SR_TID_Z: sreg_lane[p*32 +: 32] = {16'd0, tid[47:32]};
          baresm_isa_pkg::SR_LANEID: sreg_lane[p*32 +: 32] = 32'(ex_beat_q) * NumLanes + 32'(p);
          default: sreg_lane[p*32 +: 32] = ex_sreg_q;
        endcase
        tid = baresm_sm_pkg::tid_next(tid, block_i);
      end
    end
  end

  // ---- lane ALU ---------------------------------------------------------------------
  logic ex_vote_pred;  // VOTE.ANY/ALL: its answer (operand b, all ones or 0) to a predicate
  assign ex_vote_pred = ex_op_q == baresm_isa_pkg::OP_VOTE && ex_mod_q[1:0] != baresm_isa_pkg::VOTE_BALLOT;
  logic [LW-1:0] alu_res;
  logic [NumLanes-1:0] alu_pred;
  always_comb begin
    alu_res = '0;
    alu_pred = '0;
    if (ex_valid_q && ex_class_q == baresm_sm_pkg::CL_ALU) begin
      for (int p = 0; p < NumLanes; p++) begin
        alu_res[p*32 +: 32] = baresm_sm_pkg::alu(ex_op_q, ex_mod_q[0], op_a[p*32 +: 32],
            op_b[p*32 +: 32], op_c[p*32 +: 32], ex_lpvec[p],
            sreg_lane[p*32 +: 32]);
        alu_pred[p] = ex_vote_pred ? op_b[p*32] :
            baresm_sm_pkg::pcomb(ex_mod_q[5:4],
                baresm_sm_pkg::icmp(ex_mod_q[2:0], ex_mod_q[3], op_a[p*32 +: 32], op_b[p*32 +: 32]),
                ex_lpvec[p]);
      end
    end
  end

  // ---- FPU: NumLanes pipelined lanes ----------------------------------------------------
  // Without the FPU (HasFpu 0) no lane is built: an FPU instruction faults at
  // issue, so ex_fpu is constant 0.
  logic ex_alu, ex_fpu;
  assign ex_alu = ex_valid_q && ex_class_q == baresm_sm_pkg::CL_ALU;
  assign ex_fpu = HasFpu && ex_valid_q && ex_class_q == baresm_sm_pkg::CL_FPU;

  logic [LW-1:0] fpu_res;
  logic [NumLanes-1:0] fpu_cmp;
  logic                fpu_ovalid;
  if (HasFpu) begin : g_has_fpu
    baresm_fpu #(
      .NumLanes(NumLanes),
      .Latency (FpuLatency)
    ) u_fpu (
      .clk_i,
      .rst_ni,
      .in_valid_i (ex_fpu),
      .op_i       (ex_op_q),
      .mod_i      (ex_mod_q),
      .a_i        (op_a),
      .b_i        (op_b),
      .c_i        (op_c),
      .out_valid_o(fpu_ovalid),
      .result_o   (fpu_res),
      .cmp_o      (fpu_cmp)
    );
  end else begin : g_no_fpu
    assign fpu_res = '0;
    assign fpu_cmp = '0;
    assign fpu_ovalid = 1'b0;
  end

  // ---- the pipe: PipeLat stages after EX, ALU and FPU beats alike -------------------------
  // Stage PL is written to the register file (port P) or, for ISETP/FSETP,
  // to the predicate file (port 0 for the ALU, 1 for the FPU). The ALU's
  // results ride along in pt_data_q; the FPU's come out of its lanes.
  // A beat's tag: what its write needs, carried down the pipe with it.
  // Stored as a plain vector per stage (Yosys 0.23 reads an unpacked array
  // of a struct type as one wire).
  typedef struct packed {
    logic                alu;    // an ALU beat (else FPU)
    logic                setp;   // ISETP/FSETP/VOTE.ANY/ALL: writes a predicate
    logic                first;  // the instruction's first beat
    logic                last;   // ... its last
    logic                slow;   // released at the last beat (else the first)
    logic [1:0]          comb;   // SETP's combine with the accumulate predicate
    logic [WarpW-1:0]    warp;
    logic [AddrW-1:0]    base;   // the warp's register-file base
    logic [BeatW-1:0]    beat;
    logic [5:0]          rd;
    logic [2:0]          pd;
    logic [NumLanes-1:0] lmask;  // the beat's lanes written
    logic [NumLanes-1:0] pvec;   // SETP's accumulate predicate, per lane
  } pipe_tag_t;
  localparam int TagW = 7 + WarpW + AddrW + BeatW + 6 + 3 + 2 * NumLanes;
  localparam int TagAlu = TagW - 1;  // the bit of pipe_tag_t.alu (its first field)
  // ... and of its warp (above base, beat, rd, pd, lmask, pvec), as for the
  // gather entries.
  localparam int TagWarpLsb = AddrW + BeatW + 6 + 3 + 2 * NumLanes;

  pipe_tag_t ex_tag;  // the beat leaving EX
  assign ex_tag = {ex_alu, ex_op_q == baresm_isa_pkg::OP_ISETP || ex_op_q == baresm_isa_pkg::OP_FSETP ||
                   ex_vote_pred,
                   ex_beat_q == '0, ex_last_q, ex_slow_q, ex_mod_q[5:4], ex_warp_q, ex_base_q, ex_beat_q,
                   ex_rd_q, ex_pd_q, ex_lmask, ex_lpvec};

  logic pt_valid_q [PipeLat];
  logic [TagW-1:0] pt_tag_q [PipeLat];
  logic [NumLanes-1:0] pt_pbits_q [PipeLat];   // ALU: ISETP's results
  logic [LW-1:0] pt_data_q [PipeLat];          // ALU: the results

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < PipeLat; i++) pt_valid_q[i] <= 1'b0;
    end else if (clear_i) begin
      for (int i = 0; i < PipeLat; i++) pt_valid_q[i] <= 1'b0;
    end else begin
      pt_valid_q[0] <= ex_alu || ex_fpu;
      for (int i = 1; i < PipeLat; i++) pt_valid_q[i] <= pt_valid_q[i-1];
    end
  end

  always_ff @(posedge clk_i) begin
    if (ex_alu || ex_fpu) pt_tag_q[0] <= ex_tag;
    if (ex_alu) begin
      pt_pbits_q[0] <= alu_pred;
      pt_data_q[0] <= alu_res;
    end
    for (int i = 1; i < PipeLat; i++) begin
      if (pt_valid_q[i-1]) pt_tag_q[i] <= pt_tag_q[i-1];
      if (pt_valid_q[i-1] && pt_tag_q[i-1][TagAlu]) begin
        pt_pbits_q[i] <= pt_pbits_q[i-1];
        pt_data_q[i] <= pt_data_q[i-1];
      end
    end
  end

  pipe_tag_t t;  // the beat at stage PL, being written
  assign t = pt_tag_q[PL];

  logic [NumLanes-1:0] fpu_pbits, pt_pbits, t_pvec;
  assign t_pvec = t.pvec;  // (Icarus 11 cannot index a struct member by a variable)
  always_comb begin
    for (int p = 0; p < NumLanes; p++)
      fpu_pbits[p] = baresm_sm_pkg::pcomb(t.comb, fpu_cmp[p], t_pvec[p]);
  end
  assign pt_pbits = t.alu ? pt_pbits_q[PL] : fpu_pbits;

  // Every beat goes to the register file, an empty lane mask included: a
  // register's first write fills all of its beats (baresm_sm_rf).
  assign wp_en = pt_valid_q[PL] && !t.setp && t.rd != RZ;
  assign wp_first = t.first;
  assign wp_warp = t.warp;
  assign wp_reg = t.rd;
  assign wp_addr = rf_addr(t.base, t.rd, t.beat);
  assign wp_mask = t.lmask;
  assign wp_data = t.alu ? pt_data_q[PL] : fpu_res;

  // The pipe's beat one cycle before its write (stage PL-1, or EX with one
  // stage): the scoreboard release and the writer's look-ahead (that write
  // is certain: the pipe never waits).
  logic pc_valid;
  pipe_tag_t pc;
  assign pc_valid = (PipeLat >= 2) ? pt_valid_q[(PL >= 1) ? PL - 1 : 0] : ex_alu || ex_fpu;
  assign pc = (PipeLat >= 2) ? pt_tag_q[(PL >= 1) ? PL - 1 : 0] : ex_tag;

  logic wp_next_en;
  logic [AddrW-1:0] wp_next_addr;
  assign wp_next_en = pc_valid && !pc.setp && pc.rd != RZ;
  assign wp_next_addr = rf_addr(pc.base, pc.rd, pc.beat);

  // ---- predicate writes ------------------------------------------------------------------
  always_comb begin
    pw_valid_o = '0;
    pw_warp_o = '0;
    pw_pd_o = '0;
    pw_mask_o = '0;
    pw_bits_o = '0;
    pw_last_o = '0;
    if (pt_valid_q[PL] && t.setp && t.pd != PT) begin
      for (int k = 0; k < 2; k++) begin
        if (t.alu == (k == 0)) begin
          pw_valid_o[k] = 1'b1;
          pw_warp_o[k*WarpW +: WarpW] = t.warp;
          pw_pd_o[k*3 +: 3] = t.pd;
          pw_mask_o[k*32 + t.beat*NumLanes +: NumLanes] = t.lmask;
          pw_bits_o[k*32 + t.beat*NumLanes +: NumLanes] = pt_pbits;
          pw_last_o[k] = t.last;
        end
      end
    end
  end

  // =========================================================================
  // Gather buffer (SHFL, memory instructions): GatherDepth entries, taken at
  // issue, filled in EX and emptied in issue order. A memory instruction's
  // entry is offered to the LSU once full (g_offer_q: the oldest entry not
  // yet taken) and stays held while the LSU's stage A reads its operands in
  // place (lsu_opnd_*: the oldest entry, g_head_q), until lsu_opnd_done_i: 5
  // cycles with one beat for a conflict-free shared access, so 5 entries let
  // a memory instruction issue every cycle. A shuffle runs from the head
  // (the writer computes it from the entry) and is released when written.
  // =========================================================================
  // Beat b of a 32-lane vector of words, as a compare per beat (Yosys makes
  // each bit an AND-OR over the beats, not a shifter of the 1,024 bits).
  function automatic logic [LW-1:0] beat_words(input logic [32*32-1:0] v, input logic [BeatW-1:0] b);
    beat_words = '0;
    for (int k = 0; k < Beats; k++) begin
      if (b == BeatW'(k)) beat_words = v[LW*k +: LW];
    end
  endfunction
  function automatic logic [GW-1:0] g_next(input logic [GW-1:0] i);
    g_next = (32'(i) == GatherDepth - 1) ? '0 : i + GW'(1);
  endfunction

  // An entry's instruction, taken at issue. Stored as a plain vector per
  // entry (Yosys 0.23 reads an unpacked array of a struct type as one wire).
  typedef struct packed {
    logic             lsu;    // for the LSU (else a SHFL)
    logic [6:0]       op;
    logic [7:0]       mod;
    logic [WarpW-1:0] warp;
    logic [5:0]       rd;
    logic [31:0]      exec;
    logic [31:0]      pc;
    logic [31:0]      sbase;  // the CTA's shared-memory base
  } gather_instr_t;
  localparam int GInstrW = 1 + 7 + 8 + WarpW + 6 + 3 * 32;
  // Where the warp field sits in the vector (above rd, exec, pc, sbase), for
  // the busy scan over all entries: Yosys 0.23 sees no fields of a struct
  // declared inside a process or a generate block. Asserted below.
  localparam int GInstrWarpLsb = 6 + 3 * 32;

  logic [GatherDepth-1:0] g_used_q, g_full_q, g_lsu_q;   // taken at issue, gathered, in the LSU
  logic [GW-1:0] g_offer_q;
  logic [GInstrW-1:0] g_instr_q [GatherDepth];

  // The oldest entry: a shuffle the writer takes, or the instruction in the
  // LSU's stage A; and the entry offered to the LSU.
  logic h_full, o_full;
  gather_instr_t h, o;
  assign h_full = g_full_q[g_head_q];
  assign h = g_instr_q[g_head_q];
  assign o_full = g_full_q[g_offer_q] && !g_lsu_q[g_offer_q];
  assign o = g_instr_q[g_offer_q];

  logic ex_gather;
  assign ex_gather = ex_valid_q && (ex_class_q == baresm_sm_pkg::CL_SHFL ||
                                    ex_class_q == baresm_sm_pkg::CL_LSU);
  assign gather_free_o = !(&g_used_q);

  logic lsu_take, shfl_take, shfl_done, shfl_release, g_release;
  logic iss_gather;
  assign iss_gather = iss_valid_i && (iss_class_i == baresm_sm_pkg::CL_SHFL ||
                                      iss_class_i == baresm_sm_pkg::CL_LSU);
  assign shfl_release = (shfl_take && h.rd == RZ) || shfl_done;
  assign g_release = lsu_opnd_done_i || shfl_release;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      g_head_q <= '0;
      g_tail_q <= '0;
      g_offer_q <= '0;
      g_used_q <= '0;
      g_full_q <= '0;
      g_lsu_q <= '0;
    end else if (clear_i) begin
      g_head_q <= '0;
      g_tail_q <= '0;
      g_offer_q <= '0;
      g_used_q <= '0;
      g_full_q <= '0;
      g_lsu_q <= '0;
    end else begin
      if (iss_gather) begin
        g_tail_q <= g_next(g_tail_q);
        g_used_q[g_tail_q] <= 1'b1;
      end
      if (ex_gather && ex_last_q) g_full_q[ex_gidx_q] <= 1'b1;
      // A shuffle leaves from the head, where the offer stands too; the LSU
      // takes the offered entry.
      if (lsu_take || shfl_release) g_offer_q <= g_next(g_offer_q);
      if (lsu_take) g_lsu_q[g_offer_q] <= 1'b1;
      if (g_release) begin
        g_head_q <= g_next(g_head_q);
        g_used_q[g_head_q] <= 1'b0;
        g_full_q[g_head_q] <= 1'b0;
        g_lsu_q[g_head_q] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (iss_gather) begin
      g_instr_q[g_tail_q] <= {iss_class_i == baresm_sm_pkg::CL_LSU, iss_op_i, iss_mod_i, iss_warp_i,
                              iss_rd_i, iss_exec_i, iss_pc_i, iss_sbase_i};
    end
  end

  // ---- the shuffle (docs/isa.md "Shuffles") -------------------------------------------
  // A full gather entry holding a SHFL is handed to the writer, which
  // writes the beat's NumLanes results from it (the entry stays taken until
  // the last beat). Output lane l reads operand a of lane shfl_src(mod, l,
  // its b).
  function automatic logic [4:0] shfl_src(input logic [4:0] mode, input logic [4:0] l, input logic [31:0] bv);
    logic [31:0] w, base, sl;
    w = 32'd1 << mode[4:2];
    sl = 32'(l);
    base = sl & ~(w - 32'd1);
    case (mode[1:0])
      baresm_isa_pkg::SHFL_IDX: shfl_src = 5'(base + (bv & (w - 32'd1)));
      baresm_isa_pkg::SHFL_UP: shfl_src = (bv > sl - base) ? l : 5'(sl - bv);
      baresm_isa_pkg::SHFL_DOWN: shfl_src = (33'(sl) + 33'(bv) >= 33'(base + w)) ? l : 5'(sl + bv);
      default: shfl_src = 5'(sl ^ (bv & (w - 32'd1)));
    endcase
  endfunction

  // The writer's state (below), declared here for the shuffle.
  logic wr_valid_q, wr_shfl_q, wr_cleared_q;
  logic [BeatW-1:0] wr_beat_q, wr_next_beat;
  logic cpl_needs_wr, cpl_take, wr_cpl, wr_shfl, wr_act, wr_go, wr_last, wr_done;
  logic shfl_ready;
  assign shfl_ready = h_full && !h.lsu;
  logic [LW-1:0] shfl_beat;   // the shuffle's results of beat wr_beat_q

  // ---- the entries' lanes -------------------------------------------------------------
  // With one lane (32 beats of one word) the lanes are three synchronous
  // RAMs (iCE40 EBR), each read one word per cycle: by the LSU's stage A
  // (its operands, the cycle after it names the beat) or by a running
  // shuffle (the source of its next output lane, from a table of source
  // lanes computed in EX). Both read the head entry, which is either a
  // shuffle or the LSU's, so they never read in the same cycle. With more
  // lanes the lanes are flip-flops: a shuffle beat reads NumLanes arbitrary
  // lanes at once.
  if (GatherRam) begin : g_ram
    localparam int Rows = GatherDepth * Beats;
    localparam int RowW = $clog2(Rows);
    logic [32*5-1:0] src_q [GatherDepth];   // SHFL: each output lane's source lane
    logic [GW-1:0] head_n;                   // the head entry in the next cycle
    logic [RowW-1:0] wrow, rrow;
    logic [4:0] src_lane;
    logic [31:0] gr_a, gr_b, gr_c;
    assign head_n = g_release ? g_next(g_head_q) : g_head_q;
    assign wrow = RowW'(32'(ex_gidx_q) * Beats + 32'(ex_beat_q));
    assign src_lane = src_q[g_head_q][5*32'(wr_next_beat) +: 5];
    assign rrow = wr_shfl ? RowW'(32'(g_head_q) * Beats + 32'(src_lane))
                          : RowW'(32'(head_n) * Beats + 32'(lsu_opnd_beat_i));
    always_ff @(posedge clk_i) begin
      if (ex_gather && ex_class_q == baresm_sm_pkg::CL_SHFL)
        src_q[ex_gidx_q][5*32'(ex_beat_q) +: 5] <= shfl_src(ex_mod_q[4:0], 5'(ex_beat_q), op_b[31:0]);
    end
    // Memory instructions gather effective addresses (ra + imm).
    baresm_ram_1r1w #(.Depth(Rows), .Width(32)) u_ga (
      .clk_i, .re_i(1'b1), .raddr_i(rrow), .rdata_o(gr_a), .we_i(ex_gather), .waddr_i(wrow), .wmask_i(1'b1),
      .wdata_i(op_a[31:0] + (ex_class_q == baresm_sm_pkg::CL_LSU ? ex_imm_q : 32'd0)));
    baresm_ram_1r1w #(.Depth(Rows), .Width(32)) u_gb (
      .clk_i, .re_i(1'b1), .raddr_i(rrow), .rdata_o(gr_b), .we_i(ex_gather), .waddr_i(wrow), .wmask_i(1'b1),
      .wdata_i(op_b[31:0]));
    baresm_ram_1r1w #(.Depth(Rows), .Width(32)) u_gc (
      .clk_i, .re_i(1'b1), .raddr_i(rrow), .rdata_o(gr_c), .we_i(ex_gather), .waddr_i(wrow), .wmask_i(1'b1),
      .wdata_i(op_c[31:0]));
    assign shfl_beat = gr_a;
    assign lsu_opnd_addr_o = gr_a;
    assign lsu_opnd_data_o = gr_b;
    assign lsu_opnd_swap_o = gr_c;
  end else begin : g_ff
    logic [32*32-1:0] ga_q [GatherDepth];
    logic [32*32-1:0] gb_q [GatherDepth];
    logic [32*32-1:0] gc_q [GatherDepth];
    logic [32*32-1:0] h_a, h_b;
    logic [BeatW-1:0] opnd_beat_q;
    assign h_a = ga_q[g_head_q];
    assign h_b = gb_q[g_head_q];
    always_ff @(posedge clk_i) begin
      if (ex_gather) begin
        for (int p = 0; p < NumLanes; p++) begin
          // Memory instructions gather effective addresses (ra + imm).
          ga_q[ex_gidx_q][(32'(ex_beat_q) * NumLanes + p) * 32 +: 32] <=
              op_a[p*32 +: 32] + (ex_class_q == baresm_sm_pkg::CL_LSU ? ex_imm_q : 32'd0);
          gb_q[ex_gidx_q][(32'(ex_beat_q) * NumLanes + p) * 32 +: 32] <= op_b[p*32 +: 32];
          gc_q[ex_gidx_q][(32'(ex_beat_q) * NumLanes + p) * 32 +: 32] <= op_c[p*32 +: 32];
        end
      end
      opnd_beat_q <= lsu_opnd_beat_i;
    end
    always_comb begin
      logic [4:0] l;
      shfl_beat = '0;
      l = '0;
      if (wr_shfl) begin
        for (int p = 0; p < NumLanes; p++) begin
          l = 5'(32'(wr_beat_q) * NumLanes + 32'(p));
          shfl_beat[p*32 +: 32] = h_a[shfl_src(h.mod[4:0], l, h_b[l*32 +: 32])*32 +: 32];
        end
      end
    end
    // Stage A's operands: the head entry's lanes of the beat it named
    // (selected only while the LSU holds the head: a verilated model then
    // skips the 3 x LW bits when the LSU reads nothing).
    always_comb begin
      lsu_opnd_addr_o = '0;
      lsu_opnd_data_o = '0;
      lsu_opnd_swap_o = '0;
      if (g_lsu_q[g_head_q]) begin
        lsu_opnd_addr_o = beat_words(ga_q[g_head_q], opnd_beat_q);
        lsu_opnd_data_o = beat_words(gb_q[g_head_q], opnd_beat_q);
        lsu_opnd_swap_o = beat_words(gc_q[g_head_q], opnd_beat_q);
      end
    end
  end

  // ---- LSU request ------------------------------------------------------------------------
  assign lsu_req_valid_o = o_full && o.lsu && !drain_i;
  assign lsu_req_op_o = o.op;
  assign lsu_req_mod_o = o.mod;
  assign lsu_req_warp_o = o.warp;
  assign lsu_req_rd_o = o.rd;
  assign lsu_req_mask_o = o.exec;
  assign lsu_req_sbase_o = o.sbase;
  assign lsu_req_pc_o = o.pc;
  assign lsu_take = lsu_req_valid_o && lsu_req_ready_i;

  // =========================================================================
  // Writer: LSU completions and shuffle results, port C
  // =========================================================================
  // The writer copies nothing: its source holds the job until the last beat
  // is written (the LSU's completion until it is taken, the shuffle in the
  // gather buffer's head until shfl_done), so each beat is read from there.
  // A job writes its first beat in the cycle it starts; completions come
  // before shuffles. wr_valid_q marks a job past its first cycle, wr_shfl_q
  // its source; wr_beat_q is 0 between jobs.
  logic [WarpW-1:0] wr_warp;
  logic [5:0] wr_rd;
  logic [31:0] wr_mask;
  assign cpl_needs_wr = cpl_we_i && !cpl_fault_i && cpl_rd_i != RZ && !drain_i;
  assign wr_cpl = wr_valid_q ? !wr_shfl_q : cpl_valid_i && cpl_needs_wr;
  assign shfl_take = shfl_ready && !wr_valid_q && !(cpl_valid_i && cpl_needs_wr) && !drain_i;
  assign wr_shfl = wr_valid_q ? wr_shfl_q : shfl_take && h.rd != RZ;
  assign wr_act = wr_cpl || wr_shfl;
  assign wr_warp = wr_shfl ? h.warp : cpl_warp_i;
  assign wr_rd = wr_shfl ? h.rd : cpl_rd_i;
  assign wr_mask = wr_shfl ? h.exec : cpl_mask_i;

  // A beat is written when the pipe does not write that bank in the same
  // cycle; with RAM lanes a shuffle's first cycle only reads its first
  // source lane (wr_wait).
  logic wr_wait;
  assign wr_wait = GatherRam && wr_shfl && !wr_valid_q;
  assign wc_addr = rf_addr(warp_base_i[wr_warp*AddrW +: AddrW], wr_rd, wr_beat_q);
  assign wr_go = wr_act && !wr_wait && !(wp_en && rf_bank(wp_addr) == rf_bank(wc_addr));
  assign wr_last = wr_beat_q == BeatW'(Beats - 1);
  assign wr_done = wr_go && wr_last;
  assign shfl_done = wr_done && wr_shfl;
  assign cpl_ready_o = wr_cpl ? wr_done : !cpl_needs_wr;
  assign cpl_take = cpl_valid_i && cpl_ready_o;

  // The scoreboard bit of the job's register is released with its last
  // beat, or one cycle earlier when that beat is sure to be written next
  // cycle: the writer will be at it and the pipe's next write is in another
  // bank (the pipe never waits; the source holds the job).
  logic wr_clr, wr_clr_early;
  assign wr_next_beat = wr_beat_q + BeatW'(wr_go);
  assign wr_clr_early = wr_act && !wr_done && wr_next_beat == BeatW'(Beats - 1) &&
                        !(wp_next_en && rf_bank(wp_next_addr) ==
                          rf_bank(rf_addr(warp_base_i[wr_warp*AddrW +: AddrW], wr_rd, wr_next_beat)));
  assign wr_clr = !wr_cleared_q && (wr_done || wr_clr_early);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_valid_q <= 1'b0;
      wr_shfl_q <= 1'b0;
      wr_cleared_q <= 1'b0;
      wr_beat_q <= '0;
    end else if (clear_i) begin
      wr_valid_q <= 1'b0;
      wr_shfl_q <= 1'b0;
      wr_cleared_q <= 1'b0;
      wr_beat_q <= '0;
    end else begin
      wr_valid_q <= wr_act && !wr_done;
      wr_shfl_q <= wr_shfl && !wr_done;
      wr_cleared_q <= (wr_cleared_q || wr_clr) && !wr_done;
      wr_beat_q <= wr_done ? '0 : wr_next_beat;
    end
  end

  assign wc_en = wr_go;
  assign wc_first = wr_beat_q == '0;
  assign wc_warp = wr_warp;
  assign wc_reg = wr_rd;
  assign wc_mask = wr_mask[wr_beat_q*NumLanes +: NumLanes];
  assign wc_data = wr_shfl ? shfl_beat : cpl_data_i[wr_beat_q*LW +: LW];

  // Scoreboard clears: the pipe at its stage before the write (pc_*) for
  // beat 0, or the last beat of a slow instruction; the writer as above.
  // Port 0 for the ALU, 1 for the FPU.
  always_comb begin
    clr_valid_o = '0;
    clr_warp_o = '0;
    clr_rd_o = '0;
    if (pc_valid && !pc.setp && pc.rd != RZ && (pc.slow ? pc.last : pc.first)) begin
      for (int k = 0; k < 2; k++) begin
        if (pc.alu == (k == 0)) begin
          clr_valid_o[k] = 1'b1;
          clr_warp_o[k*WarpW +: WarpW] = pc.warp;
          clr_rd_o[k*6 +: 6] = pc.rd;
        end
      end
    end
    if (wr_clr) begin
      clr_valid_o[2] = 1'b1;
      clr_warp_o[2*WarpW +: WarpW] = wr_warp;
      clr_rd_o[17:12] = wr_rd;
    end
  end

  // Warps with anything in the pipe or the gather buffer (the writer's jobs
  // stay in their sources: the gather buffer or the LSU).
  always_comb begin
    warp_busy_o = '0;
    if (sq_valid_q) warp_busy_o[sq_warp_q] = 1'b1;
    if (ex_valid_q) warp_busy_o[ex_warp_q] = 1'b1;
    for (int i = 0; i < PipeLat; i++) begin
      if (pt_valid_q[i]) warp_busy_o[pt_tag_q[i][TagWarpLsb +: WarpW]] = 1'b1;
    end
    for (int k = 0; k < GatherDepth; k++) begin
      if (g_used_q[k]) warp_busy_o[g_instr_q[k][GInstrWarpLsb +: WarpW]] = 1'b1;
    end
  end

  // ---- completions (in any order; each carries its instruction's pc) ----------------------------
  assign lsu_done_o = cpl_take;
  assign lsu_done_warp_o = cpl_warp_i;
  assign lsu_fault_o = cpl_take && cpl_fault_i;
  assign lsu_fault_kind_o = cpl_fault_kind_i;
  assign lsu_fault_lane_o = cpl_fault_lane_i;
  assign lsu_fault_addr_o = cpl_fault_addr_i;
  assign lsu_fault_pc_o = cpl_pc_i;

  logic pt_any;
  always_comb begin
    pt_any = 1'b0;
    for (int i = 0; i < PipeLat; i++) pt_any = pt_any | pt_valid_q[i];
  end
  assign idle_o = !sq_valid_q && !ex_valid_q && !pt_any &&
                  g_used_q == '0 && !wr_valid_q;

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The issue stage only issues what the sequencer and the gather buffer can
  // take; a beat number stays below Beats.
  `BARESM_ASSERT(a_issue_when_ready, !iss_valid_i || sq_ready_o)
  `BARESM_ASSERT(a_gather_has_room, !iss_gather || gather_free_o)
  // An entry is filled only after it was taken at issue, and only once.
  // The field positions used by the busy scan are the structs' own.
  logic fields_at_lsb;
  assign fields_at_lsb = h.warp == g_instr_q[g_head_q][GInstrWarpLsb +: WarpW] &&
                         t.warp == pt_tag_q[PL][TagWarpLsb +: WarpW] && t.alu == pt_tag_q[PL][TagAlu];
  `BARESM_ASSERT(a_struct_field_positions, fields_at_lsb)
  `BARESM_ASSERT(a_gather_fill_taken, !ex_gather || (g_used_q[ex_gidx_q] && !g_full_q[ex_gidx_q]))
  // The LSU reads and releases the head, which it took; entries between the
  // head and the offer are all in the LSU, so a shuffle at the head is the
  // offer too.
  `BARESM_ASSERT(a_lsu_done_head, !lsu_opnd_done_i || (g_used_q[g_head_q] && g_lsu_q[g_head_q]))
  `BARESM_ASSERT(a_shfl_at_offer, !(h_full && !h.lsu) || g_offer_q == g_head_q)
  `BARESM_ASSERT(a_beat_in_range, !sq_valid_q || 32'(sq_beat_q) < Beats)
  // The writer (port C) serves one source at a time; an early scoreboard
  // release is followed by the last beat's write in the next cycle.
  logic wr_early_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wr_early_q <= 1'b0;
    else wr_early_q <= wr_clr && !wr_done && !clear_i;
  end
  `BARESM_ASSERT(a_writer_one_job, !(wr_cpl && wr_shfl))
  `BARESM_ASSERT(a_writer_early_release_kept, !wr_early_q || wr_done)
  // A slow instruction's reads take 2 or 3 cycles per beat; the groups stay
  // in range.
  `BARESM_ASSERT(a_read_groups, !sq_valid_q || (sq_ngrp <= 2'd2 && sq_sub_q <= sq_ngrp))

`ifndef SYNTHESIS
  // The architectural writes: beats with lanes of the instruction (a first
  // write's zero fill is not one; what is read back from it is checked).
  // Ports: A the pipe's ALU beats, B its FPU beats, C the writer.
  logic trace_alu;
  assign trace_alu = wp_en && wp_mask != '0 && t.alu;
  assign trace_rf_we_o = {wc_en && wc_mask != '0, wp_en && wp_mask != '0 && !t.alu, trace_alu};
  assign trace_rf_addr_o = {wc_addr, wp_addr, wp_addr};
  assign trace_rf_mask_o = {wc_mask, wp_mask, wp_mask};
  assign trace_rf_data_o = {wc_data, wp_data, wp_data};
`endif

  // fpu_ovalid duplicates the pipe's valid bit; a shuffle needs no op, pc
  // or shared base (with RAM lanes not even its mode: EX applies it).
  logic unused;
  assign unused = ^{fpu_ovalid, h.op, h.mod, h.pc, h.sbase};

endmodule

`default_nettype wire
