// Formal proof: a reconvergence stack (baresm_sm_stacks, one warp slot) with
// Depth 4.
// Every input is free except: init and an issued op never in the same cycle
// (the issue stage's contract, docs/isa.md "SIMT execution"). Properties:
// stack_inner.svh, included into a copy of the module.
`default_nettype none

module fv_stack #(
  parameter int D = 4
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        clear_i,
  input logic        init_i,
  input logic [31:0] init_pc_i,
  input logic [31:0] init_mask_i,
  input logic        op_valid_i,
  input logic [1:0]  op_kind_i,
  input logic [31:0] op_guard_i,
  input logic [31:0] op_target_i,
  input logic [31:0] op_reconv_i
);
  logic bra_overflow_o, bra_diverge_o, empty_o, settled_o;
  logic [31:0] top_pc_o, top_rpc_o, top_mask_o;
  logic [$clog2(D+1)-1:0] depth_o;

  logic init_warp_i, op_warp_i;  // the one warp slot
  assign init_warp_i = 1'b0;
  assign op_warp_i = 1'b0;

  baresm_sm_stacks #(.NumWarps(1), .Depth(D)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
  always @* assume (!(init_i && op_valid_i));
endmodule

`default_nettype wire
