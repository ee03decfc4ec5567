// baresm_sm_pred: the predicate file, P0..P6 of every warp slot, all 32
// lanes of each in flops. Guards are read at issue for the whole warp (the
// stack, TRAP, BAR, VOTE and the lane mask of every beat depend on them),
// so the file is flops with two read ports on the granted warp (the guard
// and a second predicate: SEL, ISETP/FSETP's accumulate, VOTE's source),
// not a RAM. PT (7) reads as all lanes true.
// Writes come from the end of the pipe, per beat under a lane mask: the
// ALU's (ISETP, VOTE.ANY/ALL) and, with HasFpu, the FPU's (FSETP); the
// scoreboard keeps two writes of one predicate from being in flight, so
// they never meet in one entry. A placement clears the new warp's
// predicates.
`default_nettype none

module baresm_sm_pred #(
  parameter int NumWarps = 16,
  parameter bit HasFpu = 1'b1,   // the FPU's write port (port 1) is built
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
  input  logic                place_i,
  input  logic [WarpW-1:0]    place_warp_i
);

  localparam logic [2:0] PT = 3'd7;

  // Entry warp * 7 + pd.
  logic [31:0] pred_q [NumWarps*7];

  assign rd_a_o = (rd_a_i == PT) ? 32'hFFFF_FFFF : pred_q[32'(rd_warp_i) * 7 + 32'(rd_a_i)];
  assign rd_b_o = (rd_b_i == PT) ? 32'hFFFF_FFFF : pred_q[32'(rd_warp_i) * 7 + 32'(rd_b_i)];

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

endmodule

`default_nettype wire
