// baresm_ssm_alu: the thread-serial SM's integer ALU, one lane
// (docs/microarchitecture.md, "The thread-serial SM"). The same results as
// baresm_sm_pkg::alu / icmp / pcomb (the wide SM's lane), built for area on
// the iCE40, where each unit is paid for once, not per lane:
// - one 33-bit subtractor serves ISUB, IMIN, IMAX and ISETP (the operands
//   sign- or zero-extended, so bit 32 of a - b is "a < b" either way);
// - the multiplier (SB_MAC16) also shifts: a << n is a * 2^n, a >> n the
//   high word of a * 2^(32-n), and SHRA the signed high word (no barrel
//   shifters);
// - CLZ is POPC of the bits below the leading one, inverted: one counter;
// - a shared-memory atomic (amo_i) is computed here too, on a = the old
//   word: ADD, MIN, MAX, EXCH, AND, OR, XOR as the ALU ops of the same name
//   and CAS from the subtractor's a == b (baresm_lsu_amo's function).
`default_nettype none

module baresm_ssm_alu (
  input  logic [6:0]  op_i,
  input  logic [7:0]  mod_i,
  input  logic        amo_i,    // an atomic: amo_op_i on a = the old word, b, c
  input  logic [4:0]  amo_op_i, // ATOM mod[4:0]: [3:0] the op, [4] .U32 (MIN/MAX)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  input  logic        sel_i,    // the lane's second predicate (SEL, SETP's combine input)
  input  logic [31:0] sreg_i,   // S2R's special register
  output logic [31:0] r_o,
  output logic        setp_o    // ISETP's predicate bit
);

  // ---- the operation: an ALU opcode, an atomic's mapped onto one ------------------
  logic [6:0] op;
  logic cas;
  always_comb begin
    op = op_i;
    cas = 1'b0;
    if (amo_i) begin
      unique case (amo_op_i[3:0])
        baresm_isa_pkg::ATOM_ADD: op = baresm_isa_pkg::OP_IADD;
        baresm_isa_pkg::ATOM_MIN: op = baresm_isa_pkg::OP_IMIN;
        baresm_isa_pkg::ATOM_MAX: op = baresm_isa_pkg::OP_IMAX;
        baresm_isa_pkg::ATOM_EXCH: op = baresm_isa_pkg::OP_MOV;
        baresm_isa_pkg::ATOM_AND: op = baresm_isa_pkg::OP_AND;
        baresm_isa_pkg::ATOM_OR: op = baresm_isa_pkg::OP_OR;
        baresm_isa_pkg::ATOM_XOR: op = baresm_isa_pkg::OP_XOR;
        baresm_isa_pkg::ATOM_CAS: cas = 1'b1;
        default: op = baresm_isa_pkg::OP_SEL;  // not an encodable op: the old word (sel_i is 1)
      endcase
    end
  end

  // ---- a - b, compared: signed unless the modifier says .U32 ----------------------
  logic is_setp, cmp_uns, lt, eq;
  logic [32:0] diff;
  assign is_setp = op == baresm_isa_pkg::OP_ISETP;
  assign cmp_uns = amo_i ? amo_op_i[baresm_isa_pkg::ATOM_UNSIGNED_BIT] :
                   is_setp ? mod_i[baresm_isa_pkg::CMP_UNSIGNED_BIT] : mod_i[0];
  assign diff = {a_i[31] & !cmp_uns, a_i} - {b_i[31] & !cmp_uns, b_i};
  assign lt = diff[32];
  assign eq = diff[31:0] == 32'd0;

  logic cmp_r;
  always_comb begin
    unique case (mod_i[2:0])
      3'd0: cmp_r = eq;
      3'd1: cmp_r = !eq;
      3'd2: cmp_r = lt;
      3'd3: cmp_r = lt || eq;
      3'd4: cmp_r = !lt && !eq;
      default: cmp_r = !lt;
    endcase
    unique case (mod_i[5:4])
      2'd0: setp_o = cmp_r & sel_i;
      2'd1: setp_o = cmp_r | sel_i;
      default: setp_o = cmp_r ^ sel_i;
    endcase
  end

  // ---- the multiplier, for IMUL/IMULHI/IMAD and the shifts ----------------------------
  logic is_shl, is_shr, is_shra, is_shift, big;
  assign is_shl = op == baresm_isa_pkg::OP_SHL;
  assign is_shr = op == baresm_isa_pkg::OP_SHR;
  assign is_shra = op == baresm_isa_pkg::OP_SHRA;
  assign is_shift = is_shl || is_shr || is_shra;
  assign big = b_i[31:5] != 27'd0;   // a shift by 32 or more
  // 2^n for SHL, 2^(32-n) mod 2^32 for the right shifts (n = 0 gives 1: the low word is a).
  logic [4:0] sh_k;
  logic [31:0] mul_b;
  assign sh_k = is_shl ? b_i[4:0] : 5'd0 - b_i[4:0];
  assign mul_b = is_shift ? (32'd1 << sh_k) : b_i;
  logic [63:0] prod;
  assign prod = {32'd0, a_i} * {32'd0, mul_b};
  // The signed high word from the unsigned product: subtract mul_b when a is
  // negative, a when b is (a shift's factor is unsigned).
  logic [31:0] hi_s;
  assign hi_s = prod[63:32] - (a_i[31] ? mul_b : 32'd0) - ((mul_b[31] && !is_shift) ? a_i : 32'd0);

  // ---- POPC, and CLZ as POPC of the inverted leading-one smear --------------------------
  logic [31:0] smear4, smear16, smear, cnt_in;   // bit i: some bit at or above i is set
  assign smear4 = a_i | (a_i >> 1) | (a_i >> 2) | (a_i >> 3);
  assign smear16 = smear4 | (smear4 >> 4) | (smear4 >> 8) | (smear4 >> 12);
  assign smear = smear16 | (smear16 >> 16);
  assign cnt_in = (op == baresm_isa_pkg::OP_CLZ) ? ~smear : a_i;
  logic [5:0] ones;
  logic [23:0] quads;   // eight 3-bit counts of four bits
  logic [9:0] halves;   // two 5-bit counts of sixteen
  always_comb begin
    for (int k = 0; k < 8; k++)
      quads[3*k +: 3] = 3'(cnt_in[4*k]) + 3'(cnt_in[4*k+1]) + 3'(cnt_in[4*k+2]) + 3'(cnt_in[4*k+3]);
    for (int k = 0; k < 2; k++)
      halves[5*k +: 5] = 5'(quads[12*k +: 3]) + 5'(quads[12*k+3 +: 3]) + 5'(quads[12*k+6 +: 3]) +
                         5'(quads[12*k+9 +: 3]);
    ones = 6'(halves[4:0]) + 6'(halves[9:5]);
  end

  // ---- the result --------------------------------------------------------------------------------
  always_comb begin
    unique case (op)
      baresm_isa_pkg::OP_IADD: r_o = a_i + b_i;
      baresm_isa_pkg::OP_ISUB: r_o = diff[31:0];
      baresm_isa_pkg::OP_IMUL: r_o = prod[31:0];
      baresm_isa_pkg::OP_IMULHI: r_o = mod_i[0] ? prod[63:32] : hi_s;
      baresm_isa_pkg::OP_IMAD: r_o = prod[31:0] + c_i;
      baresm_isa_pkg::OP_IMIN: r_o = lt ? a_i : b_i;
      baresm_isa_pkg::OP_IMAX: r_o = lt ? b_i : a_i;
      baresm_isa_pkg::OP_IABS: r_o = a_i[31] ? 32'd0 - a_i : a_i;
      baresm_isa_pkg::OP_AND: r_o = a_i & b_i;
      baresm_isa_pkg::OP_OR: r_o = a_i | b_i;
      baresm_isa_pkg::OP_XOR: r_o = a_i ^ b_i;
      baresm_isa_pkg::OP_NOT: r_o = ~a_i;
      baresm_isa_pkg::OP_SHL: r_o = big ? 32'd0 : prod[31:0];
      baresm_isa_pkg::OP_SHR: r_o = big ? 32'd0 : (b_i[4:0] == 5'd0) ? a_i : prod[63:32];
      baresm_isa_pkg::OP_SHRA: r_o = big ? {32{a_i[31]}} : (b_i[4:0] == 5'd0) ? a_i : hi_s;
      baresm_isa_pkg::OP_POPC, baresm_isa_pkg::OP_CLZ: r_o = {26'd0, ones};
      baresm_isa_pkg::OP_SEL: r_o = sel_i ? a_i : b_i;
      baresm_isa_pkg::OP_S2R: r_o = sreg_i;
      baresm_isa_pkg::OP_MOV, baresm_isa_pkg::OP_VOTE: r_o = b_i;  // VOTE.BALLOT: the ballot arrives as b
      default: r_o = 32'd0;
    endcase
    if (cas) r_o = eq ? c_i : a_i;
  end

endmodule

`default_nettype wire
