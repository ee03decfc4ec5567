// The driver test suite, written once against an abstract transport factory
// and instantiated per transport (test_driver_model.cpp for the functional
// device model; the SystemC/RTL transport instantiates the same header).
//
// A factory F provides:
//   static const char* name();
//   static std::unique_ptr<drv::Transport> create();  // a fresh device at power-on
//   static uint64_t sync_timeout_ns();   // generous: every small launch here ends well within it
//   static uint64_t hang_timeout_ns();   // short: a wait this long on an endless kernel means a hang
//   static uint64_t hang_window_ns();    // PROGRESS must move within this to count as progressing
//   static iss::PoisonMap& poison(drv::Transport*);  // the device's poisoned memory lines
// The device must have at least 2 queue pairs, max_threads_per_block *
// max_regs > REGFILE_REGS (so that LAUNCH_OUT_OF_RESOURCES is reachable), and
// >= 1 MiB of memory.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>

#include "contract/rings.h"
#include "cq_model/scoreboard.h"
#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "contract/regs.h"
#include "isa/mem_poison.h"
#include "isa/ptx.h"
#include "tests/driver/driver_harness.h"

namespace baresm::drvtest {

using drv::Status;

template <class F>
class DriverSuite : public ::testing::Test {
 protected:
  Harness h;

  static drv::DeviceOptions options() {
    drv::DeviceOptions o;
    o.sync_timeout_ns = F::sync_timeout_ns();
    o.hang_window_ns = F::hang_window_ns();
    return o;
  }
  void open(const drv::DeviceOptions& o = options()) {
    ASSERT_EQ(h.open(F::create(), o), Status::OK) << h.last_error_text();
  }
  drv::Context new_ctx() {
    drv::Context c;
    EXPECT_EQ(h.dev.ctx_create(&c), Status::OK) << h.last_error_text();
    return c;
  }
  // Sum of SQ_TAIL over the queues the driver uses: changes iff something was queued.
  uint64_t queued_on_device() {
    uint64_t sum = 0;
    const uint32_t nq = h.dev.options().queues ? h.dev.options().queues : h.dev.props().num_queues;
    for (uint32_t q = 0; q < nq; ++q) sum += h.reg(regs::qp(q, regs::QpReg::SQ_TAIL));
    return sum;
  }
  drv::Function load(drv::Context c, const char* kernel, drv::Module* mod_out = nullptr) {
    const auto& img = kernel_image(kernel);
    drv::Module m;
    drv::Function fn;
    EXPECT_EQ(h.dev.module_load_data(c, img.data(), img.size(), &m), Status::OK) << h.last_error_text();
    EXPECT_EQ(h.dev.module_get_function(m, kernel, &fn), Status::OK) << h.last_error_text();
    if (mod_out) *mod_out = m;
    return fn;
  }
};

TYPED_TEST_SUITE_P(DriverSuite);

// ---- properties ------------------------------------------------------------------------
TYPED_TEST_P(DriverSuite, PropertiesComeFromConfigRegisters) {
  this->open();
  const drv::DeviceProps& p = this->h.dev.props();
  namespace f = regs::f;
  EXPECT_EQ(p.arch_id, isa::kArchId);
  EXPECT_EQ(this->h.reg(regs::ID), isa::kArchId);
  const uint32_t c0 = this->h.reg(regs::CONFIG0), c1 = this->h.reg(regs::CONFIG1);
  EXPECT_EQ(p.num_lanes, f::CONFIG0_NUM_LANES.get(c0));
  EXPECT_EQ(p.num_warps, f::CONFIG0_NUM_WARPS.get(c0));
  EXPECT_EQ(p.cta_slots, f::CONFIG0_CTA_SLOTS.get(c0));
  EXPECT_EQ(p.num_banks, f::CONFIG0_NUM_BANKS.get(c0));
  EXPECT_EQ(p.max_regs_per_thread, f::CONFIG1_MAX_REGS.get(c1));
  EXPECT_EQ(p.stack_depth, f::CONFIG1_STACK_DEPTH.get(c1));
  EXPECT_EQ(p.num_queues, f::CONFIG1_NUM_QUEUES.get(c1));
  EXPECT_EQ(p.max_windows, f::CONFIG1_MAX_WINDOWS.get(c1));
  EXPECT_EQ(p.shared_bytes, this->h.reg(regs::CONFIG2));
  EXPECT_EQ(p.regfile_regs, this->h.reg(regs::CONFIG3));
  EXPECT_EQ(p.mem_bytes, this->h.reg(regs::CONFIG4));
  EXPECT_EQ(p.clock_khz, this->h.reg(regs::CONFIG5));
  EXPECT_EQ(p.has_fpu, f::CONFIG6_HAS_FPU.get(this->h.reg(regs::CONFIG6)) != 0);
  EXPECT_TRUE(p.has_fpu);
  EXPECT_EQ(p.max_threads_per_block, std::min<uint32_t>(1024, p.num_warps * 32));
  EXPECT_GE(p.num_queues, 2u);
  EXPECT_GT(uint64_t(p.max_threads_per_block) * p.max_regs_per_thread, p.regfile_regs)
      << "the suite needs a device where LAUNCH_OUT_OF_RESOURCES is reachable";
  // After open: engine enabled, idle, no fault; scratch register is a plain RW register.
  const uint32_t st = this->h.reg(regs::STATUS);
  EXPECT_EQ(f::STATUS_ENABLED.get(st), 1u);
  EXPECT_EQ(f::STATUS_IDLE.get(st), 1u);
  EXPECT_EQ(f::STATUS_FAULT.get(st), 0u);
  ASSERT_EQ(this->h.transport->mmio_write32(regs::SCRATCH, 0xA5A5F00Du), Status::OK);
  EXPECT_EQ(this->h.reg(regs::SCRATCH), 0xA5A5F00Du);
  EXPECT_EQ(this->h.reg(0x3FC), 0u) << "unmapped offsets read 0";
}

TYPED_TEST_P(DriverSuite, OpenRejectsAWrongDeviceOrBadOptions) {
  drv::DeviceOptions o = TestFixture::options();
  o.sq_entries = 48;  // not a power of two
  Harness h2;
  EXPECT_EQ(h2.open(TypeParam::create(), o), Status::INVALID_VALUE);
  EXPECT_FALSE(h2.dev.is_open());
  drv::Context c;
  EXPECT_EQ(h2.dev.ctx_create(&c), Status::NOT_INITIALIZED);
}

// ---- memory -------------------------------------------------------------------------------
TYPED_TEST_P(DriverSuite, AllocCopyFree) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx(), other = this->new_ctx();
  std::vector<drv::DevPtr> ptrs;
  std::mt19937 rng(7);
  for (int i = 0; i < 12; ++i) {
    const uint32_t bytes = 4 + rng() % 5000;
    drv::DevPtr p = 0;
    ASSERT_EQ(d.mem_alloc(c, bytes, &p), Status::OK) << this->h.last_error_text();
    EXPECT_NE(p, 0u);
    EXPECT_EQ(p % 256, 0u);
    std::vector<uint8_t> in(bytes), out(bytes, 0);
    for (auto& x : in) x = uint8_t(rng());
    ASSERT_EQ(d.memcpy_htod(c, p, in.data(), bytes), Status::OK);
    ASSERT_EQ(d.memcpy_dtoh(c, out.data(), p, bytes), Status::OK);
    EXPECT_EQ(in, out);
    // One byte past the allocation is not this context's.
    uint8_t x = 0;
    EXPECT_EQ(d.memcpy_htod(c, p + bytes, &x, 1), Status::INVALID_VALUE);
    EXPECT_EQ(d.memcpy_dtoh(other, &x, p, 1), Status::INVALID_VALUE) << "another context's buffer";
    for (drv::DevPtr q : ptrs) EXPECT_TRUE(p >= q + 256 || p + bytes <= q) << "overlapping allocations";
    ptrs.push_back(p);
  }
  uint32_t free_before = 0, total = 0;
  ASSERT_EQ(d.mem_get_info(&free_before, &total), Status::OK);
  EXPECT_EQ(total, d.props().mem_bytes);
  drv::DevPtr big = 0;
  EXPECT_EQ(d.mem_alloc(c, total, &big), Status::OUT_OF_MEMORY);
  EXPECT_EQ(d.last_error().layer, drv::Layer::API);
  EXPECT_EQ(d.mem_alloc(c, 0, &big), Status::INVALID_VALUE);
  EXPECT_EQ(d.mem_free(other, ptrs[0]), Status::INVALID_VALUE);
  for (drv::DevPtr p : ptrs) EXPECT_EQ(d.mem_free(c, p), Status::OK);
  EXPECT_EQ(d.mem_free(c, ptrs[0]), Status::INVALID_VALUE) << "double free";
  uint32_t free_after = 0;
  ASSERT_EQ(d.mem_get_info(&free_after, nullptr), Status::OK);
  EXPECT_GT(free_after, free_before);
  // Freed memory is reusable, first fit: the first freed block comes back.
  drv::DevPtr again = 0;
  ASSERT_EQ(d.mem_alloc(c, 16, &again), Status::OK);
  EXPECT_EQ(again, *std::min_element(ptrs.begin(), ptrs.end()));
}

// ---- module load --------------------------------------------------------------------------
TYPED_TEST_P(DriverSuite, ModuleLoadErrors) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  const std::vector<uint8_t> good = kernel_image("vec_add");
  ASSERT_FALSE(good.empty());
  drv::Module m;
  // Truncated image.
  EXPECT_EQ(d.module_load_data(c, good.data(), good.size() / 2, &m), Status::INVALID_IMAGE);
  EXPECT_EQ(d.last_error().layer, drv::Layer::LOAD);
  // Bad magic.
  std::vector<uint8_t> bad = good;
  bad[0] ^= 0xFF;
  EXPECT_EQ(d.module_load_data(c, bad.data(), bad.size(), &m), Status::INVALID_IMAGE);
  // A flipped byte in the code (caught by the image's checksum).
  bad = good;
  bad[bad.size() - 1] ^= 0x5A;
  EXPECT_EQ(d.module_load_data(c, bad.data(), bad.size(), &m), Status::INVALID_IMAGE)
      << this->h.last_error_text();
  EXPECT_EQ(d.module_load_data(c, nullptr, 0, &m), Status::INVALID_IMAGE);
  // Built for another architecture.
  isa::Module other = kernel_module("vec_add");
  other.target.arch_id = 0x42534D39;  // "BSM9"
  std::vector<uint8_t> img = isa::write_module(other);
  EXPECT_EQ(d.module_load_data(c, img.data(), img.size(), &m), Status::NO_BINARY_FOR_DEVICE)
      << this->h.last_error_text();
  EXPECT_EQ(d.last_error().layer, drv::Layer::LOAD);
  // Needs more registers than this device's CONFIG1.MAX_REGS can give (when
  // the device has fewer than the ISA's 63; beyond 63 the image is invalid).
  isa::Module greedy = kernel_module("vec_add");
  greedy.target.max_regs = d.props().max_regs_per_thread + 1;
  greedy.kernels[0].regs = d.props().max_regs_per_thread + 1;
  img = isa::write_module(greedy);
  EXPECT_EQ(d.module_load_data(c, img.data(), img.size(), &m),
            d.props().max_regs_per_thread < uint32_t(isa::kMaxRegsPerThread) ? Status::NO_BINARY_FOR_DEVICE
                                                                             : Status::INVALID_IMAGE)
      << this->h.last_error_text();
  // More shared memory than CONFIG2.SHARED_BYTES.
  isa::Module hungry = kernel_module("vec_add");
  hungry.target.max_shared_bytes = d.props().shared_bytes + 4;
  hungry.kernels[0].shared_bytes = d.props().shared_bytes + 4;
  img = isa::write_module(hungry);
  EXPECT_EQ(d.module_load_data(c, img.data(), img.size(), &m), Status::NO_BINARY_FOR_DEVICE)
      << this->h.last_error_text();
  // The good image loads; a missing kernel name is NOT_FOUND.
  ASSERT_EQ(d.module_load_data(c, good.data(), good.size(), &m), Status::OK) << this->h.last_error_text();
  drv::Function fn;
  EXPECT_EQ(d.module_get_function(m, "vec_sub", &fn), Status::NOT_FOUND);
  EXPECT_EQ(d.last_error().layer, drv::Layer::LOAD);
  ASSERT_EQ(d.module_get_function(m, "vec_add", &fn), Status::OK);
  drv::FunctionAttrs at;
  ASSERT_EQ(d.func_get_attributes(fn, &at), Status::OK);
  EXPECT_EQ(at.num_params, 4u);
  EXPECT_EQ(at.param_bytes, 16u);
  EXPECT_EQ(at.regs, kernel_module("vec_add").kernels[0].regs);
  // The code is in device memory, word for word.
  drv::DevPtr base = 0;
  uint32_t bytes = 0;
  ASSERT_EQ(d.module_code_range(m, &base, &bytes), Status::OK);
  const auto& code = kernel_module("vec_add").code;
  ASSERT_EQ(bytes, code.size() * 8);
  std::vector<uint64_t> dev_code(code.size());
  ASSERT_EQ(this->h.transport->mem_read(base, dev_code.data(), bytes), Status::OK);
  EXPECT_EQ(dev_code, code);
  EXPECT_EQ(d.module_unload(m), Status::OK);
  EXPECT_EQ(d.module_get_function(m, "vec_add", &fn), Status::INVALID_HANDLE);
}

