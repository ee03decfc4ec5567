// Internal properties of baresm_msm_lsu for the proof msm_lsu (appended
// inside the module by scripts/formal.sh); fv_msm_lsu.sv says what they
// prove and what they assume.
`ifdef FORMAL
  // ---- the range RAM: a shadow of what was written, and its read contract ------
  logic [32:0] fv_rng [32];
  always_ff @(posedge clk_i) if (range_wr_i.we) fv_rng[range_wr_i.addr] <= range_wr_i.data;
  logic [32:0] fv_rd_q;
  always_ff @(posedge clk_i) if (rng_re) fv_rd_q <= fv_rng[rng_raddr];
  always @* assume (rng_rdata == fv_rd_q);

  // ---- the tracked lane and its address --------------------------------------
  (* anyconst *) logic [4:0] fv_lane;
  (* anyseq *) logic [31:0] fv_vnew;
  logic [31:0] fv_v_q;   // the lane's address register, this loop
  always_ff @(posedge clk_i) if (st_q == S_IDLE && start_i) fv_v_q <= fv_vnew;
  logic fv_rdl_q;        // the word was read in the previous cycle
  always_ff @(posedge clk_i)
    fv_rdl_q <= st_q != S_IDLE && rf_re_o && rf_raddr_o == reg_addr(op_i.ra, fv_lane);
  always @* if (fv_rdl_q && st_q != S_IDLE) assume (rf_rdata_i == fv_v_q);

  logic fv_on;
  logic [31:0] fv_a;
  logic [32:0] fv_end;
  assign fv_on = exec[fv_lane];
  assign fv_a = (op_i.zero_a ? 32'd0 : fv_v_q) + op_i.imm;
  assign fv_end = {1'b0, fv_a} + 33'(msize);
  logic fv_aligned, fv_in_win, fv_touch, fv_ok;
  assign fv_aligned = (fv_a & {29'd0, msize - 3'd1}) == 32'd0;
  always_comb begin
    fv_in_win = 1'b0;
    for (int w = 0; w < NumWindows; w++)
      if ({1'b0, fv_a} >= fv_rng[2 * (2 + w)] && fv_end <= fv_rng[2 * (2 + w) + 1]) fv_in_win = 1'b1;
  end
  // The protected range as written: [end, base) at words 20, 21.
  assign fv_touch = !({1'b0, fv_a} >= fv_rng[20]) && !(fv_end <= fv_rng[21]);
  assign fv_ok = fv_aligned && (is_global ? fv_in_win && !fv_touch :
                                is_ldc ? fv_end <= fv_rng[3] : fv_end <= fv_rng[1]);

  // ---- (b), (d): a request of the lane only if its access passes ---------------
  always @* if (rst_ni && lsu_req_o.issue && lane_q == fv_lane) assert (fv_on && fv_ok);
  always @* if (rst_ni && lsu_req_o.issue && lane_q == fv_lane && is_global)
    assert (lsu_req_o.addr[31:LineW] == fv_a[31:LineW]);
  // Stronger: the access phase is reached only when the lane passed.
  always @* if (rst_ni && (st_q == S_ACCESS || st_q == S_WAIT) && fv_on) assert (fv_ok);
  always @* if (rst_ni && st_q == S_CHECK && lane_q > fv_lane && fv_on) assert (fv_ok);

  // ---- memory: the requests issued, taken, answered, counted at the ports ------
  logic fv_pend_q, fv_acc_q;   // issued and not taken; taken and not answered
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_pend_q <= 1'b0;
      fv_acc_q <= 1'b0;
    end else begin
      if (fv_pend_q && mem_req_ready_i) begin
        fv_pend_q <= 1'b0;
        fv_acc_q <= 1'b1;
      end
      if (fv_acc_q && mem_rsp_i.valid) fv_acc_q <= 1'b0;
      if (lsu_req_o.issue) fv_pend_q <= 1'b1;
    end
  end
  // A response only for a request taken and not yet answered.
  always @* if (mem_rsp_i.valid) assume (fv_acc_q);
  // (a): nothing waiting to be taken, nothing waiting for a response unless
  // it comes now; never more than one in flight.
  always @* if (rst_ni && lsu_req_o.issue) assert (!fv_pend_q && (!fv_acc_q || mem_rsp_i.valid));
  always @* if (rst_ni) assert (!(fv_pend_q && fv_acc_q));
  // (c): a fault leaves the loop idle with nothing in flight; no request
  // until the next start (fault_o falls at the start).
  always @* if (rst_ni && fault_o) assert (!busy_o && !lsu_req_o.issue && !fv_pend_q && !fv_acc_q);
  // The loop's own copy of the port's state.
  always @* if (rst_ni) assert (req_q == fv_pend_q && out_q == fv_acc_q);

  // ---- (a), (c) inside ---------------------------------------------------------
  always @* if (rst_ni) assert (!(req_q && out_q));
  always @* if (rst_ni && (req_q || out_q)) assert (st_q == S_WAIT && !is_shared);
  always @* if (rst_ni && st_q == S_WAIT && !is_shared) assert (req_q || out_q);
  always @* if (rst_ni && fault_q) assert (st_q == S_IDLE);
  always @* if (rst_ni && awr_q) assert (st_q == S_WAIT && is_atom && !is_shared);
  always @* if (rst_ni && lsu_req_o.issue) assert (!req_q && (!out_q || take_rsp));

  // ---- induction invariants: the tracked lane's check and access ----------------
  always @* if (rst_ni) assert (st_q != S_CHECK || ph_q <= 3'd3);
  always @* if (rst_ni) assert (st_q != S_ACCESS || ph_q <= 3'd3);
  always @* if (rst_ni) assert (st_q != S_WAIT || ph_q == 3'd0);
  always @* if (rst_ni && (st_q == S_CHECK || st_q == S_ACCESS) && !lane_on) assert (ph_q == 3'd0);
  always @* if (rst_ni && st_q == S_CHECK && lane_q == fv_lane && fv_on && ph_q == 3'd1 && !op_i.zero_a)
    assert (fv_rdl_q);
  always @* if (rst_ni && st_q == S_CHECK && lane_q == fv_lane && fv_on && ph_q >= 3'd2)
    assert (addr_q == fv_a && aend_q == fv_end && fv_aligned);
  always @* if (rst_ni && st_q == S_CHECK && fv_on && ph_q >= 3'd2)
    assert (is_shared ? rng_q == RngShared : is_ldc ? rng_q == RngParam :
            (rng_q == RngProt || (rng_q >= RngWin0 && 32'(rng_q) < 32'(RngWin0) + NumWindows)));
  always @* if (rst_ni && st_q == S_CHECK && lane_on && ph_q == 3'd2) assert (fv_rd_q == fv_rng[{rng_q, 1'b0}]);
  always @* if (rst_ni && st_q == S_CHECK && lane_on && ph_q == 3'd3) assert (fv_rd_q == fv_rng[{rng_q, 1'b1}]);
  always @* if (rst_ni && st_q == S_CHECK && lane_on && ph_q == 3'd3)
    assert (at_lo_q == ({1'b0, addr_q} >= fv_rng[{rng_q, 1'b0}]));
  // A window that has passed (win_ok_q) holds the lane's access.
  logic fv_win_before;
  always_comb begin
    fv_win_before = 1'b0;
    for (int w = 0; w < NumWindows; w++)
      if ((rng_q == RngProt || 32'(rng_q) > 32'(RngWin0) + w) &&
          {1'b0, fv_a} >= fv_rng[2 * (2 + w)] && fv_end <= fv_rng[2 * (2 + w) + 1]) fv_win_before = 1'b1;
  end
  always @* if (rst_ni && st_q == S_CHECK && lane_q == fv_lane && fv_on && ph_q >= 3'd2 && is_global && win_ok_q)
    assert (fv_win_before);
  // The access: the address read again is the one checked.
  always @* if (rst_ni && st_q == S_ACCESS && lane_q == fv_lane && fv_on && ph_q == 3'd1 && !op_i.zero_a)
    assert (fv_rdl_q);
  always @* if (rst_ni && st_q == S_ACCESS && lane_q == fv_lane && fv_on && ph_q >= 3'd2) assert (addr_q == fv_a);
  always @* if (rst_ni && st_q == S_ACCESS && lane_q == fv_lane && fv_on && ph_q == 3'd3 && !is_ldc)
    assert (gaddr_q == fv_a);
  always @* if (rst_ni && st_q == S_WAIT && lane_q == fv_lane && !is_shared && !is_ldc) assert (gaddr_q == fv_a);
  always @* if (rst_ni && st_q == S_WAIT) assert (lane_on);
`endif
