// baresm_ulx3s_top: the device on a Radiona ULX3S with the 85F part (Lattice
// ECP5 LFE5U-85F-6BG381C, 25 MHz oscillator, FT231X USB-UART on US1):
// baresm_fpga_board with rtl/configs.txt's `micro` SM (1 lane, 4 warp slots,
// integer only: the `boards` shape is 4.5x the part), the command processor with one queue pair and MemBytes (256 KB)
// of device memory in block RAM (EBR), the host link at Baud (1 Mbaud by
// default; the FT231X goes to 3 Mbaud) over the board's USB-UART, and the
// status LEDs. Pins: rtl/fpga/ulx3s.lpf. Flow: scripts/ecp5.mk (Yosys
// synth_ecp5 -> nextpnr-ecp5 -> ecppack, not run here) and
// `make fpga BOARD=ulx3s` (a Yosys synth_ecp5 estimate), docs/fpga.md
// "Bigger boards". The 25F's build (scripts/ecp5.mk DEVICE=25k, `make fpga
// BOARD=ulx3s-25f`) sets Microprogrammed = 1 and MemBytes = 65536: the
// hardwired device and 256 KB do not fit that part.
//
// The core runs on the 25 MHz board clock (ClockKhz = 25000, the value the
// CONFIG5 register reports to the host).
//
// LEDs (all active high on the ULX3S): led_o[0] idle, [1] busy, [2] sticky
// fault, [3] a frame answered with ERROR (0.35 s), [4] link activity,
// [7:5] off. Reset: the PWR button (BTN_PWRn, low when pressed).
// wifi_gpio0_o (the on-board ESP32's GPIO0) is held high, as the ULX3S
// project's examples do, so that the ESP32 does not reboot the board.
//
// The SM parameters are rtl/configs.txt's `micro` line; the test
// rtl_sm_configs (scripts/sm-config.sh --check) fails when they drift apart.
`default_nettype none

module baresm_ulx3s_top #(
  // 1: the whole device as one program (rtl/msm, the iCEBreaker's device),
  // its firmware FwImage in block RAM; 0: the hardwired device with the SM below
  parameter bit Microprogrammed = 1'b0,
  parameter FwImage = "fw/dev/dev.hex",
  parameter int ClockKhz = 25000,
  parameter int Baud = 1000000,
  parameter int MemBytes = 262144,
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
  input  logic       clk_i,         // clk_25mhz
  input  logic       btn_ni,        // BTN_PWRn, low = reset
  input  logic       uart_rx_i,     // ftdi_txd: from the host
  output logic       uart_tx_o,     // ftdi_rxd: to the host
  output logic [7:0] led_o,
  output logic       wifi_gpio0_o
);

  logic idle, busy, fault, error, act;

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
    .HasFpu(HasFpu),
    .IcLines(IcLines),
    .LsuIdWidth(LsuIdWidth),
    .GatherDepth(GatherDepth),
    .LoadSlots(LoadSlots),
    .Microprogrammed(Microprogrammed),
    .FwImage(FwImage)
  ) u_board (
    .clk_i,
    .btn_ni,
    .uart_rx_i,
    .uart_tx_o,
    .led_idle_o (idle),
    .led_busy_o (busy),
    .led_fault_o(fault),
    .led_error_o(error),
    .led_act_o  (act),
    .flash_sck_o (flash_sck),   // the firmware device's flash: not on this board
    .flash_csn_o (flash_csn),
    .flash_mosi_o(flash_mosi),
    .flash_miso_i(1'b0)
  );

  assign led_o = {3'b000, act, error, fault, busy, idle};
  assign wifi_gpio0_o = 1'b1;

endmodule

`default_nettype wire
