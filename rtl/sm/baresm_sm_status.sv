// baresm_sm_status: what the SM shows of itself. Every warp slot is in
// exactly one state each cycle (baresm_state_pkg::WS_*, first match):
//   idle (no warp) > exited > waiting at a barrier > issued > ready >
//   waiting on memory (an instruction-cache miss, an operand a load will
//   write, or a BAR waiting for the warp's loads and stores) > waiting on the
//   scoreboard (everything else: operands of the pipe, a busy unit, an
//   empty instruction buffer, an unsettled stack top).
// The states come out as warp_state_o and are counted (warp-cycles per
// state), next to the launch's performance counters: cycles, warp- and
// thread-instructions, stall cycles (live warps, no issue), instruction-
// cache fills, divergent branches, barrier releases, CTAs completed,
// shared-memory passes, global-memory requests. They count from the
// launch's accept (clear_i), the first eight and the states while the
// engine is busy. A completion entry holds each in 32 bits, saturated
// (contract/rings.def), so each such counter is 32 bits and a sticky bit 32:
// exact below 2^32, it stops once it reaches 2^32 (the report then reads
// 0xFFFFFFFF; formal proof `status`). The CTA, shared-pass, global-request
// and fill counts wrap (32 bits). clock_o (cycles since reset, the S2R
// CLOCK register) is 64-bit.
//
// The counters leave only through the report port (rtl/prim/
// baresm_report_types.svh): the index of a completion-entry word
// (baresm_state_pkg::RPT_*, contract/sm_report.def) in, that word out the
// next cycle -- what a RAM holding the counters would answer.
`include "baresm_report_types.svh"
`default_nettype none

