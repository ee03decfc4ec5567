// isa/fp32 against the host's IEEE arithmetic: every pair/triple of a list of
// special values, then millions of random operands drawn from distributions
// that aim at the hard cases (cancellation, ties, subnormal results,
// overflow). Rule: a NaN host result must be exactly 0x7FFFFFFF from us,
// anything else bit-identical.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "isa/fp32.h"

namespace fp = baresm::fp32;

namespace {

float f_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t u_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Host reference ops. volatile stops the compiler from fusing or folding.
uint32_t host_add(uint32_t a, uint32_t b) {
  volatile float x = f_of(a), y = f_of(b);
  volatile float r = x + y;
  return u_of(r);
}
uint32_t host_sub(uint32_t a, uint32_t b) {
  volatile float x = f_of(a), y = f_of(b);
  volatile float r = x - y;
  return u_of(r);
}
uint32_t host_mul(uint32_t a, uint32_t b) {
  volatile float x = f_of(a), y = f_of(b);
  volatile float r = x * y;
  return u_of(r);
}
uint32_t host_fma(uint32_t a, uint32_t b, uint32_t c) {
  volatile float x = f_of(a), y = f_of(b), z = f_of(c);
  volatile float r = std::fmaf(x, y, z);
  return u_of(r);
}
// min/max per docs/isa.md written with host comparisons (not the order key
// the implementation uses): NaN loses, both NaN -> canonical, -0 < +0.
uint32_t ref_min(uint32_t a, uint32_t b) {
  const float x = f_of(a), y = f_of(b);
  if (std::isnan(x) && std::isnan(y)) return fp::kCanonicalNaN;
  if (std::isnan(x)) return b;
  if (std::isnan(y)) return a;
  if (x < y) return a;
  if (y < x) return b;
  if (x == 0.0f) return std::signbit(x) ? a : b;  // equal zeros: the negative one
  return a;
}
uint32_t ref_max(uint32_t a, uint32_t b) {
  const float x = f_of(a), y = f_of(b);
  if (std::isnan(x) && std::isnan(y)) return fp::kCanonicalNaN;
  if (std::isnan(x)) return b;
  if (std::isnan(y)) return a;
  if (x > y) return a;
  if (y > x) return b;
  if (x == 0.0f) return std::signbit(x) ? b : a;
  return a;
}
bool ref_cmp(int code, uint32_t a, uint32_t b) {
  const float x = f_of(a), y = f_of(b);
  const bool un = std::isnan(x) || std::isnan(y);
  switch (code) {
    case 0: return x == y;
    case 1: return x < y || x > y;  // ordered not-equal
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x >= y;
    case 6: return !un;
    case 7: return un;
    case 8: return un || x == y;
    case 9: return x != y;
    case 10: return !(x >= y);
    case 11: return !(x > y);
    case 12: return !(x <= y);
    case 13: return !(x < y);
  }
  return false;
}
// Conversions through double (exact for every float and int32).
int32_t ref_to_i32(uint32_t a) {
  const double d = f_of(a);
  if (std::isnan(d)) return 0;
  const double t = std::trunc(d);
  if (t >= 2147483648.0) return INT32_MAX;
  if (t <= -2147483648.0) return INT32_MIN;
  return int32_t(t);
}
uint32_t ref_to_u32(uint32_t a) {
  const double d = f_of(a);
  if (std::isnan(d)) return 0;
  const double t = std::trunc(d);
  if (t >= 4294967296.0) return 0xFFFFFFFFu;
  if (t <= 0.0) return 0;
  return uint32_t(t);
}

// Expected value under the project rule.
uint32_t canon(uint32_t host) { return fp::is_nan(host) ? fp::kCanonicalNaN : host; }

std::vector<uint32_t> specials() {
  std::vector<uint32_t> v = {
      0x00000000, 0x80000000,              // +-0
      0x00000001, 0x80000001,              // +-min subnormal
      0x00000002, 0x00000003,              // tiny subnormals
      0x007FFFFF, 0x807FFFFF,              // +-max subnormal
      0x00400000, 0x00400001,              // mid subnormals
      0x00800000, 0x80800000,              // +-min normal
      0x00800001, 0x00FFFFFF,              //
      0x3F800000, 0xBF800000,              // +-1
      0x3F800001, 0x3F7FFFFF, 0xBF7FFFFF,  // 1 +- ulp
      0x3FC00000, 0x40000000, 0xC0000000,  // 1.5, +-2
      0x3F000000, 0x3E800000,              // 0.5, 0.25
      0x33800000, 0x34000000, 0x33000000,  // 2^-24, 2^-23, 2^-25 (tie makers)
      0x4B800000, 0x4B000000, 0x4B000001,  // 2^24, 2^23, 2^23+1
      0x4B7FFFFF, 0xCB7FFFFF,              // 2^24-1
      0x7F7FFFFF, 0xFF7FFFFF,              // +-max
      0x7F000000, 0x7E800000,              // 2^127, 2^126
      0x7F800000, 0xFF800000,              // +-inf
      0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FFFFFFF,  // NaNs (quiet, signalling-pattern)
      0x40490FDB, 0xC0490FDB,              // +-pi
      0x3DCCCCCD,                          // 0.1
      0x1F800000, 0x20000000, 0x5F800000,  // 2^-64, 2^-63, 2^64
      0x0C000000, 0x33FFFFFF, 0x4EFFFFFF,  // deep underflow for mul, ~2^31
      0x4F000000, 0xCF000000, 0x4F800000,  // +-2^31, 2^32
  };
  return v;
}

// Operand generators. Each returns bits; `kind` picks the distribution.
struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  uint32_t u32() { return uint32_t(rng()); }
  uint32_t bits(int n) { return n == 0 ? 0 : uint32_t(rng() >> (64 - n)); }
  uint32_t make(uint32_t sign, uint32_t exp, uint32_t frac) {
    return (sign << 31) | ((exp & 0xFF) << 23) | (frac & 0x7FFFFF);
  }
  // Fraction with only its top k bits random: products/sums then land
  // exactly on or next to rounding ties far more often than uniform bits.
  uint32_t frac_short() {
    const int k = int(rng() % 24);
    return k == 0 ? 0 : (bits(k) << (23 - k)) & 0x7FFFFF;
  }
  uint32_t frac_any() { return (rng() & 1) ? bits(23) : frac_short(); }
  // Exponent field in [lo, hi].
  uint32_t exp_in(uint32_t lo, uint32_t hi) { return lo + uint32_t(rng() % (hi - lo + 1)); }
  uint32_t sign() { return uint32_t(rng() & 1); }
  // A value of some class.
  uint32_t value(int kind) {
    switch (kind) {
      case 0: return u32();                                            // uniform bits
      case 1: return make(sign(), exp_in(100, 154), frac_any());       // moderate
      case 2: return make(sign(), exp_in(0, 30), frac_any());          // tiny/subnormal
      case 3: return make(sign(), exp_in(200, 254), frac_any());       // big
      default: return make(sign(), exp_in(0, 254), frac_any());        // any finite
    }
  }
  // b close to a in exponent (cancellation for add/sub).
  uint32_t near(uint32_t a) {
    int e = int((a >> 23) & 0xFF) + int(rng() % 5) - 2;
    if (e < 0) e = 0;
    if (e > 254) e = 254;
    uint32_t f = a & 0x7FFFFF;
    switch (rng() % 4) {
      case 0: f = frac_any(); break;
      case 1: f ^= bits(4); break;               // a few low bits differ
      case 2: f ^= uint32_t(1) << (rng() % 23); break;
      default: break;                            // same fraction
    }
    return make(sign(), uint32_t(e), f);
  }
};

