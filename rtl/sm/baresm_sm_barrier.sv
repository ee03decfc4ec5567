// baresm_sm_barrier: BAR.SYNC for every CTA slot and barrier id (docs/isa.md
// "Barriers", with the functional model's rules: the first warp to arrive at
// an idle barrier sets its count; count 0 waits for every live warp of the
// CTA, else ceil(count/32) warps; exits are re-checked every cycle).
//
// Per warp slot: waiting flag, barrier id and the BAR's pc. Per (CTA slot,
// id): the count of the current phase. Each cycle every waiting warp checks
// its own group (same CTA, same id): arrived >= needed releases the whole
// group. A CTA whose live warps all wait while no group of it releases is
// deadlocked; deadlock_o names the lowest such CTA slot and its waiting warps.
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

  logic [NumWarps-1:0] wait_q;
  logic [3:0]          id_q [NumWarps];
  logic [31:0]         pc_q [NumWarps];
  logic [15:0]         count_q [CtaSlots*16];
  // Index of count_q: {CTA slot, barrier id}; with one CTA slot the (always
  // 0) slot bit is dropped.
  localparam int IdxW = $clog2(CtaSlots * 16);

  // ---- release: each waiting warp evaluates its group ------------------------------
  // (over_live, for the assertion a_arrived_le_live, comes from the same
  // counts: a second N x N loop would cost simulation time every cycle.)
  // The N x N loop, the arrival scan and the deadlock scan sit under the
  // condition that makes them matter (a warp waits, a warp arrives): with no
  // warp waiting, no warp is released and no CTA is deadlocked, so the
  // result is the same, and a verilated model skips them in most cycles.
  logic [NumWarps-1:0] rel;
  logic [CntW-1:0] arrived, live;
  logic [15:0] cnt;
  logic [11:0] need;
  logic over_live;
  always_comb begin
    rel = '0;
    over_live = 1'b0;
    arrived = '0;
    live = '0;
    cnt = '0;
    need = '0;
    if (wait_q != '0) begin
      for (int w = 0; w < NumWarps; w++) begin
        arrived = '0;
        live = '0;
        for (int v = 0; v < NumWarps; v++) begin
          if (warp_cta_i[v*CtaW +: CtaW] == warp_cta_i[w*CtaW +: CtaW]) begin
            if (wait_q[v] && id_q[v] == id_q[w]) arrived = arrived + CntW'(1);
            if (warp_live_i[v]) live = live + CntW'(1);
          end
        end
        cnt = count_q[IdxW'({warp_cta_i[w*CtaW +: CtaW], id_q[w]})];
        need = (cnt == 16'd0) ? 12'(live) : 12'((17'(cnt) + 17'd31) >> 5);
        if (wait_q[w] && 12'(arrived) >= need) rel[w] = 1'b1;
        if (wait_q[w] && arrived > live) over_live = 1'b1;
      end
    end
  end

  // ---- arrival: is this the first warp of the phase? --------------------------------
  logic [CtaW-1:0] arr_cta;
  logic arr_first;
  always_comb begin
    arr_cta = warp_cta_i[arrive_warp_i*CtaW +: CtaW];
    arr_first = 1'b1;
    if (arrive_i) begin
      for (int v = 0; v < NumWarps; v++) begin
        if (wait_q[v] && !rel[v] && id_q[v] == arrive_id_i &&
            warp_cta_i[v*CtaW +: CtaW] == arr_cta)
          arr_first = 1'b0;
      end
    end
  end

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
    end else if (clear_i) begin
      wait_q <= '0;
    end else begin
      wait_q <= (wait_q & ~rel) | (arrive_i ? (NumWarps'(1) << arrive_warp_i) : '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (arrive_i) begin
      id_q[arrive_warp_i] <= arrive_id_i;
      pc_q[arrive_warp_i] <= arrive_pc_i;
      if (arr_first) count_q[IdxW'({arr_cta, arrive_id_i})] <= arrive_count_i;
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // What the issue stage guarantees: a warp arrives only when it is live, not
  // already waiting, and its CTA runs (all its warps were placed); a clear
  // drops any arrival.
  `BARESM_ASSUME(m_arrive_live, !arrive_i || clear_i || warp_live_i[arrive_warp_i])
  `BARESM_ASSUME(m_arrive_not_waiting, !arrive_i || clear_i || !wait_q[arrive_warp_i])
  `BARESM_ASSUME(m_arrive_cta_runs, !arrive_i || clear_i || cta_run_i[arr_cta])
  // A waiting warp has not exited, so the count of arrived warps of a group
  // never exceeds the live warps of its CTA.
  `BARESM_ASSERT(a_waiting_live, (wait_q & ~warp_live_i) == '0)
  `BARESM_ASSERT(a_arrived_le_live, !over_live)
  // A deadlock is reported for a CTA none of whose warps is released.
  `BARESM_ASSERT(a_deadlock_no_release, !deadlock_o || (deadlock_warps_o & rel) == '0)

endmodule

`default_nettype wire
