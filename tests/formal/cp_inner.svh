// Included at the end of a scratch copy of baresm_cp (scripts/formal.sh);
// tests/formal/fv_cp.sv says what is checked. The first group are the
// properties, the second the invariants a k-induction would need (the check
// is bounded; docs/verification.md says why). Written for the wrapper's
// 64-byte line: a 128-byte entry is two body beats (line 0 whole, then line 1
// up to the phase word) and the phase beat (line 1's last word); strobes as
// constants.
`ifdef FORMAL
  logic fv_fetched;   // past the fetch of the launch in flight, before its entry is complete
  logic fv_writing;   // writing the completion entry
  assign fv_fetched = state_q == E_CHECK || state_q == E_WIN || state_q == E_LAUNCH ||
                      state_q == E_RUN || state_q == E_BUILD || state_q == E_WBODY ||
                      state_q == E_WPHASE || state_q == E_ABORT || state_q == E_HALT;
  assign fv_writing = state_q == E_WBODY || state_q == E_WPHASE;

  // Where the entry of the launch in flight belongs, and its phase, from
  // baresm_cp_queues (whose own proof, fv_cp_queues, shows these are the
  // queue's free slot and expected phase, and stable until the entry is done).
  // In the induction of the engine alone (FV_PROOF_CP_ENGINE: the queue
  // pairs' registers cut to free values) they are what the engine latched
  // at take, which fv_cp_queues proves equal to the queue's.
  logic [31:0] fv_slot;
  logic        fv_phase;
`ifdef FV_PROOF_CP_ENGINE
  assign fv_slot = cpl_slot_q;
  assign fv_phase = phase_q;
`else
  assign fv_slot = q_cpl_slot;
  assign fv_phase = q_phase;
`endif

  // Body writes of this entry acknowledged so far (a write answered with a
  // memory error is not: the engine halts).
  logic [7:0] fv_body_acks_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_body_acks_q <= '0;
    else if (soft_reset || !fv_writing) fv_body_acks_q <= '0;
    else if (state_q == E_WBODY && mdone && !mem_rsp_i.err) fv_body_acks_q <= fv_body_acks_q + 8'd1;
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

