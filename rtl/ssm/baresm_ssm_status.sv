// baresm_ssm_status: the thread-serial SM's status block. The same warp
// states, counters and report port as baresm_sm_status (whose header says
// what each counts), built for a small FPGA: the report words live in a RAM
// whose read port is the report's word multiplexer, instead of sixteen
// 33-bit counters in flip-flops read through a 17:1 multiplexer.
//
// Each counter is a RAM word plus a small delta register: every cycle the
// deltas take that cycle's increments, and one word a cycle is flushed (read,
// then written back with its delta added, saturated or wrapped as the
// contract says), cycling over the counter words. A report request takes the
// read port for that cycle (no flush then) and answers RAM word + delta
// the next cycle: exactly the count a flip-flop counter would show. A launch's
// accept (clear_i) marks every word stale (read as 0) instead of writing it.
// SM_CYCLES stays a flip-flop counter: the watchdog compares it every cycle.
//
// Saturation: a 32-bit saturating add reports exactly what baresm_sm_status's
// 33-bit counter with a sticky bit 32 reports (0xFFFFFFFF from 2^32-1 on).
// The response's `issued` counts every warp-instruction (baresm_sm_status
// stops at 2^32; the command processor's register is 64 bits wide).
`include "baresm_report_types.svh"
`include "baresm_assert.svh"
`default_nettype none

module baresm_ssm_status #(
  parameter int NumWarps = 4,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    clear_i,
  input  logic                    busy_i,
  input  logic                    running_i,

  // ---- each warp (as baresm_sm_status; the serial SM has no instruction buffer) ----
  input  logic [NumWarps-1:0]     used_i,
  input  logic [NumWarps-1:0]     live_i,
  input  logic [NumWarps-1:0]     exited_i,
  input  logic [NumWarps-1:0]     bar_wait_i,
  input  logic [NumWarps-1:0]     ready_i,
  input  logic [NumWarps-1:0]     wait_mem_i,     // waiting for memory (counted WAIT_MEM)

  // ---- events ----------------------------------------------------------------------
  input  logic                    issue_i,
  input  logic [WarpW-1:0]        issue_warp_i,
  input  logic [31:0]             issue_exec_i,
  input  logic                    issue_diverge_i,
  input  logic                    bar_release_i,
  input  logic                    cta_retire_i,
  input  logic                    ifill_i,
  input  logic                    smem_pass_i,
  input  logic                    gmem_req_i,

  output logic [NumWarps*3-1:0]   warp_state_o,
  output logic [63:0]             cycles_o,
  output logic [63:0]             clock_o,

  input  baresm_rpt_req_t         rpt_req_i,
  output baresm_rpt_rsp_t         rpt_rsp_o
);

  // The RAM's counters: report words RPT_WARP_INSTRS .. RPT_WS_EXITED but
  // SM_CYCLES, sixteen, each in a slot 0..15 (word - FirstW, less one above
  // SM_CYCLES).
  localparam logic [4:0] FirstW = baresm_state_pkg::RPT_WARP_INSTRS;
  localparam logic [4:0] LastW = baresm_state_pkg::RPT_WS_EXITED;
  localparam logic [4:0] CycW = baresm_state_pkg::RPT_SM_CYCLES;
  `BARESM_ASSERT(a_counter_words, 32'(LastW) - 32'(FirstW) == 16 && CycW > FirstW && CycW < LastW &&
                                  32'(baresm_state_pkg::RPT_WS_IDLE) == 32'(LastW) - baresm_state_pkg::NUM_WS + 1)
  function automatic logic in_ram(input logic [4:0] w);
    in_ram = w >= FirstW && w <= LastW && w != CycW;
  endfunction
  function automatic logic [3:0] slot_of(input logic [4:0] w);
    slot_of = 4'(w - FirstW - 5'(w > CycW));
  endfunction
  function automatic logic [4:0] word_of(input logic [3:0] k);
    word_of = 5'(k) + FirstW + 5'(5'(k) + FirstW >= CycW);
  endfunction
  function automatic logic wraps(input logic [3:0] k);
    wraps = k == slot_of(baresm_state_pkg::RPT_SHARED_PASSES) || k == slot_of(baresm_state_pkg::RPT_CTAS_DONE) ||
            k == slot_of(baresm_state_pkg::RPT_GMEM_REQUESTS) || k == slot_of(baresm_state_pkg::RPT_IFETCH_FILLS);
  endfunction
  // A delta holds the increments of the cycles since its slot's last flush:
  // at most 16 when no report read skips a flush, and never above its width
  // (a_delta_fits): 127 cycles of at most 1, NumWarps (warp states) or 32
  // (thread-instructions) a cycle.
  localparam int DW = 12;
  function automatic logic [DW-1:0] delta_mask(input logic [3:0] k);
    if (word_of(k) == baresm_state_pkg::RPT_THREAD_INSTRS) delta_mask = 12'hFFF;
    else if (word_of(k) >= baresm_state_pkg::RPT_WS_IDLE) delta_mask = 12'h1FF;
    else delta_mask = 12'h07F;
  endfunction

  // ---- warp states --------------------------------------------------------------
  logic [2:0] wstate [NumWarps];
  logic [WarpW:0] in_state [baresm_state_pkg::NUM_WS];
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      wstate[w] = baresm_sm_pkg::warp_state(used_i[w], exited_i[w], bar_wait_i[w],
                                            issue_i && issue_warp_i == WarpW'(w), ready_i[w], wait_mem_i[w]);
      warp_state_o[w*3 +: 3] = wstate[w];
    end
    for (int st = 0; st < baresm_state_pkg::NUM_WS; st++) begin
      in_state[st] = '0;
      for (int w = 0; w < NumWarps; w++) in_state[st] = in_state[st] + (WarpW + 1)'(wstate[w] == 3'(st));
    end
  end

  // ---- this cycle's increments, by slot --------------------------------------------
  logic count;
  assign count = !clear_i && busy_i;
  function automatic logic [DW-1:0] one(input logic b);  // 0 or 1, DW bits wide
    one = '0;
    one[0] = b;
  endfunction
  logic [DW-1:0] inc [16];
  always_comb begin
    inc[slot_of(baresm_state_pkg::RPT_WARP_INSTRS)] = one(count && issue_i);
    inc[slot_of(baresm_state_pkg::RPT_STALL_CYCLES)] = one(count && running_i && live_i != '0 && !issue_i);
    inc[slot_of(baresm_state_pkg::RPT_SHARED_PASSES)] = one(!clear_i && smem_pass_i);
    inc[slot_of(baresm_state_pkg::RPT_CTAS_DONE)] = one(count && cta_retire_i);
    inc[slot_of(baresm_state_pkg::RPT_THREAD_INSTRS)] = (count && issue_i) ? {{(DW - 6){1'b0}}, baresm_sm_pkg::popc32(issue_exec_i)} : '0;
    inc[slot_of(baresm_state_pkg::RPT_DIV_BRANCHES)] = one(count && issue_diverge_i);
    inc[slot_of(baresm_state_pkg::RPT_BAR_RELEASES)] = one(count && bar_release_i);
    inc[slot_of(baresm_state_pkg::RPT_GMEM_REQUESTS)] = one(!clear_i && gmem_req_i);
    inc[slot_of(baresm_state_pkg::RPT_IFETCH_FILLS)] = one(count && ifill_i);
    // The warp-state counters: the slots after RPT_WS_IDLE's, in WS_* order.
    for (int st = 0; st < baresm_state_pkg::NUM_WS; st++)
      inc[slot_of(baresm_state_pkg::RPT_WS_IDLE) + st[3:0]] = count ? {{(DW - WarpW - 1){1'b0}}, in_state[st]} : '0;
  end

  // ---- the counter RAM: a report read, else a flush read; the flush's write ----------
  // A report read takes the port for its cycle and the flush read of the
  // cycle before writes nothing (its delta keeps growing): no word is ever
  // read while it is written.
  logic [3:0] flush_k_q;      // the next slot to flush
  logic       flush_rd_q;     // a flush read was made last cycle ...
  logic [3:0] flush_rd_k_q;   // ... of this slot
  logic       rpt_rd_q;       // a report read was made last cycle ...
  logic [4:0] rpt_w_q;        // ... of this word
  logic [DW-1:0] rpt_delta_q; // its slot's delta and stale bit then
  logic       rpt_stale_q;
  logic [15:0] stale_q;       // cleared and not flushed since: the RAM word counts as 0
  logic [DW-1:0] delta_q [16];
  logic [31:0] ram_rdata, sum_word;
  logic        flush_we;
  assign flush_we = flush_rd_q && !rpt_req_i.valid && !clear_i;

  baresm_ram_1r1w #(.Depth(16), .Width(32)) u_ctr (
    .clk_i, .re_i(1'b1), .raddr_i(rpt_req_i.valid ? slot_of(rpt_req_i.idx) : flush_k_q), .rdata_o(ram_rdata),
    .we_i(flush_we), .waddr_i(flush_rd_k_q), .wmask_i(1'b1), .wdata_i(sum_word));

  // One delta multiplexer and one adder for both: the asked slot's delta is
  // taken when it is asked (no flush writes then) and added to the RAM's word
  // the next cycle; the flushed slot's delta is taken when it is written.
  logic [3:0]    dsel_k;
  logic [DW-1:0] dsel;
  logic          dsel_stale;
  assign dsel_k = rpt_req_i.valid ? slot_of(rpt_req_i.idx) : flush_rd_k_q;
  assign dsel = delta_q[dsel_k];
  assign dsel_stale = stale_q[dsel_k];
  logic [32:0] sum;
  assign sum = ((rpt_rd_q ? rpt_stale_q : dsel_stale) ? 33'd0 : {1'b0, ram_rdata}) +
               {21'd0, rpt_rd_q ? rpt_delta_q : dsel};
  assign sum_word = (sum[32] && !wraps(rpt_rd_q ? slot_of(rpt_w_q) : flush_rd_k_q)) ? 32'hFFFF_FFFF : sum[31:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      flush_k_q <= '0;
      flush_rd_q <= 1'b0;
      flush_rd_k_q <= '0;
      rpt_rd_q <= 1'b0;
      rpt_w_q <= '0;
      rpt_delta_q <= '0;
      rpt_stale_q <= 1'b0;
      stale_q <= '1;
      for (int k = 0; k < 16; k++) delta_q[k] <= '0;
    end else begin
      flush_rd_q <= !rpt_req_i.valid;
      if (!rpt_req_i.valid) begin
        flush_rd_k_q <= flush_k_q;
        flush_k_q <= flush_k_q + 4'd1;
      end
      rpt_rd_q <= rpt_req_i.valid;
      rpt_w_q <= rpt_req_i.idx;
      rpt_delta_q <= dsel;
      rpt_stale_q <= dsel_stale;
      for (int k = 0; k < 16; k++) begin
        // A flushed slot restarts from this cycle's increment.
        delta_q[k] <= ((flush_we && flush_rd_k_q == 4'(k) || clear_i ? '0 : delta_q[k]) + inc[k]) & delta_mask(4'(k));
      end
      if (clear_i) stale_q <= '1;
      else if (flush_we) stale_q[flush_rd_k_q] <= 1'b0;
    end
  end

  // ---- SM_CYCLES (the watchdog's) and CLOCK in flip-flops ---------------------------
  logic [32:0] cyc_q;   // bit 32: reached 2^32, stopped
  logic [63:0] clock_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cyc_q <= '0;
      clock_q <= '0;
    end else begin
      clock_q <= clock_q + 64'd1;
      if (clear_i) cyc_q <= '0;
      else if (busy_i && !cyc_q[32]) cyc_q <= cyc_q + 33'd1;
    end
  end
  assign cycles_o = 64'(cyc_q);
  assign clock_o = clock_q;

  // ---- the report port ----------------------------------------------------------------
  logic [31:0] cyc_word_q;
  logic        issued_q, ctas_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cyc_word_q <= '0;
      issued_q <= 1'b0;
      ctas_q <= 1'b0;
    end else begin
      cyc_word_q <= cyc_q[32] ? 32'hFFFF_FFFF : cyc_q[31:0];
      issued_q <= count && issue_i;
      ctas_q <= count && cta_retire_i;
    end
  end
  always_comb begin
    rpt_rsp_o = '0;
    if (rpt_w_q == baresm_state_pkg::RPT_SM_CYCLES) rpt_rsp_o.word = cyc_word_q;
    else if (in_ram(rpt_w_q)) rpt_rsp_o.word = sum_word;
    rpt_rsp_o.issued = issued_q;
    rpt_rsp_o.ctas = 8'(ctas_q);
  end

  // No delta overflows: flushes come often enough (a report read skips one).
  logic delta_overflow;
  always_comb begin
    delta_overflow = 1'b0;
    for (int k = 0; k < 16; k++) begin
      if ({1'b0, delta_q[k]} + {1'b0, inc[k]} > {1'b0, delta_mask(4'(k))}) delta_overflow = 1'b1;
    end
  end
  `BARESM_ASSERT(a_delta_fits, !delta_overflow)

endmodule

`default_nettype wire
