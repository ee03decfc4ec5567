// baresm_fpga_link: what every board top has between its pins and the
// device: the reset (a power-on counter, since iCE40 flops start at 0 after
// configuration, and the user button, low when pressed, synchronized to the
// clock) and the host link (baresm_uart_rx/tx, 8N1 at ClkPerBit clocks per
// bit). With FrameBridge = 1 the UART's bytes go through the frame bridge
// baresm_uart_bridge (docs/serial-protocol.md) to the device's register port
// and memory; with FrameBridge = 0 they are the device's own (rx_*, tx_*:
// the whole device as one program frames them in firmware, fw/dev/link.c),
// and the bridge's ports and frame LEDs are unused.
//
//   uart_rx_i -> baresm_uart_rx -> baresm_uart_bridge -> baresm_uart_tx -> uart_tx_o
//                                    | mmio_*, irq_i  | mem_* (bytes)
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_fpga_link #(
  parameter int ClkPerBit = 12,
  parameter int TimeoutCycles = 120000,
  parameter int MemBytes = 131072,
  parameter int LedHoldCycles = 4194303,  // the frame LEDs stay lit this long (0.35 s at 12 MHz)
  parameter bit FrameBridge = 1'b1        // 0: no bridge; the UART's bytes on rx_*/tx_*
) (
  input  logic        clk_i,
  input  logic        btn_ni,
  input  logic        uart_rx_i,
  output logic        uart_tx_o,
  output logic        rst_no,          // the board's reset, synchronous release

  // ---- the device's register port ------------------------------------------------
  output logic        mmio_req_valid_o,
  input  logic        mmio_req_ready_i,
  output logic [9:0]  mmio_req_addr_o,
  output logic        mmio_req_write_o,
  output logic [31:0] mmio_req_wdata_o,
  input  logic        mmio_rsp_valid_i,
  input  logic [31:0] mmio_rsp_rdata_i,
  input  logic        irq_i,

  // ---- device memory, a byte at a time -------------------------------------------
  output baresm_byte_req_t mem_req_o,
  input  logic             mem_req_ready_i,
  input  baresm_byte_rsp_t mem_rsp_i,

  output logic        frame_ok_led_o,  // a frame was executed in the last LedHoldCycles
  output logic        frame_bad_led_o, // a frame was answered with ERROR in the last LedHoldCycles

  // ---- the UART's bytes (FrameBridge = 0) -----------------------------------------
  output logic        rx_valid_o,      // a byte received (one cycle)
  output logic [7:0]  rx_data_o,
  input  logic        tx_valid_i,      // a byte to send, taken when tx_ready_o
  output logic        tx_ready_o,
  input  logic [7:0]  tx_data_i
);

  // ---- reset ----------------------------------------------------------------------------
  logic [3:0] por_q;          // counts up from 0 after configuration
  logic btn_s1_q, btn_s2_q, rst_n_q;
  always_ff @(posedge clk_i) begin
    btn_s1_q <= btn_ni;
    btn_s2_q <= btn_s1_q;
    if (por_q != 4'hF) por_q <= por_q + 4'd1;
    rst_n_q <= (por_q == 4'hF) && btn_s2_q;
  end
  assign rst_no = rst_n_q;

  // ---- UART and bridge --------------------------------------------------------------------
  logic [15:0] frames_ok, frames_bad;   // frames executed, answered with ERROR
  logic rx_valid, rx_ferr, tx_valid, tx_ready;
  logic [7:0] rx_data, tx_data;

  baresm_uart_rx #(.ClkPerBit(ClkPerBit)) u_rx (
    .clk_i,
    .rst_ni     (rst_n_q),
    .rx_i       (uart_rx_i),
    .valid_o    (rx_valid),
    .data_o     (rx_data),
    .frame_err_o(rx_ferr)      // the bridge's frame timeout and CRC catch the byte's loss
  );
  baresm_uart_tx #(.ClkPerBit(ClkPerBit)) u_tx (
    .clk_i,
    .rst_ni (rst_n_q),
    .valid_i(tx_valid),
    .ready_o(tx_ready),
    .data_i (tx_data),
    .tx_o   (uart_tx_o)
  );

  assign rx_valid_o = FrameBridge ? 1'b0 : rx_valid;
  assign rx_data_o = rx_data;
  assign tx_ready_o = FrameBridge ? 1'b0 : tx_ready;

  if (FrameBridge) begin : g_bridge
    baresm_uart_bridge #(
      .MemBytes(MemBytes),
      .TimeoutCycles(TimeoutCycles)
    ) u_bridge (
      .clk_i,
      .rst_ni          (rst_n_q),
      .rx_valid_i      (rx_valid),
      .rx_data_i       (rx_data),
      .tx_valid_o      (tx_valid),
      .tx_ready_i      (tx_ready),
      .tx_data_o       (tx_data),
      .mmio_req_valid_o,
      .mmio_req_ready_i,
      .mmio_req_addr_o,
      .mmio_req_write_o,
      .mmio_req_wdata_o,
      .mmio_rsp_valid_i,
      .mmio_rsp_rdata_i,
      .irq_i,
      .mem_req_o,
      .mem_req_ready_i,
      .mem_rsp_i,
      .frames_ok_o     (frames_ok),
      .frames_bad_o    (frames_bad)
    );

    // ---- frame LEDs: lit LedHoldCycles after the bridge's frame counters move ----
    localparam int HoldW = $clog2(LedHoldCycles + 1);
    logic [15:0] ok_seen_q, bad_seen_q;
    logic [HoldW-1:0] ok_q, bad_q;
    always_ff @(posedge clk_i or negedge rst_no) begin
      if (!rst_no) begin
        ok_q <= '0;
        bad_q <= '0;
        ok_seen_q <= '0;
        bad_seen_q <= '0;
      end else begin
        ok_seen_q <= frames_ok;
        bad_seen_q <= frames_bad;
        if (frames_ok != ok_seen_q) ok_q <= HoldW'(LedHoldCycles);
        else if (ok_q != '0) ok_q <= ok_q - 1'b1;
        if (frames_bad != bad_seen_q) bad_q <= HoldW'(LedHoldCycles);
        else if (bad_q != '0) bad_q <= bad_q - 1'b1;
      end
    end
    assign frame_ok_led_o = ok_q != '0;
    assign frame_bad_led_o = bad_q != '0;
    logic unused_bytes;
    assign unused_bytes = ^{tx_valid_i, tx_data_i};
  end else begin : g_bytes
    // The device frames the bytes itself (and drives its own frame LEDs).
    assign tx_valid = tx_valid_i;
    assign tx_data = tx_data_i;
    assign frames_ok = '0;
    assign frames_bad = '0;
    assign mmio_req_valid_o = 1'b0;
    assign mmio_req_addr_o = '0;
    assign mmio_req_write_o = 1'b0;
    assign mmio_req_wdata_o = '0;
    assign mem_req_o = '0;
    assign frame_ok_led_o = 1'b0;
    assign frame_bad_led_o = 1'b0;
    logic unused_bridge;
    assign unused_bridge = ^{mmio_req_ready_i, mmio_rsp_valid_i, mmio_rsp_rdata_i, irq_i, mem_req_ready_i, mem_rsp_i,
                             frames_ok, frames_bad};
  end

  logic unused;
  assign unused = rx_ferr;

endmodule

`default_nettype wire