// ---- launch validation: every error named, nothing queued -------------------------------------
TYPED_TEST_P(DriverSuite, LaunchValidationQueuesNothing) {
  this->open();
  drv::Device& d = this->h.dev;
  const drv::DeviceProps& P = d.props();
  drv::Context c = this->new_ctx(), other = this->new_ctx();
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 256, 1), Status::OK) << this->h.last_error_text();
  drv::Stream foreign;
  ASSERT_EQ(d.stream_create(other, &foreign), Status::OK);
  const uint64_t queued0 = this->queued_on_device();
  const uint64_t submitted0 = d.stats().submitted;
  drv::LaunchArg args[4] = {{&va.a, 4}, {&va.b, 4}, {&va.c, 4}, {&va.n, 4}};
  const uint32_t regs_k = kernel_module("vec_add").kernels[0].regs;

  struct Case {
    const char* what;
    drv::LaunchConfig cfg;
    uint32_t nargs;
    Status want;
    drv::Layer layer;
  };
  auto base = [] {
    drv::LaunchConfig cfg;
    cfg.grid = drv::Dim3{2, 1, 1};
    cfg.block = drv::Dim3{128, 1, 1};
    return cfg;
  };
  std::vector<Case> cases;
  auto add = [&](const char* what, drv::LaunchConfig cfg, Status want, uint32_t nargs = 4,
                 drv::Layer layer = drv::Layer::LAUNCH_CONFIG) {
    cases.push_back(Case{what, cfg, nargs, want, layer});
  };
  drv::LaunchConfig k;
  k = base();
  k.grid.x = 0;
  add("zero grid x", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.grid.z = 0;
  add("zero grid z", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.block.y = 0;
  add("zero block y", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.block = drv::Dim3{1025, 1, 1};
  add("block of 1025 threads", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.block = drv::Dim3{P.max_threads_per_block + 32, 1, 1};
  add("block over NUM_WARPS*32", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.block = drv::Dim3{1, 1, 65};
  add("block z over 64", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.grid.y = 65536;
  add("grid y over 65535", k, Status::INVALID_CONFIGURATION);
  // Each dimension within its maximum, 2^32 CTAs in all: the device refuses it (DCHK_DIMS).
  k = base();
  k.grid = drv::Dim3{131072, 32768, 1};
  add("grid of 2^32 CTAs", k, Status::INVALID_CONFIGURATION);
  k = base();
  k.regs = P.max_regs_per_thread + 1;
  add("regs over CONFIG1.MAX_REGS", k, Status::INVALID_VALUE);
  if (regs_k > 1) {
    k = base();
    k.regs = regs_k - 1;
    add("regs below the kernel's", k, Status::INVALID_VALUE);
  }
  k = base();
  k.dynamic_shared = P.shared_bytes + 1;
  add("shared over CONFIG2", k, Status::INVALID_VALUE);
  // A block whose registers do not fit the register file (within every per-thread limit).
  {
    uint32_t t = P.max_threads_per_block;
    k = base();
    k.block = drv::Dim3{t, 1, 1};
    k.regs = P.max_regs_per_thread;
    ASSERT_GT(uint64_t(t) * k.regs, P.regfile_regs);
    add("registers over CONFIG3.REGFILE_REGS", k, Status::LAUNCH_OUT_OF_RESOURCES);
  }
  k = base();
  add("3 arguments for 4 parameters", k, Status::INVALID_VALUE, 3);
  k = base();
  k.stream = foreign;
  add("another context's stream", k, Status::INVALID_HANDLE, 4, drv::Layer::API);
  drv::Window many[drv::kMaxLaunchWindows];
  for (auto& w : many) w = drv::Window{va.a, 4};
  k = base();
  k.windows = many;
  k.num_windows = P.max_windows + 1;
  add("more windows than CONFIG1.MAX_WINDOWS", k, Status::INVALID_VALUE);
  drv::Window outside{P.mem_bytes - 4, 8};
  k = base();
  k.windows = &outside;
  k.num_windows = 1;
  add("window outside memory", k, Status::INVALID_VALUE);

  for (const Case& cs : cases) {
    uint64_t token = 12345;
    EXPECT_EQ(d.launch(va.fn, cs.cfg, args, cs.nargs, &token), cs.want)
        << cs.what << ": " << this->h.last_error_text();
    EXPECT_EQ(d.last_error().status, cs.want) << cs.what;
    EXPECT_EQ(d.last_error().layer, cs.layer) << cs.what;
    EXPECT_NE(d.last_error().detail[0], '\0') << cs.what << ": no detail";
    EXPECT_EQ(token, 12345u) << cs.what << ": a token was handed out";
  }
  // Argument sizes and packed buffers.
  uint64_t n64 = va.n;
  drv::LaunchArg wrong[4] = {{&va.a, 4}, {&va.b, 4}, {&va.c, 4}, {&n64, 8}};
  EXPECT_EQ(d.launch(va.fn, base(), wrong, 4), Status::INVALID_VALUE)
      << "an 8-byte argument for a 4-byte parameter";
  EXPECT_EQ(d.last_error().layer, drv::Layer::LAUNCH_CONFIG);
  uint8_t packed[20] = {};
  EXPECT_EQ(d.launch_packed(va.fn, base(), packed, 20), Status::INVALID_VALUE)
      << "packed buffer of the wrong size";
  EXPECT_EQ(d.launch(drv::Function{0xFFFFFF}, base(), args, 4), Status::INVALID_HANDLE);

  EXPECT_EQ(this->queued_on_device(), queued0) << "a rejected launch reached the device";
  EXPECT_EQ(d.stats().submitted, submitted0);
  EXPECT_EQ(d.pending(), 0u);
  EXPECT_TRUE(this->h.reports.empty());
  // The context is not poisoned by configuration errors: a good launch runs.
  EXPECT_EQ(d.ctx_get_error(c), Status::OK);
  ASSERT_EQ(va.launch(d, drv::Stream{}, nullptr), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
}

// ---- vec_add ------------------------------------------------------------------------------------
TYPED_TEST_P(DriverSuite, VecAddRunsCorrectly) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  cq::Scoreboard sb;
  this->h.scoreboard = &sb;
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 1000, 42), Status::OK) << this->h.last_error_text();  // not a multiple of 128
  uint64_t token = 0;
  ASSERT_EQ(va.launch(d, drv::Stream{}, &token), Status::OK) << this->h.last_error_text();
  this->h.expect(drv::Stream{}, c, token, cq::CplStatus::COMPLETED);
  EXPECT_NE(token, 0u);
  EXPECT_EQ(d.pending(), 1u);
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
  ASSERT_EQ(this->h.reports.size(), 1u);
  const drv::LaunchReport& r = this->h.reports[0];
  EXPECT_EQ(r.token, token);
  EXPECT_TRUE(r.from_device);
  EXPECT_EQ(r.cpl_status, cq::CplStatus::COMPLETED);
  EXPECT_EQ(r.error, cq::ErrorCode::OK);
  EXPECT_EQ(r.stats.ctas_done, 8u);
  EXPECT_GT(r.stats.warp_instrs, 0u);
  EXPECT_GE(r.end_cycle, r.start_cycle);
  drv::LaunchReport lr;
  ASSERT_EQ(d.launch_result(token, &lr), Status::OK);
  EXPECT_EQ(lr.stats.ctas_done, 8u);
  EXPECT_TRUE(sb.ok()) << sb.report();
  EXPECT_EQ(sb.outstanding(), 0u);
  drv::DeviceCounters ctr;
  ASSERT_EQ(d.read_counters(&ctr), Status::OK);
  EXPECT_EQ(ctr.launches, 1u);
  EXPECT_EQ(ctr.failed, 0u);
  EXPECT_GE(ctr.warp_instrs, r.stats.warp_instrs);
  EXPECT_GT(ctr.progress, 0u);
  // The grid's memory windows: a second, independent context cannot see these buffers.
  EXPECT_EQ(d.ctx_get_error(c), Status::OK);
}

// ---- launch counters --------------------------------------------------------------------
// Runs kernel(in, out, n) over n words of a fixed pattern on dev in ctx and
// returns the launch's report (and fills *ex with what a scoreboard expects).
inline ::testing::AssertionResult run_in_out_n(drv::Device& dev, drv::Context ctx, const char* kernel,
                                              uint32_t n, uint32_t block, uint32_t grid,
                                              drv::LaunchReport* out,
                                              const std::function<void(uint64_t)>& launched = {}) {
  const auto& img = kernel_image(kernel);
  drv::Module m;
  drv::Function fn;
  if (dev.module_load_data(ctx, img.data(), img.size(), &m) != Status::OK ||
      dev.module_get_function(m, kernel, &fn) != Status::OK)
    return ::testing::AssertionFailure() << kernel << ": load failed: " << dev.last_error().detail;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = i * 2654435761u ^ (i >> 3);
  drv::DevPtr din = 0, dout = 0;
  if (dev.mem_alloc(ctx, n * 4, &din) != Status::OK || dev.mem_alloc(ctx, n * 4, &dout) != Status::OK ||
      dev.memcpy_htod(ctx, din, in.data(), n * 4) != Status::OK || dev.memset_d8(ctx, dout, 0, n * 4) != Status::OK)
    return ::testing::AssertionFailure() << kernel << ": buffers: " << dev.last_error().detail;
  drv::LaunchConfig cfg;
  cfg.grid = {grid, 1, 1};
  cfg.block = {block, 1, 1};
  const drv::LaunchArg args[] = {{&din, 4}, {&dout, 4}, {&n, 4}};
  uint64_t token = 0;
  if (dev.launch(fn, cfg, args, 3, &token) != Status::OK)
    return ::testing::AssertionFailure() << kernel << ": launch: " << dev.last_error().detail;
  if (launched) launched(token);
  if (dev.ctx_synchronize(ctx) != Status::OK)
    return ::testing::AssertionFailure() << kernel << ": synchronize: " << dev.last_error().detail;
  if (dev.launch_result(token, out) != Status::OK) return ::testing::AssertionFailure() << "no result";
  return ::testing::AssertionSuccess();
}

// What the SM counted comes back in the completion entry, per launch: the
// counters every backend counts alike equal the functional model's for the
// same deterministic launch (and the kernel's own arithmetic), the SM's
// warp states add up to its cycles times its warp slots.
TYPED_TEST_P(DriverSuite, LaunchCountersComeBackInTheCompletion) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  cq::Scoreboard sb;
  this->h.scoreboard = &sb;
  // The reference: the functional model behind its own driver.
  drv::ModelTransport ref_t(cq::ModelDeviceConfig{});
  drv::Device ref;
  ASSERT_EQ(ref.open(&ref_t), Status::OK);
  drv::Context rc;
  ASSERT_EQ(ref.ctx_create(&rc), Status::OK);

  struct Case {
    const char* kernel;
    uint32_t n, block, grid;
  } cases[] = {{"reduce_sum", 1000, 128, 4}, {"nested_divergence", 700, 64, 11}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.kernel);
    drv::LaunchReport want, got;
    ASSERT_TRUE(run_in_out_n(ref, rc, k.kernel, k.n, k.block, k.grid, &want));
    ASSERT_EQ(want.cpl_status, cq::CplStatus::COMPLETED);
    const drv::LaunchStats& w = want.stats;
    // The kernels' own arithmetic, so that the reference is not just trusted.
    EXPECT_EQ(w.ctas_done, k.grid);
    if (std::string(k.kernel) == "reduce_sum") {
      uint32_t steps = 0;
      for (uint32_t s = k.block / 2; s; s /= 2) ++steps;
      EXPECT_EQ(w.bar_releases, k.grid * (1 + steps));  // one BAR.SYNC, then one per tree step
      EXPECT_EQ(w.div_branches, 0u);                    // its branches are uniform
    } else {
      EXPECT_GT(w.div_branches, 0u);
      EXPECT_EQ(w.bar_releases, 0u);
    }
    EXPECT_GE(w.thread_instrs, w.warp_instrs);
    EXPECT_LE(w.thread_instrs, uint64_t(w.warp_instrs) * 32);

    // The expectation goes to the scoreboard before the launch is submitted.
    cq::Expectation e;
    e.counters = {w.warp_instrs, w.thread_instrs, w.div_branches, w.bar_releases, w.ctas_done};
    uint64_t token = 0;
    ASSERT_TRUE(run_in_out_n(d, c, k.kernel, k.n, k.block, k.grid, &got, [&](uint64_t t) {
      token = t;
      this->h.expect(drv::Stream{}, c, t, cq::CplStatus::COMPLETED, &e.counters);
    }));
    const drv::LaunchStats& g = got.stats;
    EXPECT_EQ(got.cpl_status, cq::CplStatus::COMPLETED);
    EXPECT_GT(g.cycles, 0u);
    EXPECT_EQ(g.cycles, got.end_cycle - got.start_cycle);
    EXPECT_GT(g.sm_cycles, 0u);
    EXPECT_LE(g.sm_cycles, g.cycles);
    EXPECT_EQ(g.warp_instrs, w.warp_instrs);
    EXPECT_EQ(g.thread_instrs, w.thread_instrs);
    EXPECT_EQ(g.div_branches, w.div_branches);
    EXPECT_EQ(g.bar_releases, w.bar_releases);
    EXPECT_EQ(g.ctas_done, w.ctas_done);
    EXPECT_GT(g.shared_passes + (std::string(k.kernel) == "reduce_sum" ? 0u : 1u), 0u);
    // Warp states: every warp slot is in one state each SM cycle (a device
    // without a pipeline, the functional model, reports none).
    uint64_t ws = 0;
    for (uint32_t x : g.warp_state_cycles) ws += x;
    if (ws != 0) {
      EXPECT_EQ(ws, uint64_t(g.sm_cycles) * d.props().num_warps);
      EXPECT_GT(g.warp_state_cycles[2], 0u);  // ISSUED
      EXPECT_LE(g.warp_state_cycles[2], g.sm_cycles);  // at most one issue per cycle
      EXPECT_GT(g.gmem_requests, 0u);
      EXPECT_GT(g.ifetch_fills, 0u);
    }
    // The hook's report and launch_result's agree.
    const drv::LaunchReport* hr = this->h.report_for(token);
    ASSERT_NE(hr, nullptr);
    EXPECT_EQ(std::memcmp(&hr->stats, &got.stats, sizeof got.stats), 0);
  }
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_TRUE(sb.ok()) << sb.report();
  this->h.scoreboard = nullptr;
  // A marker counts nothing.
  drv::Event ev;
  ASSERT_EQ(d.event_create(c, &ev), Status::OK);
  ASSERT_EQ(d.event_record(ev, drv::Stream{}), Status::OK);
  ASSERT_EQ(d.event_synchronize(ev), Status::OK);
  ASSERT_FALSE(this->h.reports.empty());
  const drv::LaunchReport& mk = this->h.reports.back();
  EXPECT_TRUE(mk.marker);
  EXPECT_EQ(mk.stats.warp_instrs + mk.stats.sm_cycles + mk.stats.thread_instrs + mk.stats.ctas_done, 0u);
  ref.close();
}

TYPED_TEST_P(DriverSuite, PollingModeRunsVecAdd) {
  drv::DeviceOptions o = TestFixture::options();
  o.use_irq = false;
  this->open(o);
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 333, 3), Status::OK) << this->h.last_error_text();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(va.launch(d, drv::Stream{}, nullptr, 64), Status::OK);
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
  EXPECT_EQ(d.stats().irq_wakeups, 0u);
  EXPECT_EQ(this->h.reports.size(), 3u);
}

