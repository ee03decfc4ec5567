// The lane-engine proof's ALU oracle (fv_alu_stub.sv, msm_lane_inner.svh):
// one of the ALU's inputs, picked by amo_op[2:0]. Included inside each
// module that uses it (Yosys 0.23 has no functions outside a module).
function automatic logic [31:0] fv_alu_pick(input logic [6:0] op, input logic [7:0] mod, input logic amo,
                                            input logic [4:0] amo_op, input logic [31:0] a, input logic [31:0] b,
                                            input logic [31:0] c, input logic sl, input logic [31:0] sr);
  unique case (amo_op[2:0])
    3'd0: fv_alu_pick = a;
    3'd1: fv_alu_pick = b;
    3'd2: fv_alu_pick = c;
    3'd3: fv_alu_pick = sr;
    3'd4: fv_alu_pick = {16'd0, op, mod, amo};
    default: fv_alu_pick = {31'd0, sl};
  endcase
endfunction
