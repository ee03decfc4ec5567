// baresm_mdev_io: the host side of the whole device as one program
// (baresm_mdev), I/O registers 0x300-0x3FF of contract/msm_io.def. The host
// link is the UART's bytes, each way through a 512-byte FIFO (one iCE40 EBR):
// the firmware (fw/dev/link.c) frames them (docs/serial-protocol.md) and
// answers every register access itself (fw/dev/fwcp.c). The link's LEDs,
// STATUS and the SM's busy output are what the firmware last wrote.
// A read is answered the cycle after it is taken.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mcu_types.svh"

module baresm_mdev_io #(
  parameter int MemBytes = 131072,
  parameter int ClockKhz = 12000,
  parameter int TimeoutCycles = 120000   // the link's partial-frame timeout (UART_RX bit 9)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // ---- the core's bus: the accesses of this block's range ----
  input  baresm_mcu_req_t req_i,
  output baresm_mcu_rsp_t rsp_o,
  // ---- the host link: the UART's bytes ----
  input  logic            rx_valid_i,      // a byte received (dropped when the FIFO is full)
  input  logic [7:0]      rx_data_i,
  output logic            tx_valid_o,      // a byte to send
  input  logic            tx_ready_i,
  output logic [7:0]      tx_data_o,
  output logic [1:0]      link_led_o,      // [0] frames executed, [1] a frame answered with ERROR
  output logic [31:0]     status_o,
  output logic            busy_o           // a launch runs
);

  logic [15:0] off;
  logic rd, wr;
  assign off = {req_i.addr[13:0], 2'b00};
  assign rd = req_i.valid && !req_i.we;
  assign wr = req_i.valid && req_i.we;
  function automatic logic is_w(input logic [15:0] o, input logic [15:0] r);
    is_w = wr && o == r;
  endfunction

  // ---- the UART's FIFOs ---------------------------------------------------------------------------
  logic rx_ready_unused, rx_has, tx_in_ready_unused;
  logic [7:0] rx_byte;
  logic [9:0] rx_count_unused, tx_count;
  baresm_fifo #(.Depth(512), .Width(8)) u_rx_fifo (
    .clk_i, .rst_ni,
    .in_valid_i (rx_valid_i),
    .in_ready_o (rx_ready_unused),
    .in_data_i  (rx_data_i),
    .out_valid_o(rx_has),
    .out_ready_i(rd && off == baresm_msm_io_pkg::IO_UART_RX),   // the read takes the byte
    .out_data_o (rx_byte),
    .count_o    (rx_count_unused)
  );
  baresm_fifo #(.Depth(512), .Width(8)) u_tx_fifo (
    .clk_i, .rst_ni,
    .in_valid_i (is_w(off, baresm_msm_io_pkg::IO_UART_TX)),
    .in_ready_o (tx_in_ready_unused),
    .in_data_i  (req_i.wdata[7:0]),
    .out_valid_o(tx_valid_o),
    .out_ready_i(tx_ready_i),
    .out_data_o (tx_data_o),
    .count_o    (tx_count)
  );

  // The line has been quiet for TimeoutCycles (no byte received): a partial
  // frame ends (fw/dev/link.c answers it with ERROR TIMEOUT).
  localparam int QuietW = $clog2(TimeoutCycles + 1);
  logic [QuietW-1:0] quiet_q;
  logic quiet;
  assign quiet = quiet_q == QuietW'(TimeoutCycles);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) quiet_q <= '0;
    else if (rx_valid_i) quiet_q <= '0;
    else if (!quiet) quiet_q <= quiet_q + 1'b1;
  end

  // ---- outputs the firmware writes ---------------------------------------------------------------
  logic busy_q;
  logic [1:0] led_q;
  logic [31:0] status_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      led_q <= 2'd0;
      status_q <= 32'd0;
      busy_q <= 1'b0;
    end else begin
      if (is_w(off, baresm_msm_io_pkg::IO_LINK_LED)) led_q <= req_i.wdata[1:0];
      if (is_w(off, baresm_msm_io_pkg::IO_STATUS)) status_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_RUN)) busy_q <= req_i.wdata[0];
    end
  end
  assign link_led_o = led_q;
  assign status_o = status_q;
  assign busy_o = busy_q;

  // ---- read answers -------------------------------------------------------------------------------
  logic [31:0] reg_rdata, rdata_q;
  logic rvalid_q;
  always_comb begin
    reg_rdata = '0;
    unique case (off)
      baresm_msm_io_pkg::IO_UART_RX: reg_rdata = {22'd0, quiet, rx_has, rx_byte};
      baresm_msm_io_pkg::IO_UART_TX: reg_rdata = {15'd0, tx_valid_o, 6'd0, tx_count};
      baresm_msm_io_pkg::IO_MEM_BYTES: reg_rdata = 32'(MemBytes);
      baresm_msm_io_pkg::IO_CLOCK_KHZ: reg_rdata = 32'(ClockKhz);
      default: ;
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rvalid_q <= 1'b0;
    else rvalid_q <= rd;
  end
  always_ff @(posedge clk_i) begin
    if (rd) rdata_q <= reg_rdata;
  end
  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rdata_q;

  logic unused;
  assign unused = ^{req_i.strb, rx_ready_unused, tx_in_ready_unused, rx_count_unused};

endmodule

`default_nettype wire