// ---- streams and events ---------------------------------------------------------------------------
TYPED_TEST_P(DriverSuite, EventsOrderAcrossTwoStreams) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  drv::Stream s1, s2;
  ASSERT_EQ(d.stream_create(c, &s1), Status::OK);
  ASSERT_EQ(d.stream_create(c, &s2), Status::OK);
  uint32_t q1 = 0, q2 = 0;
  ASSERT_EQ(d.stream_queue(s1, &q1), Status::OK);
  ASSERT_EQ(d.stream_queue(s2, &q2), Status::OK);
  EXPECT_NE(q1, q2) << "independent streams should get their own queue pairs";
  VecAdd v1, v2;
  ASSERT_EQ(v1.setup(d, c, 2048, 11), Status::OK);
  ASSERT_EQ(v2.setup(d, c, 2048, 12), Status::OK);
  drv::Event e[6];
  for (auto& x : e) ASSERT_EQ(d.event_create(c, &x), Status::OK);
  EXPECT_EQ(d.event_query(e[0]), Status::OK) << "an event never recorded is complete";
  std::vector<uint64_t> t1, t2;
  uint64_t tok = 0;
  // Record and launch, alternating streams.
  ASSERT_EQ(d.event_record(e[0], s1), Status::OK);
  ASSERT_EQ(d.event_record(e[3], s2), Status::OK);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(v1.launch(d, s1, &tok), Status::OK);
    t1.push_back(tok);
    ASSERT_EQ(v2.launch(d, s2, &tok), Status::OK);
    t2.push_back(tok);
    if (i == 0) {
      ASSERT_EQ(d.event_record(e[1], s1), Status::OK);
      ASSERT_EQ(d.event_record(e[4], s2), Status::OK);
    }
  }
  ASSERT_EQ(d.event_record(e[2], s1), Status::OK);
  ASSERT_EQ(d.event_record(e[5], s2), Status::OK);
  EXPECT_EQ(d.event_query(e[2]), Status::NOT_READY) << "recorded behind three launches";
  EXPECT_EQ(d.stream_query(s1), Status::NOT_READY);
  ASSERT_EQ(d.event_synchronize(e[2]), Status::OK) << this->h.last_error_text();
  EXPECT_EQ(d.event_query(e[0]), Status::OK);
  EXPECT_EQ(d.event_query(e[1]), Status::OK);
  EXPECT_EQ(d.stream_query(s1), Status::OK);
  ASSERT_EQ(d.stream_synchronize(s2), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(v1.check(d, c));
  EXPECT_TRUE(v2.check(d, c));
  // Within each stream, markers and launches complete in submission order and
  // event timestamps are ordered.
  uint64_t ts[6];
  for (int i = 0; i < 6; ++i) ASSERT_EQ(d.event_timestamp(e[i], &ts[i]), Status::OK);
  EXPECT_LE(ts[0], ts[1]);
  EXPECT_LE(ts[1], ts[2]);
  EXPECT_LE(ts[3], ts[4]);
  EXPECT_LE(ts[4], ts[5]);
  for (uint64_t t : t1) {
    const drv::LaunchReport* r = this->h.report_for(t);
    ASSERT_NE(r, nullptr);
    EXPECT_GE(r->start_cycle, ts[0]);
    EXPECT_LE(r->end_cycle, ts[2]);
  }
  const drv::LaunchReport* first = this->h.report_for(t1[0]);
  EXPECT_LE(first->end_cycle, ts[1]) << "e1 was recorded after the first launch of s1";
  float ms01 = -1, ms02 = -1;
  ASSERT_EQ(d.event_elapsed_ms(e[0], e[2], &ms02), Status::OK);
  ASSERT_EQ(d.event_elapsed_ms(e[0], e[1], &ms01), Status::OK);
  EXPECT_GT(ms02, 0.f);
  EXPECT_LE(ms01, ms02);
  EXPECT_NEAR(ms02, double(ts[2] - ts[0]) / d.props().clock_khz, 1e-6);
  // Per-stream order in the reports.
  std::vector<uint64_t> seen1, seen2;
  for (const auto& r : this->h.reports) {
    if (r.stream.id == s1.id) seen1.push_back(r.token);
    if (r.stream.id == s2.id) seen2.push_back(r.token);
  }
  EXPECT_TRUE(std::is_sorted(seen1.begin(), seen1.end()));
  EXPECT_TRUE(std::is_sorted(seen2.begin(), seen2.end()));
  EXPECT_EQ(seen1.size(), 6u);
  EXPECT_EQ(seen2.size(), 6u);
  for (const auto& kv : this->h.times_reported) EXPECT_EQ(kv.second, 1) << "token " << kv.first;
}

// ---- faults ---------------------------------------------------------------------------------------
struct FaultCase {
  const char* kernel;
  cq::ErrorCode error;
  Status status;
  isa::Op at;         // the faulting instruction (NOP: do not check the pc)
  uint32_t watchdog;  // launch budget
};

TYPED_TEST_P(DriverSuite, FaultKernelsFailWithLocationThenStickUntilReset) {
  this->open();
  drv::Device& d = this->h.dev;
  const FaultCase cases[] = {
      {"fault_illegal_opcode", cq::ErrorCode::ILLEGAL_INSTR, Status::ILLEGAL_INSTRUCTION, isa::Op::NOP, 0},
      {"fault_out_of_window", cq::ErrorCode::OUT_OF_WINDOW, Status::ILLEGAL_ADDRESS, isa::Op::STG, 0},
      {"fault_misaligned", cq::ErrorCode::MISALIGNED, Status::MISALIGNED_ADDRESS, isa::Op::LDG, 0},
      {"fault_trap", cq::ErrorCode::TRAP, Status::TRAP, isa::Op::TRAP, 0},
      {"fault_barrier_deadlock", cq::ErrorCode::BARRIER_DEADLOCK, Status::BARRIER_DEADLOCK, isa::Op::NOP, 0},
      {"fault_endless_loop", cq::ErrorCode::WATCHDOG_TIMEOUT, Status::LAUNCH_TIMEOUT, isa::Op::NOP, 5000},
  };
  for (const FaultCase& fc : cases) {
    SCOPED_TRACE(fc.kernel);
    drv::Context c = this->new_ctx();
    drv::Module mod;
    drv::Function fn = this->load(c, fc.kernel, &mod);
    const uint32_t target_cta = 2, target_tid = 37;  // warp 1, lane 5
    const uint32_t nwords = 100;
    drv::DevPtr buf = 0;
    ASSERT_EQ(d.mem_alloc(c, nwords * 4, &buf), Status::OK);
    std::vector<uint32_t> pv = fault_kernel_params(fc.kernel, buf, nwords, target_cta, target_tid);
    std::vector<drv::LaunchArg> args;
    for (auto& v : pv) args.push_back(drv::LaunchArg{&v, 4});
    drv::LaunchConfig cfg;
    cfg.grid = drv::Dim3{4, 1, 1};
    cfg.block = drv::Dim3{64, 1, 1};
    cfg.watchdog = fc.watchdog;
    uint64_t token = 0;
    ASSERT_EQ(d.launch(fn, cfg, args.data(), uint32_t(args.size()), &token), Status::OK)
        << this->h.last_error_text();
    // Work queued behind the failing launch never runs before a reset.
    uint64_t behind = 0;
    ASSERT_EQ(d.launch(fn, cfg, args.data(), uint32_t(args.size()), &behind), Status::OK);
    EXPECT_EQ(d.ctx_synchronize(c), fc.status) << this->h.last_error_text();
    EXPECT_EQ(d.last_error().layer, drv::Layer::EXECUTION);
    EXPECT_EQ(d.ctx_get_error(c), fc.status);
    drv::LaunchReport f;
    ASSERT_EQ(d.ctx_last_failure(c, &f), Status::OK);
    EXPECT_EQ(f.token, token);
    EXPECT_EQ(f.error, fc.error) << cq::error_code_name(f.error);
    EXPECT_EQ(f.cpl_status, cq::CplStatus::FAILED);
    EXPECT_TRUE(f.from_device);
    EXPECT_EQ(f.fault_cta, target_cta);
    EXPECT_EQ(f.fault_cta_xyz.x, target_cta);
    if (fc.error == cq::ErrorCode::BARRIER_DEADLOCK) {
      EXPECT_LE(f.fault_warp, 1u);
    } else {
      EXPECT_EQ(f.fault_warp, target_tid / 32);
      EXPECT_EQ(f.fault_lane, target_tid % 32);
    }
    drv::DevPtr code = 0;
    ASSERT_EQ(d.module_code_range(mod, &code, nullptr), Status::OK);
    const isa::Module& m = kernel_module(fc.kernel);
    if (fc.at != isa::Op::NOP) {
      EXPECT_EQ(f.fault_pc, code + first_offset_of(m, fc.at));
    }
    if (fc.error == cq::ErrorCode::ILLEGAL_INSTR) {
      uint32_t off = 0;
      for (size_t i = 0; i < m.code.size(); ++i)
        if (m.code[i] == 0x7F) off = uint32_t(i * 8);
      EXPECT_EQ(f.fault_pc, code + off);
    }
    if (fc.error == cq::ErrorCode::OUT_OF_WINDOW) {
      EXPECT_EQ(f.fault_addr, buf + nwords * 4);
    }
    if (fc.error == cq::ErrorCode::MISALIGNED) {
      EXPECT_EQ(f.fault_addr, buf + 2);
    }
    EXPECT_EQ(f.stats.ctas_done, target_cta) << "CTAs before the faulting one finished";
    // The registers latched the same fault; the device is stopped.
    namespace rf = regs::f;
    EXPECT_EQ(rf::STATUS_FAULT.get(this->h.reg(regs::STATUS)), 1u);
    const uint32_t fi = this->h.reg(regs::FAULT_INFO);
    EXPECT_EQ(rf::FAULT_INFO_ERROR.get(fi), uint32_t(fc.error));
    EXPECT_EQ(this->h.reg(regs::FAULT_PC), f.fault_pc);
    EXPECT_EQ(this->h.reg(regs::FAULT_CTA), target_cta);
    EXPECT_EQ(this->h.reg(regs::FAULT_TOKEN_LO), uint32_t(token));
    // Sticky: the context refuses new work; nothing reaches the device.
    const uint64_t queued = this->queued_on_device();
    EXPECT_EQ(d.launch(fn, cfg, args.data(), uint32_t(args.size())), fc.status);
    EXPECT_EQ(this->queued_on_device(), queued);
    EXPECT_EQ(this->h.times_reported.count(behind), 0u) << "the launch behind the fault ran";
    // Reset: the launch behind the fault is reported lost, exactly once.
    ASSERT_EQ(d.reset(), Status::OK) << this->h.last_error_text();
    EXPECT_EQ(rf::STATUS_FAULT.get(this->h.reg(regs::STATUS)), 0u);
    ASSERT_EQ(this->h.times_reported[behind], 1);
    EXPECT_EQ(this->h.report_for(behind)->error, cq::ErrorCode::CONTEXT_LOST);
    EXPECT_FALSE(this->h.report_for(behind)->from_device);
    EXPECT_EQ(d.ctx_get_error(c), fc.status) << "the context's error stays sticky";
    EXPECT_EQ(d.ctx_destroy(c), Status::OK);
    // A new context runs correctly.
    drv::Context c2 = this->new_ctx();
    VecAdd va;
    ASSERT_EQ(va.setup(d, c2, 300, 5), Status::OK) << this->h.last_error_text();
    ASSERT_EQ(va.launch(d, drv::Stream{}, nullptr), Status::OK) << this->h.last_error_text();
    ASSERT_EQ(d.ctx_synchronize(c2), Status::OK) << this->h.last_error_text();
    EXPECT_TRUE(va.check(d, c2));
    EXPECT_EQ(d.ctx_destroy(c2), Status::OK);
  }
  for (const auto& kv : this->h.times_reported) EXPECT_EQ(kv.second, 1) << "token " << kv.first;
}

