// baresm_sm: one streaming multiprocessor. docs/microarchitecture.md is the
// full description (block diagram, pipeline timing, ports).
//
//   launch port -> dispatcher -> warp slots (reconvergence stack, instruction
//   buffer, predicates, scoreboard) -> fetch/I-cache -> scheduler -> issue
//   (guards, branches, EXIT, BAR, VOTE.ANY/ALL and issue-time faults are
//   resolved here) -> baresm_sm_exec (register file, ALU, FPU, gather
//   buffer, shuffle, writeback) -> baresm_lsu -> memory arbiter -> port.
//
// Every stage is its own module (baresm_sm_launch, _slots, _ibuf,
// _scoreboard, _issue, _pred, _faults, _status next to the dispatcher,
// fetch, scheduler, stack, barrier, exec, LSU and arbiter; the list is in
// docs/microarchitecture.md, "Where the logic lives"): this file wires them,
// splits the memory port's responses, and holds the ID/CONFIG words and the
// trace port.
//
// A launch: launch_valid_i/launch_ready_o with the descriptor (a
// baresm_launch_t, generated from contract/launch.def). The SM sizes the launch (warp slots the register
// file allows, CTA slots the shared memory allows), dispatches CTAs as
// resources free up, and pulses done_o once: with fault_kind_o NONE when the
// grid completed, the fault report otherwise (after every outstanding
// memory response has come back), or with cfg_error_o when the launch
// cannot run on this SM (nothing executed).
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_mem_glue.svh"
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"

module baresm_sm #(
  parameter int NumLanes = 32,     // physical lanes: 1, 2, 4, 8, 16 or 32
  parameter int NumWarps = 16,     // warp slots
  parameter int NumRegs = 63,      // registers per thread supported (<= 63)
  parameter int RfDepth = NumWarps * NumRegs * (32 / NumLanes),  // register-file entries per lane
  parameter int RfBanks = 8,       // register-file RAMs (a power of two; at most 32/NumLanes when that is > 1)
  parameter int SharedBytes = 16384,
  parameter int NumBanks = 32,
  parameter int CtaSlots = 8,
  parameter int StackDepth = 16,   // reconvergence entries per warp, the first included
  parameter int MemLineBytes = 128,
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b1,     // 0: no FPU is built; FPU instructions are ILLEGAL_INSTR
  parameter int IcLines = 16,      // instruction-cache lines of MemLineBytes
  parameter int LsuIdWidth = 4,    // LSU transaction ids; the port has one more bit
  parameter int NumWindows = 4,    // address windows a launch may use (1..MAX_WINDOWS)
  parameter int GatherDepth = 5,   // gather-buffer entries: memory/SHFL instructions from issue until the LSU has read their operands
  parameter int LoadSlots = 8,     // global loads waiting for memory outside the LSU's stage A (0: one at a time)
  parameter int StarveLimit = 32,
  parameter int SmId = 0
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // ---- launch -------------------------------------------------------------
  input  logic                          launch_valid_i,
  output logic                          launch_ready_o,
  input  baresm_launch_t                launch_i,
  input  logic                          sched_gto_i,    // 0 loose round-robin, 1 greedy-then-oldest

  // ---- completion -----------------------------------------------------------
  output logic                          busy_o,
  output logic                          done_o,         // one pulse per launch
  output logic                          cfg_error_o,    // with done_o: the launch could not run
  output logic [3:0]                    fault_kind_o,   // iss::FaultKind
  output logic [31:0]                   fault_cta_x_o,
  output logic [31:0]                   fault_cta_y_o,
  output logic [31:0]                   fault_cta_z_o,
  output logic [7:0]                    fault_warp_o,   // warp index in the CTA
  output logic [4:0]                    fault_lane_o,
  output logic [31:0]                   fault_pc_o,
  output logic [31:0]                   fault_addr_o,
  output logic [31:0]                   fault_waiting_o, // BARRIER_DEADLOCK: warps (in the CTA) waiting

  // ---- global memory port -----------------------------------------------------
  output logic                          mem_req_valid_o,
  input  logic                          mem_req_ready_i,
  output logic [LsuIdWidth:0]           mem_req_id_o,
  output logic [31:0]                   mem_req_addr_o,
  output logic [1:0]                    mem_req_op_o,
  output logic [4:0]                    mem_req_amo_o,
  output logic [MemLineBytes*8-1:0]     mem_req_wdata_o,
  output logic [MemLineBytes-1:0]       mem_req_wstrb_o,
  input  logic                          mem_rsp_valid_i,
  output logic                          mem_rsp_ready_o,
  input  logic [LsuIdWidth:0]           mem_rsp_id_i,
  input  logic [MemLineBytes*8-1:0]     mem_rsp_rdata_i,
  input  logic                          mem_rsp_err_i,    // memory error: no data, no effect

  // ---- status ------------------------------------------------------------------
  output logic [NumWarps*3-1:0]         warp_state_o,   // baresm_state_pkg::WS_*
  input  baresm_rpt_req_t               rpt_req_i,      // the launch's counters, a word a cycle:
  output baresm_rpt_rsp_t               rpt_rsp_o,      // baresm_sm_status, contract/sm_report.def
  output logic [8*32-1:0]               config_o        // ID/CONFIG words, see docs
