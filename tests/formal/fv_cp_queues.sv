// Formal proof: the command processor's queue pairs (baresm_cp_queues) with
// 2 queue pairs, by k-induction. The host is free: any queue-pair register
// write on any cycle, soft resets included. The engine is free too, within
// the event order the block asserts of it (take the pick when nothing is in
// flight, then fetched, then completed; cp_queues_inner.svh assumes it here,
// and the command processor's own check, fv_cp, proves that the engine
// keeps to it). Properties, in cp_queues_inner.svh (included into a copy of
// the module, they need its registers):
//   - submission ring: SQ_TAIL - SQ_HEAD never exceeds SQ_SIZE, a queue with
//     submissions has valid rings, and a descriptor is taken only from a
//     submitted, unfetched slot; the free-running 32-bit indices wrap
//     (induction starts from any index value, so every wrap is covered);
//   - completion ring: CQ_TAIL - CQ_HEAD never exceeds CQ_SIZE (never past
//     the host's head), and the slot reserved for the launch in flight is
//     free;
//   - one entry per launch: SQ_HEAD - CQ_TAIL is 1 for the queue of the
//     launch in flight after its fetch and 0 otherwise, and descriptor i's
//     entry goes to the slot of index i;
//   - the ring positions the engine latches at take (descriptor address and
//     index, completion slot and phase) stay those of the queue until the
//     launch completes.
`default_nettype none

module fv_cp_queues #(
  parameter int NQ = 2,
  parameter int QW = (NQ > 1) ? $clog2(NQ) : 1
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic          clear_i,
  input logic          wr_i,
  input logic [QW-1:0] reg_q_i,
  input logic [5:0]    reg_off_i,
  input logic [31:0]   wdata_i,
  input logic          take_i,
  input logic          fetched_i,
  input logic          completed_i
);
  logic [31:0] rdata_o, desc_addr_o, seq_o, cpl_slot_o;
  logic wr_err_o, work_o, pick_valid_o, active_o, fetched_o, phase_o;
  logic [QW-1:0] cur_o;

  baresm_cp_queues #(.NumQueues(NQ), .MemBytes(1 << 20)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);
endmodule

`default_nettype wire
