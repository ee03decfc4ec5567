// Every sample on the functional device model through the host driver
// (samples::DriverBackend): normal samples must match their references,
// fault samples must fault with the expected kind and PC; the completion
// entries carry what the ISS itself counted. Plus the pieces of the samples
// library the samples rely on (parameter packing, the driver backend's
// buffers, module checks and windows).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cq_model/iss_executor.h"
#include "host_driver/model_transport.h"
#include "isa/assembler.h"
#include "samples/driver_backend.h"
#include "samples/samples.h"

using namespace baresm;
using namespace baresm::samples;

namespace {

// The functional device model through the driver.
std::unique_ptr<DriverBackend> model_backend(const cq::ModelDeviceConfig& cfg = {}) {
  auto be = make_model_backend(cfg);
  EXPECT_TRUE(be->ok()) << be->last_error();
  return be;
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
  auto be_ = model_backend();
  DriverBackend& be = *be_;
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
  auto be_ = model_backend();
  DriverBackend& be = *be_;
  const SampleResult r = run_sample(*s, be, opts(12345));
  EXPECT_TRUE(r.passed) << r.message;
}

TEST_P(FaultSample, ExpectedKindAndPc) {
  const Sample* s = find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->is_fault);
  auto be_ = model_backend();
  DriverBackend& be = *be_;
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
  auto be_ = model_backend();
  DriverBackend& be = *be_;
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
  auto be_ = model_backend();
  DriverBackend& be = *be_;
  RunOptions o = opts();
  o.kernels_dir = dir;
  const SampleResult r = run_sample(*find_sample("vec_add"), be, o);
  std::system(("rm -rf " + dir).c_str());
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("reference"), std::string::npos) << r.message;
}

TEST(PackParams, NaturalAlignmentFromTheParamTable) {
  isa::KernelInfo k;
  k.name = "k";
  k.params = {{"a", 0, 4, 4}, {"b", 4, 4, 4}, {"c", 8, 4, 4}};
  k.param_bytes = 12;
  std::vector<uint8_t> out;
  std::string err;
  ASSERT_TRUE(pack_params(k, {Arg::u32(0x11223344), Arg::f32(1.0f), Arg::i32(-2)}, &out, &err)) << err;
  ASSERT_EQ(out.size(), 12u);
  uint32_t w[3];
  std::memcpy(w, out.data(), 12);
  EXPECT_EQ(w[0], 0x11223344u);
  EXPECT_EQ(w[1], 0x3F800000u);
  EXPECT_EQ(w[2], 0xFFFFFFFEu);
  EXPECT_FALSE(pack_params(k, {Arg::u32(1)}, &out, &err));
  EXPECT_NE(err.find("takes 3"), std::string::npos) << err;
  Arg wide;
  wide.bytes.assign(8, 0);
  EXPECT_FALSE(pack_params(k, {Arg::u32(1), wide, Arg::u32(2)}, &out, &err));
}

TEST(DriverBackend, AllocFreeReuseAndBounds) {
  cq::ModelDeviceConfig cfg;
  cfg.mem_bytes = 1 << 20;
  auto be_ = model_backend(cfg);
  DriverBackend& be = *be_;
  Buffer a, b, c;
  ASSERT_EQ(be.alloc(100, &a), Status::OK);
  ASSERT_EQ(be.alloc(1000, &b), Status::OK);
  EXPECT_NE(a.addr, 0u);
  EXPECT_GE(b.addr, a.addr + 100);
  EXPECT_EQ(a.size, 100u);
  uint32_t v = 7;
  EXPECT_EQ(be.write(a, 96, &v, 4), Status::OK);
  EXPECT_EQ(be.write(a, 97, &v, 4), Status::INVALID_VALUE) << "past the buffer";
  EXPECT_EQ(be.read(a, 96, &v, 4), Status::OK);
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(be.free(a), Status::OK);
  EXPECT_EQ(be.free(a), Status::INVALID_VALUE) << "double free";
  EXPECT_EQ(be.read(a, 0, &v, 4), Status::INVALID_VALUE) << "read of a freed buffer";
  ASSERT_EQ(be.alloc(64, &c), Status::OK);
  EXPECT_EQ(c.addr, a.addr) << "freed space is reused";
  EXPECT_EQ(be.alloc(1 << 20, &c), Status::OUT_OF_MEMORY);
  EXPECT_FALSE(be.last_error().empty());
  EXPECT_NE(be.alloc(0, &c), Status::OK);
}

TEST(DriverBackend, LoadChecksImageAndLimits) {
  auto be_ = model_backend();
  DriverBackend& be = *be_;
  ModuleHandle h;
  EXPECT_EQ(be.load_module({1, 2, 3}, &h), Status::INVALID_IMAGE);
  isa::AsmResult a = isa::assemble(".kernel k\n.regs 2\n.shared 65536\n EXIT;\n.end\n", "k.s");
  ASSERT_TRUE(a.ok()) << a.format_errors();
  EXPECT_EQ(be.load_module(isa::write_module(a.module), &h), Status::NO_BINARY_FOR_DEVICE) << be.last_error();
}