// Random operand pair for a binary op.
// op: 0 add, 1 sub, 2 mul.
void pair(Gen& g, uint32_t& a, uint32_t& b, int op) {
  const bool for_mul = op == 2;
  const int kind = int(g.rng() % 8);
  switch (kind) {
    case 0: a = g.u32(); b = g.u32(); break;
    case 1: a = g.value(1); b = g.near(a); break;            // cancellation
    case 2:  // subnormal results: tiny for add, product exponent tiny for mul
      if (for_mul) {
        a = g.value(2); b = g.value(2);
      } else {
        a = g.make(g.sign(), g.exp_in(0, 2), g.frac_any());
        b = g.make(g.sign(), g.exp_in(0, 2), g.frac_any());
      }
      break;
    case 3:  // overflow: same-sign huge values for add
      if (for_mul) {
        a = g.value(3); b = g.value(3);
      } else {
        const uint32_t s = g.sign();
        a = g.make(s, g.exp_in(252, 254), g.frac_any());
        b = g.make(s ^ (op == 1) ^ ((g.rng() & 7) == 0), g.exp_in(252, 254), g.frac_any());
      }
      break;
    case 4:
      if (for_mul) {
        // Product exponent around the subnormal range: ea + eb - 127 in [-30, 5].
        const uint32_t ea = g.exp_in(1, 254);
        int eb = 127 - int(ea) + int(g.rng() % 36) - 30;
        if (eb < 0) eb = 0;
        if (eb > 254) eb = 254;
        a = g.make(g.sign(), ea, g.frac_any());
        b = g.make(g.sign(), uint32_t(eb), g.frac_any());
      } else {
        a = g.value(4); b = g.value(4);
      }
      break;
    case 5: a = g.value(1); b = g.value(1); break;
    case 6: a = g.value(int(g.rng() % 5)); b = g.value(int(g.rng() % 5)); break;
    default: {
      // Exponents a fixed distance apart (0..30): alignment/sticky paths.
      a = g.value(1);
      int e = int((a >> 23) & 0xFF) - int(g.rng() % 31);
      if (e < 0) e = 0;
      b = g.make(g.sign(), uint32_t(e), g.frac_any());
      if (g.rng() & 1) std::swap(a, b);
      break;
    }
  }
}

