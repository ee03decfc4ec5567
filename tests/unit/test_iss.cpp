// Functional model: per-opcode semantics on edge values, memory spaces and
// widths, atomics, shuffles, votes, special registers, launch validation.
// (SIMT, barriers, faults, watchdog and the retire stream: test_iss_simt.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "isa/fp32.h"
#include "test_iss_util.h"

using namespace isstest;

namespace {

constexpr uint32_t A = Rig::kData, B = Rig::kData + 0x1000, C = Rig::kData + 0x2000,
                   OUT = Rig::kData + 0x3000;
constexpr uint32_t kSentinel = 0xDEADBEEF;

struct Case {
  std::vector<uint32_t> a, b, c;
};

// Runs one thread per element: R2 = a[i], R3 = b[i], R5 = c[i]; `body` computes
// R4; the kernel stores R4 to out[i]. Returns out.
std::vector<uint32_t> run_elementwise(const Case& cs, const std::function<void(Prog&)>& body) {
  Rig rig;
  const uint32_t n = uint32_t(cs.a.size());
  for (uint32_t k = 0; k < n; ++k) {
    rig.mem.write32(A + 4 * k, cs.a[k]);
    rig.mem.write32(B + 4 * k, k < cs.b.size() ? cs.b[k] : 0);
    rig.mem.write32(C + 4 * k, k < cs.c.size() ? cs.c[k] : 0);
    rig.mem.write32(OUT + 4 * k, kSentinel);
  }
  Prog p;
  p.s2r(0, isa::SR_TID_X).i(Op::SHL, 1, 0, 2).ldg(2, 1, A).ldg(3, 1, B).ldg(5, 1, C);
  body(p);
  p.stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(n);
  EXPECT_TRUE(r.ok()) << r.fault.describe() << r.launch_error_message;
  std::vector<uint32_t> out(n);
  for (uint32_t k = 0; k < n; ++k) out[k] = rig.mem.read32(OUT + 4 * k);
  return out;
}

const std::vector<uint32_t> kIntEdges = {0,          1,          2,          31,
                                         32,         33,         0x7FFFFFFF, 0x80000000,
                                         0xFFFFFFFF, 0xFFFFFFFE, 0x12345678, 0x80000001,
                                         100,        0xFFFFFF9C, 0xFFFF,     0x10000};

Case pairs(const std::vector<uint32_t>& v) {
  Case cs;
  for (uint32_t x : v)
    for (uint32_t y : v) {
      cs.a.push_back(x);
      cs.b.push_back(y);
      cs.c.push_back(x * 7 + y);  // third operand for IMAD / SEL
    }
  return cs;
}

using Ref2 = std::function<uint32_t(uint32_t, uint32_t)>;

void check_binop(Op op, uint8_t mod, const Ref2& ref, const std::vector<uint32_t>& vals) {
  Case cs = pairs(vals);
  auto out = run_elementwise(cs, [&](Prog& p) { p.r(op, 4, 2, 3, RZ, mod); });
  for (size_t k = 0; k < out.size(); ++k)
    ASSERT_EQ(out[k], ref(cs.a[k], cs.b[k]))
        << isa::op_info(op).mnemonic << " mod " << int(mod) << " a=0x" << std::hex << cs.a[k]
        << " b=0x" << cs.b[k];
  // The immediate form of b, for a few values.
  if (!(isa::op_info(op).flags & isa::F_BIMM_OK)) return;
  for (uint32_t imm : {0u, 5u, 0x80000000u, 0xFFFFFFFFu, 40u}) {
    Case ci;
    ci.a = vals;
    auto o = run_elementwise(ci, [&](Prog& p) { p.i(op, 4, 2, imm, mod); });
    for (size_t k = 0; k < o.size(); ++k)
      ASSERT_EQ(o[k], ref(ci.a[k], imm)) << isa::op_info(op).mnemonic << " imm " << imm;
  }
}

int32_t s(uint32_t v) { return int32_t(v); }

TEST(IssInt, BinaryOpsOnEdgeValues) {
  const auto& v = kIntEdges;
  check_binop(Op::IADD, 0, [](uint32_t a, uint32_t b) { return a + b; }, v);
  check_binop(Op::ISUB, 0, [](uint32_t a, uint32_t b) { return a - b; }, v);
  check_binop(Op::IMUL, 0, [](uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) * b); }, v);
  check_binop(Op::IMULHI, 0,
              [](uint32_t a, uint32_t b) { return uint32_t((int64_t(s(a)) * s(b)) >> 32); }, v);
  check_binop(Op::IMULHI, 1, [](uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }, v);
  check_binop(Op::IMIN, 0, [](uint32_t a, uint32_t b) { return uint32_t(std::min(s(a), s(b))); }, v);
  check_binop(Op::IMIN, 1, [](uint32_t a, uint32_t b) { return std::min(a, b); }, v);
  check_binop(Op::IMAX, 0, [](uint32_t a, uint32_t b) { return uint32_t(std::max(s(a), s(b))); }, v);
  check_binop(Op::IMAX, 1, [](uint32_t a, uint32_t b) { return std::max(a, b); }, v);
  check_binop(Op::AND, 0, [](uint32_t a, uint32_t b) { return a & b; }, v);
  check_binop(Op::OR, 0, [](uint32_t a, uint32_t b) { return a | b; }, v);
  check_binop(Op::XOR, 0, [](uint32_t a, uint32_t b) { return a ^ b; }, v);
  check_binop(Op::SHL, 0, [](uint32_t a, uint32_t b) { return b >= 32 ? 0 : a << b; }, v);
  check_binop(Op::SHR, 0, [](uint32_t a, uint32_t b) { return b >= 32 ? 0 : a >> b; }, v);
  check_binop(Op::SHRA, 0,
              [](uint32_t a, uint32_t b) {
                if (b >= 32) return s(a) < 0 ? 0xFFFFFFFFu : 0u;
                return uint32_t(int64_t(s(a)) / (int64_t(1) << b) -
                                ((s(a) < 0 && (uint32_t(s(a)) & ((1u << b) - 1))) ? 1 : 0));
              },
              v);
  check_binop(Op::MOV, 0, [](uint32_t, uint32_t b) { return b; }, v);
}