TEST(DriverBackend, LaunchGrantsOnlyTheGivenWindows) {
  auto be_ = model_backend();
  DriverBackend& be = *be_;
  isa::AsmResult a = isa::assemble(
      ".kernel k\n.param p, 4\n.regs 4\n LDC R0, [PARAM(p)];\n MOV R1, 5;\n STG [R0], R1;\n EXIT;\n.end\n",
      "k.s");
  ASSERT_TRUE(a.ok()) << a.format_errors();
  ModuleHandle h;
  ASSERT_EQ(be.load_module(isa::write_module(a.module), &h), Status::OK) << be.last_error();
  Buffer x, y;
  ASSERT_EQ(be.alloc(4, &x), Status::OK);
  ASSERT_EQ(be.alloc(4, &y), Status::OK);
  std::vector<uint8_t> params;
  std::string err;
  ASSERT_TRUE(pack_params(a.module.kernels[0], {Arg::ptr(y)}, &params, &err));
  LaunchConfig cfg;
  cfg.grid = {1, 1, 1};
  cfg.block = {1, 1, 1};
  cfg.windows = {y};
  LaunchReport rep;
  ASSERT_EQ(be.launch(h, "k", cfg, params, &rep), Status::OK) << be.last_error();
  EXPECT_TRUE(rep.fault.ok()) << rep.fault.describe();
  uint32_t v = 0;
  ASSERT_EQ(be.read(y, 0, &v, 4), Status::OK);
  EXPECT_EQ(v, 5u);
  // Host-side errors are statuses, not faults.
  EXPECT_EQ(be.launch(h, "nope", cfg, params, &rep), Status::NOT_FOUND);
  EXPECT_EQ(be.launch(h, "k", cfg, {}, &rep), Status::INVALID_VALUE);
  cfg.block = {2048, 1, 1};
  EXPECT_EQ(be.launch(h, "k", cfg, params, &rep), Status::INVALID_CONFIGURATION) << be.last_error();
  cfg.block = {1, 1, 1};
  cfg.windows = {Buffer{0x10, 4}};
  EXPECT_EQ(be.launch(h, "k", cfg, params, &rep), Status::INVALID_VALUE) << "window not allocated";
  // Only y is written: granted x alone, the store faults at y.
  cfg.windows = {x};
  ASSERT_EQ(be.launch(h, "k", cfg, params, &rep), Status::OK) << be.last_error();
  EXPECT_EQ(rep.fault.kind, iss::FaultKind::OUT_OF_WINDOW) << rep.fault.describe();
  EXPECT_EQ(rep.fault.addr, y.addr);
  EXPECT_EQ(be.unload_module(h), Status::OK);
  EXPECT_EQ(be.launch(h, "k", cfg, params, &rep), Status::NOT_FOUND);
}

TEST(Backends, RegistryHasTheModel) {
  const BackendEntry* m = find_backend("model");
  ASSERT_NE(m, nullptr);
  std::string error;
  auto be = make_device_backend(*m, DeviceSettings{}, &error);
  ASSERT_NE(be, nullptr) << error;
  EXPECT_EQ(be->name(), "model");
  EXPECT_EQ(find_backend("rtl-that-does-not-exist"), nullptr);
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
  DriverBackendOptions o;
  o.name = "model";
  o.default_watchdog = find_backend("model")->default_watchdog;
  DriverBackend be(std::make_unique<drv::ModelTransport>(&dev), o);
  ASSERT_TRUE(be.ok()) << be.last_error();
  const SampleResult r = run_sample(*s, be, opts());
  EXPECT_TRUE(r.passed) << r.message << "\n" << r.fault_report;
  ASSERT_EQ(r.launches.size(), iss_runs.size());
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const LaunchReport& got = r.launches[i].report;
    const iss::LaunchResult& ref = iss_runs[i].result;
    EXPECT_FALSE(iss_runs[i].internal_error) << iss_runs[i].internal_message;
    EXPECT_EQ(got.stats.warp_instrs, ref.stats.warp_instrs) << "launch " << i;
    EXPECT_EQ(int(got.fault.kind), int(ref.fault.kind)) << "launch " << i;
    if (!ref.fault.ok()) {
      EXPECT_EQ(got.fault.pc, ref.fault.pc) << "launch " << i;
      EXPECT_EQ(got.fault.warp, ref.fault.warp) << "launch " << i;
      EXPECT_EQ(got.fault.lane, ref.fault.lane) << "launch " << i;
      EXPECT_EQ(got.fault.cta.x, ref.fault.cta.x) << "launch " << i;
    }
    EXPECT_GT(got.cycles, 0u) << "launch " << i;
    EXPECT_TRUE(got.sm_counters) << "launch " << i;
    EXPECT_EQ(got.stats.thread_instrs, ref.stats.thread_instrs) << "launch " << i;
    EXPECT_EQ(got.stats.divergent_branches, ref.stats.divergent_branches) << "launch " << i;
    EXPECT_EQ(got.stats.barriers, ref.stats.barriers) << "launch " << i;
    EXPECT_EQ(got.shared_passes, iss_runs[i].shared_passes) << "launch " << i;
    for (uint64_t c : got.state_cycles) EXPECT_EQ(c, 0u) << "launch " << i;
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
  auto be_ = model_backend();
  DriverBackend& be = *be_;
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
