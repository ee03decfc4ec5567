// Stimulus and golden model shared by the RTL FPU tests: the operation
// record, the reference results from isa/fp32.cpp, the special values and
// the random operand generator (distributions aimed at the hard cases).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "isa/fp32.h"
#include "isa/isa.h"

namespace baresm::fpu_tb {

namespace fp = baresm::fp32;
using baresm::isa::Op;

struct FpuOp {
  uint8_t op = 0;
  uint8_t mod = 0;
  uint32_t a = 0, b = 0, c = 0;
};

struct Expected {
  uint32_t result;
  bool cmp;
};

inline uint8_t code(Op op) { return uint8_t(op); }

inline const uint8_t kFpOps[] = {code(Op::FADD), code(Op::FSUB),  code(Op::FMUL), code(Op::FFMA),
                          code(Op::FMIN), code(Op::FMAX),  code(Op::FNEG), code(Op::FABS),
                          code(Op::FSETP), code(Op::I2F),  code(Op::F2I)};

// The golden model. cmp is 0 except for FSETP, result 0 for FSETP (the
// FPU's documented outputs for the other port).
inline Expected golden(const FpuOp& o) {
  const bool u32 = o.mod & 1;
  switch (Op(o.op)) {
    case Op::FADD: return {fp::add(o.a, o.b), false};
    case Op::FSUB: return {fp::sub(o.a, o.b), false};
    case Op::FMUL: return {fp::mul(o.a, o.b), false};
    case Op::FFMA: return {fp::fma(o.a, o.b, o.c), false};
    case Op::FMIN: return {fp::min(o.a, o.b), false};
    case Op::FMAX: return {fp::max(o.a, o.b), false};
    case Op::FNEG: return {fp::neg(o.a), false};
    case Op::FABS: return {fp::abs(o.a), false};
    case Op::FSETP: return {0, fp::compare(uint8_t(o.mod & 15), o.a, o.b)};
    case Op::I2F: return {u32 ? fp::from_u32(o.a) : fp::from_i32(int32_t(o.a)), false};
    case Op::F2I: return {u32 ? fp::to_u32(o.a) : uint32_t(fp::to_i32(o.a)), false};
    default: return {0, false};
  }
}

// ---- operands ------------------------------------------------------------------

inline std::vector<uint32_t> specials() {
  return {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x007FFFFF, 0x807FFFFF,
          0x00400000, 0x00800000, 0x80800000, 0x00FFFFFF, 0x3F800000, 0xBF800000, 0x3F800001,
          0x3F7FFFFF, 0x3FC00000, 0x40000000, 0x3F000000, 0x33800000, 0x34000000, 0x33000000,
          0x4B800000, 0x4B000000, 0x4B000001, 0x4B7FFFFF, 0xCB7FFFFF, 0x7F7FFFFF, 0xFF7FFFFF,
          0x7F000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FFFFFFF,
          0x40490FDB, 0x3DCCCCCD, 0x1F800000, 0x5F800000, 0x0C000000, 0x4EFFFFFF, 0x4F000000,
          0xCF000000, 0x4F800000, 0x4F7FFFFF, 0xFFFFFFFF, 0x80000001};
}

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  uint32_t u32() { return uint32_t(rng()); }
  uint32_t bits(int n) { return n == 0 ? 0 : uint32_t(rng() >> (64 - n)); }
  uint32_t make(uint32_t s, uint32_t e, uint32_t f) {
    return (s << 31) | ((e & 0xFF) << 23) | (f & 0x7FFFFF);
  }
  uint32_t sign() { return uint32_t(rng() & 1); }
  uint32_t exp_in(uint32_t lo, uint32_t hi) { return lo + uint32_t(rng() % (hi - lo + 1)); }
  // Fractions with few significant bits make rounding ties common.
  uint32_t frac() {
    if (rng() & 1) return bits(23);
    const int k = int(rng() % 24);
    return k == 0 ? 0 : (bits(k) << (23 - k)) & 0x7FFFFF;
  }
  uint32_t special() {
    static const std::vector<uint32_t> s = specials();
    return s[rng() % s.size()];
  }
  // A float of a random class: uniform bits, moderate, tiny, huge, special.
  uint32_t value() {
    switch (rng() % 8) {
      case 0: return u32();
      case 1: case 2: return make(sign(), exp_in(100, 154), frac());
      case 3: return make(sign(), exp_in(0, 30), frac());
      case 4: return make(sign(), exp_in(220, 254), frac());
      case 5: return special();
      default: return make(sign(), exp_in(0, 254), frac());
    }
  }
  // Close to v in exponent: cancellation.
  uint32_t near(uint32_t v) {
    int e = int((v >> 23) & 0xFF) + int(rng() % 5) - 2;
    e = e < 0 ? 0 : (e > 254 ? 254 : e);
    uint32_t f = (rng() & 1) ? (v & 0x7FFFFF) ^ bits(3) : frac();
    return make(sign(), uint32_t(e), f);
  }

  FpuOp op() {
    FpuOp o;
    o.op = kFpOps[rng() % (sizeof(kFpOps) / sizeof(kFpOps[0]))];
    o.mod = uint8_t(rng());  // bits an op does not read must not matter
    o.a = value();
    o.b = value();
    o.c = value();
    switch (Op(o.op)) {
      case Op::FADD: case Op::FSUB:
        if (rng() % 3 == 0) o.b = near(o.a);
        else if (rng() % 3 == 0) o.b = make(sign(), exp_in(0, 2), frac()), o.a = make(sign(), exp_in(0, 2), frac());
        break;
      case Op::FMUL:
        if (rng() % 3 == 0) {  // product around the subnormal range
          const uint32_t ea = exp_in(1, 254);
          int eb = 127 - int(ea) + int(rng() % 36) - 30;
          eb = eb < 0 ? 0 : (eb > 254 ? 254 : eb);
          o.a = make(sign(), ea, frac());
          o.b = make(sign(), uint32_t(eb), frac());
        }
        break;
      case Op::FFMA:
        switch (rng() % 4) {
          case 0: o.c = fp::mul(o.a, o.b) ^ 0x80000000u ^ bits(2); break;  // cancellation
          case 1: {  // addend a fixed distance from the product
            const int ep = int((fp::mul(o.a, o.b) >> 23) & 0xFF);
            int ec = ep + int(rng() % 61) - 30;
            ec = ec < 0 ? 0 : (ec > 254 ? 254 : ec);
            o.c = make(sign(), uint32_t(ec), frac());
            break;
          }
          default: break;
        }
        break;
      case Op::FSETP:
        o.mod = uint8_t((rng() & 0x70) | (rng() % 16));  // every code, 14/15 too
        if (rng() % 4 == 0) o.b = (rng() & 1) ? o.a : (o.a ^ 0x80000000u);
        break;
      case Op::FMIN: case Op::FMAX:
        if (rng() % 4 == 0) o.b = (rng() & 1) ? o.a : (o.a ^ 0x80000000u);
        break;
      case Op::I2F:
        if (rng() & 1) o.a = u32() >> (rng() % 32);
        break;
      case Op::F2I:
        if (rng() & 1) o.a = make(sign(), exp_in(110, 165), frac());
        break;
      default: break;
    }
    return o;
  }
};

}  // namespace baresm::fpu_tb
