// baresm_cp_queues: the command processor's queue pairs
// (docs/command-processor.md). It holds each pair's ring registers and
// free-running indices, applies the host's writes to them (checked: a bad
// doorbell or CQ_HEAD, or a ring change on a queue in use, is ignored and
// reported), picks the next queue round-robin, and follows the one launch in
// flight through the engine's three events:
//   take       the engine starts on the pick; its completion slot is reserved
//   fetched    its descriptor was read: SQ_HEAD moves past it
//   completed  its entry's phase word was written: CQ_TAIL moves past it
// A block of its own so that the ring invariants are proven by k-induction
// (tests/formal/fv_cp_queues.sv); the assertions at the end check that the
// engine keeps to the event order that proof assumes.
`include "baresm_assert.svh"
`default_nettype none

module baresm_cp_queues #(
  parameter int NumQueues = 4,          // 1..8 queue pairs
  parameter int MemBytes = 4194304,     // rings must lie inside [0, MemBytes)
  parameter int QW = (NumQueues > 1) ? $clog2(NumQueues) : 1  // derived: queue index bits
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          clear_i,          // soft reset: every register to its reset value

  // ---- host access to a queue pair's registers (decoded by baresm_cp) ----
  input  logic          wr_i,             // write reg_off_i of pair reg_q_i
  input  logic [QW-1:0] reg_q_i,
  input  logic [5:0]    reg_off_i,        // offset inside the pair's block
  input  logic [31:0]   wdata_i,
  output logic [31:0]   rdata_o,          // the register at (reg_q_i, reg_off_i)
  output logic          wr_err_o,         // this write is refused (DOORBELL_ERROR)

  // ---- the engine ----
  output logic          work_o,           // some valid queue has unfetched submissions
  output logic          pick_valid_o,     // ... and one of them a free completion slot
  input  logic          take_i,           // only with pick_valid_o, nothing in flight
  input  logic          fetched_i,        // only after take_i
  input  logic          completed_i,      // only after fetched_i
  output logic          active_o,         // taken and not yet completed
  output logic          fetched_o,        // ... and its descriptor fetched
  output logic [QW-1:0] cur_o,            // the queue of the launch in flight
  // Ring positions of the launch in flight (of the pick while none is): its
  // descriptor, SQ_BASE + (SQ_HEAD mod SQ_SIZE) * 64, and index SQ_HEAD; its
  // completion slot, CQ_BASE + (CQ_TAIL mod CQ_SIZE) * CPL_BYTES, and the phase the
  // entry carries there.
  output logic [31:0]   desc_addr_o,
  output logic [31:0]   seq_o,
  output logic [31:0]   cpl_slot_o,
  output logic          phase_o
);
  localparam logic [63:0] MEM_END = 64'(MemBytes);
  localparam int CPL_SHIFT = $clog2(baresm_ring_pkg::CPL_BYTES);  // bytes per completion entry, log2

  logic [31:0] sq_base_q [NumQueues];
  logic [31:0] sq_size_q [NumQueues];
  logic [31:0] sq_head_q [NumQueues];
  logic [31:0] sq_tail_q [NumQueues];
  logic [31:0] cq_base_q [NumQueues];
  logic [31:0] cq_size_q [NumQueues];
  logic [31:0] cq_head_q [NumQueues];
  logic [31:0] cq_tail_q [NumQueues];
  logic [NumQueues-1:0] dberr_q;
  logic [QW-1:0] rr_q, cur_q;

  // The launch in flight: none, taken (its slot reserved, descriptor being
  // read), fetched.
  typedef enum logic [1:0] { F_NONE = 2'd0, F_TAKEN = 2'd1, F_FETCHED = 2'd2 } flight_e;
  flight_e flight_q;
  assign active_o = flight_q != F_NONE;
  assign fetched_o = flight_q == F_FETCHED;
  assign cur_o = cur_q;

  // ---- queue status ----
  // A ring of `size` records of 2^shift bytes (descriptors 64, completion
  // entries CPL_BYTES): a power of two up to 65536 (so size[31:17] is 0 and
  // size[16:0] one-hot), 64-byte aligned, inside memory. Sized to what a
  // valid ring can be: the end is a 33-bit sum (size << shift < 2^24), not
  // a 64-bit one.
  function automatic logic ring_ok(input logic [31:0] base, input logic [31:0] size, input int shift);
    logic [16:0] s;
    logic [32:0] last;
    s = size[16:0];
    last = 33'(base) + (33'(s) << shift);
    ring_ok = size[31:17] == 15'd0 && s != 17'd0 && (s & (s - 17'd1)) == 17'd0 &&
              base[5:0] == 6'd0 && 64'(last) <= MEM_END;
  endfunction

  logic [NumQueues-1:0] q_off, q_valid, q_full, q_work;
  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      q_off[q] = sq_size_q[q] == 32'd0;
      q_valid[q] = ring_ok(sq_base_q[q], sq_size_q[q], 6) && ring_ok(cq_base_q[q], cq_size_q[q], CPL_SHIFT);
      q_full[q] = (cq_tail_q[q] - cq_head_q[q]) >= cq_size_q[q];
      q_work[q] = q_valid[q] && sq_head_q[q] != sq_tail_q[q];
    end
  end
  assign work_o = q_work != '0;

  // Round-robin pick: the first queue from rr_q on with work and a free
  // completion slot.
  logic [QW-1:0] pick;
  logic [7:0]    pick_qi;
  always_comb begin
    pick_valid_o = 1'b0;
    pick = '0;
    pick_qi = '0;
    for (int i = NumQueues - 1; i >= 0; i--) begin
      pick_qi = 8'(rr_q) + 8'(i);
      if (pick_qi >= 8'(NumQueues)) pick_qi = pick_qi - 8'(NumQueues);
      if (q_work[QW'(pick_qi)] && !q_full[QW'(pick_qi)]) begin
        pick_valid_o = 1'b1;
        pick = QW'(pick_qi);
      end
    end
  end

  logic [QW-1:0] sel;
  assign sel = active_o ? cur_q : pick;
  // The slot offsets, for a valid ring (size <= 65536: 16 index bits; the
  // engine takes them only from one).
  logic [15:0] sq_slot, cq_slot;
  assign sq_slot = sq_head_q[sel][15:0] & (sq_size_q[sel][15:0] - 16'd1);
  assign cq_slot = cq_tail_q[sel][15:0] & (cq_size_q[sel][15:0] - 16'd1);
  assign desc_addr_o = sq_base_q[sel] + (32'(sq_slot) << 6);
  assign seq_o = sq_head_q[sel];
  assign cpl_slot_o = cq_base_q[sel] + (32'(cq_slot) << CPL_SHIFT);
  assign phase_o = (cq_tail_q[sel] & cq_size_q[sel]) == 32'd0;

  // ---- host access ----
  logic [QW-1:0] a;
  assign a = reg_q_i;

  always_comb begin
    unique case (reg_off_i)
      6'(baresm_regs_pkg::QP_SQ_BASE_OFFSET): rdata_o = sq_base_q[a];
      6'(baresm_regs_pkg::QP_SQ_SIZE_OFFSET): rdata_o = sq_size_q[a];
      6'(baresm_regs_pkg::QP_SQ_HEAD_OFFSET): rdata_o = sq_head_q[a];
      6'(baresm_regs_pkg::QP_SQ_TAIL_OFFSET): rdata_o = sq_tail_q[a];
      6'(baresm_regs_pkg::QP_CQ_BASE_OFFSET): rdata_o = cq_base_q[a];
      6'(baresm_regs_pkg::QP_CQ_SIZE_OFFSET): rdata_o = cq_size_q[a];
      6'(baresm_regs_pkg::QP_CQ_HEAD_OFFSET): rdata_o = cq_head_q[a];
      6'(baresm_regs_pkg::QP_CQ_TAIL_OFFSET): rdata_o = cq_tail_q[a];
      6'(baresm_regs_pkg::QP_QSTATUS_OFFSET): begin
        rdata_o = '0;
        rdata_o[baresm_regs_pkg::QP_QSTATUS_CONFIG_ERROR_LSB] = !q_off[a] && !q_valid[a];
        rdata_o[baresm_regs_pkg::QP_QSTATUS_DOORBELL_ERROR_LSB] = dberr_q[a];
        rdata_o[baresm_regs_pkg::QP_QSTATUS_CQ_FULL_LSB] = q_valid[a] && q_full[a];
        rdata_o[baresm_regs_pkg::QP_QSTATUS_ACTIVE_LSB] = active_o && cur_q == a;
      end
      default: rdata_o = '0;
    endcase
  end

  // Refused writes: a doorbell beyond the ring or behind SQ_HEAD, a CQ_HEAD
  // beyond CQ_TAIL or behind itself, and ring registers of a pair that is not
  // quiescent (nothing submitted and unfetched, no launch in flight, no
  // completion unconsumed), so that the slot reserved at take stays the one
  // the host expects and SQ_TAIL - SQ_HEAD <= SQ_SIZE, CQ_TAIL - CQ_HEAD <=
  // CQ_SIZE always hold.
  logic db_bad, head_bad, ring_locked;
  always_comb begin
    db_bad = q_off[a] || !q_valid[a] ||
             (wdata_i - sq_head_q[a]) > sq_size_q[a] ||
             (wdata_i - sq_tail_q[a]) > sq_size_q[a];
    head_bad = (wdata_i - cq_head_q[a]) > (cq_tail_q[a] - cq_head_q[a]);
    ring_locked = sq_head_q[a] != sq_tail_q[a] || cq_head_q[a] != cq_tail_q[a] ||
                  (active_o && cur_q == a);
  end
  logic wr_db, wr_head, wr_ring;
  assign wr_db = wr_i && reg_off_i == 6'(baresm_regs_pkg::QP_DOORBELL_OFFSET);
  assign wr_head = wr_i && reg_off_i == 6'(baresm_regs_pkg::QP_CQ_HEAD_OFFSET);
  assign wr_ring = wr_i && (reg_off_i == 6'(baresm_regs_pkg::QP_SQ_BASE_OFFSET) ||
                            reg_off_i == 6'(baresm_regs_pkg::QP_SQ_SIZE_OFFSET) ||
                            reg_off_i == 6'(baresm_regs_pkg::QP_CQ_BASE_OFFSET) ||
                            reg_off_i == 6'(baresm_regs_pkg::QP_CQ_SIZE_OFFSET));
  assign wr_err_o = (wr_db && db_bad) || (wr_head && head_bad) || (wr_ring && ring_locked);

  // ---- registers ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int q = 0; q < NumQueues; q++) begin
        sq_base_q[q] <= '0;
        sq_size_q[q] <= '0;
        sq_head_q[q] <= '0;
        sq_tail_q[q] <= '0;
        cq_base_q[q] <= '0;
        cq_size_q[q] <= '0;
        cq_head_q[q] <= '0;
        cq_tail_q[q] <= '0;
      end
      dberr_q <= '0;
      rr_q <= '0;
      cur_q <= '0;
      flight_q <= F_NONE;
    end else if (clear_i) begin
      for (int q = 0; q < NumQueues; q++) begin
        sq_base_q[q] <= '0;
        sq_size_q[q] <= '0;
        sq_head_q[q] <= '0;
        sq_tail_q[q] <= '0;
        cq_base_q[q] <= '0;
        cq_size_q[q] <= '0;
        cq_head_q[q] <= '0;
        cq_tail_q[q] <= '0;
      end
      dberr_q <= '0;
      rr_q <= '0;
      cur_q <= '0;
      flight_q <= F_NONE;
    end else begin
      if (wr_i) begin
        unique case (reg_off_i)
          6'(baresm_regs_pkg::QP_SQ_BASE_OFFSET): if (!ring_locked) sq_base_q[a] <= wdata_i;
          6'(baresm_regs_pkg::QP_SQ_SIZE_OFFSET): if (!ring_locked) sq_size_q[a] <= wdata_i;
          6'(baresm_regs_pkg::QP_CQ_BASE_OFFSET): if (!ring_locked) cq_base_q[a] <= wdata_i;
          6'(baresm_regs_pkg::QP_CQ_SIZE_OFFSET): if (!ring_locked) cq_size_q[a] <= wdata_i;
          6'(baresm_regs_pkg::QP_CQ_HEAD_OFFSET): if (!head_bad) cq_head_q[a] <= wdata_i;
          6'(baresm_regs_pkg::QP_DOORBELL_OFFSET): if (!db_bad) sq_tail_q[a] <= wdata_i;
          default: ;
        endcase
        if (wr_err_o) dberr_q[a] <= 1'b1;
      end
      if (take_i) begin
        flight_q <= F_TAKEN;
        cur_q <= pick;
        rr_q <= (32'(pick) + 1 >= NumQueues) ? '0 : pick + QW'(1);
      end
      if (fetched_i) begin
        flight_q <= F_FETCHED;
        sq_head_q[cur_q] <= sq_head_q[cur_q] + 32'd1;
      end
      if (completed_i) begin
        flight_q <= F_NONE;
        cq_tail_q[cur_q] <= cq_tail_q[cur_q] + 32'd1;
      end
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) ----
  // The engine keeps to the event order: take the pick only when nothing is
  // in flight; fetched, then completed, once each.
  `BARESM_ASSERT(a_take_when_free, !take_i || (pick_valid_o && flight_q == F_NONE))
  `BARESM_ASSERT(a_fetched_after_take, !fetched_i || flight_q == F_TAKEN)
  `BARESM_ASSERT(a_completed_after_fetch, !completed_i || flight_q == F_FETCHED)
  `BARESM_ASSERT(a_one_event, 32'(take_i) + 32'(fetched_i) + 32'(completed_i) <= 1)
  // (Unpacked arrays are read outside the properties: Verilator 5.006 cannot
  // index them in a concurrent assertion.)
  logic [31:0] cur_sq_head, cur_sq_tail, cur_cq_head, cur_cq_tail, cur_cq_size;
  assign cur_sq_head = sq_head_q[cur_q];
  assign cur_sq_tail = sq_tail_q[cur_q];
  assign cur_cq_head = cq_head_q[cur_q];
  assign cur_cq_tail = cq_tail_q[cur_q];
  assign cur_cq_size = cq_size_q[cur_q];
  // A descriptor is fetched only from a submitted, unfetched slot, and the
  // completion slot of the launch in flight stays free (the writer never
  // writes an entry the host has not consumed).
  `BARESM_ASSERT(a_fetch_submitted, flight_q != F_TAKEN || cur_sq_head != cur_sq_tail)
  `BARESM_ASSERT(a_cpl_slot_free, flight_q == F_NONE || cur_cq_tail - cur_cq_head < cur_cq_size)
  `BARESM_ASSERT(a_flight_known, flight_q != 2'd3)

endmodule

`default_nettype wire
