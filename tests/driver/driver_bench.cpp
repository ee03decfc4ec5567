// Driver numbers on the functional model, for docs/driver.md:
//   build-*/tests/driver/driver_bench [launches]
// Prints the launch round trip in model ticks and in wall time, and the
// launch rate with launches pipelined on one and on four streams.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "host_driver/model_transport.h"
#include "tests/driver/driver_harness.h"

using namespace baresm;

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  drvtest::Harness h;
  drv::DeviceOptions o;
  if (!drv::ok(h.open(std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{}), o))) {
    std::fprintf(stderr, "open failed: %s\n", h.last_error_text().c_str());
    return 1;
  }
  auto* mt = static_cast<drv::ModelTransport*>(h.transport.get());
  drv::Context c;
  h.dev.ctx_create(&c);
  drvtest::VecAdd va;
  if (!drv::ok(va.setup(h.dev, c, 32, 1))) return 1;
  using clk = std::chrono::steady_clock;

  // Round trip: launch, then synchronize, one at a time.
  uint64_t t0 = mt->ticks();
  auto w0 = clk::now();
  std::clock_t c0 = std::clock();
  for (int i = 0; i < n; ++i) {
    if (!drv::ok(va.launch(h.dev, drv::Stream{}, nullptr, 32)) || !drv::ok(h.dev.ctx_synchronize(c)))
      return 1;
  }
  double wall = std::chrono::duration<double>(clk::now() - w0).count();
  double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  std::printf(
      "round trip (launch + synchronize), vec_add n=32: %.1f ticks; %.1f us CPU, %.0f launches/s CPU "
      "(%.0f/s wall)\n",
      double(mt->ticks() - t0) / n, cpu * 1e6 / n, n / cpu, n / wall);

  // Pipelined on the default stream, then spread over four streams.
  for (int streams : {1, 4}) {
    drv::Stream s[4];
    for (int i = 0; i < streams; ++i) h.dev.stream_create(c, &s[i]);
    t0 = mt->ticks();
    w0 = clk::now();
    c0 = std::clock();
    for (int i = 0; i < n; ++i)
      if (!drv::ok(va.launch(h.dev, s[i % streams], nullptr, 32))) return 1;
    if (!drv::ok(h.dev.ctx_synchronize(c))) return 1;
    wall = std::chrono::duration<double>(clk::now() - w0).count();
    cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("pipelined on %d stream(s): %.1f ticks/launch; %.0f launches/s CPU (%.0f/s wall)\n", streams,
                double(mt->ticks() - t0) / n, n / cpu, n / wall);
  }
  if (!va.check(h.dev, c)) return 1;
  return 0;
}
