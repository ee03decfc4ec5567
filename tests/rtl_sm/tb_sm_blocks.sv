// Block-test top: the warp scheduler, the barrier unit, one reconvergence
// stack in flip-flops (the wide SMs') and two warp slots of the RAM-backed
// stacks (NumLanes = 1) side by side, every port brought out, so one small
// verilated build serves all the block tests (test_rtl_sm_blocks.cpp).
`default_nettype none

module tb_sm_blocks #(
  parameter int NumWarps = 8,
  parameter int CtaSlots = 2,
  parameter int StarveLimit = 12,
  parameter int StackDepth = 4,
  parameter int WarpW = $clog2(NumWarps),
  parameter int CtaW = $clog2(CtaSlots),
  parameter int DepthW = $clog2(StackDepth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // scheduler
  input  logic                     s_clear_i,
  input  logic                     s_gto_i,
  input  logic [NumWarps-1:0]      s_start_i,
  input  logic [NumWarps-1:0]      s_ready_i,
  output logic                     s_grant_valid_o,
  output logic [WarpW-1:0]         s_grant_o,

  // barrier unit
  input  logic                     b_clear_i,
  input  logic                     b_arrive_i,
  input  logic [WarpW-1:0]         b_arrive_warp_i,
  input  logic [3:0]               b_arrive_id_i,
  input  logic [15:0]              b_arrive_count_i,
  input  logic [31:0]              b_arrive_pc_i,
  input  logic [NumWarps*CtaW-1:0] b_warp_cta_i,
  input  logic [NumWarps-1:0]      b_warp_live_i,
  input  logic [CtaSlots-1:0]      b_cta_run_i,
  output logic [NumWarps-1:0]      b_waiting_o,
  output logic [NumWarps-1:0]      b_release_o,
  output logic                     b_deadlock_o,
  output logic [CtaW-1:0]          b_deadlock_cta_o,
  output logic [NumWarps-1:0]      b_deadlock_warps_o,
  output logic [NumWarps*32-1:0]   b_bar_pc_o,

  // reconvergence stack
  input  logic                     k_clear_i,
  input  logic                     k_init_i,
  input  logic [31:0]              k_init_pc_i,
  input  logic [31:0]              k_init_mask_i,
  input  logic                     k_op_valid_i,
  input  logic [1:0]               k_op_kind_i,
  input  logic [31:0]              k_op_guard_i,
  input  logic [31:0]              k_op_target_i,
  input  logic [31:0]              k_op_reconv_i,
  output logic                     k_bra_overflow_o,
  output logic                     k_bra_diverge_o,
  output logic [31:0]              k_top_pc_o,
  output logic [31:0]              k_top_rpc_o,
  output logic [31:0]              k_top_mask_o,
  output logic                     k_empty_o,
  output logic                     k_settled_o,
  output logic [DepthW-1:0]        k_depth_o,

  // reconvergence stacks in RAM (NumLanes = 1), two warp slots
  input  logic                     r_clear_i,
  input  logic                     r_init_i,
  input  logic                     r_init_warp_i,
  input  logic [31:0]              r_init_pc_i,
  input  logic [31:0]              r_init_mask_i,
  input  logic                     r_op_valid_i,
  input  logic                     r_op_warp_i,
  input  logic [1:0]               r_op_kind_i,
  input  logic [31:0]              r_op_guard_i,
  input  logic [31:0]              r_op_target_i,
  input  logic [31:0]              r_op_reconv_i,
  output logic                     r_bra_overflow_o,
  output logic                     r_bra_diverge_o,
  output logic [63:0]              r_top_pc_o,
  output logic [63:0]              r_top_rpc_o,
  output logic [63:0]              r_top_mask_o,
  output logic [1:0]               r_empty_o,
  output logic [1:0]               r_settled_o,
  output logic [2*DepthW-1:0]      r_depth_o
);

  baresm_sm_sched #(
    .NumWarps(NumWarps),
    .StarveLimit(StarveLimit)
  ) u_sched (
    .clk_i,
    .rst_ni,
    .clear_i      (s_clear_i),
    .policy_gto_i (s_gto_i),
    .start_i      (s_start_i),
    .ready_i      (s_ready_i),
    .grant_valid_o(s_grant_valid_o),
    .grant_o      (s_grant_o)
  );

  logic b_release_any;
  baresm_sm_barrier #(
    .NumWarps(NumWarps),
    .CtaSlots(CtaSlots)
  ) u_barrier (
    .clk_i,
    .rst_ni,
    .clear_i         (b_clear_i),
    .arrive_i        (b_arrive_i),
    .arrive_warp_i   (b_arrive_warp_i),
    .arrive_id_i     (b_arrive_id_i),
    .arrive_count_i  (b_arrive_count_i),
    .arrive_pc_i     (b_arrive_pc_i),
    .warp_cta_i      (b_warp_cta_i),
    .warp_live_i     (b_warp_live_i),
    .cta_run_i       (b_cta_run_i),
    .waiting_o       (b_waiting_o),
    .release_o       (b_release_o),
    .release_any_o   (b_release_any),
    .deadlock_o      (b_deadlock_o),
    .deadlock_cta_o  (b_deadlock_cta_o),
    .deadlock_warps_o(b_deadlock_warps_o),
    .bar_pc_o        (b_bar_pc_o)
  );

  // One warp slot's stack (the SM's lockstep tests cover several).
  baresm_sm_stacks #(
    .NumWarps(1),
    .Depth   (StackDepth)
  ) u_stack (
    .clk_i,
    .rst_ni,
    .clear_i       (k_clear_i),
    .init_i        (k_init_i),
    .init_warp_i   (1'b0),
    .init_pc_i     (k_init_pc_i),
    .init_mask_i   (k_init_mask_i),
    .op_valid_i    (k_op_valid_i),
    .op_warp_i     (1'b0),
    .op_kind_i     (k_op_kind_i),
    .op_guard_i    (k_op_guard_i),
    .op_target_i   (k_op_target_i),
    .op_reconv_i   (k_op_reconv_i),
    .bra_overflow_o(k_bra_overflow_o),
    .bra_diverge_o (k_bra_diverge_o),
    .top_pc_o      (k_top_pc_o),
    .top_rpc_o     (k_top_rpc_o),
    .top_mask_o    (k_top_mask_o),
    .empty_o       (k_empty_o),
    .settled_o     (k_settled_o),
    .depth_o       (k_depth_o)
  );

  // Two warp slots of the RAM-backed stacks: pops of both compete for the
  // read port, a branch's second entry for the write port.
  baresm_sm_stacks #(
    .NumWarps(2),
    .Depth   (StackDepth),
    .NumLanes(1)
  ) u_stack_ram (
    .clk_i,
    .rst_ni,
    .clear_i       (r_clear_i),
    .init_i        (r_init_i),
    .init_warp_i   (r_init_warp_i),
    .init_pc_i     (r_init_pc_i),
    .init_mask_i   (r_init_mask_i),
    .op_valid_i    (r_op_valid_i),
    .op_warp_i     (r_op_warp_i),
    .op_kind_i     (r_op_kind_i),
    .op_guard_i    (r_op_guard_i),
    .op_target_i   (r_op_target_i),
    .op_reconv_i   (r_op_reconv_i),
    .bra_overflow_o(r_bra_overflow_o),
    .bra_diverge_o (r_bra_diverge_o),
    .top_pc_o      (r_top_pc_o),
    .top_rpc_o     (r_top_rpc_o),
    .top_mask_o    (r_top_mask_o),
    .empty_o       (r_empty_o),
    .settled_o     (r_settled_o),
    .depth_o       (r_depth_o)
  );

  logic unused;
  assign unused = b_release_any;

endmodule

`default_nettype wire
