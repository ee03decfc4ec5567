// baresm_ram_1r1w: a synchronous RAM of Depth words of Width bits, one read
// port and one write port on one clock, written so that Yosys infers iCE40
// EBR (SB_RAM40_4K) and Xilinx block RAM and Verilator simulates a plain
// array.
//   read:  re_i with raddr_i; rdata_o shows the word on the next cycle and
//          holds it until the next read (the output register of the RAM).
//   write: we_i with waddr_i; wmask_i[k] writes bits [k*W/MaskW +: W/MaskW]
//          (MaskW = 1: whole words; MaskW = 4 on a 32-bit word: bytes).
//   read during write of the same address: undefined on the FPGA (the
//          memory carries Yosys' no_rw_check: an iCE40 EBR then needs no
//          bypass flip-flops; without it Yosys adds about Width + AddrW + 10
//          of them to give the old word). Verilator and Icarus return the
//          old word (read-first). Callers must not use the data of such a
//          read (baresm_smem never makes one; baresm_sm_fetch discards it).
// No reset and no initial contents: a word reads undefined (X in Icarus, 0
// in Verilator with --x-initial 0) until written.
`include "baresm_assert.svh"
`default_nettype none

module baresm_ram_1r1w #(
  parameter int Depth = 256,
  parameter int Width = 16,
  parameter int MaskW = 1,          // write-mask bits; Width % MaskW == 0
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [MaskW-1:0] wmask_i,
  input  logic [Width-1:0] wdata_i
);

  localparam int LaneW = Width / MaskW;

  (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      for (int k = 0; k < MaskW; k++) begin
        if (wmask_i[k]) mem_q[waddr_i][k*LaneW +: LaneW] <= wdata_i[k*LaneW +: LaneW];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

  // Depth need not be a power of two: every access inside the memory.
  `BARESM_ASSERT_CLK(a_raddr_in_range, !re_i || 32'(raddr_i) < Depth, clk_i, 1'b1)
  `BARESM_ASSERT_CLK(a_waddr_in_range, !we_i || 32'(waddr_i) < Depth, clk_i, 1'b1)

endmodule

`default_nettype wire
