// Formal proof: the RAM predicate file of the narrow SM (baresm_sm_pred at
// NumLanes 1, 2 warp slots, the FPU's port built) against the flop file it
// replaces, written here as the reference (pred_q below: the NumLanes > 1
// branch's semantics). Every input is free except the pipe's and the
// scheduler's contracts:
//   - one write port valid in a cycle, a write names P0..P6 and one lane
//     (the pipe carries ALU and FPU beats alike, one lane per beat);
//   - a warp is granted only after its placement (its predicates are
//     defined from the placement's clear on).
// Properties:
//   - whenever the file says a grant has its predicates (rd_ok_o), rd_a_o
//     and rd_b_o are the reference's P[a], P[b] of the granted warp (PT:
//     all ones) in that cycle, at any lane (a free constant);
//   - a grant held on one (warp, a, b) for 5 cycles with no write to those
//     predicates and no placement of the warp is told rd_ok_o;
//   - hold_o names the tagged warp only, or all warps;
//   - and the block's own assertions (one half per write, no read of a word
//     written in the same cycle; the RAM's addresses in range).
`default_nettype none

module fv_pred #(
  parameter int N = 2
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        rd_valid_i,
  input logic        rd_warp_i,
  input logic [2:0]  rd_a_i,
  input logic [2:0]  rd_b_i,
  input logic [1:0]  pw_valid_i,
  input logic [1:0]  pw_warp_i,
  input logic [5:0]  pw_pd_i,
  input logic [63:0] pw_mask_i,
  input logic [63:0] pw_bits_i,
  input logic        place_i,
  input logic        place_warp_i
);
  logic [31:0] rd_a_o, rd_b_o;
  logic rd_ok_o;
  logic [N-1:0] hold_o;

  baresm_sm_pred #(.NumWarps(N), .HasFpu(1'b1), .NumLanes(1)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always @* if (init_q) assume (!rst_ni);

  // ---- the contracts ------------------------------------------------------------
  always @* assume (pw_valid_i != 2'b11);
  always @* if (pw_valid_i[0]) assume (pw_pd_i[2:0] != 3'd7 && $onehot0(pw_mask_i[31:0]));
  always @* if (pw_valid_i[1]) assume (pw_pd_i[5:3] != 3'd7 && $onehot0(pw_mask_i[63:32]));
  logic [N-1:0] placed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) placed_q <= '0;
    else if (place_i) placed_q[place_warp_i] <= 1'b1;
  end
  always @* if (rd_valid_i) assume (placed_q[rd_warp_i]);

  // ---- the reference: the flop file, at one lane ---------------------------------
  // The lane is any one (a free constant): a property of every lane, on a
  // reference of 14 bits instead of 14 x 32.
  (* anyconst *) logic [4:0] lane;
  logic ref_q [N*7];
  always_ff @(posedge clk_i) begin
    for (int w = 0; w < N; w++) begin
      for (int p = 0; p < 7; p++) begin
        if (place_i && place_warp_i == w[0])
          ref_q[w*7 + p] <= 1'b0;
        else if (pw_valid_i[1] && pw_warp_i[1] == w[0] && pw_pd_i[5:3] == p[2:0] && pw_mask_i[32 + 32'(lane)])
          ref_q[w*7 + p] <= pw_bits_i[32 + 32'(lane)];
        else if (pw_valid_i[0] && pw_warp_i[0] == w[0] && pw_pd_i[2:0] == p[2:0] && pw_mask_i[32'(lane)])
          ref_q[w*7 + p] <= pw_bits_i[32'(lane)];
      end
    end
  end
  logic ref_a, ref_b;
  always @* begin
    ref_a = 1'b1;
    ref_b = 1'b1;
    for (int w = 0; w < N; w++) begin
      for (int p = 0; p < 7; p++) begin
        if (rd_warp_i == w[0] && rd_a_i == p[2:0]) ref_a = ref_q[w*7 + p];
        if (rd_warp_i == w[0] && rd_b_i == p[2:0]) ref_b = ref_q[w*7 + p];
      end
    end
  end

  always @* if (rst_ni && rd_ok_o) assert (rd_a_o[lane] == ref_a && rd_b_o[lane] == ref_b);
  always @* if (rst_ni) assert (hold_o == '1 || $onehot(hold_o));

  // ---- progress ------------------------------------------------------------------------
  logic hit_now;
  assign hit_now = (place_i && place_warp_i == rd_warp_i) ||
    (pw_valid_i[0] && pw_warp_i[0] == rd_warp_i && (pw_pd_i[2:0] == rd_a_i || pw_pd_i[2:0] == rd_b_i)) ||
    (pw_valid_i[1] && pw_warp_i[1] == rd_warp_i && (pw_pd_i[5:3] == rd_a_i || pw_pd_i[5:3] == rd_b_i));
  logic [2:0] same_q;        // cycles the same grant has been held without a hit or an rd_ok_o
  logic [6:0] last_q;        // the grant of the cycle before
  logic same;
  assign same = last_q == {rd_warp_i, rd_a_i, rd_b_i};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      same_q <= '0;
      last_q <= '0;
    end else begin
      last_q <= {rd_warp_i, rd_a_i, rd_b_i};
      if (!rd_valid_i || hit_now || rd_ok_o) same_q <= '0;
      else if (same_q != '0 && same) same_q <= (same_q == 3'd7) ? same_q : same_q + 3'd1;
      else same_q <= 3'd1;
    end
  end
  always @* if (rst_ni && rd_valid_i && same_q >= 3'd4 && same && !hit_now) assert (rd_ok_o);
endmodule

`default_nettype wire