TEST(IssInt, SpotValues) {
  // Hand-checked results, independent of any reference formula.
  Case cs;
  cs.a = {0x80000000, 0xFFFFFFFF, 0x80000000, 7, 0xFFFFFFF9};
  cs.b = {31, 4, 32, 0xFFFFFFFF, 2};
  auto shra = run_elementwise(cs, [](Prog& p) { p.r(Op::SHRA, 4, 2, 3); });
  EXPECT_EQ(shra, (std::vector<uint32_t>{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0xFFFFFFFE}));
  auto hi = run_elementwise(cs, [](Prog& p) { p.r(Op::IMULHI, 4, 2, 3); });
  EXPECT_EQ(hi[0], 0xFFFFFFF0u);  // -2^31 * 31 = -0xF80000000
  EXPECT_EQ(hi[3], 0xFFFFFFFFu);  // 7 * -1
  auto hiu = run_elementwise(cs, [](Prog& p) { p.r(Op::IMULHI, 4, 2, 3, RZ, 1); });
  EXPECT_EQ(hiu[0], 15u);
  EXPECT_EQ(hiu[3], 6u);  // 7 * (2^32-1) >> 32
}

TEST(IssInt, UnaryAndThreeSourceOps) {
  Case cs = pairs(kIntEdges);
  auto abs = run_elementwise(cs, [](Prog& p) { p.r(Op::IABS, 4, 2); });
  auto nt = run_elementwise(cs, [](Prog& p) { p.r(Op::NOT, 4, 2); });
  auto pc = run_elementwise(cs, [](Prog& p) { p.r(Op::POPC, 4, 3); });
  auto clz = run_elementwise(cs, [](Prog& p) { p.r(Op::CLZ, 4, 3); });
  auto mad = run_elementwise(cs, [](Prog& p) { p.r(Op::IMAD, 4, 2, 3, 5); });
  for (size_t k = 0; k < cs.a.size(); ++k) {
    uint32_t a = cs.a[k], b = cs.b[k], c = cs.c[k];
    EXPECT_EQ(abs[k], a == 0x80000000u ? 0x80000000u : uint32_t(std::abs(int64_t(s(a)))));
    EXPECT_EQ(nt[k], ~a);
    uint32_t bits = 0, lead = 0;
    for (int i = 0; i < 32; ++i) bits += (b >> i) & 1;
    while (lead < 32 && !((b << lead) & 0x80000000u)) ++lead;
    EXPECT_EQ(pc[k], bits) << b;
    EXPECT_EQ(clz[k], lead) << b;
    EXPECT_EQ(mad[k], uint32_t(uint64_t(a) * b + c));
  }
  // CLZ 0 is 32, POPC of all ones is 32.
  Case z;
  z.a = {0, 0xFFFFFFFF, 1};
  EXPECT_EQ(run_elementwise(z, [](Prog& p) { p.r(Op::CLZ, 4, 2); }), (std::vector<uint32_t>{32, 0, 31}));
  EXPECT_EQ(run_elementwise(z, [](Prog& p) { p.r(Op::POPC, 4, 2); }), (std::vector<uint32_t>{0, 32, 1}));
}

bool cmp_ref(uint8_t c, uint32_t a, uint32_t b, bool u) {
  int64_t x = u ? int64_t(a) : int64_t(s(a)), y = u ? int64_t(b) : int64_t(s(b));
  switch (c) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    default: return x >= y;
  }
}

TEST(IssInt, IsetpEveryCompareCombineAndNegatedPc) {
  Case cs = pairs(kIntEdges);
  for (uint32_t k = 0; k < cs.c.size(); ++k) cs.c[k] = (k * 2654435761u) >> 31;  // P1 source
  for (uint8_t cmp = 0; cmp < 6; ++cmp)
    for (bool u : {false, true})
      for (uint8_t comb = 0; comb < 3; ++comb)
        for (bool neg : {false, true}) {
          auto out = run_elementwise(cs, [&](Prog& p) {
            p.isetp(isa::CMP_NE, 1, 5, 0);  // P1 = c != 0
            p.isetpr(cmp, 0, 2, 3, u, comb, 1, neg);
            p.mov(4, 0).mov(4, 1).g(0);
          });
          for (size_t k = 0; k < out.size(); ++k) {
            bool r = cmp_ref(cmp, cs.a[k], cs.b[k], u);
            bool pcv = (cs.c[k] != 0) != neg;
            bool want = comb == 0 ? (r && pcv) : comb == 1 ? (r || pcv) : (r != pcv);
            ASSERT_EQ(out[k], uint32_t(want)) << int(cmp) << u << int(comb) << neg << " k " << k;
          }
        }
  // Immediate b, pc defaulting to PT; and PT as destination is dropped.
  Case one;
  one.a = {5, 6, 0xFFFFFFFF};
  auto o = run_elementwise(one, [](Prog& p) {
    p.isetp(isa::CMP_LT, 0, 2, 6).mov(4, 0).mov(4, 1).g(0);
  });
  EXPECT_EQ(o, (std::vector<uint32_t>{1, 0, 1}));
  o = run_elementwise(one, [](Prog& p) {
    p.isetp(isa::CMP_LT, PT, 2, 0).mov(4, 1).g(PT, true).mov(4, 2).g(PT);
  });
  EXPECT_EQ(o, (std::vector<uint32_t>{2, 2, 2}));
}