constexpr int kRandom = 4'000'000;  // per operation

}  // namespace

// ---- special values, exhaustively --------------------------------------------

TEST(Fp32Special, BinaryOpsAllPairs) {
  const auto sp = specials();
  int bad = 0;
  for (uint32_t a : sp)
    for (uint32_t b : sp) {
      const uint32_t ex[5] = {canon(host_add(a, b)), canon(host_sub(a, b)), canon(host_mul(a, b)),
                              ref_min(a, b), ref_max(a, b)};
      const uint32_t got[5] = {fp::add(a, b), fp::sub(a, b), fp::mul(a, b), fp::min(a, b),
                               fp::max(a, b)};
      const char* names[5] = {"add", "sub", "mul", "min", "max"};
      for (int i = 0; i < 5; ++i)
        if (ex[i] != got[i] && ++bad < 20)
          ADD_FAILURE() << std::hex << names[i] << "(" << a << ", " << b << ") = " << got[i]
                        << ", want " << ex[i];
    }
  EXPECT_EQ(bad, 0);
}

TEST(Fp32Special, FmaAllTriples) {
  const auto sp = specials();
  int bad = 0;
  long n = 0;
  for (uint32_t a : sp)
    for (uint32_t b : sp)
      for (uint32_t c : sp) {
        ++n;
        const uint32_t want = canon(host_fma(a, b, c));
        const uint32_t got = fp::fma(a, b, c);
        if (want != got && ++bad < 20)
          ADD_FAILURE() << std::hex << "fma(" << a << ", " << b << ", " << c << ") = " << got
                        << ", want " << want;
      }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(n, long(sp.size() * sp.size() * sp.size()));
  RecordProperty("triples", std::to_string(n));
}

TEST(Fp32Special, CompareAllPairsAllCodes) {
  const auto sp = specials();
  int bad = 0, trues = 0;
  for (uint32_t a : sp)
    for (uint32_t b : sp)
      for (int code = 0; code < 14; ++code) {
        const bool want = ref_cmp(code, a, b);
        trues += want;
        if (fp::compare(uint8_t(code), a, b) != want && ++bad < 20)
          ADD_FAILURE() << std::hex << "compare " << std::dec << code << std::hex << " (" << a
                        << ", " << b << ") want " << want;
      }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(trues, 0);
}

