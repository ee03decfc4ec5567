// IEEE-754 binary32 in integer arithmetic (see fp32.h). Every arithmetic
// operation is one fused multiply-add: add(a, b) = a*1 + b and
// mul(a, b) = a*b + (-0) are exact rewrites (x*1 is exact, and adding -0
// leaves every value, +0 included, unchanged), so there is a single rounding
// routine and a single alignment/add path to get right. The RTL FPU
// (rtl/sm/baresm_fpu.sv) is built the same way.
#include "isa/fp32.h"

namespace baresm::fp32 {

namespace {

constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kInf = 0x7F800000u;
constexpr uint32_t kOne = 0x3F800000u;

bool is_inf(uint32_t a) { return (a & 0x7FFFFFFFu) == kInf; }
bool is_zero(uint32_t a) { return (a & 0x7FFFFFFFu) == 0; }

// The control core (rv32i: fw/sm/fwsm_fpu.cpp builds this file for it) has
// neither a multiplier nor a clz instruction, and the compiler's own clz
// multiplies: there, both are spelled out below (test_fp32_soft_core runs
// the binary32 tests on this form, built for the host with FP32_SOFT_CORE=1).
#ifndef FP32_SOFT_CORE
#if defined(__riscv) && !defined(__riscv_mul)
#define FP32_SOFT_CORE 1
#else
#define FP32_SOFT_CORE 0
#endif
#endif

int clz64(uint64_t x) {  // x != 0
#if defined(__GNUC__) && !FP32_SOFT_CORE
  return __builtin_clzll(x);
#else
  int n = 0;  // by halves
  if (!(x >> 32)) { n += 32; x <<= 32; }
  if (!(x >> 48)) { n += 16; x <<= 16; }
  if (!(x >> 56)) { n += 8; x <<= 8; }
  if (!(x >> 60)) { n += 4; x <<= 4; }
  if (!(x >> 62)) { n += 2; x <<= 2; }
  if (!(x >> 63)) n += 1;
  return n;
#endif
}

// The exact product of two significands (each < 2^24).
uint64_t mul24(uint64_t a, uint32_t b) {
#if FP32_SOFT_CORE
  if (b == 0x800000) return a << 23;  // 1.0: add and sub are a*1 + b
  uint64_t r = 0;
  for (; b; b >>= 1, a <<= 1)
    if (b & 1) r += a;
  return r;
#else
  return a * b;
#endif
}

// A finite value as m * 2^e with m < 2^24 (the implicit bit made explicit).
void unpack(uint32_t a, uint64_t& m, int& e) {
  const uint32_t ex = (a >> 23) & 0xFF;
  const uint32_t fr = a & 0x7FFFFF;
  if (ex == 0) {
    m = fr;
    e = -149;
  } else {
    m = fr | 0x800000;
    e = int(ex) - 150;
  }
}

// Rounds (-1)^sign * r * 2^e to binary32, nearest even. r != 0 and r < 2^63.
// Bit 0 of r may be a sticky bit standing for a nonzero remainder below it:
// callers keep at least two bits below the rounding point whenever that is
// so, which makes the rounding decision identical to the exact one.
uint32_t round_pack(uint32_t sign, uint64_t r, int e) {
  const int p = 63 - clz64(r);  // value in [2^(p+e), 2^(p+e+1))
  // Right shift that leaves 24 significant bits, or fewer when the result is
  // subnormal (its unit in the last place is fixed at 2^-149).
  int shift = p - 23;
  if (-149 - e > shift) shift = -149 - e;
  uint64_t mant;
  if (shift <= 0) {
    mant = r << -shift;  // exact
  } else if (shift >= 64) {
    mant = 0;  // r < 2^63 is below half of the unit: rounds to zero
  } else {
    mant = r >> shift;
    const uint64_t rem = r & ((uint64_t(1) << shift) - 1);
    const uint64_t half = uint64_t(1) << (shift - 1);
    if (rem > half || (rem == half && (mant & 1))) ++mant;
  }
  // Field arithmetic: a normal mant carries its implicit 2^23 into the
  // exponent, and a rounding carry to 2^24 bumps it once more.
  const int64_t field = int64_t(e) + shift + 149;  // >= 0 by the choice of shift
  const uint64_t bits = (uint64_t(field) << 23) + mant;
  if (bits >= kInf) return sign | kInf;
  return sign | uint32_t(bits);
}

// Total order key of a non-NaN value with -0 < +0.
uint32_t order_key(uint32_t a) { return (a & kSign) ? ~a : (a | kSign); }

}  // namespace

uint32_t fma(uint32_t a, uint32_t b, uint32_t c) {
  if (is_nan(a) || is_nan(b) || is_nan(c)) return kCanonicalNaN;
  const uint32_t sp = (a ^ b) & kSign;  // sign of the product
  const uint32_t sc = c & kSign;
  const bool a_zero = is_zero(a), b_zero = is_zero(b), c_zero = is_zero(c);
  if (is_inf(a) || is_inf(b)) {
    if (a_zero || b_zero) return kCanonicalNaN;           // inf * 0
    if (is_inf(c) && sc != sp) return kCanonicalNaN;      // inf - inf
    return sp | kInf;
  }
  if (is_inf(c)) return c;
  if (a_zero || b_zero) {
    if (c_zero) return sp & sc;  // -0 only when both are -0
    return c;                    // exact
  }
  uint64_t ma, mb, mc;
  int ea, eb, ec;
  unpack(a, ma, ea);
  unpack(b, mb, eb);
  uint64_t mp = mul24(ma, uint32_t(mb));  // exact, < 2^48
  int ep = ea + eb;
  if (c_zero) return round_pack(sp, mp, ep);  // nonzero exact product
  unpack(c, mc, ec);
  // Put both leading ones at bit 61: bits 62/63 take the carry, and the
  // nonzero bits of either operand sit at bit 14 or above, so any bit lost
  // in alignment means a shift > 14 and the result keeps its leading one at
  // bit 60 or 61 -- far above the sticky bit.
  int s = clz64(mp) - 2;
  mp <<= s;
  ep -= s;
  s = clz64(mc) - 2;
  mc <<= s;
  ec -= s;
  const bool p_big = ep > ec || (ep == ec && mp >= mc);
  const uint64_t x = p_big ? mp : mc;
  const uint64_t y = p_big ? mc : mp;
  const int ex = p_big ? ep : ec;
  const int d = p_big ? ep - ec : ec - ep;
  const uint32_t sx = p_big ? sp : sc;
  const uint32_t sy = p_big ? sc : sp;
  uint64_t ya;
  if (d == 0) {
    ya = y;
  } else if (d >= 63) {
    ya = 1;  // y != 0: sticky only
  } else {
    ya = (y >> d) | ((y & ((uint64_t(1) << d) - 1)) != 0 ? 1 : 0);
  }
  const uint64_t r = sx == sy ? x + ya : x - ya;
  if (r == 0) return 0;  // exact cancellation is +0 in round-to-nearest
  return round_pack(sx, r, ex);
}

uint32_t add(uint32_t a, uint32_t b) { return fma(a, kOne, b); }
uint32_t sub(uint32_t a, uint32_t b) { return fma(a, kOne, b ^ kSign); }
uint32_t mul(uint32_t a, uint32_t b) { return fma(a, b, kSign); }

uint32_t min(uint32_t a, uint32_t b) {
  const bool na = is_nan(a), nb = is_nan(b);
  if (na && nb) return kCanonicalNaN;
  if (na) return b;
  if (nb) return a;
  return order_key(a) <= order_key(b) ? a : b;
}

uint32_t max(uint32_t a, uint32_t b) {
  const bool na = is_nan(a), nb = is_nan(b);
  if (na && nb) return kCanonicalNaN;
  if (na) return b;
  if (nb) return a;
  return order_key(a) >= order_key(b) ? a : b;
}

bool compare(uint8_t cmp, uint32_t a, uint32_t b) {
  const bool unord = is_nan(a) || is_nan(b);
  // For the relations -0 == +0 (unlike min/max).
  const bool both_zero = is_zero(a) && is_zero(b);
  const bool eq = !unord && (a == b || both_zero);
  const bool lt = !unord && !eq && order_key(a) < order_key(b);
  const bool gt = !unord && !eq && !lt;
  switch (cmp) {
    case 0: return eq;
    case 1: return lt || gt;
    case 2: return lt;
    case 3: return lt || eq;
    case 4: return gt;
    case 5: return gt || eq;
    case 6: return !unord;
    case 7: return unord;
    case 8: return unord || eq;
    case 9: return unord || lt || gt;
    case 10: return unord || lt;
    case 11: return unord || lt || eq;
    case 12: return unord || gt;
    case 13: return unord || gt || eq;
    default: return false;  // not an encodable code
  }
}

uint32_t from_u32(uint32_t v) {
  if (v == 0) return 0;
  return round_pack(0, v, 0);
}

uint32_t from_i32(int32_t v) {
  if (v == 0) return 0;
  const uint32_t mag = v < 0 ? 0u - uint32_t(v) : uint32_t(v);  // INT_MIN -> 2^31
  return round_pack(v < 0 ? kSign : 0, mag, 0);
}

int32_t to_i32(uint32_t a) {
  if (is_nan(a)) return 0;
  const uint32_t ex = (a >> 23) & 0xFF;
  const bool neg = (a & kSign) != 0;
  if (ex < 127) return 0;  // |a| < 1
  if (ex >= 127 + 31) return neg ? INT32_MIN : INT32_MAX;  // |a| >= 2^31 (inf too)
  const uint32_t m = (a & 0x7FFFFF) | 0x800000;
  const int e = int(ex) - 150;
  const uint32_t mag = e >= 0 ? m << e : m >> -e;  // < 2^31
  return neg ? -int32_t(mag) : int32_t(mag);
}

uint32_t to_u32(uint32_t a) {
  if (is_nan(a)) return 0;
  const uint32_t ex = (a >> 23) & 0xFF;
  if (ex < 127) return 0;            // |a| < 1, -0.x included
  if (a & kSign) return 0;           // negative saturates to 0
  if (ex >= 127 + 32) return 0xFFFFFFFFu;  // >= 2^32, inf
  const uint32_t m = (a & 0x7FFFFF) | 0x800000;
  const int e = int(ex) - 150;
  return e >= 0 ? m << e : m >> -e;
}

}  // namespace baresm::fp32
