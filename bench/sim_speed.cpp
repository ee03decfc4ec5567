// Simulation speed of the verilated design (docs/cosim.md, "Measured
// simulation speed"): simulated cycles per second of wall time for the idle
// design and for one sample. Built twice from this file:
//   sim_speed_sm   the bare SM harness (sim/harness) on c32w16, no lockstep;
//                  the sample through the host driver (sim::BareSmTransport);
//   sim_speed_top  the SystemC top (command processor + SM, sim/systemc),
//                  the sample through the host driver, no lockstep.
// Usage: sim_speed_{sm,top} idle CYCLES | sample NAME [WATCHDOG]
// WATCHDOG caps every launch at that many cycles (the SM's watchdog ends it;
// the sample then fails): a short, fixed run of a busy SM for callgrind.
// It prints one line, "what=... cycles=N seconds=S cycles_per_s=R".
// scripts/sim-speed.sh runs it under `valgrind --tool=callgrind` and divides
// the instruction count by the cycles: host instructions per simulated cycle,
// a number that repeats exactly on a noisy shared machine (wall time does not).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "host_driver/devices.h"
#include "samples/samples.h"
#if SIM_SPEED_TOP
#include "sim/systemc/rtl_device.h"
#include "sim/systemc/sc_transport.h"
#include "sim/systemc/testbench.h"
#else
#include "sim/harness/bare_sm_transport.h"
#include "sim/harness/sm_harness.h"
#endif

using namespace baresm;

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
int usage() {
  std::fprintf(stderr, "usage: sim_speed idle CYCLES | sample NAME [WATCHDOG]\n");
  return 2;
}
sim::MemModelConfig bench_memory() {
  sim::MemModelConfig m;
  m.min_latency = 1;
  m.max_latency = 20;
  m.seed = 1;
  return m;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string what = argv[1];
  uint64_t cycles = 0;
  double dt = 0;
  bool ok = true;
  if (what == "idle") {
    const uint64_t n = std::strtoull(argv[2], nullptr, 0);
#if SIM_SPEED_TOP
    cosim::RtlDeviceOptions o;
    o.mem = bench_memory();
    auto t = cosim::open_rtl_device(o);
    cosim::Testbench& tb = t->testbench();
    const uint64_t c0 = tb.cycle();
    const double t0 = now_s();
    tb.run_cycles(n);
    dt = now_s() - t0;
    cycles = tb.cycle() - c0;
#else
    sim::SmHarness h(sim::make_sm_dut());
    h.reset();
    const double t0 = now_s();
    for (uint64_t i = 0; i < n; ++i) {
      h.dut().eval();  // clock low, then the rising edge
      h.dut().clock();
    }
    dt = now_s() - t0;
    cycles = n;
#endif
  } else if (what == "sample") {
    const samples::Sample* s = samples::find_sample(argv[2]);
    if (!s) return usage();
    samples::RunOptions ro;
    ro.seed = 1;
    const uint64_t watchdog = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : drv::kDefaultWatchdogCycles;
    // Beyond the watchdog, the driver's timeout catches a stuck device only.
    drv::DeviceOptions dopt;
    dopt.watchdog = uint32_t(watchdog);
    dopt.sync_timeout_ns = 10'000'000'000ull;
    std::string error;
#if SIM_SPEED_TOP
    cosim::RtlDeviceOptions o;
    o.mem = bench_memory();
    std::unique_ptr<drv::OpenDevice> d = cosim::open_rtl(o, dopt, &error);
    if (!d) {
      std::fprintf(stderr, "sim_speed: %s\n", error.c_str());
      return 1;
    }
    cosim::Testbench& tb = cosim::Testbench::get();
    tb.set_lockstep(false);
    const uint64_t c0 = tb.cycle();
    const double t0 = now_s();
    const samples::SampleResult r = samples::run_sample(*s, d->device, ro);
    dt = now_s() - t0;
    cycles = tb.cycle() - c0;
#else
    sim::BareSmConfig rc;
    rc.sm.run.mem = bench_memory();
    rc.sm.lockstep = false;
    auto t = std::make_unique<sim::BareSmTransport>(sim::make_sm_dut(), rc);
    sim::BareSmExecutor& sm = t->sm();
    std::unique_ptr<drv::OpenDevice> d = drv::open_device("bare-sm", std::move(t), dopt, &error);
    if (!d) {
      std::fprintf(stderr, "sim_speed: %s\n", error.c_str());
      return 1;
    }
    const double t0 = now_s();
    const samples::SampleResult r = samples::run_sample(*s, d->device, ro);
    dt = now_s() - t0;
    for (const auto& run : sm.runs()) cycles += run.cycles;
#endif
    ok = r.passed;
  } else {
    return usage();
  }
  std::printf("what=%s:%s cycles=%llu seconds=%.3f cycles_per_s=%.0f %s\n", what.c_str(), argv[2],
              (unsigned long long)cycles, dt, dt > 0 ? double(cycles) / dt : 0.0, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
