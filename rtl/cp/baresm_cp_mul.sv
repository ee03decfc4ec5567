// baresm_cp_mul: a serial (shift-and-add) multiplier for the command
// processor's checks and its fault report, in place of combinational
// multipliers (19 SB_MAC16 on the iCE40 UP5K, which has 8; docs/fpga.md).
//
// start_i with the operands (a_i, b_i) begins a product; p_o = a_i * b_i,
// truncated to PW bits, is valid while done_o is high, from the cycle after
// the last step until the next start. One bit of the multiplier b per cycle,
// least significant first, stopping as soon as the bits left of b are zero:
// a product takes max(1, bit length of b) cycles after start_i (b = 1: one
// cycle; a 16-bit b: at most 16). A start while busy restarts.
//
// ovf_o (with done_o) says the true product did not fit PW bits: a term
// a * 2^i with b's bit i set reached past PW bits, or a sum carried out.
// The descriptor checks only compare their products against limits, so a
// PW = 33 multiplier with ovf_o decides them exactly (a 64-bit one did
// before).
//
// Timing: start_i at cycle t, done_o from t+L (L = max(1, bits of b)).
`include "baresm_assert.svh"
`default_nettype none

module baresm_cp_mul #(
  parameter int PW = 64,   // product (and multiplicand) width kept
  parameter int BW = 16    // multiplier width
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,
  input  logic [PW-1:0] a_i,
  input  logic [BW-1:0] b_i,
  output logic          done_o,
  output logic [PW-1:0] p_o,
  output logic          ovf_o
);

  logic [PW-1:0] a_q, a_d, acc_q, acc_d;
  logic [BW-1:0] b_q, b_d;
  logic          busy_q, busy_d;
  logic          alost_q, alost_d;   // a's shifted value no longer fits PW bits
  logic          ovf_q, ovf_d;
  logic [PW:0]   sum;
  assign sum = {1'b0, acc_q} + {1'b0, a_q};

  always_comb begin
    a_d = a_q;
    b_d = b_q;
    acc_d = acc_q;
    busy_d = busy_q;
    alost_d = alost_q;
    ovf_d = ovf_q;
    if (start_i) begin
      a_d = a_i;
      b_d = b_i;
      acc_d = '0;
      busy_d = 1'b1;
      alost_d = 1'b0;
      ovf_d = 1'b0;
    end else if (busy_q) begin
      if (b_q[0]) begin
        acc_d = sum[PW-1:0];
        if (alost_q || sum[PW]) ovf_d = 1'b1;
      end
      if (a_q[PW-1]) alost_d = 1'b1;
      a_d = a_q << 1;
      b_d = b_q >> 1;
      busy_d = (b_q >> 1) != '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_q <= '0;
      b_q <= '0;
      acc_q <= '0;
      busy_q <= 1'b0;
      alost_q <= 1'b0;
      ovf_q <= 1'b0;
    end else begin
      a_q <= a_d;
      b_q <= b_d;
      acc_q <= acc_d;
      busy_q <= busy_d;
      alost_q <= alost_d;
      ovf_q <= ovf_d;
    end
  end

  assign done_o = !busy_q;
  assign p_o = acc_q;
  assign ovf_o = ovf_q;

  // Once b is used up the product is complete and stays put until a start.
  `BARESM_ASSERT(a_idle_b_empty, busy_q || b_q == '0)

endmodule

`default_nettype wire
