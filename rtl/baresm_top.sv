// baresm_top: the device. One command processor (rtl/cp/baresm_cp.sv), one
// SM (rtl/sm/baresm_sm.sv), and an arbiter merging the command processor's
// memory master and the SM's global-memory port onto one external memory
// port (the SM's protocol, docs/lsu.md "Memory port", with one more id bit).
//
//   host --MMIO--> baresm_cp --launch--> baresm_sm
//                      |                     |
//                      +--> baresm_cp_memarb <+--> mem_* (device memory)
//
// docs/command-processor.md describes the blocks and their timing.
//
// Resets: rst_ni (the pin) resets everything, and the memory side must drop
// whatever it had in flight at the same time (the testbench's memory does);
// a soft reset (CONTROL.SOFT_RESET) holds the SM in reset while the arbiter
// drains and drops every response of the aborted launch.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_mem_glue.svh"
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"
`default_nettype none

module baresm_top #(
  // SM shape (baresm_sm parameters).
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,
  parameter int RegfileRegs = 16384,   // 32-bit registers in the register file, all lanes
  parameter int SharedBytes = 32768,
  parameter int NumBanks = 32,
  parameter int CtaSlots = 8,
  parameter int StackDepth = 16,
  parameter int MemLineBytes = 128,
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b1,         // 0: an SM without the FPU (CONFIG6.HAS_FPU reads it)
  parameter bit SerialSm = 1'b0,       // 1: the thread-serial SM (rtl/ssm) instead of baresm_sm
  parameter int IcLines = 16,
  parameter int LsuIdWidth = 4,
  parameter int NumWindows = 4,        // windows a launch may use (CONFIG1.MAX_WINDOWS)
  parameter int GatherDepth = 5,
  parameter int LoadSlots = 8,
  // Command processor and device.
  parameter int NumQueues = 4,
  parameter int MemBytes = 4194304,
  parameter int ClockKhz = 100000,
  // Derived: the memory port's id width (SM ids plus the source bit).
  parameter int MemIdWidth = LsuIdWidth + 2
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          sched_gto_i,     // SM scheduler: 0 loose round-robin, 1 GTO

  // ---- MMIO (host register access) ----------------------------------------------
  input  logic                          mmio_req_valid_i,
  output logic                          mmio_req_ready_o,
  input  logic [9:0]                    mmio_req_addr_i,
  input  logic                          mmio_req_write_i,
  input  logic [31:0]                   mmio_req_wdata_i,
  output logic                          mmio_rsp_valid_o,
  output logic [31:0]                   mmio_rsp_rdata_o,
  output logic                          irq_o,

  // ---- device memory --------------------------------------------------------------
  output logic                          mem_req_valid_o,
  input  logic                          mem_req_ready_i,
  output logic [MemIdWidth-1:0]         mem_req_id_o,
  output logic [31:0]                   mem_req_addr_o,
  output logic [1:0]                    mem_req_op_o,
  output logic [4:0]                    mem_req_amo_o,
  output logic [MemLineBytes*8-1:0]     mem_req_wdata_o,
  output logic [MemLineBytes-1:0]       mem_req_wstrb_o,
  input  logic                          mem_rsp_valid_i,
  output logic                          mem_rsp_ready_o,
  input  logic [MemIdWidth-1:0]         mem_rsp_id_i,
  input  logic [MemLineBytes*8-1:0]     mem_rsp_rdata_i,
  input  logic                          mem_rsp_err_i,   // the request failed (bus/ECC error): no data, no effect

  // ---- visible status -------------------------------------------------------------
  output logic [31:0]                   status_o,        // the STATUS register
  output logic [3:0]                    cp_state_o,      // command-processor engine state
  output logic [2:0]                    cp_queue_o,      // queue pair of the launch in flight
  output logic                          sm_busy_o,
  output logic [NumWarps*3-1:0]         warp_state_o,    // baresm_state_pkg::WS_* per warp slot
  output logic [MemIdWidth:0]           mem_outstanding_o
);

  localparam int SmIdWidth = LsuIdWidth + 1;

  // ---- command processor ------------------------------------------------------------
  // The memory ports inside the device (rtl/prim/baresm_mem_types.svh): the
  // command processor's single-master port and the SM's line port meet in
  // u_memarb, which drives the device's line port (one more id bit). The
  // device's own port and the SM's stay field by field: the verilated top
  // (sim/systemc) and the verilated SM (sim/harness) are driven port by port.
  typedef `BARESM_MEM1_REQ_T(MemLineBytes) cp_req_t;
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) cp_rsp_t;
  typedef `BARESM_MEM_REQ_T(SmIdWidth, MemLineBytes) sm_req_t;
  typedef `BARESM_MEM_RSP_T(SmIdWidth, MemLineBytes) sm_rsp_t;
  typedef `BARESM_MEM_REQ_T(MemIdWidth, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM_RSP_T(MemIdWidth, MemLineBytes) mem_rsp_t;

  cp_req_t cp_req;
  cp_rsp_t cp_rsp;
  logic cp_req_ready, cp_idle, sm_idle;

  logic sm_hold, launch_valid, launch_ready;
  baresm_launch_t launch;
  logic sm_done, sm_cfg_error;
  logic [3:0] sm_fault_kind;
  logic [31:0] sm_fault_cta_x, sm_fault_cta_y, sm_fault_cta_z, sm_fault_pc, sm_fault_addr;
  logic [31:0] sm_fault_waiting;
  logic [7:0] sm_fault_warp;
  logic [4:0] sm_fault_lane;
  // The SM's fault report (rtl/prim/baresm_report_types.svh): the SM's
  // fault_*_o, field by field there, packed for the command processor.
  baresm_sm_fault_t sm_fault;
  assign sm_fault.kind = sm_fault_kind;
  assign sm_fault.cta_x = sm_fault_cta_x;
  assign sm_fault.cta_y = sm_fault_cta_y;
  assign sm_fault.cta_z = sm_fault_cta_z;
  assign sm_fault.warp = sm_fault_warp;
  assign sm_fault.lane = sm_fault_lane;
  assign sm_fault.pc = sm_fault_pc;
  assign sm_fault.addr = sm_fault_addr;
  assign sm_fault.waiting = sm_fault_waiting;
  // The SM's report of the launch's counters (rtl/prim/baresm_report_types.svh):
  // the command processor reads it a word at a time into the completion entry.
  baresm_rpt_req_t sm_rpt_req;
  baresm_rpt_rsp_t sm_rpt_rsp;
  logic [NumWarps*3-1:0] warp_state;

  baresm_cp #(
    .NumQueues(NumQueues),
    .MemLineBytes(MemLineBytes),
    .MemBytes(MemBytes),
    .ClockKhz(ClockKhz),
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots),
    .NumBanks(NumBanks),
    .MaxRegs(NumRegs),
    .StackDepth(StackDepth),
    .SharedBytes(SharedBytes),
    .RegfileRegs(RegfileRegs),
    .HasFpu(HasFpu),
    .NumWindows(NumWindows)
  ) u_cp (
    .clk_i,
    .rst_ni,
    .mmio_req_valid_i,
    .mmio_req_ready_o,
    .mmio_req_addr_i,
    .mmio_req_write_i,
    .mmio_req_wdata_i,
    .mmio_rsp_valid_o,
    .mmio_rsp_rdata_o,
    .irq_o,
    .mem_req_o         (cp_req),
    .mem_req_ready_i   (cp_req_ready),
    .mem_rsp_i         (cp_rsp),
    .mem_cp_idle_i     (cp_idle),
    .mem_sm_idle_i     (sm_idle),
    .sm_hold_o         (sm_hold),
    .launch_valid_o    (launch_valid),
    .launch_ready_i    (launch_ready),
    .launch_o          (launch),
    .sm_done_i         (sm_done),
    .sm_cfg_error_i    (sm_cfg_error),
    .sm_fault_i        (sm_fault),
    .rpt_req_o         (sm_rpt_req),
    .rpt_rsp_i         (sm_rpt_rsp),
    .state_o           (cp_state_o),
    .queue_o           (cp_queue_o),
    .status_o          (status_o)
  );

  // ---- SM -------------------------------------------------------------------------------
  // Held in reset by the command processor during a soft reset (and while an
  // aborted launch drains): an asynchronous reset from a flop, released at a
  // clock edge.
  logic sm_rst_n;
  assign sm_rst_n = rst_ni && !sm_hold;

  // The SM's port, field by field, and as the arbiter's line port.
  logic sm_req_valid, sm_req_ready, sm_rsp_valid, sm_rsp_ready, sm_rsp_err;
  logic [SmIdWidth-1:0] sm_req_id, sm_rsp_id;
  logic [31:0] sm_req_addr;
  logic [1:0] sm_req_op;
  logic [4:0] sm_req_amo;
  logic [MemLineBytes*8-1:0] sm_req_wdata, sm_rsp_rdata;
  logic [MemLineBytes-1:0] sm_req_wstrb;
  sm_req_t sm_req;
  sm_rsp_t sm_rsp;
  `BARESM_MEM_REQ_FROM_NETS(sm_req, sm_req_)
  `BARESM_MEM_RSP_TO_NETS(sm_rsp, sm_rsp_)
  logic [8*32-1:0] sm_config;

`ifndef SYNTHESIS
  // The SM's trace port (simulation only), kept for lockstep checking of the
  // whole device; nothing in the top reads it.
  logic trc_issue_valid, trc_issue_fault;
  logic [7:0] trc_issue_slot;
  logic [31:0] trc_issue_pc, trc_issue_tmask, trc_issue_exec;
  logic [31:0] trc_issue_cta_x, trc_issue_cta_y, trc_issue_cta_z;
  logic [4:0] trc_issue_wic;
  logic [2:0] trc_rf_we;
  logic [1:0] trc_pw_valid;
  logic [47:0] trc_rf_addr;
  logic [3*NumLanes-1:0] trc_rf_mask;
  logic [3*NumLanes*32-1:0] trc_rf_data;
  logic [15:0] trc_pw_slot;
  logic [5:0] trc_pw_pd;
  logic [63:0] trc_pw_mask, trc_pw_bits;
  logic unused_trace;
  assign unused_trace = ^{trc_issue_valid, trc_issue_fault, trc_issue_slot, trc_issue_pc,
                          trc_issue_tmask, trc_issue_exec, trc_issue_cta_x, trc_issue_cta_y,
                          trc_issue_cta_z, trc_issue_wic, trc_rf_we, trc_rf_addr, trc_rf_mask,
                          trc_rf_data, trc_pw_valid, trc_pw_slot, trc_pw_pd, trc_pw_mask,
                          trc_pw_bits};
