// baresm_mdev: the whole device as one program (docs/command-processor.md,
// "The whole device as one program"): the microprogrammed SM (baresm_msm,
// Device = 1) whose control core runs the command processor, the host
// link's frame engine and the SM's control together (fw/dev/dev.hex: fw/dev
// and fw/sm). The host link is the UART's bytes, through two FIFOs into I/O
// registers (baresm_mdev_io): the firmware parses the frames of
// docs/serial-protocol.md and answers each register access itself;
// descriptors, window tables, completion entries and the link's memory
// bursts go through the SM's memory port, one line at a time, as its
// instruction fetches do.
//
//   UART bytes --FIFOs--+
//                       |  control core (rtl/mcu) + firmware RAM
//                       |  lane engine: register file, ALU loop, memory loop
//                       +--> mem_* (device memory)
//
// baresm_top's other ports: status_o is STATUS as the firmware last wrote
// it; there is no command-processor engine in hardware, so cp_state_o and
// cp_queue_o read 0.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_mem_glue.svh"
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"
`include "baresm_mcu_types.svh"

module baresm_mdev #(
  // SM shape: rtl/configs.txt's `serial` (baresm_msm's firmware is written for it).
  parameter int NumLanes = 1,
  parameter int NumWarps = 4,
  parameter int NumRegs = 16,
  parameter int RegfileRegs = 2048,
  parameter int SharedBytes = 2048,
  parameter int NumBanks = 4,
  parameter int CtaSlots = 1,
  parameter int StackDepth = 4,
  parameter int MemLineBytes = 16,
  parameter int LsuIdWidth = 2,
  parameter int NumWindows = 4,
  parameter int MemBytes = 131072,
  parameter int ClockKhz = 12000,
  parameter int TimeoutCycles = 120000,   // the link's partial-frame timeout (UART_RX bit 9 for fw/dev/link.c)
  parameter FwImage = "",          // fw/dev/dev.hex (FwSpram = 0)
  // 1: the firmware's RAM is two of the UP5K's SPRAMs (64 KB), which
  // fw_load_i fills after reset (baresm_flash_loader); 0: EBR from FwImage
  parameter bit FwSpram = 1'b0,
  parameter int FwWords = FwSpram ? 16384 : 8192,  // fw/dev/link.ld: 32 KB used
  parameter int MemIdWidth = LsuIdWidth + 2
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          sched_gto_i,
  input  logic                          uart_rx_valid_i,   // the UART's bytes (baresm_fpga_link)
  input  logic [7:0]                    uart_rx_data_i,
  output logic                          uart_tx_valid_o,
  input  logic                          uart_tx_ready_i,
  output logic [7:0]                    uart_tx_data_o,
  output logic [1:0]                    link_led_o,        // [0] frames executed, [1] a frame answered with ERROR
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
  input  logic                          mem_rsp_err_i,
  output logic [31:0]                   status_o,
  output logic [3:0]                    cp_state_o,
  output logic [2:0]                    cp_queue_o,
  output logic                          sm_busy_o,
  output logic [NumWarps*3-1:0]         warp_state_o,
  output logic [MemIdWidth:0]           mem_outstanding_o,
  input  baresm_fw_load_t               fw_load_i        // FwSpram: the firmware, while it holds the core
);

  localparam int SmIdWidth = LsuIdWidth + 1;

  logic [SmIdWidth-1:0] sm_req_id;
  baresm_launch_t no_launch;
  assign no_launch = '0;
  baresm_rpt_req_t no_rpt;   // the SM alone's report port: the firmware counts here
  assign no_rpt = '0;
  baresm_rpt_rsp_t rpt_rsp;
  logic [8*32-1:0] config_unused;
  logic done_unused, cfg_error_unused, launch_ready_unused;
  logic [3:0] fk_unused;
  logic [31:0] fx_unused, fy_unused, fz_unused, fpc_unused, faddr_unused, fwait_unused;
  logic [7:0] fwarp_unused;
  logic [4:0] flane_unused;
`ifndef SYNTHESIS
  // The SM's trace port: the lockstep checker's, unused by the device.
  logic trc_issue_valid, trc_issue_fault;
  logic [7:0] trc_issue_slot;
  logic [31:0] trc_issue_pc, trc_issue_tmask, trc_issue_exec, trc_issue_cta_x, trc_issue_cta_y, trc_issue_cta_z;
  logic [4:0] trc_issue_wic;
  logic [2:0] trc_rf_we;
  logic [47:0] trc_rf_addr;
  logic [3*NumLanes-1:0] trc_rf_mask;
  logic [3*NumLanes*32-1:0] trc_rf_data;
  logic [1:0] trc_pw_valid;
  logic [15:0] trc_pw_slot;
  logic [5:0] trc_pw_pd;
  logic [63:0] trc_pw_mask, trc_pw_bits;
