// Every field of drv::DeviceOptions at its limits (issue 33): below its
// minimum, at its minimum, at its maximum, above its maximum, and the
// combinations whose product does not fit the device (or, computed in 32
// bits, would wrap). Device::open refuses what it cannot honour, with
// INVALID_VALUE (a value out of its range) or OUT_OF_MEMORY (values that are
// each fine but together do not fit device memory), and a message naming the
// option and the numbers; what it accepts works as asked.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "contract/regs.h"
#include "contract/rings.h"
#include "host_driver/model_transport.h"
#include "isa/module.h"
#include "tests/driver/driver_harness.h"

namespace baresm::drvtest {
namespace {

constexpr uint32_t kModelMem = 4u << 20;  // cq::ModelDeviceConfig's default device memory
constexpr uint32_t kModelQueues = 4;      // and queue pairs

struct Case {
  const char* name;
  std::function<void(drv::DeviceOptions&)> set;
  drv::Status expect;
  std::vector<std::string> says;  // in the error's detail (refusals)
  bool runs = false;              // accepted: vec_add runs through the device
  uint32_t mem_bytes = kModelMem;
};

std::string print(const Case& c) {
  return c.name;
}
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

drv::DeviceOptions base_options() {
  drv::DeviceOptions o;
  o.sync_timeout_ns = 50'000'000;  // as the driver suite (test_driver_model.cpp)
  o.hang_window_ns = 20'000;
  return o;
}

// The rings and slots of one queue pair, as Device::open lays them out.
uint64_t ring_bytes(uint32_t sq, uint32_t cq, uint32_t param) {
  auto a256 = [](uint64_t v) { return (v + 255) / 256 * 256; };
  const uint64_t slot = (uint64_t(param) + 7) / 8 * 8 + drv::kMaxLaunchWindows * cq::kWIN_BYTES;
  return a256(uint64_t(sq) * cq::kDESC_BYTES) + a256(uint64_t(cq) * cq::kCPL_BYTES) + a256(sq * slot);
}
// The largest code pool that rings of 64 entries leave room for on the model.
uint32_t max_code_pool() {
  const drv::DeviceOptions o = base_options();
  const uint64_t rings = kModelQueues * ring_bytes(64, 64, o.max_param_bytes);
  return uint32_t((kModelMem / 256 * 256 - rings - 512) / 256 * 256);
}

std::vector<Case> cases() {
  using S = drv::Status;
  const uint32_t pool = max_code_pool();
  return {
      // queues: 0 = all, 1 .. the device's (kMaxQueues for the driver)
      {"queues_all", [](auto& o) { o.queues = 0; }, S::OK, {}, true},
      {"queues_min", [](auto& o) { o.queues = 1; }, S::OK, {}, true},
      {"queues_max", [](auto& o) { o.queues = kModelQueues; }, S::OK, {}, true},
      {"queues_above_device", [](auto& o) { o.queues = kModelQueues + 1; }, S::INVALID_VALUE,
       {"queues", "5", "4"}},
      {"queues_above_driver", [](auto& o) { o.queues = drv::kMaxQueues + 1; }, S::INVALID_VALUE,
       {"queues", "9"}},
      {"queues_huge", [](auto& o) { o.queues = 0xFFFFFFFFu; }, S::INVALID_VALUE, {"queues", "4294967295"}},
      // sq_entries: 0 (fit the device) or a power of two, 1 .. kMaxSqEntries
      {"sq_fit", [](auto& o) { o.sq_entries = 0; }, S::OK, {}, true},
      {"sq_min", [](auto& o) { o.sq_entries = 1; }, S::OK, {}, true},
      {"sq_max", [](auto& o) { o.sq_entries = drv::kMaxSqEntries; }, S::OK, {}, true},
      {"sq_above_max", [](auto& o) { o.sq_entries = 2 * drv::kMaxSqEntries; }, S::INVALID_VALUE,
       {"sq_entries", "512", "256"}},
      {"sq_not_pow2", [](auto& o) { o.sq_entries = 48; }, S::INVALID_VALUE, {"sq_entries", "48", "power of two"}},
      {"sq_huge", [](auto& o) { o.sq_entries = 0x80000000u; }, S::INVALID_VALUE, {"sq_entries", "2147483648"}},
      // cq_entries: 0 (fit the device) or a power of two, 1 .. 65536 (the device's ring-size limit)
      {"cq_fit", [](auto& o) { o.cq_entries = 0; }, S::OK, {}, true},
      {"cq_min", [](auto& o) { o.cq_entries = 1; }, S::OK, {}, true},
      {"cq_max",
       [](auto& o) {
         o.cq_entries = 65536;
         o.queues = 1;
       },
       S::OK, {}, true, 16u << 20},
      {"cq_above_max", [](auto& o) { o.cq_entries = 131072; }, S::INVALID_VALUE, {"cq_entries", "131072", "65536"}},
      {"cq_not_pow2", [](auto& o) { o.cq_entries = 100; }, S::INVALID_VALUE, {"cq_entries", "100"}},
      // max_param_bytes: 0 .. isa::kMaxParamBytes (rounded up to 8)
      {"param_min", [](auto& o) { o.max_param_bytes = 0; }, S::OK, {}},
      {"param_max", [](auto& o) { o.max_param_bytes = isa::kMaxParamBytes; }, S::OK, {}, true},
      {"param_above_max", [](auto& o) { o.max_param_bytes = isa::kMaxParamBytes + 1; }, S::INVALID_VALUE,
       {"max_param_bytes", "4097", "4096"}},
      {"param_wraps_when_rounded", [](auto& o) { o.max_param_bytes = 0xFFFFFFFFu; }, S::INVALID_VALUE,
       {"max_param_bytes", "4294967295", "4096"}},
      {"param_16MiB_256_entries",
       [](auto& o) {
         o.max_param_bytes = 16u << 20;
         o.sq_entries = 256;
       },
       S::INVALID_VALUE, {"max_param_bytes", "16777216"}},
      // code_pool_bytes: 0 = default, else up to what the rings leave
      {"code_pool_default", [](auto& o) { o.code_pool_bytes = 0; }, S::OK, {}, true},
      {"code_pool_min", [](auto& o) { o.code_pool_bytes = 1; }, S::OK, {}},
      {"code_pool_max",  // 512 bytes left for data
       [pool](auto& o) {
         o.code_pool_bytes = pool;
         o.sq_entries = o.cq_entries = 64;
       },
       S::OK, {}},
      {"code_pool_above_max",
       [pool](auto& o) {
         o.code_pool_bytes = pool + 256;
         o.sq_entries = o.cq_entries = 64;
       },
       S::OUT_OF_MEMORY, {"code_pool_bytes", std::to_string(pool + 256), "4194304"}},
      // rings left 0 fit around a code pool that takes all but their smallest size
      {"code_pool_max_rings_fit", [pool](auto& o) { o.code_pool_bytes = pool + 256; }, S::OK, {}},
      {"code_pool_huge", [](auto& o) { o.code_pool_bytes = 0xFFFFFFFFu; }, S::OUT_OF_MEMORY,
       {"code_pool_bytes", "4294967295"}},
      // use_irq: both
      {"irq_off", [](auto& o) { o.use_irq = false; }, S::OK, {}, true},
      {"irq_on", [](auto& o) { o.use_irq = true; }, S::OK, {}, true},
      // sync_timeout_ns: 1 .. 2^64-1 (0 would turn every default wait into a query)
      {"sync_timeout_below_min", [](auto& o) { o.sync_timeout_ns = 0; }, S::INVALID_VALUE, {"sync_timeout_ns", "0"}},
      {"sync_timeout_min",
       [](auto& o) {
         o.sync_timeout_ns = 1;
         o.hang_window_ns = 1;
       },
       S::OK, {}},
      {"sync_timeout_max", [](auto& o) { o.sync_timeout_ns = ~0ull; }, S::OK, {}, true},
      // hang_window_ns: 1 .. sync_timeout_ns
      {"hang_window_below_min", [](auto& o) { o.hang_window_ns = 0; }, S::INVALID_VALUE, {"hang_window_ns", "0"}},
      {"hang_window_min", [](auto& o) { o.hang_window_ns = 1; }, S::OK, {}, true},
      {"hang_window_max", [](auto& o) { o.hang_window_ns = o.sync_timeout_ns; }, S::OK, {}, true},
      {"hang_window_above_timeout", [](auto& o) { o.hang_window_ns = o.sync_timeout_ns + 1; }, S::INVALID_VALUE,
       {"hang_window_ns", "50000001", "sync_timeout_ns", "50000000"}},
      // poll_interval_ns: 1 .. 2^64-1 (0: a polling wait would let no device time pass)
      {"poll_below_min",
       [](auto& o) {
         o.poll_interval_ns = 0;
         o.use_irq = false;
       },
       S::INVALID_VALUE, {"poll_interval_ns", "0"}},
      {"poll_min",
       [](auto& o) {
         o.poll_interval_ns = 1;
         o.use_irq = false;
       },
       S::OK, {}, true},
      {"poll_max",
       [](auto& o) {
         o.poll_interval_ns = ~0ull;
         o.use_irq = false;
       },
       S::OK, {}, true},
      // watchdog: the whole WATCHDOG register
      {"watchdog_min", [](auto& o) { o.watchdog = 0; }, S::OK, {}, true},
      {"watchdog_max", [](auto& o) { o.watchdog = 0xFFFFFFFFu; }, S::OK, {}, true},
      // Combinations: each field in range, the product not in device memory.
      {"rings_do_not_fit",
       [](auto& o) {
         o.max_param_bytes = isa::kMaxParamBytes;
         o.sq_entries = drv::kMaxSqEntries;
         o.cq_entries = 65536;
       },
       S::OUT_OF_MEMORY, {"queues", "sq_entries 256", "cq_entries 65536", "max_param_bytes 4096", "4194304"}},
      {"rings_and_pool_do_not_fit",
       [](auto& o) {
         o.max_param_bytes = isa::kMaxParamBytes;
         o.sq_entries = drv::kMaxSqEntries;
         o.code_pool_bytes = 3u << 20;
       },
       S::OUT_OF_MEMORY, {"code_pool_bytes 3145728", "max_param_bytes 4096"}},
      {"rings_fit_one_queue",
       [](auto& o) {
         o.max_param_bytes = isa::kMaxParamBytes;
         o.sq_entries = drv::kMaxSqEntries;
         o.queues = 1;
       },
       S::OK, {}, true},
  };
}

class Options : public ::testing::TestWithParam<Case> {};

TEST_P(Options, OpenRefusesWhatItCannotHonour) {
  const Case& c = GetParam();
  drv::DeviceOptions o = base_options();
  c.set(o);
  cq::ModelDeviceConfig cfg;
  ASSERT_EQ(cfg.mem_bytes, kModelMem);
  ASSERT_EQ(cfg.num_queues, kModelQueues);
  cfg.mem_bytes = c.mem_bytes;
  Harness h;
  const drv::Status st = h.open(std::make_unique<drv::ModelTransport>(cfg), o);
  ASSERT_EQ(st, c.expect) << h.last_error_text();
  if (!drv::ok(st)) {
    const std::string detail = h.dev.last_error().detail;
    for (const auto& s : c.says) EXPECT_NE(detail.find(s), std::string::npos) << "'" << s << "' not in: " << detail;
    EXPECT_FALSE(h.dev.is_open()) << "a refused open leaves the device closed";
    return;
  }
  // What was accepted is what the device got.
  EXPECT_EQ(h.reg(regs::WATCHDOG), o.watchdog);
  const drv::DeviceProps& p = h.dev.props();
  EXPECT_LE(uint64_t(p.protected_base) + p.protected_bytes, p.mem_bytes);
  if (!c.runs) return;
  drv::Context ctx;
  ASSERT_EQ(h.dev.ctx_create(&ctx), drv::Status::OK);
  VecAdd va;
  ASSERT_EQ(va.setup(h.dev, ctx, 1000, 7), drv::Status::OK) << h.last_error_text();
  // Enough launches in a row to wrap the smallest rings.
  for (int i = 0; i < 4; ++i) ASSERT_EQ(va.launch(h.dev, drv::Stream{}, nullptr), drv::Status::OK) << h.last_error_text();
  ASSERT_EQ(h.dev.ctx_synchronize(ctx), drv::Status::OK) << h.last_error_text();
  EXPECT_TRUE(va.check(h.dev, ctx));
}

// The smallest parameter slots refuse a kernel with parameters at load, and
// say why (no 0-byte slot after wrapping: the kernel gets what was asked).
TEST(OptionsParamSlots, KernelsThatDoNotFitAreRefusedAtLoad) {
  drv::DeviceOptions o = base_options();
  o.max_param_bytes = 8;  // vec_add takes 3 pointers and a count: 16 bytes
  Harness h;
  ASSERT_EQ(h.open(std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{}), o), drv::Status::OK);
  drv::Context ctx;
  ASSERT_EQ(h.dev.ctx_create(&ctx), drv::Status::OK);
  VecAdd va;
  EXPECT_EQ(va.setup(h.dev, ctx, 64, 1), drv::Status::OUT_OF_RESOURCES);
  EXPECT_NE(std::string(h.dev.last_error().detail).find("slots hold 8"), std::string::npos)
      << h.last_error_text();
}

INSTANTIATE_TEST_SUITE_P(EveryField, Options, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return print(i.param); });

}  // namespace
}  // namespace baresm::drvtest
