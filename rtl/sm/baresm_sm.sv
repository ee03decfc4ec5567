// baresm_sm: one streaming multiprocessor. docs/microarchitecture.md is the
// full description (block diagram, pipeline timing, ports).
//
//   launch port -> dispatcher -> warp slots (reconvergence stack, instruction
//   buffer, predicates, scoreboard) -> fetch/I-cache -> scheduler -> issue
//   (guards, branches, EXIT, BAR, VOTE.ANY/ALL and issue-time faults are
//   resolved here) -> baresm_sm_exec (register file, ALU, FPU, gather
//   buffer, shuffle, writeback) -> baresm_lsu -> memory arbiter -> port.
//
// A launch: launch_valid_i/launch_ready_o with the descriptor (layout in
// baresm_sm_pkg, LD_*). The SM sizes the launch (warp slots the register
// file allows, CTA slots the shared memory allows), dispatches CTAs as
// resources free up, and pulses done_o once: with fault_kind_o NONE when the
// grid completed, the fault report otherwise (after every outstanding
// memory response has come back), or with cfg_error_o when the launch
// cannot run on this SM (nothing executed).
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm #(
  parameter int NumLanes = 32,     // physical lanes: 1, 2, 4, 8, 16 or 32
  parameter int NumWarps = 16,     // warp slots
  parameter int NumRegs = 63,      // registers per thread supported (<= 63)
  parameter int RfDepth = NumWarps * NumRegs * (32 / NumLanes),  // register-file entries per lane
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
  parameter int StarveLimit = 32,
  parameter int SmId = 0
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // ---- launch -------------------------------------------------------------
  input  logic                          launch_valid_i,
  output logic                          launch_ready_o,
  input  logic [baresm_sm_pkg::LAUNCH_W-1:0] launch_i,
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
  output logic [63:0]                   cnt_cycles_o,   // cycles of the last/current launch
  output logic [63:0]                   cnt_instrs_o,   // warp-instructions issued
  output logic [63:0]                   cnt_stalls_o,   // cycles with live warps and no issue
  output logic [31:0]                   cnt_smem_passes_o,
  output logic [31:0]                   cnt_gmem_reqs_o,
  output logic [31:0]                   cnt_ifills_o,   // instruction-cache fills
  output logic [baresm_state_pkg::NUM_WS*64-1:0] cnt_states_o, // warp-cycles per state
  output logic [4*64-1:0]               cnt_events_o,   // divergent branches, barrier releases,
                                                        // thread-instructions, CTAs completed
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
  // Predicate writes: ALU, FPU (per beat) and VOTE.ANY/ALL (at issue).
  output logic [2:0]                    trace_pw_valid_o,
  output logic [23:0]                   trace_pw_slot_o,      // 8 bits per port
  output logic [8:0]                    trace_pw_pd_o,
  output logic [95:0]                   trace_pw_mask_o,
  output logic [95:0]                   trace_pw_bits_o
