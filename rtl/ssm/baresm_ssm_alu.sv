// baresm_ssm_alu: the thread-serial SM's integer ALU, one lane
// (docs/microarchitecture.md, "The thread-serial SM"). The same results as
// baresm_sm_pkg::alu / icmp / pcomb (the wide SM's lane), built for area on
// the iCE40, where each unit is paid for once, not per lane:
// - one 33-bit adder serves IADD, ISUB, IMIN, IMAX and ISETP (the operands
//   sign- or zero-extended, so bit 32 of a - b is "a < b" either way);
// - one bitwise unit also passes a or b: the choices of IMIN, IMAX, SEL
//   are a choice of its function, not 32-bit multiplexers;
// - the multiplier (SB_MAC16) also shifts: a << n is a * 2^n, a >> n the
//   high word of a * 2^(32-n), and SHRA the signed high word (no barrel
//   shifters);
// - CLZ is POPC of the bits below the leading one, inverted: one counter;
// - a shared-memory atomic (amo_i) is computed here too, on a = the old
//   word: ADD, MIN, MAX, EXCH, AND, OR, XOR as the ALU ops of the same name
//   and CAS from the adder's a == b (c as the multiply-add of a zero
//   product), baresm_lsu_amo's function.
`default_nettype none

module baresm_ssm_alu #(
  // 0: no POPC/CLZ counter (the microprogrammed SM's firmware counts them
  // itself, fw/sm/fwsm.c); they then give 0
  parameter bit HasCount = 1'b1
) (
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
  function automatic logic [6:0] amo_alu_op(input logic [3:0] amo);
    unique case (amo)
      baresm_isa_pkg::ATOM_ADD: amo_alu_op = baresm_isa_pkg::OP_IADD;
      baresm_isa_pkg::ATOM_MIN: amo_alu_op = baresm_isa_pkg::OP_IMIN;
      baresm_isa_pkg::ATOM_MAX: amo_alu_op = baresm_isa_pkg::OP_IMAX;
      baresm_isa_pkg::ATOM_EXCH: amo_alu_op = baresm_isa_pkg::OP_MOV;
      baresm_isa_pkg::ATOM_AND: amo_alu_op = baresm_isa_pkg::OP_AND;
      baresm_isa_pkg::ATOM_OR: amo_alu_op = baresm_isa_pkg::OP_OR;
      baresm_isa_pkg::ATOM_XOR: amo_alu_op = baresm_isa_pkg::OP_XOR;
      baresm_isa_pkg::ATOM_CAS: amo_alu_op = baresm_isa_pkg::OP_NOP;  // cas below
      default: amo_alu_op = baresm_isa_pkg::OP_SEL;  // not an encodable op: the old word (sel_i is 1)
    endcase
  endfunction
  logic [6:0] op;
  logic cas;
  assign op = amo_i ? amo_alu_op(amo_op_i[3:0]) : op_i;
  assign cas = amo_i && amo_op_i[3:0] == baresm_isa_pkg::ATOM_CAS;

  // ---- a + b or a - b: IADD, ISUB and the comparisons (IMIN, IMAX, ISETP, CAS) ----------
  // The operands are sign- or zero-extended to 33 bits, so bit 32 of a - b
  // is "a < b" signed or unsigned alike.
  logic is_setp, cmp_uns, sub, lt, eq;
  logic [32:0] addsub;
  assign is_setp = op == baresm_isa_pkg::OP_ISETP;
  assign cmp_uns = amo_i ? amo_op_i[baresm_isa_pkg::ATOM_UNSIGNED_BIT] :
                   is_setp ? mod_i[baresm_isa_pkg::CMP_UNSIGNED_BIT] : mod_i[0];
  assign sub = op != baresm_isa_pkg::OP_IADD;
  assign addsub = {a_i[31] & !cmp_uns, a_i} + ({b_i[31] & !cmp_uns, b_i} ^ {33{sub}}) + 33'(sub);
  assign lt = addsub[32];
  assign eq = addsub[31:0] == 32'd0;

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

  // ---- the multiplier: IMUL, IMULHI, IMAD, the shifts, and CAS's c ---------------------------
  logic is_shl, is_shr, is_shra, is_shift, big, sh0, mulhi_s;
  assign is_shl = op == baresm_isa_pkg::OP_SHL;
  assign is_shr = op == baresm_isa_pkg::OP_SHR;
  assign is_shra = op == baresm_isa_pkg::OP_SHRA;
  assign is_shift = is_shl || is_shr || is_shra;
  assign big = b_i[31:5] != 27'd0;   // a shift by 32 or more
  assign sh0 = b_i[4:0] == 5'd0;
  assign mulhi_s = op == baresm_isa_pkg::OP_IMULHI && !mod_i[0];
  // 2^n for SHL, 2^(32-n) mod 2^32 for the right shifts; 0 for CAS (its
  // product is 0, so the multiply-add gives c).
  logic [4:0] sh_k;
  logic [31:0] mul_b;
  assign sh_k = is_shl ? b_i[4:0] : 5'd0 - b_i[4:0];
  assign mul_b = is_shift ? (32'd1 << sh_k) : cas ? 32'd0 : b_i;
  logic [63:0] prod;
  assign prod = {32'd0, a_i} * {32'd0, mul_b};
  // The high word, signed where asked: from the unsigned product, minus
  // mul_b when a is negative (IMULHI signed, SHRA), minus a when b is
  // (IMULHI signed).
  logic [31:0] hi;
  assign hi = prod[63:32] - ((a_i[31] && (mulhi_s || is_shra)) ? mul_b : 32'd0) -
              ((mul_b[31] && mulhi_s) ? a_i : 32'd0);
  // The low word plus c (IMAD, CAS) or plus 0 (IMUL, SHL).
  logic [31:0] mac;
  assign mac = prod[31:0] + ((op == baresm_isa_pkg::OP_IMAD || cas) ? c_i : 32'd0);

  // ---- POPC, and CLZ as POPC of the inverted leading-one smear --------------------------
  logic [31:0] smear4, smear16, smear, cnt_in;   // bit i: some bit at or above i is set
  assign smear4 = a_i | (a_i >> 1) | (a_i >> 2) | (a_i >> 3);
  assign smear16 = smear4 | (smear4 >> 4) | (smear4 >> 8) | (smear4 >> 12);
  assign smear = smear16 | (smear16 >> 16);
  assign cnt_in = (op == baresm_isa_pkg::OP_CLZ) ? ~smear : a_i;
  logic [5:0] ones;
  if (HasCount) begin : g_count
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
  end else begin : g_no_count
    assign ones = 6'd0;
    logic unused_cnt;
    assign unused_cnt = ^cnt_in;
  end

  // ---- the result: one of seven sources --------------------------------------------------------
  // The bitwise unit also passes a or b, or gives all zeros or all ones, so
  // every choice between a and b (IMIN, IMAX, SEL, CAS missing, a shift by
  // 0, by 32 or more) is a choice of its function, made once for all bits.
  localparam logic [2:0] L_AND = 3'd0, L_OR = 3'd1, L_XOR = 3'd2, L_NOTA = 3'd3, L_A = 3'd4, L_B = 3'd5,
                         L_ZERO = 3'd6, L_ONES = 3'd7;   // the bitwise unit's function
  localparam logic [2:0] R_LOGIC = 3'd0, R_ADDSUB = 3'd1, R_MAC = 3'd2, R_HI = 3'd3, R_NEG = 3'd4,
                         R_ONES = 3'd5, R_SREG = 3'd6;   // the result's source
  logic [2:0] fn, src;
  always_comb begin
    fn = L_ZERO;
    src = R_LOGIC;
    unique case (op)
      baresm_isa_pkg::OP_IADD, baresm_isa_pkg::OP_ISUB: src = R_ADDSUB;
      baresm_isa_pkg::OP_IMUL, baresm_isa_pkg::OP_IMAD: src = R_MAC;
      baresm_isa_pkg::OP_IMULHI: src = R_HI;
      baresm_isa_pkg::OP_IMIN: fn = lt ? L_A : L_B;
      baresm_isa_pkg::OP_IMAX: fn = lt ? L_B : L_A;
      baresm_isa_pkg::OP_IABS: if (a_i[31]) src = R_NEG; else fn = L_A;
      baresm_isa_pkg::OP_AND: fn = L_AND;
      baresm_isa_pkg::OP_OR: fn = L_OR;
      baresm_isa_pkg::OP_XOR: fn = L_XOR;
      baresm_isa_pkg::OP_NOT: fn = L_NOTA;
      baresm_isa_pkg::OP_SHL: if (!big) src = R_MAC;
      baresm_isa_pkg::OP_SHR: if (!big) begin if (sh0) fn = L_A; else src = R_HI; end
      baresm_isa_pkg::OP_SHRA: if (big) fn = a_i[31] ? L_ONES : L_ZERO; else if (sh0) fn = L_A; else src = R_HI;
      baresm_isa_pkg::OP_POPC, baresm_isa_pkg::OP_CLZ: src = R_ONES;
      baresm_isa_pkg::OP_SEL: fn = sel_i ? L_A : L_B;
      baresm_isa_pkg::OP_S2R: src = R_SREG;
      baresm_isa_pkg::OP_MOV, baresm_isa_pkg::OP_VOTE: fn = L_B;  // VOTE.BALLOT: the ballot arrives as b
      default: ;
    endcase
    if (cas) begin
      if (eq) src = R_MAC;
      else begin
        src = R_LOGIC;
        fn = L_A;
      end
    end
  end
  logic [31:0] bitwise;
  always_comb begin
    unique case (fn)
      L_AND: bitwise = a_i & b_i;
      L_OR: bitwise = a_i | b_i;
      L_XOR: bitwise = a_i ^ b_i;
      L_NOTA: bitwise = ~a_i;
      L_A: bitwise = a_i;
      L_B: bitwise = b_i;
      L_ZERO: bitwise = 32'd0;
      default: bitwise = 32'hFFFF_FFFF;
    endcase
  end
  always_comb begin
    unique case (src)
      R_ADDSUB: r_o = addsub[31:0];
      R_MAC: r_o = mac;
      R_HI: r_o = hi;
      R_NEG: r_o = 32'd0 - a_i;
      R_ONES: r_o = {26'd0, ones};
      R_SREG: r_o = sreg_i;
      default: r_o = bitwise;
    endcase
  end

endmodule

`default_nettype wire
