// Formal proof: the byte FIFO (baresm_fifo, the UART queues of the narrow
// SM's device, rtl/msm/baresm_mdev_io.sv) at Depth 4, Width 8; every input
// free (pushes when full, pops when empty, resets at any time). The
// properties are in tests/formal/fifo_inner.svh (they need the pointers):
//   - occupancy: the words held (taken in minus taken out, counted at the
//     ports) are count_o plus out_valid_o, never above Depth + 1 in all and
//     count_o never above Depth; in_ready_o is low exactly when the RAM
//     holds Depth words (a push when full is not taken), and a pop when
//     empty takes nothing;
//   - timing as the header says: the output register is loaded on the
//     cycle after the RAM holds a word and the output is empty or taken
//     (a word written into an empty queue shows two cycles later, no
//     bubble behind a taken word);
//   - order (the tracked element): a word taken at any time (the solver
//     picks which) is the one presented at the output after exactly as
//     many pops as words were ahead of it when it went in;
//   - a read never meets the write of the same RAM address.
// The RAM (baresm_ram_1r1w) is the real one, with no assumption on it: the
// induction invariants relate the tracked word to the RAM's array, which the
// proof's Yosys script maps to flip-flops and wires out to the inner file
// (Yosys 0.23 has no hierarchical references).
`default_nettype none

module fv_fifo #(
  parameter int Depth = 4,
  parameter int Width = 8
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             in_valid_i,
  input logic [Width-1:0] in_data_i,
  input logic             out_ready_i
);
  localparam int AddrW = $clog2(Depth);
  logic in_ready_o, out_valid_o;
  logic [Width-1:0] out_data_o;
  logic [AddrW:0] count_o;

  baresm_fifo #(.Depth(Depth), .Width(Width)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
`endif

  logic unused;
  assign unused = ^{in_ready_o, out_valid_o, out_data_o, count_o};
endmodule

`default_nettype wire
