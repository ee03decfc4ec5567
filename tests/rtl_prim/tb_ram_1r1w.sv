// Block test of baresm_ram_1r1w (Icarus, ctest rtl_prim_ram_1r1w): random
// reads and masked writes against a reference array, on a byte-masked
// 32-bit RAM whose depth is not a power of two and on a whole-word one.
// Checks: rdata_o shows the word read one cycle later; it holds while
// re_i is low (also across writes to that word); a read of the word
// written in the same cycle returns the old word (read-first).
`timescale 1ns / 1ps
`default_nettype none

module tb_ram_1r1w;
  localparam int Depth = 40;
  localparam int AddrW = 6;

  logic clk = 1'b0;
  always #5 clk = !clk;

  logic re, we;
  logic [AddrW-1:0] raddr, waddr;
  logic [3:0] wmask;
  logic [31:0] wdata, rdata;
  logic [15:0] rdata_w;

  baresm_ram_1r1w #(.Depth(Depth), .Width(32), .MaskW(4)) u_bytes (
    .clk_i(clk), .re_i(re), .raddr_i(raddr), .rdata_o(rdata),
    .we_i(we), .waddr_i(waddr), .wmask_i(wmask), .wdata_i(wdata));
  baresm_ram_1r1w #(.Depth(Depth), .Width(16)) u_words (
    .clk_i(clk), .re_i(re), .raddr_i(raddr), .rdata_o(rdata_w),
    .we_i(we), .waddr_i(waddr), .wmask_i(wmask[0]), .wdata_i(wdata[15:0]));

  logic [31:0] ref_b [Depth];
  logic [15:0] ref_w [Depth];
  logic [31:0] exp_b;
  logic [15:0] exp_w;
  int errors = 0;
  int reads = 0;
  int rdw = 0;

  task automatic step(input logic r, input int ra, input logic w, input int wa,
                      input logic [3:0] m, input logic [31:0] d);
    logic [31:0] old_b;
    logic [15:0] old_w;
    re = r; raddr = AddrW'(ra); we = w; waddr = AddrW'(wa); wmask = m; wdata = d;
    old_b = ref_b[ra];
    old_w = ref_w[ra];
    @(posedge clk);
    #1;
    if (w) begin
      for (int k = 0; k < 4; k++) if (m[k]) ref_b[wa][8*k +: 8] = d[8*k +: 8];
      if (m[0]) ref_w[wa] = d[15:0];
    end
    if (r) begin
      exp_b = old_b;   // read-first: the word before this cycle's write
      exp_w = old_w;
      reads++;
      if (w && ra == wa) rdw++;
    end
    if (rdata !== exp_b || rdata_w !== exp_w) begin
      errors++;
      if (errors < 10)
        $display("FAIL t=%0t re=%b ra=%0d we=%b wa=%0d: rdata %h/%h, expected %h/%h",
                 $time, r, ra, w, wa, rdata, rdata_w, exp_b, exp_w);
    end
  endtask

  int ra, wa;
  initial begin
    re = 0; we = 0; raddr = 0; waddr = 0; wmask = 0; wdata = 0;
    // Fill every word (whole-word writes), then read it back.
    for (int a = 0; a < Depth; a++) step(0, 0, 1, a, 4'hf, 32'h1000_0000 + 32'(a) * 32'h0101_0101);
    for (int a = 0; a < Depth; a++) step(1, a, 0, 0, 4'h0, 32'h0);
    // Read-during-write of the same word: the old word; then the new one.
    step(1, 7, 1, 7, 4'hf, 32'hdead_beef);
    step(1, 7, 0, 0, 4'h0, 32'h0);
    // Held output: no read while the word just read is overwritten.
    step(1, 3, 0, 0, 4'h0, 32'h0);
    step(0, 0, 1, 3, 4'hf, 32'h0bad_f00d);
    step(0, 0, 0, 0, 4'h0, 32'h0);
    // Random traffic, with byte masks.
    for (int i = 0; i < 4000; i++) begin
      ra = $urandom_range(Depth - 1);
      wa = ($urandom_range(3) == 0) ? ra : $urandom_range(Depth - 1);
      step($urandom_range(1), ra, $urandom_range(1), wa, 4'($urandom), $urandom);
    end
    if (errors == 0 && rdw > 0)
      $display("PASS: %0d reads (%0d during a write of the same word)", reads, rdw);
    else
      $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule

`default_nettype wire
