// Constrained-random programs (isa/progen.h) on the verilated SM of this
// build's configuration, each in lockstep with the functional model
// (sim/harness/lockstep.h): every issued instruction, register, predicate
// and global store is compared as it happens, then the fault and memory.
// Normal profiles must end without a fault, fault profiles with exactly
// their fault (and the model's report of it).
//
// `make test` runs a fixed slice of seeds per profile (RANDOM_SEEDS_PER_PROFILE,
// set per configuration in tests/rtl_sm/CMakeLists.txt); the soak
// (scripts/soak.sh, `make soak`) runs the same binary over a seed range:
//   BARESM_SOAK_SEEDS=FIRST:COUNT  the seeds of every profile
//   BARESM_SOAK_SHARD=I/N          only seeds with seed % N == I
// Every failure prints the seed and the command that reproduces it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "isa/progen.h"
#include "sim/harness/lockstep.h"
#include "sim/harness/sm_harness.h"

#ifndef RTL_SM_CONFIG
#define RTL_SM_CONFIG "unknown"
#endif
#ifndef RANDOM_SEEDS_PER_PROFILE
#define RANDOM_SEEDS_PER_PROFILE 2
#endif


#ifndef RTL_SM_BUDGET_SCALE
#define RTL_SM_BUDGET_SCALE 1   // the hardwired SMs' budgets
#endif
namespace {

using namespace baresm;

sim::SmHarness& harness() {
  static sim::SmHarness h(sim::make_sm_dut());
  return h;
}

progen::ProgenLimits limits_of(const sim::SmParams& p) {
  progen::ProgenLimits l;
  l.max_threads_per_block = std::min<uint32_t>(256, p.warps * 32);
  l.max_warps_per_cta = p.warps;
  l.stack_depth = p.stack_depth;
  l.max_shared_bytes = p.shared_bytes;
  l.max_windows = p.windows;
  l.max_regs_per_thread = p.regs;
  l.has_fpu = p.has_fpu;  // without the FPU: integer programs only
  return l;
}

// The seeds this process runs for one profile: the fixed slice, or the soak's.
std::vector<uint64_t> seeds(size_t profile_index) {
  std::vector<uint64_t> v;
  uint64_t first = 1 + 1000 * profile_index, count = RANDOM_SEEDS_PER_PROFILE;
  uint64_t shard = 0, shards = 1;
  if (const char* s = std::getenv("BARESM_SOAK_SEEDS")) {
    unsigned long long a = 0, b = 0;
    if (std::sscanf(s, "%llu:%llu", &a, &b) == 2) first = a, count = b;
  }
  if (const char* s = std::getenv("BARESM_SOAK_SHARD")) {
    unsigned long long a = 0, b = 1;
    if (std::sscanf(s, "%llu/%llu", &a, &b) == 2 && b > 0) shard = a, shards = b;
  }
  for (uint64_t seed = first; seed < first + count; seed++)
    if (seed % shards == shard) v.push_back(seed);
  return v;
}

std::string test_name(std::string profile) {
  for (char& c : profile)
    if (c == '-') c = '_';
  return profile;
}

std::string reproduce(uint64_t seed, const std::string& profile) {
  return "reproduce: BARESM_SOAK_SEEDS=" + std::to_string(seed) + ":1 build/tests/rtl_sm/test_rtl_sm_random_" +
         RTL_SM_CONFIG + " --gtest_filter='*/" + test_name(profile) + "'   (the kernel: build/sim/" +
         progen::gen_command(seed, profile, limits_of(harness().params())) + ")";
}

// One program: generated, run on the model (the generator's own promise is
// checked first), then on the RTL in lockstep. Returns an empty string when
// it passed, else what went wrong.
std::string run_one(uint64_t seed, const std::string& profile, sim::LockstepStats* total) {
  const auto& sp = harness().params();
  const progen::GeneratedProgram g = progen::generate(seed, profile, limits_of(sp));
  const progen::ModelRun m = progen::run_on_model(g);
  if (!m.assembled) return "does not assemble: " + m.errors;
  if (m.result.fault.kind != g.expected_fault)
    return "the model ends in " + m.result.fault.describe() + ", the profile promises " +
           iss::fault_kind_name(g.expected_fault);

  iss::DeviceMemory dm(m.layout.memory_bytes);
  const iss::LaunchParams lp = progen::load_program(g, m.module, dm, m.layout);
  std::vector<uint8_t> mem = dm.bytes();
  sim::LockstepChecker lockstep(mem, lp, sp);
  sim::SmRunOptions opt;
  opt.observer = &lockstep;
  opt.gto = seed % 2 == 1;  // both scheduler policies
  opt.mem.min_latency = 1;
  opt.mem.max_latency = seed % 3 == 0 ? 120 : 6;
  opt.mem.out_of_order = seed % 3 == 0;
  opt.mem.ready_drop = seed % 3 == 0 ? 0.1 : 0.0;
  opt.mem.seed = seed;
  // The RTL's watchdog counts cycles: for normal programs generous, 4
  // cycles per beat of what the model issued (a warp-instruction is 32 /
  // lanes beats; a long program on a 1-lane SM takes millions of cycles),
  // at least 3 million; the model's budget in cycles for the endless loop of
  // fault-WATCHDOG.
  // RTL_SM_BUDGET_SCALE: the firmware SM (rtl/msm) takes that many times a
  // hardwired SM's cycles per warp-instruction (tests/rtl_sm/CMakeLists.txt).
  const uint64_t beats = 32 / sp.lanes;
  const uint64_t watchdog = RTL_SM_BUDGET_SCALE * (g.expected_fault == iss::FaultKind::WATCHDOG
                                ? 20'000
                                : std::max<uint64_t>(3'000'000, 4 * beats * m.result.stats.warp_instrs));
  opt.max_cycles = watchdog + 1'000'000;
  const sim::SmRunResult r = harness().run(sim::launch_from_params(lp, watchdog), mem, opt);
  const bool ok = lockstep.finish(r, mem);
  total->issues += lockstep.stats().issues;
  total->lane_values += lockstep.stats().lane_values;
  total->store_bytes += lockstep.stats().store_bytes;
  if (!ok) return lockstep.report();
  if (r.fault.kind != g.expected_fault)
    return "the RTL ends in " + r.fault.describe() + ", expected " + iss::fault_kind_name(g.expected_fault);
  return {};
}

class RandomOnRtl : public testing::TestWithParam<std::string> {};

TEST_P(RandomOnRtl, LockstepWithModel) {
  const std::string profile = GetParam();
  if (profile == "fpu" && !harness().params().has_fpu)
    GTEST_SKIP() << "the fpu profile needs the FPU; this SM has none (HasFpu 0): the other profiles run "
                    "integer programs only";
  const auto& all = progen::profiles();
  const size_t index = size_t(std::find(all.begin(), all.end(), profile) - all.begin());
  sim::LockstepStats total;
  size_t n = 0, failed = 0;
  for (uint64_t seed : seeds(index)) {
    const std::string why = run_one(seed, profile, &total);
    n++;
    if (!why.empty()) {
      failed++;
      ADD_FAILURE() << "seed " << seed << " profile " << profile << " on " << RTL_SM_CONFIG << ":\n"
                    << why << "\n" << reproduce(seed, profile);
      std::printf("[random-fail] config=%s profile=%s seed=%llu\n", RTL_SM_CONFIG, profile.c_str(),
                  (unsigned long long)seed);
    }
  }
  std::printf("[random] config=%s profile=%s programs=%zu failed=%zu issues=%llu lane_values=%llu store_bytes=%llu\n",
              RTL_SM_CONFIG, profile.c_str(), n, failed, (unsigned long long)total.issues,
              (unsigned long long)total.lane_values, (unsigned long long)total.store_bytes);
}

INSTANTIATE_TEST_SUITE_P(Profiles, RandomOnRtl, testing::ValuesIn(progen::profiles()),
                         [](const testing::TestParamInfo<std::string>& p) { return test_name(p.param); });

}  // namespace