TEST(Fp32Special, DocumentedCornerCases) {
  const uint32_t pz = 0, nz = 0x80000000, one = 0x3F800000, none = 0xBF800000;
  EXPECT_EQ(fp::add(one, none), pz);             // x + (-x) = +0
  EXPECT_EQ(fp::add(nz, nz), nz);                // -0 + -0 = -0
  EXPECT_EQ(fp::sub(nz, pz), nz);                // -0 - +0 = -0
  EXPECT_EQ(fp::sub(one, one), pz);
  EXPECT_EQ(fp::mul(nz, one), nz);
  EXPECT_EQ(fp::fma(nz, one, pz), pz);           // -0 + +0 = +0
  EXPECT_EQ(fp::fma(nz, one, nz), nz);           // -0 + -0 = -0
  EXPECT_EQ(fp::fma(one, none, one), pz);        // exact cancellation
  EXPECT_EQ(fp::mul(0x7F800000, pz), fp::kCanonicalNaN);
  EXPECT_EQ(fp::add(0x7F800000, 0xFF800000), fp::kCanonicalNaN);
  EXPECT_EQ(fp::add(0x7FC00000, one), fp::kCanonicalNaN);
  EXPECT_EQ(fp::add(0xFFC00001, one), fp::kCanonicalNaN);
  EXPECT_EQ(fp::min(0x7FC00000, one), one);      // NaN loses
  EXPECT_EQ(fp::max(none, 0xFFC00000), none);
  EXPECT_EQ(fp::min(0x7FC00000, 0xFFC00000), fp::kCanonicalNaN);
  EXPECT_EQ(fp::min(pz, nz), nz);                // -0 < +0
  EXPECT_EQ(fp::min(nz, pz), nz);
  EXPECT_EQ(fp::max(nz, pz), pz);
  EXPECT_EQ(fp::max(pz, nz), pz);
  EXPECT_TRUE(fp::compare(0, pz, nz));           // EQ: -0 == +0
  EXPECT_FALSE(fp::compare(1, 0x7FC00000, one)); // ordered NE is false on NaN
  EXPECT_TRUE(fp::compare(9, 0x7FC00000, one));  // NEU is true
  EXPECT_EQ(fp::neg(0x7FC00000), 0xFFC00000u);   // FNEG/FABS do not canonicalise
  EXPECT_EQ(fp::abs(0xFFC00001), 0x7FC00001u);
  // Halfway cases of the subnormal boundary: min normal * 0.5 is exact,
  // min subnormal * 0.5 is a tie that rounds to even (0).
  EXPECT_EQ(fp::mul(0x00800000, 0x3F000000), 0x00400000u);
  EXPECT_EQ(fp::mul(0x00000001, 0x3F000000), 0u);
  EXPECT_EQ(fp::mul(0x00000003, 0x3F000000), 2u);
  EXPECT_EQ(fp::mul(0x7F7FFFFF, 0x40000000), 0x7F800000u);  // overflow
}

// ---- random -------------------------------------------------------------------

template <typename Ours, typename Host>
void random_binary(const char* name, uint64_t seed, int op, Ours ours, Host host) {
  Gen g(seed);
  int bad = 0;
  long subnormal = 0, infs = 0, zeros = 0, nans = 0;
  for (int i = 0; i < kRandom; ++i) {
    uint32_t a, b;
    pair(g, a, b, op);
    const uint32_t want = canon(host(a, b));
    const uint32_t got = ours(a, b);
    const uint32_t ex = (want >> 23) & 0xFF;
    subnormal += ex == 0 && (want & 0x7FFFFF);
    zeros += (want & 0x7FFFFFFF) == 0;
    infs += (want & 0x7FFFFFFF) == 0x7F800000;
    nans += want == fp::kCanonicalNaN;
    if (want != got && ++bad < 20)
      ADD_FAILURE() << std::hex << name << "(" << a << ", " << b << ") = " << got << ", want "
                    << want;
  }
  EXPECT_EQ(bad, 0) << name;
  // The distributions must actually reach the hard classes.
  EXPECT_GT(subnormal, kRandom / 100) << name;
  EXPECT_GT(infs, kRandom / 100) << name;
  EXPECT_GT(zeros, kRandom / 1000) << name;
  EXPECT_GT(nans, 0) << name;
}