module baresm_sm_status #(
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    clear_i,
  input  logic                    busy_i,
  input  logic                    running_i,

  // ---- each warp -------------------------------------------------------------------
  input  logic [NumWarps-1:0]     used_i,         // the slot holds a warp
  input  logic [NumWarps-1:0]     live_i,         // ... that has not exited
  input  logic [NumWarps-1:0]     exited_i,       // its stack is empty
  input  logic [NumWarps-1:0]     bar_wait_i,
  input  logic [NumWarps-1:0]     ready_i,
  input  logic [NumWarps-1:0]     ifetch_miss_i,  // waiting for an instruction-cache fill
  input  logic [NumWarps-1:0]     ib_valid_i,
  input  logic [NumWarps-1:0]     ib_ctrl_i,      // ... of class CL_CTRL (resolved at issue)
  input  logic [NumWarps-1:0]     hazard_i,
  input  logic [NumWarps-1:0]     hazard_mem_i,
  input  logic [NumWarps-1:0]     unit_ok_i,

  // ---- events -------------------------------------------------------------------------
  input  logic                    issue_i,
  input  logic [WarpW-1:0]        issue_warp_i,
  input  logic [31:0]             issue_exec_i,   // lanes it executes
  input  logic                    issue_diverge_i, // a divergent branch issues
  input  logic                    bar_release_i,
  input  logic [CtaSlots-1:0]     cta_retire_i,
  input  logic                    ifill_i,        // an instruction-cache line request is taken
  input  logic                    smem_pass_i,    // a shared-memory pass
  input  logic                    gmem_req_i,     // a global-memory request is taken

  output logic [NumWarps*3-1:0]   warp_state_o,
  output logic [63:0]             cycles_o,       // cycles of the launch
  output logic [63:0]             clock_o,        // cycles since reset

  // ---- the report port (to the command processor) ------------------------------------
  input  baresm_rpt_req_t         rpt_req_i,
  output baresm_rpt_rsp_t         rpt_rsp_o
);

  localparam int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1;

  logic [2:0] wstate [NumWarps];
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      wstate[w] = baresm_sm_pkg::warp_state(used_i[w], exited_i[w], bar_wait_i[w],
          issue_i && issue_warp_i == WarpW'(w), ready_i[w],
          ifetch_miss_i[w] || (ib_valid_i[w] && (hazard_mem_i[w] || (!hazard_i[w] && !unit_ok_i[w] && ib_ctrl_i[w]))));
      warp_state_o[w*3 +: 3] = wstate[w];
    end
  end

  logic [63:0] cyc_total_q;
  logic [32:0] cyc_q, instr_q, stall_q, div_q, bars_q, tinstr_q;  // bit 32: reached 2^32, stopped
  logic [31:0] ctas_q, ifills_q, smem_q, gmem_q;
  logic [32:0] scnt_q [baresm_state_pkg::NUM_WS];
  logic [5:0] in_state [baresm_state_pkg::NUM_WS];
  logic [CtaW:0] cta_retire_count;
  always_comb begin
    cta_retire_count = '0;
    for (int c = 0; c < CtaSlots; c++) cta_retire_count = cta_retire_count + (CtaW + 1)'(cta_retire_i[c]);
  end
  always_comb begin
    for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) begin
      in_state[s] = '0;
      for (int w = 0; w < NumWarps; w++) begin
        if (wstate[w] == 3'(s)) in_state[s] = in_state[s] + 6'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cyc_q <= '0;
      cyc_total_q <= '0;
      instr_q <= '0;
      stall_q <= '0;
      ifills_q <= '0;
      div_q <= '0;
      bars_q <= '0;
      tinstr_q <= '0;
      ctas_q <= '0;
      smem_q <= '0;
      gmem_q <= '0;
      for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) scnt_q[s] <= '0;
    end else begin
      cyc_total_q <= cyc_total_q + 64'd1;
      if (clear_i) begin
        cyc_q <= '0;
        instr_q <= '0;
        stall_q <= '0;
        ifills_q <= '0;
        div_q <= '0;
        bars_q <= '0;
        tinstr_q <= '0;
        ctas_q <= '0;
        smem_q <= '0;
        gmem_q <= '0;
        for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) scnt_q[s] <= '0;
      end else begin
        if (smem_pass_i) smem_q <= smem_q + 32'd1;
        if (gmem_req_i) gmem_q <= gmem_q + 32'd1;
      end
      if (!clear_i && busy_i) begin
        if (!cyc_q[32]) cyc_q <= cyc_q + 33'd1;
        if (issue_i && !instr_q[32]) instr_q <= instr_q + 33'd1;
        if (issue_i && !tinstr_q[32]) tinstr_q <= tinstr_q + {27'd0, baresm_sm_pkg::popc32(issue_exec_i)};
        if (issue_diverge_i && !div_q[32]) div_q <= div_q + 33'd1;
        if (bar_release_i && !bars_q[32]) bars_q <= bars_q + 33'd1;
        ctas_q <= ctas_q + 32'(cta_retire_count);
        if (running_i && live_i != '0 && !issue_i && !stall_q[32]) stall_q <= stall_q + 33'd1;
        if (ifill_i) ifills_q <= ifills_q + 32'd1;
        for (int s = 0; s < baresm_state_pkg::NUM_WS; s++) begin
          if (!scnt_q[s][32]) scnt_q[s] <= scnt_q[s] + 33'(in_state[s]);
        end
      end
    end
  end

  assign cycles_o = 64'(cyc_q);
  assign clock_o = cyc_total_q;

  // ---- the report port --------------------------------------------------------------
  // The word asked for, saturated to 32 bits where the counter stops at 2^32
  // (bit 32 set; the wrapping counters have none): the 33-bit counters are
  // selected first and saturated once, not each on its own.
  logic [32:0] rpt_val;
  localparam int WsW = $clog2(baresm_state_pkg::NUM_WS);
  logic [4:0] rpt_ws;   // the warp state of a RPT_WS_* word
  assign rpt_ws = rpt_req_i.idx - baresm_state_pkg::RPT_WS_IDLE;
  always_comb begin
    rpt_val = '0;
    unique case (rpt_req_i.idx)
      baresm_state_pkg::RPT_WARP_INSTRS:   rpt_val = instr_q;
      baresm_state_pkg::RPT_STALL_CYCLES:  rpt_val = stall_q;
      baresm_state_pkg::RPT_SHARED_PASSES: rpt_val = {1'b0, smem_q};
      baresm_state_pkg::RPT_CTAS_DONE:     rpt_val = {1'b0, ctas_q};
      baresm_state_pkg::RPT_THREAD_INSTRS: rpt_val = tinstr_q;
      baresm_state_pkg::RPT_DIV_BRANCHES:  rpt_val = div_q;
      baresm_state_pkg::RPT_BAR_RELEASES:  rpt_val = bars_q;
      baresm_state_pkg::RPT_GMEM_REQUESTS: rpt_val = {1'b0, gmem_q};
      baresm_state_pkg::RPT_IFETCH_FILLS:  rpt_val = {1'b0, ifills_q};
      baresm_state_pkg::RPT_SM_CYCLES:     rpt_val = cyc_q;
      default:
        // The warp-state counts: consecutive words from RPT_WS_IDLE, in
        // baresm_state_pkg::WS_* order (contract/rings.h pins the order).
        if (32'(rpt_ws) < baresm_state_pkg::NUM_WS) rpt_val = scnt_q[WsW'(rpt_ws)];
    endcase
  end
  logic [31:0] rpt_word;
  assign rpt_word = rpt_val[32] ? 32'hFFFF_FFFF : rpt_val[31:0];
  // The live counts of the previous cycle: exactly the increments of the
  // warp-instruction and CTA counters above.
  logic [31:0] rpt_word_q;
  logic        rpt_issued_q;
  logic [7:0]  rpt_ctas_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rpt_word_q <= '0;
      rpt_issued_q <= 1'b0;
      rpt_ctas_q <= '0;
    end else begin
      if (rpt_req_i.valid) rpt_word_q <= rpt_word;
      rpt_issued_q <= !clear_i && busy_i && issue_i && !instr_q[32];
      rpt_ctas_q <= (!clear_i && busy_i) ? 8'(cta_retire_count) : 8'd0;
    end
  end
  always_comb begin
    rpt_rsp_o = '0;
    rpt_rsp_o.word = rpt_word_q;
    rpt_rsp_o.issued = rpt_issued_q;
    rpt_rsp_o.ctas = rpt_ctas_q;
  end

endmodule

`default_nettype wire
