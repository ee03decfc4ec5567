// baresm_mem_arb: puts two request sources on one memory port (docs/lsu.md
// "Memory port"). Used twice: in the SM (instruction fetch + LSU) and in the
// top (command processor + SM).
// - Round-robin when both wait; a request that was offered and not taken
//   keeps the port until it is taken (both sources hold their request still
//   while valid && !ready, so the port does too).
// - Source A is the one-request-at-a-time master without atomics: its id on
//   the port is {1, 0...}; source B's ids pass through below a 0 top bit.
//   The responses, which may return in any order, are routed by that bit in
//   the parent, which knows whether and when its sources take them.
`include "baresm_assert.svh"
`default_nettype none

module baresm_mem_arb #(
  parameter int LineBytes = 128,
  parameter int IdW = 4              // source B's id width
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   a_req_valid_i,
  output logic                   a_req_ready_o,
  input  logic [31:0]            a_req_addr_i,
  input  logic [1:0]             a_req_op_i,
  input  logic [LineBytes*8-1:0] a_req_wdata_i,
  input  logic [LineBytes-1:0]   a_req_wstrb_i,

  input  logic                   b_req_valid_i,
  output logic                   b_req_ready_o,
  input  logic [IdW-1:0]         b_req_id_i,
  input  logic [31:0]            b_req_addr_i,
  input  logic [1:0]             b_req_op_i,
  input  logic [4:0]             b_req_amo_i,
  input  logic [LineBytes*8-1:0] b_req_wdata_i,
  input  logic [LineBytes-1:0]   b_req_wstrb_i,

  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic [IdW:0]           mem_req_id_o,
  output logic [31:0]            mem_req_addr_o,
  output logic [1:0]             mem_req_op_o,
  output logic [4:0]             mem_req_amo_o,
  output logic [LineBytes*8-1:0] mem_req_wdata_o,
  output logic [LineBytes-1:0]   mem_req_wstrb_o
);

  logic last_a_q;   // the last accepted request was A's
  logic lock_q;     // a request was offered and not taken: keep its source
  logic lock_a_q;

  logic sel_a;
  always_comb begin
    if (lock_q) sel_a = lock_a_q;
    else if (a_req_valid_i && b_req_valid_i) sel_a = !last_a_q;
    else sel_a = a_req_valid_i;
  end

  assign mem_req_valid_o = sel_a ? a_req_valid_i : b_req_valid_i;
  assign mem_req_id_o = sel_a ? {1'b1, IdW'(0)} : {1'b0, b_req_id_i};
  assign mem_req_addr_o = sel_a ? a_req_addr_i : b_req_addr_i;
  assign mem_req_op_o = sel_a ? a_req_op_i : b_req_op_i;
  assign mem_req_amo_o = sel_a ? 5'd0 : b_req_amo_i;
  assign mem_req_wdata_o = sel_a ? a_req_wdata_i : b_req_wdata_i;
  assign mem_req_wstrb_o = sel_a ? a_req_wstrb_i : b_req_wstrb_i;
  assign a_req_ready_o = sel_a && mem_req_ready_i;
  assign b_req_ready_o = !sel_a && mem_req_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_a_q <= 1'b0;
      lock_q <= 1'b0;
      lock_a_q <= 1'b0;
    end else begin
      if (mem_req_valid_o && mem_req_ready_i) last_a_q <= sel_a;
      lock_q <= mem_req_valid_o && !mem_req_ready_i;
      lock_a_q <= sel_a;
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // One-hot grant: at most one source is told ready.
  `BARESM_ASSERT(a_grant_onehot, !(a_req_ready_o && b_req_ready_o))
  // Both sources hold a request they offered until it is taken, except when
  // they are reset (the command processor's soft reset withdraws its
  // request, the SM's request disappears when the top holds it in reset);
  // each source asserts that itself (baresm_sm_fetch, baresm_lsu, baresm_cp).

endmodule

`default_nettype wire