`endif

  // The SM: the wide one (rtl/sm) or, for the small boards, the thread-serial
  // one (rtl/ssm, SerialSm): the same ports, ISA and contract.
`define BARESM_TOP_SM_PORTS \
    .clk_i, \
    .rst_ni           (sm_rst_n), \
    .launch_valid_i   (launch_valid), \
    .launch_ready_o   (launch_ready), \
    .launch_i         (launch), \
    .sched_gto_i, \
    .busy_o           (sm_busy_o), \
    .done_o           (sm_done), \
    .cfg_error_o      (sm_cfg_error), \
    .fault_kind_o     (sm_fault_kind), \
    .fault_cta_x_o    (sm_fault_cta_x), \
    .fault_cta_y_o    (sm_fault_cta_y), \
    .fault_cta_z_o    (sm_fault_cta_z), \
    .fault_warp_o     (sm_fault_warp), \
    .fault_lane_o     (sm_fault_lane), \
    .fault_pc_o       (sm_fault_pc), \
    .fault_addr_o     (sm_fault_addr), \
    .fault_waiting_o  (sm_fault_waiting), \
    .mem_req_valid_o  (sm_req_valid), \
    .mem_req_ready_i  (sm_req_ready), \
    .mem_req_id_o     (sm_req_id), \
    .mem_req_addr_o   (sm_req_addr), \
    .mem_req_op_o     (sm_req_op), \
    .mem_req_amo_o    (sm_req_amo), \
    .mem_req_wdata_o  (sm_req_wdata), \
    .mem_req_wstrb_o  (sm_req_wstrb), \
    .mem_rsp_valid_i  (sm_rsp_valid), \
    .mem_rsp_ready_o  (sm_rsp_ready), \
    .mem_rsp_id_i     (sm_rsp_id), \
    .mem_rsp_rdata_i  (sm_rsp_rdata), \
    .mem_rsp_err_i    (sm_rsp_err), \
    .warp_state_o     (warp_state), \
    .rpt_req_i        (sm_rpt_req), \
    .rpt_rsp_o        (sm_rpt_rsp), \
    .config_o         (sm_config)