// ---- hang -> timeout -> progress check -> reset -> CONTEXT_LOST -----------------------------------
TYPED_TEST_P(DriverSuite, HangIsDetectedResetAndEveryPendingLaunchReportedLostOnce) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  cq::Scoreboard sb;
  this->h.scoreboard = &sb;
  drv::Function spin = this->load(c, "fault_endless_loop");
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 500, 9), Status::OK) << this->h.last_error_text();
  drv::Stream s2;
  ASSERT_EQ(d.stream_create(c, &s2), Status::OK);
  drv::Event ev;
  ASSERT_EQ(d.event_create(c, &ev), Status::OK);
  // Complete some work first: it must keep its real result.
  uint64_t done_before = 0;
  ASSERT_EQ(va.launch(d, drv::Stream{}, &done_before), Status::OK);
  this->h.expect(drv::Stream{}, c, done_before, cq::CplStatus::COMPLETED);
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK);
  // The endless kernel (no watchdog), then more work behind it on both streams.
  uint32_t p[2] = {0, 3};
  drv::LaunchArg args[2] = {{&p[0], 4}, {&p[1], 4}};
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{2, 1, 1};
  cfg.block = drv::Dim3{32, 1, 1};
  std::vector<uint64_t> lost, other;  // behind the spin on its queue / on another queue
  uint64_t tok = 0;
  ASSERT_EQ(d.launch(spin, cfg, args, 2, &tok), Status::OK);
  this->h.expect(drv::Stream{}, c, tok);
  lost.push_back(tok);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(va.launch(d, drv::Stream{}, &tok), Status::OK);
    this->h.expect(drv::Stream{}, c, tok);
    lost.push_back(tok);
    ASSERT_EQ(va.launch(d, s2, &tok), Status::OK);
    this->h.expect(s2, c, tok);
    other.push_back(tok);
  }
  ASSERT_EQ(d.event_record(ev, drv::Stream{}), Status::OK);
  const uint64_t checks0 = d.stats().hang_checks;
  const uint64_t t0 = this->h.transport->now_ns();
  drv::Stream s0;
  ASSERT_EQ(d.ctx_default_stream(c, &s0), Status::OK);
  EXPECT_EQ(d.stream_synchronize(s0, TypeParam::hang_timeout_ns()), Status::CONTEXT_LOST)
      << this->h.last_error_text();
  EXPECT_EQ(d.last_error().layer, drv::Layer::CONTEXT_LOST);
  EXPECT_GE(this->h.transport->now_ns() - t0, TypeParam::hang_timeout_ns());
  EXPECT_EQ(d.stats().hang_checks, checks0 + 1);
  EXPECT_EQ(d.stats().resets, 1u);
  EXPECT_EQ(d.pending(), 0u);
  // Everything pending was reported CONTEXT_LOST, by the driver, exactly once;
  // what completed before the reset kept its real result.
  ASSERT_EQ(this->h.times_reported[done_before], 1);
  EXPECT_EQ(this->h.report_for(done_before)->error, cq::ErrorCode::OK);
  uint64_t lost_reports = 0;
  for (uint64_t t : lost) {
    ASSERT_EQ(this->h.times_reported[t], 1) << "token " << t;
    const drv::LaunchReport* r = this->h.report_for(t);
    EXPECT_EQ(r->error, cq::ErrorCode::CONTEXT_LOST);
    EXPECT_EQ(r->status, Status::CONTEXT_LOST);
    EXPECT_FALSE(r->from_device);
    ++lost_reports;
  }
  // The other queue may have run some launches before the spinning one was
  // fetched (round-robin); each is reported once, completed or lost.
  for (uint64_t t : other) {
    ASSERT_EQ(this->h.times_reported[t], 1) << "token " << t;
    const drv::LaunchReport* r = this->h.report_for(t);
    if (r->error == cq::ErrorCode::OK) {
      EXPECT_TRUE(r->from_device);
    } else {
      EXPECT_EQ(r->error, cq::ErrorCode::CONTEXT_LOST);
      EXPECT_FALSE(r->from_device);
      ++lost_reports;
    }
  }
  EXPECT_EQ(d.stats().lost, lost_reports + 1) << "the lost launches and the event's marker";
  EXPECT_EQ(d.event_query(ev), Status::CONTEXT_LOST);
  for (const auto& kv : this->h.times_reported) EXPECT_EQ(kv.second, 1) << "token " << kv.first;
  EXPECT_EQ(sb.reset(), lost_reports) << "the scoreboard saw every completed entry, none of the lost";
  EXPECT_TRUE(sb.ok()) << sb.report();
  this->h.scoreboard_reset();
  // The context is lost; the device is clean; a new context runs vec_add.
  EXPECT_EQ(d.ctx_get_error(c), Status::CONTEXT_LOST);
  EXPECT_EQ(va.launch(d, drv::Stream{}, nullptr), Status::CONTEXT_LOST);
  const uint32_t st = this->h.reg(regs::STATUS);
  EXPECT_EQ(regs::f::STATUS_FAULT.get(st), 0u);
  EXPECT_EQ(regs::f::STATUS_IDLE.get(st), 1u);
  EXPECT_EQ(d.ctx_destroy(c), Status::OK);
  drv::Context c2 = this->new_ctx();
  VecAdd vb;
  ASSERT_EQ(vb.setup(d, c2, 777, 10), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(vb.launch(d, drv::Stream{}, &tok), Status::OK) << this->h.last_error_text();
  this->h.expect(drv::Stream{}, c2, tok, cq::CplStatus::COMPLETED);
  ASSERT_EQ(d.ctx_synchronize(c2), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(vb.check(d, c2));
  EXPECT_TRUE(sb.ok()) << sb.report();
}

TYPED_TEST_P(DriverSuite, SlowButProgressingDeviceTimesOutWithoutReset) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 64 * 1024, 13), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(va.launch(d, drv::Stream{}, nullptr, 32), Status::OK);  // 2048 short CTAs
  // Far too short a wait: the device is busy, but PROGRESS moves (CTAs retire).
  EXPECT_EQ(d.ctx_synchronize(c, 1000), Status::TIMEOUT) << this->h.last_error_text();
  EXPECT_EQ(d.last_error().layer, drv::Layer::TIMEOUT);
  EXPECT_EQ(d.stats().resets, 0u);
  EXPECT_EQ(d.ctx_get_error(c), Status::OK);
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
  bool progressing = true;
  ASSERT_EQ(d.check_progress(&progressing), Status::OK);
  EXPECT_FALSE(progressing) << "an idle device does not progress";
}

// ---- completion ring wrap under a slow consumer -------------------------------------------------------
TYPED_TEST_P(DriverSuite, CompletionRingWrapsManyTimesUnderSlowConsumer) {
  drv::DeviceOptions o = TestFixture::options();
  o.queues = 2;
  o.cq_entries = 4;
  o.sq_entries = 16;
  this->open(o);
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  cq::Scoreboard sb;
  sb.set_cq_size(0, 4);
  sb.set_cq_size(1, 4);
  this->h.scoreboard = &sb;
  drv::Stream s1, s2;
  ASSERT_EQ(d.stream_create(c, &s1), Status::OK);
  ASSERT_EQ(d.stream_create(c, &s2), Status::OK);
  uint32_t q1 = 9, q2 = 9;
  d.stream_queue(s1, &q1);
  d.stream_queue(s2, &q2);
  ASSERT_NE(q1, q2);
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 64, 21), Status::OK) << this->h.last_error_text();
  const int kLaunches = 320;
  for (int i = 0; i < kLaunches; ++i) {
    uint64_t tok = 0;
    drv::Stream s = (i % 3) ? s1 : s2;
    // Submits until the rings are full; the driver consumes only when it has to wait.
    ASSERT_EQ(va.launch(d, s, &tok, 32), Status::OK) << i << ": " << this->h.last_error_text();
    this->h.expect(s, c, tok, cq::CplStatus::COMPLETED);
    // A slow consumer: let the device run on, without consuming, every few launches.
    if (i % 7 == 0) {
      ASSERT_EQ(this->h.transport->delay(20000), Status::OK);
    }
  }
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
  EXPECT_TRUE(sb.ok()) << sb.report();
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_EQ(sb.observed(), uint64_t(kLaunches));
  EXPECT_GE(sb.wraps(0) + sb.wraps(1), uint64_t(kLaunches / 4 - 2));
  EXPECT_EQ(this->h.times_reported.size(), size_t(kLaunches));
  for (const auto& kv : this->h.times_reported) EXPECT_EQ(kv.second, 1);
}

// ---- raw ring protocol beside the driver --------------------------------------------------------------
// The driver uses queue 0 only; the test drives queue 1 itself with the
// reference producer/consumer, using buffers and code the driver placed.
TYPED_TEST_P(DriverSuite, FullCompletionRingMakesDeviceWaitNothingOverwritten) {
  drv::DeviceOptions o = TestFixture::options();
  o.queues = 1;
  this->open(o);
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  TransportBus bus(this->h.transport.get());
  RawVecAddQueue raw;
  ASSERT_TRUE(raw.setup(d, c, &bus, 1, 16, 4, 96, 31));
  drv::QueuePairHost& qp = raw.qp;
  const drv::DevPtr cqb = raw.cq_ring;
  cq::Scoreboard sb;
  sb.set_cq_size(1, 4);
  const uint32_t kN = 10;
  for (uint32_t i = 0; i < kN; ++i) {
    cq::LaunchDescriptor ds = raw.desc;
    ds.token = 0x1000 + i;
    uint32_t idx = 0;
    ASSERT_TRUE(qp.write_descriptor(ds, &idx));
    sb.expect(1, idx, cq::Expectation{ds.token, cq::CplStatus::COMPLETED});
  }
  ASSERT_TRUE(qp.ring_doorbell());
  ASSERT_EQ(this->h.transport->delay(TypeParam::hang_window_ns() * 4), Status::OK);
  using regs::QpReg;
  namespace rf = regs::f;
  // The device wrote 4 entries and stopped: it never writes past the host's head.
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::CQ_TAIL)), 4u);
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::SQ_HEAD)), 4u) << "fetched beyond the free completion slots";
  EXPECT_EQ(rf::QSTATUS_CQ_FULL.get(bus.reg(regs::qp(1, QpReg::QSTATUS))), 1u);
  const uint32_t progress = bus.reg(regs::PROGRESS);
  ASSERT_EQ(this->h.transport->delay(TypeParam::hang_window_ns()), Status::OK);
  EXPECT_EQ(bus.reg(regs::PROGRESS), progress) << "a waiting queue makes no progress";
  // The 4 entries are intact (seq 0..3, first-pass phase).
  for (uint32_t i = 0; i < 4; ++i) {
    cq::CompletionEntry e;
    ASSERT_EQ(this->h.transport->mem_read(cqb + i * cq::kCPL_BYTES, &e, cq::kCPL_BYTES), Status::OK);
    EXPECT_EQ(e.seq, i);
    EXPECT_EQ(e.token, 0x1000u + i);
    EXPECT_TRUE(e.phase_bit());
  }
  // Consume two: exactly two more are written (into slots 0 and 1, phase 0).
  for (int i = 0; i < 2; ++i) {
    cq::CompletionEntry e;
    ASSERT_EQ(qp.peek(&e), 1);
    sb.observe(1, qp.cq_head(), e);
    qp.pop();
  }
  ASSERT_TRUE(qp.commit_head());
  ASSERT_EQ(this->h.transport->delay(TypeParam::hang_window_ns() * 4), Status::OK);
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::CQ_TAIL)), 6u);
  cq::CompletionEntry e2;
  ASSERT_EQ(this->h.transport->mem_read(cqb + 2 * cq::kCPL_BYTES, &e2, cq::kCPL_BYTES), Status::OK);
  EXPECT_EQ(e2.seq, 2u) << "slot 2 was overwritten before the host consumed it";
  // Drain the rest at the host's pace.
  for (int guard = 0; qp.cq_head() < kN && guard < 1000; ++guard) {
    cq::CompletionEntry e;
    const int r = qp.peek(&e);
    ASSERT_GE(r, 0);
    if (r == 1) {
      sb.observe(1, qp.cq_head(), e);
      qp.pop();
      ASSERT_TRUE(qp.commit_head());
    } else {
      ASSERT_EQ(this->h.transport->delay(TypeParam::hang_window_ns() / 4), Status::OK);
    }
  }
  EXPECT_EQ(qp.cq_head(), kN);
  EXPECT_TRUE(sb.ok()) << sb.report();
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_EQ(sb.wraps(1), 2u);
  EXPECT_TRUE(raw.va.check(d, c));
}

