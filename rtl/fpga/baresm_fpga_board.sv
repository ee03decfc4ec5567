// baresm_fpga_board: the device as every board top builds it
// (baresm_icebreaker_top, baresm_arty_top, baresm_ulx3s_top): the host link
// (baresm_fpga_link: reset, a UART at Baud), the device and MemBytes of
// device memory (baresm_fpga_mem: inferred block RAM with BlockRam = 1, the
// iCE40 UP5K's SPRAM with 0). The device is baresm_top (the SM with the
// parameters below and the command processor with one queue pair), behind
// the link's frame bridge (docs/serial-protocol.md):
//
//   uart_rx_i/uart_tx_o <-> baresm_fpga_link --- mmio_*, irq ---> baresm_top
//                                  | bridge port                    | mem_*
//                                  +----------> baresm_fpga_mem <---+
//
// or, with Microprogrammed = 1, the whole device as one program
// (baresm_mdev), whose firmware frames the UART's bytes itself (fw/dev/link.c:
// no bridge; the memory's bridge port is unused):
//
//   uart_rx_i/uart_tx_o <-> baresm_fpga_link --- rx/tx bytes ---> baresm_mdev --- mem_* ---> baresm_fpga_mem
//
// It has no parameter defaults of its own worth keeping: each board top
// passes the SM's (its line of rtl/configs.txt), its clock and its baud. The
// UART's clocks per bit and the partial-frame timeout follow from ClockKhz
// and Baud unless given (the board simulation shortens the timeout).
//
// LEDs, active high (the board top inverts where its LEDs need it):
//   led_idle_o   STATUS.IDLE
//   led_busy_o   STATUS.BUSY
//   led_fault_o  STATUS.FAULT (sticky until the host clears it)
//   led_error_o  a frame was answered with ERROR in the last LedHoldMs
//   led_act_o    a frame was executed in the last LedHoldMs (link activity)
// (the bridge's hold counters, or the firmware's LINK_LED register, which
// fw/dev/link.c holds lit as long)
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_mem_glue.svh"
`include "baresm_mcu_types.svh"
`default_nettype none

