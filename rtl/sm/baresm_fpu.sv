// baresm_fpu: the SM's FP32 unit, NumLanes lanes that share one op and one
// valid bit. docs/fpu.md is the full description; the contract in short:
//
// Every cycle with in_valid_i high starts one operation on op_i/mod_i and
// every lane's a_i/b_i/c_i (lane l in bits [l*32 +: 32]; sampled that cycle
// only); its results appear on result_o/cmp_o (lane l in [l*32 +: 32]/[l])
// with out_valid_o high exactly Latency cycles later. Fully pipelined: one
// operation per cycle, no stalls. Outside out_valid_o the outputs hold the
// last result (0 after reset).
//   FADD FSUB FMUL FFMA  IEEE binary32, round to nearest even, subnormals
//                        kept, FFMA with one rounding; NaN -> 0x7FFFFFFF
//   FMIN FMAX            NaN loses to a number, two NaNs -> 0x7FFFFFFF,
//                        -0 < +0
//   FNEG FABS            sign bit flipped / cleared, NaNs untouched
//   FSETP                cmp_o = a <cmp> b, cmp = mod_i[3:0] (docs/isa.md);
//                        result_o = 0
//   I2F F2I              mod_i[0] = .U32; I2F rounds to nearest even, F2I
//                        truncates and saturates, NaN -> 0
// Results are bit-identical to isa/fp32.cpp (tests/rtl_fpu checks it).
//
// Datapath: every arithmetic op is x*y + z with one rounding (FADD = a*1+b,
// FSUB = a*1+(-b), FMUL = a*b+(-0); adding -0 changes no value, +0 included).
// I2F reuses the back half: the integer magnitude enters as the addend with
// a zero product. Three logical stages, each followed by a register when
// Latency allows it:
//   S1 decode/unpack: specials, subnormal x/y normalised, 24x24 product,
//      addend aligned against the product (sticky into bit 0), and the
//      complete result of every op that is not x*y+z.
//   S2 add: 76-bit magnitude add/subtract, sign, leading-zero count.
//   S3 round: normalise (limited at the subnormal boundary), round to
//      nearest even, pack, overflow to inf, final result select.
// Latency 1: S1..S3 in one cycle; 2: register after S1; 3: after S1 and S2;
// > 3: the extra registers are added after S3.
`include "baresm_assert.svh"
`default_nettype none

