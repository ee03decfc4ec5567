// Every sample (samples/, kernels/) through the host driver on the RTL: the
// `rtl` device of `baresm run` (drv::Device over the SystemC transport). A normal sample must pass its own exact reference
// check; a fault sample must report the expected fault, kind, pc, CTA, warp
// and lane (and the waiting warps of a barrier deadlock). Memory with random
// latency, reordering and back-pressure (seeded). Every launch also runs in
// lockstep with the functional model (sim/systemc/sm_lockstep.h).
#include <gtest/gtest.h>

#include <cstdio>

#include "samples/samples.h"
#include "sim/systemc/rtl_device.h"
#include "sim/systemc/sm_lockstep.h"
#include "sim/systemc/testbench.h"
#include "tests/cosim/cosim_util.h"

namespace baresm {
namespace {

struct Param {
  std::string sample;
  uint64_t seed;
};
void PrintTo(const Param& p, std::ostream* os) { *os << p.sample << " seed " << p.seed; }

std::vector<Param> params() {
  std::vector<Param> v;
  for (const auto& s : samples::all_samples()) v.push_back(Param{s.name, 1});
  return v;
}

class SampleOnRtl : public ::testing::TestWithParam<Param> {};

TEST_P(SampleOnRtl, PassesThroughTheDriver) {
  const samples::Sample* s = samples::find_sample(GetParam().sample);
  ASSERT_NE(s, nullptr);
  cosim::RtlDeviceOptions o;
  o.mem = cosimtest::test_memory(GetParam().seed + 100);
  std::string error;
  std::unique_ptr<drv::OpenDevice> d = cosim::open_rtl(o, cosim::rtl_driver_options(), &error);
  ASSERT_NE(d, nullptr) << error;
  samples::RunOptions ro;
  ro.seed = GetParam().seed;
  cosim::Testbench& tb = cosim::Testbench::get();
  tb.clear_lockstep();
  tb.set_lockstep(true);
  const uint64_t c0 = tb.cycle();
  const samples::SampleResult r = samples::run_sample(*s, d->device, ro);
  tb.set_lockstep(false);
  // Every launch the SM ran was checked in lockstep with the model.
  EXPECT_EQ(tb.lockstep_launches().size(), r.launches.size());
  for (const auto& l : tb.lockstep_launches()) {
    EXPECT_TRUE(l.ok) << l.report;
    EXPECT_FALSE(l.aborted);
    EXPECT_GT(l.stats.issues, 0u);
  }
  EXPECT_TRUE(r.passed) << s->name << ": " << r.message << "\n" << r.fault_report;
  if (s->is_fault) {
    EXPECT_TRUE(r.faulted);
    EXPECT_EQ(r.fault.kind, s->expected_fault);
  }
  std::printf("[perf] %s seed %llu: %zu launches, %llu warp-instrs, %llu device cycles\n", s->name.c_str(),
              (unsigned long long)GetParam().seed, r.launches.size(), (unsigned long long)r.warp_instrs(),
              (unsigned long long)(tb.cycle() - c0));
}

INSTANTIATE_TEST_SUITE_P(All, SampleOnRtl, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& p) {
                           return p.param.sample + "_seed" + std::to_string(p.param.seed);
                         });

}  // namespace
}  // namespace baresm
