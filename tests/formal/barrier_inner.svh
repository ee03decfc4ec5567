// Included at the end of a scratch copy of baresm_sm_barrier (scripts/formal.sh).
//   - only waiting warps are released, and a group (same CTA, same id) is
//     released whole;
//   - count 0 (wait for the CTA): a warp is released exactly when every live
//     warp of its CTA waits at its barrier id;
//   - count k > 0: released exactly when ceil(k/32) warps of the group wait;
//   - (induction) each group's count of waiting warps is exact;
//   - deadlock is flagged exactly when some fully dispatched CTA has live
//     warps, all of them waiting, and none of them released (so no arrival
//     and no release can ever happen for it), and it names the lowest such
//     CTA slot and its waiting warps.
`ifdef FORMAL
  logic [NumWarps-1:0] fv_all [NumWarps];   // [w][v]: v is no obstacle to w's group
  logic [NumWarps-1:0] fv_grp [NumWarps];   // [w][v]: v waits in w's group
  logic [CtaSlots-1:0] fv_dead;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      for (int v = 0; v < NumWarps; v++) begin
        fv_grp[w][v] = wait_q[v] && id_q[v] == id_q[w] &&
                       warp_cta_i[v*CtaW +: CtaW] == warp_cta_i[w*CtaW +: CtaW];
        fv_all[w][v] = warp_cta_i[v*CtaW +: CtaW] != warp_cta_i[w*CtaW +: CtaW] ||
                       !warp_live_i[v] || fv_grp[w][v];
      end
    end
    for (int c = 0; c < CtaSlots; c++) begin
      fv_dead[c] = cta_run_i[c];
      begin : b_any
        logic any;
        any = 1'b0;
        for (int w = 0; w < NumWarps; w++) begin
          if (warp_cta_i[w*CtaW +: CtaW] == CtaW'(c)) begin
            if (warp_live_i[w]) any = 1'b1;
            if (warp_live_i[w] && !wait_q[w]) fv_dead[c] = 1'b0;
            if (rel[w]) fv_dead[c] = 1'b0;
          end
        end
        if (!any) fv_dead[c] = 1'b0;
      end
    end
  end

  for (genvar w = 0; w < NumWarps; w++) begin : g_fv
    logic [15:0] cnt_w;
    assign cnt_w = count_q[{warp_cta_i[w*CtaW +: CtaW], id_q[w]}];
    always @* if (rst_ni && release_o[w]) assert (waiting_o[w]);
    for (genvar v = 0; v < NumWarps; v++) begin : g_v
      always @* if (rst_ni && release_o[w] && fv_grp[w][v]) assert (release_o[v]);
    end
    always @* if (rst_ni && wait_q[w] && cnt_w == 16'd0) assert (release_o[w] == (fv_all[w] == '1));
    always @* if (rst_ni && wait_q[w] && cnt_w != 16'd0)
      assert (release_o[w] == ($countones(fv_grp[w]) * 32 >= 32'(cnt_w)));
  end
  always @* if (rst_ni) assert (deadlock_o == (fv_dead != '0));
  // The module's m_waiting_cta_stable, in every step (a clocked assumption
  // leaves the inputs of the last step free).
  always @* if (rst_ni) assume (cta_moved == '0);
  // Induction invariant: a group's count is the number of warps waiting in it.
  for (genvar g = 0; g < NumGroups; g++) begin : g_fg
    logic [NumWarps-1:0] fv_in;
    for (genvar w = 0; w < NumWarps; w++) begin : g_w
      assign fv_in[w] = wait_q[w] && IdxW'({cta_q[w], id_q[w]}) == IdxW'(g);
    end
    always @* if (rst_ni) assert (32'(arrived_q[g*CntW +: CntW]) == $countones(fv_in));
  end
  for (genvar c = 0; c < CtaSlots; c++) begin : g_fc
    always @* if (rst_ni && fv_dead[c]) assert (32'(deadlock_cta_o) <= c);
  end
  always @* if (rst_ni && deadlock_o) assert (fv_dead[deadlock_cta_o]);
  always @* if (rst_ni && deadlock_o) begin
    for (int w = 0; w < NumWarps; w++)
      assert (deadlock_warps_o[w] == (wait_q[w] && warp_cta_i[w*CtaW +: CtaW] == deadlock_cta_o));
  end
`endif
