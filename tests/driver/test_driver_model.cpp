// The driver suite (driver_suite.h) over the functional device model.
#include "host_driver/model_transport.h"
#include "tests/driver/driver_suite.h"

namespace baresm::drvtest {

struct ModelFactory {
  static const char* name() { return "model"; }
  static std::unique_ptr<drv::Transport> create() {
    return std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{});
  }
  // Device time: one model tick is 10 ns at the default 100 MHz.
  static uint64_t sync_timeout_ns() { return 50'000'000; }  // 5M ticks; waits that succeed end early
  static uint64_t hang_timeout_ns() { return 100'000; }     // 10k ticks
  static uint64_t hang_window_ns() { return 20'000; }       // 2k ticks
  static iss::PoisonMap& poison(drv::Transport* t) {
    return static_cast<drv::ModelTransport*>(t)->device().memory().poison();
  }
};

using Transports = ::testing::Types<ModelFactory>;
INSTANTIATE_TYPED_TEST_SUITE_P(Model, DriverSuite, Transports);

}  // namespace baresm::drvtest
