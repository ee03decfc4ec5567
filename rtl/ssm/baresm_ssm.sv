// baresm_ssm: the thread-serial SM (docs/microarchitecture.md, "The
// thread-serial SM"): baresm_sm's ports, ISA, contract and trace, built for
// a small FPGA. One warp-instruction at a time, one thread per step
// (baresm_ssm_seq); the launch control is the wide SM's own block, so a
// launch is sized and refused the same, and the counters count the same
// (baresm_ssm_status keeps them in a RAM).
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_mem_glue.svh"
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"

module baresm_ssm #(
  parameter int NumLanes = 1,     // physical lanes: 1, 2, 4, 8, 16 or 32
  parameter int NumWarps = 4,     // warp slots
  parameter int NumRegs = 16,      // registers per thread supported (<= 63)
  parameter int RfDepth = NumWarps * NumRegs * (32 / NumLanes),  // register-file entries per lane
  parameter int RfBanks = 1,       // register-file RAMs (a power of two; at most 32/NumLanes when that is > 1)
  parameter int SharedBytes = 2048,
  parameter int NumBanks = 4,
  parameter int CtaSlots = 1,
  parameter int StackDepth = 4,   // reconvergence entries per warp, the first included
  parameter int MemLineBytes = 16,
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b0,     // 0: no FPU is built; FPU instructions are ILLEGAL_INSTR
  parameter int IcLines = 1,      // instruction-cache lines of MemLineBytes
  parameter int LsuIdWidth = 2,    // LSU transaction ids; the port has one more bit
  parameter int NumWindows = 4,    // address windows a launch may use (1..MAX_WINDOWS)
  parameter int GatherDepth = 0,   // gather-buffer entries: memory/SHFL instructions from issue until the LSU has read their operands
  parameter int LoadSlots = 0,     // global loads waiting for memory outside the LSU's stage A (0: one at a time)
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
  output baresm_rpt_rsp_t               rpt_rsp_o,      // baresm_ssm_status, contract/sm_report.def
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

  // The serial SM keeps every parameter of baresm_sm (one configuration
  // file, one harness); these are the ones it has no use for: it has one
  // lane, one CTA slot, no instruction cache, no gather buffer, no load
  // slots, one memory request in flight.
  `BARESM_ASSERT(a_serial_shape, NumLanes == 1 && CtaSlots == 1 && LoadSlots == 0 && !HasFpu)
  // The register file is addressed {warp, register, lane}.
  `BARESM_ASSERT(a_serial_rf, (1 << $clog2(NumRegs)) == NumRegs && RfDepth == NumWarps * NumRegs * 32)

  localparam int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1;
  localparam int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1;
  localparam int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1;

  // ---- launch control (the wide SM's: the same sizing and refusals) ----------
  logic clear, start, running, busy, done, cfg_err, drain;
  logic fault, grid_done, any_cta, mem_idle;
  logic [31:0] l_entry, l_code_base, l_code_size, l_grid_x, l_grid_y, l_grid_z;
  logic [15:0] l_block_x, l_block_y, l_block_z;
  logic [7:0] l_regs, l_smid;
  logic [31:0] l_param_addr, l_param_size, l_shared, l_prot_base, l_prot_size;
  logic [63:0] l_watchdog;
  logic [32*NumWindows-1:0] l_win_base, l_win_size;
  logic [10:0] threads;
  logic [5:0] warps_per_cta;
  logic [NumWarps-1:0] warp_usable;
  logic [NumWarps*AddrW-1:0] rf_base;
  logic [CtaSlots-1:0] cta_usable;
  logic [31:0] sbase;

  baresm_sm_launch #(
    .NumLanes(1),
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RfDepth(RfDepth),
    .SharedBytes(SharedBytes),
    .CtaSlots(1),
    .NumWindows(NumWindows),
    .HeldRecord(1'b1)
  ) u_launch (
    .clk_i,
    .rst_ni,
    .launch_valid_i,
    .launch_ready_o,
    .launch_i,
    .fault_i        (fault),
    .new_fault_i    (1'b0),
    .disp_done_i    (grid_done),
    .any_cta_i      (any_cta),
    .lsu_idle_i     (mem_idle),
    .fetch_idle_i   (1'b1),
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
    .warp_usable_o  (warp_usable),
    .rf_base_o      (rf_base),
    .cta_usable_o   (cta_usable),
    .sbase_cta_i    (1'b0),
    .sbase_o        (sbase)
  );

  // ---- the sequencer --------------------------------------------------------------
  logic [NumWarps-1:0] used, exited, bar_wait, ready, wait_mem;
  logic issue, issue_fault, diverge, bar_release, cta_retire, ifill, smem_access, gmem_req;
  logic [WarpW-1:0] issue_warp;
  logic [31:0] issue_pc, issue_tmask, issue_exec, cta_x, cta_y, cta_z;
  logic rf_we, pw_valid;
  logic [AddrW-1:0] rf_waddr;
  logic [31:0] rf_wdata, pw_mask, pw_bits;
  logic [2:0] pw_pd;
  logic [63:0] cycles, clock;

  // The sequencer's memory port (rtl/prim/baresm_mem_types.svh); the SM's own
  // stays field by field (mem_req_*_o, mem_rsp_*_i): the verilated SM is a
  // top that the C++ harness drives port by port. One request is in flight:
  // the response's id is not looked at.
  typedef `BARESM_MEM_REQ_T(LsuIdWidth + 1, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;
  mem_req_t mem_req;
  mem_rsp_t mem_rsp;
  `BARESM_MEM_REQ_TO_PORTS(mem_req)
  assign mem_rsp.valid = mem_rsp_valid_i;
  assign mem_rsp.rdata = mem_rsp_rdata_i;
  assign mem_rsp.err = mem_rsp_err_i;

  baresm_ssm_seq #(
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RfDepth(RfDepth),
    .SharedBytes(SharedBytes),
    .StackDepth(StackDepth),
    .MemLineBytes(MemLineBytes),
    .LsuIdWidth(LsuIdWidth),
    .NumWindows(NumWindows),
    .HasFpu(HasFpu),
    .SmId(SmId)
  ) u_seq (
    .clk_i,
    .rst_ni,
    .clear_i        (clear),
    .start_i        (start),
    .entry_i        (l_entry),
    .code_base_i    (l_code_base),
    .code_size_i    (l_code_size),
    .grid_x_i       (l_grid_x),
    .grid_y_i       (l_grid_y),
    .grid_z_i       (l_grid_z),
    .block_x_i      (l_block_x),
    .block_y_i      (l_block_y),
    .block_z_i      (l_block_z),
    .regs_i         (l_regs),
    .smid_i         (l_smid),
    .param_addr_i   (l_param_addr),
    .param_size_i   (l_param_size),
    .shared_i       (l_shared),
    .watchdog_i     (l_watchdog),
    .win_base_i     (l_win_base),
    .win_size_i     (l_win_size),
    .prot_base_i    (l_prot_base),
    .prot_size_i    (l_prot_size),
    .threads_i      (threads),
    .warps_per_cta_i(warps_per_cta),
    .cycles_i       (cycles),
    .clock_i        (clock),
    .mem_req_o      (mem_req),
    .mem_req_ready_i,
    .mem_rsp_i      (mem_rsp),
    .mem_rsp_ready_o,
    .grid_done_o    (grid_done),
    .any_cta_o      (any_cta),
    .mem_idle_o     (mem_idle),
    .fault_o        (fault),
    .fault_kind_o,
    .fault_cta_x_o,
    .fault_cta_y_o,
    .fault_cta_z_o,
    .fault_warp_o,
    .fault_lane_o,
    .fault_pc_o,
    .fault_addr_o,
    .fault_waiting_o,
    .used_o         (used),
    .exited_o       (exited),
    .bar_wait_o     (bar_wait),
    .ready_o        (ready),
    .wait_mem_o     (wait_mem),
    .issue_o        (issue),
    .issue_fault_o  (issue_fault),
    .issue_warp_o   (issue_warp),
    .issue_pc_o     (issue_pc),
    .issue_tmask_o  (issue_tmask),
    .issue_exec_o   (issue_exec),
    .cta_x_o        (cta_x),
    .cta_y_o        (cta_y),
    .cta_z_o        (cta_z),
    .diverge_o      (diverge),
    .bar_release_o  (bar_release),
    .cta_retire_o   (cta_retire),
    .ifill_o        (ifill),
    .smem_access_o  (smem_access),
    .gmem_req_o     (gmem_req),
    .rf_we_o        (rf_we),
    .rf_waddr_o     (rf_waddr),
    .rf_wdata_o     (rf_wdata),
    .pw_valid_o     (pw_valid),
    .pw_pd_o        (pw_pd),
    .pw_mask_o      (pw_mask),
    .pw_bits_o      (pw_bits)
  );

  // ---- status and counters: the wide SM's states and counts, in a RAM ------------------
  baresm_ssm_status #(
    .NumWarps(NumWarps)
  ) u_status (
    .clk_i,
    .rst_ni,
    .clear_i        (clear),
    .busy_i         (busy),
    .running_i      (running),
    .used_i         (used),
    .live_i         (used & ~exited),
    .exited_i       (exited),
    .bar_wait_i     (bar_wait),
    .ready_i        (ready),
    .wait_mem_i     (wait_mem),
    .issue_i        (issue),
    .issue_warp_i   (issue_warp),
    .issue_exec_i   (issue_exec),
    .issue_diverge_i(diverge),
    .bar_release_i  (bar_release),
    .cta_retire_i   (cta_retire),
    .ifill_i        (ifill),
    .smem_pass_i    (smem_access),
    .gmem_req_i     (gmem_req),
    .warp_state_o,
    .cycles_o       (cycles),
    .clock_o        (clock),
    .rpt_req_i,
    .rpt_rsp_o
  );
  assign busy_o = busy;
  assign done_o = done;
  assign cfg_error_o = cfg_err;


  // ID/CONFIG words: each field where contract/sm_config.def puts it.
  assign config_o = baresm_smcfg_pkg::smcfg_arch_id(baresm_isa_pkg::ARCH_ID)
                  | baresm_smcfg_pkg::smcfg_num_lanes(32'd1)
                  | baresm_smcfg_pkg::smcfg_num_warps(32'(NumWarps))
                  | baresm_smcfg_pkg::smcfg_num_regs(32'(NumRegs))
                  | baresm_smcfg_pkg::smcfg_stack_depth(32'(StackDepth))
                  | baresm_smcfg_pkg::smcfg_rf_depth(32'(RfDepth))
                  | baresm_smcfg_pkg::smcfg_shared_bytes(32'(SharedBytes))
                  | baresm_smcfg_pkg::smcfg_num_banks(32'(NumBanks))
                  | baresm_smcfg_pkg::smcfg_cta_slots(32'd1)
                  | baresm_smcfg_pkg::smcfg_fpu_latency(32'(FpuLatency))
                  | baresm_smcfg_pkg::smcfg_ic_lines(32'(IcLines))
                  | baresm_smcfg_pkg::smcfg_line_bytes(32'(MemLineBytes))
                  | baresm_smcfg_pkg::smcfg_id_bits(32'(LsuIdWidth + 1))
                  | baresm_smcfg_pkg::smcfg_num_windows(32'(NumWindows))
                  | baresm_smcfg_pkg::smcfg_smid(32'(SmId))
                  | baresm_smcfg_pkg::smcfg_version(32'd1)
                  | baresm_smcfg_pkg::smcfg_gather_depth(32'(GatherDepth))
                  | baresm_smcfg_pkg::smcfg_load_slots(32'd0)
                  | baresm_smcfg_pkg::smcfg_rf_banks(32'(RfBanks))
                  | baresm_smcfg_pkg::smcfg_has_fpu(32'(HasFpu))
                  | baresm_smcfg_pkg::smcfg_serial(32'd1);

  // What the serial SM does not use of the launch's outputs and inputs.
  logic unused;
  assign unused = ^{sched_gto_i, mem_rsp_id_i, drain, warp_usable, cta_usable, sbase, StarveLimit, rf_base};

`ifndef SYNTHESIS
  // ---- trace: issues, register-file and predicate writes (port 0 only) ----------
  assign trace_issue_valid_o = issue || issue_fault;
  assign trace_issue_fault_o = issue_fault;
  assign trace_issue_slot_o = 8'(issue_warp);
  assign trace_issue_pc_o = issue_pc;
  assign trace_issue_tmask_o = issue_tmask;
  assign trace_issue_exec_o = issue_exec;
  assign trace_issue_cta_x_o = cta_x;
  assign trace_issue_cta_y_o = cta_y;
  assign trace_issue_cta_z_o = cta_z;
  assign trace_issue_wic_o = 5'(issue_warp);
  assign trace_rf_we_o = {2'b00, rf_we};
  // The sequencer's address is {warp, register, lane}; the trace gives the
  // wide SM's (the launch's per-warp base + register * 32 + lane), which the
  // lockstep checker decodes.
  logic [AddrW-1:0] trace_rf_entry;
  assign trace_rf_entry = rf_base[WarpW'(rf_waddr >> (RegW + 5)) * AddrW +: AddrW] + AddrW'(rf_waddr[RegW+4:0]);
  assign trace_rf_addr_o = {32'd0, 16'(trace_rf_entry)};
  assign trace_rf_mask_o = {2'b00, rf_we};
  assign trace_rf_data_o = {64'd0, rf_wdata};
  assign trace_pw_valid_o = {1'b0, pw_valid};
  assign trace_pw_slot_o = {8'd0, 8'(issue_warp)};
  assign trace_pw_pd_o = {3'd0, pw_pd};
  assign trace_pw_mask_o = {32'd0, pw_mask};
  assign trace_pw_bits_o = {32'd0, pw_bits};
`endif

endmodule

`default_nettype wire
