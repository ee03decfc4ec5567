// A deliberately over-full design for the FPGA flow's planted-failure tests
// (tests/fpga): N flip-flops in a chain, each with an XOR of its neighbours in
// front, so nothing can be optimized away (every bit reaches q_o): N = 5600
// needs more LUT4 and flip-flops than the UP5K's 5,280 logic cells; a small N
// fits (and, at an absurd --freq, misses timing).
`default_nettype none

module fpga_overfull #(
  parameter int N = 5600
) (
  input  logic clk_i,
  input  logic d_i,
  output logic q_o
);
  logic [N-1:0] s_q;
  always_ff @(posedge clk_i) s_q <= {s_q[N-2:0] ^ s_q[N-1:1], d_i};
  assign q_o = s_q[N-1];
endmodule

`default_nettype wire
