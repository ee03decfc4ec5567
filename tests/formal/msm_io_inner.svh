// Internal properties of baresm_msm_io for the proof msm_io (appended inside
// the module by scripts/formal.sh); fv_msm_io.sv says what they prove and
// what they assume. Offsets: contract/msm_io.def's numbers.
`ifdef FORMAL
  // ---- the previous cycle --------------------------------------------------------------
  logic fv_pv_q;             // the previous cycle was out of reset
  logic fv_pw_q, fv_pr_q;    // a write, a read, in it
  logic [15:0] fv_po_q;      // its offset
  logic [31:0] fv_pd_q;      // its write data
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_pv_q <= 1'b0;
    else fv_pv_q <= 1'b1;
  end
  always_ff @(posedge clk_i) begin
    fv_pw_q <= req_i.valid && req_i.we;
    fv_pr_q <= req_i.valid && !req_i.we;
    fv_po_q <= {req_i.addr[13:0], 2'b00};
    fv_pd_q <= req_i.wdata;
  end
  function automatic logic fv_wr(input logic [15:0] o);   // a write to offset o, previous cycle
    fv_wr = fv_pw_q && fv_po_q == o;
  endfunction
  logic fv_chk;
  assign fv_chk = rst_ni && fv_pv_q;

  // ---- a write reaches exactly its target: each register changes only for its offset -------------
  msm_lane_op_t fv_op_q;
  msm_launch_t fv_lp_q;
  logic [31:0] fv_ipc_q, fv_itm_q, fv_iex_q, fv_cx_q, fv_cy_q, fv_cz_q, fv_pm_q, fv_pb_q;
  logic [WarpW-1:0] fv_iw_q, fv_pww_q;
  logic [2:0] fv_ppd_q;
  logic fv_div_q;
  logic [4:0] fv_cur_q;
  logic [15:0] fv_wstrb_q;
  always_ff @(posedge clk_i) begin
    fv_op_q <= lane_op_o;
    fv_lp_q <= launch_o;
    fv_ipc_q <= issue_pc_o;
    fv_itm_q <= issue_tmask_o;
    fv_iex_q <= issue_exec_o;
    fv_cx_q <= cta_x_o;
    fv_cy_q <= cta_y_o;
    fv_cz_q <= cta_z_o;
    fv_pm_q <= pw_mask_o;
    fv_pb_q <= pw_bits_o;
    fv_iw_q <= issue_warp_o;
    fv_pww_q <= pw_warp_o;
    fv_ppd_q <= pw_pd_o;
    fv_div_q <= diverge_q;
    fv_cur_q <= cur_q;
    fv_wstrb_q <= m_wstrb_q;
  end
  // LANE_OP 0x080: [6:0] op, [14:7] mod, [19:15] warp, [20] bimm, [21] zero_a, [22] zero_b,
  // [23] zero_c, [24] write_rd, [25] zero_fill.
  always @* if (fv_chk)
    assert (fv_wr(16'h080) ? {lane_op_o.op, lane_op_o.mod, lane_op_o.warp, lane_op_o.bimm, lane_op_o.zero_a,
                              lane_op_o.zero_b, lane_op_o.zero_c, lane_op_o.write_rd, lane_op_o.zero_fill} ==
                             {fv_pd_q[6:0], fv_pd_q[14:7], fv_pd_q[19:15], fv_pd_q[20], fv_pd_q[21], fv_pd_q[22],
                              fv_pd_q[23], fv_pd_q[24], fv_pd_q[25]}
                           : {lane_op_o.op, lane_op_o.mod, lane_op_o.warp, lane_op_o.bimm, lane_op_o.zero_a,
                              lane_op_o.zero_b, lane_op_o.zero_c, lane_op_o.write_rd, lane_op_o.zero_fill} ==
                             {fv_op_q.op, fv_op_q.mod, fv_op_q.warp, fv_op_q.bimm, fv_op_q.zero_a, fv_op_q.zero_b,
                              fv_op_q.zero_c, fv_op_q.write_rd, fv_op_q.zero_fill});
  // LANE_REGS 0x084: [5:0] ra, [11:6] rb, [17:12] rc, [23:18] rd.
  always @* if (fv_chk)
    assert ({lane_op_o.ra, lane_op_o.rb, lane_op_o.rc, lane_op_o.rd} ==
            (fv_wr(16'h084) ? {fv_pd_q[5:0], fv_pd_q[11:6], fv_pd_q[17:12], fv_pd_q[23:18]}
                            : {fv_op_q.ra, fv_op_q.rb, fv_op_q.rc, fv_op_q.rd}));
  always @* if (fv_chk) assert (lane_op_o.imm == (fv_wr(16'h088) ? fv_pd_q : fv_op_q.imm));
  always @* if (fv_chk) assert (lane_op_o.exec == (fv_wr(16'h08C) ? fv_pd_q : fv_op_q.exec));
  always @* if (fv_chk) assert (lane_op_o.sel == (fv_wr(16'h090) ? fv_pd_q : fv_op_q.sel));
  always @* if (fv_chk) assert (lane_op_o.tid0[31:0] == (fv_wr(16'h0B4) ? fv_pd_q : fv_op_q.tid0[31:0]));
  always @* if (fv_chk) assert (lane_op_o.tid0[47:32] == (fv_wr(16'h0B8) ? fv_pd_q[15:0] : fv_op_q.tid0[47:32]));
  // The launch: LP_PARAM_ADDR 0x104, LP_BLOCK_XY 0x120, LP_REGS 0x128 [5:0].
  always @* if (fv_chk) assert (launch_o.param_addr == (fv_wr(16'h104) ? fv_pd_q : fv_lp_q.param_addr));
  always @* if (fv_chk) assert (launch_o.block_xy == (fv_wr(16'h120) ? fv_pd_q : fv_lp_q.block_xy));
  always @* if (fv_chk) assert (launch_o.regs == (fv_wr(16'h128) ? fv_pd_q[5:0] : fv_lp_q.regs));
  // Issue: ISSUE_PC 0x0C4, ISSUE_TMASK 0x0C8, ISSUE_EXEC 0x0CC, CTA_X/Y/Z 0x0D0/4/8,
  // ISSUE 0x0DC ([4:0] warp, [8] a fault, [9] divergent), PW_MASK 0x0E0, PW_BITS 0x0E4,
  // PW 0x0E8 ([4:0] warp, [10:8] predicate), EVENT 0x0EC (0 barrier released, 1 CTA retired).
  always @* if (fv_chk) assert (issue_pc_o == (fv_wr(16'h0C4) ? fv_pd_q : fv_ipc_q));
  always @* if (fv_chk) assert (issue_tmask_o == (fv_wr(16'h0C8) ? fv_pd_q : fv_itm_q));
  always @* if (fv_chk) assert (issue_exec_o == (fv_wr(16'h0CC) ? fv_pd_q : fv_iex_q));
  always @* if (fv_chk) assert (cta_x_o == (fv_wr(16'h0D0) ? fv_pd_q : fv_cx_q));
  always @* if (fv_chk) assert (cta_y_o == (fv_wr(16'h0D4) ? fv_pd_q : fv_cy_q));
  always @* if (fv_chk) assert (cta_z_o == (fv_wr(16'h0D8) ? fv_pd_q : fv_cz_q));
  always @* if (fv_chk) assert (issue_warp_o == (fv_wr(16'h0DC) ? fv_pd_q[WarpW-1:0] : fv_iw_q));
  always @* if (fv_chk) assert (diverge_q == (fv_wr(16'h0DC) ? fv_pd_q[9] : fv_div_q));
  always @* if (fv_chk) assert (pw_mask_o == (fv_wr(16'h0E0) ? fv_pd_q : fv_pm_q));
  always @* if (fv_chk) assert (pw_bits_o == (fv_wr(16'h0E4) ? fv_pd_q : fv_pb_q));
  always @* if (fv_chk) assert (pw_warp_o == (fv_wr(16'h0E8) ? fv_pd_q[WarpW-1:0] : fv_pww_q));
  always @* if (fv_chk) assert (pw_pd_o == (fv_wr(16'h0E8) ? fv_pd_q[10:8] : fv_ppd_q));
  // Pulses, the cycle after the write (none out of reset).
  always @* if (rst_ni) assert (lane_start_o == (req_i.valid && req_i.we && {req_i.addr[13:0], 2'b00} == 16'h094));
  always @* if (rst_ni) assert (lsu_start_o == (req_i.valid && req_i.we && {req_i.addr[13:0], 2'b00} == 16'h0BC));
  always @* if (fv_chk) assert (issue_o == (fv_wr(16'h0DC) && !fv_pd_q[8]));
  always @* if (fv_chk) assert (issue_fault_o == (fv_wr(16'h0DC) && fv_pd_q[8]));
  always @* if (fv_chk) assert (diverge_o == (issue_o && diverge_q));
  always @* if (fv_chk) assert (pw_valid_o == fv_wr(16'h0E8));
  always @* if (fv_chk) assert (bar_release_o == (fv_wr(16'h0EC) && !fv_pd_q[0]));
  always @* if (fv_chk) assert (cta_retire_o == (fv_wr(16'h0EC) && fv_pd_q[0]));
  // Warp states: WARPS 0x0C0 ([7:0] used, [15:8] exited, [23:16] waiting, [28:24] current,
  // [29] in an instruction), 0 after reset.
  logic [NumWarps-1:0] fv_used_q, fv_ex_q, fv_wt_q;
  logic fv_ii_q;
  always_ff @(posedge clk_i) begin
    fv_used_q <= used_o;
    fv_ex_q <= exited_o;
    fv_wt_q <= bar_wait_o;
    fv_ii_q <= in_instr_q;
  end
  always @* if (fv_chk)
    assert ({used_o, exited_o, bar_wait_o, in_instr_q} ==
            (fv_wr(16'h0C0) ? {fv_pd_q[NumWarps-1:0], fv_pd_q[8 +: NumWarps], fv_pd_q[16 +: NumWarps], fv_pd_q[29]}
                            : {fv_used_q, fv_ex_q, fv_wt_q, fv_ii_q}));
  always @* if (fv_chk) assert (cur_q == (fv_wr(16'h0C0) ? fv_pd_q[28:24] : fv_cur_q));
  always @* if (rst_ni && !fv_pv_q) assert (used_o == '0 && exited_o == '0 && bar_wait_o == '0 && !in_instr_q);
  always @* if (rst_ni && !fv_pv_q)
    assert (!issue_o && !issue_fault_o && !pw_valid_o && !bar_release_o && !cta_retire_o && !rsp_o.valid);
  for (genvar w = 0; w < NumWarps; w++) begin : g_fv_warp
    always @* if (rst_ni)
      assert (ready_o[w] == (used_o[w] && !exited_o[w] && !bar_wait_o[w] && !(in_instr_q && cur_q == 5'(w))));
    always @* if (rst_ni)
      assert (wait_mem_o[w] == (in_instr_q && cur_q == 5'(w) && (fv_pend_q || fv_acc_q || lsu_mem_wait_i)));
  end

  // ---- the register-file windows and the ranges -----------------------------------------------------
  logic [15:0] fv_o;
  logic fv_w, fv_r;
  assign fv_o = {req_i.addr[13:0], 2'b00};
  assign fv_w = req_i.valid && req_i.we;
  assign fv_r = req_i.valid && !req_i.we;
  logic fv_in_rf, fv_in_rft;
  assign fv_in_rf = fv_o >= 16'h2000 && fv_o < 16'h2000 + 16'(4 << RfAddrW);
  assign fv_in_rft = fv_o >= 16'h4000 && fv_o < 16'h4000 + 16'(4 << RfAddrW);
  always @* if (rst_ni) assert (rf_we_o == (fv_w && (fv_in_rf || fv_in_rft)) && rf_traced_o == (fv_w && fv_in_rft));
  always @* if (rst_ni && rf_we_o)
    assert (32'(rf_waddr_o) == 32'((fv_o - (fv_in_rft ? 16'h4000 : 16'h2000)) >> 2) && rf_wdata_o == req_i.wdata);
  always @* if (rst_ni) assert (rf_re_o == (fv_r && fv_in_rf));
  always @* if (rst_ni && rf_re_o) assert (32'(rf_raddr_o) == 32'((fv_o - 16'h2000) >> 2));
  logic fv_topk_q, fv_top_q;   // LP_RANGE_TOP 0x12C: written since reset, its bit 0
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_topk_q <= 1'b0;
    else if (fv_w && fv_o == 16'h12C) begin
      fv_topk_q <= 1'b1;
      fv_top_q <= req_i.wdata[0];
    end
  end
  always @* if (rst_ni) assert (range_wr_o.we == (fv_w && fv_o >= 16'h140 && fv_o < 16'h1C0));
  always @* if (rst_ni && range_wr_o.we)
    assert (32'(range_wr_o.addr) == 32'((fv_o - 16'h140) >> 2) && range_wr_o.data[31:0] == req_i.wdata);
  always @* if (rst_ni && range_wr_o.we && fv_topk_q) assert (range_wr_o.data[32] == fv_top_q);
  always @* if (rst_ni && fv_topk_q) assert (lp_range_top_q == fv_top_q);

  // ---- the memory port ---------------------------------------------------------------------------
  logic fv_mstart;
  assign fv_mstart = fv_w && (fv_o == 16'h050 || fv_o == 16'h054 || fv_o == 16'h05C);
  logic fv_pend_q, fv_acc_q;   // offered and not taken; taken and not answered
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
      if (fv_mstart || lsu_req_i.issue) fv_pend_q <= 1'b1;
    end
  end
  // The environment: one requester, only when the port is idle; the port's
  // data and strobes are not written while a request is outstanding; an
  // answer only for a request taken.
  always @* if (rst_ni) assume (!(lsu_req_i.issue && fv_w));
  always @* if (rst_ni && fv_mstart) assume (!fv_pend_q && !fv_acc_q);
  always @* if (rst_ni && lsu_req_i.issue) assume (!fv_pend_q && (!fv_acc_q || mem_rsp_i.valid));
  always @* if (rst_ni && (fv_pend_q || fv_acc_q)) assume (!(fv_w && fv_o >= 16'h060 && fv_o <= 16'h070));
  always @* if (mem_rsp_i.valid) assume (fv_acc_q);
  // The request: what was started, shown until taken.
  logic [31:0] fv_maddr_q;
  logic fv_mst_q, fv_mf_q;
  always_ff @(posedge clk_i) begin
    if (fv_mstart) begin
      fv_maddr_q <= req_i.wdata;
      fv_mst_q <= fv_o == 16'h05C;
      fv_mf_q <= fv_o == 16'h054;
    end else if (lsu_req_i.issue) begin
      fv_maddr_q <= lsu_req_i.addr;
      fv_mst_q <= lsu_req_i.write;
      fv_mf_q <= 1'b0;
    end
  end
  always @* if (rst_ni) assert (mem_req_o.valid == fv_pend_q);
  always @* if (rst_ni) assert (m_valid_q == fv_pend_q && m_out_q == fv_acc_q);
  always @* if (rst_ni && (fv_pend_q || fv_acc_q))
    assert (mem_req_o.addr == fv_maddr_q && mem_req_o.op == {1'b0, fv_mst_q} && m_fetch_q == fv_mf_q &&
            mem_req_o.id == '0 && mem_req_o.amo == '0);
  always @* if (rst_ni) assert (ifill_o == (fv_pend_q && mem_req_ready_i && fv_mf_q));
  // MEM_WSTRB 0x070 and the data words MEM_DATA0..3 0x060..0x06C: changed only by their
  // write, the loop's request (its strobes, its word in all four) or a read's answer.
  logic [31:0] fv_md_q [4];
  always_ff @(posedge clk_i) for (int k = 0; k < 4; k++) fv_md_q[k] <= m_data_q[k];
  always @* if (rst_ni && fv_pend_q) assert (mem_req_o.wstrb == (fv_mst_q ? m_wstrb_q : 16'd0));
  always @* if (rst_ni && fv_pend_q)
    assert (mem_req_o.wdata == {m_data_q[3], m_data_q[2], m_data_q[1], m_data_q[0]});
  logic fv_pli_q, fv_prd_q, fv_perr_q;
  logic [31:0] fv_plw_q;
  logic [15:0] fv_pls_q;
  logic [127:0] fv_pline_q;
  always_ff @(posedge clk_i) begin
    fv_pli_q <= lsu_req_i.issue;
    fv_plw_q <= lsu_req_i.word;
    fv_pls_q <= lsu_req_i.wstrb;
    fv_prd_q <= fv_acc_q && mem_rsp_i.valid && !fv_mst_q;
    fv_perr_q <= mem_rsp_i.err;
    fv_pline_q <= mem_rsp_i.rdata;
  end
  always @* if (fv_chk) assert (m_wstrb_q == (fv_wr(16'h070) ? fv_pd_q[15:0] : fv_pli_q ? fv_pls_q : fv_wstrb_q));
  for (genvar k = 0; k < 4; k++) begin : g_fv_data
    always @* if (fv_chk)
      assert (m_data_q[k] == (fv_wr(16'h060 + 16'(4 * k)) ? fv_pd_q : fv_pli_q ? fv_plw_q :
                              (fv_prd_q && !fv_perr_q) ? fv_pline_q[32*k +: 32] : fv_md_q[k]));
  end
  // MEM_STATUS's error bit: the last answer's (0 after reset).
  logic fv_err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_err_q <= 1'b0;
    else if (fv_acc_q && mem_rsp_i.valid) fv_err_q <= mem_rsp_i.err;
  end
  always @* if (rst_ni) assert (m_err_q == fv_err_q);

  // ---- the cycle counter: cycles since reset ------------------------------------------------------
  logic [63:0] fv_now_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_now_q <= 64'd0;
    else fv_now_q <= fv_now_q + 64'd1;
  end
  always @* if (rst_ni) assert (clock_o == fv_now_q);

  // ---- shared memory's clear (SMEM_CLEAR 0x0B0) ------------------------------------------------------
  localparam int FvWords = SharedBytes / 4;
  logic fv_clr_q;
  logic [31:0] fv_ci_q, fv_cn_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_clr_q <= 1'b0;
    else if (fv_w && fv_o == 16'h0B0) begin
      fv_clr_q <= req_i.wdata != 32'd0;
      fv_cn_q <= (req_i.wdata > 32'(FvWords)) ? 32'(FvWords) : req_i.wdata;
      fv_ci_q <= 32'd0;
    end else if (fv_clr_q) begin
      fv_ci_q <= fv_ci_q + 32'd1;
      if (fv_ci_q + 32'd1 == fv_cn_q) fv_clr_q <= 1'b0;
    end
  end
  always @* if (rst_ni) assert (sm_we_o == fv_clr_q);
  always @* if (rst_ni && fv_clr_q) assert (32'(sm_waddr_o) == fv_ci_q && fv_ci_q < fv_cn_q && fv_cn_q <= FvWords);
  always @* if (rst_ni && fv_clr_q) assert (32'(clr_i_q) == fv_ci_q && 32'(clr_n_q) == fv_cn_q);

  // ---- read answers: the next cycle, the addressed register's value at the read --------------------
  logic [31:0] fv_rexp;
  always_comb begin
    fv_rexp = 32'd0;
    unique case (fv_o)
      16'h058: fv_rexp = {30'd0, fv_err_q, fv_pend_q || fv_acc_q};
      16'h060: fv_rexp = m_data_q[0];
      16'h064: fv_rexp = m_data_q[1];
      16'h068: fv_rexp = m_data_q[2];
      16'h06C: fv_rexp = m_data_q[3];
      16'h074: fv_rexp = fv_now_q[31:0];
      16'h078: fv_rexp = fv_now_q[63:32];
      16'h098: fv_rexp = {31'd0, lane_busy_i || fv_clr_q};
      16'h09C: fv_rexp = lane_bits_i;
      16'h0F0: fv_rexp = {19'd0, lsu_fault_lane_i, lsu_fault_kind_i, 3'd0, lsu_fault_i};
      16'h0F4: fv_rexp = lsu_fault_addr_i;
      default: ;
    endcase
  end
  logic [31:0] fv_rexp_q;
  logic fv_rrf_q;
  always_ff @(posedge clk_i) begin
    fv_rexp_q <= fv_rexp;
    fv_rrf_q <= fv_in_rf;
  end
  always @* if (fv_chk) assert (rsp_o.valid == fv_pr_q);
  always @* if (fv_chk && fv_pr_q) assert (rsp_o.rdata == (fv_rrf_q ? rf_rdata_i : fv_rexp_q));
`endif
