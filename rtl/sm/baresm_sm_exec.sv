// baresm_sm_exec: everything between issue and register writeback.
//
//   issue -> SQ (beat sequencer: one beat of NumLanes threads per cycle,
//            Beats = 32/NumLanes cycles per warp-instruction; the register
//            file is read here)
//         -> EX (operands arrive; lane ALU / FPU inputs / gather buffer)
//         -> WB (ALU results written, port A)      FPU: Latency cycles after
//                                                   EX, written from the
//                                                   FPU outputs, port B
//   SHFL and memory instructions collect all 32 lanes' operands in the gather
//   buffer; a shuffle is then computed at once and a memory instruction is
//   handed to the LSU. LSU completions and shuffle results are written back
//   by the writer (port C), one beat per cycle.
// The sequencer never stalls: once issued, the beats of an instruction flow
// on consecutive cycles, so each writer produces its beats back to back and
// a register's scoreboard bit can be cleared one cycle before beat 0 is
// written: a dependent instruction issues the cycle after the clear and
// reads beat b two cycles after that, plus b, when beat b is already there.
// warp_busy_o keeps a warp slot from being reused while any of its beats is
// still on the way.
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm_exec #(
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,
  parameter int RfDepth = 1008,
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b1,    // 0: no FPU lanes (the issue stage never sends CL_FPU)
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1
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
  output logic [32*32-1:0]         lsu_req_addr_o,
  output logic [32*32-1:0]         lsu_req_data_o,
  output logic [32*32-1:0]         lsu_req_swap_o,
  output logic [31:0]              lsu_req_sbase_o,
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
  localparam int BeatW = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int LW = NumLanes * 32;
  localparam logic [5:0] RZ = 6'd63;
  localparam logic [2:0] PT = 3'd7;

  function automatic logic [AddrW-1:0] rf_addr(input logic [AddrW-1:0] base, input logic [5:0] r,
                                               input logic [BeatW-1:0] beat);
    rf_addr = base + (AddrW'(r) << $clog2(Beats)) + AddrW'(beat);
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
  logic sq_last;

  assign sq_last = sq_beat_q == BeatW'(Beats - 1);
  assign sq_ready_o = !sq_valid_q || sq_last;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sq_valid_q <= 1'b0;
      sq_beat_q <= '0;
    end else if (clear_i) begin
      sq_valid_q <= 1'b0;
      sq_beat_q <= '0;
    end else if (iss_valid_i) begin
      sq_valid_q <= 1'b1;
      sq_beat_q <= '0;
    end else if (sq_valid_q) begin
      sq_valid_q <= !sq_last;
      sq_beat_q <= sq_last ? '0 : sq_beat_q + BeatW'(1);
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
    end
  end

  // ---- register file ----------------------------------------------------------
  logic [LW-1:0] rd_a, rd_b, rd_c;
  logic wa_en, wb_en, wc_en;
  logic wa_first, wb_first, wc_first;   // beat 0 of the instruction's write
  logic [WarpW-1:0] wa_warp, wb_warp, wc_warp;
  logic [5:0] wa_reg, wb_reg, wc_reg;
  logic [AddrW-1:0] wa_addr, wb_addr, wc_addr;
  logic [NumLanes-1:0] wa_mask, wb_mask, wc_mask;
  logic [LW-1:0] wa_data, wb_data, wc_data;
  logic [AddrW-1:0] ra_addr, rb_addr, rc_addr;

  assign ra_addr = rf_addr(sq_base_q, sq_sa_q, sq_beat_q);
  assign rb_addr = rf_addr(sq_base_q, sq_sb_q, sq_beat_q);
  assign rc_addr = rf_addr(sq_base_q, sq_sc_q, sq_beat_q);

  baresm_sm_rf #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs (NumRegs),
    .Depth   (RfDepth),
    .AddrW   (AddrW),
    .WarpW   (WarpW)
  ) u_rf (
    .clk_i,
    .rst_ni,
    .clr_i     (place_i),
    .clr_warp_i(place_warp_i),
    .ren_i     (sq_valid_q),
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
    .we_a_i    (wa_en),
    .wfirst_a_i(wa_first),
    .wwarp_a_i (wa_warp),
    .wreg_a_i  (wa_reg),
    .waddr_a_i (wa_addr),
    .wmask_a_i (wa_mask),
    .wdata_a_i (wa_data),
    .we_b_i    (wb_en),
    .wfirst_b_i(wb_first),
    .wwarp_b_i (wb_warp),
    .wreg_b_i  (wb_reg),
    .waddr_b_i (wb_addr),
    .wmask_b_i (wb_mask),
    .wdata_b_i (wb_data),
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
  logic ex_rza_q, ex_rzb_q, ex_rzc_q, ex_bimm_q, ex_last_q;
  logic [31:0] ex_imm_q, ex_exec_q, ex_pvec_q, ex_sreg_q;
  logic [WarpW-1:0] ex_warp_q;
  logic [AddrW-1:0] ex_base_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ex_valid_q <= 1'b0;
    else if (clear_i) ex_valid_q <= 1'b0;
    else ex_valid_q <= sq_valid_q;
  end

  always_ff @(posedge clk_i) begin
    if (sq_valid_q) begin
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
    end
  end

  // Operands of this beat's lanes.
  logic [LW-1:0] op_a, op_b, op_c;
  assign op_a = ex_rza_q ? '0 : rd_a;
  assign op_b = ex_bimm_q ? {NumLanes{ex_imm_q}} : (ex_rzb_q ? '0 : rd_b);
  assign op_c = ex_rzc_q ? '0 : rd_c;

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
    if (sq_valid_q && sq_op_q == baresm_isa_pkg::OP_S2R && sq_beat_q != '0) begin
      for (int p = 0; p < NumLanes; p++) tid_adv = baresm_sm_pkg::tid_next(tid_adv, block_i);
    end
  end
  always_ff @(posedge clk_i) begin
    if (sq_valid_q) ex_tid_q <= (sq_beat_q == '0) ? sq_tid0_q : tid_adv;
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
        alu_pred[p] = baresm_sm_pkg::pcomb(ex_mod_q[5:4],
            baresm_sm_pkg::icmp(ex_mod_q[2:0], ex_mod_q[3], op_a[p*32 +: 32], op_b[p*32 +: 32]),
            ex_lpvec[p]);
      end
    end
  end

  // ---- WB (ALU): register port A and predicate port 0 ----------------------------------
  logic wb_valid_q, wb_preg_q, wb_last_q;
  logic [WarpW-1:0] wb_warp_q;
  logic [AddrW-1:0] wb_base_q;
  logic [BeatW-1:0] wb_beat_q;
  logic [5:0] wb_rd_q;
  logic [2:0] wb_pd_q;
  logic [NumLanes-1:0] wb_lmask_q, wb_pbits_q;
  logic [LW-1:0] wb_data_q;

  logic ex_alu;
  assign ex_alu = ex_valid_q && ex_class_q == baresm_sm_pkg::CL_ALU;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wb_valid_q <= 1'b0;
    else if (clear_i) wb_valid_q <= 1'b0;
    else wb_valid_q <= ex_alu;
  end

  always_ff @(posedge clk_i) begin
    if (ex_alu) begin
      wb_preg_q <= ex_op_q == baresm_isa_pkg::OP_ISETP;
      wb_last_q <= ex_last_q;
      wb_warp_q <= ex_warp_q;
      wb_base_q <= ex_base_q;
      wb_beat_q <= ex_beat_q;
      wb_rd_q <= ex_rd_q;
      wb_pd_q <= ex_pd_q;
      wb_lmask_q <= ex_lmask;
      wb_pbits_q <= alu_pred;
      wb_data_q <= alu_res;
    end
  end

  // Every beat goes to the register file, an empty lane mask included: a
  // register's first write fills all of its beats (baresm_sm_rf).
  assign wa_en = wb_valid_q && !wb_preg_q && wb_rd_q != RZ;
  assign wa_first = wb_beat_q == '0;
  assign wa_warp = wb_warp_q;
  assign wa_reg = wb_rd_q;
  assign wa_addr = rf_addr(wb_base_q, wb_rd_q, wb_beat_q);
  assign wa_mask = wb_lmask_q;
  assign wa_data = wb_data_q;

  // ---- FPU: NumLanes pipelined lanes, a tag line of the same latency ------------------
  // Without the FPU (HasFpu 0) no lane is built: an FPU instruction faults at
  // issue, so ex_fpu is constant 0 and the tag line below is optimised away.
  logic ex_fpu;
  assign ex_fpu = HasFpu && ex_valid_q && ex_class_q == baresm_sm_pkg::CL_FPU;

  logic [LW-1:0] fpu_res;
  logic [NumLanes-1:0] fpu_cmp, fpu_ovalid;
  if (HasFpu) begin : g_has_fpu
    for (genvar p = 0; p < NumLanes; p++) begin : g_fpu
      baresm_fpu #(
        .Latency(FpuLatency)
      ) u_fpu (
        .clk_i,
        .rst_ni,
        .in_valid_i (ex_fpu),
        .op_i       (ex_op_q),
        .mod_i      (ex_mod_q),
        .a_i        (op_a[p*32 +: 32]),
        .b_i        (op_b[p*32 +: 32]),
        .c_i        (op_c[p*32 +: 32]),
        .out_valid_o(fpu_ovalid[p]),
        .result_o   (fpu_res[p*32 +: 32]),
        .cmp_o      (fpu_cmp[p])
      );
    end
  end else begin : g_no_fpu
    assign fpu_res = '0;
    assign fpu_cmp = '0;
    assign fpu_ovalid = '0;
  end

  logic ft_valid_q [FpuLatency];
  logic ft_setp_q [FpuLatency];
  logic ft_first_q [FpuLatency];
  logic ft_last_q [FpuLatency];
  logic [1:0] ft_comb_q [FpuLatency];
  logic [WarpW-1:0] ft_warp_q [FpuLatency];
  logic [AddrW-1:0] ft_base_q [FpuLatency];
  logic [BeatW-1:0] ft_beat_q [FpuLatency];
  logic [5:0] ft_rd_q [FpuLatency];
  logic [2:0] ft_pd_q [FpuLatency];
  logic [NumLanes-1:0] ft_lmask_q [FpuLatency];
  logic [NumLanes-1:0] ft_pvec_q [FpuLatency];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < FpuLatency; i++) ft_valid_q[i] <= 1'b0;
    end else if (clear_i) begin
      for (int i = 0; i < FpuLatency; i++) ft_valid_q[i] <= 1'b0;
    end else begin
      ft_valid_q[0] <= ex_fpu;
      for (int i = 1; i < FpuLatency; i++) ft_valid_q[i] <= ft_valid_q[i-1];
    end
  end

  always_ff @(posedge clk_i) begin
    ft_setp_q[0] <= ex_op_q == baresm_isa_pkg::OP_FSETP;
    ft_first_q[0] <= ex_beat_q == '0;
    ft_last_q[0] <= ex_last_q;
    ft_comb_q[0] <= ex_mod_q[5:4];
    ft_warp_q[0] <= ex_warp_q;
    ft_base_q[0] <= ex_base_q;
    ft_beat_q[0] <= ex_beat_q;
    ft_rd_q[0] <= ex_rd_q;
    ft_pd_q[0] <= ex_pd_q;
    ft_lmask_q[0] <= ex_lmask;
    ft_pvec_q[0] <= ex_lpvec;
    for (int i = 1; i < FpuLatency; i++) begin
      ft_setp_q[i] <= ft_setp_q[i-1];
      ft_first_q[i] <= ft_first_q[i-1];
      ft_last_q[i] <= ft_last_q[i-1];
      ft_comb_q[i] <= ft_comb_q[i-1];
      ft_warp_q[i] <= ft_warp_q[i-1];
      ft_base_q[i] <= ft_base_q[i-1];
      ft_beat_q[i] <= ft_beat_q[i-1];
      ft_rd_q[i] <= ft_rd_q[i-1];
      ft_pd_q[i] <= ft_pd_q[i-1];
      ft_lmask_q[i] <= ft_lmask_q[i-1];
      ft_pvec_q[i] <= ft_pvec_q[i-1];
    end
  end

  localparam int FL = FpuLatency - 1;
  logic fo_valid;
  assign fo_valid = ft_valid_q[FL];

  logic [NumLanes-1:0] fpu_pbits;
  always_comb begin
    for (int p = 0; p < NumLanes; p++)
      fpu_pbits[p] = baresm_sm_pkg::pcomb(ft_comb_q[FL], fpu_cmp[p], ft_pvec_q[FL][p]);
  end

  assign wb_en = fo_valid && !ft_setp_q[FL] && ft_rd_q[FL] != RZ;
  assign wb_first = ft_first_q[FL];
  assign wb_warp = ft_warp_q[FL];
  assign wb_reg = ft_rd_q[FL];
  assign wb_addr = rf_addr(ft_base_q[FL], ft_rd_q[FL], ft_beat_q[FL]);
  assign wb_mask = ft_lmask_q[FL];
  assign wb_data = fpu_res;

  // ---- predicate writes and scoreboard clears ------------------------------------------
  always_comb begin
    pw_valid_o = '0;
    pw_warp_o = '0;
    pw_pd_o = '0;
    pw_mask_o = '0;
    pw_bits_o = '0;
    pw_last_o = '0;
    if (wb_valid_q && wb_preg_q && wb_pd_q != PT) begin
      pw_valid_o[0] = 1'b1;
      pw_warp_o[0 +: WarpW] = wb_warp_q;
      pw_pd_o[2:0] = wb_pd_q;
      pw_mask_o[wb_beat_q*NumLanes +: NumLanes] = wb_lmask_q;
      pw_bits_o[wb_beat_q*NumLanes +: NumLanes] = wb_pbits_q;
      pw_last_o[0] = wb_last_q;
    end
    if (fo_valid && ft_setp_q[FL] && ft_pd_q[FL] != PT) begin
      pw_valid_o[1] = 1'b1;
      pw_warp_o[WarpW +: WarpW] = ft_warp_q[FL];
      pw_pd_o[5:3] = ft_pd_q[FL];
      pw_mask_o[32 + ft_beat_q[FL]*NumLanes +: NumLanes] = ft_lmask_q[FL];
      pw_bits_o[32 + ft_beat_q[FL]*NumLanes +: NumLanes] = fpu_pbits;
      pw_last_o[1] = ft_last_q[FL];
    end
  end

  // =========================================================================
  // Gather buffer (SHFL, memory instructions)
  // =========================================================================
  typedef enum logic [1:0] { G_EMPTY, G_FILL, G_FULL } gstate_e;
  gstate_e g_state_q;
  logic g_lsu_q;
  logic [6:0] g_op_q;
  logic [7:0] g_mod_q;
  logic [WarpW-1:0] g_warp_q;
  logic [5:0] g_rd_q;
  logic [31:0] g_exec_q, g_pc_q, g_sbase_q;
  logic [32*32-1:0] ga_q, gb_q, gc_q;

  logic ex_gather;
  assign ex_gather = ex_valid_q && (ex_class_q == baresm_sm_pkg::CL_SHFL ||
                                    ex_class_q == baresm_sm_pkg::CL_LSU);
  assign gather_free_o = g_state_q == G_EMPTY;

  logic lsu_take, shfl_take, shfl_done;
  logic iss_gather;
  assign iss_gather = iss_valid_i && (iss_class_i == baresm_sm_pkg::CL_SHFL ||
                                      iss_class_i == baresm_sm_pkg::CL_LSU);


  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      g_state_q <= G_EMPTY;
    end else if (clear_i) begin
      g_state_q <= G_EMPTY;
    end else begin
      if (iss_gather) begin
        g_state_q <= G_FILL;
      end else if (ex_gather && ex_last_q) begin
        g_state_q <= G_FULL;
      end else if (lsu_take || (shfl_take && g_rd_q == RZ) || shfl_done) begin
        g_state_q <= G_EMPTY;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (iss_gather) begin
      g_lsu_q <= iss_class_i == baresm_sm_pkg::CL_LSU;
      g_op_q <= iss_op_i;
      g_mod_q <= iss_mod_i;
      g_warp_q <= iss_warp_i;
      g_rd_q <= iss_rd_i;
      g_exec_q <= iss_exec_i;
      g_pc_q <= iss_pc_i;
      g_sbase_q <= iss_sbase_i;
    end
    if (ex_gather) begin
      for (int p = 0; p < NumLanes; p++) begin
        // Memory instructions gather effective addresses (ra + imm).
        ga_q[(32'(ex_beat_q) * NumLanes + p) * 32 +: 32] <=
            op_a[p*32 +: 32] + (ex_class_q == baresm_sm_pkg::CL_LSU ? ex_imm_q : 32'd0);
        gb_q[(32'(ex_beat_q) * NumLanes + p) * 32 +: 32] <= op_b[p*32 +: 32];
        gc_q[(32'(ex_beat_q) * NumLanes + p) * 32 +: 32] <= op_c[p*32 +: 32];
      end
    end
  end

  // ---- the shuffle (docs/isa.md "Shuffles") -------------------------------------------
  // A full gather buffer holding a SHFL is handed to the writer, which
  // computes the beat's NumLanes results from it while writing them (the
  // buffer stays taken until the last beat).
  logic shfl_ready, wr_shfl_q;
  assign shfl_ready = g_state_q == G_FULL && !g_lsu_q && !(wr_valid_q && wr_shfl_q);
  logic [LW-1:0] shfl_beat;
  logic [31:0] sw, sbase, sbv, sl;
  logic [32:0] ssrc;
  always_comb begin
    shfl_beat = '0;
    sw = 32'd1 << g_mod_q[4:2];
    sbase = '0;
    sbv = '0;
    sl = '0;
    ssrc = '0;
    if (wr_valid_q && wr_shfl_q) begin
      for (int p = 0; p < NumLanes; p++) begin
        sl = 32'(wr_beat_q) * NumLanes + 32'(p);
        sbase = sl & ~(sw - 32'd1);
        sbv = gb_q[sl[4:0]*32 +: 32];
        unique case (g_mod_q[1:0])
          baresm_isa_pkg::SHFL_IDX: ssrc = {1'b0, sbase + (sbv & (sw - 32'd1))};
          baresm_isa_pkg::SHFL_UP: ssrc = (sbv > sl - sbase) ? {1'b0, sl} : {1'b0, sl - sbv};
          baresm_isa_pkg::SHFL_DOWN:
            ssrc = ({1'b0, sl} + {1'b0, sbv} >= {1'b0, sbase + sw}) ? {1'b0, sl}
                                                                    : {1'b0, sl} + {1'b0, sbv};
          default: ssrc = {1'b0, sl ^ (sbv & (sw - 32'd1))};
        endcase
        shfl_beat[p*32 +: 32] = ga_q[ssrc[4:0]*32 +: 32];
      end
    end
  end

  // ---- LSU request ------------------------------------------------------------------------
  assign lsu_req_valid_o = g_state_q == G_FULL && g_lsu_q && !drain_i;
  assign lsu_req_op_o = g_op_q;
  assign lsu_req_mod_o = g_mod_q;
  assign lsu_req_warp_o = g_warp_q;
  assign lsu_req_rd_o = g_rd_q;
  assign lsu_req_mask_o = g_exec_q;
  assign lsu_req_addr_o = ga_q;
  assign lsu_req_data_o = gb_q;
  assign lsu_req_swap_o = gc_q;
  assign lsu_req_sbase_o = g_sbase_q;
  assign lsu_take = lsu_req_valid_o && lsu_req_ready_i;

  // pcs of the instructions inside the LSU (completions come back in order)
  localparam int PcFifo = 4;
  logic [31:0] pcf_q [PcFifo];
  logic [1:0] pcf_wr_q, pcf_rd_q;
  logic [2:0] pcf_cnt_q;

  // =========================================================================
  // Writer: LSU completions and shuffle results, port C
  // =========================================================================
  logic wr_valid_q;
  logic [BeatW-1:0] wr_beat_q;
  logic [WarpW-1:0] wr_warp_q;
  logic [5:0] wr_rd_q;
  logic [31:0] wr_mask_q;
  logic [32*32-1:0] wr_data_q;
  logic wr_free, cpl_needs_wr, cpl_take;

  assign wr_free = !wr_valid_q || wr_beat_q == BeatW'(Beats - 1);
  assign shfl_done = wr_valid_q && wr_shfl_q && wr_beat_q == BeatW'(Beats - 1);
  assign cpl_needs_wr = cpl_we_i && !cpl_fault_i && cpl_rd_i != RZ && !drain_i;
  assign cpl_ready_o = cpl_needs_wr ? wr_free : 1'b1;
  assign cpl_take = cpl_valid_i && cpl_ready_o;
  assign shfl_take = shfl_ready && wr_free && !(cpl_valid_i && cpl_needs_wr) && !drain_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_valid_q <= 1'b0;
      wr_beat_q <= '0;
      wr_shfl_q <= 1'b0;
    end else if (clear_i) begin
      wr_valid_q <= 1'b0;
      wr_beat_q <= '0;
      wr_shfl_q <= 1'b0;
    end else if ((cpl_take && cpl_needs_wr) || (shfl_take && g_rd_q != RZ)) begin
      wr_valid_q <= 1'b1;
      wr_beat_q <= '0;
      wr_shfl_q <= !(cpl_take && cpl_needs_wr);
    end else if (wr_valid_q) begin
      wr_valid_q <= wr_beat_q != BeatW'(Beats - 1);
      wr_beat_q <= wr_beat_q + BeatW'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (cpl_take && cpl_needs_wr) begin
      wr_warp_q <= cpl_warp_i;
      wr_rd_q <= cpl_rd_i;
      wr_mask_q <= cpl_mask_i;
      wr_data_q <= cpl_data_i;
    end else if (shfl_take) begin
      wr_warp_q <= g_warp_q;
      wr_rd_q <= g_rd_q;
      wr_mask_q <= g_exec_q;
    end
  end

  assign wc_en = wr_valid_q;
  assign wc_first = wr_beat_q == '0;
  assign wc_warp = wr_warp_q;
  assign wc_reg = wr_rd_q;
  assign wc_addr = rf_addr(warp_base_i[wr_warp_q*AddrW +: AddrW], wr_rd_q, wr_beat_q);
  assign wc_mask = wr_mask_q[wr_beat_q*NumLanes +: NumLanes];
  assign wc_data = wr_shfl_q ? shfl_beat : wr_data_q[wr_beat_q*LW +: LW];

  // Scoreboard clears, one cycle ahead of the beat-0 write: ALU at EX (its
  // write is at WB), FPU one tag stage before the output, writer when it
  // accepts (beat 0 is written the next cycle).
  localparam int FC = (FpuLatency >= 2) ? FpuLatency - 2 : 0;
  logic fpu_clr;
  logic [WarpW-1:0] fpu_clr_warp;
  logic [5:0] fpu_clr_rd;
  always_comb begin
    if (FpuLatency >= 2) begin
      fpu_clr = ft_valid_q[FC] && !ft_setp_q[FC] && ft_first_q[FC] && ft_rd_q[FC] != RZ;
      fpu_clr_warp = ft_warp_q[FC];
      fpu_clr_rd = ft_rd_q[FC];
    end else begin
      // Latency 1: the result is written the cycle after EX, like the ALU's.
      fpu_clr = ex_fpu && ex_beat_q == '0 && ex_op_q != baresm_isa_pkg::OP_FSETP && ex_rd_q != RZ;
      fpu_clr_warp = ex_warp_q;
      fpu_clr_rd = ex_rd_q;
    end
  end

  always_comb begin
    clr_valid_o = '0;
    clr_warp_o = '0;
    clr_rd_o = '0;
    if (ex_alu && ex_beat_q == '0 && ex_op_q != baresm_isa_pkg::OP_ISETP && ex_rd_q != RZ) begin
      clr_valid_o[0] = 1'b1;
      clr_warp_o[0 +: WarpW] = ex_warp_q;
      clr_rd_o[5:0] = ex_rd_q;
    end
    if (fpu_clr) begin
      clr_valid_o[1] = 1'b1;
      clr_warp_o[WarpW +: WarpW] = fpu_clr_warp;
      clr_rd_o[11:6] = fpu_clr_rd;
    end
    if (cpl_take && cpl_needs_wr) begin
      clr_valid_o[2] = 1'b1;
      clr_warp_o[2*WarpW +: WarpW] = cpl_warp_i;
      clr_rd_o[17:12] = cpl_rd_i;
    end else if (shfl_take && g_rd_q != RZ) begin
      clr_valid_o[2] = 1'b1;
      clr_warp_o[2*WarpW +: WarpW] = g_warp_q;
      clr_rd_o[17:12] = g_rd_q;
    end
  end

  // Warps with anything in the pipe, the gather buffer or the writer.
  always_comb begin
    warp_busy_o = '0;
    if (sq_valid_q) warp_busy_o[sq_warp_q] = 1'b1;
    if (ex_valid_q) warp_busy_o[ex_warp_q] = 1'b1;
    if (wb_valid_q) warp_busy_o[wb_warp_q] = 1'b1;
    for (int i = 0; i < FpuLatency; i++) begin
      if (ft_valid_q[i]) warp_busy_o[ft_warp_q[i]] = 1'b1;
    end
    if (g_state_q != G_EMPTY) warp_busy_o[g_warp_q] = 1'b1;
    if (wr_valid_q) warp_busy_o[wr_warp_q] = 1'b1;
  end

  // ---- completions ----------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pcf_wr_q <= '0;
      pcf_rd_q <= '0;
      pcf_cnt_q <= '0;
    end else if (clear_i) begin
      pcf_wr_q <= '0;
      pcf_rd_q <= '0;
      pcf_cnt_q <= '0;
    end else begin
      if (lsu_take) pcf_wr_q <= pcf_wr_q + 2'd1;
      if (cpl_take) pcf_rd_q <= pcf_rd_q + 2'd1;
      pcf_cnt_q <= pcf_cnt_q + (lsu_take ? 3'd1 : 3'd0) - (cpl_take ? 3'd1 : 3'd0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (lsu_take) pcf_q[pcf_wr_q] <= g_pc_q;
  end

  assign lsu_done_o = cpl_take;
  assign lsu_done_warp_o = cpl_warp_i;
  assign lsu_fault_o = cpl_take && cpl_fault_i;
  assign lsu_fault_kind_o = cpl_fault_kind_i;
  assign lsu_fault_lane_o = cpl_fault_lane_i;
  assign lsu_fault_addr_o = cpl_fault_addr_i;
  assign lsu_fault_pc_o = pcf_q[pcf_rd_q];

  logic ft_any;
  always_comb begin
    ft_any = 1'b0;
    for (int i = 0; i < FpuLatency; i++) ft_any = ft_any | ft_valid_q[i];
  end
  assign idle_o = !sq_valid_q && !ex_valid_q && !wb_valid_q && !ft_any &&
                  g_state_q == G_EMPTY && !wr_valid_q && pcf_cnt_q == '0;

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The issue stage only issues what the sequencer and the gather buffer can
  // take; a beat number stays below Beats.
  `BARESM_ASSERT(a_issue_when_ready, !iss_valid_i || sq_ready_o)
  `BARESM_ASSERT(a_gather_when_empty, !iss_gather || g_state_q == G_EMPTY)
  `BARESM_ASSERT(a_beat_in_range, !sq_valid_q || 32'(sq_beat_q) < Beats)
  // The LSU pc FIFO never underflows and holds at most 3 (the LSU's depth).
  `BARESM_ASSERT(a_pcf_no_underflow, !cpl_take || pcf_cnt_q != 3'd0)
  `BARESM_ASSERT(a_pcf_bound, pcf_cnt_q <= 3'd3)
  // The writer (port C) starts one job at a time, only when it is free.
  `BARESM_ASSERT(a_writer_one_job, !(cpl_take && cpl_needs_wr && shfl_take))
  `BARESM_ASSERT(a_writer_free, !((cpl_take && cpl_needs_wr) || shfl_take) || wr_free)

`ifndef SYNTHESIS
  // The architectural writes: beats with lanes of the instruction (a first
  // write's zero fill is not one; what is read back from it is checked).
  assign trace_rf_we_o = {wc_en && wc_mask != '0, wb_en && wb_mask != '0, wa_en && wa_mask != '0};
  assign trace_rf_addr_o = {wc_addr, wb_addr, wa_addr};
  assign trace_rf_mask_o = {wc_mask, wb_mask, wa_mask};
  assign trace_rf_data_o = {wc_data, wb_data, wa_data};
`endif

  // fpu_ovalid duplicates the tag line's valid bit; a shuffle source is a lane
  // number.
  logic unused;
  assign unused = ^{fpu_ovalid, ssrc[32:5], sl[31:5]};

endmodule

`default_nettype wire
