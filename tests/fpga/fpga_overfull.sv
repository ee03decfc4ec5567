// A deliberately over-full design for the FPGA flow's planted-failure tests
// (tests/fpga): N flip-flops, each with an XOR in front, and an XOR of them
// all, so nothing can be optimized away: N = 6000 needs more logic cells than
// the UP5K's 5,280; a small N fits (and, at an absurd --freq, misses timing).
`default_nettype none

module fpga_overfull #(
  parameter int N = 6000
) (
  input  logic clk_i,
  input  logic d_i,
  output logic q_o
);
  logic [N-1:0] s_q;
  always_ff @(posedge clk_i) s_q <= {s_q[N-2:0] ^ s_q[N-1:1], d_i};
  assign q_o = ^s_q;
endmodule

`default_nettype wire
