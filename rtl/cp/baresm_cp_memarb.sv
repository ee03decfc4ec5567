// baresm_cp_memarb: merges the command processor's memory master and the
// SM's global-memory port onto the device's one external memory port (same
// protocol as the SM's port, docs/lsu.md "Memory port", with one more id bit:
// the top id bit is 1 for the command processor, 0 for the SM).
//
// - Request channel: round-robin between the two sources; once a request is
//   presented it stays selected until memory accepts it (both sources hold
//   their request still until accepted, so the port does too).
// - Response channel: routed by the top id bit.
// - Outstanding requests are counted per source. While the SM is held in
//   reset (sm_hold_i: a soft reset or an aborted launch) its requests are
//   blocked and its responses are taken and dropped, so a stale response can
//   never reach the SM after it restarts: the command processor keeps it in
//   reset until sm_idle_o says nothing of it is left at the memory.
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

  // Grant: a presented request that was not accepted keeps its source.
  logic lock_q, lock_cp_q, last_cp_q;
  logic sel_cp;
  always_comb begin
    if (lock_q) sel_cp = lock_cp_q;
    else if (cp_req_valid_i && sm_valid) sel_cp = !last_cp_q;
    else sel_cp = cp_req_valid_i;
  end

  assign mem_req_valid_o = sel_cp ? cp_req_valid_i : sm_valid;
  assign mem_req_id_o = sel_cp ? {1'b1, SmIdWidth'(0)} : {1'b0, sm_req_id_i};
  assign mem_req_addr_o = sel_cp ? cp_req_addr_i : sm_req_addr_i;
  assign mem_req_op_o = sel_cp ? cp_req_op_i : sm_req_op_i;
  assign mem_req_amo_o = sel_cp ? 5'd0 : sm_req_amo_i;
  assign mem_req_wdata_o = sel_cp ? cp_req_wdata_i : sm_req_wdata_i;
  assign mem_req_wstrb_o = sel_cp ? cp_req_wstrb_i : sm_req_wstrb_i;
  assign cp_req_ready_o = sel_cp && mem_req_ready_i;
  assign sm_req_ready_o = !sel_cp && mem_req_ready_i && !sm_hold_i;

  logic accept;
  assign accept = mem_req_valid_o && mem_req_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lock_q <= 1'b0;
      lock_cp_q <= 1'b0;
      last_cp_q <= 1'b0;
    end else begin
      lock_q <= mem_req_valid_o && !mem_req_ready_i;
      lock_cp_q <= sel_cp;
      if (accept) last_cp_q <= sel_cp;
    end
  end

  // Responses.
  logic rsp_cp;
  assign rsp_cp = mem_rsp_id_i[SmIdWidth];
  assign mem_rsp_ready_o = rsp_cp || sm_hold_i || sm_rsp_ready_i;
  assign cp_rsp_valid_o = mem_rsp_valid_i && rsp_cp;
  assign sm_rsp_valid_o = mem_rsp_valid_i && !rsp_cp && !sm_hold_i;

  // Outstanding requests per source.
  logic [SmIdWidth:0] cp_out_q, sm_out_q;
  logic cp_acc, sm_acc, cp_ret, sm_ret;
  assign cp_acc = accept && sel_cp;
  assign sm_acc = accept && !sel_cp;
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

endmodule

`default_nettype wire
