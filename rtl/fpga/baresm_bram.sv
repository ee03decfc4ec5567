// baresm_bram: a single-port synchronous RAM of Depth words of Width bits
// with a write mask per byte, written as a plain array so that every FPGA
// tool infers its block RAM from it: Vivado and Yosys `synth_xilinx`
// (Artix-7 RAMB36E1/RAMB18E1), Yosys `synth_ecp5` and nextpnr-ecp5 (ECP5
// DP16KD, 18 Kbit), Yosys `synth_ice40` (SB_RAM40_4K). Verilator and
// Icarus simulate the array. The device memory of the board tops that have
// no SPRAM (baresm_fpga_mem with BlockRam = 1: Arty A7, ULX3S).
//
// The same behaviour as baresm_spram, so baresm_fpga_mem cannot tell them
// apart: one access per cycle, a read (en_i, !we_i: rdata_o shows the word
// on the next cycle and holds it until the next read) or a write (en_i,
// we_i, the bytes whose wstrb_i bit is set). A write leaves rdata_o as it
// was: the block RAMs' "no change" write mode (Xilinx WRITE_MODE NO_CHANGE,
// ECP5 WRITEMODE NORMAL), so no bypass logic is needed. No reset and no
// initial contents.
//
// The array carries ram_style = "block" (read by Vivado and by Yosys'
// memory_libmap), so a small instance is not moved to LUT RAM.
`include "baresm_assert.svh"
`default_nettype none

module baresm_bram #(
  parameter int Depth = 32768,
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

  (* ram_style = "block" *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  // One process for both directions: the shape Vivado's templates for a
  // byte-write, no-change single-port RAM use.
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      if (we_i) begin
        for (int b = 0; b < Width / 8; b++) begin
          if (wstrb_i[b]) mem_q[addr_i][b*8 +: 8] <= wdata_i[b*8 +: 8];
        end
      end else begin
        rdata_q <= mem_q[addr_i];
      end
    end
  end

  assign rdata_o = rdata_q;

  // Depth need not be a power of two: every access inside the memory.
  `BARESM_ASSERT_CLK(a_addr_in_range, !en_i || 32'(addr_i) < Depth, clk_i, 1'b1)

endmodule

`default_nettype wire
