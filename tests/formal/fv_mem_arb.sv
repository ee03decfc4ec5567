// Formal proof: the memory arbiter (baresm_mem_arb) inside the command
// processor / SM merge (baresm_cp_memarb), which adds the response routing
// and the outstanding-request counters. Source A = command processor, B = SM.
//   - no lost or duplicated request: every accepted memory request is exactly
//     one source's accepted request, with that source's id and payload, and
//     nothing reaches memory that no source offered (nor from a held SM);
//   - no lost or duplicated response: every response the memory hands over
//     goes to exactly one source (or is dropped while the SM is held), and
//     no source sees a response the memory did not give;
//   - the idle flags / outstanding count equal the requests at the memory;
//   - bounded wait: a waiting source is passed over at most once and is taken
//     within WaitBound cycles when the memory stalls at most MaxStall cycles.
`include "baresm_mem_types.svh"
`default_nettype none

module fv_mem_arb #(
  parameter int LB = 1,   // LineBytes
  parameter int IDW = 2,  // SM id width
  parameter int MaxStall = 2,
  parameter int WaitBound = 2 * MaxStall + 2
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              cp_req_valid_i,
  input logic [31:0]       cp_req_addr_i,
  input logic [1:0]        cp_req_op_i,
  input logic [LB*8-1:0]   cp_req_wdata_i,
  input logic [LB-1:0]     cp_req_wstrb_i,
  input logic              sm_hold_i,
  input logic              sm_req_valid_i,
  input logic [IDW-1:0]    sm_req_id_i,
  input logic [31:0]       sm_req_addr_i,
  input logic [1:0]        sm_req_op_i,
  input logic [4:0]        sm_req_amo_i,
  input logic [LB*8-1:0]   sm_req_wdata_i,
  input logic [LB-1:0]     sm_req_wstrb_i,
  input logic              sm_rsp_ready_i,
  input logic              mem_req_ready_i,
  input logic              mem_rsp_valid_i,
  input logic [IDW:0]      mem_rsp_id_i,
  input logic [LB*8-1:0]   mem_rsp_rdata_i,
  input logic              mem_rsp_err_i
);

  logic cp_req_ready_o, cp_rsp_valid_o, sm_req_ready_o, sm_rsp_valid_o;
  logic mem_req_valid_o, mem_rsp_ready_o, cp_idle_o, sm_idle_o;
  logic [IDW:0] mem_req_id_o;
  logic [31:0] mem_req_addr_o;
  logic [1:0] mem_req_op_o;
  logic [4:0] mem_req_amo_o;
  logic [LB*8-1:0] mem_req_wdata_o;
  logic [LB-1:0] mem_req_wstrb_o;
  logic [IDW+1:0] outstanding_o;

  // The block's typed ports (rtl/prim/baresm_mem_types.svh), to and from the
  // fields above that the solver drives and the properties read.
  typedef `BARESM_MEM1_REQ_T(LB) cp_req_t;
  typedef `BARESM_MEM1_RSP_T(LB) cp_rsp_t;
  typedef `BARESM_MEM_REQ_T(IDW, LB) sm_req_t;
  typedef `BARESM_MEM_RSP_T(IDW, LB) sm_rsp_t;
  typedef `BARESM_MEM_REQ_T(IDW + 1, LB) mem_req_t;
  typedef `BARESM_MEM_RSP_T(IDW + 1, LB) mem_rsp_t;
  cp_req_t cp_req_i;
  cp_rsp_t cp_rsp_o;
  sm_req_t sm_req_i;
  sm_rsp_t sm_rsp_o;
  mem_req_t mem_req_o;
  mem_rsp_t mem_rsp_i;
  always_comb begin
    cp_req_i.valid = cp_req_valid_i;
    cp_req_i.addr = cp_req_addr_i;
    cp_req_i.op = cp_req_op_i;
    cp_req_i.wdata = cp_req_wdata_i;
    cp_req_i.wstrb = cp_req_wstrb_i;
    sm_req_i.valid = sm_req_valid_i;
    sm_req_i.id = sm_req_id_i;
    sm_req_i.addr = sm_req_addr_i;
    sm_req_i.op = sm_req_op_i;
    sm_req_i.amo = sm_req_amo_i;
    sm_req_i.wdata = sm_req_wdata_i;
    sm_req_i.wstrb = sm_req_wstrb_i;
    mem_rsp_i.valid = mem_rsp_valid_i;
    mem_rsp_i.id = mem_rsp_id_i;
    mem_rsp_i.rdata = mem_rsp_rdata_i;
    mem_rsp_i.err = mem_rsp_err_i;
  end
  assign cp_rsp_valid_o = cp_rsp_o.valid;
  assign sm_rsp_valid_o = sm_rsp_o.valid;
  assign mem_req_valid_o = mem_req_o.valid;
  assign mem_req_id_o = mem_req_o.id;
  assign mem_req_addr_o = mem_req_o.addr;
  assign mem_req_op_o = mem_req_o.op;
  assign mem_req_amo_o = mem_req_o.amo;
  assign mem_req_wdata_o = mem_req_o.wdata;
  assign mem_req_wstrb_o = mem_req_o.wstrb;

  baresm_cp_memarb #(.LineBytes(LB), .SmIdWidth(IDW)) dut (.*);

  // ---- reset: the first cycle is in reset; resets may come again any time ----
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);

  // ---- what happens at the interfaces -----------------------------------------------
  logic sm_v, cp_hs, sm_hs, mem_hs, rsp_hs, rsp_cp;
  assign sm_v = sm_req_valid_i && !sm_hold_i;
  assign cp_hs = cp_req_valid_i && cp_req_ready_o;
  assign sm_hs = sm_v && sm_req_ready_o;
  assign mem_hs = mem_req_valid_o && mem_req_ready_i;
  assign rsp_cp = mem_rsp_id_i[IDW];
  assign rsp_hs = mem_rsp_valid_i && mem_rsp_ready_o;

  // ---- environment ------------------------------------------------------------------
  logic cp_pend_q, sm_pend_q;   // offered and not taken last cycle
  logic [31:0] cp_addr_q, sm_addr_q;
  logic [1:0] cp_op_q, sm_op_q;
  logic [LB*8-1:0] cp_wd_q, sm_wd_q;
  logic [LB-1:0] cp_ws_q, sm_ws_q;
  logic [IDW-1:0] sm_id_q;
  logic [4:0] sm_amo_q;
  logic [3:0] stall_q;          // consecutive cycles the memory did not take a request
  logic hold_q, hold_rose_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hold_q <= 1'b0;
      hold_rose_q <= 1'b0;
      cp_pend_q <= 1'b0;
      sm_pend_q <= 1'b0;
      stall_q <= '0;
    end else begin
      hold_q <= sm_hold_i;
      hold_rose_q <= sm_hold_i && !hold_q;
      cp_pend_q <= cp_req_valid_i && !cp_req_ready_o;
      sm_pend_q <= sm_v && !sm_req_ready_o;
      stall_q <= (mem_req_valid_o && !mem_req_ready_i) ? stall_q + 4'd1 : 4'd0;
    end
  end
  always_ff @(posedge clk_i) begin
    cp_addr_q <= cp_req_addr_i;
    cp_op_q <= cp_req_op_i;
    cp_wd_q <= cp_req_wdata_i;
    cp_ws_q <= cp_req_wstrb_i;
    sm_addr_q <= sm_req_addr_i;
    sm_op_q <= sm_req_op_i;
    sm_wd_q <= sm_req_wdata_i;
    sm_ws_q <= sm_req_wstrb_i;
    sm_id_q <= sm_req_id_i;
    sm_amo_q <= sm_req_amo_i;
  end

  always @* if (rst_ni && cp_pend_q) assume (cp_req_valid_i && cp_req_addr_i == cp_addr_q && cp_req_op_i == cp_op_q &&
                             cp_req_wdata_i == cp_wd_q && cp_req_wstrb_i == cp_ws_q);
  always @* if (rst_ni && sm_pend_q && !sm_hold_i)
        assume (sm_req_valid_i && sm_req_addr_i == sm_addr_q && sm_req_op_i == sm_op_q &&
                sm_req_wdata_i == sm_wd_q && sm_req_wstrb_i == sm_ws_q && sm_req_id_i == sm_id_q &&
                sm_req_amo_i == sm_amo_q);
  // (The memory answers only requests it has; the command processor has one
  // request in flight, the SM one per id: mem_arb_inner.svh, where the
  // requests at the memory are counted.)
  always @* if (rst_ni && stall_q >= 4'(MaxStall)) assume (mem_req_ready_i);
  always @* if (rst_ni && hold_rose_q) assume (sm_hold_i);
  // ---- bounded wait bookkeeping -----------------------------------------------------
  logic [3:0] cp_wait_q, sm_wait_q;    // cycles offered and not taken
  logic [1:0] cp_over_q, sm_over_q;    // the other source's grants meanwhile
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cp_wait_q <= '0;
      sm_wait_q <= '0;
      cp_over_q <= '0;
      sm_over_q <= '0;
    end else begin
      cp_wait_q <= (cp_req_valid_i && !cp_hs) ? cp_wait_q + 4'd1 : 4'd0;
      cp_over_q <= (cp_req_valid_i && !cp_hs) ? cp_over_q + (sm_hs ? 2'd1 : 2'd0) : 2'd0;
      sm_wait_q <= (sm_v && !sm_hs) ? sm_wait_q + 4'd1 : 4'd0;
      sm_over_q <= (sm_v && !sm_hs) ? sm_over_q + (cp_hs ? 2'd1 : 2'd0) : 2'd0;
    end
  end

  // ---- properties -------------------------------------------------------------------
  // Requests: one source per memory request, never both, never none.
  always @* if (rst_ni) assert (mem_hs == (cp_hs || sm_hs));
  always @* if (rst_ni) assert (!(cp_hs && sm_hs));
  always @* if (rst_ni) assert (!mem_req_valid_o || cp_req_valid_i || sm_v);
  always @* if (rst_ni && cp_hs)
    assert (mem_req_id_o == {1'b1, IDW'(0)} && mem_req_addr_o == cp_req_addr_i &&
            mem_req_op_o == cp_req_op_i && mem_req_wdata_o == cp_req_wdata_i &&
            mem_req_wstrb_o == cp_req_wstrb_i && mem_req_amo_o == 5'd0);
  always @* if (rst_ni && sm_hs)
    assert (mem_req_id_o == {1'b0, sm_req_id_i} && mem_req_addr_o == sm_req_addr_i &&
            mem_req_op_o == sm_req_op_i && mem_req_wdata_o == sm_req_wdata_i &&
            mem_req_wstrb_o == sm_req_wstrb_i && mem_req_amo_o == sm_req_amo_i);
  always @* if (rst_ni && sm_hold_i) assert (!sm_req_ready_o && !(mem_hs && !mem_req_id_o[IDW]));
  // Responses: each to exactly one place; none from nowhere.
  always @* if (rst_ni && mem_rsp_valid_i && rsp_cp)
    assert (mem_rsp_ready_o && cp_rsp_valid_o && !sm_rsp_valid_o);
  always @* if (rst_ni && mem_rsp_valid_i && !rsp_cp && sm_hold_i)
    assert (mem_rsp_ready_o && !cp_rsp_valid_o && !sm_rsp_valid_o);
  always @* if (rst_ni && mem_rsp_valid_i && !rsp_cp && !sm_hold_i)
    assert (!cp_rsp_valid_o && sm_rsp_valid_o && mem_rsp_ready_o == sm_rsp_ready_i);
  always @* if (rst_ni && !mem_rsp_valid_i) assert (!cp_rsp_valid_o && !sm_rsp_valid_o);
  // ... with the memory's data, error flag and (to the SM) id.
  always @* if (rst_ni) assert (cp_rsp_o.rdata == mem_rsp_rdata_i && cp_rsp_o.err == mem_rsp_err_i &&
                                sm_rsp_o.rdata == mem_rsp_rdata_i && sm_rsp_o.err == mem_rsp_err_i &&
                                sm_rsp_o.id == mem_rsp_id_i[IDW-1:0]);
  // Bounded wait.
  always @* if (rst_ni) assert (cp_over_q <= 2'd1 && sm_over_q <= 2'd1);
  always @* if (rst_ni) assert (cp_wait_q <= 4'(WaitBound) && sm_wait_q <= 4'(WaitBound));

endmodule

`default_nettype wire