TYPED_TEST_P(DriverSuite, BadDescriptorsFailWithoutWedging) {
  drv::DeviceOptions o = TestFixture::options();
  o.queues = 1;
  this->open(o);
  drv::Device& d = this->h.dev;
  const drv::DeviceProps& P = d.props();
  drv::Context c = this->new_ctx();
  TransportBus bus(this->h.transport.get());
  RawVecAddQueue raw;
  ASSERT_TRUE(raw.setup(d, c, &bus, 1, 64, 64, 64, 41));
  VecAdd& va = raw.va;
  drv::QueuePairHost& qp = raw.qp;
  const cq::LaunchDescriptor good = raw.desc;

  using DC = cq::DescCheck;
  std::vector<std::pair<cq::LaunchDescriptor, DC>> bad;
  auto mk = [&](DC why, auto&& edit) {
    cq::LaunchDescriptor x = good;
    edit(x);
    bad.push_back({x, why});
  };
  mk(DC::MAGIC, [](cq::LaunchDescriptor& x) { x.magic = 0x1234; });
  mk(DC::VERSION, [](cq::LaunchDescriptor& x) { x.version = 7; });
  mk(DC::FLAGS, [](cq::LaunchDescriptor& x) { x.flags = 0x80; });
  mk(DC::FLAGS, [](cq::LaunchDescriptor& x) { x.reserved = 1; });
  mk(DC::DIMS, [](cq::LaunchDescriptor& x) { x.grid_y = 0; });
  mk(DC::DIMS, [](cq::LaunchDescriptor& x) { x.block_z = 0; });
  mk(DC::BLOCK_SIZE, [&](cq::LaunchDescriptor& x) { x.block_x = uint16_t(P.max_threads_per_block + 1); });
  mk(DC::REGS, [](cq::LaunchDescriptor& x) { x.regs = 0; });
  mk(DC::REGS, [&](cq::LaunchDescriptor& x) { x.regs = uint8_t(P.max_regs_per_thread + 1); });
  mk(DC::SHARED, [&](cq::LaunchDescriptor& x) { x.shared_bytes = P.shared_bytes + 1; });
  mk(DC::RESOURCES, [&](cq::LaunchDescriptor& x) {
    x.block_x = uint16_t(P.max_threads_per_block);
    x.regs = uint8_t(P.max_regs_per_thread);
  });
  mk(DC::CODE_RANGE, [&](cq::LaunchDescriptor& x) {
    x.code_base = P.mem_bytes - 8;
    x.code_size = 16;
  });
  mk(DC::CODE_RANGE, [](cq::LaunchDescriptor& x) { x.code_size = 0; });
  mk(DC::ENTRY_PC, [](cq::LaunchDescriptor& x) { x.entry_pc += 4; });
  mk(DC::ENTRY_PC, [](cq::LaunchDescriptor& x) { x.entry_pc = x.code_base + x.code_size; });
  mk(DC::PARAM_RANGE, [&](cq::LaunchDescriptor& x) { x.param_addr = P.mem_bytes - 8; });
  mk(DC::WINDOW_COUNT, [&](cq::LaunchDescriptor& x) { x.window_count = uint8_t(P.max_windows + 1); });
  mk(DC::WINDOW_TABLE, [](cq::LaunchDescriptor& x) { x.window_table += 4; });
  mk(DC::WINDOW_TABLE, [&](cq::LaunchDescriptor& x) { x.window_table = P.mem_bytes - 4; });
  cq::Scoreboard sb;
  sb.set_cq_size(1, 64);
  std::vector<DC> why;
  uint64_t token = 0x5000;
  auto push = [&](cq::LaunchDescriptor x, DC reason) {
    x.token = token++;
    uint32_t idx = 0;
    ASSERT_TRUE(qp.write_descriptor(x, &idx));
    cq::Expectation e{x.token, reason == DC::NONE ? cq::CplStatus::COMPLETED : cq::CplStatus::FAILED};
    e.check_error = true;
    e.error = reason == DC::NONE ? cq::ErrorCode::OK : cq::ErrorCode::BAD_DESCRIPTOR;
    sb.expect(1, idx, e);
    why.push_back(reason);
  };
  for (auto& b : bad) push(b.first, b.second);
  // A window outside memory, through a table entry.
  {
    drv::DevPtr wt2 = 0;
    ASSERT_EQ(d.mem_alloc(c, 8, &wt2), Status::OK);
    cq::WindowEntry wb{P.mem_bytes - 16, 64};
    ASSERT_EQ(d.memcpy_htod(c, wt2, &wb, 8), Status::OK);
    cq::LaunchDescriptor x = good;
    x.window_table = wt2;
    push(x, DC::WINDOW_RANGE);
  }
  push(good, DC::NONE);  // still runs after all of that
  // Random garbage, written raw.
  std::mt19937 rng(1234);
  for (int i = 0; i < 20; ++i) {
    uint8_t raw[64];
    for (auto& b : raw) b = uint8_t(rng());
    uint64_t t = token++;
    std::memcpy(raw, &t, 8);  // the token field, so the scoreboard can match it
    uint32_t idx = 0;
    ASSERT_TRUE(qp.write_raw_descriptor(raw, &idx));
    cq::Expectation e{t, cq::CplStatus::FAILED};
    e.check_error = true;
    e.error = cq::ErrorCode::BAD_DESCRIPTOR;
    sb.expect(1, idx, e);
    why.push_back(DC::MAGIC);  // the first check a random descriptor fails
  }
  push(good, DC::NONE);
  ASSERT_TRUE(qp.ring_doorbell());
  const uint32_t total = qp.sq_tail();
  for (int guard = 0; qp.cq_head() < total && guard < 10000; ++guard) {
    cq::CompletionEntry e;
    const int r = qp.peek(&e);
    ASSERT_GE(r, 0);
    if (r == 0) {
      ASSERT_EQ(this->h.transport->delay(TypeParam::hang_window_ns() / 4), Status::OK);
      continue;
    }
    const uint32_t i = qp.cq_head();
    sb.observe(1, i, e);
    if (why[i] != DC::NONE) {
      EXPECT_EQ(cq::DescCheck(e.fault_addr), why[i])
          << "descriptor " << i << ": " << cq::desc_check_name(cq::DescCheck(e.fault_addr));
    }
    qp.pop();
    ASSERT_TRUE(qp.commit_head());
  }
  EXPECT_EQ(qp.cq_head(), total) << "the device wedged";
  EXPECT_TRUE(sb.ok()) << sb.report();
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_EQ(regs::f::STATUS_FAULT.get(bus.reg(regs::STATUS)), 0u) << "a bad descriptor is not sticky";
  EXPECT_EQ(bus.reg(regs::FAILED), total - 2);
  EXPECT_TRUE(va.check(d, c));
  // The driver's own queue is unaffected.
  ASSERT_EQ(va.launch(d, drv::Stream{}, nullptr), Status::OK);
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
}

TYPED_TEST_P(DriverSuite, ContextsAreIsolatedByWindows) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context a = this->new_ctx(), b = this->new_ctx();
  VecAdd va;
  ASSERT_EQ(va.setup(d, a, 64, 51), Status::OK);
  drv::DevPtr foreign = 0;
  ASSERT_EQ(d.mem_alloc(b, 256, &foreign), Status::OK);
  // Context a launches vec_add with c pointing into context b's buffer.
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{1, 1, 1};
  cfg.block = drv::Dim3{64, 1, 1};
  drv::LaunchArg args[4] = {{&va.a, 4}, {&va.b, 4}, {&foreign, 4}, {&va.n, 4}};
  ASSERT_EQ(d.launch(va.fn, cfg, args, 4), Status::OK);
  EXPECT_EQ(d.ctx_synchronize(a), Status::ILLEGAL_ADDRESS) << this->h.last_error_text();
  drv::LaunchReport f;
  ASSERT_EQ(d.ctx_last_failure(a, &f), Status::OK);
  EXPECT_EQ(f.fault_addr, foreign);
  // b has nothing pending: it survives a's fault; its next launch resets the device and runs.
  EXPECT_TRUE(vec_add_runs(this->h, b, 64, 52));
  EXPECT_EQ(d.ctx_get_error(a), Status::ILLEGAL_ADDRESS);
  EXPECT_EQ(d.stats().resets, 1u);
}

// ---- handles: a destroyed object's handle never becomes valid again ----------------------------
TYPED_TEST_P(DriverSuite, StaleHandlesNeverBecomeValidAgain) {
  this->open();
  drv::Device& d = this->h.dev;
  // Far more reuses of one context slot than an 8-bit generation survives.
  drv::Context first = this->new_ctx();
  ASSERT_EQ(d.ctx_destroy(first), Status::OK);
  for (int i = 0; i < 1000; ++i) {
    drv::Context c;
    ASSERT_EQ(d.ctx_create(&c), Status::OK);
    ASSERT_NE(c.id, first.id) << "reuse " << i;
    ASSERT_EQ(d.ctx_get_error(first), Status::INVALID_HANDLE) << "reuse " << i;
    ASSERT_EQ(d.ctx_destroy(c), Status::OK);
  }
  // A stale function handle never describes the kernel of a later module.
  drv::Context c = this->new_ctx();
  drv::Module m;
  const drv::Function stale = this->load(c, "vec_add", &m);
  ASSERT_EQ(d.module_unload(m), Status::OK);
  for (int i = 0; i < 300; ++i) {
    drv::Module m2;
    const drv::Function fn = this->load(c, "fault_trap", &m2);
    ASSERT_NE(fn.id, stale.id) << "reload " << i;
    drv::FunctionAttrs at;
    ASSERT_EQ(d.func_get_attributes(stale, &at), Status::INVALID_HANDLE) << "reload " << i;
    ASSERT_EQ(d.module_unload(m2), Status::OK);
  }
  // Through a slot's whole generation space (events: the cheapest table):
  // the slot is then retired, and the stale handle stayed invalid throughout.
  drv::Event e0;
  ASSERT_EQ(d.event_create(c, &e0), Status::OK);
  ASSERT_EQ(d.event_destroy(e0), Status::OK);
  uint64_t revived = 0;
  drv::Event e;
  for (uint32_t i = 1; i < drv::kGenRetired; ++i) {
    ASSERT_EQ(d.event_create(c, &e), Status::OK) << "create " << i;
    if ((e.id & 0xFF) != (e0.id & 0xFF)) {
      ADD_FAILURE() << "left the slot after " << i << " generations";
      break;
    }
    if (e.id == e0.id || d.event_query(e0) != Status::INVALID_HANDLE) ++revived;
    d.event_destroy(e);
  }
  EXPECT_EQ(revived, 0u);
  ASSERT_EQ(d.event_create(c, &e), Status::OK);
  EXPECT_NE(e.id & 0xFF, e0.id & 0xFF) << "the used-up slot is retired";
  EXPECT_EQ(d.event_query(e0), Status::INVALID_HANDLE);
  EXPECT_EQ(d.event_query(e), Status::OK);
}

