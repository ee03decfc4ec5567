// baresm_sm_pred: the predicate file, P0..P6 of every warp slot, 32 lanes
// each. Guards are read at issue for the whole warp (the stack, TRAP, BAR,
// VOTE and the lane mask of every beat depend on them): two read ports on
// the granted warp, the guard (a) and a second predicate (b: SEL,
// ISETP/FSETP's accumulate, VOTE's source). PT (7) reads as all lanes true.
// Writes come from the end of the pipe, per beat under a lane mask: the
// ALU's (ISETP, VOTE.ANY/ALL) on port 0 and, with HasFpu, the FPU's (FSETP)
// on port 1. ALU and FPU beats share the pipe's stages, so one port writes
// in a cycle. The scoreboard keeps a predicate that an instruction reads
// from being written while it issues. A placement clears the new warp's
// predicates.
//
// Two implementations, by NumLanes:
//  - NumLanes > 1: flops, read combinationally: rd_ok_o = rd_valid_i, and
//    hold_o is all ones (the scheduler is not steered).
//  - NumLanes == 1 (the narrow SM): one RAM (baresm_ram_1r1w, 16-bit words,
//    per-bit write mask: one iCE40 EBR) of NumWarps*16 half-predicates,
//    word {warp, pd, half} (pd 7 unused: an address without arithmetic),
//    lanes 16*half..16*half+15. A beat writes
//    its one lane through the mask; a valid bit per half stands for the
//    placement's clear (an unwritten half reads 0; its first write writes
//    the whole half). Reads go through a sequencer: a grant whose a and b
//    are both PT needs no read (rd_ok_o at once); otherwise the sequencer
//    tags (warp, a, b) and reads a.lo, a.hi, b.lo, b.hi in four cycles,
//    rd_ok_o in the fifth cycle when the granted warp and predicates are
//    the tag's. hold_o steers the scheduler to the tagged warp meanwhile
//    (baresm_sm masks ready with it while the warp is ready). A write to
//    a tagged predicate or a placement of the tagged warp restarts the
//    tag; a read-out (rd_ok_o) ends it.
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm_pred #(
  parameter int NumWarps = 16,
  parameter bit HasFpu = 1'b1,   // the FPU's write port (port 1) is built
  parameter int NumLanes = 32,   // 1: the RAM file with its read sequencer
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  // ---- reads (the granted warp) -------------------------------------------------
  input  logic                rd_valid_i,     // a grant
  input  logic [WarpW-1:0]    rd_warp_i,
  input  logic [2:0]          rd_a_i,
  input  logic [2:0]          rd_b_i,
  output logic [31:0]         rd_a_o,
  output logic [31:0]         rd_b_o,
  output logic                rd_ok_o,        // rd_a_o/rd_b_o are the grant's: it may issue
  output logic [NumWarps-1:0] hold_o,         // warps the scheduler should keep to (all: any)

  // ---- writes ------------------------------------------------------------------------
  input  logic [1:0]          pw_valid_i,     // ALU, FPU
  input  logic [2*WarpW-1:0]  pw_warp_i,
  input  logic [5:0]          pw_pd_i,
  input  logic [63:0]         pw_mask_i,
  input  logic [63:0]         pw_bits_i,
  input  logic                place_i,
  input  logic [WarpW-1:0]    place_warp_i
);

  localparam logic [2:0] PT = 3'd7;

  // One port writes in a cycle (ALU and FPU beats share the pipe).
  `BARESM_ASSERT(a_one_write_port, pw_valid_i != 2'b11)

  if (NumLanes == 1) begin : g_ram
    localparam int AW = WarpW + 4;
    localparam int Depth = NumWarps * 16;

    // ---- the write port: the one valid beat ---------------------------------------
    logic w_fpu, w_any, w_half, w_fresh, we, w_placed;
    logic [WarpW-1:0] w_warp;
    logic [2:0] w_pd;
    logic [31:0] w_mask, w_bits;
    logic [15:0] w_hmask, w_hbits;
    logic [AW-1:0] w_idx;
    assign w_fpu = HasFpu && pw_valid_i[1];
    assign w_any = pw_valid_i[0] || w_fpu;
    assign w_warp = w_fpu ? pw_warp_i[WarpW +: WarpW] : pw_warp_i[0 +: WarpW];
    assign w_pd = w_fpu ? pw_pd_i[5:3] : pw_pd_i[2:0];
    assign w_mask = w_fpu ? pw_mask_i[63:32] : pw_mask_i[31:0];
    assign w_bits = w_fpu ? pw_bits_i[63:32] : pw_bits_i[31:0];
    assign w_half = w_mask[31:16] != '0;
    assign w_hmask = w_half ? w_mask[31:16] : w_mask[15:0];
    assign w_hbits = w_half ? w_bits[31:16] : w_bits[15:0];
    assign w_idx = {w_warp, w_pd, w_half};
    // A placement of the warp wins over its write (as the flops' clear does).
    assign w_placed = place_i && place_warp_i == w_warp;
    assign we = w_any && w_hmask != '0 && !w_placed;

    logic [Depth-1:0] valid_q;   // the half was written since its warp's placement
    assign w_fresh = !valid_q[w_idx];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else begin
        if (we) valid_q[w_idx] <= 1'b1;
        for (int w = 0; w < NumWarps; w++) begin
          if (place_i && place_warp_i == WarpW'(w)) valid_q[w*16 +: 16] <= '0;
        end
      end
    end

    // ---- the read sequencer -------------------------------------------------------------
    logic seq_q;                 // a tag is held
    logic [2:0] step_q;          // 1..3: reading a.hi, b.lo, b.hi; 4: done
    logic [WarpW-1:0] t_warp_q;
    logic [2:0] t_a_q, t_b_q;
    logic [15:0] a_lo_q, a_hi_q, b_lo_q;
    logic rv_q;                  // the word on the RAM's output was a written half
    logic [15:0] rword;
    logic both_pt, match, start, kill, done;

    // A write to (warp, a) or (warp, b), or a placement of warp.
    function automatic logic hit(input logic [WarpW-1:0] wp, input logic [2:0] a,
                                 input logic [2:0] b, input logic wany,
                                 input logic [WarpW-1:0] wwarp, input logic [2:0] wpd,
                                 input logic pl, input logic [WarpW-1:0] plw);
      hit = (wany && wwarp == wp && (wpd == a || wpd == b)) || (pl && plw == wp);
    endfunction

    assign both_pt = rd_a_i == PT && rd_b_i == PT;
    assign match = seq_q && t_warp_q == rd_warp_i && t_a_q == rd_a_i && t_b_q == rd_b_i;
    assign done = match && step_q == 3'd4;
    assign kill = seq_q && hit(t_warp_q, t_a_q, t_b_q, w_any, w_warp, w_pd, place_i, place_warp_i);
    assign start = rd_valid_i && !both_pt && !match &&
                   !hit(rd_warp_i, rd_a_i, rd_b_i, w_any, w_warp, w_pd, place_i, place_warp_i);

    // The read of each cycle: at the start a.lo, then by step.
    logic re, rv;
    logic [WarpW-1:0] r_warp;
    logic [2:0] r_pd;
    logic r_half;
    logic [AW-1:0] r_idx;
    always_comb begin
      r_warp = start ? rd_warp_i : t_warp_q;
      r_pd = t_a_q;
      r_half = 1'b0;
      if (start) begin
        r_pd = rd_a_i;
      end else begin
        unique case (step_q)
          3'd1: begin r_pd = t_a_q; r_half = 1'b1; end
          3'd2: begin r_pd = t_b_q; r_half = 1'b0; end
          default: begin r_pd = t_b_q; r_half = 1'b1; end
        endcase
      end
      re = (start || (seq_q && step_q != 3'd4)) && r_pd != PT;
    end
    assign r_idx = {r_warp, r_pd, r_half};
    assign rv = valid_q[r_idx];

    logic [15:0] rdata;
    baresm_ram_1r1w #(
      .Depth(Depth),
      .Width(16),
      .MaskW(16)
    ) u_ram (
      .clk_i,
      .re_i   (re),
      .raddr_i(r_idx),
      .rdata_o(rdata),
      .we_i   (we),
      .waddr_i(w_idx),
      .wmask_i(w_fresh ? 16'hFFFF : w_hmask),
      .wdata_i(w_hbits & w_hmask)
    );
    assign rword = rv_q ? rdata : 16'd0;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        seq_q <= 1'b0;
        step_q <= '0;
        rv_q <= 1'b0;
      end else begin
        if (re) rv_q <= rv;
        if (start) begin
          seq_q <= 1'b1;
          step_q <= 3'd1;
        end else if (kill || (rd_valid_i && done)) begin
          seq_q <= 1'b0;
          step_q <= '0;
        end else if (seq_q && step_q != 3'd4) begin
          step_q <= step_q + 3'd1;
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (start) begin
        t_warp_q <= rd_warp_i;
        t_a_q <= rd_a_i;
        t_b_q <= rd_b_i;
      end
      if (seq_q && !start) begin
        unique case (step_q)
          3'd1: a_lo_q <= rword;
          3'd2: a_hi_q <= rword;
          3'd3: b_lo_q <= rword;
          default: ;
        endcase
      end
    end

    assign rd_ok_o = rd_valid_i && (both_pt || done);
    assign rd_a_o = (rd_a_i == PT) ? 32'hFFFF_FFFF : {a_hi_q, a_lo_q};
    assign rd_b_o = (rd_b_i == PT) ? 32'hFFFF_FFFF : {rword, b_lo_q};
    assign hold_o = seq_q ? (NumWarps'(1) << t_warp_q) : '1;

    // A beat writes one lane (one half of the word).
    `BARESM_ASSERT(a_one_half, !w_any || w_mask[31:16] == '0 || w_mask[15:0] == '0)
    // The RAM never reads a word written in the same cycle (its data is
    // undefined on the FPGA): such a read starts no tag or ends it.
    `BARESM_ASSERT(a_no_rw_same, !(re && we && r_idx == w_idx) || kill ||
                                 (start && hit(rd_warp_i, rd_a_i, rd_b_i, w_any, w_warp, w_pd, place_i, place_warp_i)))
  end else begin : g_flops
    // Entry warp * 7 + pd.
    logic [31:0] pred_q [NumWarps*7];

    assign rd_a_o = (rd_a_i == PT) ? 32'hFFFF_FFFF : pred_q[32'(rd_warp_i) * 7 + 32'(rd_a_i)];
    assign rd_b_o = (rd_b_i == PT) ? 32'hFFFF_FFFF : pred_q[32'(rd_warp_i) * 7 + 32'(rd_b_i)];
    assign rd_ok_o = rd_valid_i;
    assign hold_o = '1;

    // One process per warp, which a verilated model skips unless a port
    // writes the warp. Each bit is a flop with an enable (the port's lane mask
    // selects it): no port reads the file back (no read-modify-write).
    for (genvar w = 0; w < NumWarps; w++) begin : g_warp
      logic alu_w, fpu_w;
      assign alu_w = pw_valid_i[0] && pw_warp_i[0 +: WarpW] == WarpW'(w);
      assign fpu_w = HasFpu && pw_valid_i[1] && pw_warp_i[WarpW +: WarpW] == WarpW'(w);
      always_ff @(posedge clk_i) begin : write
        logic [31:0] nxt;
        if (place_i && place_warp_i == WarpW'(w)) begin
          for (int p = 0; p < 7; p++) pred_q[w*7 + p] <= '0;
        end else if (alu_w || fpu_w) begin
          for (int p = 0; p < 7; p++) begin
            nxt = pred_q[w*7 + p];
            for (int b = 0; b < 32; b++) begin
              if (fpu_w && pw_pd_i[5:3] == 3'(p) && pw_mask_i[32 + b]) nxt[b] = pw_bits_i[32 + b];
              else if (alu_w && pw_pd_i[2:0] == 3'(p) && pw_mask_i[b]) nxt[b] = pw_bits_i[b];
            end
            pred_q[w*7 + p] <= nxt;
          end
        end
      end
    end
    logic unused_rst;
    assign unused_rst = rst_ni;
  end

endmodule

`default_nettype wire