`ifndef SYNTHESIS
  ,
  // ---- trace (simulation only): what the lockstep checker compares ----------
  // Every scheduler grant (an issue, or an issue-time fault), with the warp's
  // identity in the grid.
  output logic                          trace_issue_valid_o,
  output logic                          trace_issue_fault_o,
  output logic [7:0]                    trace_issue_slot_o,
  output logic [31:0]                   trace_issue_pc_o,
  output logic [31:0]                   trace_issue_tmask_o,  // lanes of the stack top
  output logic [31:0]                   trace_issue_exec_o,   // ... whose guard is true
  output logic [31:0]                   trace_issue_cta_x_o,
  output logic [31:0]                   trace_issue_cta_y_o,
  output logic [31:0]                   trace_issue_cta_z_o,
  output logic [4:0]                    trace_issue_wic_o,    // warp index in the CTA
  // Register-file writes (ports A ALU, B FPU, C LSU/shuffle): entry, lanes, data.
  output logic [2:0]                    trace_rf_we_o,
  output logic [47:0]                   trace_rf_addr_o,      // 16 bits per port
  output logic [3*NumLanes-1:0]         trace_rf_mask_o,
  output logic [3*NumLanes*32-1:0]      trace_rf_data_o,
  // Predicate writes, per beat: the ALU (ISETP, VOTE.ANY/ALL) and the FPU (FSETP).
  output logic [1:0]                    trace_pw_valid_o,
  output logic [15:0]                   trace_pw_slot_o,      // 8 bits per port
  output logic [5:0]                    trace_pw_pd_o,
  output logic [63:0]                   trace_pw_mask_o,
  output logic [63:0]                   trace_pw_bits_o
`endif
);

  localparam int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1;
  localparam int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1;
  localparam int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1;
  localparam int BeatW = (NumLanes < 32) ? $clog2(32 / NumLanes) : 1;   // a beat number (LSU operand reads)
  // Banks of the register file: with several beats per warp register, no
  // more banks than beats (baresm_sm_pkg::rf_bank).
  localparam int RfBanksUsed = (NumLanes < 32 && 32 / NumLanes < RfBanks) ? 32 / NumLanes : RfBanks;
  localparam int DepthW = $clog2(StackDepth + 1);
  localparam int DecW = baresm_sm_pkg::DEC_W;

  // =========================================================================
  // Launch control (baresm_sm_launch) and fault state (baresm_sm_faults)
  // =========================================================================
  logic clear, start, running, drain, busy, done, cfg_err;
  logic fault_q, new_fault;
  logic disp_done, lsu_idle, fetch_idle, exec_idle, any_cta;
  logic [31:0] l_entry, l_code_base, l_code_size, l_grid_x, l_grid_y, l_grid_z;
  logic [15:0] l_block_x, l_block_y, l_block_z;
  logic [7:0] l_regs, l_smid;
  logic [31:0] l_param_addr, l_param_size, l_shared, l_prot_base, l_prot_size;
  logic [63:0] l_watchdog;
  logic [32*NumWindows-1:0] l_win_base, l_win_size;
  logic [10:0] threads;
  logic [5:0] warps_per_cta;
  logic [NumWarps-1:0] warp_usable_q;
  logic [NumWarps*AddrW-1:0] rf_base_q;
  logic [CtaSlots-1:0] cta_usable_q;
  logic [31:0] i_sbase;
  logic [CtaW-1:0] i_cta;

  baresm_sm_launch #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RfDepth(RfDepth),
    .SharedBytes(SharedBytes),
    .CtaSlots(CtaSlots),
    .NumWindows(NumWindows)
  ) u_launch (
    .clk_i,
    .rst_ni,
    .launch_valid_i,
    .launch_ready_o,
    .launch_i,
    .fault_i        (fault_q),
    .new_fault_i    (new_fault),
    .disp_done_i    (disp_done),
    .any_cta_i      (any_cta),
    .lsu_idle_i     (lsu_idle),
    .fetch_idle_i   (fetch_idle),
    .clear_o        (clear),
    .start_o        (start),
    .running_o      (running),
    .drain_o        (drain),
    .busy_o         (busy),
    .done_o         (done),
    .cfg_error_o    (cfg_err),
    .entry_o        (l_entry),
    .code_base_o    (l_code_base),
    .code_size_o    (l_code_size),
    .grid_x_o       (l_grid_x),
    .grid_y_o       (l_grid_y),
    .grid_z_o       (l_grid_z),
    .block_x_o      (l_block_x),
    .block_y_o      (l_block_y),
    .block_z_o      (l_block_z),
    .regs_o         (l_regs),
    .smid_o         (l_smid),
    .param_addr_o   (l_param_addr),
    .param_size_o   (l_param_size),
    .shared_o       (l_shared),
    .watchdog_o     (l_watchdog),
    .win_base_o     (l_win_base),
    .win_size_o     (l_win_size),
    .prot_base_o    (l_prot_base),
    .prot_size_o    (l_prot_size),
    .threads_o      (threads),
    .warps_per_cta_o(warps_per_cta),
    .warp_usable_o  (warp_usable_q),
    .rf_base_o      (rf_base_q),
    .cta_usable_o   (cta_usable_q),
    .sbase_cta_i    (i_cta),
    .sbase_o        (i_sbase)
  );

  logic [31:0] l_block;  // {y, x}: what thread-id walks need
  assign l_block = {l_block_y, l_block_x};

  // =========================================================================
  // Dispatcher (baresm_sm_dispatch), CTA and warp slots (baresm_sm_slots)
  // =========================================================================
  logic [NumWarps-1:0] slot_used_q;
  logic [NumWarps*CtaW-1:0] slot_cta_q;
  logic [NumWarps*5-1:0] slot_wic_q;      // warp index in the CTA
  logic [47:0] i_tid0;
  logic [CtaSlots-1:0] cta_used_q, cta_run_q, cta_retire;
  logic [CtaSlots*32-1:0] cta_x_q, cta_y_q, cta_z_q;

  logic place_valid, cta_start, cta_run_set;
  logic [WarpW-1:0] place_warp;
  logic [CtaW-1:0] place_cta, start_cta;
  logic [4:0] place_wic;
  logic [31:0] place_mask, dcta_x, dcta_y, dcta_z;
  logic [47:0] place_tid;

  baresm_sm_dispatch #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots)
  ) u_dispatch (
    .clk_i,
    .rst_ni,
    .start_i      (start),
    .stop_i       (fault_q),
    .grid_x_i     (l_grid_x),
    .grid_y_i     (l_grid_y),
    .grid_z_i     (l_grid_z),
    .block_i      (l_block),
    .threads_i    (threads),
    .warps_i      (warps_per_cta),
    .warp_free_i  (~slot_used_q & warp_usable_q),
    .cta_free_i   (~cta_used_q & cta_usable_q),
    .place_valid_o(place_valid),
    .place_warp_o (place_warp),
    .place_cta_o  (place_cta),
    .place_wic_o  (place_wic),
    .place_mask_o (place_mask),
    .place_tid_o  (place_tid),
    .cta_start_o  (cta_start),
    .start_cta_o  (start_cta),
    .cta_x_o      (dcta_x),
    .cta_y_o      (dcta_y),
    .cta_z_o      (dcta_z),
    .cta_run_o    (cta_run_set),
    .done_o       (disp_done)
  );

  // Per-warp state from the stacks.
  logic [NumWarps-1:0] st_empty, st_settled;
  logic st_overflow, st_diverge;  // for the granted warp's branch
  logic [NumWarps*32-1:0] st_pc, st_mask, st_rpc;

  logic [NumWarps-1:0] live, exited;
  assign live = slot_used_q & ~st_empty;
  assign exited = slot_used_q & st_empty;

  logic [NumWarps-1:0] drained, warp_cta_run;
  logic [WarpW-1:0] sel;       // the granted warp

  baresm_sm_slots #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots)
  ) u_slots (
    .clk_i,
    .rst_ni,
    .clear_i       (clear),
    .place_i       (place_valid),
    .place_warp_i  (place_warp),
    .place_cta_i   (place_cta),
    .place_wic_i   (place_wic),
    .place_tid_i   (place_tid),
    .cta_start_i   (cta_start),
    .start_cta_i   (start_cta),
    .cta_x_i       (dcta_x),
    .cta_y_i       (dcta_y),
    .cta_z_i       (dcta_z),
    .cta_run_i     (cta_run_set),
    .exited_i      (exited),
    .drained_i     (drained),
    .warp_used_o   (slot_used_q),
    .warp_cta_o    (slot_cta_q),
    .warp_wic_o    (slot_wic_q),
    .warp_cta_run_o(warp_cta_run),
    .tid_warp_i    (sel),
    .tid_o         (i_tid0),
    .cta_used_o    (cta_used_q),
    .cta_run_o     (cta_run_q),
    .cta_x_o       (cta_x_q),
    .cta_y_o       (cta_y_q),
    .cta_z_o       (cta_z_q),
    .cta_retire_o  (cta_retire),
    .any_cta_o     (any_cta)
  );

  logic [NumWarps-1:0] eligible;
  // Live, in a running CTA, stack top settled: may fetch and, with its
  // instruction buffered and free operands, issue.
  assign eligible = live & warp_cta_run & st_settled;

  // =========================================================================
  // Fetch and instruction buffer (baresm_sm_ibuf)
  // =========================================================================
  logic f_valid, f_bad, f_ferr;
  logic [WarpW-1:0] f_warp;
  logic [63:0] f_word;
  logic [NumWarps-1:0] f_want, f_miss;
  logic [NumWarps*32-1:0] f_pcs;
  logic if_req_valid, if_req_ready, if_rsp_valid;
  logic [31:0] if_req_addr;

  logic issue;                 // an instruction issues this cycle (no fault)
  logic next_ok;               // ... and fetches its next word at once
  logic [31:0] next_pc;

  logic [NumWarps-1:0] ib_valid, ib_ctrl, ib_bar;
  logic [NumWarps*DecW-1:0] ib_dec;
  logic [63:0] iw;
  logic [DecW-1:0] idec;
  logic i_bad, i_ferr;

  baresm_sm_ibuf #(
    .NumWarps(NumWarps),
    .HasFpu(HasFpu)
  ) u_ibuf (
    .clk_i,
    .rst_ni,
    .clear_i     (clear),
    .running_i   (running),
    .regs_i      (l_regs),
    .can_fetch_i (eligible),
    .warp_pc_i   (st_pc),
    .next_ok_i   (next_ok),
    .next_pc_i   (next_pc),
    .want_o      (f_want),
    .pc_o        (f_pcs),
    .f_valid_i   (f_valid),
    .f_warp_i    (f_warp),
    .f_word_i    (f_word),
    .f_bad_i     (f_bad),
    .f_ferr_i    (f_ferr),
    .issue_i     (issue),
    .sel_i       (sel),
    .place_i     (place_valid),
    .place_warp_i(place_warp),
    .valid_o     (ib_valid),
    .dec_o       (ib_dec),
    .ctrl_o      (ib_ctrl),
    .bar_o       (ib_bar),
    .sel_word_o  (iw),
    .sel_dec_o   (idec),
    .sel_bad_o   (i_bad),
    .sel_ferr_o  (i_ferr)
  );

  baresm_sm_fetch #(
    .NumWarps(NumWarps),
    .IcLines(IcLines),
    .LineBytes(MemLineBytes)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .flush_i    (clear),
    .stop_i     (fault_q),
    .code_base_i(l_code_base),
    .code_size_i(l_code_size),
    .want_i     (f_want),
    .pc_i       (f_pcs),
    .out_valid_o(f_valid),
    .out_warp_o (f_warp),
    .out_word_o (f_word),
    .out_badpc_o(f_bad),
    .out_ferr_o (f_ferr),
    .miss_wait_o(f_miss),
    .req_valid_o(if_req_valid),
    .req_ready_i(if_req_ready),
    .req_addr_o (if_req_addr),
    .rsp_valid_i(if_rsp_valid),
    .rsp_data_i (mem_rsp_rdata_i),
    .rsp_err_i  (mem_rsp_err_i),
    .idle_o     (fetch_idle)
  );

  // =========================================================================
  // Scoreboard and scheduling
  // =========================================================================
  logic sq_ready, gather_free;
  logic [NumWarps-1:0] bar_wait, exec_busy;
  logic [NumWarps-1:0] ready, hazard, hazard_mem, unit_ok;

  logic iss_pipe, iss_arrive;
  logic [2:0] i_class, i_pd;
  logic [5:0] i_dst;

  logic [2:0] clr_valid;
  logic [3*WarpW-1:0] clr_warp;
  logic [17:0] clr_rd;
  logic [1:0] pw_valid, pw_last;
  logic [2*WarpW-1:0] pw_warp;
  logic [5:0] pw_pd;
  logic [63:0] pw_mask, pw_bits;
  logic lsu_done, lsu_fault;
  logic [WarpW-1:0] lsu_done_warp;

  baresm_sm_scoreboard #(
    .NumWarps(NumWarps),
    .NumRegs (NumRegs),
    .MemDepth(GatherDepth + 2 + LoadSlots),  // gather buffer, LSU stages A and D, the load slots
    .NumLanes(NumLanes)
  ) u_scoreboard (
    .clk_i,
    .rst_ni,
    .clear_i        (clear),
    .running_i      (running),
    .eligible_i     (eligible),
    .ib_valid_i     (ib_valid),
    .ib_dec_i       (ib_dec),
    .ib_bar_i       (ib_bar),
    .bar_wait_i     (bar_wait),
    .exec_busy_i    (exec_busy),
    .sq_ready_i     (sq_ready),
    .gather_free_i  (gather_free),
    .iss_pipe_i     (iss_pipe),
    .iss_warp_i     (sel),
    .iss_class_i    (i_class),
    .iss_rd_i       (i_dst),
    .iss_pd_i       (i_pd),
    .clr_valid_i    (clr_valid),
    .clr_warp_i     (clr_warp),
    .clr_rd_i       (clr_rd),
    .pw_valid_i     (pw_valid),
    .pw_last_i      (pw_last),
    .pw_warp_i      (pw_warp),
    .pw_pd_i        (pw_pd),
    .lsu_done_i     (lsu_done),
    .lsu_done_warp_i(lsu_done_warp),
    .ready_o        (ready),
    .hazard_o       (hazard),
    .hazard_mem_o   (hazard_mem),
    .unit_ok_o      (unit_ok),
    .drained_o      (drained)
  );

  logic grant_valid;
  // The predicate file may hold the scheduler to one ready warp while it
  // reads that warp's predicates (NumLanes == 1; baresm_sm_pred), and says
  // when a grant has them (pr_ok): only then does it issue (grant_iss).
  logic [NumWarps-1:0] pr_hold, sched_ready;
  logic pr_ok, grant_iss;
  assign sched_ready = ((ready & pr_hold) != '0) ? (ready & pr_hold) : ready;
  assign grant_iss = grant_valid && pr_ok;

  // The policy input is a setting, held for a whole launch: registered, so
  // that the scheduler, issue and everything after them do not depend on an
  // input combinationally (a verilated model evaluates such logic again on
  // every clock edge, in its input region). A change takes effect a cycle
  // later, before any warp of a launch presented with it can be granted.
  logic sched_gto_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sched_gto_q <= 1'b0;
    else         sched_gto_q <= sched_gto_i;
  end

  baresm_sm_sched #(
    .NumWarps(NumWarps),
    .StarveLimit(StarveLimit)
  ) u_sched (
    .clk_i,
    .rst_ni,
    .clear_i       (clear),
    .policy_gto_i  (sched_gto_q),
    .start_i       (place_valid ? (NumWarps'(1) << place_warp) : '0),
    .ready_i       (sched_ready),
    .grant_valid_o (grant_valid),
    .grant_o       (sel)
  );

  // =========================================================================
  // Issue (baresm_sm_issue) and the predicate file (baresm_sm_pred)
  // =========================================================================
  logic [2:0] pr_a, pr_b;
  logic [31:0] pr_a_val, pr_b_val;
  logic [6:0] i_op;
  logic [7:0] i_mod;
  logic [5:0] i_sa, i_sb, i_sc;
  logic [31:0] i_bval, i_sreg, i_pc, i_tmask, i_guard, i_exec, i_ppv;
  logic [31:0] i_target, i_reconv;
  logic i_use_imm;
  logic [1:0] stk_kind;
  logic [3:0] i_bar_id;
  logic [15:0] i_bar_count;
  logic iss_fault;
  logic [3:0] iss_fkind;
  logic [4:0] iss_flane;
  logic [63:0] cyc_q, cyc_total_q;

  baresm_sm_issue #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots),
    .SmId(SmId)
  ) u_issue (
    .running_i      (running),
    .grant_valid_i  (grant_iss),
    .sel_i          (sel),
    .word_i         (iw),
    .dec_i          (idec),
    .bad_i          (i_bad),
    .ferr_i         (i_ferr),
    .pred_a_o       (pr_a),
    .pred_b_o       (pr_b),
    .pred_a_i       (pr_a_val),
    .pred_b_i       (pr_b_val),
    .warp_pc_i      (st_pc),
    .warp_mask_i    (st_mask),
    .warp_rpc_i     (st_rpc),
    .overflow_i     (st_overflow),
    .warp_cta_i     (slot_cta_q),
    .warp_wic_i     (slot_wic_q),
    .cta_x_i        (cta_x_q),
    .cta_y_i        (cta_y_q),
    .cta_z_i        (cta_z_q),
    .block_x_i      (l_block_x),
    .block_y_i      (l_block_y),
    .block_z_i      (l_block_z),
    .grid_x_i       (l_grid_x),
    .grid_y_i       (l_grid_y),
    .grid_z_i       (l_grid_z),
    .smid_i         (l_smid),
    .clock_i        (cyc_total_q),
    .issue_o        (issue),
    .pipe_o         (iss_pipe),
    .arrive_o       (iss_arrive),
    .next_ok_o      (next_ok),
    .next_pc_o      (next_pc),
    .op_o           (i_op),
    .mod_o          (i_mod),
    .class_o        (i_class),
    .sa_o           (i_sa),
    .sb_o           (i_sb),
    .sc_o           (i_sc),
    .rd_o           (i_dst),
    .pd_o           (i_pd),
    .bar_id_o       (i_bar_id),
    .bar_count_o    (i_bar_count),
    .use_imm_o      (i_use_imm),
    .bval_o         (i_bval),
    .sreg_o         (i_sreg),
    .pc_o           (i_pc),
    .tmask_o        (i_tmask),
    .guard_o        (i_guard),
    .exec_o         (i_exec),
    .ppv_o          (i_ppv),
    .cta_o          (i_cta),
    .stk_kind_o     (stk_kind),
    .target_o       (i_target),
    .reconv_o       (i_reconv),
    .fault_o        (iss_fault),
    .fault_kind_o   (iss_fkind),
    .fault_lane_o   (iss_flane)
  );

  baresm_sm_pred #(
    .NumWarps(NumWarps),
    .HasFpu  (HasFpu),
    .NumLanes(NumLanes)
  ) u_pred (
    .clk_i,
    .rst_ni,
    .rd_valid_i  (grant_valid),
    .rd_warp_i   (sel),
    .rd_a_i      (pr_a),
    .rd_b_i      (pr_b),
    .rd_a_o      (pr_a_val),
    .rd_b_o      (pr_b_val),
    .rd_ok_o     (pr_ok),
    .hold_o      (pr_hold),
    .pw_valid_i  (pw_valid),
    .pw_warp_i   (pw_warp),
    .pw_pd_i     (pw_pd),
    .pw_mask_i   (pw_mask),
    .pw_bits_i   (pw_bits),
    .place_i     (place_valid),
    .place_warp_i(place_warp)
  );

  // ---- stacks ---------------------------------------------------------------------
  logic [NumWarps*DepthW-1:0] st_depth;
  baresm_sm_stacks #(
    .NumWarps(NumWarps),
    .Depth   (StackDepth),
    .NumLanes(NumLanes)
  ) u_stacks (
    .clk_i,
    .rst_ni,
    .clear_i       (clear),
    .init_i        (place_valid),
    .init_warp_i   (place_warp),
    .init_pc_i     (l_entry),
    .init_mask_i   (place_mask),
    .op_valid_i    (issue),
    .op_warp_i     (sel),
    .op_kind_i     (stk_kind),
    .op_guard_i    (i_guard),
    .op_target_i   (i_target),
    .op_reconv_i   (i_reconv),
    .bra_overflow_o(st_overflow),
    .bra_diverge_o (st_diverge),
    .top_pc_o      (st_pc),
    .top_rpc_o     (st_rpc),
    .top_mask_o    (st_mask),
    .empty_o       (st_empty),
    .settled_o     (st_settled),
    .depth_o       (st_depth)
  );
  logic unused_stack;
  assign unused_stack = ^st_depth;

  // ---- barriers ----------------------------------------------------------------------
  logic [NumWarps-1:0] bar_release, dl_warps;
  logic bar_release_any, deadlock;
  logic [CtaW-1:0] dl_cta;
  logic [NumWarps*32-1:0] bar_pcs;

  baresm_sm_barrier #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots)
  ) u_barrier (
    .clk_i,
    .rst_ni,
    .clear_i         (clear),
    .arrive_i        (iss_arrive),
    .arrive_warp_i   (sel),
    .arrive_id_i     (i_bar_id),
    .arrive_count_i  (i_bar_count),
    .arrive_pc_i     (i_pc),
    .warp_cta_i      (slot_cta_q),
    .warp_live_i     (live),
    .cta_run_i       (cta_run_q),
    .waiting_o       (bar_wait),
    .release_o       (bar_release),
    .release_any_o   (bar_release_any),
    .deadlock_o      (deadlock),
    .deadlock_cta_o  (dl_cta),
    .deadlock_warps_o(dl_warps),
    .bar_pc_o        (bar_pcs)
  );

  // =========================================================================
  // Execution, LSU, memory port
  // =========================================================================
  logic lsu_req_valid, lsu_req_ready;
  logic [6:0] lsu_req_op;
  logic [7:0] lsu_req_mod;
  logic [WarpW-1:0] lsu_req_warp;
  logic [5:0] lsu_req_rd;
  logic [31:0] lsu_req_mask, lsu_req_sbase, lsu_req_pc, cpl_pc;
  logic [BeatW-1:0] lsu_opnd_beat;
  logic [NumLanes*32-1:0] lsu_opnd_addr, lsu_opnd_data, lsu_opnd_swap;
  logic lsu_opnd_done;
  logic cpl_valid, cpl_ready, cpl_we, cpl_fault;
  logic [WarpW-1:0] cpl_warp;
  logic [5:0] cpl_rd;
  logic [31:0] cpl_mask, cpl_faddr;
  logic [32*32-1:0] cpl_data;
  logic [3:0] cpl_fkind;
  logic [4:0] cpl_flane;
