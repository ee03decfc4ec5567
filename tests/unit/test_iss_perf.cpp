// Functional-model throughput, printed (never asserted: timing is not a test).
// The results are checked, so the measured loops really run.
//   build-<dir>/tests/test_iss_perf     -> "ALU: ... M thread-instr/s"
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "test_iss_util.h"

using namespace isstest;

namespace {

constexpr uint32_t OUT = Rig::kData;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void report(const char* what, const iss::LaunchResult& r, double s) {
  std::printf("%s: %.1f M thread-instr/s, %.2f M warp-instr/s (%llu thread-instrs in %.3f s)\n", what,
              r.stats.thread_instrs / s / 1e6, r.stats.warp_instrs / s / 1e6,
              (unsigned long long)r.stats.thread_instrs, s);
}

TEST(IssPerf, AluLoop) {
  // x = tid; repeat N times: x = x*1664525 + 1013904223; y ^= x >> 7; y += x & 0xFF; ...
  const uint32_t kIters = 1500;
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_TID_X).s2r(1, isa::SR_CTAID_X).i(Op::SHL, 2, 1, 8).r(Op::IADD, 2, 2, 0);
  p.r(Op::IADD, 3, 2, RZ).mov(4, 0).mov(5, kIters);
  p.L("loop");
  p.i(Op::IMUL, 3, 3, 1664525).i(Op::IADD, 3, 3, 1013904223);
  p.i(Op::SHR, 6, 3, 7).r(Op::XOR, 4, 4, 6);
  p.i(Op::AND, 6, 3, 0xFF).r(Op::IADD, 4, 4, 6);
  p.i(Op::SHL, 6, 4, 3).r(Op::IMIN, 7, 6, 3, RZ, 1).r(Op::IMAD, 4, 7, 6, 4);
  p.i(Op::ISUB, 5, 5, 1).isetp(isa::CMP_NE, 0, 5, 0).bra("loop", "done").g(0);
  p.L("done").i(Op::SHL, 2, 2, 2).stg(2, OUT, 4).exit();
  rig.load(p);
  const iss::Dim3 grid{16, 1, 1}, block{256, 1, 1};
  auto t0 = std::chrono::steady_clock::now();
  auto r = rig.run(grid, block);
  double s = seconds_since(t0);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  report("ALU", r, s);
  // The same launch with a retire callback attached (what lockstep co-simulation pays).
  uint64_t events = 0, stores = 0;
  iss::FunctionalModel m(rig.mem, rig.cfg);
  m.set_retire_callback([&](const iss::RetireEvent& e) {
    ++events;
    stores += e.stores.size();
  });
  t0 = std::chrono::steady_clock::now();
  auto rc = m.run(rig.lp);
  s = seconds_since(t0);
  ASSERT_TRUE(rc.ok());
  EXPECT_EQ(events, rc.stats.warp_instrs);
  EXPECT_EQ(stores, 16u * 256);
  report("ALU with retire callback", rc, s);
  // Reference in plain C++.
  for (uint32_t t = 0; t < 16 * 256; t += 97) {
    uint32_t x = t, y = 0;
    for (uint32_t k = 0; k < kIters; ++k) {
      x = x * 1664525u + 1013904223u;
      y ^= x >> 7;
      y += x & 0xFF;
      uint32_t a = y << 3, m = std::min(a, x);
      y = m * a + y;
    }
    EXPECT_EQ(rig.mem.read32(OUT + 4 * t), y) << t;
  }
}

TEST(IssPerf, FpLoop) {
  // x = tid * 0.001; repeat: x = x * 0.999 + 0.5; y = y + x * x (FFMA), via fp32 only.
  const uint32_t kIters = 300;
  auto bits = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  };
  Rig rig;
  Prog p;
  p.s2r(0, isa::SR_TID_X).s2r(1, isa::SR_CTAID_X).i(Op::SHL, 2, 1, 8).r(Op::IADD, 2, 2, 0);
  p.r(Op::I2F, 3, 2).i(Op::FMUL, 3, 3, bits(0.001f)).mov(4, 0).mov(5, kIters).mov(8, bits(0.5f));
  p.mov(9, bits(0.999f));
  p.L("loop").r(Op::FFMA, 3, 3, 9, 8).r(Op::FFMA, 4, 3, 3, 4).i(Op::FADD, 6, 4, bits(1.0f));
  p.r(Op::FMIN, 4, 4, 6);
  p.i(Op::ISUB, 5, 5, 1).isetp(isa::CMP_NE, 0, 5, 0).bra("loop", "done").g(0);
  p.L("done").i(Op::SHL, 2, 2, 2).stg(2, OUT, 4).exit();
  rig.load(p);
  auto t0 = std::chrono::steady_clock::now();
  auto r = rig.run({16, 1, 1}, {256, 1, 1});
  double s = seconds_since(t0);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  report("FP (FFMA/FADD/FMIN loop)", r, s);
  for (uint32_t t = 0; t < 16 * 256; t += 101) {
    float x = float(int32_t(t)) * 0.001f, y = 0;
    for (uint32_t k = 0; k < kIters; ++k) {
      x = std::fma(x, 0.999f, 0.5f);
      y = std::fma(x, x, y);
      y = std::min(y, y + 1.0f);
    }
    EXPECT_EQ(rig.mem.read32(OUT + 4 * t), bits(y)) << t;
  }
}

TEST(IssPerf, DivergentMemoryLoop) {
  // Each thread sums a[i] over a divergent trip count and accumulates into
  // shared memory with atomics: loads, branches, atomics, barriers.
  Rig rig;
  rig.lp.shared_bytes = 1024;
  for (uint32_t k = 0; k < 4096; ++k) rig.mem.write32(Rig::kData + 0x10000 + 4 * k, k * 3 + 1);
  Prog p;
  p.s2r(0, isa::SR_TID_X).i(Op::AND, 5, 0, 63).i(Op::IADD, 5, 5, 64).mov(4, 0).mov(6, 0);
  p.i(Op::SHL, 8, 0, 2);
  p.L("loop").i(Op::AND, 7, 6, 4095).i(Op::SHL, 7, 7, 2).ldg(9, 7, Rig::kData + 0x10000);
  p.r(Op::IADD, 4, 4, 9).i(Op::IADD, 6, 6, 1).isetpr(isa::CMP_LT, 0, 6, 5).bra("loop", "done").g(0);
  p.L("done").i(Op::AND, 10, 8, 1020).atom(Op::ATOMS, isa::ATOM_ADD, RZ, 10, 0, 4);
  p.bar(0).ld(Op::LDS, isa::LDW_32, 11, 8, 0).s2r(1, isa::SR_CTAID_X).i(Op::SHL, 1, 1, 10);
  p.r(Op::IADD, 1, 1, 8).stg(1, OUT, 11).exit();
  rig.load(p);
  auto t0 = std::chrono::steady_clock::now();
  auto r = rig.run({64, 1, 1}, {256, 1, 1});
  double s = seconds_since(t0);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  report("divergent loads + atomics", r, s);
  // Thread t sums (3k+1) for k < 64 + t%64; shared[t] gets it (t < 256 distinct slots).
  for (uint32_t t = 0; t < 256; t += 17) {
    uint32_t n = 64 + t % 64, sum = 0;
    for (uint32_t k = 0; k < n; ++k) sum += 3 * k + 1;
    EXPECT_EQ(rig.mem.read32(OUT + 4 * t), sum) << t;
  }
}

}  // namespace