module baresm_fpu #(
  parameter int NumLanes = 1,
  parameter int Latency  = 3
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  input  logic [6:0]             op_i,
  input  logic [7:0]             mod_i,
  input  logic [NumLanes*32-1:0] a_i,
  input  logic [NumLanes*32-1:0] b_i,
  input  logic [NumLanes*32-1:0] c_i,
  output logic                   out_valid_o,
  output logic [NumLanes*32-1:0] result_o,
  output logic [NumLanes-1:0]    cmp_o
);

  localparam logic [31:0] SIGN_BIT  = 32'h8000_0000;
  localparam logic [31:0] FP_ONE    = 32'h3F80_0000;
  localparam logic [31:0] FP_INF    = 32'h7F80_0000;
  localparam logic [31:0] FP_QNAN   = 32'h7FFF_FFFF;  // the canonical NaN
  localparam int          NumOutRegs = (Latency >= 3) ? Latency - 2 : 1;

  // Window of the addition (S1/S2): 76 bits, bit 0 = 2^ew. The product
  // (48 bits, leading one at 46 or 47 after S1 normalises x and y) sits at
  // [48:1], so it is even and a sticky bit ORed into bit 0 can never land on
  // a rounding boundary. The addend's 24 bits sit at [74:51] when it is far
  // above the product (its true position clamped; the product then stays
  // more than two bits below the addend's last bit, which rounds the same)
  // and move right with the exponent difference; bits shifted below bit 0
  // become the sticky bit. Bit 75 takes the carry.

  // What one lane carries from stage to stage (packed by f_s1/f_s2, unpacked
  // by f_s2/f_s3 in this field order; plain vectors rather than structs, as
  // Yosys 0.23 misreads a struct-typed local):
  // S1 -> S2 (S1W bits)
  //   early      1  result fully known after S1
  //   early_res 32
  //   cmp        1
  //   prod      48  x*y mantissa product
  //   addend    76  aligned addend (or I2F magnitude), sticky in bit 0
  //   eff_sub    1  product and addend have opposite signs
  //   sign_p     1
  //   sign_z     1
  //   ew        11  signed: exponent of window bit 0
  // S2 -> S3 (S2W bits)
  //   early, early_res, cmp  as above
  //   mag       76  |sum| in the window
  //   lz         7  leading zeros of mag
  //   sign       1
  //   zero       1  exact zero sum: +0
  //   lim       11  signed: ew + 201, the largest left shift that keeps the
  //                 unit in the last place at or above 2^-149

  // Classification of a magnitude (the value without its sign bit).
  function automatic logic f_nan(input logic [30:0] m);
    f_nan = (m[30:23] == 8'hFF) && (m[22:0] != 23'd0);
  endfunction
  function automatic logic f_inf(input logic [30:0] m);
    f_inf = (m == FP_INF[30:0]);
  endfunction
  function automatic logic f_zero(input logic [30:0] m);
    f_zero = (m == 31'd0);
  endfunction
  // Order key of a non-NaN value: unsigned compare of keys is the float
  // order with -0 < +0.
  function automatic logic [31:0] f_key(input logic [31:0] v);
    f_key = v[31] ? ~v : (v | SIGN_BIT);
  endfunction

  // Leading zeros of data, which is never zero (callers pad it below with
  // ones so that the count stops at the real width). Two levels: the first
  // non-zero group from the top, then the leading zeros inside it. In
  // hardware a group-OR, a priority mux and a small encoder; in a verilated
  // model a handful of word compares (a bit-level tree, rewritten slice by
  // slice, was a third of the 32-lane SM's cost). Functions (one per
  // width: a function's width cannot be a parameter) so that they run
  // inside the stage's enabled always_ff.
  function automatic logic [2:0] f_lzc8(input logic [7:0] data);
    casez (data)
      8'b1???????: f_lzc8 = 3'd0;
      8'b01??????: f_lzc8 = 3'd1;
      8'b001?????: f_lzc8 = 3'd2;
      8'b0001????: f_lzc8 = 3'd3;
      8'b00001???: f_lzc8 = 3'd4;
      8'b000001??: f_lzc8 = 3'd5;
      8'b0000001?: f_lzc8 = 3'd6;
      default:     f_lzc8 = 3'd7;
    endcase
  endfunction
  function automatic logic [4:0] f_lzc32(input logic [31:0] data);
    if      (data[31:24] != 8'd0) f_lzc32 = {2'd0, f_lzc8(data[31:24])};
    else if (data[23:16] != 8'd0) f_lzc32 = {2'd1, f_lzc8(data[23:16])};
    else if (data[15:8]  != 8'd0) f_lzc32 = {2'd2, f_lzc8(data[15:8])};
    else                          f_lzc32 = {2'd3, f_lzc8(data[7:0])};
  endfunction
  // Over 128 bits (the product of the fused multiply-add).
  function automatic logic [6:0] f_lzc128(input logic [127:0] data);
    if      (data[127:96] != 32'd0) f_lzc128 = {2'd0, f_lzc32(data[127:96])};
    else if (data[95:64]  != 32'd0) f_lzc128 = {2'd1, f_lzc32(data[95:64])};
    else if (data[63:32]  != 32'd0) f_lzc128 = {2'd2, f_lzc32(data[63:32])};
    else                            f_lzc128 = {2'd3, f_lzc32(data[31:0])};
  endfunction

  // ==========================================================================
  // The three stages as functions. Each is called inside the always_ff of
  // the register that follows it, under that register's valid bit, so that
  // a verilated model evaluates a lane's datapath only in the cycles it
  // works (Verilator evaluates every combinational process on every clock
  // edge; ../shared/CONVENTIONS.md). Where Latency leaves a register out,
  // the function feeds the next stage through a continuous assignment.
  // Functions also keep Icarus 11 away from re-triggered always_comb blocks.
  // ==========================================================================
  localparam int S1W = 172;
  localparam int S2W = 130;

  // --------------------------------------------------------------------------
  // S1: decode, unpack, multiply, align
  // --------------------------------------------------------------------------
  function automatic logic [S1W-1:0] f_s1(input logic [6:0] op, input logic [3:0] md,
                                          input logic [31:0] a, input logic [31:0] b,
                                          input logic [31:0] c);
    logic        is_fadd, is_fsub, is_fmul, is_i2f;
    logic [31:0] x, y, z;
    logic [23:0] mx, my, mz, mx_n, my_n, mz_rev;
    logic [7:0]  ex_e, ey_e, ez_e;
    logic [4:0]  lzx, lzy, tzz;
    logic [47:0] prod;
    logic [10:0] exy_e, exy_n, exp_part, sh_raw;  // signed
    logic [5:0]  lz_sum;
    logic [6:0]  sh;
    logic        clamp_hi, z_sticky;
    logic [74:0] z_win;
    logic        int_neg;
    logic [31:0] int_mag;
    logic        a_nan, b_nan, unord, both_zero, ab_eq, ab_lt, ab_gt, key_le;
    logic        cmp_res;
    logic [4:0]  f2i_sa;
    logic [54:0] f2i_shifted;
    logic [31:0] f2i_mag, f2i_res;
    logic        sp, sz, x_inf, y_inf, z_inf, x_zero, y_zero, z_zero, any_nan;
    logic        early1, cmp1, eff_sub1, sign_z1;
    logic [31:0] early_res1;
    logic [75:0] addend1;
    logic [10:0] ew1;
    logic        fma_nan, minmax_nan2;
    logic [31:0] fma_special, min_res, max_res;

    is_fadd = (op == baresm_isa_pkg::OP_FADD);
    is_fsub = (op == baresm_isa_pkg::OP_FSUB);
    is_fmul = (op == baresm_isa_pkg::OP_FMUL);
    is_i2f  = (op == baresm_isa_pkg::OP_I2F);

    // FMA operands x*y + z.
    x = a;
    y = (is_fadd || is_fsub) ? FP_ONE :
        is_i2f               ? 32'd0 :  // zero product: the integer comes in as the addend
                               b;
    z = is_fadd ? b :
        is_fsub ? (b ^ SIGN_BIT) :
        is_fmul ? SIGN_BIT :
                  c;

    // Mantissas with the hidden bit, exponents with subnormals at 1.
    mx   = {x[30:23] != 8'd0, x[22:0]};
    my   = {y[30:23] != 8'd0, y[22:0]};
    mz   = {z[30:23] != 8'd0, z[22:0]};
    ex_e = (x[30:23] == 8'd0) ? 8'd1 : x[30:23];
    ey_e = (y[30:23] == 8'd0) ? 8'd1 : y[30:23];
    ez_e = (z[30:23] == 8'd0) ? 8'd1 : z[30:23];

    // Normalise subnormal x and y so the product's leading one is at bit 46/47.
    lzx  = f_lzc32({mx, 8'hFF});
    lzy  = f_lzc32({my, 8'hFF});
    mx_n = mx << lzx;
    my_n = my << lzy;
    prod = {24'd0, mx_n} * {24'd0, my_n};

    // Addend alignment, in parallel with the multiplier. sh_raw is the right
    // shift that puts the addend at its true place: 50 - (addend lsb exponent
    // - product lsb exponent). The exponent fields are combined first and the
    // normalisation shifts of x and y subtracted last, so these adders run
    // alongside the leading-zero counts.
    exy_e    = {3'd0, ex_e} + {3'd0, ey_e};
    lz_sum   = {1'b0, lzx} + {1'b0, lzy};
    exy_n    = exy_e - {5'd0, lz_sum};               // exponent sum of x*y, normalised
    exp_part = exy_e - {3'd0, ez_e} - 11'd100;
    sh_raw   = exp_part - {5'd0, lz_sum};
    clamp_hi = sh_raw[10];                           // addend far above the product
    sh = clamp_hi          ? 7'd0 :
         (sh_raw > 11'd75) ? 7'd75 :  // entirely below the window: sticky only
                             sh_raw[6:0];
    z_win = {mz, 51'd0} >> sh;
    // Sticky: bit k of mz falls below the window when k + 51 < sh, so some bit
    // does when its trailing-zero count does -- a compare on sh instead of an
    // OR over the shifter's output (mz = 0 gives 24, never below).
    for (int k = 0; k < 24; k++) mz_rev[k] = mz[23-k];
    tzz      = f_lzc32({mz_rev, 8'hFF});
    z_sticky = ({2'd0, tzz} + 7'd51) < sh;

    // I2F operand.
    int_neg = ~md[0] & a[31];
    int_mag = int_neg ? (32'd0 - a) : a;

    // Compare, min/max on a/b.
    a_nan     = f_nan(a[30:0]);
    b_nan     = f_nan(b[30:0]);
    unord     = a_nan | b_nan;
    both_zero = f_zero(a[30:0]) & f_zero(b[30:0]);
    key_le    = f_key(a) <= f_key(b);
    ab_eq     = ~unord & ((a == b) | both_zero);
    ab_lt     = ~unord & ~ab_eq & key_le;
    ab_gt     = ~unord & ~ab_eq & ~key_le;
    unique case (md[3:0])
      4'd0:    cmp_res = ab_eq;
      4'd1:    cmp_res = ab_lt | ab_gt;
      4'd2:    cmp_res = ab_lt;
      4'd3:    cmp_res = ab_lt | ab_eq;
      4'd4:    cmp_res = ab_gt;
      4'd5:    cmp_res = ab_gt | ab_eq;
      4'd6:    cmp_res = ~unord;
      4'd7:    cmp_res = unord;
      4'd8:    cmp_res = unord | ab_eq;
      4'd9:    cmp_res = unord | ab_lt | ab_gt;
      4'd10:   cmp_res = unord | ab_lt;
      4'd11:   cmp_res = unord | ab_lt | ab_eq;
      4'd12:   cmp_res = unord | ab_gt;
      4'd13:   cmp_res = unord | ab_gt | ab_eq;
      default: cmp_res = 1'b0;  // not encodable
    endcase

    // F2I: |a| < 2^32 shifted out of the mantissa, truncating (the fraction
    // bits f2i_shifted[22:0] are dropped).
    f2i_sa      = a[27:23] - 5'd31;  // exp - 127 (mod 32): used for 127..158
    f2i_shifted = {31'd0, 1'b1, a[22:0]} << f2i_sa;
    f2i_mag     = f2i_shifted[54:23];
    f2i_res = (a_nan || a[30:23] < 8'd127) ? 32'd0 :      // NaN, |a| < 1
              md[0] ? (a[31]                 ? 32'd0 :    // .U32
                       (a[30:23] >= 8'd159)  ? 32'hFFFF_FFFF :
                                               f2i_mag) :
              (a[30:23] >= 8'd158) ? (a[31] ? 32'h8000_0000 : 32'h7FFF_FFFF) :
              a[31]                ? (32'd0 - f2i_mag) : f2i_mag;

    // S1 result: everything except the x*y+z datapath.
    sp      = x[31] ^ y[31];
    sz      = z[31];
    x_inf   = f_inf(x[30:0]);
    y_inf   = f_inf(y[30:0]);
    z_inf   = f_inf(z[30:0]);
    x_zero  = f_zero(x[30:0]);
    y_zero  = f_zero(y[30:0]);
    z_zero  = f_zero(z[30:0]);
    any_nan = f_nan(x[30:0]) | f_nan(y[30:0]) | f_nan(z[30:0]);

    addend1  = is_i2f ? {44'd0, int_mag} : {1'b0, z_win[74:1], z_win[0] | z_sticky};
    eff_sub1 = ~is_i2f & (sp ^ sz);
    sign_z1  = is_i2f ? int_neg : sz;
    ew1      = is_i2f                ? 11'd0 :
               (!z_zero && clamp_hi) ? ({3'd0, ez_e} - 11'd201) :
                                       (exy_n - 11'd301);
    cmp1     = (op == baresm_isa_pkg::OP_FSETP) & cmp_res;

    fma_nan     = any_nan ||
                  ((x_inf || y_inf) && (x_zero || y_zero)) ||   // inf * 0
                  ((x_inf || y_inf) && z_inf && (sz != sp));    // inf - inf
    // Valid when fma_early: the exact result of the special cases.
    fma_special = fma_nan          ? FP_QNAN :
                  (x_inf || y_inf) ? {sp, FP_INF[30:0]} :
                  z_inf            ? z :
                  z_zero           ? {sp & sz, 31'd0} :  // 0 * y + 0
                                     z;                  // 0 * y + z, exact
    minmax_nan2 = a_nan & b_nan;
    min_res     = minmax_nan2 ? FP_QNAN : a_nan ? b : b_nan ? a : (key_le ? a : b);
    max_res     = minmax_nan2 ? FP_QNAN : a_nan ? b : b_nan ? a : (key_le ? b : a);

    unique case (op)
      baresm_isa_pkg::OP_FADD,
      baresm_isa_pkg::OP_FSUB,
      baresm_isa_pkg::OP_FMUL,
      baresm_isa_pkg::OP_FFMA: begin
        early1     = any_nan | x_inf | y_inf | z_inf | x_zero | y_zero;
        early_res1 = fma_special;
      end
      baresm_isa_pkg::OP_I2F: begin
        early1     = 1'b0;
        early_res1 = 32'd0;
      end
      baresm_isa_pkg::OP_FMIN: begin
        early1     = 1'b1;
        early_res1 = min_res;
      end
      baresm_isa_pkg::OP_FMAX: begin
        early1     = 1'b1;
        early_res1 = max_res;
      end
      baresm_isa_pkg::OP_FNEG: begin
        early1     = 1'b1;
        early_res1 = a ^ SIGN_BIT;
      end
      baresm_isa_pkg::OP_FABS: begin
        early1     = 1'b1;
        early_res1 = a & ~SIGN_BIT;
      end
      baresm_isa_pkg::OP_F2I: begin
        early1     = 1'b1;
        early_res1 = f2i_res;
      end
      default: begin  // FSETP (result 0, the answer is on cmp_o), non-FPU opcodes
        early1     = 1'b1;
        early_res1 = 32'd0;
      end
    endcase

    // S1 -> S2 field order.
    f_s1 = {early1, early_res1, cmp1, prod, addend1, eff_sub1, sp, sign_z1, ew1};
  endfunction

  // --------------------------------------------------------------------------
  // S2: add. Both differences in parallel; the borrow of addend - product
  // picks one.
  // --------------------------------------------------------------------------
  function automatic logic [S2W-1:0] f_s2(input logic [S1W-1:0] s1);
    logic        early, cmp, eff_sub, sign_p, sign_z;
    logic [31:0] early_res;
    logic [47:0] prod;
    logic [75:0] addend;
    logic [10:0] ew;
    logic [75:0] prod_w, sum_add, diff_zp, diff_pz, mag;
    logic        borrow_zp, z_ge_p, sign2;
    logic [6:0]  lz;
    logic [10:0] lim2;
    {early, early_res, cmp, prod, addend, eff_sub, sign_p, sign_z, ew} = s1;
    prod_w              = {27'd0, prod, 1'b0};
    sum_add             = addend + prod_w;
    {borrow_zp, diff_zp} = {1'b0, addend} - {1'b0, prod_w};
    diff_pz             = prod_w - addend;
    z_ge_p              = ~borrow_zp;
    mag = !eff_sub ? sum_add :
          z_ge_p      ? diff_zp : diff_pz;
    lz  = f_lzc128({mag, 52'hF_FFFF_FFFF_FFFF});
    // Same signs: either; otherwise the larger magnitude's.
    sign2 = (!eff_sub || z_ge_p) ? sign_z : sign_p;
    lim2  = ew + 11'd201;
    // S2 -> S3 field order.
    f_s2  = {early, early_res, cmp, mag, lz, sign2, mag == 76'd0, lim2};
  endfunction

  // --------------------------------------------------------------------------
  // S3: normalise, round, pack; {cmp, result}.
  // Left shift by min(lz, lim): the leading one reaches bit 75 (normal), or
  // the 2^-149 bit reaches bit 52 (subnormal). lim < 0 only happens with a
  // zero addend and then the product is below 2^-152: it rounds to zero.
  // --------------------------------------------------------------------------
  function automatic logic [32:0] f_s3(input logic [S2W-1:0] s2);
    logic        early, cmp, sign, zero;
    logic [31:0] early_res;
    logic [75:0] mag;
    logic [6:0]  lz;
    logic [10:0] lim;
    logic        tiny, round_bit, sticky, round_up;
    logic [6:0]  nshift;
    logic [75:0] norm;
    logic [23:0] mant;
    logic [10:0] field;     // biased exponent - 1 (normal) or 0 (subnormal); 0..408
    logic [32:0] packed_r;  // {field, 23'b0} + mant + round_up
    logic [31:0] res3;
    {early, early_res, cmp, mag, lz, sign, zero, lim} = s2;
    tiny      = lim[10];
    nshift    = ({4'd0, lz} <= lim) ? lz : lim[6:0];
    norm      = mag << nshift;
    mant      = norm[75:52];
    round_bit = norm[51];
    sticky    = |norm[50:0];
    round_up  = round_bit & (sticky | mant[0]);
    field     = lim - {4'd0, nshift};
    // The hidden bit of mant adds one to the field; a rounding carry out of
    // the mantissa adds one more. field <= 408 fits in 9 bits.
    packed_r  = {1'b0, field[8:0], 23'd0} + {9'd0, mant} + {32'd0, round_up};
    res3 = early                   ? early_res :
           zero                    ? 32'd0 :  // exact cancellation: +0
           tiny                       ? {sign, 31'd0} :
           (packed_r >= {1'b0, FP_INF}) ? {sign, FP_INF[30:0]} :
                                        {sign, packed_r[30:0]};
    f_s3 = {cmp, res3};
  endfunction

  // The lanes run in one loop inside each stage's enabled always_ff: a
  // verilated model then has one copy of each stage's code and skips all of
  // it in idle cycles (a module per lane costs every lane's function entry
  // every cycle). Each stage computes its lanes into a local vector and
  // writes the register once (Verilator cannot delay an assignment to an
  // array element inside a loop).
  localparam int LW = NumLanes * 32;
  localparam int RW = LW + NumLanes;  // one output register: {cmp, result}

  // ==========================================================================
  // S1 -> S2 register
  // ==========================================================================
  logic [NumLanes*S1W-1:0] s1_q;
  logic                    v1_q;
  if (Latency >= 2) begin : g_s1_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v1_q <= 1'b0;
      else         v1_q <= in_valid_i;
    end
    // Data needs no reset: it is only looked at with its valid bit.
    always_ff @(posedge clk_i) begin
      if (in_valid_i) begin : lanes
        logic [NumLanes*S1W-1:0] s1_d;
        for (int l = 0; l < NumLanes; l++) begin
          s1_d[l*S1W +: S1W] = f_s1(op_i, mod_i[3:0], a_i[l*32 +: 32], b_i[l*32 +: 32],
                                    c_i[l*32 +: 32]);
        end
        s1_q <= s1_d;
      end
    end
  end else begin : g_s1_wire
    assign v1_q = in_valid_i;
    for (genvar l = 0; l < NumLanes; l++) begin : g_lane
      assign s1_q[l*S1W +: S1W] = f_s1(op_i, mod_i[3:0], a_i[l*32 +: 32], b_i[l*32 +: 32],
                                       c_i[l*32 +: 32]);
    end
  end

  // ==========================================================================
  // S2 -> S3 register
  // ==========================================================================
  logic [NumLanes*S2W-1:0] s2_q;
  logic                    v2_q;
  if (Latency >= 3) begin : g_s2_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v2_q <= 1'b0;
      else         v2_q <= v1_q;
    end
    always_ff @(posedge clk_i) begin
      if (v1_q) begin : lanes
        logic [NumLanes*S2W-1:0] s2_d;
        for (int l = 0; l < NumLanes; l++) s2_d[l*S2W +: S2W] = f_s2(s1_q[l*S1W +: S1W]);
        s2_q <= s2_d;
      end
    end
  end else begin : g_s2_wire
    assign v2_q = v1_q;
    for (genvar l = 0; l < NumLanes; l++) begin : g_lane
      assign s2_q[l*S2W +: S2W] = f_s2(s1_q[l*S1W +: S1W]);
    end
  end

  // ==========================================================================
  // Output registers (NumOutRegs of them; the last drives the ports)
  // ==========================================================================
  logic [NumOutRegs-1:0]    ov_q;
  logic [NumOutRegs*RW-1:0] od_q;  // {cmp, result} per register
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ov_q <= '0;
      od_q <= '0;
    end else begin
      ov_q[0] <= v2_q;
      if (v2_q) begin : lanes
        logic [RW-1:0] o_d;
        logic [32:0]   lane_res;
        for (int l = 0; l < NumLanes; l++) begin
          lane_res         = f_s3(s2_q[l*S2W +: S2W]);
          o_d[LW + l]      = lane_res[32];
          o_d[l*32 +: 32]  = lane_res[31:0];
        end
        od_q[RW-1:0] <= o_d;
      end
      for (int r = 1; r < NumOutRegs; r++) begin
        ov_q[r] <= ov_q[r-1];
        if (ov_q[r-1]) od_q[r*RW +: RW] <= od_q[(r-1)*RW +: RW];
      end
    end
  end

  assign out_valid_o = ov_q[NumOutRegs-1];
  assign result_o    = od_q[(NumOutRegs-1)*RW +: LW];
  assign cmp_o       = od_q[(NumOutRegs-1)*RW + LW +: NumLanes];

  // Bits that carry nothing for this unit (kept out of Verilator's UNUSED).
  logic unused_mod;
  assign unused_mod = ^mod_i[7:4];

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // out_valid_o is in_valid_i exactly Latency cycles later (a shadow delay
  // line), and outside out_valid_o the outputs hold the last result.
  logic [Latency-1:0] chk_valid_q;
  logic [LW-1:0]       chk_result_q;
  logic [NumLanes-1:0] chk_cmp_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_valid_q <= '0;
      chk_result_q <= '0;
      chk_cmp_q <= '0;
    end else begin
      chk_valid_q <= Latency'({chk_valid_q, in_valid_i});
      chk_result_q <= result_o;
      chk_cmp_q <= cmp_o;
    end
  end
  `BARESM_ASSERT(a_latency, out_valid_o == chk_valid_q[Latency-1])
  `BARESM_ASSERT(a_hold_result, out_valid_o || (result_o == chk_result_q && cmp_o == chk_cmp_q))

endmodule

`default_nettype wire
