// baresm_sm_fetch: instruction fetch for all warps through a direct-mapped
// instruction cache of IcLines lines of LineBytes, filled over the global
// memory port (one fill outstanding).
//
//   F1: pick one warp that wants an instruction (round-robin; the warp whose
//       miss was just filled goes first, so fills always make progress).
//       A pc outside [code_base, code_base + code_size) or misaligned is
//       answered at once as INVALID_PC; a tag hit reads the data array; a
//       miss starts a fill when none is outstanding.
//   F2: the word is cut out of the line and handed to the warp's
//       instruction buffer (out_valid_o).
// The cache is invalidated at every launch start (flush_i): a launch may run
// new code at an old address. A fill answered with a memory error leaves its
// line invalid and is remembered (one line, until the next launch): every
// fetch from that line is then answered at once as FETCH_ERROR.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_fetch #(
  parameter int NumWarps = 16,
  parameter int IcLines = 16,
  parameter int LineBytes = 128,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   flush_i,
  input  logic                   stop_i,        // fault: start no new fill

  input  logic [31:0]            code_base_i,
  input  logic [31:0]            code_size_i,

  input  logic [NumWarps-1:0]    want_i,        // needs an instruction at pc_i
  input  logic [NumWarps*32-1:0] pc_i,

  output logic                   out_valid_o,
  output logic [WarpW-1:0]       out_warp_o,
  output logic [63:0]            out_word_o,
  output logic                   out_badpc_o,   // INVALID_PC or FETCH_ERROR: out_word_o is meaningless
  output logic                   out_ferr_o,    // ... FETCH_ERROR (the line could not be read)
  output logic [NumWarps-1:0]    miss_wait_o,   // warps waiting for a fill

  output logic                   req_valid_o,   // read one line
  input  logic                   req_ready_i,
  output logic [31:0]            req_addr_o,
  input  logic                   rsp_valid_i,
  input  logic [LineBytes*8-1:0] rsp_data_i,
  input  logic                   rsp_err_i,
  output logic                   idle_o         // no fill outstanding
);

  localparam int OffW = $clog2(LineBytes);
  localparam int IdxW = (IcLines > 1) ? $clog2(IcLines) : 1;
  localparam int WordsPerLine = LineBytes / 8;
  localparam int WordW = (WordsPerLine > 1) ? $clog2(WordsPerLine) : 1;
  localparam int TagW = 32 - OffW;

  logic [IcLines-1:0] tag_valid_q;
  logic [TagW-1:0] tag_q [IcLines];

  // ---- F1 ---------------------------------------------------------------------
  logic f2_valid_q, f2_bad_q, f2_ferr_q;
  logic [WarpW-1:0] f2_warp_q;
  logic [WordW-1:0] f2_word_q;
  logic [LineBytes*8-1:0] f2_line_q;  // the data array's read register

  logic [WarpW-1:0] rr_q;  // last warp fetched; the highest slot after reset, so warp 0 goes first
  logic prio_valid_q;
  logic [WarpW-1:0] prio_warp_q;

  logic [NumWarps-1:0] cand;
  always_comb begin
    cand = want_i;
    if (f2_valid_q) cand[f2_warp_q] = 1'b0;  // its word is on the way
  end

  logic sel_valid;
  logic [WarpW-1:0] sel;
  int idx;
  always_comb begin
    sel_valid = 1'b0;
    sel = '0;
    idx = 0;
    for (int k = NumWarps; k >= 1; k--) begin
      idx = 32'(rr_q) + k;
      if (idx >= NumWarps) idx = idx - NumWarps;
      if (cand[idx]) begin
        sel_valid = 1'b1;
        sel = WarpW'(idx);
      end
    end
    if (prio_valid_q && cand[prio_warp_q]) begin
      sel_valid = 1'b1;
      sel = prio_warp_q;
    end
  end

  logic [31:0] pc;
  logic [TagW-1:0] ptag;
  logic [IdxW-1:0] pidx;
  logic bad, hit, ferr;
  logic [32:0] code_end;
  assign pc = pc_i[sel*32 +: 32];
  assign ptag = pc[31:OffW];
  assign pidx = IdxW'(pc[31:OffW]);
  assign code_end = {1'b0, code_base_i} + {1'b0, code_size_i};
  assign bad = (pc[2:0] != 3'd0) || (pc < code_base_i) || ({1'b0, pc} + 33'd8 > code_end);
  assign hit = tag_valid_q[pidx] && (tag_q[pidx] == ptag);

  logic err_valid_q;           // a fill of this launch failed: the line err_tag_q
  logic [TagW-1:0] err_tag_q;
  assign ferr = !bad && err_valid_q && (err_tag_q == ptag);

  logic fill_busy_q;
  logic [TagW-1:0] fill_tag_q;
  logic [WarpW-1:0] fill_warp_q;
  logic req_q;
  logic start_fill, fill_done;
  assign start_fill = sel_valid && !bad && !ferr && !hit && !fill_busy_q && !stop_i;
  assign fill_done = fill_busy_q && !req_q && rsp_valid_i;  // the fill's line arrives

  logic [NumWarps-1:0] miss_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f2_valid_q <= 1'b0;
      rr_q <= WarpW'(NumWarps - 1);
      prio_valid_q <= 1'b0;
      fill_busy_q <= 1'b0;
      req_q <= 1'b0;
      tag_valid_q <= '0;
      miss_q <= '0;
      err_valid_q <= 1'b0;
    end else if (flush_i) begin
      f2_valid_q <= 1'b0;
      rr_q <= WarpW'(NumWarps - 1);
      prio_valid_q <= 1'b0;
      tag_valid_q <= '0;
      miss_q <= '0;
      err_valid_q <= 1'b0;
    end else begin
      f2_valid_q <= sel_valid && (bad || ferr || hit);
      if (sel_valid) rr_q <= sel;
      prio_valid_q <= 1'b0;
      if (sel_valid && !bad && !ferr && !hit) miss_q[sel] <= 1'b1;
      if (sel_valid && (bad || ferr || hit)) miss_q[sel] <= 1'b0;
      if (start_fill) begin
        fill_busy_q <= 1'b1;
        req_q <= 1'b1;
      end else if (req_q && req_ready_i) begin
        req_q <= 1'b0;
      end
      if (fill_done) begin
        fill_busy_q <= 1'b0;
        if (rsp_err_i) err_valid_q <= 1'b1;
        else tag_valid_q[IdxW'(fill_tag_q)] <= 1'b1;
        prio_valid_q <= 1'b1;
      end else if (start_fill) begin
        // The line being refilled is invalid until its data arrives.
        tag_valid_q[pidx] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (sel_valid) begin
      f2_warp_q <= sel;
      f2_bad_q <= bad || ferr;
      f2_ferr_q <= ferr;
      f2_word_q <= WordW'(pc[OffW-1:3]);
    end
    if (start_fill) begin
      fill_tag_q <= ptag;
      fill_warp_q <= sel;
    end
    if (fill_done) begin
      if (rsp_err_i) err_tag_q <= fill_tag_q;
      tag_q[IdxW'(fill_tag_q)] <= fill_tag_q;
      prio_warp_q <= fill_warp_q;
    end
  end

  // The data array: read in F1 by every selected warp (f2_line_q, held
  // otherwise), written when a fill arrives. A read of the line being filled
  // in that same cycle is never used: the line's tag is invalid from the
  // fill's start until its data is written, so such a read is no hit (its
  // word is not delivered) and the RAM's undefined read-during-write result
  // is discarded.
  baresm_ram_1r1w #(.Depth(IcLines), .Width(LineBytes * 8), .AddrW(IdxW)) u_data (
    .clk_i,
    .re_i   (sel_valid),
    .raddr_i(pidx),
    .rdata_o(f2_line_q),
    .we_i   (fill_done),
    .waddr_i(IdxW'(fill_tag_q)),
    .wmask_i(1'b1),
    .wdata_i(rsp_data_i)
  );

  assign out_valid_o = f2_valid_q;
  assign out_warp_o = f2_warp_q;
  assign out_word_o = f2_line_q[64*f2_word_q +: 64];
  assign out_badpc_o = f2_bad_q;
  assign out_ferr_o = f2_ferr_q;
  assign miss_wait_o = miss_q & want_i;

  assign req_valid_o = req_q;
  assign req_addr_o = {fill_tag_q, {OffW{1'b0}}};
  assign idle_o = !fill_busy_q;

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The fill request is held, with its address, until the port takes it, and
  // exists only while its fill is outstanding (one fill at a time).
  `BARESM_ASSERT_HELD(a_req_held, req_valid_o, req_ready_i, req_addr_o)
  `BARESM_ASSERT(a_req_in_fill, !req_q || fill_busy_q)
  // The parent routes a line here only for the outstanding, accepted fill.
  `BARESM_ASSUME(m_rsp_expected, !rsp_valid_i || (fill_busy_q && !req_q))

endmodule

`default_nettype wire