TEST(IssInt, SelAndGuards) {
  Case cs = pairs({1, 2, 3, 0x80000000});
  auto out = run_elementwise(cs, [](Prog& p) {
    p.isetpr(isa::CMP_LT, 2 /*P2*/, 2, 3);
    p.r(Op::SEL, 4, 2, 3, RZ, 2);          // P2 ? a : b  -> signed min
    p.r(Op::SEL, 6, 2, 3, RZ, 2 | 8);      // !P2 ? a : b -> signed max
    p.r(Op::IADD, 4, 4, 6).g(2, true);     // guarded by !P2: r4 += r6 only when a >= b
  });
  for (size_t k = 0; k < out.size(); ++k) {
    int32_t a = s(cs.a[k]), b = s(cs.b[k]);
    uint32_t mn = uint32_t(std::min(a, b)), mx = uint32_t(std::max(a, b));
    EXPECT_EQ(out[k], a < b ? mn : mn + mx);
  }
  // SEL with an immediate b and PT / !PT.
  Case one;
  one.a = {9};
  EXPECT_EQ(run_elementwise(one, [](Prog& p) { p.i(Op::SEL, 4, 2, 77, PT); })[0], 9u);
  EXPECT_EQ(run_elementwise(one, [](Prog& p) { p.i(Op::SEL, 4, 2, 77, PT | 8); })[0], 77u);
  // @!PT never executes; RZ reads zero and ignores writes.
  EXPECT_EQ(run_elementwise(one, [](Prog& p) { p.mov(4, 3).mov(4, 8).g(PT, true); })[0], 3u);
  EXPECT_EQ(run_elementwise(one, [](Prog& p) { p.mov(RZ, 5).r(Op::IADD, 4, RZ, 2); })[0], 9u);
}

