// Formal proof: the SM's launch counters (baresm_sm_status) with 2 warps and
// 1 CTA slot; every input free. Each counter a completion entry saturates to
// 32 bits (cycles, warp- and thread-instructions, stalls, divergent
// branches, barrier releases, the seven warp-state counts) must
//   - count exactly while it is below 2^32 (cycles: +1 per busy cycle;
//     warp-instructions: +1 per busy issue; the others never step back),
//   - never wrap: once it has reached 2^32 it holds until the next launch
//     (clear_i) or reset.
// These are one-step relations, so the induction step proves them from any
// state, including the counts reached only after 2^32 cycles that no
// bounded run from reset gets to.
`default_nettype none

module fv_status #(
  parameter int N = 2
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic          clear_i,
  input logic          busy_i,
  input logic          running_i,
  input logic [N-1:0]  used_i,
  input logic [N-1:0]  live_i,
  input logic [N-1:0]  exited_i,
  input logic [N-1:0]  bar_wait_i,
  input logic [N-1:0]  ready_i,
  input logic [N-1:0]  ifetch_miss_i,
  input logic [N-1:0]  ib_valid_i,
  input logic [N-1:0]  ib_ctrl_i,
  input logic [N-1:0]  hazard_i,
  input logic [N-1:0]  hazard_mem_i,
  input logic [N-1:0]  unit_ok_i,
  input logic          issue_i,
  input logic          issue_warp_i,
  input logic [31:0]   issue_exec_i,
  input logic          issue_diverge_i,
  input logic          bar_release_i,
  input logic          cta_retire_i,
  input logic          ifill_i
);
  localparam int NC = 6 + baresm_state_pkg::NUM_WS;  // the saturating counters

  logic [N*3-1:0] warp_state_o;
  logic [63:0] cycles_o, clock_o, instrs_o, stalls_o;
  logic [31:0] ifills_o;
  logic [baresm_state_pkg::NUM_WS*64-1:0] states_o;
  logic [4*64-1:0] events_o;

  baresm_sm_status #(.NumWarps(N), .CtaSlots(1)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);

  logic [63:0] cnt [NC];
  always_comb begin
    cnt[0] = cycles_o;
    cnt[1] = instrs_o;
    cnt[2] = stalls_o;
    cnt[3] = events_o[0 +: 64];    // divergent branches
    cnt[4] = events_o[64 +: 64];   // barrier releases
    cnt[5] = events_o[128 +: 64];  // thread-instructions
    for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) cnt[6 + s] = states_o[s*64 +: 64];
  end

  // The previous cycle: counters, and whether it counted (out of reset, no clear).
  logic [63:0] cnt_q [NC];
  logic        counted_q = 1'b0, busy_q = 1'b0, issue_q = 1'b0;
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < NC; i++) cnt_q[i] <= cnt[i];
    counted_q <= rst_ni && !clear_i;
    busy_q <= busy_i;
    issue_q <= issue_i;
  end

`ifdef FORMAL
  for (genvar i = 0; i < NC; i++) begin : g_cnt
    // 33 bits at most: the completion saturates at 32, bit 32 says "stopped".
    always @* if (rst_ni) assert (cnt[i][63:33] == '0);
    always @* if (rst_ni && counted_q) assert (cnt[i] >= cnt_q[i]);
    always @* if (rst_ni && counted_q && cnt_q[i][32]) assert (cnt[i] == cnt_q[i]);
  end
  always @* if (rst_ni && counted_q && !cnt_q[0][32]) assert (cycles_o == cnt_q[0] + 64'(busy_q));
  always @* if (rst_ni && counted_q && !cnt_q[1][32]) assert (instrs_o == cnt_q[1] + 64'(busy_q && issue_q));
`endif
endmodule

`default_nettype wire
