// System tests of the SM: every sample kernel (samples/, kernels/) runs on the
// verilated SM of this build's configuration and on the functional model,
// with the same seed and the same allocation sequence. A normal sample must
// pass its own reference check on the RTL and leave device memory
// byte-identical to the model's; a fault sample must report the model's
// fault kind, pc, CTA, warp and lane. Every launch also runs in lockstep
// with the model (sim/harness/lockstep.h): each issued instruction, register,
// predicate and global store is compared as it happens. Memory settings: "fast", in order
// with latencies 1..4, and "slow_ooo", latencies 1..200 with random stalls,
// back-pressure and out-of-order responses (seeded); CMake picks which ones
// each configuration runs (RTL_SM_MEMS) to keep the suite's time in bounds,
// so that every sample meets the slow memory on some configuration.
//
// On an SM smaller than a sample needs (micro: 16 registers per thread, 2 KB
// of shared memory, 128 threads per CTA, no FPU) the model runs with the same
// limits and the same has_fpu, and the sample must fail identically on both:
// refused by the same configuration check (module load or launch), or the
// same fault in lockstep: ILLEGAL_INSTR for FPU instructions on an SM without
// the FPU, STACK_OVERFLOW for divergence deeper than its stack (the model
// runs the sample clean at its default depth).
//
// Built once per SM configuration (tests/rtl_sm/CMakeLists.txt); the
// configuration's name is RTL_SM_CONFIG. Cycles and IPC of every sample are
// printed ("[perf]" lines) for docs/microarchitecture.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "samples/model_backend.h"
#include "samples/samples.h"
#include "sim/harness/rtl_backend.h"

#ifndef RTL_SM_CONFIG
#define RTL_SM_CONFIG "unknown"
#endif
// Memory settings this configuration runs: 0 every sample under both
// settings; 1 or 2 normal samples alternate between them (even samples slow
// with 1, odd ones with 2) and fault samples run both; 3 all fast.
#ifndef RTL_SM_MEMS
#define RTL_SM_MEMS 0
#endif

