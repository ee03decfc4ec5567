// Formal proof: the barrier unit (baresm_sm_barrier) with 3 warp slots and 2
// CTA slots. Environment: a warp arrives only while live and not already
// waiting; a waiting warp stays live (it cannot exit while it waits).
// Properties: barrier_inner.svh, included into a copy of the module.
`default_nettype none

module fv_barrier #(
  parameter int N = 3,
  parameter int C = 2
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic          clear_i,
  input logic          arrive_i,
  input logic [1:0]    arrive_warp_i,
  input logic [3:0]    arrive_id_i,
  input logic [15:0]   arrive_count_i,
  input logic [31:0]   arrive_pc_i,
  input logic [N-1:0]  warp_cta_i,
  input logic [N-1:0]  warp_live_i,
  input logic [C-1:0]  cta_run_i
);
  logic [N-1:0] waiting_o, release_o, deadlock_warps_o;
  logic release_any_o, deadlock_o;
  logic [0:0] deadlock_cta_o;
  logic [N*32-1:0] bar_pc_o;

  baresm_sm_barrier #(.NumWarps(N), .CtaSlots(C)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
  always @* if (arrive_i) assume (32'(arrive_warp_i) < N);
  always @* if (rst_ni && arrive_i) assume (warp_live_i[arrive_warp_i] && !waiting_o[arrive_warp_i]);
  always @* if (rst_ni) assume ((waiting_o & ~warp_live_i) == '0);
endmodule

`default_nettype wire