`endif
);

  localparam int Beats = 32 / NumLanes;
  localparam int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1;
  localparam int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1;
  localparam int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1;
  localparam int DepthW = $clog2(StackDepth + 1);
  localparam int InitSteps = (NumWarps > CtaSlots) ? NumWarps : CtaSlots;
  localparam int InitW = $clog2(InitSteps + 1);
  localparam logic [5:0] RZ = 6'd63;
  localparam logic [2:0] PT = 3'd7;

  // =========================================================================
  // Launch control
  // =========================================================================
  typedef enum logic [2:0] { S_IDLE, S_INIT, S_CHECK, S_RUN, S_DRAIN, S_DONE } state_e;
  state_e state_q;

  logic [baresm_sm_pkg::LAUNCH_W-1:0] lq;  // the accepted descriptor
  logic [31:0] l_entry, l_code_base, l_code_size, l_grid_x, l_grid_y, l_grid_z;
  logic [15:0] l_block_x, l_block_y, l_block_z;
  logic [7:0] l_regs, l_smid;
  logic [31:0] l_param_addr, l_param_size, l_shared;
  logic [63:0] l_watchdog;
  assign l_entry = lq[baresm_sm_pkg::LD_ENTRY_PC +: 32];
  assign l_code_base = lq[baresm_sm_pkg::LD_CODE_BASE +: 32];
  assign l_code_size = lq[baresm_sm_pkg::LD_CODE_SIZE +: 32];
  assign l_grid_x = lq[baresm_sm_pkg::LD_GRID_X +: 32];
  assign l_grid_y = lq[baresm_sm_pkg::LD_GRID_Y +: 32];
  assign l_grid_z = lq[baresm_sm_pkg::LD_GRID_Z +: 32];
  assign l_block_x = lq[baresm_sm_pkg::LD_BLOCK_X +: 16];
  assign l_block_y = lq[baresm_sm_pkg::LD_BLOCK_Y +: 16];
  assign l_block_z = lq[baresm_sm_pkg::LD_BLOCK_Z +: 16];
  assign l_regs = lq[baresm_sm_pkg::LD_REGS +: 8];
  assign l_smid = lq[baresm_sm_pkg::LD_SMID +: 8];
  assign l_param_addr = lq[baresm_sm_pkg::LD_PARAM_ADDR +: 32];
  assign l_param_size = lq[baresm_sm_pkg::LD_PARAM_SIZE +: 32];
  assign l_shared = lq[baresm_sm_pkg::LD_SHARED +: 32];
  assign l_watchdog = lq[baresm_sm_pkg::LD_WATCHDOG +: 64];

  logic [31:0] l_block;  // {y, x}: what thread-id walks need
  assign l_block = {l_block_y, l_block_x};

  // Launch constants computed at S_INIT.
  logic [47:0] threads_full;
  logic [10:0] threads;
  logic [5:0]  warps_per_cta;
  logic [31:0] rf_per_warp;   // register-file entries of one warp
  logic [31:0] smem_per_cta;  // shared bytes of one CTA, 16-byte granules
  assign threads_full = 48'(l_block_x) * 48'(l_block_y) * 48'(l_block_z);
  assign threads = threads_full[10:0];
  assign warps_per_cta = 6'((threads + 11'd31) >> 5);
  assign rf_per_warp = 32'(l_regs) * 32'(Beats);
  assign smem_per_cta = (l_shared + 32'd15) & ~32'd15;

  logic clear;        // launch start: every per-launch structure starts empty
  logic accept;
  assign launch_ready_o = state_q == S_IDLE;
  assign accept = launch_valid_i && launch_ready_o;
  assign clear = accept;

  logic [InitW-1:0] init_i_q;
  logic [31:0] init_rf_q, init_sm_q;
  logic [6:0] nusable_q;

  logic [NumWarps-1:0] warp_usable_q;
  logic [NumWarps*AddrW-1:0] rf_base_q;
  logic [CtaSlots-1:0] cta_usable_q;
  logic [31:0] cta_sbase_q [CtaSlots];

  // A window past the SM's NumWindows with a nonzero size: the launch asks for
  // more windows than this SM checks, and is refused (the CP never sends one:
  // it refuses a window_count above CONFIG1.MAX_WINDOWS). One flop taken at
  // accept, so lq's slots past NumWindows are not kept (synthesis drops them).
  logic extra_windows;
  if (NumWindows < baresm_sm_pkg::MAX_WINDOWS) begin : g_extra_windows
    localparam int Rest = 32 * (baresm_sm_pkg::MAX_WINDOWS - NumWindows);
    logic extra_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) extra_q <= 1'b0;
      else if (accept) extra_q <= |launch_i[baresm_sm_pkg::LD_WIN_SIZE + 32*NumWindows +: Rest];
    end
    assign extra_windows = extra_q;
    logic unused_windows;
    assign unused_windows = ^{lq[baresm_sm_pkg::LD_WIN_BASE + 32*NumWindows +: Rest],
                              lq[baresm_sm_pkg::LD_WIN_SIZE + 32*NumWindows +: Rest]};
  end else begin : g_no_extra_windows
    assign extra_windows = 1'b0;
  end

  logic cfg_bad;
  assign cfg_bad = l_regs == 8'd0 || 32'(l_regs) > 32'(NumRegs) || threads_full == 48'd0 ||
                   threads_full > 48'd1024 || l_grid_x == 32'd0 || l_grid_y == 32'd0 ||
                   l_grid_z == 32'd0 || {1'b0, warps_per_cta} > nusable_q ||
                   l_shared > 32'(SharedBytes) || extra_windows;

  // Fault state (first fault wins).
  logic        fault_q;
  logic [3:0]  f_kind_q;
  logic [31:0] f_cta_x_q, f_cta_y_q, f_cta_z_q, f_pc_q, f_addr_q, f_wait_q;
  logic [7:0]  f_warp_q;
  logic [4:0]  f_lane_q;
  logic        cfg_err_q;

  logic        new_fault;
  logic [3:0]  nf_kind;
  logic [WarpW-1:0] nf_slot;
  logic [4:0]  nf_lane;
  logic [31:0] nf_pc, nf_addr, nf_wait;

  logic disp_done, lsu_idle, fetch_idle, exec_idle, any_cta;
  logic [63:0] cyc_q, cyc_total_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      lq <= '0;
      init_i_q <= '0;
      init_rf_q <= '0;
      init_sm_q <= '0;
      nusable_q <= '0;
      cfg_err_q <= 1'b0;
    end else begin
      unique case (state_q)
        S_IDLE: begin
          if (accept) begin
            lq <= launch_i;
            state_q <= S_INIT;
            init_i_q <= '0;
            init_rf_q <= '0;
            init_sm_q <= '0;
            nusable_q <= '0;
            cfg_err_q <= 1'b0;
          end
        end
        S_INIT: begin
          init_i_q <= init_i_q + InitW'(1);
          init_rf_q <= init_rf_q + rf_per_warp;
          init_sm_q <= init_sm_q + smem_per_cta;
          if (init_i_q < InitW'(NumWarps) && init_rf_q + rf_per_warp <= 32'(RfDepth))
            nusable_q <= nusable_q + 7'd1;
          if (init_i_q == InitW'(InitSteps - 1)) state_q <= S_CHECK;
        end
        S_CHECK: begin
          if (cfg_bad) begin
            cfg_err_q <= 1'b1;
            state_q <= S_DONE;
          end else begin
            state_q <= S_RUN;
          end
        end
        S_RUN: begin
          if (fault_q || new_fault) state_q <= S_DRAIN;
          else if (disp_done && !any_cta) state_q <= S_DONE;
        end
        S_DRAIN: begin
          if (lsu_idle && fetch_idle) state_q <= S_DONE;
        end
        S_DONE: state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      warp_usable_q <= '0;
      rf_base_q <= '0;
      cta_usable_q <= '0;
    end else if (state_q == S_INIT) begin
      for (int w = 0; w < NumWarps; w++) begin
        if (init_i_q == InitW'(w)) begin
          rf_base_q[w*AddrW +: AddrW] <= AddrW'(init_rf_q);
          warp_usable_q[w] <= init_rf_q + rf_per_warp <= 32'(RfDepth);
        end
      end
      for (int c = 0; c < CtaSlots; c++) begin
        if (init_i_q == InitW'(c)) cta_usable_q[c] <= init_sm_q + smem_per_cta <= 32'(SharedBytes);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == S_INIT) begin
      for (int c = 0; c < CtaSlots; c++) begin
        if (init_i_q == InitW'(c)) cta_sbase_q[c] <= init_sm_q;
      end
    end
  end

  logic running;
  assign running = state_q == S_RUN && !fault_q;

  // =========================================================================
  // Dispatcher, CTA slots and warp slots
  // =========================================================================
  logic [NumWarps-1:0] slot_used_q;
  logic [NumWarps*CtaW-1:0] slot_cta_q;
  logic [4:0] slot_wic_q [NumWarps];
  logic [47:0] slot_tid_q [NumWarps];
  logic [CtaSlots-1:0] cta_used_q, cta_run_q;
  logic [31:0] cta_x_q [CtaSlots];
  logic [31:0] cta_y_q [CtaSlots];
  logic [31:0] cta_z_q [CtaSlots];

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
    .start_i      (state_q == S_CHECK && !cfg_bad),
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
  logic [NumWarps-1:0] st_empty, st_settled, st_overflow, st_diverge;
  logic [31:0] st_pc [NumWarps];
  logic [31:0] st_mask [NumWarps];
  logic [31:0] st_rpc [NumWarps];

  logic [NumWarps-1:0] live, exited;
  assign live = slot_used_q & ~st_empty;
  assign exited = slot_used_q & st_empty;

  // Scoreboard and per-warp counters.
  logic [NumWarps*64-1:0] pend_reg_q;   // register being written (bit 63 never set)
  logic [NumWarps*64-1:0] pend_mem_q;   // ... by the LSU
  logic [NumWarps*8-1:0]  pend_pred_q;  // predicate being written (bit 7 never set)
  logic [2:0] lsu_cnt_q [NumWarps];     // memory instructions not completed

  logic [NumWarps-1:0] drained, exec_busy;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      drained[w] = pend_reg_q[w*64 +: 64] == '0 && pend_pred_q[w*8 +: 8] == '0 &&
                   lsu_cnt_q[w] == 3'd0 && !exec_busy[w];
    end
  end

  // A CTA retires when all its warps have exited and nothing of theirs is in flight.
  logic [CtaSlots-1:0] cta_retire;
  logic [NumWarps-1:0] warp_retire;
  always_comb begin
    cta_retire = cta_run_q;
    for (int w = 0; w < NumWarps; w++) begin
      if (slot_used_q[w] && !(exited[w] && drained[w]))
        cta_retire[slot_cta_q[w*CtaW +: CtaW]] = 1'b0;
    end
    for (int w = 0; w < NumWarps; w++) begin
      warp_retire[w] = slot_used_q[w] && cta_retire[slot_cta_q[w*CtaW +: CtaW]];
    end
  end
  assign any_cta = cta_used_q != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_used_q <= '0;
      cta_used_q <= '0;
      cta_run_q <= '0;
    end else if (clear) begin
      slot_used_q <= '0;
      cta_used_q <= '0;
      cta_run_q <= '0;
    end else begin
      slot_used_q <= (slot_used_q & ~warp_retire) |
                     (place_valid ? (NumWarps'(1) << place_warp) : '0);
      cta_used_q <= (cta_used_q & ~cta_retire) | (cta_start ? (CtaSlots'(1) << start_cta) : '0);
      cta_run_q <= (cta_run_q & ~cta_retire) | (cta_run_set ? (CtaSlots'(1) << place_cta) : '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (cta_start) begin
      cta_x_q[start_cta] <= dcta_x;
      cta_y_q[start_cta] <= dcta_y;
      cta_z_q[start_cta] <= dcta_z;
    end
    if (place_valid) begin
      slot_cta_q[place_warp*CtaW +: CtaW] <= place_cta;
      slot_wic_q[place_warp] <= place_wic;
      slot_tid_q[place_warp] <= place_tid;
    end
  end

  logic [NumWarps-1:0] warp_cta_run;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) warp_cta_run[w] = cta_run_q[slot_cta_q[w*CtaW +: CtaW]];
  end

  // =========================================================================
  // Instruction buffer (one decoded instruction per warp)
  // =========================================================================
  // Pre-decode: what the scoreboard and the issue stage need of a word.
  //   [36:34] class  [33:28] sa  [27:22] sb  [21:16] sc  [15:10] rd (63 none)
  //   [9:7] guard pred  [6:4] second pred read  [3:1] pred written  [0] illegal
  localparam int DecW = 37;
  function automatic logic [DecW-1:0] predecode(input logic [43:0] w, input logic [7:0] regs);
    logic [6:0] op;
    logic [9:0] fl;
    logic [1:0] unit;
    logic bimm, atom, cas, ill;
    logic [5:0] rd, ra, rb, rc, sa, sb, sc, dst;
    logic [2:0] cls, pp, pd;
    logic [3:0] mod;
    op = w[6:0];
    bimm = w[7];
    rd = w[17:12];
    ra = w[23:18];
    mod = w[27:24];
    rb = w[37:32];
    rc = w[43:38];
    fl = baresm_isa_pkg::op_flags(op);
    unit = baresm_isa_pkg::op_unit(op);
    atom = op == baresm_isa_pkg::OP_ATOMG || op == baresm_isa_pkg::OP_ATOMS;
    cas = atom && mod[3:0] == baresm_isa_pkg::ATOM_CAS;
    sa = fl[baresm_isa_pkg::F_RA] ? ra : RZ;
    sb = fl[baresm_isa_pkg::F_RRD] ? rd : ((fl[baresm_isa_pkg::F_RB] && !bimm) ? rb : RZ);
    sc = (fl[baresm_isa_pkg::F_RC] && (!atom || cas)) ? rc : RZ;
    dst = fl[baresm_isa_pkg::F_WRD] ? rd : RZ;
    pp = PT;
    pd = fl[baresm_isa_pkg::F_WPD] ? rd[2:0] : PT;
    if (op == baresm_isa_pkg::OP_SEL) pp = mod[2:0];
    if (op == baresm_isa_pkg::OP_ISETP || op == baresm_isa_pkg::OP_FSETP) pp = rd[5:3];
    if (op == baresm_isa_pkg::OP_VOTE) begin
      pp = ra[2:0];
      if (mod[1:0] == baresm_isa_pkg::VOTE_BALLOT) dst = rd;
      else pd = rd[2:0];
    end
    // The registers the instruction uses must exist in this launch (isa
    // used_regs: RZ excluded).
    ill = !baresm_sm_pkg::word_legal(op, bimm, w[31:24]);
    // An SM built without the FPU (HasFpu 0) has no FPU instructions: they
    // fault at issue like an undefined word (the model's has_fpu = false).
    if (!HasFpu && unit == baresm_isa_pkg::UNIT_FPU) ill = 1'b1;
    if ((dst != RZ && 8'(dst) >= regs) || (sa != RZ && 8'(sa) >= regs) ||
        (sb != RZ && 8'(sb) >= regs) || (sc != RZ && 8'(sc) >= regs))
      ill = 1'b1;
    unique case (unit)
      baresm_isa_pkg::UNIT_FPU: cls = baresm_sm_pkg::CL_FPU;
      baresm_isa_pkg::UNIT_LSU: cls = baresm_sm_pkg::CL_LSU;
      baresm_isa_pkg::UNIT_BRU: cls = baresm_sm_pkg::CL_CTRL;
      default: begin
        if (op == baresm_isa_pkg::OP_SHFL) cls = baresm_sm_pkg::CL_SHFL;
        else if (op == baresm_isa_pkg::OP_NOP) cls = baresm_sm_pkg::CL_CTRL;
        else if (op == baresm_isa_pkg::OP_VOTE && mod[1:0] != baresm_isa_pkg::VOTE_BALLOT)
          cls = baresm_sm_pkg::CL_CTRL;
        else cls = baresm_sm_pkg::CL_ALU;
      end
    endcase
    if (ill) begin
      cls = baresm_sm_pkg::CL_CTRL;
      sa = RZ;
      sb = RZ;
      sc = RZ;
      dst = RZ;
      pp = PT;
      pd = PT;
    end
    predecode = {cls, sa, sb, sc, dst, ill ? PT : w[10:8], pp, pd, ill};
  endfunction

  logic [NumWarps-1:0] ib_valid_q, ib_bad_q, ib_ferr_q;
  logic [63:0] ib_word_q [NumWarps];
  logic [DecW-1:0] ib_dec_q [NumWarps];

  logic f_valid, f_bad, f_ferr;
  logic [WarpW-1:0] f_warp;
  logic [63:0] f_word;
  logic [NumWarps-1:0] f_want, f_miss;
  logic [NumWarps*32-1:0] f_pcs;
  logic if_req_valid, if_req_ready, if_rsp_valid;
  logic [31:0] if_req_addr;

  // The issuing warp may fetch its next instruction in the issue cycle when
  // it is sure to be at pc + 8 (not a branch or exit, and no pop follows):
  // its next instruction can then issue 2 cycles later instead of 3.
  logic next_ok;
  logic [31:0] next_pc;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      f_want[w] = running && live[w] && warp_cta_run[w] && st_settled[w] && !ib_valid_q[w];
      f_pcs[w*32 +: 32] = st_pc[w];
    end
    if (next_ok) begin
      f_want[sel] = 1'b1;
      f_pcs[sel*32 +: 32] = next_pc;
    end
  end

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

  logic issue;                 // an instruction issues this cycle (no fault)
  logic [WarpW-1:0] sel;       // ... from this warp

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ib_valid_q <= '0;
    end else if (clear) begin
      ib_valid_q <= '0;
    end else begin
      if (issue) ib_valid_q[sel] <= 1'b0;
      if (f_valid && running) ib_valid_q[f_warp] <= 1'b1;
      if (place_valid) ib_valid_q[place_warp] <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (f_valid) begin
      ib_word_q[f_warp] <= f_word;
      ib_bad_q[f_warp] <= f_bad;
      ib_ferr_q[f_warp] <= f_ferr;
      // A bad pc has no operands: it only faults.
      ib_dec_q[f_warp] <= f_bad ? {baresm_sm_pkg::CL_CTRL, RZ, RZ, RZ, RZ, PT, PT, PT, 1'b1}
                                : predecode(f_word[43:0], l_regs);
    end
  end

  // =========================================================================
  // Predicates (P0..P6 per warp, all lanes in flops: guards are read at issue)
  // =========================================================================
  logic [31:0] pred_q [NumWarps*7];

  // =========================================================================
  // Ready, scheduling, issue
  // =========================================================================
  logic sq_ready, gather_free;
  logic [NumWarps-1:0] bar_wait;
  logic [NumWarps-1:0] ready, hazard, hazard_mem, unit_ok;

  logic [DecW-1:0] d;
  always_comb begin
    d = '0;
    for (int w = 0; w < NumWarps; w++) begin
      d = ib_dec_q[w];
      hazard[w] = pend_reg_q[w*64 + 32'(d[33:28])] | pend_reg_q[w*64 + 32'(d[27:22])] |
                  pend_reg_q[w*64 + 32'(d[21:16])] | pend_reg_q[w*64 + 32'(d[15:10])] |
                  pend_pred_q[w*8 + 32'(d[9:7])] | pend_pred_q[w*8 + 32'(d[6:4])] |
                  pend_pred_q[w*8 + 32'(d[3:1])];
      hazard_mem[w] = pend_mem_q[w*64 + 32'(d[33:28])] | pend_mem_q[w*64 + 32'(d[27:22])] |
                      pend_mem_q[w*64 + 32'(d[21:16])] | pend_mem_q[w*64 + 32'(d[15:10])];
      unique case (d[36:34])
        baresm_sm_pkg::CL_ALU, baresm_sm_pkg::CL_FPU: unit_ok[w] = sq_ready;
        baresm_sm_pkg::CL_SHFL, baresm_sm_pkg::CL_LSU: unit_ok[w] = sq_ready && gather_free;
        default:
          // BAR is a memory fence for its warp: its loads and stores are done.
          unit_ok[w] = !(ib_word_q[w][6:0] == baresm_isa_pkg::OP_BAR && !d[0] && !ib_bad_q[w]) ||
                       lsu_cnt_q[w] == 3'd0;
      endcase
      ready[w] = running && live[w] && warp_cta_run[w] && ib_valid_q[w] && st_settled[w] &&
                 !bar_wait[w] && !hazard[w] && unit_ok[w];
    end
  end

  logic grant_valid;
  logic [WarpW-1:0] grant;

  baresm_sm_sched #(
    .NumWarps(NumWarps),
    .StarveLimit(StarveLimit)
  ) u_sched (
    .clk_i,
    .rst_ni,
    .clear_i       (clear),
    .policy_gto_i  (sched_gto_i),
    .start_i       (place_valid ? (NumWarps'(1) << place_warp) : '0),
    .ready_i       (ready),
    .grant_valid_o (grant_valid),
    .grant_o       (grant)
  );
  assign sel = grant;

  // ---- the selected warp's instruction ----------------------------------------------
  logic [63:0] iw;
  logic [DecW-1:0] idec;
  logic [6:0] i_op;
  logic [7:0] i_mod;
  logic [2:0] i_class, i_pg, i_pp, i_pd;
  logic i_bimm, i_pgn, i_ill, i_bad, i_ferr, i_ppn;
  logic [31:0] i_imm, i_pc, i_tmask, i_guard, i_exec, i_ppv, i_ballot;
  logic [CtaW-1:0] i_cta;

  assign iw = ib_word_q[sel];
  assign idec = ib_dec_q[sel];
  assign i_op = iw[6:0];
  assign i_bimm = iw[7];
  assign i_pgn = iw[11];
  assign i_mod = iw[31:24];
  assign i_imm = i_bimm ? iw[63:32] : {{12{iw[63]}}, iw[63:44]};
  assign i_class = idec[36:34];
  assign i_pg = idec[9:7];
  assign i_pp = idec[6:4];
  assign i_pd = idec[3:1];
  assign i_ill = idec[0];
  assign i_bad = ib_bad_q[sel];
  assign i_ferr = ib_ferr_q[sel];
  assign i_pc = st_pc[sel];
  assign i_tmask = st_mask[sel];
  assign i_cta = slot_cta_q[sel*CtaW +: CtaW];

  always_comb begin
    i_guard = (i_pg == PT) ? 32'hFFFF_FFFF : pred_q[32'(sel)*7 + 32'(i_pg)];
    if (i_pgn) i_guard = ~i_guard;
    i_ppn = 1'b0;
    if (i_op == baresm_isa_pkg::OP_SEL) i_ppn = i_mod[3];
    if (i_op == baresm_isa_pkg::OP_ISETP || i_op == baresm_isa_pkg::OP_FSETP) i_ppn = i_mod[6];
    if (i_op == baresm_isa_pkg::OP_VOTE) i_ppn = iw[21];  // ra[3]
    i_ppv = (i_pp == PT) ? 32'hFFFF_FFFF : pred_q[32'(sel)*7 + 32'(i_pp)];
    if (i_ppn) i_ppv = ~i_ppv;
  end
  assign i_exec = i_tmask & i_guard;
  assign i_ballot = i_exec & i_ppv;

  // Branch target and reconvergence point.
  logic [31:0] i_target, i_reconv;
  assign i_target = i_pc + {{13{iw[47]}}, iw[47:32], 3'b000};
  assign i_reconv = (iw[63:48] == 16'd0) ? baresm_sm_pkg::PC_NONE
                                         : i_pc + {{13{iw[63]}}, iw[63:48], 3'b000};

  // Issue-time faults.
  logic iss_fault;
  logic [3:0] iss_fkind;
  logic [4:0] iss_flane;
  always_comb begin
    iss_fault = 1'b0;
    iss_fkind = baresm_state_pkg::FAULT_NONE;
    iss_flane = baresm_sm_pkg::lowest_lane(i_tmask);
    if (i_bad) begin
      iss_fault = 1'b1;
      iss_fkind = i_ferr ? baresm_state_pkg::FAULT_FETCH_ERROR : baresm_state_pkg::FAULT_INVALID_PC;
    end else if (i_ill) begin
      iss_fault = 1'b1;
      iss_fkind = baresm_state_pkg::FAULT_ILLEGAL_INSTR;
    end else if (i_op == baresm_isa_pkg::OP_TRAP && i_exec != 32'd0) begin
      iss_fault = 1'b1;
      iss_fkind = baresm_state_pkg::FAULT_TRAP;
      iss_flane = baresm_sm_pkg::lowest_lane(i_exec);
    end else if (i_op == baresm_isa_pkg::OP_BRA && st_overflow[sel]) begin
      iss_fault = 1'b1;
      iss_fkind = baresm_state_pkg::FAULT_STACK_OVERFLOW;
    end
    if (!grant_valid) iss_fault = 1'b0;
  end

  assign issue = grant_valid && !iss_fault;
  assign next_pc = i_pc + 32'd8;
  assign next_ok = issue && running && i_op != baresm_isa_pkg::OP_BRA &&
                   i_op != baresm_isa_pkg::OP_EXIT && next_pc != st_rpc[sel];

  logic iss_pipe, iss_vote_pred, iss_arrive;
  assign iss_pipe = issue && i_class != baresm_sm_pkg::CL_CTRL;
  assign iss_vote_pred = issue && i_class == baresm_sm_pkg::CL_CTRL &&
                         i_op == baresm_isa_pkg::OP_VOTE && i_pd != PT;
  assign iss_arrive = issue && i_op == baresm_isa_pkg::OP_BAR && i_exec != 32'd0;

  // Warp-uniform special registers.
  logic [31:0] i_sreg;
  always_comb begin
    unique case (i_mod)
      baresm_isa_pkg::SR_NTID_X: i_sreg = {16'd0, l_block_x};
      baresm_isa_pkg::SR_NTID_Y: i_sreg = {16'd0, l_block_y};
      baresm_isa_pkg::SR_NTID_Z: i_sreg = {16'd0, l_block_z};
      baresm_isa_pkg::SR_CTAID_X: i_sreg = cta_x_q[i_cta];
      baresm_isa_pkg::SR_CTAID_Y: i_sreg = cta_y_q[i_cta];
      baresm_isa_pkg::SR_CTAID_Z: i_sreg = cta_z_q[i_cta];
      baresm_isa_pkg::SR_NCTAID_X: i_sreg = l_grid_x;
      baresm_isa_pkg::SR_NCTAID_Y: i_sreg = l_grid_y;
      baresm_isa_pkg::SR_NCTAID_Z: i_sreg = l_grid_z;
      baresm_isa_pkg::SR_WARPID: i_sreg = {27'd0, slot_wic_q[sel]};
      baresm_isa_pkg::SR_SMID: i_sreg = (l_smid != 8'd0) ? {24'd0, l_smid} : 32'(SmId);
      baresm_isa_pkg::SR_CLOCK: i_sreg = cyc_total_q[31:0];
      baresm_isa_pkg::SR_CLOCKHI: i_sreg = cyc_total_q[63:32];
      default: i_sreg = 32'd0;
    endcase
  end

  // Operand b is the immediate for ALU/FPU/SHFL with bimm; memory
  // instructions use imm as the address offset (b is the store data / the
  // atomic operand); VOTE.BALLOT passes the ballot as b.
  logic i_use_imm;
  logic [31:0] i_bval;
  assign i_use_imm = (i_bimm && i_class != baresm_sm_pkg::CL_LSU) || i_op == baresm_isa_pkg::OP_VOTE;
  assign i_bval = (i_op == baresm_isa_pkg::OP_VOTE) ? i_ballot : i_imm;

  // ---- stacks ---------------------------------------------------------------------
  logic [1:0] stk_kind;
  assign stk_kind = (i_op == baresm_isa_pkg::OP_BRA) ? 2'd1 :
                    (i_op == baresm_isa_pkg::OP_EXIT) ? 2'd2 : 2'd0;

  for (genvar w = 0; w < NumWarps; w++) begin : g_warp
    logic [DepthW-1:0] depth;
    baresm_sm_stack #(
      .Depth(StackDepth)
    ) u_stack (
      .clk_i,
      .rst_ni,
      .clear_i       (clear),
      .init_i        (place_valid && place_warp == WarpW'(w)),
      .init_pc_i     (l_entry),
      .init_mask_i   (place_mask),
      .op_valid_i    (issue && sel == WarpW'(w)),
      .op_kind_i     (stk_kind),
      .op_guard_i    (i_guard),
      .op_target_i   (i_target),
      .op_reconv_i   (i_reconv),
      .bra_overflow_o(st_overflow[w]),
      .bra_diverge_o (st_diverge[w]),
      .top_pc_o      (st_pc[w]),
      .top_rpc_o     (st_rpc[w]),
      .top_mask_o    (st_mask[w]),
      .empty_o       (st_empty[w]),
      .settled_o     (st_settled[w]),
      .depth_o       (depth)
    );
    logic unused_stack;
    assign unused_stack = ^depth;
  end

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
    .arrive_id_i     (i_imm[3:0]),
    .arrive_count_i  (i_imm[31:16]),
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
  logic [2:0] clr_valid;
  logic [3*WarpW-1:0] clr_warp;
  logic [17:0] clr_rd;
  logic [1:0] pw_valid, pw_last;
  logic [2*WarpW-1:0] pw_warp;
  logic [5:0] pw_pd;
  logic [63:0] pw_mask, pw_bits;

  logic lsu_req_valid, lsu_req_ready;
  logic [6:0] lsu_req_op;
  logic [7:0] lsu_req_mod;
  logic [WarpW-1:0] lsu_req_warp;
  logic [5:0] lsu_req_rd;
  logic [31:0] lsu_req_mask, lsu_req_sbase;
  logic [32*32-1:0] lsu_req_addr, lsu_req_data, lsu_req_swap;
  logic cpl_valid, cpl_ready, cpl_we, cpl_fault;
  logic [WarpW-1:0] cpl_warp;
  logic [5:0] cpl_rd;
  logic [31:0] cpl_mask, cpl_faddr;
  logic [32*32-1:0] cpl_data;
  logic [3:0] cpl_fkind;
  logic [4:0] cpl_flane;
  logic lsu_done, lsu_fault;
`ifndef SYNTHESIS
  logic [2:0] trc_rf_we;
  logic [3*AddrW-1:0] trc_rf_addr;
  logic [3*NumLanes-1:0] trc_rf_mask;
  logic [3*NumLanes*32-1:0] trc_rf_data;