`ifndef SYNTHESIS
  logic [2:0] trc_rf_we;
  logic [3*AddrW-1:0] trc_rf_addr;
  logic [3*NumLanes-1:0] trc_rf_mask;
  logic [3*NumLanes*32-1:0] trc_rf_data;
`endif
  logic [3:0] lsu_fkind;
  logic [4:0] lsu_flane;
  logic [31:0] lsu_faddr, lsu_fpc;

  baresm_sm_exec #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RfDepth(RfDepth),
    .RfBanks(RfBanksUsed),
    .FpuLatency(FpuLatency),
    .HasFpu(HasFpu),
    .GatherDepth(GatherDepth)
  ) u_exec (
    .clk_i,
    .rst_ni,
    .clear_i         (clear),
    .drain_i         (drain || fault_q),
    .iss_valid_i     (iss_pipe),
    .iss_class_i     (i_class),
    .iss_op_i        (i_op),
    .iss_mod_i       (i_mod),
    .iss_rd_i        (i_dst),
    .iss_pd_i        (i_pd),
    .iss_sa_i        (i_sa),
    .iss_sb_i        (i_sb),
    .iss_sc_i        (i_sc),
    .iss_bimm_i      (i_use_imm),
    .iss_imm_i       (i_bval),
    .iss_warp_i      (sel),
    .iss_base_i      (rf_base_q[sel*AddrW +: AddrW]),
    .iss_exec_i      (i_exec),
    .iss_pvec_i      (i_ppv),
    .iss_pc_i        (i_pc),
    .iss_tid0_i      (i_tid0),
    .iss_sreg_i      (i_sreg),
    .iss_sbase_i     (i_sbase),
    .block_i         (l_block),
    .sq_ready_o      (sq_ready),
    .gather_free_o   (gather_free),
    .warp_base_i     (rf_base_q),
    .place_i         (place_valid),
    .place_warp_i    (place_warp),
    .clr_valid_o     (clr_valid),
    .clr_warp_o      (clr_warp),
    .clr_rd_o        (clr_rd),
    .pw_valid_o      (pw_valid),
    .pw_warp_o       (pw_warp),
    .pw_pd_o         (pw_pd),
    .pw_mask_o       (pw_mask),
    .pw_bits_o       (pw_bits),
    .pw_last_o       (pw_last),
    .lsu_req_valid_o (lsu_req_valid),
    .lsu_req_ready_i (lsu_req_ready),
    .lsu_req_op_o    (lsu_req_op),
    .lsu_req_mod_o   (lsu_req_mod),
    .lsu_req_warp_o  (lsu_req_warp),
    .lsu_req_rd_o    (lsu_req_rd),
    .lsu_req_mask_o  (lsu_req_mask),
    .lsu_req_sbase_o (lsu_req_sbase),
    .lsu_req_pc_o    (lsu_req_pc),
    .lsu_opnd_beat_i (lsu_opnd_beat),
    .lsu_opnd_addr_o (lsu_opnd_addr),
    .lsu_opnd_data_o (lsu_opnd_data),
    .lsu_opnd_swap_o (lsu_opnd_swap),
    .lsu_opnd_done_i (lsu_opnd_done),
    .cpl_valid_i     (cpl_valid),
    .cpl_ready_o     (cpl_ready),
    .cpl_warp_i      (cpl_warp),
    .cpl_rd_i        (cpl_rd),
    .cpl_mask_i      (cpl_mask),
    .cpl_we_i        (cpl_we),
    .cpl_data_i      (cpl_data),
    .cpl_fault_i     (cpl_fault),
    .cpl_fault_kind_i(cpl_fkind),
    .cpl_fault_lane_i(cpl_flane),
    .cpl_fault_addr_i(cpl_faddr),
    .cpl_pc_i        (cpl_pc),
    .lsu_done_o      (lsu_done),
    .lsu_done_warp_o (lsu_done_warp),
    .lsu_fault_o     (lsu_fault),
    .lsu_fault_kind_o(lsu_fkind),
    .lsu_fault_lane_o(lsu_flane),
    .lsu_fault_addr_o(lsu_faddr),
    .lsu_fault_pc_o  (lsu_fpc),
    .idle_o          (exec_idle),
    .warp_busy_o     (exec_busy)
`ifndef SYNTHESIS
    ,
    .trace_rf_we_o   (trc_rf_we),
    .trace_rf_addr_o (trc_rf_addr),
    .trace_rf_mask_o (trc_rf_mask),
    .trace_rf_data_o (trc_rf_data)
`endif
  );
  // The memory port inside the SM (rtl/prim/baresm_mem_types.svh): the LSU's
  // line port and the fetch unit's single-master one meet in u_memarb. The
  // SM's own port stays field by field (mem_req_*_o, mem_rsp_*_i): the
  // verilated SM is a top that the C++ harness drives port by port.
  typedef `BARESM_MEM1_REQ_T(MemLineBytes) if_req_t;
  typedef `BARESM_MEM_REQ_T(LsuIdWidth, MemLineBytes) ls_req_t;
  typedef `BARESM_MEM_RSP_T(LsuIdWidth, MemLineBytes) ls_rsp_t;
  typedef `BARESM_MEM_REQ_T(LsuIdWidth + 1, MemLineBytes) mem_req_t;
  ls_req_t ls_mreq;
  ls_rsp_t ls_rsp;
  logic ls_mreq_ready, ls_rsp_ready;
  logic [31:0] smem_passes, gmem_reqs;
  logic        smem_pass;

  baresm_lsu #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumBanks(NumBanks),
    .SharedBytes(SharedBytes),
    .MemLineBytes(MemLineBytes),
    .MemIdWidth(LsuIdWidth),
    .NumWindows(NumWindows),
    .LoadSlots(LoadSlots)
  ) u_lsu (
    .clk_i,
    .rst_ni,
    .req_valid_i     (lsu_req_valid),
    .req_ready_o     (lsu_req_ready),
    .req_op_i        (lsu_req_op),
    .req_mod_i       (lsu_req_mod),
    .req_warp_i      (lsu_req_warp),
    .req_rd_i        (lsu_req_rd),
    .req_mask_i      (lsu_req_mask),
    .req_smem_base_i (lsu_req_sbase),
    .req_pc_i        (lsu_req_pc),
    .opnd_beat_o     (lsu_opnd_beat),
    .opnd_addr_i     (lsu_opnd_addr),
    .opnd_data_i     (lsu_opnd_data),
    .opnd_swap_i     (lsu_opnd_swap),
    .opnd_done_o     (lsu_opnd_done),
    .req_smem_size_i (l_shared),
    .param_base_i    (l_param_addr),
    .param_size_i    (l_param_size),
    .win_base_i      (l_win_base),
    .win_size_i      (l_win_size),
    .prot_base_i     (l_prot_base),
    .prot_size_i     (l_prot_size),
    .cpl_valid_o     (cpl_valid),
    .cpl_ready_i     (cpl_ready),
    .cpl_warp_o      (cpl_warp),
    .cpl_rd_o        (cpl_rd),
    .cpl_mask_o      (cpl_mask),
    .cpl_we_o        (cpl_we),
    .cpl_data_o      (cpl_data),
    .cpl_fault_o     (cpl_fault),
    .cpl_fault_kind_o(cpl_fkind),
    .cpl_fault_lane_o(cpl_flane),
    .cpl_fault_addr_o(cpl_faddr),
    .cpl_pc_o        (cpl_pc),
    .mem_req_o       (ls_mreq),
    .mem_req_ready_i (ls_mreq_ready),
    .mem_rsp_i       (ls_rsp),
    .mem_rsp_ready_o (ls_rsp_ready),
    .idle_o          (lsu_idle),
    .smem_pass_o     (smem_pass),
    .smem_passes_o   (smem_passes),
    .gmem_reqs_o     (gmem_reqs)
  );

  // Fetch (source A: line reads, one at a time) and the LSU share the port;
  // responses are routed by the top id bit.
  if_req_t if_req;
  mem_req_t mem_req;
  baresm_mem_arb #(
    .LineBytes(MemLineBytes),
    .IdW(LsuIdWidth)
  ) u_memarb (
    .clk_i,
    .rst_ni,
    .a_req_i        (if_req),
    .a_req_ready_o  (if_req_ready),
    .b_req_i        (ls_mreq),
    .b_req_ready_o  (ls_mreq_ready),
    .mem_req_o      (mem_req),
    .mem_req_ready_i
  );
  assign if_req.valid = if_req_valid;
  assign if_req.addr = if_req_addr;
  assign if_req.op = 2'd0;              // line READs
  assign if_req.wdata = '0;
  assign if_req.wstrb = '0;
  `BARESM_MEM_REQ_TO_PORTS(mem_req)
  assign ls_rsp.valid = mem_rsp_valid_i && !mem_rsp_id_i[LsuIdWidth];
  assign ls_rsp.id = mem_rsp_id_i[LsuIdWidth-1:0];
  assign ls_rsp.rdata = mem_rsp_rdata_i;
  assign ls_rsp.err = mem_rsp_err_i;
  assign if_rsp_valid = mem_rsp_valid_i && mem_rsp_id_i[LsuIdWidth];
  // The fetch unit takes its responses at once.
  assign mem_rsp_ready_o = mem_rsp_id_i[LsuIdWidth] || ls_rsp_ready;


  // =========================================================================
  // Faults (baresm_sm_faults)
  // =========================================================================
  baresm_sm_faults #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots)
  ) u_faults (
    .clk_i,
    .rst_ni,
    .clear_i         (clear),
    .running_i       (running),
    .lsu_fault_i     (lsu_fault),
    .lsu_kind_i      (lsu_fkind),
    .lsu_warp_i      (lsu_done_warp),
    .lsu_lane_i      (lsu_flane),
    .lsu_pc_i        (lsu_fpc),
    .lsu_addr_i      (lsu_faddr),
    .iss_fault_i     (iss_fault),
    .iss_kind_i      (iss_fkind),
    .iss_warp_i      (sel),
    .iss_lane_i      (iss_flane),
    .iss_pc_i        (i_pc),
    .deadlock_i      (deadlock),
    .deadlock_warps_i(dl_warps),
    .bar_pc_i        (bar_pcs),
    .watchdog_i      (l_watchdog),
    .cycles_i        (cyc_q),
    .live_i          (live),
    .warp_pc_i       (st_pc),
    .warp_mask_i     (st_mask),
    .warp_cta_i      (slot_cta_q),
    .warp_wic_i      (slot_wic_q),
    .cta_x_i         (cta_x_q),
    .cta_y_i         (cta_y_q),
    .cta_z_i         (cta_z_q),
    .new_fault_o     (new_fault),
    .fault_o         (fault_q),
    .kind_o          (fault_kind_o),
    .cta_x_o         (fault_cta_x_o),
    .cta_y_o         (fault_cta_y_o),
    .cta_z_o         (fault_cta_z_o),
    .warp_o          (fault_warp_o),
    .lane_o          (fault_lane_o),
    .pc_o            (fault_pc_o),
    .addr_o          (fault_addr_o),
    .waiting_o       (fault_waiting_o)
  );

  assign busy_o = busy;
  assign done_o = done;
  assign cfg_error_o = cfg_err;

  // =========================================================================
  // Warp states and counters (baresm_sm_status)
  // =========================================================================
  baresm_sm_status #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots)
  ) u_status (
    .clk_i,
    .rst_ni,
    .clear_i        (clear),
    .busy_i         (busy),
    .running_i      (running),
    .used_i         (slot_used_q),
    .live_i         (live),
    .exited_i       (st_empty),
    .bar_wait_i     (bar_wait),
    .ready_i        (ready),
    .ifetch_miss_i  (f_miss),
    .ib_valid_i     (ib_valid),
    .ib_ctrl_i      (ib_ctrl),
    .hazard_i       (hazard),
    .hazard_mem_i   (hazard_mem),
    .unit_ok_i      (unit_ok),
    .issue_i        (issue),
    .issue_warp_i   (sel),
    .issue_exec_i   (i_exec),
    .issue_diverge_i(issue && i_op == baresm_isa_pkg::OP_BRA && st_diverge),
    .bar_release_i  (bar_release_any),
    .cta_retire_i   (cta_retire),
    .ifill_i        (if_req_valid && if_req_ready),
    .smem_pass_i    (smem_pass),
    .gmem_req_i     (ls_mreq.valid && ls_mreq_ready),
    .warp_state_o,
    .cycles_o       (cyc_q),
    .clock_o        (cyc_total_q),
    .rpt_req_i,
    .rpt_rsp_o
  );
  // The LSU's cumulative counts (its own tests read them); the launch's come from baresm_sm_status.
  logic unused_lsu_counts;
  assign unused_lsu_counts = ^{smem_passes, gmem_reqs};

  // ID/CONFIG words (docs/microarchitecture.md, "ID/CONFIG"): each field where
  // contract/sm_config.def puts it (baresm_smcfg_pkg is generated from it, and the
  // harness decodes config_o with the same table).
  assign config_o = baresm_smcfg_pkg::smcfg_arch_id(baresm_isa_pkg::ARCH_ID)
                  | baresm_smcfg_pkg::smcfg_num_lanes(32'(NumLanes))
                  | baresm_smcfg_pkg::smcfg_num_warps(32'(NumWarps))
                  | baresm_smcfg_pkg::smcfg_num_regs(32'(NumRegs))
                  | baresm_smcfg_pkg::smcfg_stack_depth(32'(StackDepth))
                  | baresm_smcfg_pkg::smcfg_rf_depth(32'(RfDepth))
                  | baresm_smcfg_pkg::smcfg_shared_bytes(32'(SharedBytes))
                  | baresm_smcfg_pkg::smcfg_num_banks(32'(NumBanks))
                  | baresm_smcfg_pkg::smcfg_cta_slots(32'(CtaSlots))
                  | baresm_smcfg_pkg::smcfg_fpu_latency(32'(FpuLatency))
                  | baresm_smcfg_pkg::smcfg_ic_lines(32'(IcLines))
                  | baresm_smcfg_pkg::smcfg_line_bytes(32'(MemLineBytes))
                  | baresm_smcfg_pkg::smcfg_id_bits(32'(LsuIdWidth + 1))
                  | baresm_smcfg_pkg::smcfg_num_windows(32'(NumWindows))
                  | baresm_smcfg_pkg::smcfg_smid(32'(SmId))
                  | baresm_smcfg_pkg::smcfg_version(32'd1)
                  | baresm_smcfg_pkg::smcfg_gather_depth(32'(GatherDepth))
                  | baresm_smcfg_pkg::smcfg_load_slots(32'(LoadSlots))
                  | baresm_smcfg_pkg::smcfg_rf_banks(32'(RfBanksUsed))
                  | baresm_smcfg_pkg::smcfg_has_fpu(32'(HasFpu));

  // =========================================================================
  // Assertions (rtl/prim/baresm_assert.svh); each block checks its own too
  // =========================================================================
  // Only a ready warp issues.
  `BARESM_ASSERT(a_issue_ready, !issue || ready[sel])
  // The memory request is held until taken.
  `BARESM_ASSERT_HELD(a_mem_req_held, mem_req_valid_o, mem_req_ready_i,
                      {mem_req_id_o, mem_req_addr_o, mem_req_op_o, mem_req_amo_o, mem_req_wstrb_o,
                       mem_req_wdata_o})

`ifndef SYNTHESIS
  // =========================================================================
  // Trace port
  // =========================================================================
  assign trace_issue_valid_o = grant_iss;
  assign trace_issue_fault_o = iss_fault;
  assign trace_issue_slot_o = 8'(sel);
  assign trace_issue_pc_o = i_pc;
  assign trace_issue_tmask_o = i_tmask;
  assign trace_issue_exec_o = i_exec;
  assign trace_issue_cta_x_o = cta_x_q[i_cta*32 +: 32];
  assign trace_issue_cta_y_o = cta_y_q[i_cta*32 +: 32];
  assign trace_issue_cta_z_o = cta_z_q[i_cta*32 +: 32];
  assign trace_issue_wic_o = slot_wic_q[sel*5 +: 5];
  assign trace_rf_we_o = trc_rf_we;
  assign trace_rf_mask_o = trc_rf_mask;
  assign trace_rf_data_o = trc_rf_data;
  always_comb begin
    for (int k = 0; k < 3; k++) trace_rf_addr_o[k*16 +: 16] = 16'(trc_rf_addr[k*AddrW +: AddrW]);
  end
  assign trace_pw_valid_o = pw_valid;
  assign trace_pw_slot_o = {8'(pw_warp[WarpW +: WarpW]), 8'(pw_warp[0 +: WarpW])};
  assign trace_pw_pd_o = pw_pd;
  assign trace_pw_mask_o = pw_mask;
  assign trace_pw_bits_o = pw_bits;
`endif

  // Outputs only used by tracing and barrier statistics.
  logic unused_top;
  assign unused_top = ^{bar_release, exec_idle, dl_cta, i_tmask};

endmodule

`default_nettype wire
