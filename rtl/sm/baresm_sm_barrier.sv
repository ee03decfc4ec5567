// baresm_sm_barrier: BAR.SYNC for every CTA slot and barrier id (docs/isa.md
// "Barriers", with the functional model's rules: the first warp to arrive at
// an idle barrier sets its count; count 0 waits for every live warp of the
// CTA, else ceil(count/32) warps; exits are re-checked every cycle).
//
// Per warp slot: waiting flag, barrier id, CTA slot and the BAR's pc. Per
// group (CTA slot, id): the count of the current phase and the number of its
// waiting warps. Each cycle every group compares its waiting warps with its
// need: enough releases the whole group. A CTA whose live warps all wait
// while no group of it releases is deadlocked; deadlock_o names the lowest
// such CTA slot and its waiting warps.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_barrier #(
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     clear_i,

  input  logic                     arrive_i,
  input  logic [WarpW-1:0]         arrive_warp_i,
  input  logic [3:0]               arrive_id_i,
  input  logic [15:0]              arrive_count_i,
  input  logic [31:0]              arrive_pc_i,

  input  logic [NumWarps*CtaW-1:0] warp_cta_i,   // CTA slot of each warp slot
  input  logic [NumWarps-1:0]      warp_live_i,  // slot holds a warp that has not exited
  input  logic [CtaSlots-1:0]      cta_run_i,    // CTA slot fully dispatched

  output logic [NumWarps-1:0]      waiting_o,
  output logic [NumWarps-1:0]      release_o,    // these warps are released this cycle
  output logic                     release_any_o,
  output logic                     deadlock_o,
  output logic [CtaW-1:0]          deadlock_cta_o,
  output logic [NumWarps-1:0]      deadlock_warps_o,
  output logic [NumWarps*32-1:0]   bar_pc_o
);

  localparam int CntW = $clog2(NumWarps + 1);
  localparam int NumGroups = CtaSlots * 16;
  // Index of a group, {CTA slot, barrier id}; with one CTA slot the (always
  // 0) slot bit is dropped.
  localparam int IdxW = $clog2(NumGroups);

  logic [NumWarps-1:0] wait_q;
  logic [3:0]          id_q [NumWarps];
  logic [CtaW-1:0]     cta_q [NumWarps];       // the CTA slot the warp arrived in
  logic [31:0]         pc_q [NumWarps];
  logic [15:0]         count_q [NumGroups];    // the phase's count, set by its first warp
  // Warps waiting in each group, group g in [g*CntW +: CntW] (a vector: it
  // is updated whole, in a loop a verilated model may keep rolled).
  logic [NumGroups*CntW-1:0] arrived_q;

  // ---- release: per group, a count of its waiting warps ------------------------------
  // Each group counts its warps as they arrive and drops to 0 when it is
  // released; the live warps are counted once per CTA slot. A group is
  // released when its count reaches the need: count_q 0 -> every live warp
  // of the CTA, else ceil(count/32) warps. A waiting warp reads its group's
  // release bit.
  // Everything here sits under "a warp waits": with none, no group holds a
  // warp, so the result is the same, and a verilated model skips it.
  logic [CntW-1:0]      live [CtaSlots];
  logic [NumGroups-1:0] grp_rel;
  logic [NumWarps-1:0]  rel;
  logic                 over_live;
  logic [11:0]          need;
  always_comb begin
    for (int c = 0; c < CtaSlots; c++) live[c] = '0;
    grp_rel = '0;
    rel = '0;
    over_live = 1'b0;
    need = '0;
    if (wait_q != '0) begin
      for (int c = 0; c < CtaSlots; c++) begin
        for (int w = 0; w < NumWarps; w++) begin
          if (warp_live_i[w] && warp_cta_i[w*CtaW +: CtaW] == CtaW'(c)) live[c] = live[c] + CntW'(1);
        end
      end
      for (int g = 0; g < NumGroups; g++) begin
        need = (count_q[g] == 16'd0) ? 12'(live[g / 16]) : 12'((17'(count_q[g]) + 17'd31) >> 5);
        grp_rel[g] = arrived_q[g*CntW +: CntW] != '0 && 12'(arrived_q[g*CntW +: CntW]) >= need;
        if (arrived_q[g*CntW +: CntW] > live[g / 16]) over_live = 1'b1;
      end
      for (int w = 0; w < NumWarps; w++) rel[w] = wait_q[w] && grp_rel[IdxW'({cta_q[w], id_q[w]})];
    end
  end

  // ---- arrival: is this the first warp of the phase? --------------------------------
  // It is when its group holds no warp, or the group is released this cycle.
  logic [CtaW-1:0] arr_cta;
  logic [IdxW-1:0] arr_grp;
  logic            arr_first;
  assign arr_cta   = warp_cta_i[arrive_warp_i*CtaW +: CtaW];
  assign arr_grp   = IdxW'({arr_cta, arrive_id_i});
  assign arr_first = arrived_q[32'(arr_grp)*CntW +: CntW] == '0 || grp_rel[arr_grp];

  // ---- deadlock ----------------------------------------------------------------------
  logic [NumWarps-1:0] mine;
  always_comb begin
    deadlock_o = 1'b0;
    deadlock_cta_o = '0;
    deadlock_warps_o = '0;
    mine = '0;
    if (wait_q != '0) begin
      for (int c = CtaSlots - 1; c >= 0; c--) begin
        for (int w = 0; w < NumWarps; w++) mine[w] = warp_cta_i[w*CtaW +: CtaW] == CtaW'(c);
        if (cta_run_i[c] && (warp_live_i & mine) != '0 && (warp_live_i & mine & ~wait_q) == '0 &&
            (rel & mine) == '0) begin
          deadlock_o = 1'b1;
          deadlock_cta_o = CtaW'(c);
          deadlock_warps_o = wait_q & mine;
        end
      end
    end
  end

  assign waiting_o = wait_q;
  assign release_o = rel;
  assign release_any_o = rel != '0;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) bar_pc_o[w*32 +: 32] = pc_q[w];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wait_q <= '0;
      arrived_q <= '0;
    end else if (clear_i) begin
      wait_q <= '0;
      arrived_q <= '0;
    end else begin
      wait_q <= (wait_q & ~rel) | (arrive_i ? (NumWarps'(1) << arrive_warp_i) : '0);
      if (arrive_i || grp_rel != '0) begin : count
        logic [NumGroups*CntW-1:0] arrived_d;
        for (int g = 0; g < NumGroups; g++) begin
          arrived_d[g*CntW +: CntW] = (grp_rel[g] ? '0 : arrived_q[g*CntW +: CntW]) +
                                      ((arrive_i && arr_grp == IdxW'(g)) ? CntW'(1) : '0);
        end
        arrived_q <= arrived_d;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (arrive_i) begin
      id_q[arrive_warp_i] <= arrive_id_i;
      cta_q[arrive_warp_i] <= arr_cta;
      pc_q[arrive_warp_i] <= arrive_pc_i;
      if (arr_first) count_q[arr_grp] <= arrive_count_i;
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // What the issue stage guarantees: a warp arrives only when it is live, not
  // already waiting, and its CTA runs (all its warps were placed); a clear
  // drops any arrival.
  `BARESM_ASSUME(m_arrive_live, !arrive_i || clear_i || warp_live_i[arrive_warp_i])
  `BARESM_ASSUME(m_arrive_not_waiting, !arrive_i || clear_i || !wait_q[arrive_warp_i])
  `BARESM_ASSUME(m_arrive_cta_runs, !arrive_i || clear_i || cta_run_i[arr_cta])
  // A waiting warp stays in its CTA slot (a slot is only re-placed after its
  // warp exits), so its group is the one it arrived in.
  logic [NumWarps-1:0] cta_moved;
  always_comb begin
    for (int w = 0; w < NumWarps; w++)
      cta_moved[w] = wait_q[w] && warp_cta_i[w*CtaW +: CtaW] != cta_q[w];
  end
  `BARESM_ASSUME(m_waiting_cta_stable, cta_moved == '0)
  // A waiting warp has not exited, so the count of arrived warps of a group
  // never exceeds the live warps of its CTA.
  `BARESM_ASSERT(a_waiting_live, (wait_q & ~warp_live_i) == '0)
  `BARESM_ASSERT(a_arrived_le_live, !over_live)
  // A deadlock is reported for a CTA none of whose warps is released.
  `BARESM_ASSERT(a_deadlock_no_release, !deadlock_o || (deadlock_warps_o & rel) == '0)

endmodule

`default_nettype wire