// ---- FP32 -------------------------------------------------------------------
uint32_t fb(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t canon(float f) { return std::isnan(f) ? 0x7FFFFFFFu : fb(f); }

const std::vector<uint32_t> kFpEdges = {
    0x00000000, 0x80000000, fb(1.0f),   fb(-1.0f),  fb(1.5f),   fb(-2.75f), 0x7F800000,
    0xFF800000, 0x7FC00000, 0xFF800001, 0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
    fb(3e9f),   fb(-3e9f),  fb(0.1f),   fb(1e-30f), 0x4B800001, 0x4F000000, fb(-0.5f)};

uint32_t fmin_ref(uint32_t a, uint32_t b, bool is_max) {
  float x = bf(a), y = bf(b);
  if (std::isnan(x) && std::isnan(y)) return 0x7FFFFFFF;
  if (std::isnan(x)) return b;
  if (std::isnan(y)) return a;
  if (x == 0 && y == 0) {
    bool xn = a >> 31;
    if (is_max) return xn ? b : a;
    return xn ? a : b;
  }
  if (is_max) return x > y ? a : b;
  return x < y ? a : b;
}

TEST(IssFp, ArithmeticMatchesHostFloat) {
  Case cs = pairs(kFpEdges);
  for (size_t k = 0; k < cs.c.size(); ++k) cs.c[k] = kFpEdges[(k * 7 + 3) % kFpEdges.size()];
  auto add = run_elementwise(cs, [](Prog& p) { p.r(Op::FADD, 4, 2, 3); });
  auto sub = run_elementwise(cs, [](Prog& p) { p.r(Op::FSUB, 4, 2, 3); });
  auto mul = run_elementwise(cs, [](Prog& p) { p.r(Op::FMUL, 4, 2, 3); });
  auto fma = run_elementwise(cs, [](Prog& p) { p.r(Op::FFMA, 4, 2, 3, 5); });
  auto mn = run_elementwise(cs, [](Prog& p) { p.r(Op::FMIN, 4, 2, 3); });
  auto mx = run_elementwise(cs, [](Prog& p) { p.r(Op::FMAX, 4, 2, 3); });
  auto ng = run_elementwise(cs, [](Prog& p) { p.r(Op::FNEG, 4, 2); });
  auto ab = run_elementwise(cs, [](Prog& p) { p.r(Op::FABS, 4, 2); });
  for (size_t k = 0; k < cs.a.size(); ++k) {
    uint32_t a = cs.a[k], b = cs.b[k], c = cs.c[k];
    SCOPED_TRACE(testing::Message() << std::hex << "a=" << a << " b=" << b << " c=" << c);
    EXPECT_EQ(add[k], canon(bf(a) + bf(b)));
    EXPECT_EQ(sub[k], canon(bf(a) - bf(b)));
    EXPECT_EQ(mul[k], canon(bf(a) * bf(b)));
    EXPECT_EQ(fma[k], canon(std::fma(bf(a), bf(b), bf(c))));
    EXPECT_EQ(mn[k], fmin_ref(a, b, false));
    EXPECT_EQ(mx[k], fmin_ref(a, b, true));
    EXPECT_EQ(ng[k], a ^ 0x80000000u);  // NaN payloads kept: no canonicalisation
    EXPECT_EQ(ab[k], a & 0x7FFFFFFFu);
  }
  // Immediate float operand.
  Case one;
  one.a = {fb(2.0f)};
  EXPECT_EQ(run_elementwise(one, [](Prog& p) { p.i(Op::FMUL, 4, 2, fb(0.25f)); })[0], fb(0.5f));
}

TEST(IssFp, FsetpAllComparisons) {
  Case cs = pairs(kFpEdges);
  for (uint8_t cmp = 0; cmp < 14; ++cmp) {
    auto out = run_elementwise(cs, [&](Prog& p) {
      p.r(Op::FSETP, (PT << 3) | 3, 2, 3, RZ, cmp);
      p.mov(4, 0).mov(4, 1).g(3);
    });
    for (size_t k = 0; k < out.size(); ++k) {
      float x = bf(cs.a[k]), y = bf(cs.b[k]);
      bool un = std::isnan(x) || std::isnan(y);
      bool r;
      switch (cmp) {
        case 6: r = !un; break;
        case 7: r = un; break;
        default: {
          uint8_t base = cmp >= 8 ? cmp - 8 : cmp;
          bool c = base == 0 ? x == y : base == 1 ? x != y : base == 2 ? x < y
                   : base == 3 ? x <= y : base == 4 ? x > y : x >= y;
          r = un ? cmp >= 8 : c;
        }
      }
      ASSERT_EQ(out[k], uint32_t(r)) << "cmp " << int(cmp) << std::hex << " a=" << cs.a[k]
                                     << " b=" << cs.b[k];
    }
  }
  // Combine with a negated pc: FSETP.LT.OR P0, a, b, !P1 where P1 = true -> a < b.
  Case one;
  one.a = {fb(1.0f), fb(2.0f)};
  one.b = {fb(2.0f), fb(1.0f)};
  auto o = run_elementwise(one, [](Prog& p) {
    p.isetp(isa::CMP_EQ, 1, RZ, 0);
    p.r(Op::FSETP, (1 << 3) | 0, 2, 3, RZ, uint8_t(2 | (1 << 4) | 0x40));
    p.mov(4, 0).mov(4, 1).g(0);
  });
  EXPECT_EQ(o, (std::vector<uint32_t>{1, 0}));
}

TEST(IssFp, Conversions) {
  std::vector<uint32_t> ints = kIntEdges;
  ints.push_back(16777217);
  ints.push_back(0xFEFFFFFF);
  Case ci;
  ci.a = ints;
  auto i2f = run_elementwise(ci, [](Prog& p) { p.r(Op::I2F, 4, 2); });
  auto u2f = run_elementwise(ci, [](Prog& p) { p.r(Op::I2F, 4, 2, RZ, RZ, 1); });
  for (size_t k = 0; k < ints.size(); ++k) {
    EXPECT_EQ(i2f[k], fb(float(s(ints[k]))));
    EXPECT_EQ(u2f[k], fb(float(ints[k])));
  }
  Case cf;
  cf.a = kFpEdges;
  for (float f : {2147483520.0f, -2147483648.0f, 4294967040.0f, -0.99f, 0.99f, 123.75f, -123.75f})
    cf.a.push_back(fb(f));
  auto f2i = run_elementwise(cf, [](Prog& p) { p.r(Op::F2I, 4, 2); });
  auto f2u = run_elementwise(cf, [](Prog& p) { p.r(Op::F2I, 4, 2, RZ, RZ, 1); });
  for (size_t k = 0; k < cf.a.size(); ++k) {
    double d = std::trunc(double(bf(cf.a[k])));
    int64_t si, ui;
    if (std::isnan(d)) {
      si = ui = 0;
    } else {
      si = int64_t(std::max(-2147483648.0, std::min(2147483647.0, d)));
      ui = int64_t(std::max(0.0, std::min(4294967295.0, d)));
    }
    EXPECT_EQ(f2i[k], uint32_t(si)) << std::hex << cf.a[k];
    EXPECT_EQ(f2u[k], uint32_t(ui)) << std::hex << cf.a[k];
  }
}

// ---- memory -------------------------------------------------------------------
TEST(IssMem, LoadWidthsAndSignExtension) {
  Rig rig;
  const uint8_t bytes[8] = {0x81, 0x7F, 0xFE, 0xFF, 0x34, 0x12, 0x00, 0x80};
  rig.mem.write(A, bytes, 8);
  Prog p;
  p.ld(Op::LDG, isa::LDW_U8, 2, RZ, A).stg(RZ, OUT + 0, 2);
  p.ld(Op::LDG, isa::LDW_S8, 2, RZ, A).stg(RZ, OUT + 4, 2);
  p.ld(Op::LDG, isa::LDW_S8, 2, RZ, A + 1).stg(RZ, OUT + 8, 2);
  p.ld(Op::LDG, isa::LDW_U16, 2, RZ, A + 2).stg(RZ, OUT + 12, 2);
  p.ld(Op::LDG, isa::LDW_S16, 2, RZ, A + 2).stg(RZ, OUT + 16, 2);
  p.ld(Op::LDG, isa::LDW_S16, 2, RZ, A + 4).stg(RZ, OUT + 20, 2);
  p.ld(Op::LDG, isa::LDW_32, 2, RZ, A + 4).stg(RZ, OUT + 24, 2);
  p.ld(Op::LDG, isa::LDW_32, 2, RZ, A).stg(RZ, OUT + 28, 2);
  // Negative offset from a register base.
  p.mov(3, A + 8).ld(Op::LDG, isa::LDW_U8, 2, 3, uint32_t(-1)).stg(RZ, OUT + 32, 2);
  p.exit();
  rig.load(p);
  ASSERT_TRUE(rig.run(1).ok());
  const uint32_t want[] = {0x81, 0xFFFFFF81, 0x7F, 0xFFFE, 0xFFFFFFFE, 0x1234, 0x80001234, 0xFFFE7F81, 0x80};
  for (uint32_t k = 0; k < 9; ++k) EXPECT_EQ(rig.mem.read32(OUT + 4 * k), want[k]) << k;
}

TEST(IssMem, StoreWidthsMergeBytes) {
  Rig rig;
  rig.mem.write32(OUT, 0xAAAAAAAA);
  rig.mem.write32(OUT + 4, 0xBBBBBBBB);
  Prog p;
  p.mov(2, 0x12345678);
  p.st(Op::STG, isa::LDW_U8, RZ, OUT + 1, 2);    // byte 0x78 at OUT+1
  p.st(Op::STG, isa::LDW_U16, RZ, OUT + 6, 2);   // 0x5678 at OUT+6
  p.st(Op::STG, isa::LDW_32, RZ, OUT + 8, 2);
  p.exit();
  rig.load(p);
  ASSERT_TRUE(rig.run(1).ok());
  EXPECT_EQ(rig.mem.read32(OUT), 0xAAAA78AAu);
  EXPECT_EQ(rig.mem.read32(OUT + 4), 0x5678BBBBu);
  EXPECT_EQ(rig.mem.read32(OUT + 8), 0x12345678u);
}

TEST(IssMem, SharedIsPerCtaAndZeroed) {
  // Each CTA adds its id to shared[tid] and stores it: every CTA must see 0 first.
  Rig rig;
  rig.lp.shared_bytes = 256;
  Prog p;
  p.s2r(0, isa::SR_TID_X).i(Op::SHL, 1, 0, 2).s2r(6, isa::SR_CTAID_X);
  p.ld(Op::LDS, isa::LDW_32, 2, 1, 0).r(Op::IADD, 2, 2, 6).i(Op::IADD, 2, 2, 1);
  p.st(Op::STS, isa::LDW_32, 1, 0, 2);
  p.ld(Op::LDS, isa::LDW_S16, 3, 1, 0);  // re-read the low half through a narrow load
  p.i(Op::SHL, 7, 6, 8).r(Op::IADD, 7, 7, 1).stg(7, OUT, 3).exit();
  rig.load(p);
  auto r = rig.run({3, 1, 1}, {64, 1, 1});
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(rig.mem.read32(OUT + c * 256 + 4 * t), c + 1);
}

TEST(IssMem, ParamLoads) {
  Rig rig;
  rig.params({0x11223344, 0xFFFFFF80, 7});
  Prog p;
  p.ld(Op::LDC, isa::LDW_32, 2, RZ, 0).stg(RZ, OUT, 2);
  p.ld(Op::LDC, isa::LDW_S8, 2, RZ, 4).stg(RZ, OUT + 4, 2);
  p.ld(Op::LDC, isa::LDW_U16, 2, RZ, 2).stg(RZ, OUT + 8, 2);
  p.mov(3, 4).ld(Op::LDC, isa::LDW_32, 2, 3, 4).stg(RZ, OUT + 12, 2);  // register base
  p.exit();
  rig.load(p);
  ASSERT_TRUE(rig.run(1).ok());
  EXPECT_EQ(rig.mem.read32(OUT), 0x11223344u);
  EXPECT_EQ(rig.mem.read32(OUT + 4), 0xFFFFFF80u);
  EXPECT_EQ(rig.mem.read32(OUT + 8), 0x1122u);
  EXPECT_EQ(rig.mem.read32(OUT + 12), 7u);
}

TEST(IssMem, OverlappingStoresApplyInLaneOrder) {
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_LANEID).i(Op::IADD, 2, 0, 100).stg(RZ, OUT, 2).exit();
  rig.load(p);
  ASSERT_TRUE(rig.run(32).ok());
  EXPECT_EQ(rig.mem.read32(OUT), 131u);  // the highest lane's store is the last
}

