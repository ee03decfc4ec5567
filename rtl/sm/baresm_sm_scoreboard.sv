// baresm_sm_scoreboard: which warps may issue. Per warp slot it holds
//   - a pending bit per register (set when an instruction that writes it
//     issues to the pipe, cleared by the register-file write that ends it;
//     RZ is never set) and, apart, whether the LSU is the writer;
//   - a pending bit per predicate (cleared by the last beat's write);
//   - the number of its memory instructions not completed (in the gather
//     buffer or the LSU: at most MemDepth).
// From them and each warp's buffered instruction (the pre-decode of
// baresm_sm_ibuf) it computes, every cycle and for every warp, whether the
// instruction's registers and predicates are free (hazard), whether its
// unit can take it, and so whether the warp is ready for the scheduler.
// A BAR waits for its warp's loads and stores (a memory fence). Bits rather
// than counters per register: an instruction's operands are checked in one
// cycle with a few multiplexers, and a register has one writer in flight.
// One bit per register the SM holds (NumRegs): the pre-decode marks a word
// naming a register at or past the launch's count illegal and puts RZ in the
// fields an opcode ignores, so a register >= NumRegs (RZ) is never pending.
// drained_o (nothing of the warp in flight) lets a CTA retire.
// At one lane (NumLanes == 1, the narrow SM) the per-register and
// per-predicate bits give way to the cheap scheme of small SIMT designs
// (Simty's busy bit per warp): per warp one register write and one
// predicate write in flight at most (a busy bit each, the LSU bit beside
// the register's), and a warp with either set issues nothing until the
// write that ends it. A warp-instruction holds the lane for 32 beats, so
// what the per-register bits would let overtake is little; the lockstep
// suite checks that results and faults stay the model's.
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm_scoreboard #(
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,     // registers per thread the SM holds (<= 63)
  parameter int MemDepth = 7,     // memory instructions in flight at most (gather buffer + LSU)
  parameter int NumLanes = 32,    // 1: a busy bit per warp instead of per-register bits
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    clear_i,
  input  logic                    running_i,

  // ---- each warp's state and buffered instruction ------------------------------
  input  logic [NumWarps-1:0]     eligible_i,     // live, CTA running, stack top settled
  input  logic [NumWarps-1:0]     ib_valid_i,
  input  logic [NumWarps*baresm_sm_pkg::DEC_W-1:0] ib_dec_i,
  input  logic [NumWarps-1:0]     ib_bar_i,       // the buffered instruction is a BAR
  input  logic [NumWarps-1:0]     bar_wait_i,     // waiting at a barrier
  input  logic [NumWarps-1:0]     exec_busy_i,    // the pipe holds an instruction of the warp
  input  logic                    sq_ready_i,     // the pipe takes an instruction
  input  logic                    gather_free_i,  // ... and the gather buffer is free

  // ---- set at issue ------------------------------------------------------------------
  input  logic                    iss_pipe_i,     // an instruction issues to the pipe
  input  logic [WarpW-1:0]        iss_warp_i,
  input  logic [2:0]              iss_class_i,
  input  logic [5:0]              iss_rd_i,       // register written (63 none)
  input  logic [2:0]              iss_pd_i,       // predicate written (7 none)

  // ---- released by writeback ------------------------------------------------------------
  input  logic [2:0]              clr_valid_i,    // register writes (ALU, FPU, LSU/shuffle)
  input  logic [3*WarpW-1:0]      clr_warp_i,
  input  logic [17:0]             clr_rd_i,
  input  logic [1:0]              pw_valid_i,     // predicate writes (ALU, FPU)
  input  logic [1:0]              pw_last_i,      // ... the last beat
  input  logic [2*WarpW-1:0]      pw_warp_i,
  input  logic [5:0]              pw_pd_i,
  input  logic                    lsu_done_i,     // the LSU completed an instruction
  input  logic [WarpW-1:0]        lsu_done_warp_i,

  output logic [NumWarps-1:0]     ready_o,
  output logic [NumWarps-1:0]     hazard_o,       // an operand is pending
  output logic [NumWarps-1:0]     hazard_mem_o,   // ... on a load
  output logic [NumWarps-1:0]     unit_ok_o,      // the unit takes the instruction
  output logic [NumWarps-1:0]     drained_o       // nothing of the warp in flight
);

  localparam int DecW = baresm_sm_pkg::DEC_W;
  localparam logic [5:0] RZ = 6'd63;
  localparam int CntW = $clog2(MemDepth + 1);

  logic [CntW-1:0] lsu_cnt_q [NumWarps];   // memory instructions not completed
  logic [NumWarps-1:0] idle;               // no register or predicate write in flight (per branch below)

  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      drained_o[w] = idle[w] && lsu_cnt_q[w] == '0 && !exec_busy_i[w];
    end
  end

  // One-hot register / predicate decoders: a shift past the word is 0, so RZ
  // (and PT) decode to nothing.
  function automatic logic [NumRegs-1:0] reg_bit(input logic [5:0] r);
    reg_bit = NumRegs'(1) << r;
  endfunction
  function automatic logic [7:0] pred_bit(input logic [2:0] p);
    pred_bit = (p == 3'd7) ? 8'd0 : 8'd1 << p;
  endfunction

  // hazard_o / hazard_mem_o of each warp's buffered instruction (branches below).
  logic [NumWarps-1:0] hz, hz_mem;

  // A warp without a buffered instruction is neither ready nor stalled on
  // anything (every consumer qualifies these with ib_valid_i): its checks
  // are skipped, which a verilated model does in most idle cycles.
  logic [DecW-1:0] d;
  always_comb begin
    d = '0;
    hazard_o = '0;
    hazard_mem_o = '0;
    unit_ok_o = '0;
    ready_o = '0;
    for (int w = 0; w < NumWarps; w++) begin
      if (ib_valid_i[w]) begin
        d = ib_dec_i[w*DecW +: DecW];
        hazard_o[w] = hz[w];
        hazard_mem_o[w] = hz_mem[w];
        unique case (d[36:34])
          baresm_sm_pkg::CL_ALU, baresm_sm_pkg::CL_FPU: unit_ok_o[w] = sq_ready_i;
          baresm_sm_pkg::CL_SHFL, baresm_sm_pkg::CL_LSU: unit_ok_o[w] = sq_ready_i && gather_free_i;
          default:
            // BAR is a memory fence for its warp: its loads and stores are done.
            unit_ok_o[w] = !ib_bar_i[w] || lsu_cnt_q[w] == '0;
        endcase
        ready_o[w] = running_i && eligible_i[w] && !bar_wait_i[w] && !hazard_o[w] &&
                     unit_ok_o[w];
      end
    end
  end

  // An illegal word reads no operand (its fields are RZ and PT); the
  // operand fields are read by the per-register branch only.
  logic unused_d;
  assign unused_d = ^d[33:0];

  logic iss_mem;
  assign iss_mem = iss_class_i == baresm_sm_pkg::CL_LSU;
  // Something sets or releases a bit, or moves a count, this cycle. Without
  // it every set and release is empty and the state holds: the per-warp
  // decoders and updates below run only under it (a verilated model skips
  // them in idle and stalled cycles).
  logic sb_event;
  assign sb_event = iss_pipe_i || clr_valid_i != '0 || pw_valid_i != '0 || lsu_done_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < NumWarps; w++) lsu_cnt_q[w] <= '0;
    end else if (clear_i || sb_event) begin
      for (int w = 0; w < NumWarps; w++) begin
        lsu_cnt_q[w] <= clear_i ? '0 : lsu_cnt_q[w] +
            ((iss_pipe_i && iss_mem && iss_warp_i == WarpW'(w)) ? CntW'(1) : '0) -
            ((lsu_done_i && lsu_done_warp_i == WarpW'(w)) ? CntW'(1) : '0);
      end
    end
  end

  // The scoreboard never releases a register or predicate it does not hold
  // (per branch below), and a warp's count of memory instructions never
  // underflows or exceeds MemDepth.
  logic [NumWarps+2:0] clr_unheld;
  logic [NumWarps+1:0] pw_unheld;
  logic [NumWarps-1:0] lsu_cnt_under, lsu_cnt_over;
  always_comb begin
    for (int k = 0; k < 3; k++)
      clr_unheld[NumWarps+k] = clr_valid_i[k] && 32'(clr_rd_i[k*6 +: 6]) >= NumRegs;
    for (int k = 0; k < 2; k++)
      pw_unheld[NumWarps+k] = pw_valid_i[k] && pw_last_i[k] && pw_pd_i[k*3 +: 3] == 3'd7;
    for (int w = 0; w < NumWarps; w++) begin
      lsu_cnt_under[w] = lsu_done_i && lsu_done_warp_i == WarpW'(w) && lsu_cnt_q[w] == '0;
      lsu_cnt_over[w] = iss_pipe_i && iss_mem && iss_warp_i == WarpW'(w) &&
                        32'(lsu_cnt_q[w]) >= MemDepth;
    end
  end

  if (NumLanes == 1) begin : g_busy
    // Per warp: a register write in flight (and the register, and whether
    // the LSU is its writer) and a predicate write in flight (and which).
    // Any of them stalls the warp's next instruction, whatever it reads, so
    // one of each is in flight at most and any release of the warp's
    // register (predicate) is that write's. The register and predicate
    // numbers only check that (assertions); synthesis drops them.
    logic [NumWarps-1:0] busy_reg_q, busy_mem_q, busy_pred_q;
    logic [5:0] busy_rd_q [NumWarps];
    logic [2:0] busy_pd_q [NumWarps];
    logic [NumWarps-1:0] reg_set, reg_clr, pred_set, pred_clr;
    always_comb begin
      for (int w = 0; w < NumWarps; w++) begin
        hz[w] = busy_reg_q[w] || busy_pred_q[w];
        hz_mem[w] = busy_reg_q[w] && busy_mem_q[w];
        idle[w] = !busy_reg_q[w] && !busy_pred_q[w];
        reg_set[w] = iss_pipe_i && iss_warp_i == WarpW'(w) && iss_rd_i != RZ;
        pred_set[w] = iss_pipe_i && iss_warp_i == WarpW'(w) && iss_pd_i != 3'd7;
        reg_clr[w] = 1'b0;
        pred_clr[w] = 1'b0;
        for (int k = 0; k < 3; k++)
          if (clr_valid_i[k] && clr_warp_i[k*WarpW +: WarpW] == WarpW'(w)) reg_clr[w] = 1'b1;
        for (int k = 0; k < 2; k++)
          if (pw_valid_i[k] && pw_last_i[k] && pw_warp_i[k*WarpW +: WarpW] == WarpW'(w)) pred_clr[w] = 1'b1;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_reg_q <= '0;
        busy_mem_q <= '0;
        busy_pred_q <= '0;
      end else if (clear_i || sb_event) begin
        // A set wins over a release in the same cycle.
        busy_reg_q <= clear_i ? '0 : (busy_reg_q & ~reg_clr) | reg_set;
        busy_mem_q <= clear_i ? '0 : (busy_mem_q & ~reg_clr & ~reg_set) | (iss_mem ? reg_set : '0);
        busy_pred_q <= clear_i ? '0 : (busy_pred_q & ~pred_clr) | pred_set;
      end
    end
    always_ff @(posedge clk_i) begin
      for (int w = 0; w < NumWarps; w++) begin
        if (reg_set[w]) busy_rd_q[w] <= iss_rd_i;
        if (pred_set[w]) busy_pd_q[w] <= iss_pd_i;
      end
    end

    always_comb begin
      for (int w = 0; w < NumWarps; w++) begin
        clr_unheld[w] = 1'b0;
        pw_unheld[w] = 1'b0;
        for (int k = 0; k < 3; k++)
          if (clr_valid_i[k] && clr_warp_i[k*WarpW +: WarpW] == WarpW'(w) &&
              (!busy_reg_q[w] || clr_rd_i[k*6 +: 6] != busy_rd_q[w])) clr_unheld[w] = 1'b1;
        for (int k = 0; k < 2; k++)
          if (pw_valid_i[k] && pw_warp_i[k*WarpW +: WarpW] == WarpW'(w) &&
              (!busy_pred_q[w] || pw_pd_i[k*3 +: 3] != busy_pd_q[w])) pw_unheld[w] = 1'b1;
      end
    end
    // A warp issues nothing while it has a write in flight.
    `BARESM_ASSERT(a_busy_no_issue, !iss_pipe_i || !hz[iss_warp_i])
    // Two releases of one warp's register never come in one cycle.
    logic [NumWarps-1:0] clr_two;
    always_comb begin
      for (int w = 0; w < NumWarps; w++) begin
        clr_two[w] = 1'b0;
        for (int k = 0; k < 3; k++)
          for (int j = k + 1; j < 3; j++)
            if (clr_valid_i[k] && clr_valid_i[j] && clr_warp_i[k*WarpW +: WarpW] == WarpW'(w) &&
                clr_warp_i[j*WarpW +: WarpW] == WarpW'(w)) clr_two[w] = 1'b1;
      end
    end
    `BARESM_ASSERT(a_busy_one_release, clr_two == '0)
  end else begin : g_bits
    // One word per warp slot (not one NumWarps*NumRegs vector): a look-up or
    // an update touches one 64-bit word, which Verilator evaluates cheaply.
    logic [NumRegs-1:0] pend_reg_q [NumWarps];  // register being written
    logic [NumRegs-1:0] pend_mem_q [NumWarps];  // ... by the LSU
    logic [7:0]         pend_pred_q [NumWarps]; // predicate being written (bit 7 never set)

    // Bit r of a warp's pending word; 0 for r >= NumRegs (RZ).
    function automatic logic pend_of(input logic [NumRegs-1:0] v, input logic [5:0] r);
      logic [63:0] x;
      x = 64'(v);
      pend_of = x[r];
    endfunction

    logic [DecW-1:0] e;
    always_comb begin
      hz = '0;
      hz_mem = '0;
      e = '0;
      for (int w = 0; w < NumWarps; w++) begin
        idle[w] = pend_reg_q[w] == '0 && pend_pred_q[w] == '0;
        if (ib_valid_i[w]) begin
          e = ib_dec_i[w*DecW +: DecW];
          hz[w] = pend_of(pend_reg_q[w], e[33:28]) | pend_of(pend_reg_q[w], e[27:22]) |
                  pend_of(pend_reg_q[w], e[21:16]) | pend_of(pend_reg_q[w], e[15:10]) |
                  pend_pred_q[w][e[9:7]] | pend_pred_q[w][e[6:4]] | pend_pred_q[w][e[3:1]];
          hz_mem[w] = pend_of(pend_mem_q[w], e[33:28]) | pend_of(pend_mem_q[w], e[27:22]) |
                      pend_of(pend_mem_q[w], e[21:16]) | pend_of(pend_mem_q[w], e[15:10]);
        end
      end
    end
    logic unused_e;
    assign unused_e = ^{e[DecW-1:34], e[0]};

    // Per warp: the bits set at issue and the bits released by writeback (a
    // set wins over a release of the same bit in the same cycle).
    logic [NumRegs-1:0] reg_set [NumWarps];
    logic [NumRegs-1:0] reg_clr [NumWarps];
    logic [7:0] pred_set [NumWarps];
    logic [7:0] pred_clr [NumWarps];
    always_comb begin
      for (int w = 0; w < NumWarps; w++) begin
        reg_set[w] = '0;
        pred_set[w] = '0;
        reg_clr[w] = '0;
        pred_clr[w] = '0;
        if (sb_event) begin
          reg_set[w] = (iss_pipe_i && iss_warp_i == WarpW'(w)) ? reg_bit(iss_rd_i) : '0;
          pred_set[w] = (iss_pipe_i && iss_warp_i == WarpW'(w)) ? pred_bit(iss_pd_i) : '0;
          for (int k = 0; k < 3; k++) begin
            if (clr_valid_i[k] && clr_warp_i[k*WarpW +: WarpW] == WarpW'(w))
              reg_clr[w] = reg_clr[w] | reg_bit(clr_rd_i[k*6 +: 6]);
          end
          for (int k = 0; k < 2; k++) begin
            if (pw_valid_i[k] && pw_last_i[k] && pw_warp_i[k*WarpW +: WarpW] == WarpW'(w))
              pred_clr[w] = pred_clr[w] | pred_bit(pw_pd_i[k*3 +: 3]);
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int w = 0; w < NumWarps; w++) begin
          pend_reg_q[w] <= '0;
          pend_mem_q[w] <= '0;
          pend_pred_q[w] <= '0;
        end
      end else if (clear_i || sb_event) begin
        for (int w = 0; w < NumWarps; w++) begin
          pend_reg_q[w] <= clear_i ? '0 : (pend_reg_q[w] & ~reg_clr[w]) | reg_set[w];
          pend_mem_q[w] <= clear_i ? '0 : (pend_mem_q[w] & ~reg_clr[w] & ~reg_set[w]) | (iss_mem ? reg_set[w] : '0);
          pend_pred_q[w] <= clear_i ? '0 : (pend_pred_q[w] & ~pred_clr[w]) | pred_set[w];
        end
      end
    end

    always_comb begin
      for (int w = 0; w < NumWarps; w++) begin
        clr_unheld[w] = (reg_clr[w] & ~pend_reg_q[w]) != '0;
        pw_unheld[w] = (pred_clr[w] & ~pend_pred_q[w]) != '0;
      end
    end
  end

  `BARESM_ASSERT(a_sb_release_held, clr_unheld == '0)
  `BARESM_ASSERT(a_pred_release_held, pw_unheld == '0)
  `BARESM_ASSERT(a_lsu_cnt_no_underflow, lsu_cnt_under == '0)
  `BARESM_ASSERT(a_lsu_cnt_no_wrap, lsu_cnt_over == '0)
  // Registers set pending are ones the SM holds (RZ is never set).
  `BARESM_ASSERT(a_rd_held, !iss_pipe_i || iss_rd_i == RZ || 32'(iss_rd_i) < NumRegs)

endmodule

`default_nettype wire