// ---- a zero timeout: check once, report NOT_READY, never hang detection ---------------------------
TYPED_TEST_P(DriverSuite, ZeroTimeoutChecksOnceAndNeverResets) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  EXPECT_EQ(d.ctx_synchronize(c, 0), Status::OK) << "nothing pending";
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 4096, 21), Status::OK) << this->h.last_error_text();
  drv::Event ev;
  ASSERT_EQ(d.event_create(c, &ev), Status::OK);
  // 128 CTAs: no device time passes before the first wait, so it is still pending.
  ASSERT_EQ(va.launch(d, drv::Stream{}, nullptr, 32), Status::OK);
  ASSERT_EQ(d.event_record(ev, drv::Stream{}), Status::OK);
  drv::Stream s0;
  ASSERT_EQ(d.ctx_default_stream(c, &s0), Status::OK);
  const uint64_t checks = d.stats().hang_checks;
  EXPECT_EQ(d.ctx_synchronize(c, 0), Status::NOT_READY) << this->h.last_error_text();
  EXPECT_EQ(d.last_error().layer, drv::Layer::NONE);
  EXPECT_EQ(d.stream_synchronize(s0, 0), Status::NOT_READY);
  EXPECT_EQ(d.event_synchronize(ev, 0), Status::NOT_READY);
  EXPECT_EQ(d.synchronize(0), Status::NOT_READY);
  // Polling that way until the work is done never disturbs it.
  Status st;
  int polls = 0;
  while ((st = d.ctx_synchronize(c, 0)) == Status::NOT_READY && polls < 1000000) {
    ASSERT_EQ(this->h.transport->delay(1000), Status::OK);
    ++polls;
  }
  EXPECT_EQ(st, Status::OK) << this->h.last_error_text();
  EXPECT_GT(polls, 0);
  EXPECT_EQ(d.stats().hang_checks, checks);
  EXPECT_EQ(d.stats().resets, 0u);
  EXPECT_EQ(d.stats().lost, 0u);
  EXPECT_EQ(d.ctx_get_error(c), Status::OK);
  EXPECT_EQ(d.event_synchronize(ev, 0), Status::OK);
  EXPECT_TRUE(va.check(d, c));
}

// ---- module_load_file: bounded, and a clear cause for what is not a module file -------------------
TYPED_TEST_P(DriverSuite, ModuleLoadFileIsBoundedAndNamesTheCause) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  drv::Module m;
  // An endless file is refused at the module limit, not read until memory runs out.
  EXPECT_EQ(d.module_load_file(c, "/dev/zero", &m), Status::INVALID_IMAGE);
  EXPECT_EQ(d.last_error().layer, drv::Layer::LOAD);
  EXPECT_NE(std::strstr(d.last_error().detail, "module_load_file: /dev/zero: larger than the"), nullptr)
      << d.last_error().detail;
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(d.module_load_file(c, dir.c_str(), &m), Status::INVALID_VALUE);
  EXPECT_EQ(d.last_error().layer, drv::Layer::API);
  EXPECT_NE(std::strstr(d.last_error().detail, ": is a directory"), nullptr) << d.last_error().detail;
  EXPECT_EQ(d.module_load_file(c, "/nonexistent/m.bsm", &m), Status::INVALID_VALUE);
  EXPECT_NE(std::strstr(d.last_error().detail, "/nonexistent/m.bsm: No such file or directory"), nullptr)
      << d.last_error().detail;
  const std::string path = dir + "/driver_load_" + std::to_string(getpid()) + ".bsm";
  const std::vector<uint8_t>& img = kernel_image("vec_add");
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(img.data(), 1, img.size(), f), img.size());
  std::fclose(f);
  EXPECT_EQ(d.module_load_file(c, path.c_str(), &m), Status::OK) << this->h.last_error_text();
  std::remove(path.c_str());
}

// ---- freeing memory that a queued launch uses (issue 12 item 2) ------------------------------
// The engine is held (CONTROL.ENABLE = 0) so that the launch is certainly
// still queued when its buffer is freed and the memory allocated again.
TYPED_TEST_P(DriverSuite, MemFreeDefersPastQueuedLaunchesThatUseTheBuffer) {
  this->open();
  drv::Device& d = this->h.dev;
  TransportBus bus(this->h.transport.get());
  drv::Context a = this->new_ctx(), b = this->new_ctx();
  VecAdd va;
  ASSERT_EQ(va.setup(d, a, 1024, 61), Status::OK) << this->h.last_error_text();
  const uint32_t bytes = va.n * 4;
  uint32_t free0 = 0, free1 = 0;
  ASSERT_EQ(d.mem_get_info(&free0, nullptr), Status::OK);
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, 0));
  uint64_t tok = 0;
  ASSERT_EQ(va.launch(d, drv::Stream{}, &tok), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.mem_free(a, va.c), Status::OK) << this->h.last_error_text();
  // c is no longer a's at once ...
  std::vector<uint8_t> got(bytes);
  EXPECT_EQ(d.memcpy_dtoh(a, got.data(), va.c, bytes), Status::INVALID_VALUE);
  EXPECT_EQ(d.mem_free(a, va.c), Status::INVALID_VALUE) << "a second free of the same pointer";
  // ... but not allocatable while the launch that may write it is queued.
  ASSERT_EQ(d.mem_get_info(&free1, nullptr), Status::OK);
  EXPECT_EQ(free1, free0) << "the freed buffer became allocatable with its launch still queued";
  drv::DevPtr p = 0;
  ASSERT_EQ(d.mem_alloc(b, bytes, &p), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(p >= va.c + bytes || p + bytes <= va.c)
      << "b got [0x" << std::hex << p << ", +" << std::dec << bytes << ") over a's freed c at 0x" << std::hex
      << va.c;
  const std::vector<uint8_t> mine(bytes, 0x5A);
  ASSERT_EQ(d.memcpy_htod(b, p, mine.data(), bytes), Status::OK);
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, regs::f::CONTROL_ENABLE.put(1)));
  ASSERT_EQ(d.ctx_synchronize(a), Status::OK) << this->h.last_error_text();
  const drv::LaunchReport* r = this->h.report_for(tok);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->from_device);
  EXPECT_EQ(r->status, Status::OK) << "the launch wrote the memory it was granted";
  ASSERT_EQ(d.memcpy_dtoh(b, got.data(), p, bytes), Status::OK);
  EXPECT_TRUE(got == mine) << "context b sees context a's results in its new buffer";
  // The launch is done: the range is allocatable again (first fit hands it out).
  ASSERT_EQ(d.mem_get_info(&free1, nullptr), Status::OK);
  EXPECT_EQ(free1, free0) << "c returned, b's buffer of the same size taken";
  drv::DevPtr again = 0;
  ASSERT_EQ(d.mem_alloc(b, bytes, &again), Status::OK);
  EXPECT_EQ(again, va.c);
  ASSERT_EQ(d.mem_free(b, again), Status::OK);

  // Memory that only a pending free holds is waited for, not refused: a's
  // launch must have completed when the allocation that reuses it returns.
  ASSERT_EQ(d.mem_get_info(&free0, nullptr), Status::OK);
  const uint32_t big = (free0 & ~255u) - 65536;
  drv::DevPtr x = 0;
  ASSERT_EQ(d.mem_alloc(a, big, &x), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.mem_alloc(a, bytes, &va.c), Status::OK);
  ASSERT_EQ(d.mem_get_info(&free1, nullptr), Status::OK);
  ASSERT_LT(free1, big) << "no other gap can take a second block of that size";
  ASSERT_EQ(va.launch(d, drv::Stream{}, &tok), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.mem_free(a, x), Status::OK);
  drv::DevPtr y = 0;
  ASSERT_EQ(d.mem_alloc(b, big, &y), Status::OK) << this->h.last_error_text();
  EXPECT_EQ(y, x);
  drv::LaunchReport lr;
  EXPECT_EQ(d.launch_result(tok, &lr), Status::OK) << "the allocation returned before the launch was done";
  ASSERT_EQ(d.ctx_synchronize(a), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, a));

  // A module unloaded with a launch of it queued: the code stays until the
  // launch is done (and nothing else is placed over it meanwhile).
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, 0));
  ASSERT_EQ(d.memset_d8(a, va.c, 0xFF, bytes), Status::OK);
  ASSERT_EQ(va.launch(d, drv::Stream{}, &tok), Status::OK) << this->h.last_error_text();
  drv::DevPtr code = 0;
  uint32_t code_bytes = 0;
  ASSERT_EQ(d.module_code_range(va.mod, &code, &code_bytes), Status::OK);
  ASSERT_EQ(d.module_unload(va.mod), Status::OK);
  drv::Module m2;
  const drv::Function trap = this->load(b, "fault_trap", &m2);
  drv::DevPtr code2 = 0;
  ASSERT_EQ(d.module_code_range(m2, &code2, nullptr), Status::OK);
  EXPECT_NE(code2, code) << "another module was loaded over code a queued launch will run";
  (void)trap;
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, regs::f::CONTROL_ENABLE.put(1)));
  ASSERT_EQ(d.ctx_synchronize(a), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, a));
  EXPECT_EQ(d.stats().resets, 0u);
}

// ---- explicit windows lie inside the launching context's allocations (issue 12 item 1) ----------
TYPED_TEST_P(DriverSuite, ExplicitWindowsLieInsideTheContextsOwnAllocations) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context a = this->new_ctx(), b = this->new_ctx();
  VecAdd va;
  ASSERT_EQ(va.setup(d, a, 64, 81), Status::OK) << this->h.last_error_text();
  drv::DevPtr foreign = 0, odd = 0, gone = 0;
  ASSERT_EQ(d.mem_alloc(b, 256, &foreign), Status::OK);
  const std::vector<uint8_t> theirs(256, 0x11);
  ASSERT_EQ(d.memcpy_htod(b, foreign, theirs.data(), 256), Status::OK);
  ASSERT_EQ(d.mem_alloc(a, 100, &odd), Status::OK);
  ASSERT_EQ(d.mem_alloc(a, 256, &gone), Status::OK);
  ASSERT_EQ(d.mem_free(a, gone), Status::OK);
  drv::DevPtr code = 0, bcode = 0;
  uint32_t code_bytes = 0, bcode_bytes = 0;
  ASSERT_EQ(d.module_code_range(va.mod, &code, &code_bytes), Status::OK);
  drv::Module bm;
  this->load(b, "fault_trap", &bm);
  ASSERT_EQ(d.module_code_range(bm, &bcode, &bcode_bytes), Status::OK);
  const uint32_t sq = this->h.reg(regs::qp(0, regs::QpReg::SQ_BASE));
  const uint32_t cqb = this->h.reg(regs::qp(0, regs::QpReg::CQ_BASE));
  const drv::Window own{va.a, 3 * va.n * 4};  // a, b, c: exactly adjacent, one window may span them
  struct Case {
    const char* what;
    drv::Window w;
    const char* why;
  };
  const Case cases[] = {
      {"another context's buffer", {foreign, 256}, "another context's allocation"},
      {"c and one word of the next context's buffer", {va.c, va.n * 4 + 4}, "another context's allocation"},
      {"one byte past a 100-byte buffer", {odd, 101}, "past the end of this context's allocation"},
      {"freed memory", {gone, 256}, "unallocated memory"},
      {"the context's own module code", {code, code_bytes}, "module code (read-only to kernels)"},
      {"another context's module code", {bcode, bcode_bytes}, "another context's module code"},
      {"the submission ring", {sq, 64}, "the driver's rings"},
      {"the completion ring", {cqb, 64}, "the driver's rings"},
      {"the first page", {0, 16}, "reserved first page"},
  };
  drv::LaunchArg args[4] = {{&va.a, 4}, {&va.b, 4}, {&va.c, 4}, {&va.n, 4}};
  for (const Case& cs : cases) {
    drv::Window wins[2] = {own, cs.w};
    drv::LaunchConfig cfg;
    cfg.grid = drv::Dim3{1, 1, 1};
    cfg.block = drv::Dim3{64, 1, 1};
    cfg.windows = wins;
    cfg.num_windows = 2;
    const uint64_t queued = this->queued_on_device();
    uint64_t token = 12345;
    EXPECT_EQ(d.launch(va.fn, cfg, args, 4, &token), Status::INVALID_VALUE) << cs.what;
    EXPECT_EQ(d.last_error().layer, drv::Layer::LAUNCH_CONFIG) << cs.what;
    char head[64];
    std::snprintf(head, sizeof head, "window 1 [0x%08x, 0x%08llx)", cs.w.base,
                  (unsigned long long)(uint64_t(cs.w.base) + cs.w.size));
    EXPECT_NE(std::strstr(d.last_error().detail, head), nullptr) << cs.what << ": " << d.last_error().detail;
    EXPECT_NE(std::strstr(d.last_error().detail, cs.why), nullptr)
        << cs.what << ": " << d.last_error().detail;
    EXPECT_EQ(this->queued_on_device(), queued) << cs.what << ": queued";
    EXPECT_EQ(token, 12345u) << cs.what;
  }
  // Writing b's buffer through an explicit window over it: refused, b's data intact.
  drv::LaunchArg steal[4] = {{&va.a, 4}, {&va.b, 4}, {&foreign, 4}, {&va.n, 4}};
  drv::Window wins[2] = {drv::Window{va.a, 2 * va.n * 4}, drv::Window{foreign, 256}};
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{1, 1, 1};
  cfg.block = drv::Dim3{64, 1, 1};
  cfg.windows = wins;
  cfg.num_windows = 2;
  EXPECT_EQ(d.launch(va.fn, cfg, steal, 4), Status::INVALID_VALUE);
  ASSERT_EQ(d.synchronize(), Status::OK) << this->h.last_error_text();
  std::vector<uint8_t> got(256);
  ASSERT_EQ(d.memcpy_dtoh(b, got.data(), foreign, 256), Status::OK);
  EXPECT_TRUE(got == theirs) << "context a wrote context b's buffer";
  EXPECT_EQ(d.ctx_get_error(a), Status::OK);
  // Windows inside a's own allocations run (one spanning three adjacent ones, and an empty one).
  drv::Window good[2] = {own, drv::Window{0, 0}};
  cfg.windows = good;
  ASSERT_EQ(d.launch(va.fn, cfg, args, 4), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.ctx_synchronize(a), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, a));
}

