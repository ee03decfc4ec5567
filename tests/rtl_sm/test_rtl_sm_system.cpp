// System tests of the SM: every sample kernel (samples/, kernels/) runs on the
// verilated SM of this build's configuration and on the functional model,
// both through the host driver (drv::Device): the SM as
// sim::BareSmTransport, the model as the functional device model configured
// like the SM. Same seed, same driver calls, so the driver's allocator gives
// both the same addresses. A normal sample must pass its own reference check
// on the RTL and leave device memory byte-identical to the model's outside
// the driver's protected range (rings, descriptors, parameters, code: no
// kernel can write there, and the completion entries differ by design in
// their cycle counts); a fault sample must report the model's fault kind,
// pc, CTA, warp and lane. Every launch also runs in lockstep
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
// refused by the same check of the driver (module load: registers, or FPU
// instructions on an SM without the FPU; launch: block size, windows,
// register file), or the same fault in lockstep: STACK_OVERFLOW for
// divergence deeper than its stack (the model runs the sample clean at its
// default depth). ILLEGAL_INSTR for an FPU instruction on the SM without the
// FPU is the directed kernel FpuInstructionsNeedTheFpu's (the driver never
// loads such a module).
//
// Built once per SM configuration (tests/rtl_sm/CMakeLists.txt); the
// configuration's name is RTL_SM_CONFIG. Cycles and IPC of every sample are
// printed ("[perf]" lines) for docs/microarchitecture.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "host_driver/model_transport.h"
#include "host_driver/devices.h"
#include "samples/samples.h"
#include "sim/harness/bare_sm_transport.h"

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
using baresm::samples::RunOptions;
using baresm::samples::Sample;
using baresm::sim::BareSmConfig;
using baresm::sim::BareSmTransport;
using baresm::sim::MemModelConfig;

// Watchdog budgets of a launch that asks for the default: SM cycles on the
// RTL, warp-instructions on the model.
constexpr uint32_t kRtlWatchdog = baresm::drv::kDefaultWatchdogCycles;
constexpr uint32_t kModelWatchdog = baresm::drv::kDefaultWatchdogInstrs;
// Beyond the watchdog only a stuck device needs the driver's own timeout.
constexpr uint64_t kSyncTimeoutNs = 10'000'000'000ull;

std::unique_ptr<baresm::drv::OpenDevice> open_backend(std::unique_ptr<baresm::drv::Transport> t, const char* name,
                                                       uint32_t watchdog) {
  baresm::drv::DeviceOptions o;
  o.watchdog = watchdog;
  o.sync_timeout_ns = kSyncTimeoutNs;
  std::string error;
  auto d = baresm::drv::open_device(name, std::move(t), o, &error);
  EXPECT_TRUE(d) << error;
  return d;
}

