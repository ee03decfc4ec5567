// A deliberately over-full design for the bigger boards' estimate checks
// (tests/fpga/check_estimate.sh): one RAM of Depth x Width bits with a
// synchronous read and write port. 131072 x 48 = 6 Mbit: more block RAM
// than the XC7A100T's 135 RAMB36 (4,860 Kbit) and the LFE5U-85F's 208 EBR
// (3,744 Kbit), and Yosys maps it in seconds.
`default_nettype none

module fpga_overfull_ram #(
  parameter int Depth = 131072,
  parameter int Width = 48
) (
  input  logic                     clk_i,
  input  logic                     we_i,
  input  logic [$clog2(Depth)-1:0] waddr_i,
  input  logic [Width-1:0]         wdata_i,
  input  logic [$clog2(Depth)-1:0] raddr_i,
  output logic [Width-1:0]         rdata_o
);
  logic [Width-1:0] mem_q [Depth];
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    rdata_o <= mem_q[raddr_i];
  end
endmodule

`default_nettype wire
