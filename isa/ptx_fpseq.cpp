#include "isa/ptx_fpseq.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "isa/fp32.h"

namespace baresm::isa::ptx {

namespace {

class Seq {
 public:
  Seq(MKernel* m, Pos pos) : m_(m), pos_(pos) {}
  int v() { return vreg(false); }
  int p() { return vreg(true); }
  // One instruction; guard -1 is PT.
  void e(const std::string& mn, std::vector<MOperand> ops, int guard = -1) {
    MInstr mi;
    mi.mnem = mn;
    mi.ops = std::move(ops);
    mi.pos = pos_;
    mi.guard = guard;
    m_->code.push_back(std::move(mi));
  }
  // d = op(ops...) into a fresh register.
  int op(const std::string& mn, std::vector<MOperand> srcs) {
    const int d = v();
    srcs.insert(srcs.begin(), MOperand::v(d, true));
    e(mn, std::move(srcs));
    return d;
  }
  int setp(const std::string& mn, MOperand a, MOperand b, MOperand c = MOperand::pt()) {
    const int d = p();
    e(mn, {MOperand::p(d, true), a, b, c});
    return d;
  }

 private:
  int vreg(bool pred) {
    m_->vregs.push_back(MVreg{pred, ""});
    return int(m_->vregs.size()) - 1;
  }
  MKernel* m_;
  Pos pos_;
};

MOperand R(int v) {
  return MOperand::v(v);
}
MOperand D(int v) {
  return MOperand::v(v, true);
}
MOperand P(int v, bool neg = false) {
  return MOperand::p(v, false, neg);
}
MOperand I(uint32_t x) {
  return MOperand::i(x);
}

constexpr uint32_t kOne = 0x3F800000, kHalf = 0x3F000000, kInf = 0x7F800000;

// |x| (finite, non-zero, in register u, overwritten) as s in [1, 2) and -s,
// with the biased exponent e it had (a subnormal is first scaled by 2^24,
// exactly, so e can go down to -22).
struct Norm {
  int s, ns, e, m;
};
Norm normalise(Seq& q, int u) {
  Norm n;
  n.e = q.op("SHR", {R(u), I(23)});
  const int sub = q.setp("ISETP.EQ.AND", R(n.e), I(0));
  q.e("FMUL", {D(u), R(u), I(0x4B800000)}, sub);  // * 2^24
  q.e("SHR", {D(n.e), R(u), I(23)}, sub);
  q.e("IADD", {D(n.e), R(n.e), I(uint32_t(-24))}, sub);
  n.m = q.op("AND", {R(u), I(0x7FFFFF)});
  n.s = q.op("OR", {R(n.m), I(kOne)});
  n.ns = q.op("OR", {R(n.m), I(0xBF800000)});
  return n;
}

// a / b, or 1 / b when a < 0. The quotient of the mantissas as in [1, 2) and
// bs in [1, 2) is computed where nothing over- or underflows:
//   y ~ 1/bs: 24/17 - 8/17 bs (relative error 1/17), three Newton steps
//     y += y (1 - bs y) (the error squares: below 2^-32 before rounding);
//   q = as y, r = as - bs q (exact in an FFMA), q += r y: within one ulp;
//   the correction to round to nearest: with r = as - bs q exact, q is
//   replaced by its neighbour q' when the quotient lies beyond the midpoint,
//   i.e. when r + r' (twice the midpoint's remainder) has the sign of r.
// The final exponent is applied in integers: a normal result is q with the
// exponent added, an overflow infinity, and a subnormal one q's 24-bit
// significand shifted right and rounded to nearest even, where a tie is
// decided by the sign of the exact remainder (q itself is already rounded).
int div_like(MKernel* m, Pos pos, int a, int b) {
  Seq q(m, pos);
  const bool rcp = a < 0;
  const int ub = q.op("AND", {R(b), I(0x7FFFFFFF)});
  // Special operands: zero, infinity, NaN (|x| - 1 >= 0x7F7FFFFF unsigned).
  const int tb = q.op("IADD", {R(ub), I(uint32_t(-1))});
  const int spec = q.setp("ISETP.GE.U32.AND", R(tb), I(0x7F7FFFFF));
  const int one = q.op("MOV", {I(kOne)});
  int sign;
  int as, adj, ua = -1;
  if (rcp) {
    sign = q.op("AND", {R(b), I(0x80000000)});
  } else {
    ua = q.op("AND", {R(a), I(0x7FFFFFFF)});
    const int ta = q.op("IADD", {R(ua), I(uint32_t(-1))});
    q.e("ISETP.GE.U32.OR", {MOperand::p(spec, true), R(ta), I(0x7F7FFFFF), P(spec)});
    const int x = q.op("XOR", {R(a), R(b)});
    sign = q.op("AND", {R(x), I(0x80000000)});
  }
  // For the special operands: 1/b where that is exact (1/0 = inf, 1/inf = 0).
  const int rb = q.op("MOV", {R(b)});
  const int zi = q.setp("ISETP.EQ.AND", R(ub), I(0));
  q.e("ISETP.EQ.OR", {MOperand::p(zi, true), R(ub), I(kInf), P(zi)});
  q.e("XOR", {D(rb), R(rb), I(kInf)}, zi);
  const Norm nb = normalise(q, ub);
  if (rcp) {
    as = one;
    const int c = q.op("MOV", {I(127)});
    adj = q.op("ISUB", {R(c), R(nb.e)});
  } else {
    const Norm na = normalise(q, ua);
    as = na.s;
    adj = q.op("ISUB", {R(na.e), R(nb.e)});
  }
  const int c1 = q.op("MOV", {I(0xBEF0F0F1)});  // -8/17
  const int c2 = q.op("MOV", {I(0x3FB4B4B5)});  // 24/17
  int y = q.op("FFMA", {R(nb.s), R(c1), R(c2)});
  for (int i = 0; i < 3; ++i) {
    const int err = q.op("FFMA", {R(nb.ns), R(y), R(one)});
    y = q.op("FFMA", {R(y), R(err), R(y)});
  }
  int qq = rcp ? y : q.op("FMUL", {R(as), R(y)});
  int r = q.op("FFMA", {R(nb.ns), R(qq), R(as)});
  qq = q.op("FFMA", {R(r), R(y), R(qq)});
  r = q.op("FFMA", {R(nb.ns), R(qq), R(as)});
  // Round to nearest: compare with the midpoints to both neighbours.
  const int qu = q.op("IADD", {R(qq), I(1)}), qd = q.op("IADD", {R(qq), I(uint32_t(-1))});
  const int ru = q.op("FFMA", {R(nb.ns), R(qu), R(as)}), rd = q.op("FFMA", {R(nb.ns), R(qd), R(as)});
  const int su = q.op("FADD", {R(r), R(ru)}), sd = q.op("FADD", {R(r), R(rd)});
  const int up = q.setp("FSETP.GT.AND", R(su), I(0));
  q.e("MOV", {D(qq), R(qu)}, up);
  q.e("MOV", {D(r), R(ru)}, up);
  const int dn = q.setp("FSETP.LT.AND", R(sd), I(0));
  q.e("MOV", {D(qq), R(qd)}, dn);
  q.e("MOV", {D(r), R(rd)}, dn);
  // The exponent; a subnormal result rounds q's significand again.
  const int ex0 = q.op("SHR", {R(qq), I(23)});
  const int ex = q.op("IADD", {R(ex0), R(adj)});
  const int sh = q.op("SHL", {R(adj), I(23)});
  const int res = q.op("IADD", {R(qq), R(sh)});
  const int over = q.setp("ISETP.GE.AND", R(ex), I(255));
  q.e("MOV", {D(res), I(kInf)}, over);
  const int pos_r = q.setp("FSETP.GT.AND", R(r), I(0));
  const int delta = q.op("SEL", {MOperand::rz(), I(1), P(pos_r, true)});  // sign of the remainder
  const int neg_r = q.setp("FSETP.LT.AND", R(r), I(0));
  q.e("MOV", {D(delta), I(uint32_t(-1))}, neg_r);
  const int mm = q.op("AND", {R(qq), I(0x7FFFFF)});
  const int sig = q.op("OR", {R(mm), I(0x800000)});
  const int nex = q.op("ISUB", {MOperand::rz(), R(ex)});
  const int d1 = q.op("IADD", {R(nex), I(1)});
  const int d = q.op("IMIN", {R(d1), I(26)});  // 1 - ex bits go; 26 and more leave 0
  const int t = q.op("SHR", {R(sig), R(d)});
  const int tb2 = q.op("SHL", {R(t), R(d)});
  const int rest = q.op("ISUB", {R(sig), R(tb2)});
  // Twice the dropped bits plus the remainder's sign, against twice half an
  // ulp; + the kept lsb makes a tie round to even.
  const int r2 = q.op("SHL", {R(rest), I(1)});
  const int r3 = q.op("IADD", {R(r2), R(delta)});
  const int odd = q.op("AND", {R(t), I(1)});
  const int r4 = q.op("IADD", {R(r3), R(odd)});
  const int h0 = q.op("MOV", {I(1)});
  const int h = q.op("SHL", {R(h0), R(d)});
  const int rup = q.setp("ISETP.GT.AND", R(r4), R(h));
  q.e("IADD", {D(t), R(t), I(1)}, rup);
  const int sub = q.setp("ISETP.LE.AND", R(ex), I(0));
  q.e("MOV", {D(res), R(t)}, sub);
  q.e("OR", {D(res), R(res), R(sign)});
  // Special operands: a * (1/b) gives every IEEE case: 0/0 and inf/inf
  // NaN, x/0 inf, x/inf 0, NaN in NaN out (canonical).
  q.e("FMUL", {D(res), R(rcp ? one : a), R(rb)}, spec);
  return res;
}

}  // namespace

int emit_div_rn(MKernel* m, Pos pos, int a, int b) {
  return div_like(m, pos, a, b);
}
int emit_rcp_rn(MKernel* m, Pos pos, int b) {
  return div_like(m, pos, -1, b);
}

// sqrt(a): the mantissa scaled to xs in [1, 4) with an even exponent 2k;
// y ~ 1/sqrt(xs) from the integer estimate 0x5f3759df - bits/2 (relative
// error 0.035), then three coupled steps on g ~ sqrt(xs), h ~ 1/(2 sqrt(xs)):
// r = 1/2 - g h, g += g r, h += h r; finally g += (xs - g g) h with the
// residual exact in an FFMA. Checked for every one of the 2^32 inputs
// against the host's sqrtf. The result is never subnormal: k is added to
// the exponent field.
int emit_sqrt_rn(MKernel* m, Pos pos, int a) {
  Seq q(m, pos);
  const int ua = q.op("AND", {R(a), I(0x7FFFFFFF)});
  const int ta = q.op("IADD", {R(ua), I(uint32_t(-1))});
  const int spec = q.setp("ISETP.GE.U32.AND", R(ta), I(0x7F7FFFFF));
  const int neg = q.setp("ISETP.GT.U32.AND", R(a), I(0x80000000));  // below -0
  const Norm n = normalise(q, ua);
  const int k = q.op("IADD", {R(n.e), I(uint32_t(-127))});
  const int par = q.op("AND", {R(k), I(1)});
  const int pe = q.op("SHL", {R(par), I(23)});
  const int xs = q.op("IADD", {R(n.s), R(pe)});
  const int hk0 = q.op("ISUB", {R(k), R(par)});
  const int hk = q.op("SHRA", {R(hk0), I(1)});
  const int hs = q.op("SHL", {R(hk), I(23)});
  const int magic = q.op("MOV", {I(0x5f3759df)});
  const int x2 = q.op("SHR", {R(xs), I(1)});
  const int y = q.op("ISUB", {R(magic), R(x2)});
  const int half = q.op("MOV", {I(kHalf)});
  int g = q.op("FMUL", {R(xs), R(y)});
  int h = q.op("FMUL", {R(y), I(kHalf)});
  for (int i = 0; i < 3; ++i) {
    const int ng = q.op("FNEG", {R(g)});
    const int r = q.op("FFMA", {R(ng), R(h), R(half)});
    g = q.op("FFMA", {R(g), R(r), R(g)});
    h = q.op("FFMA", {R(h), R(r), R(h)});
  }
  const int ng = q.op("FNEG", {R(g)});
  const int d = q.op("FFMA", {R(ng), R(g), R(xs)});
  g = q.op("FFMA", {R(d), R(h), R(g)});
  const int res = q.op("IADD", {R(g), R(hs)});
  // +-0, +inf and NaN (canonical) are a + a; below -0 it is NaN.
  q.e("FADD", {D(res), R(a), R(a)}, spec);
  q.e("MOV", {D(res), I(0x7FFFFFFF)}, neg);
  return res;
}

// 2^x (ex2.approx): x clamped to [-151, 129] (beyond, the result is 0 or
// inf either way), n = x rounded to an integer by adding 1.5 * 2^23 (FADD
// rounds to nearest), f = x - n in [-1/2, 1/2] exactly; 2^f by its Taylor
// polynomial of degree 7 (truncation below 0.1 ulp) in Horner form; then
// two exact-or-once-rounded FMULs by 2^(n/2) and 2^(n - n/2), so a subnormal
// result is rounded once. At most 1 ulp from the correctly rounded value
// for every one of the 2^32 inputs (checked in C++ with fmaf against
// exp2 in double); a NaN gives the canonical NaN.
int emit_ex2(MKernel* m, Pos pos, int x) {
  Seq q(m, pos);
  static const float c[8] = {1.0f,
                             0.693147180559945f,
                             0.240226506959101f,
                             0.0555041086648216f,
                             0.00961812910762848f,
                             0.00133335581464284f,
                             0.000154035303933816f,
                             1.52527338040598e-5f};
  const uint32_t kRound = 0x4B400000;  // 1.5 * 2^23
  const int nan = q.setp("FSETP.NAN.AND", R(x), R(x));
  const int x1 = q.op("FMIN", {R(x), I(fp32::bits(129.0f))});
  const int xc = q.op("FMAX", {R(x1), I(fp32::bits(-151.0f))});
  const int t = q.op("FADD", {R(xc), I(kRound)});
  const int n = q.op("IADD", {R(t), I(uint32_t(-int32_t(kRound)))});
  const int r = q.op("FSUB", {R(t), I(kRound)});
  const int f = q.op("FSUB", {R(xc), R(r)});
  int p = q.op("MOV", {I(fp32::bits(c[7]))});
  for (int k = 6; k >= 0; --k) {
    const int ck = q.op("MOV", {I(fp32::bits(c[k]))});
    p = q.op("FFMA", {R(p), R(f), R(ck)});
  }
  const int n1 = q.op("SHRA", {R(n), I(1)});
  const int n2 = q.op("ISUB", {R(n), R(n1)});
  const int e1 = q.op("IADD", {R(n1), I(127)});
  const int s1 = q.op("SHL", {R(e1), I(23)});
  const int e2 = q.op("IADD", {R(n2), I(127)});
  const int s2 = q.op("SHL", {R(e2), I(23)});
  const int y = q.op("FMUL", {R(p), R(s1)});
  const int res = q.op("FMUL", {R(y), R(s2)});
  q.e("FADD", {D(res), R(x), R(x)}, nan);
  return res;
}

// log2(x) (lg2.approx): x = 2^e m with m in [sqrt(1/2), sqrt(2)) (a
// subnormal first scaled by 2^24); log2(m) = 2/ln2 atanh(s) with
// s = (m - 1) / (m + 1), |s| <= 0.172: m - 1 is exact, 1 / (m + 1) from a
// linear estimate and three Newton steps, s corrected once with its exact
// residual; atanh(s) = s (1 + z/3 + z^2/5 + z^3/7 + z^4/9), z = s^2
// (truncation below 2^-30); then e + (s p) 2/ln2 in one FFMA. In C++ with
// fmaf over every positive input: at most 4 ulp from the correctly rounded
// value, at most 2^-22.9 absolute for x in [0.5, 2]. 0 gives -inf, +inf
// +inf, anything below -0 and NaN the canonical NaN.
int emit_lg2(MKernel* m, Pos pos, int a) {
  Seq q(m, pos);
  const int ua = q.op("AND", {R(a), I(0x7FFFFFFF)});
  const int zero = q.setp("ISETP.EQ.AND", R(ua), I(0));
  const int neg = q.setp("ISETP.GT.U32.AND", R(a), I(0x80000000));
  const int inf = q.setp("ISETP.EQ.AND", R(a), I(kInf));
  const int nan = q.setp("ISETP.GT.U32.AND", R(ua), I(kInf));
  const Norm n = normalise(q, ua);
  const int big = q.setp("ISETP.GT.U32.AND", R(n.m), I(0x3504F3));  // m > sqrt(2): halve it
  q.e("IADD", {D(n.s), R(n.s), I(uint32_t(-0x800000))}, big);
  q.e("IADD", {D(n.e), R(n.e), I(1)}, big);
  const int num = q.op("FADD", {R(n.s), I(0xBF800000)});
  const int den = q.op("FADD", {R(n.s), I(kOne)});
  const int nden = q.op("FNEG", {R(den)});
  const int one = q.op("MOV", {I(kOne)});
  const int c = q.op("MOV", {I(fp32::bits(-0.2426f))});  // 1/d ~ 1 - 0.2426 d on [1.707, 2.414]
  int y = q.op("FFMA", {R(den), R(c), R(one)});
  for (int i = 0; i < 3; ++i) {
    const int err = q.op("FFMA", {R(nden), R(y), R(one)});
    y = q.op("FFMA", {R(y), R(err), R(y)});
  }
  const int s0 = q.op("FMUL", {R(num), R(y)});
  const int rr = q.op("FFMA", {R(nden), R(s0), R(num)});
  const int sv = q.op("FFMA", {R(rr), R(y), R(s0)});
  const int z = q.op("FMUL", {R(sv), R(sv)});
  int p = q.op("MOV", {I(fp32::bits(1.0f / 9))});
  for (float k : {1.0f / 7, 1.0f / 5, 1.0f / 3, 1.0f}) {
    const int ck = q.op("MOV", {I(fp32::bits(k))});
    p = q.op("FFMA", {R(z), R(p), R(ck)});
  }
  const int w = q.op("FMUL", {R(sv), R(p)});
  const int eu = q.op("IADD", {R(n.e), I(uint32_t(-127))});
  const int ef = q.op("I2F", {R(eu)});
  const int k2 = q.op("MOV", {I(fp32::bits(2.8853900817779268f))});  // 2/ln2
  const int res = q.op("FFMA", {R(w), R(k2), R(ef)});
  q.e("MOV", {D(res), I(0xFF800000)}, zero);
  q.e("MOV", {D(res), I(kInf)}, inf);
  q.e("MOV", {D(res), I(0x7FFFFFFF)}, neg);
  q.e("MOV", {D(res), I(0x7FFFFFFF)}, nan);
  return res;
}

// |x| >= 2^23 is integral already (and inf, NaN: x * 1 canonicalises a
// NaN). Below: nearest is |x| + 2^23 - 2^23 (FADD rounds to nearest even,
// and the ulp at 2^23 is 1); toward zero clears the fraction bits with a
// mask (|x| < 1 gives 0); down / up subtract / add 1 to the truncated value
// when it lies above / below x (exact: integers below 2^24). The sign is
// x's, so -0.4 gives -0 and ceil(-0.5) is -0, as C's functions do.
int emit_round(MKernel* m, Pos pos, int x, char mode) {
  Seq q(m, pos);
  const int ax = q.op("AND", {R(x), I(0x7FFFFFFF)});
  const int sg = q.op("AND", {R(x), I(0x80000000)});
  const int big = q.setp("ISETP.GE.U32.AND", R(ax), I(0x4B000000));
  int res;
  if (mode == 'n') {
    const int t = q.op("FADD", {R(ax), I(0x4B000000)});
    const int u = q.op("FSUB", {R(t), I(0x4B000000)});
    res = q.op("OR", {R(u), R(sg)});
  } else {
    const int e = q.op("SHR", {R(ax), I(23)});
    const int c = q.op("MOV", {I(150)});
    const int sh = q.op("ISUB", {R(c), R(e)});
    const int ones = q.op("MOV", {I(0xFFFFFFFF)});
    const int mask = q.op("SHL", {R(ones), R(sh)});
    const int t = q.op("AND", {R(ax), R(mask)});
    const int frac = q.setp("ISETP.LT.AND", R(e), I(127));  // |x| < 1
    q.e("MOV", {D(t), I(0)}, frac);
    res = q.op("OR", {R(t), R(sg)});
    if (mode == 'm' || mode == 'p') {
      const int adj = q.setp(mode == 'm' ? "FSETP.LT.AND" : "FSETP.GT.AND", R(x), R(res));
      q.e("FADD", {D(res), R(res), I(mode == 'm' ? 0xBF800000 : kOne)}, adj);
    }
  }
  q.e("FMUL", {D(res), R(x), I(kOne)}, big);
  return res;
}

int emit_ftz(MKernel* m, Pos pos, int x) {
  Seq q(m, pos);
  const int ex = q.op("AND", {R(x), I(kInf)});
  const int sub = q.setp("ISETP.EQ.AND", R(ex), I(0));
  const int sg = q.op("AND", {R(x), I(0x80000000)});
  return q.op("SEL", {R(sg), R(x), P(sub)});
}

// FMAX with +0 turns NaN and -0 into +0 (a NaN loses, -0 < +0).
int emit_sat(MKernel* m, Pos pos, int x) {
  Seq q(m, pos);
  const int lo = q.op("FMAX", {R(x), I(0)});
  return q.op("FMIN", {R(lo), I(kOne)});
}

// ---- directed roundings -----------------------------------------------------------
// The device rounds to nearest only. For r = RN(x) of an exact x, the
// residual x - r gives the directed result: when r lies on the wrong side
// of x for the mode, the neighbour of r one ulp toward x is the answer (|x -
// r| is at most half an ulp, so that neighbour is within one ulp of x on the
// right side), which is r's bits + 1 when r and x - r have the same sign
// and - 1 otherwise. Only the residual's sign (or zero) is needed, held in
// the f32 e; a NaN e means "no correction" (every comparison is false).
namespace {
int directed_fix(Seq& q, int r, int e, char mode) {
  int cond = 0, delta = 0;
  if (mode == 'z') {  // toward zero: when x - r points back toward zero (opposite signs)
    const int x = q.op("XOR", {R(e), R(r)});
    const int differ = q.setp("ISETP.LT.AND", R(x), I(0));
    cond = q.setp("FSETP.NE.AND", R(e), I(0), P(differ));
    delta = q.op("MOV", {I(0xFFFFFFFFu)});
  } else {
    cond = q.setp(mode == 'p' ? "FSETP.GT.AND" : "FSETP.LT.AND", R(e), I(0));
    const int x = q.op("XOR", {R(e), R(r)});
    const int differ = q.setp("ISETP.LT.AND", R(x), I(0));
    const int m1 = q.op("MOV", {I(0xFFFFFFFFu)});
    delta = q.op("SEL", {R(m1), I(1), P(differ)});
  }
  q.e("IADD", {D(r), R(r), R(delta)}, cond);
  return r;
}
}  // namespace

int emit_directed(MKernel* m, Pos pos, char op, int a, int b, char mode) {
  Seq q(m, pos);
  if (op == 'a') {
    const int r = q.op("FADD", {R(a), R(b)});
    // TwoSum (Knuth): e = (a + b) - r exactly, for any operands without overflow.
    const int bb = q.op("FSUB", {R(r), R(a)});
    const int t2 = q.op("FSUB", {R(r), R(bb)});
    const int t3 = q.op("FSUB", {R(a), R(t2)});
    const int t4 = q.op("FSUB", {R(b), R(bb)});
    const int e = q.op("FADD", {R(t3), R(t4)});
    // Overflow of finite operands (r infinite, TwoSum NaN): x lies below |r|, e = -r.
    const int ar = q.op("AND", {R(r), I(0x7FFFFFFF)});
    const int aa = q.op("AND", {R(a), I(0x7FFFFFFF)});
    const int ab = q.op("AND", {R(b), I(0x7FFFFFFF)});
    const int rinf = q.setp("ISETP.EQ.AND", R(ar), I(kInf));
    const int fa = q.setp("ISETP.LT.U32.AND", R(aa), I(kInf), P(rinf));
    const int ovf = q.setp("ISETP.LT.U32.AND", R(ab), I(kInf), P(fa));
    q.e("FNEG", {D(e), R(r)}, ovf);
    directed_fix(q, r, e, mode);
    if (mode == 'm') {
      // An exact zero sum of operands of opposite signs is -0 rounding down
      // (+0 in every other mode): -0 unless both are +0.
      const int z = q.setp("ISETP.EQ.AND", R(ar), I(0));
      const int ors = q.op("OR", {R(a), R(b)});
      q.e("AND", {D(r), R(ors), I(0x80000000u)}, z);
    }
    return r;
  }
  const int r = q.op("FMUL", {R(a), R(b)});
  // e = a b - r in one FFMA: exact unless a b is tiny (|r| < 2^-90), where
  // its low bits lie below the subnormals; there the smaller operand and r
  // are scaled by 2^128 (exact, nothing overflows) first. An overflow gives
  // e = -inf against r = +inf (and the reverse): the right sign.
  const int nr = q.op("FNEG", {R(r)});
  const int e = q.op("FFMA", {R(a), R(b), R(nr)});
  const int ar = q.op("AND", {R(r), I(0x7FFFFFFF)});
  const int aa = q.op("AND", {R(a), I(0x7FFFFFFF)});
  const int ab = q.op("AND", {R(b), I(0x7FFFFFFF)});
  const int small = q.setp("ISETP.LT.U32.AND", R(ar), I(0x12800000));  // 2^-90
  const int tiny = q.setp("ISETP.NE.AND", R(ar), I(0), P(small));
  const int sw = q.setp("ISETP.GT.U32.AND", R(aa), R(ab));
  const int x = q.op("SEL", {R(b), R(a), P(sw)});
  const int y = q.op("SEL", {R(a), R(b), P(sw)});
  const int xs = q.op("FMUL", {R(x), I(0x5F800000)});  // 2^64
  q.e("FMUL", {D(xs), R(xs), I(0x5F800000)});
  const int rs = q.op("FMUL", {R(nr), I(0x5F800000)});
  q.e("FMUL", {D(rs), R(rs), I(0x5F800000)});
  q.e("FFMA", {D(e), R(xs), R(y), R(rs)}, tiny);
  // r = 0 from non-zero operands: x is a product too small for any scaling
  // to show; its sign is the product's.
  const int rz = q.setp("ISETP.EQ.AND", R(ar), I(0));
  const int nza = q.setp("ISETP.NE.AND", R(aa), I(0), P(rz));
  const int under = q.setp("ISETP.NE.AND", R(ab), I(0), P(nza));
  const int sg = q.op("XOR", {R(a), R(b)});
  q.e("AND", {D(sg), R(sg), I(0x80000000u)});
  q.e("OR", {D(e), R(sg), I(kOne)}, under);
  return directed_fix(q, r, e, mode);
}

int emit_fma_directed(MKernel* m, Pos pos, int a, int b, int c, char mode) {
  Seq q(m, pos);
  const int r = q.op("FFMA", {R(a), R(b), R(c)});
  const int aa = q.op("AND", {R(a), I(0x7FFFFFFF)});
  const int ab = q.op("AND", {R(b), I(0x7FFFFFFF)});
  const int ac = q.op("AND", {R(c), I(0x7FFFFFFF)});
  const int ar = q.op("AND", {R(r), I(0x7FFFFFFF)});
  // x the smaller factor, y the larger; |a b| rounded, to pick the regime.
  const int sw = q.setp("ISETP.GT.U32.AND", R(aa), R(ab));
  const int x = q.op("SEL", {R(b), R(a), P(sw)});
  const int y = q.op("SEL", {R(a), R(b), P(sw)});
  const int pr = q.op("FMUL", {R(aa), R(ab)});
  const int cs = q.op("MOV", {R(c)});
  const int rs = q.op("MOV", {R(r)});
  // A tiny product (< 2^-100): x, c and r scaled by 2^128 (exact; c is
  // small there, or its own case below), so that the product's low part
  // is a float.
  const int tiny = q.setp("ISETP.LT.U32.AND", R(pr), I(0x0D800000));  // 2^-100
  for (int k = 0; k < 2; ++k) {
    q.e("FMUL", {D(x), R(x), I(0x5F800000)}, tiny);  // 2^64
    q.e("FMUL", {D(cs), R(cs), I(0x5F800000)}, tiny);
    q.e("FMUL", {D(rs), R(rs), I(0x5F800000)}, tiny);
  }
  // A huge product (>= 2^126): y, c and r scaled by 2^-32 so that it cannot
  // overflow; a c below 2^-90 (which only decides the sign of the residual
  // when a b - r is 0) becomes 2^-100 of its sign.
  // The same when c is 2^126 or more (TwoSum's intermediate sums would
  // overflow); a product below 2^80 is then below half an ulp of c (r = c).
  const int hc = q.setp("ISETP.GE.U32.AND", R(ac), I(0x7E800000));
  const int huge = q.setp("ISETP.GE.U32.OR", R(pr), I(0x7E800000), P(hc));  // 2^126
  q.e("FMUL", {D(y), R(y), I(0x2F800000)}, huge);                      // 2^-32
  q.e("FMUL", {D(cs), R(cs), I(0x2F800000)}, huge);
  q.e("FMUL", {D(rs), R(rs), I(0x2F800000)}, huge);
  const int csmall = q.setp("ISETP.LT.U32.AND", R(ac), I(0x12800000), P(huge));  // 2^-90
  const int cnz = q.setp("ISETP.NE.AND", R(ac), I(0), P(csmall));
  const int csg = q.op("AND", {R(c), I(0x80000000u)});
  q.e("OR", {D(cs), R(csg), I(0x0D800000)}, cnz);
  // ErrFma (Boldo, Muller): x y + cs = R1 + r2 + r3 exactly, |r3| <= ulp(r2)/2.
  const int r1 = q.op("FFMA", {R(x), R(y), R(cs)});
  const int u1 = q.op("FMUL", {R(x), R(y)});
  const int nu1 = q.op("FNEG", {R(u1)});
  const int u2 = q.op("FFMA", {R(x), R(y), R(nu1)});
  auto two_sum = [&](int s, int t, int* hi, int* lo) {
    *hi = q.op("FADD", {R(s), R(t)});
    const int bv = q.op("FSUB", {R(*hi), R(s)});
    const int t1 = q.op("FSUB", {R(*hi), R(bv)});
    const int t2 = q.op("FSUB", {R(s), R(t1)});
    const int t3 = q.op("FSUB", {R(t), R(bv)});
    *lo = q.op("FADD", {R(t2), R(t3)});
  };
  int a1 = 0, z = 0, b1 = 0, b2 = 0;
  two_sum(cs, u2, &a1, &z);
  two_sum(u1, a1, &b1, &b2);
  const int g = q.op("FSUB", {R(b1), R(r1)});
  q.e("FADD", {D(g), R(g), R(b2)});
  const int r2 = q.op("FADD", {R(g), R(z)});
  const int e = q.op("FSUB", {R(g), R(r2)});
  q.e("FADD", {D(e), R(e), R(z)});  // r3
  // The residual of r (scaled): (R1 - rs) + r2 + r3; R1 - rs is exact and,
  // when not 0, at least ulp(R1) > |r2 + r3|.
  const int nz2 = q.setp("FSETP.NE.AND", R(r2), I(0));
  q.e("MOV", {D(e), R(r2)}, nz2);
  const int d = q.op("FSUB", {R(r1), R(rs)});
  const int nzd = q.setp("FSETP.NE.AND", R(d), I(0));
  q.e("MOV", {D(e), R(d)}, nzd);
  // A tiny product against a c of 2^-75 or more (r = c), or one still
  // tiny after the scaling (r = c, or 0 when c is): the residual is a b.
  const int sg = q.op("XOR", {R(a), R(b)});
  q.e("AND", {D(sg), R(sg), I(0x80000000u)});
  q.e("OR", {D(sg), R(sg), I(kOne)});
  const int big_c0 = q.setp("ISETP.GE.U32.AND", R(ac), I(0x1A000000), P(tiny));  // 2^-75
  const int small_p = q.setp("ISETP.LT.U32.AND", R(pr), I(0x67800000), P(hc));     // 2^80 against c >= 2^126

  const int au1 = q.op("AND", {R(u1), I(0x7FFFFFFF)});
  // (u1 is below 2^-100 only in the tiny case: otherwise it is |a b| or |a b| 2^-32)
  const int sel = q.setp("ISETP.LT.U32.OR", R(au1), I(0x0D800000), P(big_c0));
  q.e("MOV", {D(e), R(sg)}, sel);
  q.e("MOV", {D(e), R(sg)}, small_p);
  // A zero factor (r = c exactly) or an infinite or NaN operand (r exact): 0.
  const int z1 = q.setp("ISETP.EQ.AND", R(aa), I(0));
  const int z2 = q.setp("ISETP.EQ.OR", R(ab), I(0), P(z1));
  const int n1 = q.setp("ISETP.GE.U32.OR", R(aa), I(kInf), P(z2));
  const int n2 = q.setp("ISETP.GE.U32.OR", R(ab), I(kInf), P(n1));
  const int n3 = q.setp("ISETP.GE.U32.OR", R(ac), I(kInf), P(n2));
  q.e("MOV", {D(e), I(0)}, n3);
  // r infinite from finite operands (overflow): the exact value lies below |r|.
  const int fa = q.setp("ISETP.LT.U32.AND", R(aa), I(kInf));
  const int fb = q.setp("ISETP.LT.U32.AND", R(ab), I(kInf), P(fa));
  const int fc = q.setp("ISETP.LT.U32.AND", R(ac), I(kInf), P(fb));
  const int ovf = q.setp("ISETP.EQ.AND", R(ar), I(kInf), P(fc));
  q.e("FNEG", {D(e), R(r)}, ovf);
  if (mode == 'm') {
    // An exact zero is -0 rounding down unless a b and c are both +0 (+0 in
    // every other mode, as FFMA gives).
    const int rz = q.setp("ISETP.EQ.AND", R(ar), I(0));
    const int ez = q.setp("FSETP.EQ.AND", R(e), I(0), P(rz));
    const int s2 = q.op("XOR", {R(a), R(b)});
    q.e("OR", {D(s2), R(s2), R(c)});
    q.e("AND", {D(r), R(s2), I(0x80000000u)}, ez);
  }
  return directed_fix(q, r, e, mode);
}

int emit_cvt_directed(MKernel* m, Pos pos, int x, bool is_signed, char mode) {
  Seq q(m, pos);
  const std::string u = is_signed ? "" : ".U32";
  const int r = q.op("I2F" + u, {R(x)});
  // r is an integer; back in an integer it compares with x exactly, except
  // that 2^31 (2^32 unsigned) saturates: there r is above every x.
  const int back = q.op("F2I" + u, {R(r)});
  const int big = q.setp("ISETP.EQ.AND", R(r), I(is_signed ? 0x4F000000u : 0x4F800000u));
  const int gt = q.setp("ISETP.GT" + u + ".AND", R(x), R(back));
  const int lt = q.setp("ISETP.LT" + u + ".OR", R(x), R(back), P(big));
  const int e = q.op("MOV", {I(0)});
  q.e("MOV", {D(e), I(kOne)}, gt);
  q.e("MOV", {D(e), I(0xBF800000u)}, lt);
  return directed_fix(q, r, e, mode);
}

}  // namespace baresm::isa::ptx
