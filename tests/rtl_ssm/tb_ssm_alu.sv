// Block test of the thread-serial SM's ALU (Icarus, ctest rtl_ssm_alu):
// baresm_ssm_alu against the wide SM's lane functions (baresm_sm_pkg::alu,
// icmp, pcomb), which the functional model checks in lockstep, on every
// integer ALU opcode with operands drawn from the edges (0, 1, -1, the sign
// bit, small shift counts 0..40, single bits for CLZ) and at random; and
// its shared-memory atomics against baresm_lsu_amo (the wide SM's), every
// ATOM op including the unencodable ones.
// Prints PASS: with the count, FAIL: on the first mismatch.
`timescale 1ns / 1ps
`default_nettype none

module tb_ssm_alu;
  logic [6:0] op;
  logic [7:0] mod;
  logic [31:0] a, b, c, sreg, r;
  logic sel, setp, amo;
  logic [4:0] amo_op;
  logic [31:0] amo_ref;

  baresm_ssm_alu dut (
    .op_i(op), .mod_i(mod), .amo_i(amo), .amo_op_i(amo_op), .a_i(a), .b_i(b), .c_i(c),
    .sel_i(sel || amo), .sreg_i(sreg), .r_o(r), .setp_o(setp));
  baresm_lsu_amo ref_amo (.amo_i(amo_op), .old_i(a), .b_i(b), .c_i(c), .new_o(amo_ref));

  localparam int NOPS = 21;
  logic [6:0] ops [NOPS];
  initial begin
    ops[0] = baresm_isa_pkg::OP_MOV;    ops[1] = baresm_isa_pkg::OP_IADD;  ops[2] = baresm_isa_pkg::OP_ISUB;
    ops[3] = baresm_isa_pkg::OP_IMUL;   ops[4] = baresm_isa_pkg::OP_IMULHI; ops[5] = baresm_isa_pkg::OP_IMAD;
    ops[6] = baresm_isa_pkg::OP_IMIN;   ops[7] = baresm_isa_pkg::OP_IMAX;  ops[8] = baresm_isa_pkg::OP_IABS;
    ops[9] = baresm_isa_pkg::OP_AND;    ops[10] = baresm_isa_pkg::OP_OR;   ops[11] = baresm_isa_pkg::OP_XOR;
    ops[12] = baresm_isa_pkg::OP_NOT;   ops[13] = baresm_isa_pkg::OP_SHL;  ops[14] = baresm_isa_pkg::OP_SHR;
    ops[15] = baresm_isa_pkg::OP_SHRA;  ops[16] = baresm_isa_pkg::OP_POPC; ops[17] = baresm_isa_pkg::OP_CLZ;
    ops[18] = baresm_isa_pkg::OP_SEL;   ops[19] = baresm_isa_pkg::OP_S2R;  ops[20] = baresm_isa_pkg::OP_ISETP;
  end

  function automatic logic [31:0] pick(input logic [31:0] rnd, input logic [31:0] rnd2);
    unique case (rnd[3:0])
      4'd0: pick = 32'd0;
      4'd1: pick = 32'd1;
      4'd2: pick = 32'hFFFF_FFFF;
      4'd3: pick = 32'h8000_0000;
      4'd4: pick = 32'h7FFF_FFFF;
      4'd5: pick = 32'(rnd2 % 41);             // shift counts around 32
      4'd6: pick = 32'd1 << rnd2[4:0];          // one bit (CLZ, POPC)
      4'd7: pick = 32'hFFFF_FFFF << rnd2[4:0];  // a run of ones
      4'd8: pick = -32'(rnd2 % 41);
      default: pick = rnd2;
    endcase
  endfunction

  int n, bad;
  logic [31:0] want;
  logic want_p;
  initial begin
    n = 0;
    bad = 0;
    for (int i = 0; i < 100000 && bad == 0; i++) begin
      op = ops[i % NOPS];
      mod = 8'($urandom);
      a = pick($urandom, $urandom);
      b = pick($urandom, $urandom);
      c = pick($urandom, $urandom);
      sreg = $urandom;
      sel = 1'($urandom);
      amo = (i % 4) == 3;
      amo_op = 5'($urandom);
      if (amo && $urandom % 4 == 0) b = a;    // CAS hits
      if (op == baresm_isa_pkg::OP_ISETP) begin
        mod[2:0] = 3'($urandom % 6);     // EQ NE LT LE GT GE
        mod[5:4] = 2'($urandom % 3);     // AND OR XOR
      end
      #1;
      if (amo) begin
        if (r !== amo_ref) begin
          $display("FAIL: atomic %h old=%h b=%h c=%h: %h, baresm_lsu_amo gives %h", amo_op, a, b, c, r, amo_ref);
          bad++;
        end
      end else if (op == baresm_isa_pkg::OP_ISETP) begin
        want_p = baresm_sm_pkg::pcomb(mod[5:4],
                   baresm_sm_pkg::icmp(mod[2:0], mod[baresm_isa_pkg::CMP_UNSIGNED_BIT], a, b), sel);
        if (setp !== want_p) begin
          $display("FAIL: ISETP mod=%h a=%h b=%h sel=%b: %b, the wide SM's lane gives %b", mod, a, b, sel, setp, want_p);
          bad++;
        end
      end else begin
        want = baresm_sm_pkg::alu(op, mod[0], a, b, c, sel, sreg);
        if (r !== want) begin
          $display("FAIL: op=%h mod=%h a=%h b=%h c=%h sel=%b: %h, the wide SM's lane gives %h", op, mod, a, b, c, sel, r, want);
          bad++;
        end
      end
      n++;
    end
    if (bad == 0) $display("PASS: %0d operations equal to the wide SM's lane", n);
    $finish;
  end
endmodule

`default_nettype wire