namespace {

using baresm::samples::all_samples;
using baresm::samples::ModelBackend;
using baresm::samples::ModelBackendConfig;
using baresm::samples::RunOptions;
using baresm::samples::Sample;
using baresm::sim::MemModelConfig;
using baresm::sim::RtlBackend;
using baresm::sim::RtlBackendConfig;

struct MemSetting {
  const char* name;
  MemModelConfig mem;
  bool gto;
};

MemSetting mem_setting(int i) {
  MemSetting s{};
  if (i == 0) {
    s.name = "fast";
    s.mem.min_latency = 1;
    s.mem.max_latency = 4;
    s.mem.seed = 11;
    s.gto = false;
  } else {
    s.name = "slow_ooo";
    s.mem.min_latency = 1;
    s.mem.max_latency = 200;
    s.mem.out_of_order = true;
    s.mem.ready_drop = 0.1;
    s.mem.stall_start = 0.01;
    s.mem.stall_min = 1;
    s.mem.stall_max = 40;
    s.mem.seed = 1234;
    s.gto = true;
  }
  return s;
}

struct Param {
  std::string sample;
  int mem;
};
void PrintTo(const Param& p, std::ostream* os) { *os << p.sample << " memory " << mem_setting(p.mem).name; }

std::string param_name(const testing::TestParamInfo<Param>& p) {
  return p.param.sample + "_" + mem_setting(p.param.mem).name;
}

class SampleOnRtl : public testing::TestWithParam<Param> {};

TEST_P(SampleOnRtl, MatchesModel) {
  const Sample* s = baresm::samples::find_sample(GetParam().sample);
  ASSERT_NE(s, nullptr);
  const MemSetting ms = mem_setting(GetParam().mem);
  RunOptions opts;
  opts.seed = 7;

  // The model, with the SM's stack depth and limits.
  RtlBackendConfig rc;
  rc.run.mem = ms.mem;
  rc.run.gto = ms.gto;
  rc.lockstep = true;
  RtlBackend rtl(baresm::sim::make_sm_dut(), rc);
  const auto& p = rtl.harness().params();
  ModelBackendConfig mc;
  mc.model.stack_depth = p.stack_depth;
  mc.model.has_fpu = p.has_fpu;
  mc.max_regs_per_thread = p.regs;
  mc.max_shared_per_cta = p.shared_bytes;
  mc.max_threads_per_cta = rtl.max_threads_per_cta();
  ModelBackend model(mc);

  const auto want = baresm::samples::run_sample(*s, model, opts);
  const auto got = baresm::samples::run_sample(*s, rtl, opts);
  if (want.passed) {
    EXPECT_TRUE(got.passed) << "rtl: " << got.message << "\n" << got.fault_report;
  } else {
    // Only an SM smaller than the sample needs may make the model fail it.
    const bool refused = want.message.rfind("load_module: NO_BINARY_FOR_DEVICE", 0) == 0 ||
                         want.message.rfind("backend launch failed: INVALID_VALUE", 0) == 0;
    const bool no_fpu = !p.has_fpu && want.faulted &&
                        want.fault.kind == baresm::iss::FaultKind::ILLEGAL_INSTR &&
                        want.fault.detail.find("needs the FPU") != std::string::npos;
    // A normal sample whose divergence is deeper than this SM's stack: the
    // model must run it clean with the model's default depth.
    bool too_deep = false;
    if (!s->is_fault && want.faulted && want.fault.kind == baresm::iss::FaultKind::STACK_OVERFLOW) {
      ModelBackendConfig deep = mc;
      deep.model.stack_depth = baresm::iss::ModelConfig{}.stack_depth;
      ModelBackend deep_model(deep);
      const auto r = baresm::samples::run_sample(*s, deep_model, opts);
      too_deep = r.passed;
      EXPECT_TRUE(r.passed) << "model with stack depth " << deep.model.stack_depth << ": " << r.message;
    }
    ASSERT_TRUE(refused || no_fpu || too_deep) << "model: " << want.message;
    EXPECT_FALSE(got.passed) << "the model fails this sample (" << want.message << "), the rtl passes it";
    if (refused) {
      EXPECT_EQ(got.message, want.message);
    }
    std::printf("[limits] config=%s sample=%s %s: %s\n", RTL_SM_CONFIG, s->name.c_str(),
                refused ? "refused on both" : too_deep ? "STACK_OVERFLOW on both" : "ILLEGAL_INSTR on both (no FPU)",
                want.message.c_str());
  }
  ASSERT_EQ(got.launches.size(), want.launches.size());
  // Every launch ran in lockstep with the model, every instruction checked.
  ASSERT_EQ(rtl.lockstep_runs().size(), rtl.runs().size());
  uint64_t issues = 0, lanes = 0, bytes = 0;
  for (const auto& lr : rtl.lockstep_runs()) {
    EXPECT_TRUE(lr.ok) << lr.report;
    issues += lr.stats.issues;
    lanes += lr.stats.lane_values;
    bytes += lr.stats.store_bytes;
  }
  if (!want.launches.empty()) {
    EXPECT_GT(issues, 0u);
  }
  std::printf("[lockstep] config=%s sample=%s issues=%llu lane_values=%llu store_bytes=%llu\n", RTL_SM_CONFIG,
              s->name.c_str(), (unsigned long long)issues, (unsigned long long)lanes, (unsigned long long)bytes);

  for (size_t i = 0; i < want.launches.size(); i++) {
    const auto& wf = want.launches[i].report.fault;
    const auto& gf = got.launches[i].report.fault;
    EXPECT_EQ(int(gf.kind), int(wf.kind)) << "launch " << i << ": rtl " << gf.describe() << ", model "
                                          << wf.describe();
    if (wf.kind == gf.kind && !wf.ok()) {
      EXPECT_EQ(gf.pc, wf.pc) << "launch " << i;
      EXPECT_EQ(gf.cta.x, wf.cta.x);
      EXPECT_EQ(gf.cta.y, wf.cta.y);
      EXPECT_EQ(gf.cta.z, wf.cta.z);
      // A deadlock names a waiting warp; which one depends on arrival order.
      if (wf.kind != baresm::iss::FaultKind::BARRIER_DEADLOCK) {
        EXPECT_EQ(gf.warp, wf.warp);
        EXPECT_EQ(gf.lane, wf.lane);
      } else {
        EXPECT_EQ(gf.waiting_warps, wf.waiting_warps);
      }
      if (wf.kind == baresm::iss::FaultKind::OUT_OF_WINDOW || wf.kind == baresm::iss::FaultKind::MISALIGNED) {
        EXPECT_EQ(gf.addr, wf.addr);
      }
    }
  }

  // Device memory: identical everywhere.
  const auto& a = model.memory().bytes();
  const auto& b = rtl.memory();
  ASSERT_EQ(a.size(), b.size());
  size_t diffs = 0, first = 0;
  for (size_t i = 0; i < a.size(); i++) {
    if (a[i] != b[i]) {
      if (!diffs) first = i;
      diffs++;
    }
  }
  EXPECT_EQ(diffs, 0u) << diffs << " bytes differ, first at 0x" << std::hex << first << ": model 0x"
                       << int(a[first]) << " rtl 0x" << int(b[first]);

  uint64_t cycles = 0, instrs = 0;
  for (const auto& r : rtl.runs()) {
    cycles += r.counters.cycles;
    instrs += r.counters.instrs;
  }
  std::printf("[perf] config=%s sample=%s mem=%s launches=%zu cycles=%llu warp_instrs=%llu ipc=%.3f\n",
              RTL_SM_CONFIG, s->name.c_str(), ms.name, rtl.runs().size(), (unsigned long long)cycles,
              (unsigned long long)instrs, cycles ? double(instrs) / double(cycles) : 0.0);
}

std::vector<Param> all_params() {
  std::vector<Param> v;
  const int mode = RTL_SM_MEMS;
  int i = 0;
  for (const auto& s : all_samples()) {
    const bool slow = (mode == 1 && i % 2 == 0) || (mode == 2 && i % 2 == 1);
    if (mode == 0 || (s.is_fault && mode != 3)) {
      v.push_back(Param{s.name, 0});
      v.push_back(Param{s.name, 1});
    } else {
      v.push_back(Param{s.name, slow ? 1 : 0});
    }
    i++;
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleOnRtl, testing::ValuesIn(all_params()), param_name);

}  // namespace