// ---- the attack: a forged completion written through a window over the ring ---------------------
// Context a's kernel copies a forged 64-byte completion entry into the slot
// of the completion ring where the device will write the completion of
// context b's launch queued behind it. Were the window granted, the driver
// would report b's launch COMPLETED before it ran, write CQ_HEAD past the
// device's tail (a doorbell error) and never consume the real completion.
TYPED_TEST_P(DriverSuite, ForgedCompletionThroughAWindowOverTheRingIsRefused) {
  this->open();
  drv::Device& d = this->h.dev;
  TransportBus bus(this->h.transport.get());
  drv::Context a = this->new_ctx(), b = this->new_ctx();
  VecAdd victim;
  ASSERT_EQ(victim.setup(d, b, 1024, 91), Status::OK) << this->h.last_error_text();
  drv::Stream sb, sa;
  ASSERT_EQ(d.ctx_default_stream(b, &sb), Status::OK);
  ASSERT_EQ(d.ctx_default_stream(a, &sa), Status::OK);
  uint32_t q = 0, qa = 0;
  ASSERT_EQ(d.stream_queue(sb, &q), Status::OK);
  ASSERT_EQ(d.stream_queue(sa, &qa), Status::OK);
  for (int i = 0; i < 8 && qa != q; ++i) {  // a stream of a on b's queue pair
    ASSERT_EQ(d.stream_create(a, &sa), Status::OK);
    ASSERT_EQ(d.stream_queue(sa, &qa), Status::OK);
  }
  ASSERT_EQ(qa, q);
  const drv::Function copy = this->load(a, "transpose");  // rows = 1: a plain copy of cols words
  drv::DevPtr forged = 0;
  ASSERT_EQ(d.mem_alloc(a, cq::kCPL_BYTES, &forged), Status::OK);
  const uint32_t cq_base = bus.reg(regs::qp(q, regs::QpReg::CQ_BASE));
  const uint32_t cq_size = bus.reg(regs::qp(q, regs::QpReg::CQ_SIZE));
  const uint32_t victim_index = bus.reg(regs::qp(q, regs::QpReg::CQ_TAIL)) + 1;
  const uint32_t slot = cq_base + (victim_index % cq_size) * cq::kCPL_BYTES;
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, 0));  // both launches queued before either runs
  const uint32_t rows = 1, cols = cq::kCPL_BYTES / 4;
  drv::LaunchArg args[4] = {{&forged, 4}, {&slot, 4}, {&rows, 4}, {&cols, 4}};
  const drv::Window wins[2] = {drv::Window{forged, cq::kCPL_BYTES}, drv::Window{slot, cq::kCPL_BYTES}};
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{1, 1, 1};
  cfg.block = drv::Dim3{32, 8, 1};
  cfg.stream = sa;
  cfg.windows = wins;
  cfg.num_windows = 2;
  EXPECT_EQ(d.launch(copy, cfg, args, 4), Status::INVALID_VALUE) << "a window over the completion ring";
  EXPECT_NE(std::strstr(d.last_error().detail, "window 1 ["), nullptr) << d.last_error().detail;
  EXPECT_NE(std::strstr(d.last_error().detail, "the driver's rings"), nullptr) << d.last_error().detail;
  uint64_t vt = 0;
  ASSERT_EQ(victim.launch(d, sb, &vt), Status::OK) << this->h.last_error_text();
  cq::CompletionEntry e;
  e.token = vt;
  e.seq = victim_index;
  e.status = uint8_t(cq::CplStatus::COMPLETED);
  e.ctas_done = 8;
  e.phase = uint32_t((victim_index / cq_size) % 2 == 0 ? 1 : 0) | q << cq::kCPL_QUEUE_LSB;
  uint8_t bytes[cq::kCPL_BYTES];
  cq::encode(e, bytes);
  ASSERT_EQ(d.memcpy_htod(a, forged, bytes, sizeof bytes), Status::OK);
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, regs::f::CONTROL_ENABLE.put(1)));
  ASSERT_EQ(d.ctx_synchronize(b), Status::OK) << this->h.last_error_text();
  // b's launch really ran and its real completion is the one consumed.
  EXPECT_TRUE(victim.check(d, b)) << "b's launch was reported complete before it ran";
  ASSERT_EQ(d.synchronize(), Status::OK) << this->h.last_error_text();
  EXPECT_EQ(regs::f::QSTATUS_DOORBELL_ERROR.get(bus.reg(regs::qp(q, regs::QpReg::QSTATUS))), 0u)
      << "the host wrote CQ_HEAD past the device's tail";
  EXPECT_EQ(bus.reg(regs::qp(q, regs::QpReg::CQ_TAIL)), bus.reg(regs::qp(q, regs::QpReg::CQ_HEAD)))
      << "a completion the device wrote was never consumed";
  EXPECT_EQ(this->h.times_reported[vt], 1);
  EXPECT_EQ(d.stats().completed, d.stats().submitted);
  EXPECT_EQ(bus.reg(regs::LAUNCHES), uint32_t(d.stats().submitted));
}