// ---- atomics ----------------------------------------------------------------
TEST(IssAtomics, SharedConflictsGiveExactSumAndOldValuesInLaneOrder) {
  Rig rig;
  rig.lp.shared_bytes = 64;
  Prog p;
  p.s2r(0, isa::SR_TID_X).i(Op::IADD, 2, 0, 1);   // value lane+1
  p.atom(Op::ATOMS, isa::ATOM_ADD, 3, RZ, 8, 2);   // all lanes hit shared[8]
  p.i(Op::SHL, 1, 0, 2).stg(1, OUT, 3);
  p.bar(0).ld(Op::LDS, isa::LDW_32, 4, RZ, 8).stg(RZ, A, 4).exit();
  rig.load(p);
  auto r = rig.run(96);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  EXPECT_EQ(rig.mem.read32(A), 96u * 97 / 2);
  // Warps run in order, lanes in order: the old value of thread t is t(t+1)/2.
  for (uint32_t t = 0; t < 96; ++t) EXPECT_EQ(rig.out(0x3000 / 4 + t), t * (t + 1) / 2) << t;
}

TEST(IssAtomics, GlobalOpsReturnOldValue) {
  struct K {
    uint8_t mod;
    uint32_t init, b;
    uint32_t want_mem;
  };
  const K ks[] = {
      {isa::ATOM_ADD, 5, 0xFFFFFFFF, 4},
      {isa::ATOM_MIN, 5, 0xFFFFFFFF, 0xFFFFFFFF},
      {isa::ATOM_MIN | isa::kAtomUnsigned, 5, 0xFFFFFFFF, 5},
      {isa::ATOM_MAX, 5, 0xFFFFFFFF, 5},
      {isa::ATOM_MAX | isa::kAtomUnsigned, 5, 0xFFFFFFFF, 0xFFFFFFFF},
      {isa::ATOM_EXCH, 5, 77, 77},
      {isa::ATOM_AND, 0xF0F0, 0xFF00, 0xF000},
      {isa::ATOM_OR, 0xF0F0, 0xFF00, 0xFFF0},
      {isa::ATOM_XOR, 0xF0F0, 0xFF00, 0x0FF0},
  };
  for (const K& k : ks) {
    Rig rig;
    rig.mem.write32(A + 12, k.init);
    Prog p;
    p.mov(2, k.b).mov(5, A).atom(Op::ATOMG, k.mod, 3, 5, 12, 2).stg(RZ, OUT, 3).exit();
    rig.load(p);
    ASSERT_TRUE(rig.run(1).ok());
    EXPECT_EQ(rig.mem.read32(A + 12), k.want_mem) << int(k.mod);
    EXPECT_EQ(rig.mem.read32(OUT), k.init) << int(k.mod);
  }
}

