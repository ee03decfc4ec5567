// baresm_tangnano20k_top: the device on a Sipeed Tang Nano 20K (Gowin
// GW2AR-LV18QN88C8/I7, 27 MHz crystal, the on-board BL616 as USB-UART):
// baresm_fpga_board with the whole device as one program (Microprogrammed
// = 1: rtl/msm/baresm_mdev, the iCEBreaker's device, its firmware FwImage
// in block RAM) in rtl/configs.txt's `micro` shape (1 lane, 4 warp slots,
// 16 registers; the FPU instructions in firmware), MemBytes (32 KB) of
// device memory in block RAM (BSRAM), the host link at Baud (1 Mbaud by
// default: 27 clocks per bit) over the BL616's UART, and the status LEDs.
// Microprogrammed = 0 builds the hardwired command processor and `micro` SM
// instead, which does not fit the GW2AR-18 (280% of its LUT4 by Yosys'
// estimate, docs/fpga.md "Bigger boards"). Pins: rtl/fpga/tangnano20k.cst.
// Flow: `scripts/fpga.sh --flow tangnano20k` (Yosys synth_gowin ->
// nextpnr-himbaechel -> gowin_pack, not run here) and `make fpga
// BOARD=tangnano20k` (a Yosys synth_gowin estimate).
//
// Device memory: the GW2AR-18 has 46 BSRAM of 18 Kbit (2 KB of data each at
// 32 or 64 bits wide). 32 KB is 16 of them, which leaves the firmware and
// the SM's register file and shared memory room; the part's 64 Mbit SDRAM
// would need a controller, which this top does not have.
//
// The core runs on the 27 MHz board clock (ClockKhz = 27000, the value the
// CONFIG5 register reports to the host).
//
// LEDs (the six orange LEDs, active low on the Tang Nano 20K): led_no[0]
// idle, [1] busy, [2] sticky fault, [3] a frame answered with ERROR (0.35
// s), [4] link activity, [5] off. Reset: button S1 (high when pressed).
//
// The SM parameters are rtl/configs.txt's `micro` line; the test
// rtl_sm_configs (scripts/sm-config.sh --check) fails when they drift apart.
`default_nettype none

module baresm_tangnano20k_top #(
  // 1: the whole device as one program (rtl/msm, the iCEBreaker's device),
  // its firmware FwImage in block RAM; 0: the hardwired device with the SM below
  parameter bit Microprogrammed = 1'b1,
  parameter FwImage = "fw/dev/dev.hex",
  parameter int ClockKhz = 27000,
  parameter int Baud = 1000000,
  parameter int MemBytes = 32768,
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
  input  logic       clk_i,         // sys_clk, 27 MHz (pin 4)
  input  logic       btn_s1_i,      // S1 (pin 88), high when pressed = reset
  input  logic       uart_rx_i,     // from the host (BL616 TX, pin 70)
  output logic       uart_tx_o,     // to the host (BL616 RX, pin 69)
  output logic [5:0] led_no         // LEDs 0-5 (pins 15-20), low = lit
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
    .btn_ni     (~btn_s1_i),
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

  assign led_no = ~{1'b0, act, error, fault, busy, idle};

endmodule

`default_nettype wire
