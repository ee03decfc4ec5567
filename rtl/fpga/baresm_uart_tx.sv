// baresm_uart_tx: UART transmitter, 8N1, ClkPerBit clock cycles per bit.
// valid_i/ready_o: a byte is taken when both are high; ready_o is high only
// while the transmitter is idle (the start bit follows on the next cycle).
// tx_o comes from a flop (idle high).
`include "baresm_assert.svh"
`default_nettype none

module baresm_uart_tx #(
  parameter int ClkPerBit = 12
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  output logic       ready_o,
  input  logic [7:0] data_i,
  output logic       tx_o
);

  localparam int CntW = $clog2(ClkPerBit + 1);
  localparam logic [CntW-1:0] FULL = CntW'(ClkPerBit - 1);

  logic [9:0] shift_q;      // {stop, data, start}, shifted out LSB first
  logic [3:0] bits_q;       // bits left, 0 = idle
  logic [CntW-1:0] cnt_q;
  logic tx_q;

  assign ready_o = (bits_q == 4'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shift_q <= '1;
      bits_q <= '0;
      cnt_q <= '0;
      tx_q <= 1'b1;
    end else if (bits_q == 4'd0) begin
      tx_q <= 1'b1;
      if (valid_i) begin
        shift_q <= {1'b1, data_i, 1'b0};
        bits_q <= 4'd10;
        cnt_q <= '0;
      end
    end else begin
      tx_q <= shift_q[0];
      if (cnt_q == FULL) begin
        cnt_q <= '0;
        shift_q <= {1'b1, shift_q[9:1]};
        bits_q <= bits_q - 4'd1;
      end else begin
        cnt_q <= cnt_q + 1'b1;
      end
    end
  end

  assign tx_o = tx_q;

  `BARESM_ASSERT(a_tx_bits_range, bits_q <= 4'd10)

endmodule

`default_nettype wire