TEST(IssAtomics, CasChainsThroughLanesInOrder) {
  // Lane i: CAS(x, expect=i, new=i+1). Lanes run in order, so all succeed.
  // Then lane i: CAS(x, expect=i, new=100): only lane 32 would match: none does.
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_LANEID).i(Op::IADD, 2, 0, 1).i(Op::SHL, 1, 0, 2);
  p.atom(Op::ATOMG, isa::ATOM_CAS, 3, RZ, int32_t(A), 0, 2);
  p.stg(1, OUT, 3);
  p.mov(6, 100).atom(Op::ATOMG, isa::ATOM_CAS, 4, RZ, int32_t(A), 0, 6);
  p.stg(1, OUT + 0x100, 4).exit();
  rig.load(p);
  rig.record = true;
  ASSERT_TRUE(rig.run(32).ok());
  EXPECT_EQ(rig.mem.read32(A), 32u);
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(rig.mem.read32(OUT + 4 * l), l);
    EXPECT_EQ(rig.mem.read32(OUT + 0x100 + 4 * l), 32u);
  }
  // The retire stream lists a store per successful CAS only.
  int cas_seen = 0;
  for (const auto& e : rig.events) {
    if (e.instr.op != Op::ATOMG) continue;
    if (cas_seen++ == 0) {
      ASSERT_EQ(e.stores.size(), 32u);
      EXPECT_EQ(e.stores[5].value, 6u);
      EXPECT_EQ(e.stores[5].lane, 5);
      EXPECT_EQ(e.stores[5].addr, A);
      EXPECT_FALSE(e.stores[5].shared);
    } else {
      EXPECT_TRUE(e.stores.empty());
    }
  }
  EXPECT_EQ(cas_seen, 2);
}

// ---- warp-wide ----------------------------------------------------------------
uint32_t shfl_ref(uint8_t mode, uint32_t width, uint32_t lane, uint32_t b) {
  uint32_t base = lane - lane % width;
  switch (mode) {
    case isa::SHFL_IDX: return base + b % width;
    case isa::SHFL_UP: return int64_t(lane) - int64_t(b) < int64_t(base) ? lane : lane - b;
    case isa::SHFL_DOWN: return int64_t(lane) + int64_t(b) >= int64_t(base + width) ? lane : lane + b;
    default: return base + ((lane % width) ^ (b % width));
  }
}

TEST(IssWarp, ShuffleEveryModeAndWidth) {
  for (uint8_t mode = 0; mode < 4; ++mode)
    for (uint8_t lw = 0; lw <= 5; ++lw)
      for (int form = 0; form < 3; ++form) {
        // form 0: b = register 5*lane+3, 1: immediate 3, 2: immediate 0xFFFFFFFF
        Rig rig;
        const uint8_t mod = uint8_t(mode | lw << 2);
        Prog p;
        p.s2r(0, isa::SR_LANEID).i(Op::SHL, 1, 0, 2);
        p.i(Op::IMUL, 2, 0, 10).i(Op::IADD, 2, 2, 7);  // ra = lane*10+7
        p.i(Op::IMUL, 3, 0, 5).i(Op::IADD, 3, 3, 3);  // b = 5*lane+3: also past the width
        if (form == 0) p.r(Op::SHFL, 4, 2, 3, RZ, mod);
        else p.i(Op::SHFL, 4, 2, form == 1 ? 3u : 0xFFFFFFFFu, mod);
        p.stg(1, OUT, 4).exit();
        rig.load(p);
        ASSERT_TRUE(rig.run(32).ok());
        for (uint32_t l = 0; l < 32; ++l) {
          uint32_t b = form == 0 ? l * 5 + 3 : form == 1 ? 3u : 0xFFFFFFFFu;
          uint32_t src = shfl_ref(mode, 1u << lw, l, b);
          ASSERT_EQ(rig.out(0x3000 / 4 + l), src * 10 + 7)
              << "mode " << int(mode) << " width " << (1 << lw) << " form " << form << " lane " << l;
        }
      }
}

TEST(IssWarp, ShuffleFromInactiveLanesAndGuardedDestinations) {
  // Lanes >= 16 set R2 = 1000+lane, then the warp diverges: only even lanes
  // below 16 execute SHFL.IDX from lane+16 (inactive): they read its register.
  // Odd lanes < 16 have a false guard: their R4 keeps 5.
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_LANEID).i(Op::SHL, 1, 0, 2).mov(4, 5);
  p.i(Op::IADD, 2, 0, 1000);
  p.isetp(isa::CMP_GE, 0, 0, 16).bra("join", "join").g(0);
  p.i(Op::AND, 3, 0, 1).isetp(isa::CMP_EQ, 1, 3, 0);
  p.i(Op::IADD, 5, 0, 16).r(Op::SHFL, 4, 2, 5, RZ, uint8_t(isa::SHFL_IDX | 5 << 2)).g(1);
  p.L("join").stg(1, OUT, 4).exit();
  rig.load(p);
  ASSERT_TRUE(rig.run(32).ok());
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t want = l >= 16 ? 5 : (l % 2 == 0 ? 1016 + l : 5);
    EXPECT_EQ(rig.out(0x3000 / 4 + l), want) << l;
  }
}

