// baresm_icebreaker_top: the device on an iCEBreaker board (Lattice iCE40
// UP5K, 12 MHz oscillator): baresm_top with rtl/configs.txt's `micro` SM and
// one queue pair, 128 KB of device memory (baresm_fpga_mem: the UP5K's
// SPRAM), and the host link (baresm_fpga_link: the reset, a UART at
// 12 MHz / ClkPerBit baud, 1 Mbaud by default, which the board's FT2232H
// carries, and the frame bridge, docs/serial-protocol.md).
//
//   uart_rx_i/uart_tx_o <-> baresm_fpga_link --- mmio_*, irq ---> baresm_top
//                                  | bridge port                    | mem_*
//                                  +----------> baresm_fpga_mem <---+
//
// LEDs: idle, busy and sticky fault from the STATUS register, and link
// activity (a frame answered with ERROR lights it for a while). Each output
// is inverted where LedActiveLow has its bit set (bit 0 idle, 1 busy, 2
// fault, 3 link): an iCE40 pin constraint cannot invert, and
// rtl/fpga/icebreaker.pcf puts idle and fault on the board's active-low green
// and red LEDs (busy and link on the PMOD2 snap-off's active-high LED1/LED2).
// The simulation (sim/serial) sets LedActiveLow = 0: all active high.
//
// The SM parameters are the `micro` line of rtl/configs.txt (RfDepth 2048 x 1
// lane = RegfileRegs 2048); the test rtl_sm_configs (scripts/sm-config.sh
// --check) fails when they drift apart.
`include "baresm_assert.svh"
`default_nettype none

