// Included at the end of a scratch copy of baresm_cp_queues
// (scripts/formal.sh); tests/formal/fv_cp_queues.sv says what is checked.
`ifdef FORMAL
  // ---- the engine (assumed) -------------------------------------------------
  always @* if (rst_ni) begin
    assume (!take_i || (pick_valid_o && flight_q == F_NONE));
    assume (!fetched_i || flight_q == F_TAKEN);
    assume (!completed_i || flight_q == F_FETCHED);
    assume (32'(take_i) + 32'(fetched_i) + 32'(completed_i) <= 1);
  end

  // What the engine latches at take (as baresm_cp does).
  logic [31:0] fv_desc_q, fv_seq_q, fv_slot_q;
  logic        fv_phase_q;
  always_ff @(posedge clk_i) begin
    if (take_i) begin
      fv_desc_q <= desc_addr_o;
      fv_seq_q <= seq_o;
      fv_slot_q <= cpl_slot_o;
      fv_phase_q <= phase_o;
    end
  end

  // ---- properties -----------------------------------------------------------
  always @* if (rst_ni) begin
    for (int q = 0; q < NumQueues; q++) begin
      assert (sq_tail_q[q] - sq_head_q[q] <= sq_size_q[q]);
      assert (cq_tail_q[q] - cq_head_q[q] <= cq_size_q[q]);
      assert (sq_head_q[q] - cq_tail_q[q] ==
              ((flight_q == F_FETCHED && 32'(cur_q) == q) ? 32'd1 : 32'd0));
      // Submissions and unconsumed entries only on valid rings.
      if (sq_head_q[q] != sq_tail_q[q] || cq_head_q[q] != cq_tail_q[q]) assert (q_valid[q]);
    end
    if (pick_valid_o) assert (q_work[pick] && !q_full[pick]);
    if (active_o) begin
      assert (q_valid[cur_q]);
      assert (cur_cq_tail - cur_cq_head < cur_cq_size);
      assert (cpl_slot_o == fv_slot_q && phase_o == fv_phase_q);
      assert (fv_seq_q == cur_cq_tail);
    end
    if (flight_q == F_TAKEN) begin
      assert (cur_sq_head != cur_sq_tail);
      assert (desc_addr_o == fv_desc_q && seq_o == fv_seq_q);
    end
    // Whole records (64-byte descriptors, CPL_BYTES completion entries)
    // inside memory (fv_cp's engine proof assumes it).
    if (pick_valid_o || active_o) begin
      assert (cpl_slot_o[5:0] == 6'd0 && 64'(cpl_slot_o) + 64'(baresm_ring_pkg::CPL_BYTES) <= MEM_END);
      assert (desc_addr_o[5:0] == 6'd0 && 64'(desc_addr_o) + 64'd64 <= MEM_END);
    end
    assert (flight_q != 2'd3);
    assert (32'(cur_q) < NumQueues && 32'(rr_q) < NumQueues);
  end
`endif
