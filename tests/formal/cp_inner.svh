// Included at the end of a scratch copy of baresm_cp (scripts/formal.sh);
// tests/formal/fv_cp.sv says what is checked. The first group are the
// properties, the second the invariants a k-induction needs (the check is
// bounded for now; docs/verification.md says why). Written for the wrapper's
// 64-byte line: one body beat, strobes as constants.
`ifdef FORMAL
  logic fv_fetched;   // past the fetch of the launch in flight, before its entry is complete
  logic fv_writing;   // writing the completion entry
  assign fv_fetched = state_q == E_CHECK || state_q == E_WIN || state_q == E_LAUNCH ||
                      state_q == E_RUN || state_q == E_BUILD || state_q == E_WBODY ||
                      state_q == E_WPHASE || state_q == E_ABORT;
  assign fv_writing = state_q == E_WBODY || state_q == E_WPHASE;

  // The registers of the queue in flight (unpacked arrays read outside the
  // properties).
  logic [31:0] fv_sq_base, fv_sq_size, fv_sq_head, fv_sq_tail;
  logic [31:0] fv_cq_base, fv_cq_size, fv_cq_head, fv_cq_tail;
  assign fv_sq_base = sq_base_q[cur_q];
  assign fv_sq_size = sq_size_q[cur_q];
  assign fv_sq_head = sq_head_q[cur_q];
  assign fv_sq_tail = sq_tail_q[cur_q];
  assign fv_cq_base = cq_base_q[cur_q];
  assign fv_cq_size = cq_size_q[cur_q];
  assign fv_cq_head = cq_head_q[cur_q];
  assign fv_cq_tail = cq_tail_q[cur_q];

  // Where the entry of the launch in flight belongs, and its phase.
  logic [31:0] fv_slot;
  logic        fv_phase;
  assign fv_slot = fv_cq_base + ((fv_cq_tail & (fv_cq_size - 32'd1)) << 6);
  assign fv_phase = (fv_cq_tail & fv_cq_size) == 32'd0;

  // Body writes of this entry acknowledged so far.
  logic [7:0] fv_body_acks_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_body_acks_q <= '0;
    else if (soft_reset || !fv_writing) fv_body_acks_q <= '0;
    else if (state_q == E_WBODY && mdone) fv_body_acks_q <= fv_body_acks_q + 8'd1;
  end

  // The proof cuts desc_q to a free value (scripts/formal.sh: it is most of
  // the solver's work and the properties do not depend on the launch it
  // describes). What the engine's control reads of it, the window table and
  // count, is held as the RTL holds it: it changes only when a descriptor
  // arrives.
  logic [39:0] fv_win_prev_q;
  logic        fv_win_held_q;
  always_ff @(posedge clk_i) begin
    fv_win_prev_q <= {d_window_table, d_window_count};
    fv_win_held_q <= rst_ni && !(state_q == E_FETCH && mdone);
  end
  always @* if (rst_ni && fv_win_held_q) assume ({d_window_table, d_window_count} == fv_win_prev_q);

  logic fv_wr;
  assign fv_wr = mreq_valid_q && mreq_op_q == 2'd1;

  // ---- properties ---------------------------------------------------------
  always @* if (rst_ni) begin
    // Submission fetch: only a submitted, unfetched slot, at its ring position.
    if (state_q == E_FETCH) begin
      assert (fv_sq_head != fv_sq_tail);
      assert (rec_addr_q == fv_sq_base + ((fv_sq_head & (fv_sq_size - 32'd1)) << 6));
      assert (ring_ok(fv_sq_base, fv_sq_size));
      assert (!mreq_valid_q || (mreq_op_q == 2'd0 && mreq_addr_q == rec_addr_q));
    end
    for (int q = 0; q < NumQueues; q++) begin
      assert (sq_tail_q[q] - sq_head_q[q] <= sq_size_q[q]);
      // Never past the host's head.
      assert (cq_tail_q[q] - cq_head_q[q] <= cq_size_q[q]);
      // One entry per launch: descriptor i's entry is the i-th.
      assert (sq_head_q[q] - cq_tail_q[q] == ((fv_fetched && 32'(cur_q) == q) ? 32'd1 : 32'd0));
    end
    // Completion writer: into the free slot of the launch's descriptor index.
    if (fv_fetched) begin
      assert (fv_cq_tail - fv_cq_head < fv_cq_size);
      assert (cpl_slot_q == fv_slot);
      assert (seq_q == fv_cq_tail);
      assert (ring_ok(fv_cq_base, fv_cq_size));
    end
    // It writes nothing but this entry: the body (bytes 0..59) first, the
    // phase word (60..63) after every body write was acknowledged, with the
    // slot's expected phase.
    if (fv_wr) begin
      assert (fv_writing && mreq_addr_q == fv_slot);
      if (state_q == E_WBODY) assert (mreq_wstrb_q == {4'h0, 60'hFFF_FFFF_FFFF_FFFF});
      if (state_q == E_WPHASE) begin
        assert (mreq_wstrb_q == {4'hF, 60'h0});
        assert (fv_body_acks_q == 8'(BEATS));
        assert (mreq_wdata_q[baresm_ring_pkg::CPL_PHASE_LSB + baresm_ring_pkg::CPL_PHASE_BIT] == fv_phase);
      end
    end
  end

  // ---- invariants ---------------------------------------------------------
  always @* if (rst_ni) begin
    if (state_q == E_FETCH) begin
      assert (seq_q == fv_sq_head);
      assert (cpl_slot_q == fv_slot && phase_q == fv_phase);
      assert (fv_cq_tail - fv_cq_head < fv_cq_size);
      assert (ring_ok(fv_cq_base, fv_cq_size));
      assert (beat_q == '0);
    end
    if (fv_fetched) assert (phase_q == fv_phase);
    if (fv_writing) assert (rec_addr_q == cpl_slot_q && beat_q == '0);
    if (state_q == E_WBODY) assert (fv_body_acks_q == '0);
    if (!fv_writing && state_q != E_IDLE) assert (fv_body_acks_q == '0);
    if (state_q == E_IDLE) assert (fv_body_acks_q == '0 || fv_body_acks_q == 8'(BEATS));
    if (state_q == E_WPHASE) assert (fv_body_acks_q == 8'(BEATS));
    // The engine's memory transaction belongs to a state that makes one.
    if (mbusy) assert (state_q == E_FETCH || state_q == E_WIN || state_q == E_WBODY || state_q == E_WPHASE);
    if (mreq_valid_q && (state_q == E_FETCH || state_q == E_WIN)) assert (mreq_op_q == 2'd0);
    if (state_q == E_WIN && mbusy) assert (!went_hit && mreq_addr_q == (went_addr & LINE_MASK));
    if (mreq_valid_q && fv_writing) begin
      assert (mreq_op_q == 2'd1 && mreq_addr_q == cpl_slot_q);
      assert (mreq_wstrb_q == ((state_q == E_WBODY) ? wr_body_strb : wr_phase_strb));
      assert (mreq_wdata_q[baresm_ring_pkg::CPL_PHASE_LSB + baresm_ring_pkg::CPL_PHASE_BIT] == phase_q);
    end
    if (mwait_q && fv_writing) assert (mreq_op_q == 2'd1);
    // The memory's view (fv_cp.sv): outstanding exactly while awaited.
    if (state_q != E_RESET) assert (mwait_q == !mem_cp_idle_i);
    else assert (!mbusy);
    assert (state_q <= E_RESET);
  end
`endif
