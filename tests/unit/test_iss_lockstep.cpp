// iss::LockstepModel: the functional model stepped in an order the caller
// chooses, with several CTAs resident at once (the lockstep checker's
// reference). Stepping reduce_sum (shared memory, barriers, a divergent
// tail) in a seeded random interleaving of warps and CTAs must give the same
// memory and retire stream shape as FunctionalModel::run; impossible orders
// and faults are reported.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "isa/assembler.h"
#include "isa/iss.h"

namespace {

using namespace baresm;

constexpr uint32_t kMem = 1u << 20, kCode = 0x1000, kParam = 0x8000, kIn = 0x10000, kOut = 0x40000;

struct Rig {
  iss::DeviceMemory mem{kMem};
  iss::LaunchParams p;
};

Rig reduce_rig(uint32_t n, uint32_t ctas) {
  std::ifstream f(std::string(BARESM_SOURCE_DIR) + "/kernels/reduce_sum.s");
  std::stringstream ss;
  ss << f.rdbuf();
  auto a = isa::assemble(ss.str(), "reduce_sum.s");
  EXPECT_TRUE(a.ok()) << a.format_errors();
  Rig r;
  const auto& k = a.module.kernels.at(0);
  for (size_t i = 0; i < a.module.code.size(); i++)
    for (int b = 0; b < 8; b++) r.mem.bytes()[kCode + i * 8 + size_t(b)] = uint8_t(a.module.code[i] >> (8 * b));
  for (uint32_t i = 0; i < n; i++) r.mem.write32(kIn + 4 * i, i * 2654435761u);
  r.mem.write32(kParam, kIn);
  r.mem.write32(kParam + 4, kOut);
  r.mem.write32(kParam + 8, n);
  r.p.entry_pc = kCode + k.entry;
  r.p.code_base = kCode;
  r.p.code_size = uint32_t(a.module.code.size() * 8);
  r.p.grid = iss::Dim3{ctas, 1, 1};
  r.p.block = iss::Dim3{128, 1, 1};
  r.p.param_addr = kParam;
  r.p.param_size = 12;
  r.p.regs_per_thread = k.regs;
  r.p.shared_bytes = k.shared_bytes;
  r.p.windows = {iss::Window{kIn, 4 * n}, iss::Window{kOut, 4 * ctas}};
  return r;
}

TEST(LockstepModel, RandomInterleavingMatchesRun) {
  Rig ref = reduce_rig(1000, 4);
  iss::FunctionalModel fm(ref.mem);
  uint64_t ref_instrs = 0;
  fm.set_retire_callback([&](const iss::RetireEvent&) { ref_instrs++; });
  ASSERT_TRUE(fm.run(ref.p).ok());

  for (uint64_t seed = 1; seed <= 5; seed++) {
    Rig r = reduce_rig(1000, 4);
    iss::LockstepModel lm(r.mem, iss::ModelConfig{}, r.p);
    ASSERT_TRUE(lm.launch_error().empty());
    std::mt19937_64 rng(seed);
    // Up to 3 CTAs resident; a new one starts when one finishes.
    std::vector<uint32_t> resident;
    uint32_t next = 0;
    while (lm.ctas_finished() < 4) {
      while (resident.size() < 3 && next < 4) resident.push_back(next++);
      const uint32_t c = resident[rng() % resident.size()];
      std::vector<uint32_t> runnable;
      for (uint32_t w = 0; w < 4; w++) {
        const auto v = lm.warp(c, w);
        if (v.exists && !v.exited && !v.waiting) runnable.push_back(w);
      }
      if (runnable.empty()) {  // the CTA is over
        resident.erase(std::find(resident.begin(), resident.end(), c));
        continue;
      }
      ASSERT_TRUE(lm.step(c, runnable[rng() % runnable.size()], nullptr)) << lm.fault().describe();
    }
    EXPECT_EQ(lm.steps(), ref_instrs) << "seed " << seed;
    EXPECT_EQ(r.mem.bytes(), ref.mem.bytes()) << "seed " << seed;
  }
}

TEST(LockstepModel, ImpossibleOrdersAreReported) {
  Rig r = reduce_rig(256, 1);
  iss::LockstepModel lm(r.mem, iss::ModelConfig{}, r.p);
  EXPECT_FALSE(lm.warp(0, 4).exists);  // 128 threads: warps 0..3
  EXPECT_FALSE(lm.warp(1, 0).exists);  // one CTA
  // Warp 0 runs to its first barrier and then may not be stepped.
  iss::RetireEvent ev;
  while (!lm.warp(0, 0).waiting) ASSERT_TRUE(lm.step(0, 0, &ev));
  EXPECT_EQ(ev.instr.op, isa::Op::BAR);
  EXPECT_FALSE(lm.step(0, 0, nullptr));
  EXPECT_NE(lm.fault().detail.find("waits at a barrier"), std::string::npos) << lm.fault().detail;
}

TEST(LockstepModel, FaultsAreTheModelsFaults) {
  Rig r = reduce_rig(256, 1);
  r.p.windows.resize(1);  // out[] is outside every window now
  iss::LockstepModel lm(r.mem, iss::ModelConfig{}, r.p);
  bool faulted = false;
  for (int guard = 0; guard < 100000 && !faulted; guard++)
    for (uint32_t w = 0; w < 4 && !faulted; w++) {
      const auto v = lm.warp(0, w);
      if (!v.exited && !v.waiting) faulted = !lm.step(0, w, nullptr);
    }
  ASSERT_TRUE(faulted);
  EXPECT_EQ(lm.fault().kind, iss::FaultKind::OUT_OF_WINDOW) << lm.fault().describe();
  EXPECT_EQ(lm.fault().addr, kOut);
  EXPECT_FALSE(lm.step(0, 0, nullptr));  // no steps after a fault
}

TEST(LockstepModel, InvalidLaunch) {
  Rig r = reduce_rig(256, 1);
  r.p.block = iss::Dim3{0, 1, 1};
  iss::LockstepModel lm(r.mem, iss::ModelConfig{}, r.p);
  EXPECT_FALSE(lm.launch_error().empty());
  EXPECT_FALSE(lm.warp(0, 0).exists);
}

}  // namespace