module baresm_fpga_board #(
  parameter int ClockKhz = 100000,
  parameter int Baud = 1000000,
  parameter int MemBytes = 262144,
  parameter int LedHoldMs = 350,
  // The UART's clocks per bit, rounded to the nearest (baresm_uart_rx samples
  // each bit in its middle: keep Baud at most ClockKhz * 1000 / 8).
  parameter int ClkPerBit = (ClockKhz * 1000 + Baud / 2) / Baud,
  // A frame's bytes may pause 10 ms at most.
  parameter int TimeoutCycles = ClockKhz * 10,
  parameter bit BlockRam = 1'b1,  // device memory: 1 block RAM, 0 iCE40 SPRAM
  // SM shape (baresm_sm parameters)
  parameter int NumLanes = 8,
  parameter int NumWarps = 16,
  parameter int NumRegs = 32,
  parameter int RfDepth = 2048,
  parameter int SharedBytes = 16384,
  parameter int NumBanks = 16,
  parameter int CtaSlots = 4,
  parameter int StackDepth = 8,
  parameter int MemLineBytes = 64,
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b1,
  parameter bit SerialSm = 1'b0,  // the thread-serial SM (rtl/ssm) instead of baresm_sm
  // 1: the whole device as one program (rtl/msm/baresm_mdev: the command
  // processor and the SM's control as firmware on one core, FwImage) instead
  // of baresm_top; the `serial` shape.
  parameter bit Microprogrammed = 1'b0,
  parameter FwImage = "",
  // Microprogrammed: 1, the firmware comes from the board's SPI flash
  // (baresm_flash_loader, into SPRAM; FwImage unused) and the device memory
  // takes two SPRAMs, 32 bits wide; 0, the firmware is FwImage in EBR
  parameter bit FwFlash = 1'b0,
  parameter int IcLines = 8,
  parameter int LsuIdWidth = 4,
  parameter int NumWindows = 4,
  parameter int GatherDepth = 2,
  parameter int LoadSlots = 4
) (
  input  logic clk_i,
  input  logic btn_ni,         // reset button, low = reset
  input  logic uart_rx_i,      // from the host
  output logic uart_tx_o,      // to the host
  output logic led_idle_o,
  output logic led_busy_o,
  output logic led_fault_o,
  output logic led_error_o,
  output logic led_act_o,
  // the board's SPI flash (FwFlash; idle otherwise)
  output logic flash_sck_o,
  output logic flash_csn_o,
  output logic flash_mosi_o,
  input  logic flash_miso_i
);

  localparam int MemIdWidth = LsuIdWidth + 2;
  localparam int HoldCycles = ClockKhz * LedHoldMs;

  // ---- reset, UART and (hardwired device) frame bridge (baresm_fpga_link) ------------------
  logic rst_n;
  logic mmio_req_valid, mmio_req_ready, mmio_req_write, mmio_rsp_valid, irq;
  logic [9:0] mmio_req_addr;
  logic [31:0] mmio_req_wdata, mmio_rsp_rdata;
  baresm_byte_req_t breq;   // the bridge's byte port (rtl/prim/baresm_mem_types.svh)
  baresm_byte_rsp_t brsp;
  logic breq_ready;
  logic frame_ok_led, frame_bad_led;
  logic rx_valid, tx_valid, tx_ready;   // the UART's bytes (Microprogrammed)
  logic [7:0] rx_data, tx_data;

  baresm_fpga_link #(
    .ClkPerBit(ClkPerBit),
    .TimeoutCycles(TimeoutCycles),
    .MemBytes(MemBytes),
    .LedHoldCycles(HoldCycles),
    .FrameBridge(!Microprogrammed)
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
    .mem_req_o       (breq),
    .mem_req_ready_i (breq_ready),
    .mem_rsp_i       (brsp),
    .frame_ok_led_o  (frame_ok_led),
    .frame_bad_led_o (frame_bad_led),
    .rx_valid_o      (rx_valid),
    .rx_data_o       (rx_data),
    .tx_valid_i      (tx_valid),
    .tx_ready_o      (tx_ready),
    .tx_data_i       (tx_data)
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
  // baresm_top's memory port, field by field (sim/systemc drives the verilated
  // top port by port), as the typed line port of baresm_fpga_mem
  // (rtl/prim/baresm_mem_types.svh).
  typedef `BARESM_MEM_REQ_T(MemIdWidth, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM_RSP_T(MemIdWidth, MemLineBytes) mem_rsp_t;
  mem_req_t mem_req;
  mem_rsp_t mem_rsp;
  `BARESM_MEM_REQ_FROM_NETS(mem_req, mem_req_)
  `BARESM_MEM_RSP_TO_NETS(mem_rsp, mem_rsp_)
  logic [MemIdWidth:0] mem_outstanding;
  baresm_fw_load_t fw_load;   // Microprogrammed && FwFlash: the firmware, from the flash

  logic [1:0] dev_led;   // the firmware's frame LEDs (Microprogrammed)

  // The ports both devices have (baresm_top's, less its register port: the
  // whole device as one program has the UART's bytes instead).
`define BARESM_BOARD_DEVICE_PORTS \
      .clk_i, \
      .rst_ni           (rst_n), \
      .sched_gto_i      (1'b0), \
      .mem_req_valid_o  (mem_req_valid), \
      .mem_req_ready_i  (mem_req_ready), \
      .mem_req_id_o     (mem_req_id), \
      .mem_req_addr_o   (mem_req_addr), \
      .mem_req_op_o     (mem_req_op), \
      .mem_req_amo_o    (mem_req_amo), \
      .mem_req_wdata_o  (mem_req_wdata), \
      .mem_req_wstrb_o  (mem_req_wstrb), \
      .mem_rsp_valid_i  (mem_rsp_valid), \
      .mem_rsp_ready_o  (mem_rsp_ready), \
      .mem_rsp_id_i     (mem_rsp_id), \
      .mem_rsp_rdata_i  (mem_rsp_rdata), \
      .mem_rsp_err_i    (mem_rsp_err), \
      .status_o         (status), \
      .cp_state_o       (cp_state), \
      .cp_queue_o       (cp_queue), \
      .sm_busy_o        (sm_busy), \
      .warp_state_o     (warp_state), \
      .mem_outstanding_o(mem_outstanding)
  if (Microprogrammed) begin : g_mdev
    baresm_mdev #(
      .NumLanes(NumLanes),
      .NumWarps(NumWarps),
      .NumRegs(NumRegs),
      .RegfileRegs(RfDepth * NumLanes),
      .SharedBytes(SharedBytes),
      .NumBanks(NumBanks),
      .CtaSlots(CtaSlots),
      .StackDepth(StackDepth),
      .MemLineBytes(MemLineBytes),
      .LsuIdWidth(LsuIdWidth),
      .NumWindows(NumWindows),
      .MemBytes(MemBytes),
      .ClockKhz(ClockKhz),
      .TimeoutCycles(TimeoutCycles),
      .FwImage(FwImage),
      .FwSpram(FwFlash)
    ) u_top (
`BARESM_BOARD_DEVICE_PORTS,
      .uart_rx_valid_i  (rx_valid),
      .uart_rx_data_i   (rx_data),
      .uart_tx_valid_o  (tx_valid),
      .uart_tx_ready_i  (tx_ready),
      .uart_tx_data_o   (tx_data),
      .link_led_o       (dev_led),
      .fw_load_i        (fw_load)
    );
    // No register port: the link's bridge is not built (baresm_fpga_link FrameBridge = 0).
    assign mmio_req_ready = 1'b0;
    assign mmio_rsp_valid = 1'b0;
    assign mmio_rsp_rdata = '0;
    assign irq = 1'b0;
    logic unused_mmio;
    assign unused_mmio = ^{mmio_req_valid, mmio_req_addr, mmio_req_write, mmio_req_wdata};
  end else begin : g_top
    logic unused_fw_load;
    assign unused_fw_load = ^fw_load;
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
      .FpuLatency(FpuLatency),
      .HasFpu(HasFpu),
      .SerialSm(SerialSm),
      .IcLines(IcLines),
      .LsuIdWidth(LsuIdWidth),
      .NumWindows(NumWindows),
      .GatherDepth(GatherDepth),
      .LoadSlots(LoadSlots),
      .NumQueues(1),
      .MemBytes(MemBytes),
      .ClockKhz(ClockKhz)
    ) u_top (
`BARESM_BOARD_DEVICE_PORTS,
      .mmio_req_valid_i (mmio_req_valid),
      .mmio_req_ready_o (mmio_req_ready),
      .mmio_req_addr_i  (mmio_req_addr),
      .mmio_req_write_i (mmio_req_write),
      .mmio_req_wdata_i (mmio_req_wdata),
      .mmio_rsp_valid_o (mmio_rsp_valid),
      .mmio_rsp_rdata_o (mmio_rsp_rdata),
      .irq_o            (irq)
    );
    assign tx_valid = 1'b0;
    assign tx_data = '0;
    assign dev_led = '0;
  end