`ifdef FV_PROOF_CP_ENGINE
  // What fv_cp_queues proves of the (here cut) queue pairs' ring positions:
  // whole records (64-byte descriptors, CPL_BYTES completion entries) inside memory.
  always @* if (rst_ni && (q_pick_valid || q_active)) assume (q_cpl_slot[5:0] == 6'd0);
  always @* if (rst_ni && (q_pick_valid || q_active)) assume (64'(q_cpl_slot) + 64'(CPL_BYTES) <= MEM_END);
  always @* if (rst_ni && (q_pick_valid || q_active)) assume (q_desc_addr[5:0] == 6'd0);
  always @* if (rst_ni && (q_pick_valid || q_active)) assume (64'(q_desc_addr) + 64'd64 <= MEM_END);
`endif

  logic fv_wr;
  assign fv_wr = mreq_valid_q && mreq_op_q == 2'd1;

  // The phase bit inside the write data of the beat that carries it (the
  // last one): the entry's bit, moved to the chunk's position in the line.
  localparam int FvPhaseBit = baresm_ring_pkg::CPL_PHASE_LSB + baresm_ring_pkg::CPL_PHASE_BIT;
  logic fv_wphase_bit;
  always_comb begin
    fv_wphase_bit = 1'b0;
    for (int p = 0; p < POS; p++)
      if (beat_pos == 32'(p)) fv_wphase_bit = mreq_wdata_q[p*CHUNK*8 + FvPhaseBit % (CHUNK*8)];
  end

  // ---- properties ---------------------------------------------------------
  always @* if (rst_ni) begin
    // Submission fetch: at the ring position baresm_cp_queues gives for the
    // launch in flight (a submitted, unfetched slot: its a_fetch_submitted).
`ifndef FV_PROOF_CP_ENGINE
    if (state_q == E_FETCH) assert (rec_addr_q == q_desc_addr && seq_q == q_seq);
`endif
    if (state_q == E_FETCH) begin
      assert (!mreq_valid_q || (mreq_op_q == 2'd0 && mreq_addr_q == rec_addr_q));
    end
    // The engine is in a launch exactly while the queues have one in flight,
    // and its events come in their order (baresm_cp_queues asserts both:
    // a_busy_is_flight here, a_take_when_free .. a_one_event there).
    // Completion writer: into the slot reserved for the launch.
    if (fv_fetched) assert (cpl_slot_q == fv_slot);
    // It writes nothing but this entry: the body (bytes 0..123: line 0,
    // then line 1) first, the phase word (124..127) after every body write
    // was acknowledged, with the slot's expected phase.
    if (fv_wr) begin
      assert (fv_writing);
      if (state_q == E_WBODY) begin
        assert (fv_body_acks_q < 8'(CBEATS));
        assert (mreq_addr_q == fv_slot + 32'(fv_body_acks_q) * 32'd64);
        if (fv_body_acks_q == 8'd0) assert (mreq_wstrb_q == {64{1'b1}});
        else assert (mreq_wstrb_q == {4'h0, 60'hFFF_FFFF_FFFF_FFFF});
      end
      if (state_q == E_WPHASE) begin
        assert (mreq_addr_q == fv_slot + 32'd64);
        assert (mreq_wstrb_q == {4'hF, 60'h0});
        assert (fv_body_acks_q == 8'(CBEATS));
        assert (fv_wphase_bit == fv_phase);
      end
    end
  end

  // ---- invariants ---------------------------------------------------------
  always @* if (rst_ni) begin
    if (state_q == E_FETCH) begin
      assert (cpl_slot_q == fv_slot && phase_q == fv_phase);
      assert (beat_q == '0);
    end
    if (fv_fetched) assert (phase_q == fv_phase);
    if (busy) assert (cpl_slot_q[5:0] == 6'd0 && 64'(cpl_slot_q) + 64'(CPL_BYTES) <= MEM_END);
    if (state_q == E_FETCH) assert (rec_addr_q[5:0] == 6'd0 && 64'(rec_addr_q) + 64'd64 <= MEM_END);
    if (fv_writing) assert (rec_addr_q == cpl_slot_q);
    if (state_q == E_WBODY) assert (32'(fv_body_acks_q) == 32'(beat_q) && fv_body_acks_q < 8'(CBEATS));
    if (!fv_writing && state_q != E_IDLE && state_q != E_HALT) assert (fv_body_acks_q == '0);
    if (state_q == E_IDLE || state_q == E_HALT) assert (fv_body_acks_q <= 8'(CBEATS));
    if (state_q == E_WPHASE) assert (fv_body_acks_q == 8'(CBEATS) && 32'(beat_q) == 32'(CBEATS - 1));
    // The last chunk's write data carries the entry's phase from its fill
    // on (the phase word's write reuses it).
    if ((state_q == E_WBODY && 32'(fl_beat_q) == 32'(CBEATS - 1) && fl_own_q) || state_q == E_WPHASE)
      assert (wchunk_q[FvPhaseBit % (CHUNK*8)] == phase_q);
    // A report word asked for lands in wchunk_q only once no request
    // holds it (asked when the buffer was free; no write issues while a
    // word of its chunk is still to come).
    if (fl_pend_q) assert (!mreq_valid_q);
    // ... and it is one of the SM's words of the chunk being filled (so
    // never the phase word).
    if (fl_pend_q) assert (baresm_state_pkg::RPT_CP_MASK[fl_pw_q] && 32'(fl_pw_q) / WPC == 32'(fl_beat_q));
    // E_BUILD asks for the first chunk's words only; its own fields come in E_WBODY.
    if (state_q == E_BUILD) assert (fl_beat_q == '0 && !fl_own_q);
    // E_WBODY fills the chunk it writes next, or the one after while that
    // write is in flight; the chunk in flight went out whole.
    if (state_q == E_WBODY)
      assert (fl_beat_q == beat_q || (32'(fl_beat_q) == 32'(beat_q) + 32'd1 && mbusy));
    if (state_q == E_WBODY && mbusy)
      assert (32'(fl_beat_q) == 32'(beat_q) + 32'd1 ||
              (32'(beat_q) == 32'(CBEATS - 1) && fl_beat_q == beat_q && fl_own_q && fl_w == NO_WORD));
    if (fl_w_q != NO_WORD)
      assert (fl_w_q < NO_WORD && baresm_state_pkg::RPT_CP_MASK[fl_w_q[4:0]] &&
              32'(fl_w_q) / WPC == 32'(fl_beat_q));
    // The engine's memory transaction belongs to a state that makes one.
    // A request is presented, then awaited: never both (a response to an
    // awaited request cannot overtake one not yet presented).
    assert (!(mreq_valid_q && mwait_q));
    if (mbusy) assert (state_q == E_FETCH || state_q == E_WIN || state_q == E_WBODY || state_q == E_WPHASE);
    if (mreq_valid_q && (state_q == E_FETCH || state_q == E_WIN)) assert (mreq_op_q == 2'd0);
    if (state_q == E_WIN && mbusy) assert (!went_hit && mreq_addr_q == (went_addr & LINE_MASK));
    if (mreq_valid_q && fv_writing) begin
      assert (mreq_op_q == 2'd1 && mreq_addr_q == cpl_slot_q + 32'(beat_q) * 32'd64);
      assert (mreq_wstrb_q == ((state_q == E_WBODY) ? wr_body_strb : wr_phase_strb));
      if (32'(beat_q) == 32'(CBEATS - 1)) assert (fv_wphase_bit == phase_q);
    end
    if (mwait_q && fv_writing) assert (mreq_op_q == 2'd1);
    // The memory's view (fv_cp.sv): outstanding exactly while awaited.
    if (state_q != E_RESET) assert (mwait_q == !mem_cp_idle_i);
    else assert (!mbusy);
    assert (state_q <= E_HALT);
  end
`endif