`ifndef SYNTHESIS
`define BARESM_TOP_SM_TRACE \
    , \
    .trace_issue_valid_o(trc_issue_valid), \
    .trace_issue_fault_o(trc_issue_fault), \
    .trace_issue_slot_o (trc_issue_slot), \
    .trace_issue_pc_o   (trc_issue_pc), \
    .trace_issue_tmask_o(trc_issue_tmask), \
    .trace_issue_exec_o (trc_issue_exec), \
    .trace_issue_cta_x_o(trc_issue_cta_x), \
    .trace_issue_cta_y_o(trc_issue_cta_y), \
    .trace_issue_cta_z_o(trc_issue_cta_z), \
    .trace_issue_wic_o  (trc_issue_wic), \
    .trace_rf_we_o      (trc_rf_we), \
    .trace_rf_addr_o    (trc_rf_addr), \
    .trace_rf_mask_o    (trc_rf_mask), \
    .trace_rf_data_o    (trc_rf_data), \
    .trace_pw_valid_o   (trc_pw_valid), \
    .trace_pw_slot_o    (trc_pw_slot), \
    .trace_pw_pd_o      (trc_pw_pd), \
    .trace_pw_mask_o    (trc_pw_mask), \
    .trace_pw_bits_o    (trc_pw_bits)
