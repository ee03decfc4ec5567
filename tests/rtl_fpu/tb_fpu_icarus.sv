// Icarus testbench of baresm_fpu: streams the vectors written by
// fpu_vectors (+vectors=<file> +n=<count>) back to back, one per cycle, and
// checks every result and its timing (exactly Latency cycles). Prints PASS
// when every vector came out right. Not synthesizable; Icarus only.
`timescale 1ns/1ps
`default_nettype none

module tb_fpu_icarus;
  parameter int Latency = 3;
  localparam int MaxVectors = 100000;

  logic        clk = 1'b0;
  logic        rst_n = 1'b0;
  logic        in_valid = 1'b0;
  logic [6:0]  op = '0;
  logic [7:0]  mod = '0;
  logic [31:0] a = '0, b = '0, c = '0;
  logic        out_valid, cmp;
  logic [31:0] result;

  logic [147:0] vec [0:MaxVectors-1];
  integer n, issued, checked, bad, cycle;
  integer issue_cycle [0:MaxVectors-1];
  reg [8*256-1:0] fname;

  baresm_fpu #(.Latency(Latency)) dut (
    .clk_i(clk), .rst_ni(rst_n), .in_valid_i(in_valid), .op_i(op), .mod_i(mod),
    .a_i(a), .b_i(b), .c_i(c), .out_valid_o(out_valid), .result_o(result), .cmp_o(cmp));

  always #5 clk = ~clk;

  // Inputs change on the falling edge, outputs are sampled after the rising one.
  initial begin
    if (!$value$plusargs("vectors=%s", fname)) $fatal(1, "+vectors=<file> missing");
    if (!$value$plusargs("n=%d", n)) $fatal(1, "+n=<count> missing");
    if (n > MaxVectors) $fatal(1, "too many vectors");
    $readmemh(fname, vec, 0, n - 1);
    issued = 0; checked = 0; bad = 0; cycle = 0;
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    while (issued < n) begin
      @(negedge clk);
      in_valid = 1'b1;
      op  = vec[issued][146:140];
      mod = vec[issued][139:132];
      a   = vec[issued][131:100];
      b   = vec[issued][99:68];
      c   = vec[issued][67:36];
      issue_cycle[issued] = cycle;
      issued = issued + 1;
    end
    @(negedge clk);
    in_valid = 1'b0;
    repeat (Latency + 2) @(negedge clk);
    if (bad == 0 && checked == n) $display("PASS %0d vectors, Latency %0d", n, Latency);
    else $display("FAIL %0d of %0d checked vectors wrong, %0d expected", bad, checked, n);
    $finish;
  end

  always @(posedge clk) begin
    #1;
    if (rst_n) begin
      if (out_valid) begin
        if (checked >= issued || cycle != issue_cycle[checked] + Latency - 1) begin
          bad = bad + 1;
          if (bad <= 5) $display("cycle %0d: out_valid_o at the wrong time", cycle);
        end else if (result !== vec[checked][35:4] || cmp !== vec[checked][0]) begin
          bad = bad + 1;
          if (bad <= 5)
            $display("vector %0d (%h): result %h cmp %b, want %h %b", checked,
                     vec[checked][147:36], result, cmp, vec[checked][35:4], vec[checked][0]);
        end
        checked = checked + 1;
      end
      cycle = cycle + 1;
    end
  end
endmodule

`default_nettype wire
