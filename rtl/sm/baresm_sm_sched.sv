// baresm_sm_sched: picks at most one ready warp per cycle.
//   policy_gto_i = 0: loose round-robin, priority rotates to the warp after
//                     the last one granted.
//   policy_gto_i = 1: greedy-then-oldest: the last granted warp again while
//                     it is ready, else the oldest ready warp (dispatch order,
//                     kept in an age matrix).
// Either way no ready warp starves: a warp that has waited StarveLimit
// ready-but-not-granted cycles since its last grant wins next (round-robin
// among such warps), so every ready warp issues within StarveLimit + NumWarps
// cycles. After reset or clear the last grant reads as the highest slot, so
// round-robin starts at warp 0 (the order the functional model runs warps).
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_sched #(
  parameter int NumWarps = 16,
  parameter int StarveLimit = 32,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,
  input  logic                policy_gto_i,
  input  logic [NumWarps-1:0] start_i,   // a warp was placed in this slot: it is the youngest
  input  logic [NumWarps-1:0] ready_i,
  output logic                grant_valid_o,
  output logic [WarpW-1:0]    grant_o
);

  localparam int CntW = $clog2(StarveLimit + 1);

  logic [WarpW-1:0] last_q;
  logic greedy_q;  // last_q's warp was granted and still holds its slot: GTO may stay on it
  logic [NumWarps*NumWarps-1:0] older_q;  // [w*NumWarps + v]: w is older than v
  logic [CntW-1:0] wait_q [NumWarps];

  logic [NumWarps-1:0] starving;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) starving[w] = ready_i[w] && (wait_q[w] == CntW'(StarveLimit));
  end

  // Round-robin over a set, starting after last_q.
  function automatic logic [WarpW:0] rr_pick(input logic [NumWarps-1:0] set,
                                             input logic [WarpW-1:0] last);
    logic [WarpW:0] r;
    int idx;
    r = '0;
    for (int k = NumWarps; k >= 1; k--) begin
      idx = 32'(last) + k;
      if (idx >= NumWarps) idx = idx - NumWarps;
      if (set[idx]) r = {1'b1, WarpW'(idx)};
    end
    rr_pick = r;
  endfunction

  logic [WarpW:0] pick_starve, pick_rr, pick_old;
  logic oldest;
  // The picks only matter with a ready warp, the age order only under GTO
  // (with no ready warp every pick is empty anyway): a verilated model skips
  // the N x N age scan in the cycles nothing can issue.
  always_comb begin
    pick_starve = '0;
    pick_rr = '0;
    pick_old = '0;
    oldest = 1'b0;
    if (ready_i != '0) begin
      pick_starve = rr_pick(starving, last_q);
      pick_rr = rr_pick(ready_i, last_q);
      if (policy_gto_i) begin
        for (int w = NumWarps - 1; w >= 0; w--) begin
          oldest = ready_i[w];
          for (int v = 0; v < NumWarps; v++) begin
            if (v != w && ready_i[v] && !older_q[w*NumWarps+v]) oldest = 1'b0;
          end
          if (oldest) pick_old = {1'b1, WarpW'(w)};
        end
      end
    end
  end

  always_comb begin
    grant_valid_o = 1'b0;
    grant_o = '0;
    if (pick_starve[WarpW]) begin
      grant_valid_o = 1'b1;
      grant_o = pick_starve[WarpW-1:0];
    end else if (!policy_gto_i) begin
      grant_valid_o = pick_rr[WarpW];
      grant_o = pick_rr[WarpW-1:0];
    end else if (greedy_q && ready_i[last_q]) begin
      grant_valid_o = 1'b1;
      grant_o = last_q;
    end else if (pick_old[WarpW]) begin
      grant_valid_o = 1'b1;
      grant_o = pick_old[WarpW-1:0];
    end else begin
      // No age order among the ready warps (only after a clear): round-robin.
      grant_valid_o = pick_rr[WarpW];
      grant_o = pick_rr[WarpW-1:0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= WarpW'(NumWarps - 1);
      greedy_q <= 1'b0;
      older_q <= '0;
      for (int w = 0; w < NumWarps; w++) wait_q[w] <= '0;
    end else if (clear_i) begin
      last_q <= WarpW'(NumWarps - 1);
      greedy_q <= 1'b0;
      older_q <= '0;
      for (int w = 0; w < NumWarps; w++) wait_q[w] <= '0;
    end else begin
      if (grant_valid_o) begin
        last_q <= grant_o;
        greedy_q <= 1'b1;
      end else if (start_i[last_q]) begin
        greedy_q <= 1'b0;
      end
      for (int w = 0; w < NumWarps; w++) begin
        if (start_i[w] || (grant_valid_o && grant_o == WarpW'(w))) begin
          wait_q[w] <= '0;
        end else if (ready_i[w] && wait_q[w] != CntW'(StarveLimit)) begin
          wait_q[w] <= wait_q[w] + CntW'(1);
        end
        if (start_i[w]) begin
          for (int v = 0; v < NumWarps; v++) begin
            older_q[w*NumWarps+v] <= 1'b0;
            if (v != w) older_q[v*NumWarps+w] <= 1'b1;
          end
        end
      end
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // A grant goes to one ready warp of the slots that exist, and a cycle with
  // a ready warp always grants one (no bubble while work is waiting).
  `BARESM_ASSERT(a_grant_ready, !grant_valid_o || (32'(grant_o) < NumWarps && ready_i[grant_o]))
  `BARESM_ASSERT(a_grant_when_ready, ready_i == '0 || grant_valid_o)
  // A starving warp is served before any other.
  `BARESM_ASSERT(a_starving_first, starving == '0 || (grant_valid_o && starving[grant_o]))
  // The age matrix is an order: never both w older than v and v older than w.
  // It changes only when a warp starts, so simulation checks it the cycle
  // after (a NumWarps^2 scan in every idle cycle was 2.6 % of a verilated
  // c32w16 SM's); a formal induction step needs it at every step.
  logic age_conflict, age_check, age_moved_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) age_moved_q <= 1'b0;
    else age_moved_q <= start_i != '0;
  end
`ifdef FORMAL
  assign age_check = 1'b1;
`else
  assign age_check = age_moved_q;
`endif
  always_comb begin
    age_conflict = 1'b0;
    if (age_check) for (int w = 0; w < NumWarps; w++) begin
      for (int v = 0; v < NumWarps; v++) begin
        if (older_q[w*NumWarps+v] && older_q[v*NumWarps+w]) age_conflict = 1'b1;
      end
    end
  end
  `BARESM_ASSERT(a_age_antisymmetric, !age_conflict)
  // The dispatcher places at most one warp per cycle.
  `BARESM_ASSUME(m_one_start, $onehot0(start_i))

endmodule

`default_nettype wire