`undef BARESM_BOARD_DEVICE_PORTS

  // ---- the firmware from the flash ------------------------------------------------------------
  logic fw_error;
  if (Microprogrammed && FwFlash) begin : g_flash
    baresm_flash_loader u_loader (
      .clk_i,
      .rst_ni    (rst_n),
      .spi_sck_o (flash_sck_o),
      .spi_csn_o (flash_csn_o),
      .spi_mosi_o(flash_mosi_o),
      .spi_miso_i(flash_miso_i),
      .load_o    (fw_load),
      .error_o   (fw_error)
    );
  end else begin : g_no_flash
    assign fw_load = '0;
    assign fw_error = 1'b0;
    assign flash_sck_o = 1'b0;
    assign flash_csn_o = 1'b1;
    assign flash_mosi_o = 1'b0;
  end

  baresm_byte_req_t no_breq;
  assign no_breq = '0;
  baresm_fpga_mem #(
    .MemBytes(MemBytes),
    .LineBytes(MemLineBytes),
    .IdWidth(MemIdWidth),
    .BlockRam(BlockRam),
    .Atomics(!Microprogrammed),   // the whole device as one program makes its atomics of reads and writes
    .WordBytes((Microprogrammed && FwFlash) ? 4 : 8)
  ) u_mem (
    .clk_i,
    .rst_ni      (rst_n),
    .req_i       (mem_req),
    .req_ready_o (mem_req_ready),
    .rsp_o       (mem_rsp),
    .rsp_ready_i (mem_rsp_ready),
    .breq_i      (Microprogrammed ? no_breq : breq),   // the bridge's byte port: tied off without a bridge
    .breq_ready_o(breq_ready),
    .brsp_o      (brsp)
  );

  // ---- LEDs ---------------------------------------------------------------------------------
  // STATUS: bit 0 IDLE, 1 BUSY, 2 FAULT (docs/registers.md); the link's
  // frame LEDs stay lit HoldCycles after a frame.
  assign led_idle_o = status[0];
  assign led_busy_o = status[1];
  // A board whose flash holds no firmware lights fault and error for good.
  assign led_fault_o = status[2] || fw_error;
  assign led_error_o = frame_bad_led || dev_led[1] || fw_error;
  assign led_act_o = frame_ok_led || frame_bad_led || dev_led[0] || dev_led[1];

  logic unused;
  assign unused = ^{cp_state, cp_queue, sm_busy, warp_state, mem_outstanding, status[31:3], rx_valid, rx_data,
                    tx_ready, flash_miso_i};

endmodule

`default_nettype wire