module baresm_icebreaker_top #(
  parameter int ClkPerBit = 12,          // 12 MHz / 12 = 1 Mbaud
  parameter int TimeoutCycles = 120000,  // a frame's bytes may pause 10 ms at most
  parameter int ClockKhz = 12000,
  parameter int MemBytes = 131072,
  parameter logic [3:0] LedActiveLow = 4'b0101,  // iCEBreaker: LEDG (idle), LEDR (fault)
  // `micro` (rtl/configs.txt)
  parameter int NumLanes = 1,
  parameter int NumWarps = 4,
  parameter int NumRegs = 16,
  parameter int RfDepth = 2048,
  parameter int SharedBytes = 2048,
  parameter int NumBanks = 4,
  parameter int CtaSlots = 1,
  parameter int StackDepth = 4,
  parameter int MemLineBytes = 16,
  parameter bit HasFpu = 1'b0,
  parameter int IcLines = 4,
  parameter int LsuIdWidth = 2,
  parameter int GatherDepth = 1,
  parameter int LoadSlots = 0
) (
  input  logic clk_i,          // 12 MHz
  input  logic btn_ni,         // user button, low = reset
  input  logic uart_rx_i,      // from the host (FTDI TX)
  output logic uart_tx_o,      // to the host (FTDI RX)
  output logic led_idle_o,
  output logic led_busy_o,
  output logic led_fault_o,
  output logic led_link_o
);

  localparam int MemIdWidth = LsuIdWidth + 2;

  // ---- reset, UART and frame bridge (baresm_fpga_link) ----------------------------------
  logic rst_n;
  logic mmio_req_valid, mmio_req_ready, mmio_req_write, mmio_rsp_valid, irq;
  logic [9:0] mmio_req_addr;
  logic [31:0] mmio_req_wdata, mmio_rsp_rdata;
  logic breq_valid, breq_ready, breq_write, brsp_valid;
  logic [31:0] breq_addr;
  logic [7:0] breq_wdata, brsp_rdata;
  logic frame_ok_led, frame_bad_led;

  baresm_fpga_link #(
    .ClkPerBit(ClkPerBit),
    .TimeoutCycles(TimeoutCycles),
    .MemBytes(MemBytes)
  ) u_link (
    .clk_i,
    .btn_ni,
    .uart_rx_i,
    .uart_tx_o,
    .rst_no          (rst_n),
    .mmio_req_valid_o(mmio_req_valid),
    .mmio_req_ready_i(mmio_req_ready),
    .mmio_req_addr_o (mmio_req_addr),
    .mmio_req_write_o(mmio_req_write),
    .mmio_req_wdata_o(mmio_req_wdata),
    .mmio_rsp_valid_i(mmio_rsp_valid),
    .mmio_rsp_rdata_i(mmio_rsp_rdata),
    .irq_i           (irq),
    .mem_req_valid_o (breq_valid),
    .mem_req_ready_i (breq_ready),
    .mem_req_write_o (breq_write),
    .mem_req_addr_o  (breq_addr),
    .mem_req_wdata_o (breq_wdata),
    .mem_rsp_valid_i (brsp_valid),
    .mem_rsp_rdata_i (brsp_rdata),
    .frame_ok_led_o  (frame_ok_led),
    .frame_bad_led_o (frame_bad_led)
  );

  // ---- the device ---------------------------------------------------------------------------
  logic mem_req_valid, mem_req_ready, mem_rsp_valid, mem_rsp_ready, mem_rsp_err;
  logic [MemIdWidth-1:0] mem_req_id, mem_rsp_id;
  logic [31:0] mem_req_addr;
  logic [1:0] mem_req_op;
  logic [4:0] mem_req_amo;
  logic [MemLineBytes*8-1:0] mem_req_wdata, mem_rsp_rdata;
  logic [MemLineBytes-1:0] mem_req_wstrb;
  logic [31:0] status;
  logic [3:0] cp_state;
  logic [2:0] cp_queue;
  logic sm_busy;
  logic [NumWarps*3-1:0] warp_state;
  logic [63:0] sm_cycles, sm_instrs, sm_stalls;
  logic [31:0] sm_smem_passes, sm_gmem_reqs;
  logic [baresm_state_pkg::NUM_WS*64-1:0] sm_state_cycles;
  logic [4*64-1:0] sm_events;
  logic [MemIdWidth:0] mem_outstanding;

  baresm_top #(
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RegfileRegs(RfDepth * NumLanes),
    .SharedBytes(SharedBytes),
    .NumBanks(NumBanks),
    .CtaSlots(CtaSlots),
    .StackDepth(StackDepth),
    .MemLineBytes(MemLineBytes),
    .HasFpu(HasFpu),
    .IcLines(IcLines),
    .LsuIdWidth(LsuIdWidth),
    .GatherDepth(GatherDepth),
    .LoadSlots(LoadSlots),
    .NumQueues(1),
    .MemBytes(MemBytes),
    .ClockKhz(ClockKhz)
  ) u_top (
    .clk_i,
    .rst_ni           (rst_n),
    .sched_gto_i      (1'b0),
    .mmio_req_valid_i (mmio_req_valid),
    .mmio_req_ready_o (mmio_req_ready),
    .mmio_req_addr_i  (mmio_req_addr),
    .mmio_req_write_i (mmio_req_write),
    .mmio_req_wdata_i (mmio_req_wdata),
    .mmio_rsp_valid_o (mmio_rsp_valid),
    .mmio_rsp_rdata_o (mmio_rsp_rdata),
    .irq_o            (irq),
    .mem_req_valid_o  (mem_req_valid),
    .mem_req_ready_i  (mem_req_ready),
    .mem_req_id_o     (mem_req_id),
    .mem_req_addr_o   (mem_req_addr),
    .mem_req_op_o     (mem_req_op),
    .mem_req_amo_o    (mem_req_amo),
    .mem_req_wdata_o  (mem_req_wdata),
    .mem_req_wstrb_o  (mem_req_wstrb),
    .mem_rsp_valid_i  (mem_rsp_valid),
    .mem_rsp_ready_o  (mem_rsp_ready),
    .mem_rsp_id_i     (mem_rsp_id),
    .mem_rsp_rdata_i  (mem_rsp_rdata),
    .mem_rsp_err_i    (mem_rsp_err),
    .status_o         (status),
    .cp_state_o       (cp_state),
    .cp_queue_o       (cp_queue),
    .sm_busy_o        (sm_busy),
    .warp_state_o     (warp_state),
    .sm_cycles_o      (sm_cycles),
    .sm_instrs_o      (sm_instrs),
    .sm_stalls_o      (sm_stalls),
    .sm_smem_passes_o (sm_smem_passes),
    .sm_gmem_reqs_o   (sm_gmem_reqs),
    .sm_state_cycles_o(sm_state_cycles),
    .sm_events_o      (sm_events),
    .mem_outstanding_o(mem_outstanding)
  );

  baresm_fpga_mem #(
    .MemBytes(MemBytes),
    .LineBytes(MemLineBytes),
    .IdWidth(MemIdWidth)
  ) u_mem (
    .clk_i,
    .rst_ni      (rst_n),
    .req_valid_i (mem_req_valid),
    .req_ready_o (mem_req_ready),
    .req_id_i    (mem_req_id),
    .req_addr_i  (mem_req_addr),
    .req_op_i    (mem_req_op),
    .req_amo_i   (mem_req_amo),
    .req_wdata_i (mem_req_wdata),
    .req_wstrb_i (mem_req_wstrb),
    .rsp_valid_o (mem_rsp_valid),
    .rsp_ready_i (mem_rsp_ready),
    .rsp_id_o    (mem_rsp_id),
    .rsp_rdata_o (mem_rsp_rdata),
    .rsp_err_o   (mem_rsp_err),
    .breq_valid_i(breq_valid),
    .breq_ready_o(breq_ready),
    .breq_write_i(breq_write),
    .breq_addr_i (breq_addr),
    .breq_wdata_i(breq_wdata),
    .brsp_valid_o(brsp_valid),
    .brsp_rdata_o(brsp_rdata)
  );

  // ---- LEDs ---------------------------------------------------------------------------------
  // STATUS: bit 0 IDLE, 1 BUSY, 2 FAULT (docs/registers.md); link: a frame
  // answered with ERROR in the last 0.35 s.
  assign led_idle_o = status[0] ^ LedActiveLow[0];
  assign led_busy_o = status[1] ^ LedActiveLow[1];
  assign led_fault_o = status[2] ^ LedActiveLow[2];
  assign led_link_o = frame_bad_led ^ LedActiveLow[3];

  logic unused;
  assign unused = ^{frame_ok_led, cp_state, cp_queue, sm_busy, warp_state, sm_cycles, sm_instrs,
                    sm_stalls, sm_smem_passes, sm_gmem_reqs, sm_state_cycles, sm_events,
                    mem_outstanding, status[31:3]};

endmodule

`default_nettype wire
