// Formal proof: the SM's launch counters (baresm_sm_status) with 2 warps and
// 1 CTA slot; every input free, the report port's index included. The
// counters leave the SM only through the report port (a word index in, that
// word out the next cycle), so the properties are on the counters inside
// the copied module (tests/formal/status_inner.svh) and on the port:
//   - each counter a completion entry saturates to 32 bits (cycles, warp-
//     and thread-instructions, stalls, divergent branches, barrier releases,
//     the seven warp-state counts) counts exactly while it is below 2^32
//     (cycles: +1 per busy cycle; warp-instructions: +1 per busy issue; the
//     others never step back), and once it has reached 2^32 it holds until
//     the next launch (clear_i) or reset;
//   - the port answers the word asked for in the previous cycle: the
//     counter of that index, saturated to 0xFFFFFFFF once it has stopped
//     (the wrapping ones as they are), 0 for an index the SM does not
//     count (contract/sm_report.def); and its live counts (issued, ctas)
//     are exactly the previous cycle's increments of the warp-instruction
//     and CTA counters.
// These are one-step relations, so the induction step proves them from any
// state, including the counts reached only after 2^32 cycles that no
// bounded run from reset gets to.
`include "baresm_report_types.svh"
`default_nettype none

module fv_status #(
  parameter int N = 2
) (
  input logic            clk_i,
  input logic            rst_ni,
  input logic            clear_i,
  input logic            busy_i,
  input logic            running_i,
  input logic [N-1:0]    used_i,
  input logic [N-1:0]    live_i,
  input logic [N-1:0]    exited_i,
  input logic [N-1:0]    bar_wait_i,
  input logic [N-1:0]    ready_i,
  input logic [N-1:0]    ifetch_miss_i,
  input logic [N-1:0]    ib_valid_i,
  input logic [N-1:0]    ib_ctrl_i,
  input logic [N-1:0]    hazard_i,
  input logic [N-1:0]    hazard_mem_i,
  input logic [N-1:0]    unit_ok_i,
  input logic            issue_i,
  input logic            issue_warp_i,
  input logic [31:0]     issue_exec_i,
  input logic            issue_diverge_i,
  input logic            bar_release_i,
  input logic            cta_retire_i,
  input logic            ifill_i,
  input logic            smem_pass_i,
  input logic            gmem_req_i,
  input baresm_rpt_req_t rpt_req_i
);
  logic [N*3-1:0] warp_state_o;
  logic [63:0] cycles_o, clock_o;
  baresm_rpt_rsp_t rpt_rsp_o;

  baresm_sm_status #(.NumWarps(N), .CtaSlots(1)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
endmodule

`default_nettype wire
