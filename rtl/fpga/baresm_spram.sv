// baresm_spram: single-port synchronous RAM of Depth words of Width bits with
// a write mask per byte, the shape of the iCE40 UP5K's SPRAM (SB_SPRAM256KA:
// 16K x 16, nibble write mask; four side by side make 16K x 64 = 128 KB).
// Written so that Yosys can map it there (`synth_ice40 -spram`); Verilator and
// Icarus simulate an array. One access per cycle: a read (rdata_o shows the
// word on the next cycle and holds it until the next read) or a write.
// No reset and no initial contents.
`include "baresm_assert.svh"
`default_nettype none

module baresm_spram #(
  parameter int Depth = 16384,
  parameter int Width = 64,
  parameter int AddrW = $clog2(Depth)
) (
  input  logic               clk_i,
  input  logic               en_i,
  input  logic               we_i,
  input  logic [AddrW-1:0]   addr_i,
  input  logic [Width/8-1:0] wstrb_i,
  input  logic [Width-1:0]   wdata_i,
  output logic [Width-1:0]   rdata_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (en_i && we_i) begin
      for (int b = 0; b < Width / 8; b++) begin
        if (wstrb_i[b]) mem_q[addr_i][b*8 +: 8] <= wdata_i[b*8 +: 8];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (en_i && !we_i) rdata_q <= mem_q[addr_i];
  end

  assign rdata_o = rdata_q;

endmodule

`default_nettype wire