TEST(Fp32Random, Add) {
  random_binary("add", 1, 0, fp::add, host_add);
}
TEST(Fp32Random, Sub) {
  random_binary("sub", 2, 1, fp::sub, host_sub);
}
TEST(Fp32Random, Mul) {
  random_binary("mul", 3, 2, fp::mul, host_mul);
}

TEST(Fp32Random, Fma) {
  Gen g(4);
  int bad = 0;
  long cancel = 0, subnormal = 0;
  for (int i = 0; i < kRandom; ++i) {
    uint32_t a, b, c;
    const int kind = int(g.rng() % 6);
    if (kind == 0) {
      a = g.u32(); b = g.u32(); c = g.u32();
    } else if (kind <= 2) {
      // c near -(a*b): massive cancellation, where a single rounding differs
      // most from mul-then-add.
      a = g.value(1); b = g.value(1);
      uint32_t p = host_mul(a, b);
      if (kind == 2) p ^= g.bits(3);   // off by a few ulps
      c = p ^ 0x80000000u;
      ++cancel;
    } else if (kind == 3) {
      pair(g, a, b, 2);
      c = g.value(int(g.rng() % 5));
    } else if (kind == 4) {
      // Tiny product plus tiny addend: subnormal results.
      a = g.make(g.sign(), g.exp_in(40, 90), g.frac_any());
      b = g.make(g.sign(), g.exp_in(40, 90), g.frac_any());
      c = (g.rng() & 1) ? g.value(2) : g.make(g.sign(), g.exp_in(0, 1), g.frac_any());
    } else {
      // Addend a fixed distance from the product: alignment both ways.
      a = g.value(1); b = g.value(1);
      const int ep = int((host_mul(a, b) >> 23) & 0xFF);
      int ec = ep + int(g.rng() % 61) - 30;
      if (ec < 0) ec = 0;
      if (ec > 254) ec = 254;
      c = g.make(g.sign(), uint32_t(ec), g.frac_any());
    }
    const uint32_t want = canon(host_fma(a, b, c));
    subnormal += ((want >> 23) & 0xFF) == 0 && (want & 0x7FFFFF);
    const uint32_t got = fp::fma(a, b, c);
    if (want != got && ++bad < 20)
      ADD_FAILURE() << std::hex << "fma(" << a << ", " << b << ", " << c << ") = " << got
                    << ", want " << want;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(cancel, kRandom / 4);
  EXPECT_GT(subnormal, kRandom / 100);
}

TEST(Fp32Random, MinMaxCompare) {
  Gen g(5);
  int bad = 0;
  for (int i = 0; i < kRandom; ++i) {
    uint32_t a, b;
    const int kind = int(g.rng() % 4);
    if (kind == 0) {
      a = g.u32(); b = g.u32();
    } else if (kind == 1) {
      a = g.value(4); b = g.near(a);
    } else if (kind == 2) {
      a = g.value(4); b = (g.rng() & 1) ? a : (a ^ 0x80000000u);  // equal / opposite
    } else {
      a = g.value(4); b = g.value(4);
    }
    if ((g.rng() & 15) == 0) a = 0x7F800000u | g.bits(23) | (g.sign() << 31);  // NaN or inf
    if (fp::min(a, b) != ref_min(a, b) && ++bad < 20)
      ADD_FAILURE() << std::hex << "min(" << a << ", " << b << ")";
    if (fp::max(a, b) != ref_max(a, b) && ++bad < 20)
      ADD_FAILURE() << std::hex << "max(" << a << ", " << b << ")";
    const int code = int(g.rng() % 14);
    if (fp::compare(uint8_t(code), a, b) != ref_cmp(code, a, b) && ++bad < 20)
      ADD_FAILURE() << std::hex << "compare " << std::dec << code << std::hex << "(" << a << ", "
                    << b << ")";
  }
  EXPECT_EQ(bad, 0);
}

// ---- conversions ----------------------------------------------------------------

TEST(Fp32Convert, IntToFloat) {
  std::vector<uint32_t> edge = {0,          1,          2,          3,          0x7FFFFFFF,
                                0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x00FFFFFF,
                                0x01000000, 0x01000001, 0x01000002, 0x01000003, 0x02000002,
                                0x02000006, 0x7FFFFFC0, 0x7FFFFF80, 0x7FFFFFBF, 0xFFFFFF80,
                                0xFFFFFF7F, 0x00800001, 0x3FFFFFFF};
  Gen g(6);
  for (int i = 0; i < kRandom; ++i) {
    // Uniform, or few significant bits around 2^24..2^31 (ties).
    uint32_t v = g.u32();
    if (i & 1) v >>= g.rng() % 32;
    if ((i & 3) == 3) v = (v | 1u) << (g.rng() % 8);
    edge.push_back(v);
  }
  int bad = 0;
  for (uint32_t v : edge) {
    volatile int32_t si = int32_t(v);
    volatile uint32_t ui = v;
    volatile float fs = float(si);
    volatile float fu = float(ui);
    if (fp::from_i32(int32_t(v)) != u_of(fs) && ++bad < 20)
      ADD_FAILURE() << "from_i32(" << int32_t(v) << ")";
    if (fp::from_u32(v) != u_of(fu) && ++bad < 20) ADD_FAILURE() << "from_u32(" << v << ")";
  }
  EXPECT_EQ(bad, 0);
}

TEST(Fp32Convert, FloatToInt) {
  std::vector<uint32_t> edge = specials();
  const float edgef[] = {0.5f,         -0.5f,       1.5f,        -1.5f,        2.5f,
                         -2.5f,        0.999999f,   -0.999999f,  2147483520.f, -2147483520.f,
                         2147483648.f, -2147483648.f, 4294967040.f, 4294967296.f, -1.0f,
                         -0.0f,        1e-45f,      -1e-45f,     16777217.f,   8388607.5f};
  for (float f : edgef) edge.push_back(u_of(f));
  for (uint32_t e = 120; e < 165; ++e)  // every exponent around the int range
    for (uint32_t f : {0u, 1u, 0x400000u, 0x7FFFFFu})
      for (uint32_t s : {0u, 1u}) edge.push_back((s << 31) | (e << 23) | f);
  Gen g(7);
  for (int i = 0; i < kRandom; ++i)
    edge.push_back((i & 1) ? g.u32() : g.make(g.sign(), g.exp_in(110, 165), g.frac_any()));
  int bad = 0;
  for (uint32_t a : edge) {
    if (fp::to_i32(a) != ref_to_i32(a) && ++bad < 20)
      ADD_FAILURE() << std::hex << "to_i32(" << a << ") = " << std::dec << fp::to_i32(a)
                    << ", want " << ref_to_i32(a);
    if (fp::to_u32(a) != ref_to_u32(a) && ++bad < 20)
      ADD_FAILURE() << std::hex << "to_u32(" << a << ") = " << std::dec << fp::to_u32(a)
                    << ", want " << ref_to_u32(a);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(fp::to_i32(0x4F000000), INT32_MAX);     // 2^31 saturates
  EXPECT_EQ(fp::to_i32(0xCF000000), INT32_MIN);     // -2^31 exact
  EXPECT_EQ(fp::to_i32(0x7FC00000), 0);             // NaN
  EXPECT_EQ(fp::to_u32(0xBF800000), 0u);            // -1 -> 0
  EXPECT_EQ(fp::to_u32(0x7F800000), 0xFFFFFFFFu);   // inf
  EXPECT_EQ(fp::to_i32(0xFF800000), INT32_MIN);     // -inf
}
