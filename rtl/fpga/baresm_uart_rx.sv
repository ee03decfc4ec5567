// baresm_uart_rx: UART receiver, 8N1, ClkPerBit clock cycles per bit.
// The rx pin goes through a 2-flop synchronizer (it is asynchronous to
// clk_i). A start bit is a falling edge still low half a bit later (shorter
// glitches are ignored); each data bit and the stop bit are sampled in the
// middle of their bit time. A byte whose stop bit is low is dropped
// (frame_err_o pulses) and the receiver waits for the line to go idle
// (high) before it looks for the next start bit.
//   valid_o   one-cycle pulse with data_o, in the middle of the stop bit
`include "baresm_assert.svh"
`default_nettype none

module baresm_uart_rx #(
  parameter int ClkPerBit = 12   // at least 4
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,          // the pin (idle high)
  output logic       valid_o,
  output logic [7:0] data_o,
  output logic       frame_err_o
);

  localparam int CntW = $clog2(ClkPerBit + 1);
  typedef enum logic [2:0] {R_IDLE, R_START, R_DATA, R_STOP, R_BREAK} state_e;

  logic       sync1_q, sync2_q;
  state_e     state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [2:0] bit_q, bit_d;
  logic [7:0] shift_q, shift_d;
  logic       valid_d, ferr_d;
  logic       valid_q, ferr_q;

  localparam logic [CntW-1:0] HALF = CntW'(ClkPerBit / 2 - 1);
  localparam logic [CntW-1:0] FULL = CntW'(ClkPerBit - 1);

  always_comb begin
    state_d = state_q;
    cnt_d = cnt_q;
    bit_d = bit_q;
    shift_d = shift_q;
    valid_d = 1'b0;
    ferr_d = 1'b0;
    unique case (state_q)
      R_IDLE: begin
        cnt_d = '0;
        if (!sync2_q) state_d = R_START;
      end
      R_START: begin
        if (cnt_q == HALF) begin
          cnt_d = '0;
          bit_d = '0;
          if (sync2_q) state_d = R_IDLE;  // a glitch, not a start bit
          else state_d = R_DATA;
        end else begin
          cnt_d = cnt_q + 1'b1;
        end
      end
      R_DATA: begin
        if (cnt_q == FULL) begin
          cnt_d = '0;
          shift_d = {sync2_q, shift_q[7:1]};  // LSB first
          bit_d = bit_q + 1'b1;
          if (bit_q == 3'd7) state_d = R_STOP;
        end else begin
          cnt_d = cnt_q + 1'b1;
        end
      end
      R_STOP: begin
        if (cnt_q == FULL) begin
          cnt_d = '0;
          if (sync2_q) begin
            valid_d = 1'b1;
            state_d = R_IDLE;
          end else begin
            ferr_d = 1'b1;
            state_d = R_BREAK;
          end
        end else begin
          cnt_d = cnt_q + 1'b1;
        end
      end
      R_BREAK: if (sync2_q) state_d = R_IDLE;
      default: state_d = R_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync1_q <= 1'b1;
      sync2_q <= 1'b1;
      state_q <= R_IDLE;
      cnt_q <= '0;
      bit_q <= '0;
      shift_q <= '0;
      valid_q <= 1'b0;
      ferr_q <= 1'b0;
    end else begin
      sync1_q <= rx_i;
      sync2_q <= sync1_q;
      state_q <= state_d;
      cnt_q <= cnt_d;
      bit_q <= bit_d;
      shift_q <= shift_d;
      valid_q <= valid_d;
      ferr_q <= ferr_d;
    end
  end

  assign valid_o = valid_q;
  assign data_o = shift_q;
  assign frame_err_o = ferr_q;

  `BARESM_ASSERT(a_rx_valid_pulse_excl, !(valid_q && ferr_q))
  `BARESM_ASSERT_PULSE(a_rx_valid_pulse, valid_q)

endmodule

`default_nettype wire
