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
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_mem_arb #(
  parameter int LineBytes = 128,
  parameter int IdW = 4              // source B's id width
) (
  clk_i,
  rst_ni,
  a_req_i,
  a_req_ready_o,
  b_req_i,
  b_req_ready_o,
  mem_req_o,
  mem_req_ready_i
);

  // rtl/prim/baresm_mem_types.svh: A is a single-master port, B and the
  // memory side line ports, the memory side's id one bit wider.
  typedef `BARESM_MEM1_REQ_T(LineBytes) a_req_t;
  typedef `BARESM_MEM_REQ_T(IdW, LineBytes) b_req_t;
  typedef `BARESM_MEM_REQ_T(IdW + 1, LineBytes) mem_req_t;

  input  logic     clk_i;
  input  logic     rst_ni;

  input  a_req_t   a_req_i;
  output logic     a_req_ready_o;

  input  b_req_t   b_req_i;
  output logic     b_req_ready_o;

  output mem_req_t mem_req_o;
  input  logic     mem_req_ready_i;

  logic last_a_q;   // the last accepted request was A's
  logic lock_q;     // a request was offered and not taken: keep its source
  logic lock_a_q;

  logic sel_a;
  always_comb begin
    if (lock_q) sel_a = lock_a_q;
    else if (a_req_i.valid && b_req_i.valid) sel_a = !last_a_q;
    else sel_a = a_req_i.valid;
  end

  assign mem_req_o.valid = sel_a ? a_req_i.valid : b_req_i.valid;
  assign mem_req_o.id = sel_a ? {1'b1, IdW'(0)} : {1'b0, b_req_i.id};
  assign mem_req_o.addr = sel_a ? a_req_i.addr : b_req_i.addr;
  assign mem_req_o.op = sel_a ? a_req_i.op : b_req_i.op;
  assign mem_req_o.amo = sel_a ? 5'd0 : b_req_i.amo;
  assign mem_req_o.wdata = sel_a ? a_req_i.wdata : b_req_i.wdata;
  assign mem_req_o.wstrb = sel_a ? a_req_i.wstrb : b_req_i.wstrb;
  assign a_req_ready_o = sel_a && mem_req_ready_i;
  assign b_req_ready_o = !sel_a && mem_req_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_a_q <= 1'b0;
      lock_q <= 1'b0;
      lock_a_q <= 1'b0;
    end else begin
      if (mem_req_o.valid && mem_req_ready_i) last_a_q <= sel_a;
      lock_q <= mem_req_o.valid && !mem_req_ready_i;
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
