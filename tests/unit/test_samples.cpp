// Every sample on the functional device model through the host driver
// (drv::Device): normal samples must match their references, fault samples
// must fault with the expected kind and PC; the completion entries carry
// what the ISS itself counted; the device registry opens the model.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cq_model/iss_executor.h"
#include "host_driver/model_transport.h"
#include "isa/assembler.h"
#include "host_driver/devices.h"
#include "samples/samples.h"

using namespace baresm;
using namespace baresm::samples;

namespace {

// The functional device model, opened by the driver.
std::unique_ptr<drv::OpenDevice> model_device(const cq::ModelDeviceConfig& cfg = {}) {
  std::string error;
  auto d = drv::open_model_device(cfg, &error);
  EXPECT_TRUE(d) << error;
  return d;
}

RunOptions opts(uint64_t seed = 1) {
  RunOptions o;
  o.kernels_dir = BARESM_SOURCE_DIR "/kernels";
  o.seed = seed;
  return o;
}

std::vector<std::string> names(bool fault) {
  std::vector<std::string> v;
  for (const auto& s : all_samples())
    if (s.is_fault == fault) v.push_back(s.name);
  return v;
}

class NormalSample : public ::testing::TestWithParam<std::string> {};
class FaultSample : public ::testing::TestWithParam<std::string> {};

TEST_P(NormalSample, MatchesReferenceOnModel) {
  const Sample* s = find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  auto d = model_device();
  drv::Device& be = d->device;
  const SampleResult r = run_sample(*s, be, opts());
  EXPECT_TRUE(r.passed) << r.message;
  EXPECT_FALSE(r.faulted) << r.fault_report;
  ASSERT_GE(r.launches.size(), 3u) << "each sample runs several sizes";
  for (const auto& l : r.launches) {
    EXPECT_GT(l.report.stats.warp_instrs, 0u) << l.kernel << " " << l.note;
    EXPECT_GE(l.report.stats.thread_instrs, l.report.stats.warp_instrs) << l.kernel << " " << l.note;
  }
}

TEST_P(NormalSample, OtherSeedAlsoPasses) {
  const Sample* s = find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  auto d = model_device();
  drv::Device& be = d->device;
  const SampleResult r = run_sample(*s, be, opts(12345));
  EXPECT_TRUE(r.passed) << r.message;
}

TEST_P(FaultSample, ExpectedKindAndPc) {
  const Sample* s = find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->is_fault);
  auto d = model_device();
  drv::Device& be = d->device;
  const SampleResult r = run_sample(*s, be, opts());
  EXPECT_TRUE(r.passed) << r.message << "\n" << r.fault_report;
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, s->expected_fault) << r.fault.describe();
  EXPECT_NE(r.fault_report.find(iss::fault_kind_name(s->expected_fault)), std::string::npos);
  EXPECT_NE(r.fault_report.find(s->kernel_file), std::string::npos) << "report names the source line";
}

std::string param_name(const ::testing::TestParamInfo<std::string>& i) {
  return i.param;
}

INSTANTIATE_TEST_SUITE_P(All, NormalSample, ::testing::ValuesIn(names(false)), param_name);
INSTANTIATE_TEST_SUITE_P(All, FaultSample, ::testing::ValuesIn(names(true)), param_name);

TEST(SampleRegistry, NamesAndOrder) {
  const auto& all = all_samples();
  ASSERT_GE(all.size(), 14u);
  bool seen_fault = false;
  for (const auto& s : all) {
    EXPECT_EQ(s.is_fault, s.name.rfind("fault_", 0) == 0) << s.name;
    EXPECT_TRUE(!seen_fault || s.is_fault) << "fault samples come last: " << s.name;
    seen_fault |= s.is_fault;
    EXPECT_FALSE(s.description.empty());
    EXPECT_EQ(find_sample(s.name), &s);
  }
  EXPECT_EQ(find_sample("no_such_sample"), nullptr);
}

TEST(SampleRegistry, MissingKernelDirIsAFailureNotACrash) {
  auto d = model_device();
  drv::Device& be = d->device;
  RunOptions o = opts();
  o.kernels_dir = "/nonexistent";
  const SampleResult r = run_sample(*find_sample("vec_add"), be, o);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("cannot read kernel file"), std::string::npos) << r.message;
}

