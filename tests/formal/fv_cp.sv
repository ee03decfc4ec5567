// Formal proof: the command processor (baresm_cp) with 2 queue pairs and a
// 64-byte memory line (a descriptor is one read, a 128-byte completion entry
// two body writes, one per line, and one phase-word write). The host is free: any register read or
// write on any cycle, soft resets included. The memory takes requests when
// it likes and answers each one once, later; the SM side (launch ready,
// done, fault fields, counters, idle) is free. A bounded check from reset
// (scripts/formal.sh: depth 10; k-induction does not converge on the whole
// module). Properties, in cp_inner.svh (included into a copy of the module,
// they need its registers):
//   - submission fetch: a descriptor is read only from a submitted, unfetched
//     slot, SQ_BASE + (SQ_HEAD mod SQ_SIZE) * 64, and SQ_TAIL - SQ_HEAD never
//     exceeds SQ_SIZE (the free-running indices wrap at 2^32: induction
//     starts from any index, so the wrap is covered);
//   - completion writer: the entry of descriptor i goes to slot i, which is
//     free (CQ_TAIL - CQ_HEAD < CQ_SIZE: never past the host's head); the 124
//     body bytes (line 0, then line 1) are written and acknowledged before
//     the phase word (the last 4 bytes of line 1), which
//     carries the slot's expected phase; the writer writes nothing else;
//   - one entry per launch: SQ_HEAD - CQ_TAIL is 1 for the queue of the
//     launch in flight (after its fetch) and 0 otherwise.
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module fv_cp #(
  parameter int NQ = 2,
  parameter int LB = 64
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              mmio_req_valid_i,
  input logic [9:0]        mmio_req_addr_i,
  input logic              mmio_req_write_i,
  input logic [31:0]       mmio_req_wdata_i,
  input logic              mem_req_ready_i,
  input logic              mem_rsp_valid_i,
  input logic [LB*8-1:0]   mem_rsp_rdata_i,
  input logic              mem_rsp_err_i,
  input logic              mem_sm_idle_i,
  input logic              launch_ready_i,
  input logic              sm_done_i,
  input logic              sm_cfg_error_i,
  input baresm_sm_fault_t  sm_fault_i,
  input baresm_rpt_rsp_t   rpt_rsp_i
);
  baresm_rpt_req_t rpt_req_o;
  logic mmio_req_ready_o, mmio_rsp_valid_o, irq_o;
  logic [31:0] mmio_rsp_rdata_o;
  // The engine's memory port (rtl/prim/baresm_mem_types.svh); the solver
  // drives the response's fields.
  typedef `BARESM_MEM1_REQ_T(LB) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(LB) mem_rsp_t;
  mem_req_t mem_req_o;
  mem_rsp_t mem_rsp_i;
  always_comb begin
    mem_rsp_i.valid = mem_rsp_valid_i;
    mem_rsp_i.rdata = mem_rsp_rdata_i;
    mem_rsp_i.err = mem_rsp_err_i;
  end
  logic sm_hold_o, launch_valid_o;
  baresm_launch_t launch_o;
  logic [3:0] state_o;
  logic [2:0] queue_o;
  logic [31:0] status_o;

  // The memory: one engine request at a time is outstanding there
  // (mem_cp_idle_i is "none"); its answer comes on a later cycle.
  logic out_q, mem_cp_idle_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) out_q <= 1'b0;
    else if (mem_req_o.valid && mem_req_ready_i) out_q <= 1'b1;
    else if (mem_rsp_valid_i) out_q <= 1'b0;
  end
  assign mem_cp_idle_i = !out_q;
  always @* if (rst_ni) assume (!mem_rsp_valid_i || out_q);

  baresm_cp #(
    .NumQueues(NQ), .MemLineBytes(LB), .MemBytes(1 << 20), .ResetCycles(2), .BackstopCycles(4),
    .NumLanes(32), .NumWarps(4), .CtaSlots(2), .NumBanks(32), .MaxRegs(63), .StackDepth(4),
    .SharedBytes(4096), .RegfileRegs(4096)
  ) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
endmodule

`default_nettype wire
