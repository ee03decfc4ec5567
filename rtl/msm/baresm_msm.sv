// baresm_msm: the microprogrammed SM (docs/microarchitecture.md, "The choice
// revisited again"): baresm_sm's ports, ISA, contract and trace, its control
// a program. The control core (rtl/mcu) runs the SM firmware (fw/sm) from
// its RAM and drives, through I/O registers (baresm_msm_io), the launch
// handshake, the memory port, the lane engine (baresm_msm_lane: the
// register file and the thread loop of ALU instructions and S2R;
// baresm_msm_lsu: the thread loop of loads, stores and atomics), shared
// memory and the counters (baresm_ssm_status, the serial SM's).
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_mem_glue.svh"
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"
`include "baresm_mcu_types.svh"
`include "baresm_msm_types.svh"

module baresm_msm #(
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
  parameter bit HasFpu = 1'b1,     // 1: the firmware computes the FPU instructions (fw/sm/fwsm_fpu.cpp; no FPU is built)
  parameter int IcLines = 1,      // instruction-cache lines of MemLineBytes
  parameter int LsuIdWidth = 2,    // LSU transaction ids; the port has one more bit
  parameter int NumWindows = 4,    // address windows a launch may use (1..MAX_WINDOWS)
  parameter int GatherDepth = 0,   // gather-buffer entries: memory/SHFL instructions from issue until the LSU has read their operands
  parameter int LoadSlots = 0,     // global loads waiting for memory outside the LSU's stage A (0: one at a time)
  parameter int StarveLimit = 32,
  parameter int SmId = 0,
  parameter FwImage = "",          // the firmware ($readmemh words: fw/sm/sm.hex, fw/dev/dev.hex)
  parameter int FwWords = 6144,    // its RAM: code, data and stack (fw/sm/link.ld, fw/dev/link.ld)
  // 1: that RAM is the UP5K's SPRAM, empty at configuration: fw_load_i
  // fills it while holding the core in reset (FwImage unused)
  parameter bit FwSpram = 1'b0,
  // 1: the whole device's control (fw/dev: the command processor, the host
  // link's frames and the SM as one program, baresm_mdev): the UART's bytes
  // (uart_*), the link's LEDs and status_o instead of the launch port, which
  // is then unused.
  parameter bit Device = 1'b0,
  parameter int MemBytes = 131072, // Device: CONFIG4
  parameter int ClockKhz = 12000,  // Device: CONFIG5
  parameter int TimeoutCycles = 120000  // Device: the link's partial-frame timeout (UART_RX bit 9)
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

  // ---- the host link (Device): the UART's bytes, framed by the firmware ------------------
  input  logic                          uart_rx_valid_i,
  input  logic [7:0]                    uart_rx_data_i,
  output logic                          uart_tx_valid_o,
  input  logic                          uart_tx_ready_i,
  output logic [7:0]                    uart_tx_data_o,
  output logic [1:0]                    link_led_o,     // [0] frames executed, [1] a frame answered with ERROR
  output logic [31:0]                   status_o,       // STATUS as the firmware last wrote it

  // ---- status ------------------------------------------------------------------
  output logic [NumWarps*3-1:0]         warp_state_o,   // baresm_state_pkg::WS_*
  input  baresm_rpt_req_t               rpt_req_i,      // the launch's counters, a word a cycle:
  output baresm_rpt_rsp_t               rpt_rsp_o,      // baresm_ssm_status, contract/sm_report.def
  output logic [8*32-1:0]               config_o,       // ID/CONFIG words, see docs

  // ---- the firmware's loading (FwSpram; the SM alone's tests leave it 0) -------------
  input  baresm_fw_load_t               fw_load_i
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

  // The microprogrammed SM has the serial SM's shape, and its firmware
  // (fw/sm/fwsm.c) is written for the board's parameters.
  `BARESM_ASSERT(a_msm_shape, NumLanes == 1 && CtaSlots == 1 && LoadSlots == 0 && HasFpu && NumWarps == 4 &&
                 NumRegs == 16 && RfDepth == NumWarps * NumRegs * 32 && SharedBytes == 2048 &&
                 StackDepth == 4 && MemLineBytes == 16 && NumWindows == 4)

  localparam int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1;
  localparam int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1;
  localparam int RfAddrW = WarpW + RegW + 5;

  typedef `BARESM_MEM_REQ_T(LsuIdWidth + 1, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;

  // ---- the control core and its bus: RAM below 64 KB, I/O above ----------------
  baresm_mcu_req_t core_req, ram_req, io_req;
  baresm_mcu_ls_t core_ls;
  baresm_mcu_rsp_t core_rsp, ram_rsp, io_rsp;
  baresm_mcu_status_t core_status;
  baresm_mcu_trace_t core_trace;
  // The core runs once its firmware is in place.
  logic core_rst_n;
  assign core_rst_n = rst_ni && !(FwSpram && fw_load_i.hold);
  baresm_mcu_core #(.ResetPc(0), .PcW(16)) u_core (
    .clk_i,
    .rst_ni     (core_rst_n),
    .req_o      (core_req),
    .ls_o       (core_ls),
    .req_ready_i(1'b1),
    .rsp_i      (core_rsp),
    .status_o   (core_status),
    .trace_o    (core_trace)
  );
  // I/O: the launch port's block at 0x200-0x2FF (the SM alone) or the host
  // side's at 0x300-0x3FF (Device), the SM's block everywhere else. Only
  // loads and stores reach I/O (the pc keeps 16 bits), so the I/O blocks
  // decode the load or store's own address (core_ls), not the bus's, which
  // the fetch's branch decision drives.
  baresm_mcu_req_t lio_req;
  baresm_mcu_rsp_t lio_rsp;
  logic to_io, to_lio;
  assign to_io = core_ls.valid && core_ls.addr[14];   // byte address bit 16
  assign to_lio = core_ls.addr[13:6] == (Device ? 8'h03 : 8'h02);
  always_comb begin
    ram_req = core_req;
    ram_req.valid = core_req.valid && !to_io;
    io_req = core_req;
    io_req.addr = core_ls.addr;
    io_req.valid = to_io && !to_lio;
    lio_req = core_req;
    lio_req.addr = core_ls.addr;
    lio_req.valid = to_io && to_lio;
  end
  assign core_rsp = ram_rsp.valid ? ram_rsp : io_rsp.valid ? io_rsp : lio_rsp;

  baresm_msm_fwram #(.Depth(FwWords), .InitFile(FwImage), .Spram(FwSpram)) u_fwram (
    .clk_i, .rst_ni, .req_i(ram_req), .load_i(fw_load_i), .rsp_o(ram_rsp));

  // ---- the I/O registers ------------------------------------------------------------
  logic clear, running, busy, done, cfg_err;
  logic [63:0] cycles, clock;   // the launch's cycles (the SM alone's watchdog); S2R's clock
  mem_req_t mem_req;
  mem_rsp_t mem_rsp;
  `BARESM_MEM_REQ_TO_PORTS(mem_req)
  assign mem_rsp.valid = mem_rsp_valid_i;
  assign mem_rsp.rdata = mem_rsp_rdata_i;
  assign mem_rsp.err = mem_rsp_err_i;
  assign mem_rsp_ready_o = 1'b1;

  localparam int SmemW = $clog2(SharedBytes / 4);
  msm_lsu_req_t lsu_req;
  logic lane_start, lsu_start, alu_busy, lsu_busy;
  msm_lane_op_t lane_op;
  logic [31:0] lane_bits;
  logic lsu_fault, lsu_mem_wait;
  logic [3:0] lsu_fault_kind;
  logic [4:0] lsu_fault_lane;
  logic [31:0] lsu_fault_addr;
  // The register file's single-register ports and the memory port: the
  // firmware's (io_*) between loops, the memory loop's (lsu_*) while it runs.
  logic io_rf_re, io_rf_we, io_rf_traced, lsu_rf_re, lsu_rf_we, lsu_rf_traced, rf_re, rf_we, rf_traced;
  logic [RfAddrW-1:0] io_rf_raddr, io_rf_waddr, lsu_rf_raddr, lsu_rf_waddr, rf_raddr, rf_waddr;
  logic [31:0] io_rf_wdata, lsu_rf_wdata, rf_rdata, rf_wdata;
  logic clr_we, lsu_sm_re, lsu_sm_we;
  logic [SmemW-1:0] clr_waddr, lsu_sm_raddr, lsu_sm_waddr;
  logic [3:0] lsu_sm_wmask;
  logic [31:0] lsu_sm_wdata, sm_rdata;
  logic [4:0] amo_op;
  logic [31:0] amo_old, amo_b, amo_c, amo_new;
  logic lsu_smem_access, lsu_gmem_req;
  logic [NumWarps-1:0] used, exited, bar_wait, ready, wait_mem;
  logic issue, issue_fault, diverge, bar_release, cta_retire, ifill, pw_valid;
  logic [WarpW-1:0] issue_warp, pw_warp;
  logic [31:0] issue_pc, issue_tmask, issue_exec, cta_x, cta_y, cta_z, pw_mask, pw_bits;
  logic [2:0] pw_pd;

  if (Device) begin : g_device
    baresm_mdev_io #(.MemBytes(MemBytes), .ClockKhz(ClockKhz), .TimeoutCycles(TimeoutCycles)) u_host_io (
      .clk_i, .rst_ni,
      .req_i(lio_req), .rsp_o(lio_rsp),
      .rx_valid_i(uart_rx_valid_i), .rx_data_i(uart_rx_data_i),
      .tx_valid_o(uart_tx_valid_o), .tx_ready_i(uart_tx_ready_i), .tx_data_o(uart_tx_data_o),
      .link_led_o, .status_o,
      .busy_o(busy)
    );
    assign running = busy;
    assign clear = 1'b0;
    assign done = 1'b0;
    assign cfg_err = 1'b0;
    assign launch_ready_o = 1'b0;
    assign {fault_kind_o, fault_cta_x_o, fault_cta_y_o, fault_cta_z_o, fault_warp_o, fault_lane_o, fault_pc_o,
            fault_addr_o, fault_waiting_o} = '0;
  end else begin : g_sm
    baresm_msm_launch_io u_launch_io (
      .clk_i, .rst_ni,
      .req_i(lio_req), .rsp_o(lio_rsp),
      .launch_valid_i, .launch_ready_o, .launch_i,
      .busy_o(busy), .done_o(done), .cfg_error_o(cfg_err), .running_o(running), .clear_o(clear),
      .fault_kind_o, .fault_cta_x_o, .fault_cta_y_o, .fault_cta_z_o, .fault_warp_o, .fault_lane_o,
      .fault_pc_o, .fault_addr_o, .fault_waiting_o,
      .cycles_i(cycles)
    );
    assign uart_tx_valid_o = 1'b0;
    assign uart_tx_data_o = '0;
    assign link_led_o = '0;
    assign status_o = '0;
  end

  msm_range_wr_t range_wr;
  msm_launch_t lp;
  baresm_msm_io #(
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .SharedBytes(SharedBytes),
    .MemLineBytes(MemLineBytes),
    .LsuIdWidth(LsuIdWidth)
  ) u_io (
    .clk_i, .rst_ni,
    .req_i(io_req), .rsp_o(io_rsp),
    .launch_o(lp), .range_wr_o(range_wr), .clock_o(clock),
    .mem_req_o(mem_req), .lsu_req_i(lsu_req), .mem_req_ready_i, .mem_rsp_i(mem_rsp),
    .lane_start_o(lane_start), .lsu_start_o(lsu_start), .lane_op_o(lane_op), .lane_busy_i(alu_busy || lsu_busy),
    .lane_bits_i(lane_bits),
    .lsu_fault_i(lsu_fault), .lsu_fault_kind_i(lsu_fault_kind), .lsu_fault_lane_i(lsu_fault_lane),
    .lsu_fault_addr_i(lsu_fault_addr), .lsu_mem_wait_i(lsu_mem_wait),
    .sm_we_o(clr_we), .sm_waddr_o(clr_waddr),
    .rf_re_o(io_rf_re), .rf_raddr_o(io_rf_raddr), .rf_rdata_i(rf_rdata), .rf_we_o(io_rf_we),
    .rf_waddr_o(io_rf_waddr), .rf_wdata_o(io_rf_wdata), .rf_traced_o(io_rf_traced),
    .used_o(used), .exited_o(exited), .bar_wait_o(bar_wait), .ready_o(ready), .wait_mem_o(wait_mem),
    .issue_o(issue), .issue_fault_o(issue_fault), .issue_warp_o(issue_warp), .issue_pc_o(issue_pc),
    .issue_tmask_o(issue_tmask), .issue_exec_o(issue_exec), .diverge_o(diverge),
    .cta_x_o(cta_x), .cta_y_o(cta_y), .cta_z_o(cta_z),
    .bar_release_o(bar_release), .cta_retire_o(cta_retire), .ifill_o(ifill),
    .pw_valid_o(pw_valid), .pw_warp_o(pw_warp), .pw_pd_o(pw_pd), .pw_mask_o(pw_mask), .pw_bits_o(pw_bits)
  );

  // ---- the lane engine and the register file --------------------------------------------
  logic lane_trace_we;
  logic [RfAddrW-1:0] lane_trace_addr;
  logic [31:0] lane_trace_data;
  baresm_msm_lane #(.NumWarps(NumWarps), .NumRegs(NumRegs)) u_lane (
    .clk_i, .rst_ni,
    .start_i(lane_start), .op_i(lane_op), .busy_o(alu_busy), .bits_o(lane_bits),
    .rd_re_i(rf_re), .rd_addr_i(rf_raddr), .rd_data_o(rf_rdata),
    .wr_we_i(rf_we), .wr_addr_i(rf_waddr), .wr_data_i(rf_wdata),
    .amo_op_i(amo_op), .amo_old_i(amo_old), .amo_b_i(amo_b), .amo_c_i(amo_c), .amo_new_o(amo_new),
    .trace_we_o(lane_trace_we), .trace_addr_o(lane_trace_addr), .trace_data_o(lane_trace_data),
    .block_xy_i(lp.block_xy),
    .clock_i(clock)
  );

  // ---- the memory loop, shared memory, and who drives the shared ports ---------------------
  baresm_msm_lsu #(
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .SharedBytes(SharedBytes),
    .MemLineBytes(MemLineBytes),
    .NumWindows(NumWindows)
  ) u_lsu (
    .clk_i, .rst_ni,
    .start_i(lsu_start), .op_i(lane_op), .busy_o(lsu_busy), .fault_o(lsu_fault), .fault_kind_o(lsu_fault_kind),
    .fault_lane_o(lsu_fault_lane), .fault_addr_o(lsu_fault_addr),
    .param_addr_i(lp.param_addr), .range_wr_i(range_wr),
    .rf_re_o(lsu_rf_re), .rf_raddr_o(lsu_rf_raddr), .rf_rdata_i(rf_rdata), .rf_we_o(lsu_rf_we),
    .rf_waddr_o(lsu_rf_waddr), .rf_wdata_o(lsu_rf_wdata), .rf_traced_o(lsu_rf_traced),
    .sm_re_o(lsu_sm_re), .sm_raddr_o(lsu_sm_raddr), .sm_rdata_i(sm_rdata), .sm_we_o(lsu_sm_we),
    .sm_waddr_o(lsu_sm_waddr), .sm_wmask_o(lsu_sm_wmask), .sm_wdata_o(lsu_sm_wdata),
    .amo_op_o(amo_op), .amo_old_o(amo_old), .amo_b_o(amo_b), .amo_c_o(amo_c), .amo_new_i(amo_new),
    .lsu_req_o(lsu_req), .mem_req_ready_i, .mem_rsp_i(mem_rsp),
    .smem_access_o(lsu_smem_access), .gmem_req_o(lsu_gmem_req), .mem_wait_o(lsu_mem_wait)
  );

  always_comb begin
    if (lsu_busy) begin
      rf_re = lsu_rf_re;
      rf_raddr = lsu_rf_raddr;
      rf_we = lsu_rf_we;
      rf_waddr = lsu_rf_waddr;
      rf_wdata = lsu_rf_wdata;
      rf_traced = lsu_rf_traced;
    end else begin
      rf_re = io_rf_re;
      rf_raddr = io_rf_raddr;
      rf_we = io_rf_we;
      rf_waddr = io_rf_waddr;
      rf_wdata = io_rf_wdata;
      rf_traced = io_rf_traced;
    end
  end
  // Shared memory: the memory loop's, or cleared by the I/O block at a CTA's
  // start (never both: the firmware waits for each).
  baresm_ram_1r1w #(.Depth(SharedBytes / 4), .Width(32), .MaskW(4)) u_smem (
    .clk_i,
    .re_i   (lsu_sm_re),
    .raddr_i(lsu_sm_raddr),
    .rdata_o(sm_rdata),
    .we_i   (lsu_busy ? lsu_sm_we : clr_we),
    .waddr_i(lsu_busy ? lsu_sm_waddr : clr_waddr),
    .wmask_i(lsu_busy ? lsu_sm_wmask : 4'hF),
    .wdata_i(lsu_busy ? lsu_sm_wdata : 32'd0));

  // ---- status and counters ------------------------------------------------------------
  // The SM alone counts in hardware (baresm_ssm_status: the serial SM's
  // block, read over the report port); the whole device's firmware counts
  // the launch itself (fw/sm/fwsm.c fwsm_counts), and its warp states are
  // only these outputs.
  if (Device) begin : g_dev_status
    for (genvar w = 0; w < NumWarps; w++) begin : g_ws
      assign warp_state_o[w*3 +: 3] = baresm_sm_pkg::warp_state(used[w], exited[w], bar_wait[w],
                                                                issue && issue_warp == WarpW'(w), ready[w], wait_mem[w]);
    end
    assign rpt_rsp_o = '0;
    assign cycles = '0;
    logic unused_dev;
    assign unused_dev = ^{rpt_req_i, issue_exec, diverge, bar_release, cta_retire, ifill, lsu_smem_access,
                          lsu_gmem_req, clear, running, cycles};
  end else begin : g_sm_status
    // ---- status and counters: the serial SM's block ---------------------------------------
    logic [63:0] status_clock;   // S2R's clock is the I/O block's counter
    baresm_ssm_status #(.NumWarps(NumWarps)) u_status (
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
      .smem_pass_i    (lsu_smem_access),
      .gmem_req_i     (lsu_gmem_req),
      .warp_state_o,
      .cycles_o       (cycles),
      .clock_o        (status_clock),
      .rpt_req_i,
      .rpt_rsp_o
    );
    logic unused_sm;
    assign unused_sm = ^status_clock;
  end
  assign busy_o = busy;
  assign done_o = done;
  assign cfg_error_o = cfg_err;

  // ID/CONFIG words: each field where contract/sm_config.def puts it (the serial SM's).
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
                  | baresm_smcfg_pkg::smcfg_serial(32'd1)
                  | baresm_smcfg_pkg::smcfg_atomic_rmw(32'd1);

  logic unused;
  assign unused = ^{sched_gto_i, mem_rsp_id_i, StarveLimit, core_status, core_trace, lane_trace_addr,
                    uart_rx_valid_i, uart_rx_data_i, uart_tx_ready_i, launch_valid_i, launch_i};

`ifndef SYNTHESIS
  // A stopped core is a firmware bug: nothing would end the launch.
  `BARESM_ASSERT(a_core_runs, !core_status.halted)

  // ---- trace: issues, register-file and predicate writes --------------------------
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
  // A thread's result: the lane loop's, or the firmware's (a load, S2R, SHFL).
  // The trace names the entry as the wide SM lays out a launch (warp w's
  // registers at w * regs * 32), which the lockstep checker decodes.
  logic t_we;
  logic [RfAddrW-1:0] t_addr;
  logic [31:0] t_data;
  assign t_we = lane_trace_we || rf_traced;
  assign t_addr = lane_trace_we ? lane_trace_addr : rf_waddr;
  assign t_data = lane_trace_we ? lane_trace_data : rf_wdata;
  logic [15:0] t_entry;
  assign t_entry = 16'((32'(t_addr[RfAddrW-1:RegW+5]) * 32'(lp.regs) + 32'(t_addr[RegW+4:5])) * 32 + 32'(t_addr[4:0]));
  assign trace_rf_we_o = {2'b00, t_we};
  assign trace_rf_addr_o = {32'd0, t_entry};
  assign trace_rf_mask_o = {2'b00, t_we};
  assign trace_rf_data_o = {64'd0, t_data};
  assign trace_pw_valid_o = {1'b0, pw_valid};
  assign trace_pw_slot_o = {8'd0, 8'(pw_warp)};
  assign trace_pw_pd_o = {3'd0, pw_pd};
  assign trace_pw_mask_o = {32'd0, pw_mask};
  assign trace_pw_bits_o = {32'd0, pw_bits};
`endif

endmodule

`default_nettype wire