`endif

  baresm_msm #(
    .NumLanes(NumLanes), .NumWarps(NumWarps), .NumRegs(NumRegs), .RfDepth(RegfileRegs / NumLanes),
    .SharedBytes(SharedBytes), .NumBanks(NumBanks), .CtaSlots(CtaSlots), .StackDepth(StackDepth),
    .MemLineBytes(MemLineBytes), .LsuIdWidth(LsuIdWidth), .NumWindows(NumWindows),
    .FwImage(FwImage), .FwWords(FwWords), .FwSpram(FwSpram), .Device(1'b1), .MemBytes(MemBytes), .ClockKhz(ClockKhz),
    .TimeoutCycles(TimeoutCycles)
  ) u_msm (
    .clk_i, .rst_ni,
    .launch_valid_i(1'b0), .launch_ready_o(launch_ready_unused), .launch_i(no_launch), .sched_gto_i,
    .busy_o(sm_busy_o), .done_o(done_unused), .cfg_error_o(cfg_error_unused),
    .fault_kind_o(fk_unused), .fault_cta_x_o(fx_unused), .fault_cta_y_o(fy_unused), .fault_cta_z_o(fz_unused),
    .fault_warp_o(fwarp_unused), .fault_lane_o(flane_unused), .fault_pc_o(fpc_unused),
    .fault_addr_o(faddr_unused), .fault_waiting_o(fwait_unused),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_id_o(sm_req_id), .mem_req_addr_o, .mem_req_op_o,
    .mem_req_amo_o, .mem_req_wdata_o, .mem_req_wstrb_o,
    .mem_rsp_valid_i, .mem_rsp_ready_o, .mem_rsp_id_i(mem_rsp_id_i[SmIdWidth-1:0]), .mem_rsp_rdata_i,
    .mem_rsp_err_i,
    .uart_rx_valid_i, .uart_rx_data_i, .uart_tx_valid_o, .uart_tx_ready_i, .uart_tx_data_o, .link_led_o,
    .status_o,
    .warp_state_o, .rpt_req_i(no_rpt), .rpt_rsp_o(rpt_rsp), .config_o(config_unused), .fw_load_i
`ifndef SYNTHESIS
    ,
    .trace_issue_valid_o(trc_issue_valid), .trace_issue_fault_o(trc_issue_fault),
    .trace_issue_slot_o(trc_issue_slot), .trace_issue_pc_o(trc_issue_pc), .trace_issue_tmask_o(trc_issue_tmask),
    .trace_issue_exec_o(trc_issue_exec), .trace_issue_cta_x_o(trc_issue_cta_x),
    .trace_issue_cta_y_o(trc_issue_cta_y), .trace_issue_cta_z_o(trc_issue_cta_z),
    .trace_issue_wic_o(trc_issue_wic), .trace_rf_we_o(trc_rf_we), .trace_rf_addr_o(trc_rf_addr),
    .trace_rf_mask_o(trc_rf_mask), .trace_rf_data_o(trc_rf_data), .trace_pw_valid_o(trc_pw_valid),
    .trace_pw_slot_o(trc_pw_slot), .trace_pw_pd_o(trc_pw_pd), .trace_pw_mask_o(trc_pw_mask),
    .trace_pw_bits_o(trc_pw_bits)
`endif
  );
  assign mem_req_id_o = MemIdWidth'(sm_req_id);

  // Requests in flight on the memory port (at most one: the firmware and the
  // memory loop each wait for their answer).
  logic [MemIdWidth:0] outstanding_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) outstanding_q <= '0;
    else outstanding_q <= outstanding_q + (MemIdWidth + 1)'(mem_req_valid_o && mem_req_ready_i)
                                        - (MemIdWidth + 1)'(mem_rsp_valid_i && mem_rsp_ready_o);
  end
  assign mem_outstanding_o = outstanding_q;
  assign cp_state_o = 4'd0;
  assign cp_queue_o = 3'd0;

  logic unused;
  assign unused = ^{rpt_rsp, config_unused, done_unused, cfg_error_unused, launch_ready_unused, fk_unused,
                    fx_unused, fy_unused, fz_unused, fpc_unused, faddr_unused, fwait_unused, fwarp_unused,
                    flane_unused, mem_rsp_id_i, NumBanks, CtaSlots
`ifndef SYNTHESIS
                    , trc_issue_valid, trc_issue_fault, trc_issue_slot, trc_issue_pc, trc_issue_tmask,
                    trc_issue_exec, trc_issue_cta_x, trc_issue_cta_y, trc_issue_cta_z, trc_issue_wic,
                    trc_rf_we, trc_rf_addr, trc_rf_mask, trc_rf_data, trc_pw_valid, trc_pw_slot, trc_pw_pd,
                    trc_pw_mask, trc_pw_bits
`endif
                    };

endmodule

`default_nettype wire
