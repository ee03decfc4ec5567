// A small hierarchy for scripts/fpga.sh --hier (tests/fpga/check_estimate.sh
// hier): fpga_hier_leaf (an 8-bit register and a 512 x 16 RAM) four times
// under two fpga_hier_mid, and once more with Width 16 under the top. The
// hierarchical estimate must count every instance: 4 x 8 + 16 = 48
// flip-flops of the registers, and 5 RAMs (each a RAMB18 / a DP16KD); its
// per-module table lists the leaf with 4 instances.
`default_nettype none

module fpga_hier_leaf #(
  parameter int Width = 8
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [8:0]       addr_i,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o,
  output logic [15:0]      rdata_o
);
  logic [15:0] mem_q [512];
  always_ff @(posedge clk_i) begin
    q_o <= q_o ^ d_i;
    if (we_i) mem_q[addr_i] <= {d_i[7:0], q_o[7:0]};
    rdata_o <= mem_q[addr_i];
  end
endmodule

module fpga_hier_mid (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic [8:0]  addr_i,
  input  logic [7:0]  d_i,
  output logic [7:0]  q_o,
  output logic [31:0] rdata_o
);
  logic [7:0] t;
  fpga_hier_leaf u_a (.clk_i, .we_i, .addr_i, .d_i, .q_o(t), .rdata_o(rdata_o[15:0]));
  fpga_hier_leaf u_b (.clk_i, .we_i, .addr_i, .d_i(t), .q_o, .rdata_o(rdata_o[31:16]));
endmodule

module fpga_hier (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic [8:0]  addr_i,
  input  logic [7:0]  d_i,
  output logic [7:0]  q_o,
  output logic [15:0] w_o,
  output logic [79:0] rdata_o
);
  logic [7:0] t;
  fpga_hier_mid u_m0 (.clk_i, .we_i, .addr_i, .d_i, .q_o(t), .rdata_o(rdata_o[31:0]));
  fpga_hier_mid u_m1 (.clk_i, .we_i, .addr_i, .d_i(t), .q_o, .rdata_o(rdata_o[63:32]));
  fpga_hier_leaf #(.Width(16)) u_w (.clk_i, .we_i, .addr_i, .d_i({d_i, t}), .q_o(w_o), .rdata_o(rdata_o[79:64]));
endmodule

`default_nettype wire