// A sample whose kernel computes the wrong thing must FAIL: the checks can fail.
TEST(SampleRegistry, BrokenKernelIsDetected) {
  const std::string dir = ::testing::TempDir() + "/broken_kernels";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::ifstream in(BARESM_SOURCE_DIR "/kernels/vec_add.s");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string src = ss.str();
  const size_t p = src.find("FADD R5, R5, R6;");
  ASSERT_NE(p, std::string::npos);
  src.replace(p, 16, "FSUB R5, R5, R6;");
  std::ofstream(dir + "/vec_add.s") << src;
  auto d = model_device();
  drv::Device& be = d->device;
  RunOptions o = opts();
  o.kernels_dir = dir;
  const SampleResult r = run_sample(*find_sample("vec_add"), be, o);
  std::system(("rm -rf " + dir).c_str());
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("reference"), std::string::npos) << r.message;
}

// The registry opens the model by name, with its watchdog in warp-instructions.
TEST(Devices, RegistryHasTheModel) {
  const drv::DeviceEntry* m = drv::find_device("model");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->options.watchdog, drv::kDefaultWatchdogInstrs);
  std::string error;
  auto d = drv::open_device(*m, drv::DeviceSettings{}, m->options, &error);
  ASSERT_NE(d, nullptr) << error;
  EXPECT_EQ(d->name, "model");
  EXPECT_EQ(d->device.options().watchdog, drv::kDefaultWatchdogInstrs);
  EXPECT_EQ(drv::find_device("rtl-that-does-not-exist"), nullptr);
  const drv::DeviceEntry* serial = drv::find_device("serial");
  ASSERT_NE(serial, nullptr);
  EXPECT_EQ(drv::open_device(*serial, drv::DeviceSettings{}, serial->options, &error), nullptr);
  EXPECT_NE(error.find("no port given"), std::string::npos) << error;
}

// The ISS executor (cq_model/iss_executor.h) with what it reported for
// every launch kept: what the ISS itself counted, before the completion
// entry and the driver.
class RecordingExecutor final : public cq::LaunchExecutor {
 public:
  RecordingExecutor(iss::DeviceMemory& mem, const iss::ModelConfig& cfg, std::vector<cq::LaunchOutcome>* log)
      : inner_(cq::make_iss_executor(mem, cfg)), log_(log) {}
  void start(const iss::LaunchParams& p) override {
    inner_->start(p);
    logged_ = false;
  }
  bool step(uint32_t budget) override {
    const bool done = inner_->step(budget);
    if (done && !logged_) log_->push_back(inner_->outcome());
    logged_ |= done;
    return done;
  }
  void abort() override { inner_->abort(); }
  const cq::LaunchOutcome& outcome() const override { return inner_->outcome(); }
  uint64_t retired() const override { return inner_->retired(); }
  uint64_t cta_switches() const override { return inner_->cta_switches(); }

 private:
  std::unique_ptr<cq::LaunchExecutor> inner_;
  std::vector<cq::LaunchOutcome>* log_;
  bool logged_ = false;
};

// The samples through the host driver on the functional device model, as
// `baresm run --backend model` runs them: every normal sample matches its
// reference, every fault sample reports the fault the ISS found, and the
// completion entries carry the cycles and the SM counters the ISS counts
// (warp- and thread-instructions, divergent branches, barrier releases), but
// no warp-state cycles (the model has no clock).
class SampleThroughDriver : public ::testing::TestWithParam<std::string> {};

