// The driver suite (tests/driver/driver_suite.h), unchanged, on the RTL: the
// host driver over the SystemC transport against the verilated baresm_top.
#include "tests/cosim/cosim_util.h"
#include "tests/driver/driver_suite.h"

namespace baresm::drvtest {

struct RtlFactory {
  static const char* name() { return "rtl"; }
  // ContextsAreIsolatedByWindows expects the fault of warp 0: every lane of
  // both warps of its CTA stores out of the window, and which warp gets
  // there first is the scheduler's choice (the functional model runs warps
  // in order). Greedy-then-oldest with in-order memory makes it warp 0; the
  // other cosim tests use loose round-robin and reordering memory.
  static std::unique_ptr<drv::Transport> create() {
    cosim::RtlDeviceOptions o;
    o.mem = cosimtest::test_memory(7);
    o.mem.out_of_order = false;
    o.mem.max_latency = 8;
    o.gto = true;
    return cosim::open_rtl_device(o);
  }
  // Device time: one cycle is 10 ns at CONFIG5.CLOCK_KHZ = 100 MHz.
  static uint64_t sync_timeout_ns() { return 200'000'000; }  // 20M cycles; waits that succeed end early
  static uint64_t hang_timeout_ns() { return 300'000; }      // 30k cycles
  static uint64_t hang_window_ns() { return 60'000; }        // 6k cycles
  static iss::PoisonMap& poison(drv::Transport*) { return cosim::Testbench::get().memory_poison(); }
};

using Transports = ::testing::Types<RtlFactory>;
INSTANTIATE_TYPED_TEST_SUITE_P(Rtl, DriverSuite, Transports);

}  // namespace baresm::drvtest
