// Included at the end of a scratch copy of baresm_sm_sched (scripts/formal.sh).
//   - one grant per cycle (grant_o one slot, < NumWarps), only to a ready warp;
//   - work conserving: a grant whenever some warp is ready;
//   - starvation bound: a warp that stays ready is granted within
//     StarveLimit + NumWarps - 1 cycles of waiting (counted from the cycle it
//     became ready, its last grant, its start or a clear).
`ifdef FORMAL
  localparam int FvBound = StarveLimit + NumWarps - 1;
  logic [7:0] fv_wait [NumWarps];   // consecutive ready-and-not-granted cycles
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < NumWarps; w++) fv_wait[w] <= '0;
    end else begin
      for (int w = 0; w < NumWarps; w++) begin
        if (clear_i || start_i[w] || !ready_i[w] || (grant_valid_o && grant_o == WarpW'(w)))
          fv_wait[w] <= '0;
        else if (fv_wait[w] != 8'hFF)
          fv_wait[w] <= fv_wait[w] + 8'd1;
      end
    end
  end
  always @* if (rst_ni && grant_valid_o) assert (32'(grant_o) < NumWarps);
  always @* if (rst_ni && grant_valid_o) assert (ready_i[grant_o]);
  always @* if (rst_ni) assert (grant_valid_o == (ready_i != '0));
  for (genvar w = 0; w < NumWarps; w++) begin : g_fv
    always @* if (rst_ni) assert (fv_wait[w] <= 8'(FvBound));
    // Induction invariant: the RTL's own counter never exceeds the limit.
    always @* if (rst_ni) assert (wait_q[w] <= CntW'(StarveLimit));
  end
  always @* if (rst_ni) assert (32'(last_q) < NumWarps);
`endif
