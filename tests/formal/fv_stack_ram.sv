// Formal proof: the RAM-backed reconvergence stack of the 1-lane SM
// (baresm_sm_stacks with NumLanes = 1, one warp slot, Depth 4) against the
// flip-flop version (NumLanes = 32) as the reference, both driven by the
// same init / op inputs. The RAM version's pops take a read of the RAM and a
// branch's second entry a write a cycle later, so it settles later than the
// reference; ops come only when the RAM version is settled (its own
// contract, an assumption inside the module). Properties:
//   - stack_inner.svh on the RAM version (depth bound, overflow flag, depth
//     after each operation, as the flip-flop proof `stack`);
//   - the module's own assertions: no op while an entry is still being
//     written, no read of the entry being written, reads inside the stack;
//   - equivalence: whenever the RAM version is settled, the reference is too,
//     with the same top entry and depth; whenever it is empty, so is the
//     reference (bounded, from reset; masks of 4 lanes, pcs of 32 values).
`default_nettype none

module fv_stack_ram #(
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
  localparam int DW = $clog2(D + 1);
  logic bra_overflow_o, bra_diverge_o, empty_o, settled_o;
  logic [31:0] top_pc_o, top_rpc_o, top_mask_o;
  logic [DW-1:0] depth_o;

  logic init_warp_i, op_warp_i;  // the one warp slot
  assign init_warp_i = 1'b0;
  assign op_warp_i = 1'b0;

  baresm_sm_stacks #(.NumWarps(1), .Depth(D), .NumLanes(1)) dut (.*);

  // The reference: the flip-flop stack, same inputs.
  logic r_overflow, r_diverge, r_empty, r_settled;
  logic [31:0] r_pc, r_rpc, r_mask;
  logic [DW-1:0] r_depth;
  baresm_sm_stacks #(.NumWarps(1), .Depth(D), .NumLanes(32)) ref_stk (
    .clk_i, .rst_ni, .clear_i, .init_i, .init_warp_i, .init_pc_i, .init_mask_i,
    .op_valid_i, .op_warp_i, .op_kind_i, .op_guard_i, .op_target_i, .op_reconv_i,
    .bra_overflow_o(r_overflow), .bra_diverge_o(r_diverge),
    .top_pc_o(r_pc), .top_rpc_o(r_rpc), .top_mask_o(r_mask),
    .empty_o(r_empty), .settled_o(r_settled), .depth_o(r_depth)
  );

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
  always @* assume (!(init_i && op_valid_i));
  // Small data, to keep the bounded depth within reach of z3 with two
  // stacks of 96-bit entries: 4 lanes, and pcs on a 32-instruction grid or
  // PC_NONE. The datapath is bit-parallel (the masks, the compares, the
  // fall-through adder carry through bit 8 when pc = 0xF8); the block
  // test SmStack.RamRandomAgainstModel runs full 32-bit values.
  function automatic logic small_pc(input logic [31:0] pc);
    small_pc = (pc[31:8] == 24'd0 && pc[2:0] == 3'd0) || pc == 32'hFFFF_FFFF;
  endfunction
  always @* begin
    assume (init_mask_i[31:4] == 28'd0);
    assume (small_pc(init_pc_i) && small_pc(op_target_i) && small_pc(op_reconv_i));
  end

  always @* if (rst_ni && settled_o) begin
    assert (r_settled);
    assert (top_pc_o == r_pc && top_rpc_o == r_rpc && top_mask_o == r_mask);
    assert (depth_o == r_depth);
    assert (bra_overflow_o == r_overflow && bra_diverge_o == r_diverge);
  end
  always @* if (rst_ni && empty_o) assert (r_empty);
endmodule

`default_nettype wire
