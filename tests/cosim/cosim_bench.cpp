// Simulation speed of the co-simulation (docs/cosim.md): device cycles per
// second of wall time for kernels of different shapes, through the driver,
// and the cost of the host's MMIO accesses. Not a test: prints numbers.
//
//   build/tests/cosim/cosim_bench [elements]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "tests/cosim/cosim_util.h"
#include "tests/driver/driver_harness.h"

using namespace baresm;

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

int main(int argc, char** argv) {
  const uint32_t n = argc > 1 ? uint32_t(std::atoi(argv[1])) : 65536;
  cosim::RtlDeviceOptions o;
  o.mem.min_latency = 1;
  o.mem.max_latency = 20;
  o.mem.seed = 1;
  auto t = cosim::open_rtl_device(o);
  cosim::Testbench& tb = t->testbench();
  drv::Device dev;
  if (dev.open(t.get(), drv::DeviceOptions{}) != drv::Status::OK) return 1;
  drv::Context c;
  dev.ctx_create(&c);

  // Idle cycles: the design with nothing to do.
  double t0 = now_s();
  uint64_t c0 = tb.cycle();
  tb.run_cycles(200000);
  double dt = now_s() - t0;
  std::printf("idle device:            %10.0f cycles/s\n", double(tb.cycle() - c0) / dt);

  // MMIO reads.
  t0 = now_s();
  c0 = tb.cycle();
  uint32_t v = 0;
  for (int i = 0; i < 20000; ++i) t->mmio_read32(0x2C, &v);
  dt = now_s() - t0;
  std::printf("MMIO read:              %10.2f us each, %.1f cycles each\n", dt / 20000 * 1e6,
              double(tb.cycle() - c0) / 20000);

  for (uint32_t block : {32u, 128u, 512u}) {
    drvtest::VecAdd va;
    va.setup(dev, c, n, 1);
    t0 = now_s();
    c0 = tb.cycle();
    uint64_t tok = 0;
    va.launch(dev, drv::Stream{}, &tok, block);
    dev.ctx_synchronize(c);
    dt = now_s() - t0;
    drv::LaunchReport r;
    dev.launch_result(tok, &r);
    const uint64_t cyc = tb.cycle() - c0;
    std::printf(
        "vec_add n=%u block %3u: %8llu cycles, %7u warp-instrs, IPC %.2f, %6.2f s, %10.0f cycles/s %s\n", n,
        block, (unsigned long long)cyc, r.stats.warp_instrs,
        double(r.stats.warp_instrs) / double(r.end_cycle - r.start_cycle), dt, double(cyc) / dt,
        va.check(dev, c) ? "ok" : "WRONG");
  }
  dev.close();
  return 0;
}
