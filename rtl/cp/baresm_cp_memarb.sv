// baresm_cp_memarb: merges the command processor's memory master and the
// SM's global-memory port onto the device's one external memory port (same
// protocol as the SM's port, docs/lsu.md "Memory port", with one more id bit:
// the top id bit is 1 for the command processor, 0 for the SM).
//
// - Request channel: baresm_mem_arb (round-robin; an offered request keeps
//   the port until it is taken).
// - Response channel: routed by the top id bit.
// - Outstanding requests are counted per source. While the SM is held in
//   reset (sm_hold_i: a soft reset or an aborted launch) its requests are
//   blocked and its responses are taken and dropped, so a stale response can
//   never reach the SM after it restarts: the command processor keeps it in
//   reset until sm_idle_o says nothing of it is left at the memory.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_cp_memarb #(
  parameter int LineBytes = 128,
  parameter int SmIdWidth = 5      // the SM port's id width (LsuIdWidth + 1)
) (
  clk_i,
  rst_ni,
  cp_req_i,
  cp_req_ready_o,
  cp_rsp_o,
  sm_hold_i,
  sm_req_i,
  sm_req_ready_o,
  sm_rsp_o,
  sm_rsp_ready_i,
  mem_req_o,
  mem_req_ready_i,
  mem_rsp_i,
  mem_rsp_ready_o,
  cp_idle_o,
  sm_idle_o,
  outstanding_o
);

  // rtl/prim/baresm_mem_types.svh: the command processor's single-master
  // port, the SM's line port, and the external line port (one more id bit).
  typedef `BARESM_MEM1_REQ_T(LineBytes) cp_req_t;
  typedef `BARESM_MEM1_RSP_T(LineBytes) cp_rsp_t;
  typedef `BARESM_MEM_REQ_T(SmIdWidth, LineBytes) sm_req_t;
  typedef `BARESM_MEM_RSP_T(SmIdWidth, LineBytes) sm_rsp_t;
  typedef `BARESM_MEM_REQ_T(SmIdWidth + 1, LineBytes) mem_req_t;
  typedef `BARESM_MEM_RSP_T(SmIdWidth + 1, LineBytes) mem_rsp_t;

  input  logic                      clk_i;
  input  logic                      rst_ni;

  // ---- command processor (one request in flight, id 0) -------------------
  input  cp_req_t                   cp_req_i;
  output logic                      cp_req_ready_o;
  output cp_rsp_t                   cp_rsp_o;        // always taken

  // ---- SM -------------------------------------------------------------------
  input  logic                      sm_hold_i;
  input  sm_req_t                   sm_req_i;
  output logic                      sm_req_ready_o;
  output sm_rsp_t                   sm_rsp_o;
  input  logic                      sm_rsp_ready_i;

  // ---- external port --------------------------------------------------------
  output mem_req_t                  mem_req_o;
  input  logic                      mem_req_ready_i;
  input  mem_rsp_t                  mem_rsp_i;
  output logic                      mem_rsp_ready_o;

  // ---- status ---------------------------------------------------------------
  output logic                      cp_idle_o;   // no CP request outstanding
  output logic                      sm_idle_o;   // no SM request outstanding
  output logic [SmIdWidth+1:0]      outstanding_o;

  logic sm_valid;
  assign sm_valid = sm_req_i.valid && !sm_hold_i;

  sm_req_t sm_req;   // the SM's request, withdrawn while it is held
  assign sm_req.valid = sm_valid;
  assign sm_req.id = sm_req_i.id;
  assign sm_req.addr = sm_req_i.addr;
  assign sm_req.op = sm_req_i.op;
  assign sm_req.amo = sm_req_i.amo;
  assign sm_req.wdata = sm_req_i.wdata;
  assign sm_req.wstrb = sm_req_i.wstrb;

  logic sm_ready;
  baresm_mem_arb #(
    .LineBytes(LineBytes),
    .IdW(SmIdWidth)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .a_req_i        (cp_req_i),
    .a_req_ready_o  (cp_req_ready_o),
    .b_req_i        (sm_req),
    .b_req_ready_o  (sm_ready),
    .mem_req_o,
    .mem_req_ready_i
  );
  assign sm_req_ready_o = sm_ready && !sm_hold_i;

  // Responses.
  logic rsp_cp;
  assign rsp_cp = mem_rsp_i.id[SmIdWidth];
  assign mem_rsp_ready_o = rsp_cp || sm_hold_i || sm_rsp_ready_i;
  assign cp_rsp_o.valid = mem_rsp_i.valid && rsp_cp;
  assign cp_rsp_o.rdata = mem_rsp_i.rdata;
  assign cp_rsp_o.err = mem_rsp_i.err;
  assign sm_rsp_o.valid = mem_rsp_i.valid && !rsp_cp && !sm_hold_i;
  assign sm_rsp_o.id = mem_rsp_i.id[SmIdWidth-1:0];
  assign sm_rsp_o.rdata = mem_rsp_i.rdata;
  assign sm_rsp_o.err = mem_rsp_i.err;

  // Outstanding requests per source.
  logic [SmIdWidth:0] cp_out_q, sm_out_q;
  logic cp_acc, sm_acc, cp_ret, sm_ret;
  assign cp_acc = cp_req_i.valid && cp_req_ready_o;
  assign sm_acc = sm_valid && sm_ready;
  assign cp_ret = mem_rsp_i.valid && mem_rsp_ready_o && rsp_cp;
  assign sm_ret = mem_rsp_i.valid && mem_rsp_ready_o && !rsp_cp;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cp_out_q <= '0;
      sm_out_q <= '0;
    end else begin
      cp_out_q <= cp_out_q + (cp_acc ? (SmIdWidth+1)'(1) : '0) - (cp_ret ? (SmIdWidth+1)'(1) : '0);
      sm_out_q <= sm_out_q + (sm_acc ? (SmIdWidth+1)'(1) : '0) - (sm_ret ? (SmIdWidth+1)'(1) : '0);
    end
  end

  assign cp_idle_o = cp_out_q == '0;
  assign sm_idle_o = sm_out_q == '0;
  assign outstanding_o = {1'b0, cp_out_q} + {1'b0, sm_out_q};

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // Outstanding counts never wrap or underflow: a response only for a
  // source with a request outstanding; the CP has at most one in flight, the
  // SM at most one per LSU id plus one instruction fill. These depend on the
  // sources and the memory, not on this block: assumed by its proofs
  // (tests/formal), checked in every simulation.
  `BARESM_ASSUME(a_cp_out_no_underflow, !cp_ret || cp_out_q != '0)
  `BARESM_ASSUME(a_sm_out_no_underflow, !sm_ret || sm_out_q != '0)
  `BARESM_ASSUME(a_cp_out_bound, cp_out_q <= (SmIdWidth + 1)'(1))
  `BARESM_ASSUME(a_sm_out_bound, 32'(sm_out_q) <= (1 << (SmIdWidth - 1)) + 1)
  // While the SM is held in reset it offers no request (its flops are reset).
  `BARESM_ASSUME(a_hold_quiet, !(sm_hold_i && sm_req_i.valid))

endmodule

`default_nettype wire