TEST_P(SampleThroughDriver, CarriesWhatTheIssCounted) {
  const Sample* s = find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  const cq::ModelDeviceConfig cfg;
  std::vector<cq::LaunchOutcome> iss_runs;
  cq::ModelDevice dev(cfg, [&](iss::DeviceMemory& mem) {
    return std::make_unique<RecordingExecutor>(mem, iss::ModelConfig{cfg.stack_depth, 0, cfg.has_fpu}, &iss_runs);
  });
  std::string error;
  auto d = drv::open_device("model", std::make_unique<drv::ModelTransport>(&dev), drv::find_device("model")->options,
                            &error);
  ASSERT_TRUE(d) << error;
  const SampleResult r = run_sample(*s, d->device, opts());
  EXPECT_TRUE(r.passed) << r.message << "\n" << r.fault_report;
  ASSERT_EQ(r.launches.size(), iss_runs.size());
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const drv::LaunchStats& got = r.launches[i].report.stats;
    const iss::FaultInfo& fault = r.launches[i].fault;
    const iss::LaunchResult& ref = iss_runs[i].result;
    EXPECT_FALSE(iss_runs[i].internal_error) << iss_runs[i].internal_message;
    EXPECT_EQ(got.warp_instrs, ref.stats.warp_instrs) << "launch " << i;
    EXPECT_EQ(int(fault.kind), int(ref.fault.kind)) << "launch " << i;
    if (!ref.fault.ok()) {
      EXPECT_EQ(fault.pc, ref.fault.pc) << "launch " << i;
      EXPECT_EQ(fault.warp, ref.fault.warp) << "launch " << i;
      EXPECT_EQ(fault.lane, ref.fault.lane) << "launch " << i;
      EXPECT_EQ(fault.cta.x, ref.fault.cta.x) << "launch " << i;
    }
    EXPECT_GT(got.cycles, 0u) << "launch " << i;
    EXPECT_EQ(got.thread_instrs, ref.stats.thread_instrs) << "launch " << i;
    EXPECT_EQ(got.div_branches, ref.stats.divergent_branches) << "launch " << i;
    EXPECT_EQ(got.bar_releases, ref.stats.barriers) << "launch " << i;
    EXPECT_EQ(got.shared_passes, iss_runs[i].shared_passes) << "launch " << i;
    for (uint32_t c : got.warp_state_cycles) EXPECT_EQ(c, 0u) << "launch " << i;
  }
}

std::vector<std::string> all_names() {
  std::vector<std::string> v;
  for (const auto& s : all_samples()) v.push_back(s.name);
  return v;
}
INSTANTIATE_TEST_SUITE_P(All, SampleThroughDriver, ::testing::ValuesIn(all_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace

namespace {
// Runs `sample` with its kernel file edited (from -> to) and returns the result.
SampleResult run_edited(const std::string& sample, const std::string& from, const std::string& to) {
  const Sample* s = find_sample(sample);
  const std::string dir = ::testing::TempDir() + "/edited_" + sample;
  EXPECT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::ifstream in(std::string(BARESM_SOURCE_DIR "/kernels/") + s->kernel_file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string src = ss.str();
  const size_t p = src.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos) src.replace(p, from.size(), to);
  std::ofstream(dir + "/" + s->kernel_file) << src;
  auto d = model_device();
  drv::Device& be = d->device;
  RunOptions o = opts();
  o.kernels_dir = dir;
  SampleResult r = run_sample(*s, be, o);
  std::system(("rm -rf " + dir).c_str());
  return r;
}
}  // namespace

// The fault expectations can fail too: the wrong lane, or no fault at all.
TEST(FaultExpectation, WrongLaneIsAFailure) {
  const SampleResult r =
      run_edited("fault_trap", "ISETP.EQ.AND P0, R2, R3, P0;", "ISETP.NE.AND P0, R2, R3, P0;");
  ASSERT_TRUE(r.faulted);
  EXPECT_EQ(r.fault.kind, iss::FaultKind::TRAP);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("lane 0 (expected 5)"), std::string::npos) << r.message;
}

TEST(FaultExpectation, NoFaultIsAFailure) {
  const SampleResult r = run_edited("fault_misaligned", "LDG R5, [R4 + 2];", "LDG R5, [R4 + 4];");
  EXPECT_FALSE(r.faulted);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("completed without a fault"), std::string::npos) << r.message;
}

TEST(FaultExpectation, WrongKindIsAFailure) {
  // The store lands inside the buffer but misaligned: a fault, the wrong one.
  const SampleResult r = run_edited("fault_out_of_window", "STG [R4], R6;", "STG [R4 - 7], R6;");
  ASSERT_TRUE(r.faulted);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("kind MISALIGNED"), std::string::npos) << r.message;
}
