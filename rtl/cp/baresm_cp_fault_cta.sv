// baresm_cp_fault_cta: the linear index of the CTA the SM reports a fault
// in, cta_x + cta_y * grid_x + cta_z * grid_x * grid_y (mod 2^32, as the
// functional model computes it), for the completion entry's FAULT_CTA. It
// is made in Horner form, cta_x + grid_x * (cta_y + cta_z * grid_y), on one
// serial multiplier (baresm_cp_mul) instead of three combinational 32-bit
// multipliers (SB_MAC16 blocks on the iCE40 UP5K, which has 8).
//
// req_i is held high while the index is wanted; its inputs must be stable
// while it is. done_o rises when cta_o holds the index and stays high until
// req_i falls; req_i low returns the block to idle the next cycle.
// Latency from req_i: 1 + max(1, bit length of cta_z) + max(1, bit length
// of cta_y + cta_z * grid_y) cycles (3 for a CTA of a one-dimensional grid).
`default_nettype none

module baresm_cp_fault_cta (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  input  logic [31:0] cta_x_i,
  input  logic [31:0] cta_y_i,
  input  logic [31:0] cta_z_i,
  input  logic [31:0] grid_x_i,
  input  logic [31:0] grid_y_i,
  output logic        done_o,
  output logic [31:0] cta_o
);

  // S_IDLE -> S_ZY (cta_z * grid_y being made) -> S_X (grid_x * (cta_y + ..))
  typedef enum logic [1:0] {
    S_IDLE, S_ZY, S_X
  } step_e;
  step_e step_q, step_d;

  logic        mul_start, mul_done;
  logic [31:0] mul_a, mul_b, mul_p;
  logic        mul_ovf;   // unused: the index is taken mod 2^32, as the model takes it

  always_comb begin
    step_d = step_q;
    mul_start = 1'b0;
    mul_a = '0;
    mul_b = '0;
    if (!req_i) begin
      step_d = S_IDLE;
    end else begin
      unique case (step_q)
        S_IDLE: begin
          mul_start = 1'b1;
          mul_a = grid_y_i;
          mul_b = cta_z_i;
          step_d = S_ZY;
        end
        S_ZY: if (mul_done) begin
          mul_start = 1'b1;
          mul_a = grid_x_i;
          mul_b = mul_p + cta_y_i;
          step_d = S_X;
        end
        S_X: ;
        default: step_d = S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) step_q <= S_IDLE;
    else step_q <= step_d;
  end

  baresm_cp_mul #(
    .PW(32),
    .BW(32)
  ) u_mul (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .start_i(mul_start),
    .a_i    (mul_a),
    .b_i    (mul_b),
    .done_o (mul_done),
    .p_o    (mul_p),
    .ovf_o  (mul_ovf)
  );
  logic unused;
  assign unused = mul_ovf;

  assign done_o = req_i && step_q == S_X && mul_done;
  assign cta_o = mul_p + cta_x_i;

endmodule

`default_nettype wire
