// baresm_smem: the SM's shared memory, NumBanks banks of 32-bit words.
// Word w of the memory (byte address 4*w) lives in bank w % NumBanks, row
// w / NumBanks. Each bank does one access per cycle: a read (data on
// bank_rdata_o the next cycle, held until the next read of that bank) or a
// byte-masked write. No reset: contents are undefined until written.
`include "baresm_assert.svh"
`default_nettype none

module baresm_smem #(
  parameter int NumBanks    = 32,
  parameter int SharedBytes = 16384,
  parameter int Rows        = SharedBytes / (4 * NumBanks),
  parameter int RowW        = (Rows > 1) ? $clog2(Rows) : 1
) (
  input  logic                     clk_i,
  input  logic [NumBanks-1:0]      bank_en_i,
  input  logic [NumBanks-1:0]      bank_we_i,
  input  logic [NumBanks*RowW-1:0] bank_row_i,
  input  logic [NumBanks*4-1:0]    bank_be_i,
  input  logic [NumBanks*32-1:0]   bank_wdata_i,
  output logic [NumBanks*32-1:0]   bank_rdata_o
);

  for (genvar b = 0; b < NumBanks; b++) begin : g_bank
    logic [RowW-1:0] row;
    assign row = bank_row_i[b*RowW +: RowW];

    // One EBR-style RAM per bank (rtl/prim/baresm_ram_1r1w.sv): a bank makes
    // one access a cycle, so it never reads the word it writes.
    baresm_ram_1r1w #(.Depth(Rows), .Width(32), .MaskW(4), .AddrW(RowW)) u_ram (
      .clk_i,
      .re_i   (bank_en_i[b] && !bank_we_i[b]),
      .raddr_i(row),
      .rdata_o(bank_rdata_o[b*32 +: 32]),
      .we_i   (bank_en_i[b] && bank_we_i[b]),
      .waddr_i(row),
      .wmask_i(bank_be_i[b*4 +: 4]),
      .wdata_i(bank_wdata_i[b*32 +: 32])
    );
    // (The RAM asserts every access is inside it: Rows need not be a power of two.)
  end

endmodule

`default_nettype wire