// The functional device model configured like the SM, stack depth and FPU included.
std::unique_ptr<baresm::drv::OpenDevice> open_model(const baresm::cq::ModelDeviceConfig& cfg) {
  return open_backend(std::make_unique<baresm::drv::ModelTransport>(cfg), "model", kModelWatchdog);
}

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

  BareSmConfig rc;
  rc.sm.run.mem = ms.mem;
  rc.sm.run.gto = ms.gto;
  rc.sm.lockstep = true;
  auto rtl_t = std::make_unique<BareSmTransport>(baresm::sim::make_sm_dut(), rc);
  BareSmTransport& bare = *rtl_t;
  const auto& p = bare.params();
  const baresm::cq::ModelDeviceConfig mc = BareSmTransport::device_config(p, rc.mem_bytes);
  auto rtl = open_backend(std::move(rtl_t), "rtl", kRtlWatchdog);
  auto model = open_model(mc);
  ASSERT_TRUE(rtl && model);
  const auto& sm = bare.sm();

  const auto want = baresm::samples::run_sample(*s, model->device, opts);
  const auto got = baresm::samples::run_sample(*s, rtl->device, opts);
  if (want.passed) {
    EXPECT_TRUE(got.passed) << "rtl: " << got.message << "\n"
                            << got.fault_report << sm.outcome().internal_message;
  } else {
    // Only an SM smaller than the sample needs may make the model fail it.
    // (The driver refuses a block larger than the SM as INVALID_CONFIGURATION,
    // too many windows as INVALID_VALUE, registers that do not fit as
    // LAUNCH_OUT_OF_RESOURCES.)
    const bool refused = want.message.rfind("module_load_data failed: NO_BINARY_FOR_DEVICE", 0) == 0 ||
                         want.message.rfind("launch failed: INVALID_CONFIGURATION", 0) == 0 ||
                         want.message.rfind("launch failed: INVALID_VALUE", 0) == 0 ||
                         want.message.rfind("launch failed: LAUNCH_OUT_OF_RESOURCES", 0) == 0;
    // A normal sample whose divergence is deeper than this SM's stack: the
    // model must run it clean with the model's default depth.
    bool too_deep = false;
    if (!s->is_fault && want.faulted && want.fault.kind == baresm::iss::FaultKind::STACK_OVERFLOW) {
      baresm::cq::ModelDeviceConfig deep = mc;
      deep.stack_depth = baresm::iss::ModelConfig{}.stack_depth;
      auto deep_model = open_model(deep);
      const auto r = baresm::samples::run_sample(*s, deep_model->device, opts);
      too_deep = r.passed;
      EXPECT_TRUE(r.passed) << "model with stack depth " << deep.stack_depth << ": " << r.message;
    }
    ASSERT_TRUE(refused || too_deep) << "model: " << want.message;
    EXPECT_FALSE(got.passed) << "the model fails this sample (" << want.message << "), the rtl passes it";
    if (refused) {
      EXPECT_EQ(got.message, want.message);
    }
    std::printf("[limits] config=%s sample=%s %s: %s\n", RTL_SM_CONFIG, s->name.c_str(),
                refused ? "refused on both" : "STACK_OVERFLOW on both",
                want.message.c_str());
  }
  ASSERT_EQ(got.launches.size(), want.launches.size());
  // Every launch ran in lockstep with the model, every instruction checked.
  ASSERT_EQ(sm.lockstep_runs().size(), sm.runs().size());
  uint64_t issues = 0, lanes = 0, bytes = 0;
  for (const auto& lr : sm.lockstep_runs()) {
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
    const auto& wf = want.launches[i].fault;
    const auto& gf = got.launches[i].fault;
    EXPECT_EQ(int(gf.kind), int(wf.kind)) << "launch " << i << ": rtl " << gf.describe() << ", model "
                                          << wf.describe();
    if (wf.kind == gf.kind && !wf.ok()) {
      EXPECT_EQ(gf.pc, wf.pc) << "launch " << i;
      EXPECT_EQ(gf.cta.x, wf.cta.x);
      EXPECT_EQ(gf.cta.y, wf.cta.y);
      EXPECT_EQ(gf.cta.z, wf.cta.z);
      // A deadlock names a waiting warp; which one depends on arrival order.
      // Otherwise the fault names the warp that got there first, which is
      // the schedule's choice when several warps would fault at this pc:
      // the model interleaves a CTA's warps one instruction at a time, the
      // SM as its pipeline and memory let it. The lockstep run above (ok)
      // checked the RTL's warp, lane and address exactly against the model
      // stepped in the RTL's own issue order; here the same warp must name
      // the same lane and address.
      if (wf.kind == baresm::iss::FaultKind::BARRIER_DEADLOCK) {
        EXPECT_EQ(gf.waiting_warps, wf.waiting_warps);
      } else if (gf.warp == wf.warp) {
        EXPECT_EQ(gf.lane, wf.lane);
        if (wf.kind == baresm::iss::FaultKind::OUT_OF_WINDOW || wf.kind == baresm::iss::FaultKind::MISALIGNED) {
          EXPECT_EQ(gf.addr, wf.addr);
        }
      } else {
        std::printf("[schedule] config=%s sample=%s launch %zu: rtl %s, model %s (the lockstep run checked the "
                    "rtl's)\n", RTL_SM_CONFIG, s->name.c_str(), i, gf.describe().c_str(), wf.describe().c_str());
      }
    }
  }

  // Device memory: identical outside the driver's protected range (which
  // both drivers placed alike).
  const auto& mp = model->device.props();
  const auto& rp = rtl->device.props();
  ASSERT_EQ(mp.protected_base, rp.protected_base);
  ASSERT_EQ(mp.protected_bytes, rp.protected_bytes);
  ASSERT_GT(mp.protected_bytes, 0u);
  auto& model_t = static_cast<baresm::drv::ModelTransport&>(*model->transport);
  const auto& a = model_t.device().memory().bytes();
  const auto& b = bare.device().memory().bytes();
  ASSERT_EQ(a.size(), b.size());
  const size_t prot_lo = mp.protected_base, prot_hi = size_t(mp.protected_base) + mp.protected_bytes;
  size_t diffs = 0, first = 0;
  for (size_t i = 0; i < a.size(); i++) {
    if (i >= prot_lo && i < prot_hi) continue;
    if (a[i] != b[i]) {
      if (!diffs) first = i;
      diffs++;
    }
  }
  EXPECT_EQ(diffs, 0u) << diffs << " bytes differ, first at 0x" << std::hex << first << ": model 0x"
                       << int(a[first]) << " rtl 0x" << int(b[first]);

  // The SM's counters come back through the driver's completion entries
  // (every launch of a passing sample reached the SM).
  if (got.passed) {
    EXPECT_EQ(got.launches.size(), sm.runs().size());
  }
  if (got.launches.size() == sm.runs().size()) {
    for (size_t i = 0; i < got.launches.size(); i++) {
      const baresm::drv::LaunchStats& rep = got.launches[i].report.stats;
      const auto& run = sm.runs()[i];
      EXPECT_EQ(rep.warp_instrs, run.counters.instrs) << "launch " << i;
      EXPECT_EQ(rep.thread_instrs, run.counters.thread_instrs) << "launch " << i;
      EXPECT_EQ(rep.stall_cycles, run.counters.stalls) << "launch " << i;
      EXPECT_GE(rep.cycles, run.counters.cycles) << "launch " << i << ": device time covers the SM's cycles";
      for (size_t st = 0; st < size_t(baresm::drv::LaunchStats::kWarpStates); st++)
        EXPECT_EQ(rep.warp_state_cycles[st], run.counters.state_cycles[st]) << "launch " << i << " state " << st;
    }
  }

  uint64_t cycles = 0, instrs = 0;
  for (const auto& r : sm.runs()) {
    cycles += r.counters.cycles;
    instrs += r.counters.instrs;
  }
  std::printf("[perf] config=%s sample=%s mem=%s launches=%zu cycles=%llu warp_instrs=%llu ipc=%.3f\n",
              RTL_SM_CONFIG, s->name.c_str(), ms.name, sm.runs().size(), (unsigned long long)cycles,
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
