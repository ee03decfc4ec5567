// The `rtl` backend of `baresm run`: the samples through the host driver on
// the verilated device (baresm_top under SystemC). Per launch it prints the
// device's cycles, IPC and the SM's warp-state breakdown (from its
// counters). Settings (the CLI's --trace, --trace-window, --mem-latency and
// --mem-seed set them; docs/cosim.md):
//   BARESM_TRACE=FILE.fst          FST trace of the whole run
//   BARESM_TRACE_WINDOW=START:END  only cycles START..END (either may be empty)
//   BARESM_MEM_LATENCY=N           memory latency in cycles (default 1..20 random)
//   BARESM_MEM_SEED=S              seed of the memory model
//   BARESM_TIMELINE=FILE.json      warp timeline of the run (docs/timeline.md)
//   BARESM_RTL_QUIET=1             no per-launch lines
#pragma once

#include <memory>
#include <string>

#include "samples/backend.h"
#include "sim/systemc/sc_transport.h"

namespace baresm::cosim {

struct RtlBackendOptions {
  RtlDeviceOptions device;
  uint32_t default_watchdog = 20'000'000;  // cycles
  bool verbose = true;
};

// The device `baresm run --backend rtl` uses when no variable says otherwise:
// memory latency random in 1..20 cycles, memory seed 1.
RtlDeviceOptions default_rtl_device_options();
// Options from the environment variables above.
RtlBackendOptions rtl_backend_options_from_env();
std::unique_ptr<samples::Backend> make_rtl_backend(const RtlBackendOptions& o);

// Registers the backend `rtl` with the samples registry (the CLI calls it).
void register_rtl_backend();

}  // namespace baresm::cosim
