// Formal proof: the warp scheduler (baresm_sm_sched) with 3 warps (a slot
// count that is not a power of two, so grant_o has an unused code) and a
// starvation limit of 3, both policies (policy_gto_i is a free input, as are
// ready_i, start_i and clear_i). Properties: sched_inner.svh, included into a
// copy of the module (the starvation bound needs its wait counters).
`default_nettype none

module fv_sched #(
  parameter int N = 3,
  parameter int Limit = 3
) (
  input logic         clk_i,
  input logic         rst_ni,
  input logic         clear_i,
  input logic         policy_gto_i,
  input logic [N-1:0] start_i,
  input logic [N-1:0] ready_i
);
  logic grant_valid_o;
  logic [1:0] grant_o;

  baresm_sm_sched #(.NumWarps(N), .StarveLimit(Limit)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
endmodule

`default_nettype wire
