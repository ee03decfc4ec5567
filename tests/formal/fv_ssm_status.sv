// Formal proof: the thread-serial SM's status block (baresm_ssm_status, its
// counters in a RAM flushed from small deltas) answers the report port
// exactly as the wide SM's (baresm_sm_status, flip-flop counters) for the
// same inputs, 2 warps, every input free (reset, clear, the report's index
// and timing included): the same warp states, cycle and clock counts, live
// counts, and the same word for every index asked.
// Bounded (scripts/formal.sh, proof ssm_status): the relation runs through
// the RAM's contents, which an induction step starts without. The depth
// covers reports of words whose delta is not yet flushed, a flush's write
// followed by a report of that word, and a clear between them.
`include "baresm_report_types.svh"
`default_nettype none

module fv_ssm_status #(
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
  input logic [N-1:0]    wait_mem_i,
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
  logic [N*3-1:0] ws_ref, ws_dut;
  logic [63:0] cyc_ref, cyc_dut, clk_ref, clk_dut;
  baresm_rpt_rsp_t rsp_ref, rsp_dut;

  baresm_sm_status #(.NumWarps(N), .CtaSlots(1)) ref_status (
    .clk_i, .rst_ni, .clear_i, .busy_i, .running_i, .used_i, .live_i, .exited_i, .bar_wait_i, .ready_i,
    .ifetch_miss_i(wait_mem_i), .ib_valid_i('0), .ib_ctrl_i('0), .hazard_i('0), .hazard_mem_i('0),
    .unit_ok_i('0), .issue_i, .issue_warp_i, .issue_exec_i, .issue_diverge_i, .bar_release_i,
    .cta_retire_i, .ifill_i, .smem_pass_i, .gmem_req_i,
    .warp_state_o(ws_ref), .cycles_o(cyc_ref), .clock_o(clk_ref), .rpt_req_i, .rpt_rsp_o(rsp_ref));

  baresm_ssm_status #(.NumWarps(N)) dut (
    .clk_i, .rst_ni, .clear_i, .busy_i, .running_i, .used_i, .live_i, .exited_i, .bar_wait_i, .ready_i,
    .wait_mem_i, .issue_i, .issue_warp_i, .issue_exec_i, .issue_diverge_i, .bar_release_i,
    .cta_retire_i, .ifill_i, .smem_pass_i, .gmem_req_i,
    .warp_state_o(ws_dut), .cycles_o(cyc_dut), .clock_o(clk_dut), .rpt_req_i, .rpt_rsp_o(rsp_dut));

  logic init_q = 1'b1;
  logic asked_q = 1'b0;
  always_ff @(posedge clk_i) begin
    init_q <= 1'b0;
    asked_q <= rst_ni && rpt_req_i.valid;
  end
  always @* begin
    if (init_q) assume (!rst_ni);
    if (!init_q && rst_ni) begin
      assert (ws_dut == ws_ref);
      assert (cyc_dut == cyc_ref);
      assert (clk_dut == clk_ref);
      assert (rsp_dut.issued == rsp_ref.issued);
      assert (rsp_dut.ctas == rsp_ref.ctas);
      if (asked_q) assert (rsp_dut.word == rsp_ref.word);
    end
  end
endmodule

`default_nettype wire
