// Included at the end of a scratch copy of baresm_sm_status (scripts/formal.sh,
// proof `status`; what is proven: tests/formal/fv_status.sv). The counters
// are checked where they live, the report port against them.
`ifdef FORMAL
  localparam int FvNC = 6 + baresm_state_pkg::NUM_WS;  // the saturating counters
  localparam int FvNW = 4;                             // the wrapping ones

  logic [32:0] fv_cnt [FvNC];
  logic [4:0]  fv_idx [FvNC];
  logic [31:0] fv_wcnt [FvNW];
  logic [4:0]  fv_widx [FvNW];
  always_comb begin
    fv_cnt[0] = cyc_q;    fv_idx[0] = baresm_state_pkg::RPT_SM_CYCLES;
    fv_cnt[1] = instr_q;  fv_idx[1] = baresm_state_pkg::RPT_WARP_INSTRS;
    fv_cnt[2] = stall_q;  fv_idx[2] = baresm_state_pkg::RPT_STALL_CYCLES;
    fv_cnt[3] = div_q;    fv_idx[3] = baresm_state_pkg::RPT_DIV_BRANCHES;
    fv_cnt[4] = bars_q;   fv_idx[4] = baresm_state_pkg::RPT_BAR_RELEASES;
    fv_cnt[5] = tinstr_q; fv_idx[5] = baresm_state_pkg::RPT_THREAD_INSTRS;
    for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) begin
      fv_cnt[6 + s] = scnt_q[s];
      fv_idx[6 + s] = baresm_state_pkg::RPT_WS_IDLE + 5'(s);
    end
    fv_wcnt[0] = ctas_q;   fv_widx[0] = baresm_state_pkg::RPT_CTAS_DONE;
    fv_wcnt[1] = smem_q;   fv_widx[1] = baresm_state_pkg::RPT_SHARED_PASSES;
    fv_wcnt[2] = gmem_q;   fv_widx[2] = baresm_state_pkg::RPT_GMEM_REQUESTS;
    fv_wcnt[3] = ifills_q; fv_widx[3] = baresm_state_pkg::RPT_IFETCH_FILLS;
  end

  // The previous cycle: the counters, whether it counted (out of reset, no
  // clear), and the report port's request.
  logic [32:0] fv_cnt_q [FvNC];
  logic [31:0] fv_wcnt_q [FvNW];
  logic        fv_counted_q = 1'b0, fv_rst_q = 1'b0, fv_busy_q = 1'b0, fv_issue_q = 1'b0;
  logic        fv_ask_q = 1'b0;
  logic [4:0]  fv_ask_idx_q = '0;
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < FvNC; i++) fv_cnt_q[i] <= fv_cnt[i];
    for (int i = 0; i < FvNW; i++) fv_wcnt_q[i] <= fv_wcnt[i];
    fv_counted_q <= rst_ni && !clear_i;
    fv_rst_q <= rst_ni;
    fv_busy_q <= busy_i;
    fv_issue_q <= issue_i;
    fv_ask_q <= rst_ni && rpt_req_i.valid;
    fv_ask_idx_q <= rpt_req_i.idx;
  end

  // What the port must answer for the word asked in the previous cycle.
  logic [31:0] fv_word;
  always_comb begin
    fv_word = '0;
    for (int i = 0; i < FvNC; i++)
      if (fv_ask_idx_q == fv_idx[i]) fv_word = fv_cnt_q[i][32] ? 32'hFFFF_FFFF : fv_cnt_q[i][31:0];
    for (int i = 0; i < FvNW; i++)
      if (fv_ask_idx_q == fv_widx[i]) fv_word = fv_wcnt_q[i];
  end

  for (genvar i = 0; i < FvNC; i++) begin : g_fv_cnt
    always @* if (rst_ni && fv_counted_q) assert (fv_cnt[i] >= fv_cnt_q[i]);
    always @* if (rst_ni && fv_counted_q && fv_cnt_q[i][32]) assert (fv_cnt[i] == fv_cnt_q[i]);
  end
  always @* if (rst_ni && fv_counted_q && !fv_cnt_q[0][32]) assert (cyc_q == fv_cnt_q[0] + 33'(fv_busy_q));
  always @* if (rst_ni && fv_counted_q && !fv_cnt_q[1][32])
    assert (instr_q == fv_cnt_q[1] + 33'(fv_busy_q && fv_issue_q));

  // The report port.
  always @* if (rst_ni && fv_ask_q) assert (rpt_rsp_o.word == fv_word);
  always @* if (rst_ni && fv_counted_q) assert (rpt_rsp_o.issued == (instr_q != fv_cnt_q[1]));
  always @* if (rst_ni && fv_counted_q) assert (ctas_q == fv_wcnt_q[0] + 32'(rpt_rsp_o.ctas));
  always @* if (rst_ni && !fv_rst_q) assert (!rpt_rsp_o.issued && rpt_rsp_o.ctas == '0);
`endif
