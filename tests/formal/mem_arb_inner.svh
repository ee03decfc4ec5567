// Included at the end of a scratch copy of baresm_cp_memarb (scripts/formal.sh):
// the requests at the memory, counted from the memory side, the environment
// assumptions stated on them, and the bookkeeping properties (these need the
// counters cp_out_q / sm_out_q as induction invariants).
`ifdef FORMAL
  logic [SmIdWidth+1:0] fv_at_cp, fv_at_sm;
  logic fv_mem_hs, fv_rsp_hs;
  assign fv_mem_hs = mem_req_o.valid && mem_req_ready_i;
  assign fv_rsp_hs = mem_rsp_i.valid && mem_rsp_ready_o;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_at_cp <= '0;
      fv_at_sm <= '0;
    end else begin
      fv_at_cp <= fv_at_cp + ((fv_mem_hs && mem_req_o.id[SmIdWidth]) ? 1 : 0) -
                  ((fv_rsp_hs && rsp_cp) ? 1 : 0);
      fv_at_sm <= fv_at_sm + ((fv_mem_hs && !mem_req_o.id[SmIdWidth]) ? 1 : 0) -
                  ((fv_rsp_hs && !rsp_cp) ? 1 : 0);
    end
  end
  // Environment: the command processor has one request in flight, the SM at
  // most one per id; the memory answers only requests it holds.
  always @* if (rst_ni && cp_req_i.valid) assume (fv_at_cp == '0);
  always @* if (rst_ni && sm_valid) assume (fv_at_sm < (SmIdWidth + 2)'(1 << SmIdWidth));
  always @* if (rst_ni && mem_rsp_i.valid && rsp_cp) assume (fv_at_cp != '0);
  always @* if (rst_ni && mem_rsp_i.valid && !rsp_cp) assume (fv_at_sm != '0);
  // Properties: the idle flags and the outstanding count are the memory's.
  always @* if (rst_ni) assert (cp_idle_o == (fv_at_cp == '0));
  always @* if (rst_ni) assert (sm_idle_o == (fv_at_sm == '0));
  always @* if (rst_ni) assert (outstanding_o == (SmIdWidth + 2)'(fv_at_cp + fv_at_sm));
  // Induction invariants.
  always @* if (rst_ni) assert ((SmIdWidth + 2)'(cp_out_q) == fv_at_cp && fv_at_cp <= 1);
  always @* if (rst_ni) assert ((SmIdWidth + 2)'(sm_out_q) == fv_at_sm &&
                                fv_at_sm <= (SmIdWidth + 2)'(1 << SmIdWidth));
`endif