`endif
  logic [WarpW-1:0] lsu_done_warp;
  logic [3:0] lsu_fkind;
  logic [4:0] lsu_flane;
  logic [31:0] lsu_faddr, lsu_fpc;

  baresm_sm_exec #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RfDepth(RfDepth),
    .FpuLatency(FpuLatency),
    .HasFpu(HasFpu)
  ) u_exec (
    .clk_i,
    .rst_ni,
    .clear_i         (clear),
    .drain_i         (state_q == S_DRAIN || fault_q),
    .iss_valid_i     (iss_pipe),
    .iss_class_i     (i_class),
    .iss_op_i        (i_op),
    .iss_mod_i       (i_mod),
    .iss_rd_i        (idec[15:10]),
    .iss_pd_i        (i_pd),
    .iss_sa_i        (idec[33:28]),
    .iss_sb_i        (idec[27:22]),
    .iss_sc_i        (idec[21:16]),
    .iss_bimm_i      (i_use_imm),
    .iss_imm_i       (i_bval),
    .iss_warp_i      (sel),
    .iss_base_i      (rf_base_q[sel*AddrW +: AddrW]),
    .iss_exec_i      (i_exec),
    .iss_pvec_i      (i_ppv),
    .iss_pc_i        (i_pc),
    .iss_tid0_i      (slot_tid_q[sel]),
    .iss_sreg_i      (i_sreg),
    .iss_sbase_i     (cta_sbase_q[i_cta]),
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
    .lsu_req_addr_o  (lsu_req_addr),
    .lsu_req_data_o  (lsu_req_data),
    .lsu_req_swap_o  (lsu_req_swap),
    .lsu_req_sbase_o (lsu_req_sbase),
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

  logic ls_mreq_valid, ls_mreq_ready, ls_rsp_valid;
  logic [LsuIdWidth-1:0] ls_mreq_id;
  logic [31:0] ls_mreq_addr;
  logic [1:0] ls_mreq_op;
  logic [4:0] ls_mreq_amo;
  logic [MemLineBytes*8-1:0] ls_mreq_wdata;
  logic [MemLineBytes-1:0] ls_mreq_wstrb;
  logic ls_rsp_ready;
  logic [31:0] smem_passes, gmem_reqs;

  baresm_lsu #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumBanks(NumBanks),
    .SharedBytes(SharedBytes),
    .MemLineBytes(MemLineBytes),
    .MemIdWidth(LsuIdWidth),
    .NumWindows(NumWindows)
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
    .req_addr_i      (lsu_req_addr),
    .req_data_i      (lsu_req_data),
    .req_swap_i      (lsu_req_swap),
    .req_smem_base_i (lsu_req_sbase),
    .req_smem_size_i (l_shared),
    .param_base_i    (l_param_addr),
    .param_size_i    (l_param_size),
    .win_base_i      (lq[baresm_sm_pkg::LD_WIN_BASE +: 32*NumWindows]),
    .win_size_i      (lq[baresm_sm_pkg::LD_WIN_SIZE +: 32*NumWindows]),
    .prot_base_i     (lq[baresm_sm_pkg::LD_PROT_BASE +: 32]),
    .prot_size_i     (lq[baresm_sm_pkg::LD_PROT_SIZE +: 32]),
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
    .mem_req_valid_o (ls_mreq_valid),
    .mem_req_ready_i (ls_mreq_ready),
    .mem_req_id_o    (ls_mreq_id),
    .mem_req_addr_o  (ls_mreq_addr),
    .mem_req_op_o    (ls_mreq_op),
    .mem_req_amo_o   (ls_mreq_amo),
    .mem_req_wdata_o (ls_mreq_wdata),
    .mem_req_wstrb_o (ls_mreq_wstrb),
    .mem_rsp_valid_i (ls_rsp_valid),
    .mem_rsp_ready_o (ls_rsp_ready),
    .mem_rsp_id_i    (mem_rsp_id_i[LsuIdWidth-1:0]),
    .mem_rsp_rdata_i (mem_rsp_rdata_i),
    .mem_rsp_err_i   (mem_rsp_err_i),
    .idle_o          (lsu_idle),
    .smem_passes_o   (smem_passes),
    .gmem_reqs_o     (gmem_reqs)
  );

  // Fetch (source A: line reads, one at a time) and the LSU share the port;
  // responses are routed by the top id bit.
  baresm_mem_arb #(
    .LineBytes(MemLineBytes),
    .IdW(LsuIdWidth)
  ) u_memarb (
    .clk_i,
    .rst_ni,
    .a_req_valid_i  (if_req_valid),
    .a_req_ready_o  (if_req_ready),
    .a_req_addr_i   (if_req_addr),
    .a_req_op_i     (2'd0),
    .a_req_wdata_i  ('0),
    .a_req_wstrb_i  ('0),
    .b_req_valid_i  (ls_mreq_valid),
    .b_req_ready_o  (ls_mreq_ready),
    .b_req_id_i     (ls_mreq_id),
    .b_req_addr_i   (ls_mreq_addr),
    .b_req_op_i     (ls_mreq_op),
    .b_req_amo_i    (ls_mreq_amo),
    .b_req_wdata_i  (ls_mreq_wdata),
    .b_req_wstrb_i  (ls_mreq_wstrb),
    .mem_req_valid_o(mem_req_valid_o),
    .mem_req_ready_i(mem_req_ready_i),
    .mem_req_id_o   (mem_req_id_o),
    .mem_req_addr_o (mem_req_addr_o),
    .mem_req_op_o   (mem_req_op_o),
    .mem_req_amo_o  (mem_req_amo_o),
    .mem_req_wdata_o(mem_req_wdata_o),
    .mem_req_wstrb_o(mem_req_wstrb_o)
  );
  assign if_rsp_valid = mem_rsp_valid_i && mem_rsp_id_i[LsuIdWidth];
  assign ls_rsp_valid = mem_rsp_valid_i && !mem_rsp_id_i[LsuIdWidth];
  // The fetch unit takes its responses at once.
  assign mem_rsp_ready_o = mem_rsp_id_i[LsuIdWidth] || ls_rsp_ready;

  // =========================================================================
  // Scoreboard, predicates, per-warp LSU counts
  // =========================================================================
  logic [5:0] i_dst;
  assign i_dst = idec[15:10];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_reg_q <= '0;
      pend_mem_q <= '0;
      pend_pred_q <= '0;
      for (int w = 0; w < NumWarps; w++) lsu_cnt_q[w] <= '0;
    end else if (clear) begin
      pend_reg_q <= '0;
      pend_mem_q <= '0;
      pend_pred_q <= '0;
      for (int w = 0; w < NumWarps; w++) lsu_cnt_q[w] <= '0;
    end else begin
      for (int k = 0; k < 3; k++) begin
        if (clr_valid[k]) begin
          pend_reg_q[32'(clr_warp[k*WarpW +: WarpW])*64 + 32'(clr_rd[k*6 +: 6])] <= 1'b0;
          pend_mem_q[32'(clr_warp[k*WarpW +: WarpW])*64 + 32'(clr_rd[k*6 +: 6])] <= 1'b0;
        end
      end
      for (int k = 0; k < 2; k++) begin
        if (pw_valid[k] && pw_last[k])
          pend_pred_q[32'(pw_warp[k*WarpW +: WarpW])*8 + 32'(pw_pd[k*3 +: 3])] <= 1'b0;
      end
      if (iss_pipe && i_dst != RZ) begin
        pend_reg_q[32'(sel)*64 + 32'(i_dst)] <= 1'b1;
        if (i_class == baresm_sm_pkg::CL_LSU) pend_mem_q[32'(sel)*64 + 32'(i_dst)] <= 1'b1;
      end
      if (iss_pipe && i_pd != PT) pend_pred_q[32'(sel)*8 + 32'(i_pd)] <= 1'b1;
      for (int w = 0; w < NumWarps; w++) begin
        lsu_cnt_q[w] <= lsu_cnt_q[w] +
            ((iss_pipe && i_class == baresm_sm_pkg::CL_LSU && sel == WarpW'(w)) ? 3'd1 : 3'd0) -
            ((lsu_done && lsu_done_warp == WarpW'(w)) ? 3'd1 : 3'd0);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int k = 0; k < 2; k++) begin
      if (pw_valid[k]) begin
        pred_q[32'(pw_warp[k*WarpW +: WarpW])*7 + 32'(pw_pd[k*3 +: 3])] <=
            (pred_q[32'(pw_warp[k*WarpW +: WarpW])*7 + 32'(pw_pd[k*3 +: 3])] &
             ~pw_mask[k*32 +: 32]) | (pw_bits[k*32 +: 32] & pw_mask[k*32 +: 32]);
      end
    end
    if (iss_vote_pred) begin
      // VOTE.ANY/ALL: the same answer in every guard-true lane.
      pred_q[32'(sel)*7 + 32'(i_pd)] <=
          (pred_q[32'(sel)*7 + 32'(i_pd)] & ~i_exec) |
          ((((i_mod[1:0] == baresm_isa_pkg::VOTE_ANY) ? (i_ballot != 32'd0) : (i_ballot == i_exec))
            ? 32'hFFFF_FFFF : 32'd0) & i_exec);
    end
    if (place_valid) begin
      for (int p = 0; p < 7; p++) pred_q[32'(place_warp)*7 + p] <= 32'd0;
    end
  end

  // =========================================================================
  // Faults
  // =========================================================================
  // Deadlock report: the waiting warp with the lowest index in the CTA, the
  // waiting warps as a mask of CTA warp indices.
  logic [WarpW-1:0] dl_slot;
  logic [31:0] dl_mask;
  logic [5:0] dl_best;
  always_comb begin
    dl_slot = '0;
    dl_mask = '0;
    dl_best = 6'd32;
    for (int w = 0; w < NumWarps; w++) begin
      if (dl_warps[w]) begin
        dl_mask[slot_wic_q[w]] = 1'b1;
        if ({1'b0, slot_wic_q[w]} < dl_best) begin
          dl_best = {1'b0, slot_wic_q[w]};
          dl_slot = WarpW'(w);
        end
      end
    end
  end

  // Watchdog report: the lowest live warp, where it stands.
  logic [WarpW-1:0] wd_slot;
  logic watchdog;
  always_comb begin
    wd_slot = '0;
    for (int w = NumWarps - 1; w >= 0; w--) begin
      if (live[w]) wd_slot = WarpW'(w);
    end
  end
  assign watchdog = l_watchdog != 64'd0 && cyc_q >= l_watchdog;

  always_comb begin
    new_fault = 1'b0;
    nf_kind = baresm_state_pkg::FAULT_NONE;
    nf_slot = '0;
    nf_lane = '0;
    nf_pc = '0;
    nf_addr = '0;
    nf_wait = '0;
    if (lsu_fault) begin
      // The oldest instruction: it was issued before anything below.
      new_fault = 1'b1;
      nf_kind = lsu_fkind;
      nf_slot = lsu_done_warp;
      nf_lane = lsu_flane;
      nf_pc = lsu_fpc;
      nf_addr = lsu_faddr;
    end else if (iss_fault) begin
      new_fault = 1'b1;
      nf_kind = iss_fkind;
      nf_slot = sel;
      nf_lane = iss_flane;
      nf_pc = i_pc;
      if (iss_fkind == baresm_state_pkg::FAULT_FETCH_ERROR) nf_addr = i_pc;
    end else if (deadlock) begin
      new_fault = 1'b1;
      nf_kind = baresm_state_pkg::FAULT_BARRIER_DEADLOCK;
      nf_slot = dl_slot;
      nf_pc = bar_pcs[dl_slot*32 +: 32];
      nf_wait = dl_mask;
    end else if (watchdog) begin
      new_fault = 1'b1;
      nf_kind = baresm_state_pkg::FAULT_WATCHDOG;
      nf_slot = wd_slot;
      nf_lane = baresm_sm_pkg::lowest_lane(st_mask[wd_slot]);
      nf_pc = st_pc[wd_slot];
    end
    if (!running) new_fault = 1'b0;
  end

  logic [CtaW-1:0] nf_cta;
  assign nf_cta = slot_cta_q[nf_slot*CtaW +: CtaW];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fault_q <= 1'b0;
      f_kind_q <= '0;
      f_cta_x_q <= '0;
      f_cta_y_q <= '0;
      f_cta_z_q <= '0;
      f_warp_q <= '0;
      f_lane_q <= '0;
      f_pc_q <= '0;
      f_addr_q <= '0;
      f_wait_q <= '0;
    end else if (clear) begin
      fault_q <= 1'b0;
      f_kind_q <= '0;
      f_cta_x_q <= '0;
      f_cta_y_q <= '0;
      f_cta_z_q <= '0;
      f_warp_q <= '0;
      f_lane_q <= '0;
      f_pc_q <= '0;
      f_addr_q <= '0;
      f_wait_q <= '0;
    end else if (new_fault) begin
      fault_q <= 1'b1;
      f_kind_q <= nf_kind;
      f_cta_x_q <= cta_x_q[nf_cta];
      f_cta_y_q <= cta_y_q[nf_cta];
      f_cta_z_q <= cta_z_q[nf_cta];
      f_warp_q <= {3'd0, slot_wic_q[nf_slot]};
      f_lane_q <= nf_lane;
      f_pc_q <= nf_pc;
      f_addr_q <= nf_addr;
      f_wait_q <= nf_wait;
    end
  end

  assign busy_o = state_q != S_IDLE;
  assign done_o = state_q == S_DONE;
  assign cfg_error_o = cfg_err_q;
  assign fault_kind_o = f_kind_q;
  assign fault_cta_x_o = f_cta_x_q;
  assign fault_cta_y_o = f_cta_y_q;
  assign fault_cta_z_o = f_cta_z_q;
  assign fault_warp_o = f_warp_q;
  assign fault_lane_o = f_lane_q;
  assign fault_pc_o = f_pc_q;
  assign fault_addr_o = f_addr_q;
  assign fault_waiting_o = f_wait_q;

  // =========================================================================
  // Warp states and counters
  // =========================================================================
  logic [2:0] wstate [NumWarps];
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      if (!slot_used_q[w]) wstate[w] = baresm_state_pkg::WS_IDLE;
      else if (st_empty[w]) wstate[w] = baresm_state_pkg::WS_EXITED;
      else if (bar_wait[w]) wstate[w] = baresm_state_pkg::WS_WAIT_BAR;
      else if (issue && sel == WarpW'(w)) wstate[w] = baresm_state_pkg::WS_ISSUED;
      else if (ready[w]) wstate[w] = baresm_state_pkg::WS_READY;
      else if (f_miss[w] || (ib_valid_q[w] && (hazard_mem[w] || (!hazard[w] && !unit_ok[w] &&
               ib_dec_q[w][36:34] == baresm_sm_pkg::CL_CTRL))))
        wstate[w] = baresm_state_pkg::WS_WAIT_MEM;
      else wstate[w] = baresm_state_pkg::WS_WAIT_SB;
      warp_state_o[w*3 +: 3] = wstate[w];
    end
  end

  logic [63:0] instr_q, stall_q, div_q, bars_q, tinstr_q, ctas_q;
  logic [31:0] ifills_q;
  logic [63:0] scnt_q [baresm_state_pkg::NUM_WS];
  logic [5:0] in_state [baresm_state_pkg::NUM_WS];
  logic [CtaW:0] cta_retire_count;
  always_comb begin
    cta_retire_count = '0;
    for (int c = 0; c < CtaSlots; c++) cta_retire_count = cta_retire_count + (CtaW + 1)'(cta_retire[c]);
  end
  always_comb begin
    for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) begin
      in_state[s] = '0;
      for (int w = 0; w < NumWarps; w++) begin
        if (wstate[w] == 3'(s)) in_state[s] = in_state[s] + 6'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cyc_q <= '0;
      cyc_total_q <= '0;
      instr_q <= '0;
      stall_q <= '0;
      ifills_q <= '0;
      div_q <= '0;
      bars_q <= '0;
      tinstr_q <= '0;
      ctas_q <= '0;
      for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) scnt_q[s] <= '0;
    end else begin
      cyc_total_q <= cyc_total_q + 64'd1;
      if (clear) begin
        cyc_q <= '0;
        instr_q <= '0;
        stall_q <= '0;
        ifills_q <= '0;
        div_q <= '0;
        bars_q <= '0;
        tinstr_q <= '0;
        ctas_q <= '0;
        for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) scnt_q[s] <= '0;
      end else if (state_q != S_IDLE) begin
        cyc_q <= cyc_q + 64'd1;
        if (issue) instr_q <= instr_q + 64'd1;
        if (issue) tinstr_q <= tinstr_q + {58'd0, baresm_sm_pkg::popc32(i_exec)};
        if (issue && i_op == baresm_isa_pkg::OP_BRA && st_diverge[sel]) div_q <= div_q + 64'd1;
        if (bar_release_any) bars_q <= bars_q + 64'd1;
        ctas_q <= ctas_q + 64'(cta_retire_count);
        if (running && live != '0 && !issue) stall_q <= stall_q + 64'd1;
        if (if_req_valid && if_req_ready) ifills_q <= ifills_q + 32'd1;
        for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) scnt_q[s] <= scnt_q[s] + 64'(in_state[s]);
      end
    end
  end

  assign cnt_cycles_o = cyc_q;
  assign cnt_instrs_o = instr_q;
  assign cnt_stalls_o = stall_q;
  assign cnt_smem_passes_o = smem_passes;
  assign cnt_gmem_reqs_o = gmem_reqs;
  assign cnt_ifills_o = ifills_q;
  always_comb begin
    for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) cnt_states_o[s*64 +: 64] = scnt_q[s];
  end
  assign cnt_events_o = {ctas_q, tinstr_q, bars_q, div_q};

  // ID/CONFIG words (docs/microarchitecture.md, "ID/CONFIG").
  assign config_o[0*32 +: 32] = baresm_isa_pkg::ARCH_ID;
  assign config_o[1*32 +: 32] = {8'(NumLanes), 8'(NumWarps), 8'(NumRegs), 8'(StackDepth)};
  assign config_o[2*32 +: 32] = 32'(RfDepth);
  assign config_o[3*32 +: 32] = 32'(SharedBytes);
  assign config_o[4*32 +: 32] = {8'(NumBanks), 8'(CtaSlots), 8'(FpuLatency), 8'(IcLines)};
  assign config_o[5*32 +: 32] = 32'(MemLineBytes);
  assign config_o[6*32 +: 32] = {8'(LsuIdWidth + 1), 8'(NumWindows), 8'(SmId), 8'd1};
  assign config_o[7*32 +: 32] = {31'd0, HasFpu};

  // =========================================================================
  // Assertions (rtl/prim/baresm_assert.svh)
  // =========================================================================
  // The scoreboard never releases a register or predicate it does not hold,
  // and an LSU count never underflows or wraps (3 bits: the LSU holds at
  // most 3 instructions of a warp).
  logic [2:0] clr_unheld;
  logic [1:0] pw_unheld;
  logic [NumWarps-1:0] lsu_cnt_under, lsu_cnt_over;
  always_comb begin
    for (int k = 0; k < 3; k++)
      clr_unheld[k] = clr_valid[k] &&
                      !pend_reg_q[32'(clr_warp[k*WarpW +: WarpW])*64 + 32'(clr_rd[k*6 +: 6])];
    for (int k = 0; k < 2; k++)
      pw_unheld[k] = pw_valid[k] && pw_last[k] &&
                     !pend_pred_q[32'(pw_warp[k*WarpW +: WarpW])*8 + 32'(pw_pd[k*3 +: 3])];
    for (int w = 0; w < NumWarps; w++) begin
      lsu_cnt_under[w] = lsu_done && lsu_done_warp == WarpW'(w) && lsu_cnt_q[w] == 3'd0;
      lsu_cnt_over[w] = iss_pipe && i_class == baresm_sm_pkg::CL_LSU && sel == WarpW'(w) &&
                        lsu_cnt_q[w] == 3'd7;
    end
  end
  `BARESM_ASSERT(a_sb_release_held, clr_unheld == '0)
  `BARESM_ASSERT(a_pred_release_held, pw_unheld == '0)
  `BARESM_ASSERT(a_lsu_cnt_no_underflow, lsu_cnt_under == '0)
  `BARESM_ASSERT(a_lsu_cnt_no_wrap, lsu_cnt_over == '0)
  // Only a ready warp issues; a CTA slot is started only when free and runs
  // only while used.
  `BARESM_ASSERT(a_issue_ready, !issue || ready[sel])
  `BARESM_ASSERT(a_cta_start_free, !cta_start || !cta_used_q[start_cta])
  `BARESM_ASSERT(a_cta_run_used, (cta_run_q & ~cta_used_q) == '0)
  // One done pulse per launch; the memory request is held until taken.
  `BARESM_ASSERT_PULSE(a_done_pulse, done_o)
  `BARESM_ASSERT_HELD(a_mem_req_held, mem_req_valid_o, mem_req_ready_i,
                      {mem_req_id_o, mem_req_addr_o, mem_req_op_o, mem_req_amo_o, mem_req_wstrb_o,
                       mem_req_wdata_o})

`ifndef SYNTHESIS
  // =========================================================================
  // Trace port
  // =========================================================================
  assign trace_issue_valid_o = grant_valid;
  assign trace_issue_fault_o = iss_fault;
  assign trace_issue_slot_o = 8'(sel);
  assign trace_issue_pc_o = i_pc;
  assign trace_issue_tmask_o = i_tmask;
  assign trace_issue_exec_o = i_exec;
  assign trace_issue_cta_x_o = cta_x_q[i_cta];
  assign trace_issue_cta_y_o = cta_y_q[i_cta];
  assign trace_issue_cta_z_o = cta_z_q[i_cta];
  assign trace_issue_wic_o = slot_wic_q[sel];
  assign trace_rf_we_o = trc_rf_we;
  assign trace_rf_mask_o = trc_rf_mask;
  assign trace_rf_data_o = trc_rf_data;
  always_comb begin
    for (int k = 0; k < 3; k++) trace_rf_addr_o[k*16 +: 16] = 16'(trc_rf_addr[k*AddrW +: AddrW]);
  end
  assign trace_pw_valid_o = {iss_vote_pred, pw_valid};
  assign trace_pw_slot_o = {8'(sel), 8'(pw_warp[WarpW +: WarpW]), 8'(pw_warp[0 +: WarpW])};
  assign trace_pw_pd_o = {i_pd, pw_pd};
  assign trace_pw_mask_o = {i_exec, pw_mask};
  assign trace_pw_bits_o = {((i_mod[1:0] == baresm_isa_pkg::VOTE_ANY) ? (i_ballot != 32'd0)
                                                                       : (i_ballot == i_exec))
                                ? 32'hFFFF_FFFF : 32'd0, pw_bits};
`endif

  `BARESM_ASSERT(a_num_windows, NumWindows >= 1 && NumWindows <= baresm_sm_pkg::MAX_WINDOWS)

  // Stack outputs only used by tracing and barrier statistics.
  logic unused_top;
  assign unused_top = ^{bar_release, exec_idle, dl_cta,
                        iw[23:8]};

endmodule

`default_nettype wire
