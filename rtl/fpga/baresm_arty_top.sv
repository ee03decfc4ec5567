// baresm_arty_top: the device on a Digilent Arty A7-100T (Xilinx Artix-7
// XC7A100T-1CSG324C, 100 MHz oscillator, FT2232HQ USB-UART): baresm_fpga_board
// with rtl/configs.txt's `arty` SM (1 lane, 8 warp slots, FPU), the
// command processor with one queue pair and MemBytes (256 KB) of device memory
// in block RAM, the host link at Baud (1 Mbaud by default) over the board's
// USB-UART, and four status LEDs. Pins: rtl/fpga/arty_a7.xdc. Flow:
// scripts/vivado-arty.tcl (Vivado, not run here) and `make fpga BOARD=arty`
// (a Yosys synth_xilinx estimate), docs/fpga.md "Bigger boards".
//
// The core runs on the board clock itself (ClockKhz = 100000, the value the
// CONFIG5 register reports to the host). Whether the SM meets 100 MHz on an
// Artix-7 is what Vivado's timing report says; if it does not, clock the top
// from an MMCM output and set ClockKhz to that frequency (UART divider, frame
// timeout and CONFIG5 follow from it).
//
// LEDs (all active high on the Arty): LD4 idle, LD5 busy, LD6 sticky fault,
// LD7 a frame answered with ERROR (0.35 s), RGB LD0 green: link activity.
// Reset: the red RESET button (ck_rst, low when pressed).
//
// The SM parameters are rtl/configs.txt's `arty` line; the test
// rtl_sm_configs (scripts/sm-config.sh --check) fails when they drift apart.
`default_nettype none

module baresm_arty_top #(
  // 1: the whole device as one program (rtl/msm, the iCEBreaker's device),
  // its firmware FwImage in block RAM; 0: the hardwired device with the SM below
  parameter bit Microprogrammed = 1'b0,
  parameter FwImage = "fw/dev/dev.hex",
  parameter int ClockKhz = 100000,
  parameter int Baud = 1000000,
  parameter int MemBytes = 262144,
  // `arty` (rtl/configs.txt)
  parameter int NumLanes = 1,
  parameter int NumWarps = 8,
  parameter int NumRegs = 32,
  parameter int RfDepth = 8192,
  parameter int SharedBytes = 16384,
  parameter int NumBanks = 4,
  parameter int CtaSlots = 2,
  parameter int StackDepth = 8,
  parameter int MemLineBytes = 64,
  parameter int FpuLatency = 3,
  parameter bit HasFpu = 1'b1,
  parameter int IcLines = 8,
  parameter int GatherDepth = 1,
  parameter int LoadSlots = 0
) (
  input  logic clk_i,          // CLK100MHZ
  input  logic btn_ni,         // ck_rst: the RESET button, low = reset
  input  logic uart_rx_i,      // uart_txd_in: from the host (FTDI TX)
  output logic uart_tx_o,      // uart_rxd_out: to the host (FTDI RX)
  output logic led_idle_o,     // LD4
  output logic led_busy_o,     // LD5
  output logic led_fault_o,    // LD6
  output logic led_error_o,    // LD7
  output logic led_act_o       // LD0 green
);

  logic flash_sck, flash_csn, flash_mosi;   // unused: the flash loader is the iCEBreaker firmware device's
  logic unused_flash;
  assign unused_flash = ^{flash_sck, flash_csn, flash_mosi};
  baresm_fpga_board #(
    .ClockKhz(ClockKhz),
    .Baud(Baud),
    .MemBytes(MemBytes),
    .NumLanes(NumLanes),
    .NumWarps(NumWarps),
    .NumRegs(NumRegs),
    .RfDepth(RfDepth),
    .SharedBytes(SharedBytes),
    .NumBanks(NumBanks),
    .CtaSlots(CtaSlots),
    .StackDepth(StackDepth),
    .MemLineBytes(MemLineBytes),
    .FpuLatency(FpuLatency),
    .HasFpu(HasFpu),
    .IcLines(IcLines),
    .GatherDepth(GatherDepth),
    .LoadSlots(LoadSlots),
    .Microprogrammed(Microprogrammed),
    .FwImage(FwImage)
  ) u_board (
    .clk_i,
    .btn_ni,
    .uart_rx_i,
    .uart_tx_o,
    .led_idle_o,
    .led_busy_o,
    .led_fault_o,
    .led_error_o,
    .led_act_o,
    .flash_sck_o (flash_sck),   // the firmware device's flash: not on this board
    .flash_csn_o (flash_csn),
    .flash_mosi_o(flash_mosi),
    .flash_miso_i(1'b0)
  );

endmodule

`default_nettype wire
