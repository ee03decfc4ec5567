// baresm_fpu: one lane of the SM's FP32 unit (the SM instantiates NumLanes).
// docs/fpu.md is the full description; the contract in short:
//
// Every cycle with in_valid_i high starts one operation on op_i/mod_i/a_i/
// b_i/c_i (sampled that cycle only); its result appears on result_o/cmp_o
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
  parameter int Latency = 3
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        in_valid_i,
  input  logic [6:0]  op_i,
  input  logic [7:0]  mod_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic        out_valid_o,
  output logic [31:0] result_o,
  output logic        cmp_o
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

  typedef struct packed {
    logic        early;      // result fully known after S1
    logic [31:0] early_res;
    logic        cmp;
    logic [47:0] prod;       // x*y mantissa product
    logic [75:0] addend;     // aligned addend (or I2F magnitude), sticky in bit 0
    logic        eff_sub;    // product and addend have opposite signs
    logic        sign_p;
    logic        sign_z;
    logic [10:0] ew;         // signed: exponent of window bit 0
  } s1_t;

  typedef struct packed {
    logic        early;
    logic [31:0] early_res;
    logic        cmp;
    logic [75:0] mag;        // |sum| in the window
    logic [6:0]  lz;         // leading zeros of mag
    logic        sign;
    logic        zero;       // exact zero sum: +0
    logic [10:0] lim;        // signed: ew + 201, the largest left shift that keeps
                             // the unit in the last place at or above 2^-149
  } s2_t;

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

  // ==========================================================================
  // S1: decode, unpack, multiply, align
  // ==========================================================================
  logic is_fadd, is_fsub, is_fmul, is_i2f;
  assign is_fadd = (op_i == baresm_isa_pkg::OP_FADD);
  assign is_fsub = (op_i == baresm_isa_pkg::OP_FSUB);
  assign is_fmul = (op_i == baresm_isa_pkg::OP_FMUL);
  assign is_i2f  = (op_i == baresm_isa_pkg::OP_I2F);

  // FMA operands x*y + z.
  logic [31:0] x, y, z;
  assign x = a_i;
  assign y = (is_fadd || is_fsub) ? FP_ONE :
             is_i2f               ? 32'd0 :  // zero product: the integer comes in as the addend
                                    b_i;
  assign z = is_fadd ? b_i :
             is_fsub ? (b_i ^ SIGN_BIT) :
             is_fmul ? SIGN_BIT :
                       c_i;

  // Mantissas with the hidden bit, exponents with subnormals at 1.
  logic [23:0] mx, my, mz;
  logic [7:0]  ex_e, ey_e, ez_e;
  assign mx   = {x[30:23] != 8'd0, x[22:0]};
  assign my   = {y[30:23] != 8'd0, y[22:0]};
  assign mz   = {z[30:23] != 8'd0, z[22:0]};
  assign ex_e = (x[30:23] == 8'd0) ? 8'd1 : x[30:23];
  assign ey_e = (y[30:23] == 8'd0) ? 8'd1 : y[30:23];
  assign ez_e = (z[30:23] == 8'd0) ? 8'd1 : z[30:23];

  // Normalise subnormal x and y so the product's leading one is at bit 46/47.
  logic [4:0]  lzx, lzy;
  logic [23:0] mx_n, my_n;
  baresm_fpu_lzc #(.Width(24)) u_lzc_x (.data_i(mx), .cnt_o(lzx));
  baresm_fpu_lzc #(.Width(24)) u_lzc_y (.data_i(my), .cnt_o(lzy));
  assign mx_n = mx << lzx;
  assign my_n = my << lzy;

  logic [47:0] prod;
  assign prod = {24'd0, mx_n} * {24'd0, my_n};

  // Addend alignment, in parallel with the multiplier. sh_raw is the right
  // shift that puts the addend at its true place: 50 - (addend lsb exponent
  // - product lsb exponent). The exponent fields are combined first and the
  // normalisation shifts of x and y subtracted last, so these adders run
  // alongside the leading-zero counts.
  logic [10:0]  exy_e, exy_n, exp_part, sh_raw;  // signed
  logic [5:0]   lz_sum;
  logic [6:0]   sh;
  logic         clamp_hi;  // addend far above the product
  logic [74:0]  z_win;     // the addend in the window, before the sticky bit
  logic [23:0]  mz_rev;
  logic [4:0]   tzz;
  logic         z_sticky;
  assign exy_e    = {3'd0, ex_e} + {3'd0, ey_e};
  assign lz_sum   = {1'b0, lzx} + {1'b0, lzy};
  assign exy_n    = exy_e - {5'd0, lz_sum};               // exponent sum of x*y, normalised
  assign exp_part = exy_e - {3'd0, ez_e} - 11'd100;
  assign sh_raw   = exp_part - {5'd0, lz_sum};
  assign clamp_hi = sh_raw[10];
  assign sh = clamp_hi               ? 7'd0 :
              (sh_raw > 11'd75)      ? 7'd75 :  // entirely below the window: sticky only
                                       sh_raw[6:0];
  assign z_win    = {mz, 51'd0} >> sh;
  // Sticky: bit k of mz falls below the window when k + 51 < sh, so some bit
  // does when its trailing-zero count does -- a compare on sh instead of an
  // OR over the shifter's output (mz = 0 gives 24, never below).
  for (genvar k = 0; k < 24; k++) begin : g_mz_rev
    assign mz_rev[k] = mz[23-k];
  end
  baresm_fpu_lzc #(.Width(24)) u_tzc_z (.data_i(mz_rev), .cnt_o(tzz));
  assign z_sticky = ({2'd0, tzz} + 7'd51) < sh;

  // I2F operand.
  logic        int_neg;
  logic [31:0] int_mag;
  assign int_neg = ~mod_i[0] & a_i[31];
  assign int_mag = int_neg ? (32'd0 - a_i) : a_i;

  // Compare, min/max on a/b.
  logic a_nan, b_nan, unord, both_zero, ab_eq, ab_lt, ab_gt, key_le;
  assign a_nan     = f_nan(a_i[30:0]);
  assign b_nan     = f_nan(b_i[30:0]);
  assign unord     = a_nan | b_nan;
  assign both_zero = f_zero(a_i[30:0]) & f_zero(b_i[30:0]);
  assign key_le    = f_key(a_i) <= f_key(b_i);
  assign ab_eq     = ~unord & ((a_i == b_i) | both_zero);
  assign ab_lt     = ~unord & ~ab_eq & key_le;
  assign ab_gt     = ~unord & ~ab_eq & ~key_le;

  logic [3:0] cmp_code;
  logic       cmp_res;
  assign cmp_code = mod_i[3:0];
  always_comb begin
    unique case (cmp_code)
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
  end

  // F2I: |a| < 2^32 shifted out of the mantissa, truncating.
  logic [4:0]  f2i_sa;
  logic [54:0] f2i_shifted;
  logic [31:0] f2i_mag, f2i_res;
  assign f2i_sa      = a_i[27:23] - 5'd31;  // exp - 127 (mod 32): used for 127..158
  assign f2i_shifted = {31'd0, 1'b1, a_i[22:0]} << f2i_sa;
  assign f2i_mag     = f2i_shifted[54:23];
  assign f2i_res = (a_nan || a_i[30:23] < 8'd127) ? 32'd0 :      // NaN, |a| < 1
                   mod_i[0] ? (a_i[31]                  ? 32'd0 :    // .U32
                               (a_i[30:23] >= 8'd159)   ? 32'hFFFF_FFFF :
                                                          f2i_mag) :
                   (a_i[30:23] >= 8'd158) ? (a_i[31] ? 32'h8000_0000 : 32'h7FFF_FFFF) :
                   a_i[31]                ? (32'd0 - f2i_mag) : f2i_mag;

  // S1 result: everything except the x*y+z datapath.
  s1_t s1_d;
  logic sp, sz;
  logic x_inf, y_inf, z_inf, x_zero, y_zero, z_zero, any_nan;
  assign sp      = x[31] ^ y[31];
  assign sz      = z[31];
  assign x_inf   = f_inf(x[30:0]);
  assign y_inf   = f_inf(y[30:0]);
  assign z_inf   = f_inf(z[30:0]);
  assign x_zero  = f_zero(x[30:0]);
  assign y_zero  = f_zero(y[30:0]);
  assign z_zero  = f_zero(z[30:0]);
  assign any_nan = f_nan(x[30:0]) | f_nan(y[30:0]) | f_nan(z[30:0]);

  // Icarus 11 compatibility: no always_comb block here writes a variable
  // twice in one pass (no default-then-override) or writes struct fields;
  // Icarus can re-trigger such blocks without end (simulation time stops).
  // Each stage's outputs are packed into its struct by one continuous
  // assignment.
  logic        early1, cmp1, eff_sub1, sign_z1;
  logic [31:0] early_res1;
  logic [75:0] addend1;
  logic [10:0] ew1;

  assign addend1  = is_i2f ? {44'd0, int_mag} : {1'b0, z_win[74:1], z_win[0] | z_sticky};
  assign eff_sub1 = ~is_i2f & (sp ^ sz);
  assign sign_z1  = is_i2f ? int_neg : sz;
  assign ew1      = is_i2f                 ? 11'd0 :
                    (!z_zero && clamp_hi)  ? ({3'd0, ez_e} - 11'd201) :
                                             (exy_n - 11'd301);
  assign cmp1     = (op_i == baresm_isa_pkg::OP_FSETP) & cmp_res;

  logic fma_nan, minmax_nan2;
  logic [31:0] fma_special, min_res, max_res;
  assign fma_nan     = any_nan ||
                       ((x_inf || y_inf) && (x_zero || y_zero)) ||   // inf * 0
                       ((x_inf || y_inf) && z_inf && (sz != sp));    // inf - inf
  // Valid when fma_early: the exact result of the special cases.
  assign fma_special = fma_nan         ? FP_QNAN :
                       (x_inf || y_inf) ? {sp, FP_INF[30:0]} :
                       z_inf            ? z :
                       z_zero           ? {sp & sz, 31'd0} :  // 0 * y + 0
                                          z;                  // 0 * y + z, exact
  assign minmax_nan2 = a_nan & b_nan;
  assign min_res     = minmax_nan2 ? FP_QNAN : a_nan ? b_i : b_nan ? a_i : (key_le ? a_i : b_i);
  assign max_res     = minmax_nan2 ? FP_QNAN : a_nan ? b_i : b_nan ? a_i : (key_le ? b_i : a_i);

  always_comb begin
    unique case (op_i)
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
        early_res1 = a_i ^ SIGN_BIT;
      end
      baresm_isa_pkg::OP_FABS: begin
        early1     = 1'b1;
        early_res1 = a_i & ~SIGN_BIT;
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
  end

  // Field order of s1_t.
  assign s1_d = {early1, early_res1, cmp1, prod, addend1, eff_sub1, sp, sign_z1, ew1};

  // ==========================================================================
  // S1 -> S2 register
  // ==========================================================================
  s1_t  s1_q;
  logic v1_q;
  if (Latency >= 2) begin : g_s1_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v1_q <= 1'b0;
      else         v1_q <= in_valid_i;
    end
    // Data needs no reset: it is only looked at with its valid bit.
    always_ff @(posedge clk_i) begin
      if (in_valid_i) s1_q <= s1_d;
    end
  end else begin : g_s1_wire
    assign v1_q = in_valid_i;
    assign s1_q = s1_d;
  end

  // ==========================================================================
  // S2: add
  // ==========================================================================
  // Both differences in parallel; the borrow of addend - product picks one.
  logic [75:0] prod_w, sum_add, diff_zp, diff_pz;
  logic        borrow_zp, z_ge_p;
  assign prod_w              = {27'd0, s1_q.prod, 1'b0};
  assign sum_add             = s1_q.addend + prod_w;
  assign {borrow_zp, diff_zp} = {1'b0, s1_q.addend} - {1'b0, prod_w};
  assign diff_pz             = prod_w - s1_q.addend;
  assign z_ge_p              = ~borrow_zp;

  s2_t        s2_d;
  logic [75:0] mag;
  logic [6:0]  lz;
  assign mag = !s1_q.eff_sub ? sum_add :
               z_ge_p         ? diff_zp : diff_pz;
  baresm_fpu_lzc #(.Width(76)) u_lzc_sum (.data_i(mag), .cnt_o(lz));

  logic        sign2;
  logic [10:0] lim2;
  // Same signs: either; otherwise the larger magnitude's.
  assign sign2 = (!s1_q.eff_sub || z_ge_p) ? s1_q.sign_z : s1_q.sign_p;
  assign lim2  = s1_q.ew + 11'd201;
  // Field order of s2_t.
  assign s2_d  = {s1_q.early, s1_q.early_res, s1_q.cmp, mag, lz, sign2, mag == 76'd0, lim2};

  // ==========================================================================
  // S2 -> S3 register
  // ==========================================================================
  s2_t  s2_q;
  logic v2_q;
  if (Latency >= 3) begin : g_s2_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v2_q <= 1'b0;
      else         v2_q <= v1_q;
    end
    always_ff @(posedge clk_i) begin
      if (v1_q) s2_q <= s2_d;
    end
  end else begin : g_s2_wire
    assign v2_q = v1_q;
    assign s2_q = s2_d;
  end

  // ==========================================================================
  // S3: normalise, round, pack
  // ==========================================================================
  // Left shift by min(lz, lim): the leading one reaches bit 75 (normal), or
  // the 2^-149 bit reaches bit 52 (subnormal). lim < 0 only happens with a
  // zero addend and then the product is below 2^-152: it rounds to zero.
  logic        tiny;
  logic [6:0]  nshift;
  logic [75:0] norm;
  logic [23:0] mant;
  logic        round_bit, sticky, round_up;
  logic [10:0] field;     // biased exponent - 1 (normal) or 0 (subnormal)
  logic [32:0] packed_r;  // {field, 23'b0} + mant + round_up
  logic [31:0] res3;
  assign tiny      = s2_q.lim[10];
  assign nshift    = ({4'd0, s2_q.lz} <= s2_q.lim) ? s2_q.lz : s2_q.lim[6:0];
  assign norm      = s2_q.mag << nshift;
  assign mant      = norm[75:52];
  assign round_bit = norm[51];
  assign sticky    = |norm[50:0];
  assign round_up  = round_bit & (sticky | mant[0]);
  assign field     = s2_q.lim - {4'd0, nshift};
  // The hidden bit of mant adds one to the field; a rounding carry out of
  // the mantissa adds one more. field <= 408 fits in 9 bits.
  assign packed_r  = {1'b0, field[8:0], 23'd0} + {9'd0, mant} + {32'd0, round_up};

  assign res3 = s2_q.early                      ? s2_q.early_res :
                s2_q.zero                       ? 32'd0 :  // exact cancellation: +0
                tiny                            ? {s2_q.sign, 31'd0} :
                (packed_r >= {1'b0, FP_INF})    ? {s2_q.sign, FP_INF[30:0]} :
                                                  {s2_q.sign, packed_r[30:0]};

  logic unused_field;
  assign unused_field = ^field[10:9];  // field is 0..408

  // ==========================================================================
  // Output registers (NumOutRegs of them; the last drives the ports)
  // ==========================================================================
  logic [NumOutRegs-1:0]    ov_q;
  logic [NumOutRegs*33-1:0] od_q;  // {cmp, result} per register
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ov_q <= '0;
      od_q <= '0;
    end else begin
      ov_q[0] <= v2_q;
      if (v2_q) od_q[32:0] <= {s2_q.cmp, res3};
      for (int r = 1; r < NumOutRegs; r++) begin
        ov_q[r] <= ov_q[r-1];
        if (ov_q[r-1]) od_q[r*33 +: 33] <= od_q[(r-1)*33 +: 33];
      end
    end
  end

  assign out_valid_o = ov_q[NumOutRegs-1];
  assign result_o    = od_q[(NumOutRegs-1)*33 +: 32];
  assign cmp_o       = od_q[NumOutRegs*33-1];

  // Bits that carry nothing for this unit (kept out of Verilator's UNUSED).
  logic unused_mod, unused_f2i;
  assign unused_mod = ^mod_i[7:4];
  assign unused_f2i = ^f2i_shifted[22:0];  // the fraction F2I truncates

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // out_valid_o is in_valid_i exactly Latency cycles later (a shadow delay
  // line), and outside out_valid_o the outputs hold the last result.
  logic [Latency-1:0] chk_valid_q;
  logic [31:0]        chk_result_q;
  logic               chk_cmp_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_valid_q <= '0;
      chk_result_q <= '0;
      chk_cmp_q <= 1'b0;
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
