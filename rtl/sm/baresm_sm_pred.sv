// baresm_sm_pred: the predicate file, P0..P6 of every warp slot, all 32
// lanes of each in flops. Guards are read at issue for the whole warp (the
// stack, TRAP, BAR, VOTE and the lane mask of every beat depend on them),
// so the file is flops with two read ports on the granted warp (the guard
// and a second predicate: SEL, ISETP/FSETP's accumulate, VOTE's source),
// not a RAM. PT (7) reads as all lanes true.
// Writes, in this order of precedence (the later wins): the ALU's and the
// FPU's predicate writes (per beat, under a lane mask), VOTE.ANY/ALL at
// issue (the same answer in every guard-true lane), and a placement, which
// clears the new warp's predicates.
`default_nettype none

module baresm_sm_pred #(
  parameter int NumWarps = 16,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                clk_i,

  // ---- reads (the granted warp) -------------------------------------------------
  input  logic [WarpW-1:0]    rd_warp_i,
  input  logic [2:0]          rd_a_i,
  input  logic [2:0]          rd_b_i,
  output logic [31:0]         rd_a_o,
  output logic [31:0]         rd_b_o,

  // ---- writes ------------------------------------------------------------------------
  input  logic [1:0]          pw_valid_i,     // ALU, FPU
  input  logic [2*WarpW-1:0]  pw_warp_i,
  input  logic [5:0]          pw_pd_i,
  input  logic [63:0]         pw_mask_i,
  input  logic [63:0]         pw_bits_i,
  input  logic                vote_i,         // VOTE.ANY/ALL at issue
  input  logic [WarpW-1:0]    vote_warp_i,
  input  logic [2:0]          vote_pd_i,
  input  logic [31:0]         vote_mask_i,
  input  logic [31:0]         vote_bits_i,
  input  logic                place_i,
  input  logic [WarpW-1:0]    place_warp_i
);

  localparam logic [2:0] PT = 3'd7;

  logic [31:0] pred_q [NumWarps*7];

  assign rd_a_o = (rd_a_i == PT) ? 32'hFFFF_FFFF : pred_q[32'(rd_warp_i)*7 + 32'(rd_a_i)];
  assign rd_b_o = (rd_b_i == PT) ? 32'hFFFF_FFFF : pred_q[32'(rd_warp_i)*7 + 32'(rd_b_i)];

  always_ff @(posedge clk_i) begin
    for (int k = 0; k < 2; k++) begin
      if (pw_valid_i[k]) begin
        pred_q[32'(pw_warp_i[k*WarpW +: WarpW])*7 + 32'(pw_pd_i[k*3 +: 3])] <=
            (pred_q[32'(pw_warp_i[k*WarpW +: WarpW])*7 + 32'(pw_pd_i[k*3 +: 3])] &
             ~pw_mask_i[k*32 +: 32]) | (pw_bits_i[k*32 +: 32] & pw_mask_i[k*32 +: 32]);
      end
    end
    if (vote_i) begin
      pred_q[32'(vote_warp_i)*7 + 32'(vote_pd_i)] <=
          (pred_q[32'(vote_warp_i)*7 + 32'(vote_pd_i)] & ~vote_mask_i) | (vote_bits_i & vote_mask_i);
    end
    if (place_i) begin
      for (int p = 0; p < 7; p++) pred_q[32'(place_warp_i)*7 + p] <= 32'd0;
    end
  end

endmodule

`default_nettype wire