// ---- the protected range: out of reach of every kernel (issue 12 items 1 and 5, device side) -----
// The driver keeps its rings, descriptors, parameter buffers and module code
// inside PROT_BASE/PROT_SIZE, and the device faults every kernel access to
// that range whatever the launch's windows. Shown with raw descriptors on a
// queue pair the driver does not use, with one window over all of device
// memory (the driver itself would refuse such a window).
TYPED_TEST_P(DriverSuite, ProtectedRangeIsOutOfReachOfEveryKernel) {
  drv::DeviceOptions o = TestFixture::options();
  o.queues = 1;
  this->open(o);
  drv::Device& d = this->h.dev;
  const drv::DeviceProps& P = d.props();
  TransportBus bus(this->h.transport.get());
  const uint32_t pb = bus.reg(regs::PROT_BASE), ps = bus.reg(regs::PROT_SIZE);
  ASSERT_GT(ps, 0u);
  EXPECT_EQ(pb, P.protected_base);
  EXPECT_EQ(ps, P.protected_bytes);
  auto inside = [&](uint32_t a, uint32_t n) { return a >= pb && uint64_t(a) + n <= uint64_t(pb) + ps; };
  const uint32_t sq0 = bus.reg(regs::qp(0, regs::QpReg::SQ_BASE));
  const uint32_t cq0 = bus.reg(regs::qp(0, regs::QpReg::CQ_BASE));
  EXPECT_TRUE(inside(sq0, o.sq_entries * cq::kDESC_BYTES)) << "submission ring at 0x" << std::hex << sq0;
  EXPECT_TRUE(inside(cq0, o.cq_entries * cq::kCPL_BYTES)) << "completion ring at 0x" << std::hex << cq0;
  drv::Context c = this->new_ctx();
  RawVecAddQueue raw;
  ASSERT_TRUE(raw.setup(d, c, &bus, 1, 64, 64, 32, 101));
  VecAdd& va = raw.va;
  drv::DevPtr code = 0;
  uint32_t code_bytes = 0;
  ASSERT_EQ(d.module_code_range(va.mod, &code, &code_bytes), Status::OK);
  EXPECT_TRUE(inside(code, code_bytes)) << "module code at 0x" << std::hex << code;
  EXPECT_LE(uint64_t(va.c) + va.n * 4, pb) << "context data lies below the protected range";
  // The driver's own launch: its parameter buffer and window table are inside too.
  const drv::Window abc[3] = {{va.a, va.n * 4}, {va.b, va.n * 4}, {va.c, va.n * 4}};
  drv::LaunchConfig lc;
  lc.grid = drv::Dim3{1, 1, 1};
  lc.block = drv::Dim3{32, 1, 1};
  lc.windows = abc;
  lc.num_windows = 3;
  drv::LaunchArg args[4] = {{&va.a, 4}, {&va.b, 4}, {&va.c, 4}, {&va.n, 4}};
  ASSERT_EQ(d.launch(va.fn, lc, args, 4), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
  uint8_t db[cq::kDESC_BYTES];
  ASSERT_EQ(this->h.transport->mem_read(sq0, db, sizeof db), Status::OK);
  const cq::LaunchDescriptor dd = cq::decode_descriptor(db);
  EXPECT_TRUE(inside(dd.param_addr, dd.param_size)) << "parameters at 0x" << std::hex << dd.param_addr;
  EXPECT_TRUE(inside(dd.window_table, dd.window_count * cq::kWIN_BYTES));

  // Raw launches of vec_add (one warp) with a window over all of memory.
  drv::DevPtr wt = 0, pp = 0;
  ASSERT_EQ(d.mem_alloc(c, cq::kWIN_BYTES, &wt), Status::OK);
  ASSERT_EQ(d.mem_alloc(c, 16, &pp), Status::OK);
  const cq::WindowEntry all{0, P.mem_bytes};
  ASSERT_EQ(d.memcpy_htod(c, wt, &all, sizeof all), Status::OK);
  std::vector<uint8_t> code_before(code_bytes);
  ASSERT_EQ(this->h.transport->mem_read(code, code_before.data(), code_bytes), Status::OK);
  const uint32_t ring_bytes = o.cq_entries * cq::kCPL_BYTES;
  uint64_t token = 0x7000;
  auto run = [&](uint32_t a, uint32_t b, uint32_t cc, cq::CompletionEntry* out) {
    const uint32_t pv[4] = {a, b, cc, va.n};
    ASSERT_EQ(d.memcpy_htod(c, pp, pv, 16), Status::OK);
    // A fresh queue pair after the reset that clears the previous fault.
    raw.qp.attach(bus.transport(), raw.qp.layout());
    ASSERT_TRUE(raw.qp.program());
    cq::LaunchDescriptor x = raw.desc;
    x.token = token++;
    x.grid_x = 1;
    x.param_addr = pp;
    x.window_table = wt;
    x.window_count = 1;
    uint32_t idx = 0;
    ASSERT_TRUE(raw.qp.write_descriptor(x, &idx));
    // The driver's completion ring as it is before the launch (a reset zeroes it).
    std::vector<uint8_t> ring_before(ring_bytes), ring_after(ring_bytes);
    ASSERT_EQ(this->h.transport->mem_read(cq0, ring_before.data(), ring_bytes), Status::OK);
    ASSERT_TRUE(raw.qp.ring_doorbell());
    int r = 0;
    for (int guard = 0; guard < 10000 && (r = raw.qp.peek(out)) == 0; ++guard)
      ASSERT_EQ(this->h.transport->delay(TypeParam::hang_window_ns() / 4), Status::OK);
    ASSERT_EQ(r, 1) << "no completion";
    raw.qp.pop();
    ASSERT_TRUE(raw.qp.commit_head());
    EXPECT_EQ(out->token, x.token);
    ASSERT_EQ(this->h.transport->mem_read(cq0, ring_after.data(), ring_bytes), Status::OK);
    EXPECT_TRUE(ring_after == ring_before) << "a kernel wrote the driver's completion ring";
    ASSERT_EQ(d.reset(), Status::OK) << this->h.last_error_text();
  };
  struct Case {
    const char* what;
    uint32_t a, b, c, fault;  // fault: the address that must fault (0: the launch completes)
    uint32_t lane;            // the lowest lane whose access touches the range
  };
  const Case cases[] = {
      {"a store into the driver's completion ring", va.a, va.b, cq0, cq0, 0},
      {"a store into the driver's submission ring", va.a, va.b, sq0, sq0, 0},
      {"a store into the parameter slots", va.a, va.b, dd.param_addr, dd.param_addr, 0},
      {"a load from the module code", code, va.b, va.c, code, 0},
      {"a store into the kernel's own code", va.a, va.b, code, code, 0},
      {"a store running into the range", va.a, va.b, pb - 64, pb, 16},
      {"the window itself is honoured outside the range", va.a, va.b, va.c, 0, 0},
  };
  for (const Case& cs : cases) {
    SCOPED_TRACE(cs.what);
    cq::CompletionEntry e;
    run(cs.a, cs.b, cs.c, &e);
    if (cs.fault == 0) {
      EXPECT_EQ(e.cpl_status(), cq::CplStatus::COMPLETED) << cq::error_code_name(e.error_code());
      continue;
    }
    EXPECT_EQ(e.cpl_status(), cq::CplStatus::FAILED);
    EXPECT_EQ(e.error_code(), cq::ErrorCode::OUT_OF_WINDOW) << cq::error_code_name(e.error_code());
    EXPECT_EQ(e.fault_addr, cs.fault) << std::hex << "fault at 0x" << e.fault_addr;
    EXPECT_EQ(e.fault_lane, cs.lane);
  }
  std::vector<uint8_t> code_after(code_bytes);
  ASSERT_EQ(this->h.transport->mem_read(code, code_after.data(), code_bytes), Status::OK);
  EXPECT_TRUE(code_after == code_before) << "a kernel rewrote its code";
  // The driver's queue still works.
  ASSERT_EQ(d.memset_d8(c, va.c, 0, va.n * 4), Status::OK);
  ASSERT_EQ(d.launch(va.fn, lc, args, 4), Status::OK) << this->h.last_error_text();
  ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
  EXPECT_TRUE(va.check(d, c));
}

// ---- memory errors (isa/mem_poison.h; F::poison gives the device's poisoned lines) ----
TYPED_TEST_P(DriverSuite, MemoryErrorsFailTheLaunchWithTheirKindAndAddress) {
  this->open();
  drv::Device& d = this->h.dev;
  iss::PoisonMap& poison = TypeParam::poison(this->h.transport.get());
  enum Where { LOAD_A, STORE_C, FETCH };
  for (Where where : {LOAD_A, STORE_C, FETCH}) {
    SCOPED_TRACE(where == LOAD_A ? "load" : where == STORE_C ? "store" : "fetch");
    drv::Context c = this->new_ctx();
    VecAdd va;
    ASSERT_EQ(va.setup(d, c, 1024, 11), Status::OK) << this->h.last_error_text();
    drv::DevPtr code = 0;
    ASSERT_EQ(d.module_code_range(va.mod, &code, nullptr), Status::OK);
    // The line holding elements 352.. (CTA 2, warp 3 of block 128), or the LDG's code line.
    const uint32_t target = where == LOAD_A ? va.a + 4 * 352 : where == STORE_C ? va.c + 4 * 352
                            : code + first_offset_of(kernel_module("vec_add"), isa::Op::LDG);
    poison.poison(target, 1);
    uint64_t token = 0;
    ASSERT_EQ(va.launch(d, drv::Stream{}, &token), Status::OK) << this->h.last_error_text();
    EXPECT_EQ(d.ctx_synchronize(c), Status::MEMORY_ERROR) << this->h.last_error_text();
    EXPECT_EQ(d.last_error().layer, drv::Layer::EXECUTION);
    drv::LaunchReport f;
    ASSERT_EQ(d.ctx_last_failure(c, &f), Status::OK);
    EXPECT_EQ(f.token, token);
    EXPECT_TRUE(f.from_device);
    EXPECT_EQ(this->h.times_reported[token], 1);
    if (where == FETCH) {
      // The first instruction of the kernel in the poisoned line.
      const uint32_t first = std::max<uint32_t>(iss::PoisonMap::line_of(target), code);
      EXPECT_EQ(f.error, cq::ErrorCode::FETCH_ERROR) << cq::error_code_name(f.error);
      EXPECT_EQ(f.fault_pc, first);
      EXPECT_EQ(f.fault_addr, first);
    } else {
      // The lowest lane whose access lies in the line, and its address.
      const drv::DevPtr base = where == LOAD_A ? va.a : va.c;
      const uint32_t i0 = (std::max(iss::PoisonMap::line_of(target), base) - base + 3) / 4;
      EXPECT_EQ(f.error, cq::ErrorCode::MEMORY_ERROR) << cq::error_code_name(f.error);
      EXPECT_EQ(f.fault_addr, base + 4 * i0);
      EXPECT_EQ(f.fault_cta, i0 / 128);
      EXPECT_EQ(f.fault_warp, (i0 % 128) / 32);
      EXPECT_EQ(f.fault_lane, i0 % 32);
      const isa::Module& m = kernel_module("vec_add");
      const uint32_t ldg = first_offset_of(m, isa::Op::LDG), stg = first_offset_of(m, isa::Op::STG);
      EXPECT_EQ(f.fault_pc, code + (where == LOAD_A ? ldg : stg));
    }
    // With the line repaired the device runs again (after the reset the failure forces).
    poison.clear();
    EXPECT_TRUE(vec_add_runs(this->h, this->new_ctx(), 1000, 12));
  }
}

TYPED_TEST_P(DriverSuite, RingErrorsAreReportedAndTheDeviceRecovers) {
  this->open();
  drv::Device& d = this->h.dev;
  iss::PoisonMap& poison = TypeParam::poison(this->h.transport.get());
  const uint32_t nq = d.options().queues ? d.options().queues : d.props().num_queues;
  for (bool completion_ring : {false, true}) {
    SCOPED_TRACE(completion_ring ? "completion entry" : "descriptor");
    drv::Context c = this->new_ctx();
    VecAdd va;
    ASSERT_EQ(va.setup(d, c, 256, 13), Status::OK) << this->h.last_error_text();
    // Poison the slot the next launch of every queue pair uses.
    uint32_t slot_line[drv::kMaxQueues] = {};
    for (uint32_t q = 0; q < nq; ++q) {
      const uint32_t slot = next_ring_slot(this->h.transport.get(), q, completion_ring);
      ASSERT_NE(slot, 0u) << "queue pair " << q << " is off";
      slot_line[q] = iss::PoisonMap::line_of(slot);
      poison.poison(slot, 64);
    }
    uint64_t token = 0;
    ASSERT_EQ(va.launch(d, drv::Stream{}, &token), Status::OK) << this->h.last_error_text();
    EXPECT_EQ(d.ctx_synchronize(c), Status::MEMORY_ERROR) << this->h.last_error_text();
    drv::LaunchReport f;
    ASSERT_EQ(d.ctx_last_failure(c, &f), Status::OK);
    EXPECT_EQ(f.token, token);
    EXPECT_EQ(f.error, cq::ErrorCode::RING_ERROR) << cq::error_code_name(f.error);
    EXPECT_EQ(f.fault_addr, slot_line[f.queue]);
    EXPECT_EQ(this->h.times_reported[token], 1);
    if (completion_ring) {
      // Nothing was written into the poisoned entry; FAULT_* named the launch.
      EXPECT_EQ(this->h.reg(regs::FAULT_TOKEN_LO), uint32_t(token));
    }
    poison.clear();
    EXPECT_TRUE(vec_add_runs(this->h, this->new_ctx(), 1000, 14));
  }
}

// A kernel with local memory (tests/ptx/local.ptx, 84 bytes per thread):
// the driver allocates the context's local buffer, grants it as one more
// window, passes it as the hidden parameter, grows it for a larger grid, and
// refuses, with nothing queued, a launch whose buffer does not fit memory or
// whose windows leave none for it.
TYPED_TEST_P(DriverSuite, LocalMemoryBufferIsAllocatedGrantedAndPassed) {
  this->open();
  drv::Device& d = this->h.dev;
  drv::Context c = this->new_ctx();
  const isa::PtxResult ptx = isa::translate_ptx_file(BARESM_SOURCE_DIR "/tests/ptx/local.ptx");
  ASSERT_TRUE(ptx.ok()) << ptx.format_errors();
  const std::vector<uint8_t> image = isa::write_module(ptx.module);
  drv::Module m;
  ASSERT_EQ(d.module_load_data(c, image.data(), image.size(), &m), Status::OK) << this->h.last_error_text();
  drv::Function fn;
  ASSERT_EQ(d.module_get_function(m, "local", &fn), Status::OK);
  drv::FunctionAttrs fa;
  ASSERT_EQ(d.func_get_attributes(fn, &fa), Status::OK);
  EXPECT_EQ(fa.local_bytes, 84u);
  EXPECT_EQ(fa.param_bytes, 16u);  // the user's parameters only: the hidden one is the driver's

  std::vector<uint32_t> in(16);
  for (uint32_t j = 0; j < 16; ++j) in[j] = 0x9E3779B9u * (j + 1);
  drv::DevPtr din = 0, dout = 0;
  ASSERT_EQ(d.mem_alloc(c, 64, &din), Status::OK);
  ASSERT_EQ(d.mem_alloc(c, 8 * 4 * 192, &dout), Status::OK);
  ASSERT_EQ(d.memcpy_htod(c, din, in.data(), 64), Status::OK);
  const uint64_t din64 = din, dout64 = dout;
  drv::LaunchArg args[2] = {{&din64, 8}, {&dout64, 8}};
  const uint32_t most = std::min<uint32_t>(192, d.props().max_threads_per_block);
  for (uint32_t n : {32u, most}) {  // the second launch needs a larger buffer
    drv::LaunchConfig cfg;
    cfg.grid = drv::Dim3{1, 1, 1};
    cfg.block = drv::Dim3{n, 1, 1};
    uint64_t token = 0;
    ASSERT_EQ(d.launch(fn, cfg, args, 2, &token), Status::OK) << this->h.last_error_text();
    ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << this->h.last_error_text();
    drv::LaunchReport r;
    ASSERT_EQ(d.launch_result(token, &r), Status::OK);
    ASSERT_EQ(r.error, cq::ErrorCode::OK) << "block " << n;
    std::vector<uint32_t> out(8 * n);
    ASSERT_EQ(d.memcpy_dtoh(c, out.data(), dout, 4 * 8 * n), Status::OK);
    for (uint32_t t = 0; t < n; ++t) {
      uint32_t a[16], sum = 0;
      for (uint32_t j = 0; j < 16; ++j) a[j] = in[j] ^ t;
      for (uint32_t j = 0; j < 16; ++j) a[(t + j) & 15] += j;
      for (uint32_t v : a) sum += v;
      ASSERT_EQ(out[8 * t], a[t & 15]) << "block " << n << " thread " << t;
      ASSERT_EQ(out[8 * t + 7], sum) << "block " << n << " thread " << t;
    }
  }
  // 65535 CTAs of 1024 threads: 84 x 32 x 2^21 bytes, more than the device has.
  const uint64_t submitted0 = d.stats().submitted;
  drv::LaunchConfig huge;
  huge.grid = drv::Dim3{65535, 1, 1};
  huge.block = drv::Dim3{d.props().max_threads_per_block, 1, 1};
  EXPECT_EQ(d.launch(fn, huge, args, 2, nullptr), Status::OUT_OF_MEMORY);
  EXPECT_EQ(d.last_error().layer, drv::Layer::LAUNCH_CONFIG);
  EXPECT_NE(this->h.last_error_text().find("bytes of local memory (84 bytes per thread"), std::string::npos)
      << this->h.last_error_text();
  // Every window taken by the caller: none left for the local buffer.
  std::vector<drv::Window> wins(std::min<uint32_t>(d.props().max_windows, drv::kMaxLaunchWindows),
                                drv::Window{din, 64});
  drv::LaunchConfig full;
  full.grid = drv::Dim3{1, 1, 1};
  full.block = drv::Dim3{32, 1, 1};
  full.windows = wins.data();
  full.num_windows = uint32_t(wins.size());
  EXPECT_EQ(d.launch(fn, full, args, 2, nullptr), Status::INVALID_VALUE);
  EXPECT_NE(this->h.last_error_text().find("needs a window of its own"), std::string::npos)
      << this->h.last_error_text();
  EXPECT_EQ(d.stats().submitted, submitted0);
  EXPECT_EQ(d.ctx_destroy(c), Status::OK);
}

REGISTER_TYPED_TEST_SUITE_P(
    DriverSuite, MemoryErrorsFailTheLaunchWithTheirKindAndAddress, RingErrorsAreReportedAndTheDeviceRecovers,
    PropertiesComeFromConfigRegisters, OpenRejectsAWrongDeviceOrBadOptions, AllocCopyFree,
    ModuleLoadErrors, LaunchValidationQueuesNothing, VecAddRunsCorrectly, PollingModeRunsVecAdd,
    EventsOrderAcrossTwoStreams, FaultKernelsFailWithLocationThenStickUntilReset,
    HangIsDetectedResetAndEveryPendingLaunchReportedLostOnce, SlowButProgressingDeviceTimesOutWithoutReset,
    CompletionRingWrapsManyTimesUnderSlowConsumer, FullCompletionRingMakesDeviceWaitNothingOverwritten,
    BadDescriptorsFailWithoutWedging, ContextsAreIsolatedByWindows, StaleHandlesNeverBecomeValidAgain,
    ZeroTimeoutChecksOnceAndNeverResets, ModuleLoadFileIsBoundedAndNamesTheCause,
    MemFreeDefersPastQueuedLaunchesThatUseTheBuffer, ExplicitWindowsLieInsideTheContextsOwnAllocations,
    ForgedCompletionThroughAWindowOverTheRingIsRefused, ProtectedRangeIsOutOfReachOfEveryKernel,
    LocalMemoryBufferIsAllocatedGrantedAndPassed, LaunchCountersComeBackInTheCompletion);

}  // namespace baresm::drvtest
