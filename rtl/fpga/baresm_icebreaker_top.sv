// baresm_icebreaker_top: the device on an iCEBreaker board (Lattice iCE40
// UP5K, 12 MHz oscillator): baresm_fpga_board with the whole device as one
// program (rtl/msm/baresm_mdev: the command processor and the SM's control
// as firmware, the `serial` shape of rtl/configs.txt), its firmware read from
// the board's SPI flash into two SPRAMs, 64 KB of device memory in the other
// two, and the host link (a UART at 12 MHz / ClkPerBit baud, 1 Mbaud by
// default, which the board's FT2232H carries, and the frame bridge,
// docs/serial-protocol.md). Microprogrammed = 0 builds the hardwired command
// processor and thread-serial SM instead (128 KB of device memory).
//
// LEDs: idle, busy and sticky fault from the STATUS register, and link
// activity (a frame answered with ERROR lights it for a while). Each output
// is inverted where LedActiveLow has its bit set (bit 0 idle, 1 busy, 2
// fault, 3 link): an iCE40 pin constraint cannot invert, and
// rtl/fpga/icebreaker.pcf puts idle and fault on the board's active-low green
// and red LEDs (busy and link on the PMOD2 snap-off's active-high LED1/LED2).
// The simulation (sim/serial) sets LedActiveLow = 0: all active high.
//
// The SM parameters are the `serial` line of rtl/configs.txt (RfDepth 2048 x 1
// lane = RegfileRegs 2048); the test rtl_sm_configs (scripts/sm-config.sh
// --check) fails when they drift apart. docs/microarchitecture.md ("The
// thread-serial SM") says why this board has its own SM.
`default_nettype none

module baresm_icebreaker_top #(
  parameter int ClkPerBit = 12,          // 12 MHz / 12 = 1 Mbaud
  parameter int TimeoutCycles = 120000,  // a frame's bytes may pause 10 ms at most
  parameter int ClockKhz = 12000,
  parameter logic [3:0] LedActiveLow = 4'b0101,  // iCEBreaker: LEDG (idle), LEDR (fault)
  // `serial` (rtl/configs.txt)
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
  parameter int IcLines = 1,
  parameter int LsuIdWidth = 2,
  parameter int GatherDepth = 0,
  parameter int LoadSlots = 0,
  parameter bit SerialSm = 1'b1,
  // 1: the whole device as one program; 0: the hardwired command processor
  // and the thread-serial SM (baresm_top)
  parameter bit Microprogrammed = 1'b1,
  // Microprogrammed: the firmware (fw/dev/dev.hex as scripts/fw-flash-image.sh
  // writes it) is read from the board's SPI flash at 1 MiB into two SPRAMs
  // (baresm_flash_loader); the device memory has the other two: 64 KB
  parameter int MemBytes = Microprogrammed ? 65536 : 131072
) (
  input  logic clk_i,          // 12 MHz
  input  logic btn_ni,         // user button, low = reset
  input  logic uart_rx_i,      // from the host (FTDI TX)
  output logic uart_tx_o,      // to the host (FTDI RX)
  output logic led_idle_o,
  output logic led_busy_o,
  output logic led_fault_o,
  output logic led_link_o,
  // the SPI flash the FPGA configures from (W25Q128), read again for the firmware
  output logic flash_sck_o,
  output logic flash_csn_o,
  output logic flash_mosi_o,   // the flash's IO0
  input  logic flash_miso_i    // its IO1
);

  logic led_idle, led_busy, led_fault, led_error, led_act;

  baresm_fpga_board #(
    .ClockKhz(ClockKhz),
    .Baud(ClockKhz * 1000 / ClkPerBit),
    .MemBytes(MemBytes),
    .ClkPerBit(ClkPerBit),
    .TimeoutCycles(TimeoutCycles),
    .BlockRam(1'b0),  // the UP5K's SPRAM
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
    .SerialSm(SerialSm),
    .Microprogrammed(Microprogrammed),
    .FwFlash(Microprogrammed),
    .IcLines(IcLines),
    .LsuIdWidth(LsuIdWidth),
    .GatherDepth(GatherDepth),
    .LoadSlots(LoadSlots)
  ) u_board (
    .clk_i,
    .btn_ni,
    .uart_rx_i,
    .uart_tx_o,
    .led_idle_o (led_idle),
    .led_busy_o (led_busy),
    .led_fault_o(led_fault),
    .led_error_o(led_error),
    .led_act_o  (led_act),
    .flash_sck_o,
    .flash_csn_o,
    .flash_mosi_o,
    .flash_miso_i
  );

  // STATUS: bit 0 IDLE, 1 BUSY, 2 FAULT (docs/registers.md); link: a frame
  // answered with ERROR in the last 0.35 s.
  assign led_idle_o = led_idle ^ LedActiveLow[0];
  assign led_busy_o = led_busy ^ LedActiveLow[1];
  assign led_fault_o = led_fault ^ LedActiveLow[2];
  assign led_link_o = led_error ^ LedActiveLow[3];

  logic unused;
  assign unused = led_act;

endmodule

`default_nettype wire
