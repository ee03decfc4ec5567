// The ALU as the lane-engine proof sees it (proof msm_lane, scripts/
// formal.sh): baresm_ssm_alu's ports, its function replaced by a sum of its
// inputs with odd weights (shifts and adds: a constant multiply stalls z3) (fv_alu_fn, repeated in msm_lane_inner.svh), so
// that a change of any one input changes the result: the proof checks what
// the lane engine gives the ALU and that it writes what the ALU returns,
// without the solver carrying the multiplier. The ALU itself is the serial
// SM's, checked against the C++ model in the lockstep suites.
`default_nettype none

module baresm_ssm_alu #(
  parameter bit HasCount = 1'b1
) (
  input  logic [6:0]  op_i,
  input  logic [7:0]  mod_i,
  input  logic        amo_i,
  input  logic [4:0]  amo_op_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  input  logic        sel_i,
  input  logic [31:0] sreg_i,
  output logic [31:0] r_o,
  output logic        setp_o
);
`include "fv_alu_pick.svh"
  // The result is one of the inputs, picked by amo_op_i[2:0] (free in the
  // proof; the lane engine's loop does not use the atomic's fields).
  assign r_o = fv_alu_pick(op_i, mod_i, amo_i, amo_op_i, a_i, b_i, c_i, sel_i, sreg_i);
  assign setp_o = r_o[0];
endmodule

`default_nettype wire