TEST(IssWarp, Votes) {
  // P1 = lane % 3 == 0. Guard P2 = lane < 20 restricts the participants.
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_LANEID).i(Op::SHL, 1, 0, 2);
  p.i(Op::IMULHI, 3, 0, 0x55555556, 1).i(Op::IMUL, 3, 3, 3).r(Op::ISUB, 3, 0, 3);  // lane % 3
  p.isetp(isa::CMP_EQ, 1, 3, 0);
  p.isetp(isa::CMP_LT, 2, 0, 20);
  p.mov(4, 0xEEEE).r(Op::VOTE, 4, 1, RZ, RZ, isa::VOTE_BALLOT).g(2);
  p.r(Op::VOTE, 3 /*P3*/, 1, RZ, RZ, isa::VOTE_ANY);
  p.r(Op::VOTE, 4 /*P4*/, 1, RZ, RZ, isa::VOTE_ALL);
  p.r(Op::VOTE, 5 /*P5*/, 1 | 8 /*!P1*/, RZ, RZ, isa::VOTE_ANY);
  p.isetp(isa::CMP_EQ, 6, 3, 0, false, 0, 2);  // P6 = lane%3==0 && lane<20
  p.r(Op::VOTE, 6 /*P6*/, 1, RZ, RZ, isa::VOTE_ALL).g(6);  // participants all have P1
  p.mov(5, 0).i(Op::OR, 5, 5, 1).g(3).i(Op::OR, 5, 5, 2).g(4).i(Op::OR, 5, 5, 4).g(5);
  p.i(Op::OR, 5, 5, 8).g(6);
  p.stg(1, OUT, 4).stg(1, OUT + 0x100, 5).exit();
  rig.load(p);
  ASSERT_TRUE(rig.run(32).ok());
  uint32_t ballot = 0;
  for (uint32_t l = 0; l < 20; ++l)
    if (l % 3 == 0) ballot |= 1u << l;
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(rig.mem.read32(OUT + 4 * l), l < 20 ? ballot : 0xEEEEu) << l;
    uint32_t want = 1 | 4 | (l < 20 && l % 3 == 0 ? 8 : 0);  // ANY yes, ALL no, ANY(!P1) yes
    EXPECT_EQ(rig.mem.read32(OUT + 0x100 + 4 * l), want) << l;
  }
}

// ---- special registers --------------------------------------------------------
TEST(IssSreg, GridAndBlock3D) {
  Rig rig;
  rig.lp.smid = 3;
  const iss::Dim3 grid{3, 2, 2}, block{5, 3, 4};  // 60 threads: a partial second warp
  const int kSr = 15;
  Prog p;
  // global linear thread id -> out slot base
  p.s2r(0, isa::SR_TID_X).s2r(1, isa::SR_TID_Y).s2r(2, isa::SR_TID_Z);
  p.s2r(3, isa::SR_CTAID_X).s2r(4, isa::SR_CTAID_Y).s2r(5, isa::SR_CTAID_Z);
  // lin = ((cz*2 + cy)*3 + cx)*60 + (tz*3 + ty)*5 + tx
  p.i(Op::IMUL, 6, 5, 2).r(Op::IADD, 6, 6, 4).i(Op::IMUL, 6, 6, 3).r(Op::IADD, 6, 6, 3);
  p.i(Op::IMUL, 6, 6, 60);
  p.i(Op::IMUL, 7, 2, 3).r(Op::IADD, 7, 7, 1).i(Op::IMUL, 7, 7, 5).r(Op::IADD, 7, 7, 0);
  p.r(Op::IADD, 6, 6, 7).i(Op::IMUL, 6, 6, kSr * 4);
  for (int sr = 0; sr < kSr; ++sr) p.s2r(8, uint8_t(sr)).stg(6, A + 4 * sr, 8);
  p.exit();
  rig.load(p);
  auto r = rig.run(grid, block);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  EXPECT_EQ(r.stats.ctas, 12u);
  for (uint32_t cz = 0; cz < 2; ++cz)
    for (uint32_t cy = 0; cy < 2; ++cy)
      for (uint32_t cx = 0; cx < 3; ++cx)
        for (uint32_t tz = 0; tz < 4; ++tz)
          for (uint32_t ty = 0; ty < 3; ++ty)
            for (uint32_t tx = 0; tx < 5; ++tx) {
              uint32_t t = (tz * 3 + ty) * 5 + tx;
              uint32_t lin = ((cz * 2 + cy) * 3 + cx) * 60 + t;
              const uint32_t want[kSr] = {tx, ty, tz, 5, 3, 4, cx, cy, cz, 3, 2, 2, t % 32, t / 32, 3};
              for (int sr = 0; sr < kSr; ++sr)
                ASSERT_EQ(rig.mem.read32(A + lin * kSr * 4 + 4 * sr), want[sr])
                    << isa::sreg_name(uint8_t(sr)) << " thread " << t << " cta " << cx << cy << cz;
            }
}

