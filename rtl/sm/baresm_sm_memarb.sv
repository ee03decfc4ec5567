// baresm_sm_memarb: shares the one global-memory port between the
// instruction cache (line reads) and the LSU. Requests alternate when both
// wait; a request that was offered and not taken keeps the port until it is
// taken (the port's request never changes while valid && !ready). The top id
// bit names the source (1 = instruction fetch), so responses, which may come
// back in any order, are routed by it. Both sources always take responses.
`default_nettype none

module baresm_sm_memarb #(
  parameter int LineBytes = 128,
  parameter int LsuIdW = 4
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // instruction fetch: line reads
  input  logic                   if_req_valid_i,
  output logic                   if_req_ready_o,
  input  logic [31:0]            if_req_addr_i,
  output logic                   if_rsp_valid_o,

  // LSU
  input  logic                   ls_req_valid_i,
  output logic                   ls_req_ready_o,
  input  logic [LsuIdW-1:0]      ls_req_id_i,
  input  logic [31:0]            ls_req_addr_i,
  input  logic [1:0]             ls_req_op_i,
  input  logic [4:0]             ls_req_amo_i,
  input  logic [LineBytes*8-1:0] ls_req_wdata_i,
  input  logic [LineBytes-1:0]   ls_req_wstrb_i,
  output logic                   ls_rsp_valid_o,

  // the port
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic [LsuIdW:0]        mem_req_id_o,
  output logic [31:0]            mem_req_addr_o,
  output logic [1:0]             mem_req_op_o,
  output logic [4:0]             mem_req_amo_o,
  output logic [LineBytes*8-1:0] mem_req_wdata_o,
  output logic [LineBytes-1:0]   mem_req_wstrb_o,
  input  logic                   mem_rsp_valid_i,
  output logic                   mem_rsp_ready_o,
  input  logic [LsuIdW:0]        mem_rsp_id_i
);

  logic last_if_q;   // the last grant went to fetch
  logic hold_q;      // a request was offered and not taken: keep its source
  logic hold_if_q;

  logic grant_if;
  always_comb begin
    if (hold_q) grant_if = hold_if_q;
    else if (if_req_valid_i && ls_req_valid_i) grant_if = !last_if_q;
    else grant_if = if_req_valid_i;
  end

  assign mem_req_valid_o = grant_if ? if_req_valid_i : ls_req_valid_i;
  assign mem_req_id_o = grant_if ? {1'b1, {LsuIdW{1'b0}}} : {1'b0, ls_req_id_i};
  assign mem_req_addr_o = grant_if ? if_req_addr_i : ls_req_addr_i;
  assign mem_req_op_o = grant_if ? 2'd0 : ls_req_op_i;
  assign mem_req_amo_o = grant_if ? 5'd0 : ls_req_amo_i;
  assign mem_req_wdata_o = grant_if ? '0 : ls_req_wdata_i;
  assign mem_req_wstrb_o = grant_if ? '0 : ls_req_wstrb_i;
  assign if_req_ready_o = grant_if && mem_req_ready_i;
  assign ls_req_ready_o = !grant_if && mem_req_ready_i;

  assign mem_rsp_ready_o = 1'b1;
  assign if_rsp_valid_o = mem_rsp_valid_i && mem_rsp_id_i[LsuIdW];
  assign ls_rsp_valid_o = mem_rsp_valid_i && !mem_rsp_id_i[LsuIdW];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_if_q <= 1'b0;
      hold_q <= 1'b0;
      hold_if_q <= 1'b0;
    end else begin
      if (mem_req_valid_o && mem_req_ready_i) last_if_q <= grant_if;
      hold_q <= mem_req_valid_o && !mem_req_ready_i;
      hold_if_q <= grant_if;
    end
  end

endmodule

`default_nettype wire
