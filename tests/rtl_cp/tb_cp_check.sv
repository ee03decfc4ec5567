// Block test of the command processor's serial-multiplier blocks (Icarus,
// ctest rtl_cp_check):
//   - baresm_cp_check against tb_cp_check_ref (the combinational checks it
//     replaced): random descriptors built to reach every DCHK verdict (the
//     products near their limits: CTAs around 2^32, threads around the
//     block limit, registers around the register file), each started as
//     the CP starts it; the verdict and the marker flag must equal the
//     reference's once valid_o rises, within the documented latency;
//   - baresm_cp_fault_cta against cta_x + cta_y * grid_x + cta_z * grid_x *
//     grid_y mod 2^32, random and extreme operands, with req_i dropped early
//     now and then (the next request must still be right).
// Prints PASS: with the counts, FAIL: on the first mismatch.
`timescale 1ns / 1ps
`default_nettype none

module tb_cp_check;
  localparam int NumWarps = 16;
  localparam int MaxRegs = 63;
  localparam int SharedBytes = 2048;
  localparam int RegfileRegs = 16384;
  localparam int MaxWindows = 4;
  localparam int MemBytes = 131072;

  logic clk = 1'b0;
  always #5 clk = !clk;
  logic rst_n;

  logic [511:0] desc;
  logic         start, valid, marker, ref_marker;
  logic [3:0]   chk, ref_chk;
  baresm_cp_check #(
    .NumWarps(NumWarps), .MaxRegs(MaxRegs), .SharedBytes(SharedBytes),
    .RegfileRegs(RegfileRegs), .MaxWindows(MaxWindows), .MemBytes(MemBytes)
  ) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start), .desc_i(desc),
    .valid_o(valid), .marker_o(marker), .check_o(chk));
  tb_cp_check_ref #(
    .NumWarps(NumWarps), .MaxRegs(MaxRegs), .SharedBytes(SharedBytes),
    .RegfileRegs(RegfileRegs), .MaxWindows(MaxWindows), .MemBytes(MemBytes)
  ) ref_chk_u (.desc_i(desc), .marker_o(ref_marker), .check_o(ref_chk));

  logic        req, fdone;
  logic [31:0] cx, cy, cz, gx, gy, fcta;
  baresm_cp_fault_cta u_fcta (
    .clk_i(clk), .rst_ni(rst_n), .req_i(req), .cta_x_i(cx), .cta_y_i(cy),
    .cta_z_i(cz), .grid_x_i(gx), .grid_y_i(gy), .done_o(fdone), .cta_o(fcta));

  int errors = 0;
  int seen [16];
  int n_fc = 0;

  // A random value of about `bits` significant bits, now and then an edge.
  function automatic logic [31:0] rnd(input int bits);
    logic [31:0] v;
    int k;
    k = $urandom % 8;
    v = $urandom;
    if (bits < 32) v = v & ((32'd1 << bits) - 32'd1);
    if (k == 0) v = 32'd0;
    else if (k == 1) v = 32'd1;
    else if (k == 2) v = (bits < 32) ? ((32'd1 << bits) - 32'd1) : 32'hFFFF_FFFF;
    rnd = v;
  endfunction

  task automatic one_desc;
    int shape, cycles;
    desc = {$urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom,
            $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom};
    shape = $urandom % 16;
    if (shape != 0) begin   // a plausible descriptor; shape 0 stays random
      desc[baresm_ring_pkg::DESC_MAGIC_LSB +: 16] = 16'(baresm_ring_pkg::DESC_MAGIC);
      desc[baresm_ring_pkg::DESC_VERSION_LSB +: 8] = 8'(baresm_ring_pkg::DESC_VERSION);
      desc[baresm_ring_pkg::DESC_RESERVED_LSB +: 32] = (shape == 1) ? 32'd1 : 32'd0;
      desc[baresm_ring_pkg::DESC_FLAGS_LSB +: 8] = (shape == 2) ? 8'd1 : (shape == 3) ? 8'd2 : 8'd0;
      desc[baresm_ring_pkg::DESC_GRID_X_LSB +: 32] = (shape == 4) ? rnd(32) : rnd(1 + $urandom % 20);
      desc[baresm_ring_pkg::DESC_GRID_Y_LSB +: 16] = 16'(rnd(1 + $urandom % 16));
      desc[baresm_ring_pkg::DESC_GRID_Z_LSB +: 16] = 16'(rnd(1 + $urandom % 16));
      desc[baresm_ring_pkg::DESC_BLOCK_X_LSB +: 16] = 16'(rnd(1 + $urandom % 8));
      desc[baresm_ring_pkg::DESC_BLOCK_Y_LSB +: 16] = 16'(rnd(1 + $urandom % ((shape == 5) ? 16 : 3)));
      desc[baresm_ring_pkg::DESC_BLOCK_Z_LSB +: 16] = 16'(rnd(1 + $urandom % ((shape == 6) ? 16 : 2)));
      desc[baresm_ring_pkg::DESC_REGS_LSB +: 8] = 8'(rnd(1 + $urandom % ((shape == 7) ? 8 : 5)));
      desc[baresm_ring_pkg::DESC_SHARED_BYTES_LSB +: 32] = rnd(1 + $urandom % 12);
      desc[baresm_ring_pkg::DESC_CODE_BASE_LSB +: 32] = rnd(17) & ~32'd7;
      desc[baresm_ring_pkg::DESC_CODE_SIZE_LSB +: 32] = rnd(14) & ~32'd7;
      desc[baresm_ring_pkg::DESC_ENTRY_PC_LSB +: 32] =
        desc[baresm_ring_pkg::DESC_CODE_BASE_LSB +: 32] + (rnd(4) & ~32'd7);
      desc[baresm_ring_pkg::DESC_PARAM_ADDR_LSB +: 32] = rnd(17);
      desc[baresm_ring_pkg::DESC_PARAM_SIZE_LSB +: 32] = rnd(10);
      desc[baresm_ring_pkg::DESC_WINDOW_COUNT_LSB +: 8] = 8'(rnd(3));
      desc[baresm_ring_pkg::DESC_WINDOW_TABLE_LSB +: 32] = rnd(17) & ~32'd7;
      if (shape == 8) begin   // near the register file's limit
        desc[baresm_ring_pkg::DESC_BLOCK_X_LSB +: 16] = 16'(200 + $urandom % 320);
        desc[baresm_ring_pkg::DESC_BLOCK_Y_LSB +: 16] = 16'd1;
        desc[baresm_ring_pkg::DESC_BLOCK_Z_LSB +: 16] = 16'd1;
        desc[baresm_ring_pkg::DESC_REGS_LSB +: 8] = 8'(20 + $urandom % 44);
        desc[baresm_ring_pkg::DESC_SHARED_BYTES_LSB +: 32] = 32'd0;
      end
      if (shape == 9) desc[baresm_ring_pkg::DESC_VERSION_LSB +: 8] = 8'($urandom);
      if (shape == 10) desc[baresm_ring_pkg::DESC_ENTRY_PC_LSB +: 32] = rnd(18) & ~32'd3;
    end
    start = 1'b1;   // as the CP: start in the cycle the descriptor is written
    @(posedge clk);
    #1 start = 1'b0;
    cycles = 0;
    while (!valid) begin
      @(posedge clk);
      #1 cycles++;
      if (cycles > 80) begin
        $display("FAIL: no verdict after 80 cycles");
        $finish;
      end
    end
    seen[ref_chk]++;
    if (chk !== ref_chk || marker !== ref_marker) begin
      errors++;
      $display("FAIL: descriptor %h: check %0d marker %0d, reference %0d %0d",
               desc, chk, marker, ref_chk, ref_marker);
    end
  endtask

  task automatic one_fcta;
    logic [31:0] want;
    int cycles, drop;
    cx = rnd(1 + $urandom % 32);
    cy = rnd(1 + $urandom % 32);
    cz = rnd(1 + $urandom % 32);
    gx = rnd(1 + $urandom % 32);
    gy = rnd(1 + $urandom % 16);
    want = cx + cy * gx + cz * gx * gy;
    drop = (($urandom % 4) == 0) ? 1 + $urandom % 4 : 0;
    req = 1'b1;
    cycles = 0;
    @(posedge clk);
    #1;
    while (!fdone) begin
      if (drop != 0 && cycles == drop) begin   // abandoned, then asked again
        req = 1'b0;
        @(posedge clk);
        #1 req = 1'b1;
        drop = 0;
        cycles = 0;
      end
      @(posedge clk);
      #1 cycles++;
      if (cycles > 70) begin
        $display("FAIL: no fault CTA after 70 cycles");
        $finish;
      end
    end
    n_fc++;
    if (fcta !== want) begin
      errors++;
      $display("FAIL: fault CTA (%0d,%0d,%0d) grid %0dx%0d: %0d, want %0d", cx, cy, cz, gx, gy, fcta, want);
    end
    @(posedge clk);
    #1 req = 1'b0;
    @(posedge clk);
    #1;
  endtask

  initial begin
    rst_n = 1'b0;
    start = 1'b0;
    req = 1'b0;
    desc = '0;
    {cx, cy, cz, gx, gy} = '0;
    for (int i = 0; i < 16; i++) seen[i] = 0;
    repeat (2) @(posedge clk);
    #1 rst_n = 1'b1;
    for (int i = 0; i < 4000; i++) one_desc();
    for (int i = 0; i < 2000; i++) one_fcta();
    // Every verdict up to DCHK_WINDOW_TABLE reached (DCHK_WINDOW_RANGE is
    // the CP's, from memory).
    for (int i = 0; i <= 13; i++) begin
      if (seen[i] == 0) begin
        errors++;
        $display("FAIL: verdict %0d never reached", i);
      end
    end
    if (errors == 0) begin
      $write("PASS: %0d descriptors, verdicts", 4000);
      for (int i = 0; i <= 13; i++) $write(" %0d", seen[i]);
      $display("; %0d fault CTAs", n_fc);
    end
    $finish;
  end
endmodule

`default_nettype wire