TEST(IssSreg, ClockCountsRetiredWarpInstructions) {
  // Two warps interleave: warp w's k-th instruction sees 2k + w retired before it.
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_CLOCK).s2r(1, isa::SR_CLOCKHI).nop().s2r(2, isa::SR_CLOCK);
  p.s2r(3, isa::SR_WARPID).i(Op::SHL, 3, 3, 4);
  p.stg(3, A, 0).stg(3, A + 4, 1).stg(3, A + 8, 2).exit();
  rig.load(p);
  auto r = rig.run(64);
  ASSERT_TRUE(r.ok());
  for (uint32_t w = 0; w < 2; ++w) {
    EXPECT_EQ(rig.mem.read32(A + 16 * w), w);
    EXPECT_EQ(rig.mem.read32(A + 16 * w + 4), 0u);
    EXPECT_EQ(rig.mem.read32(A + 16 * w + 8), 6 + w);
  }
  EXPECT_EQ(r.stats.warp_instrs, 2u * 10);
  EXPECT_EQ(r.stats.thread_instrs, 64u * 10);
  // ModelConfig::smid is used when the launch gives none.
  Rig r2;
  r2.cfg.smid = 9;
  Prog q;
  q.s2r(0, isa::SR_SMID).stg(RZ, A, 0).exit();
  r2.load(q);
  ASSERT_TRUE(r2.run(1).ok());
  EXPECT_EQ(r2.mem.read32(A), 9u);
}

// ---- host side ---------------------------------------------------------------
TEST(IssHost, DeviceMemoryBoundsThrow) {
  iss::DeviceMemory m(64);
  m.write32(60, 0x01020304);
  EXPECT_EQ(m.read32(60), 0x01020304u);
  EXPECT_EQ(m.bytes()[60], 0x04);  // little-endian
  uint8_t buf[8] = {};
  EXPECT_THROW(m.read32(61), std::out_of_range);
  EXPECT_THROW(m.write32(62, 0), std::out_of_range);
  EXPECT_THROW(m.read(60, buf, 5), std::out_of_range);
  EXPECT_THROW(m.write(0xFFFFFFFF, buf, 2), std::out_of_range);
  EXPECT_NO_THROW(m.read(64, buf, 0));
  m.write(0, "\x01\x02", 2);
  m.read(0, buf, 2);
  EXPECT_EQ(buf[1], 2);
}

TEST(IssHost, InvalidLaunchesAreRejectedBeforeRunning) {
  Prog p;
  p.mov(2, 1).stg(RZ, A, 2).exit();
  auto expect_error = [&](const std::function<void(Rig&)>& spoil, const char* what) {
    Rig rig;
    rig.load(p);
    spoil(rig);
    auto r = rig.run(rig.lp.grid, rig.lp.block);
    EXPECT_TRUE(r.launch_error) << what;
    EXPECT_FALSE(r.ok()) << what;
    EXPECT_FALSE(r.launch_error_message.empty()) << what;
    EXPECT_EQ(r.fault.kind, iss::FaultKind::NONE) << what;
    EXPECT_EQ(r.stats.warp_instrs, 0u) << what;
    EXPECT_EQ(rig.mem.read32(A), 0u) << what;
  };
  expect_error([](Rig& r) { r.lp.block = {0, 1, 1}; }, "block x 0");
  expect_error([](Rig& r) { r.lp.block = {32, 1, 0}; }, "block z 0");
  expect_error([](Rig& r) { r.lp.block = {1025, 1, 1}; }, "1025 threads");
  expect_error([](Rig& r) { r.lp.block = {16, 16, 5}; }, "1280 threads");
  expect_error([](Rig& r) { r.lp.grid = {1, 0, 1}; }, "grid y 0");
  expect_error([](Rig& r) { r.lp.regs_per_thread = 0; }, "0 regs");
  expect_error([](Rig& r) { r.lp.regs_per_thread = 64; }, "64 regs");
  expect_error([](Rig& r) { r.lp.code_base = Rig::kMemSize - 8; }, "code past memory");
  expect_error([](Rig& r) { r.lp.code_size = 0; }, "no code");
  expect_error([](Rig& r) { r.lp.param_addr = Rig::kMemSize - 4, r.lp.param_size = 8; }, "params");
  expect_error([](Rig& r) { r.lp.windows.push_back({Rig::kMemSize - 16, 32}); }, "window");
  expect_error([](Rig& r) { r.cfg.stack_depth = 0; }, "stack depth 0");
  // The same launch with sane values runs.
  Rig ok;
  ok.load(p);
  ok.lp.block = {1024, 1, 1};
  ok.lp.regs_per_thread = 63;
  auto r = ok.run(ok.lp.grid, ok.lp.block);
  EXPECT_TRUE(r.ok()) << r.launch_error_message;
  EXPECT_EQ(ok.mem.read32(A), 1u);
}

TEST(IssHost, FaultNamesAndDescribe) {
  EXPECT_STREQ(iss::fault_kind_name(iss::FaultKind::OUT_OF_WINDOW), "OUT_OF_WINDOW");
  EXPECT_STREQ(iss::fault_kind_name(iss::FaultKind::BARRIER_DEADLOCK), "BARRIER_DEADLOCK");
  EXPECT_STREQ(iss::fault_kind_name(iss::FaultKind::WATCHDOG), "WATCHDOG");
  EXPECT_STREQ(iss::fault_kind_name(iss::FaultKind::NONE), "NONE");
  iss::FaultInfo f;
  f.kind = iss::FaultKind::OUT_OF_WINDOW;
  f.pc = 0x1048;
  f.cta = {1, 0, 0};
  f.warp = 2;
  f.lane = 5;
  f.addr = 0xff0000;
  f.detail = "store of 4 bytes outside every window";
  EXPECT_EQ(f.describe(),
            "OUT_OF_WINDOW at pc 0x00001048 (cta (1,0,0) warp 2 lane 5) address 0x00ff0000: "
            "store of 4 bytes outside every window");
  f.kind = iss::FaultKind::TRAP;
  f.detail.clear();
  EXPECT_EQ(f.describe(), "TRAP at pc 0x00001048 (cta (1,0,0) warp 2 lane 5)");
}

}  // namespace