`else
`define BARESM_TOP_SM_TRACE
`endif
`define BARESM_TOP_SM_PARAMS \
    .NumLanes(NumLanes), \
    .NumWarps(NumWarps), \
    .NumRegs(NumRegs), \
    .RfDepth(RegfileRegs / NumLanes), \
    .SharedBytes(SharedBytes), \
    .NumBanks(NumBanks), \
    .CtaSlots(CtaSlots), \
    .StackDepth(StackDepth), \
    .MemLineBytes(MemLineBytes), \
    .FpuLatency(FpuLatency), \
    .HasFpu(HasFpu), \
    .IcLines(IcLines), \
    .LsuIdWidth(LsuIdWidth), \
    .NumWindows(NumWindows), \
    .GatherDepth(GatherDepth), \
    .LoadSlots(LoadSlots)
  if (SerialSm) begin : g_serial
    baresm_ssm #(
`BARESM_TOP_SM_PARAMS
    ) u_sm (
`BARESM_TOP_SM_PORTS
`BARESM_TOP_SM_TRACE
    );
  end else begin : g_wide
    baresm_sm #(
`BARESM_TOP_SM_PARAMS
    ) u_sm (
`BARESM_TOP_SM_PORTS
`BARESM_TOP_SM_TRACE
    );
  end
`undef BARESM_TOP_SM_PARAMS
`undef BARESM_TOP_SM_PORTS
`undef BARESM_TOP_SM_TRACE



  // ---- memory arbiter -----------------------------------------------------------------
  logic [SmIdWidth+1:0] outstanding;
  mem_req_t mem_req;
  mem_rsp_t mem_rsp;
  `BARESM_MEM_REQ_TO_PORTS(mem_req)
  `BARESM_MEM_RSP_FROM_PORTS(mem_rsp)
  baresm_cp_memarb #(
    .LineBytes(MemLineBytes),
    .SmIdWidth(SmIdWidth)
  ) u_memarb (
    .clk_i,
    .rst_ni,
    .cp_req_i       (cp_req),
    .cp_req_ready_o (cp_req_ready),
    .cp_rsp_o       (cp_rsp),
    .sm_hold_i      (sm_hold),
    .sm_req_i       (sm_req),
    .sm_req_ready_o (sm_req_ready),
    .sm_rsp_o       (sm_rsp),
    .sm_rsp_ready_i (sm_rsp_ready),
    .mem_req_o      (mem_req),
    .mem_req_ready_i,
    .mem_rsp_i      (mem_rsp),
    .mem_rsp_ready_o,
    .cp_idle_o      (cp_idle),
    .sm_idle_o      (sm_idle),
    .outstanding_o  (outstanding)
  );
  assign mem_outstanding_o = outstanding;

  assign warp_state_o = warp_state;

  // The SM's ID/CONFIG words duplicate what the command processor reports
  // from the same parameters.
  logic unused;
  assign unused = ^sm_config;

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The SM's done is one pulse per launch, and comes only while the command
  // processor waits for it (E_RUN): a launch it did not start never ends.
  `BARESM_ASSERT(a_sm_done_pulse_run, !sm_done || cp_state_o == baresm_state_pkg::CP_RUN)
  `BARESM_ASSERT_PULSE(a_sm_done_pulse, sm_done)

endmodule

`default_nettype wire
