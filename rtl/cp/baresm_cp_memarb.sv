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
`default_nettype none

module baresm_cp_memarb #(
  parameter int LineBytes = 128,
  parameter int SmIdWidth = 5      // the SM port's id width (LsuIdWidth + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // ---- command processor (one request in flight, id 0) -------------------
  input  logic                      cp_req_valid_i,
  output logic                      cp_req_ready_o,
  input  logic [31:0]               cp_req_addr_i,
  input  logic [1:0]                cp_req_op_i,
  input  logic [LineBytes*8-1:0]    cp_req_wdata_i,
  input  logic [LineBytes-1:0]      cp_req_wstrb_i,
  output logic                      cp_rsp_valid_o,

  // ---- SM -------------------------------------------------------------------
  input  logic                      sm_hold_i,
  input  logic                      sm_req_valid_i,
  output logic                      sm_req_ready_o,
  input  logic [SmIdWidth-1:0]      sm_req_id_i,
  input  logic [31:0]               sm_req_addr_i,
  input  logic [1:0]                sm_req_op_i,
  input  logic [4:0]                sm_req_amo_i,
  input  logic [LineBytes*8-1:0]    sm_req_wdata_i,
  input  logic [LineBytes-1:0]      sm_req_wstrb_i,
  output logic                      sm_rsp_valid_o,
  input  logic                      sm_rsp_ready_i,

  // ---- external port --------------------------------------------------------
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output logic [SmIdWidth:0]        mem_req_id_o,
  output logic [31:0]               mem_req_addr_o,
  output logic [1:0]                mem_req_op_o,
  output logic [4:0]                mem_req_amo_o,
  output logic [LineBytes*8-1:0]    mem_req_wdata_o,
  output logic [LineBytes-1:0]      mem_req_wstrb_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  logic [SmIdWidth:0]        mem_rsp_id_i,

  // ---- status ---------------------------------------------------------------
  output logic                      cp_idle_o,   // no CP request outstanding
  output logic                      sm_idle_o,   // no SM request outstanding
  output logic [SmIdWidth+1:0]      outstanding_o
);

  logic sm_valid;
  assign sm_valid = sm_req_valid_i && !sm_hold_i;

  logic sm_ready;
  baresm_mem_arb #(
    .LineBytes(LineBytes),
    .IdW(SmIdWidth)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .a_req_valid_i  (cp_req_valid_i),
    .a_req_ready_o  (cp_req_ready_o),
    .a_req_addr_i   (cp_req_addr_i),
    .a_req_op_i     (cp_req_op_i),
    .a_req_wdata_i  (cp_req_wdata_i),
    .a_req_wstrb_i  (cp_req_wstrb_i),
    .b_req_valid_i  (sm_valid),
    .b_req_ready_o  (sm_ready),
    .b_req_id_i     (sm_req_id_i),
    .b_req_addr_i   (sm_req_addr_i),
    .b_req_op_i     (sm_req_op_i),
    .b_req_amo_i    (sm_req_amo_i),
    .b_req_wdata_i  (sm_req_wdata_i),
    .b_req_wstrb_i  (sm_req_wstrb_i),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_id_o,
    .mem_req_addr_o,
    .mem_req_op_o,
    .mem_req_amo_o,
    .mem_req_wdata_o,
    .mem_req_wstrb_o
  );
  assign sm_req_ready_o = sm_ready && !sm_hold_i;

  // Responses.
  logic rsp_cp;
  assign rsp_cp = mem_rsp_id_i[SmIdWidth];
  assign mem_rsp_ready_o = rsp_cp || sm_hold_i || sm_rsp_ready_i;
  assign cp_rsp_valid_o = mem_rsp_valid_i && rsp_cp;
  assign sm_rsp_valid_o = mem_rsp_valid_i && !rsp_cp && !sm_hold_i;

  // Outstanding requests per source.
  logic [SmIdWidth:0] cp_out_q, sm_out_q;
  logic cp_acc, sm_acc, cp_ret, sm_ret;
  assign cp_acc = cp_req_valid_i && cp_req_ready_o;
  assign sm_acc = sm_valid && sm_ready;
  assign cp_ret = mem_rsp_valid_i && mem_rsp_ready_o && rsp_cp;
  assign sm_ret = mem_rsp_valid_i && mem_rsp_ready_o && !rsp_cp;

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
  `BARESM_ASSUME(a_hold_quiet, !(sm_hold_i && sm_req_valid_i))

endmodule

`default_nettype wire
