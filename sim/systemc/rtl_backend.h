// The `rtl` device of the registry (samples/backend.h): the verilated device
// (baresm_top under SystemC) as a host-driver transport, opened from the
// command line's typed settings (--trace, --trace-window, --mem-latency,
// --mem-seed, --timeline; docs/cosim.md). Every launch counter comes from
// the launch's completion entry, as on every device.
#pragma once

#include <memory>
#include <string>

#include "samples/driver_backend.h"
#include "sim/systemc/sc_transport.h"

namespace baresm::cosim {

struct RtlBackendOptions {
  RtlDeviceOptions device;
  uint32_t default_watchdog = samples::kDefaultWatchdogCycles;
};

// The device `baresm run --backend rtl` uses when the command line says
// nothing: memory latency random in 1..20 cycles, memory seed 1.
RtlDeviceOptions default_rtl_device_options();
// The device for the command line's settings.
RtlDeviceOptions rtl_device_options(const samples::DeviceSettings& s);

// The samples' backend on the RTL through the driver (tests and benches).
std::unique_ptr<samples::DriverBackend> make_rtl_backend(const RtlBackendOptions& o);

// Registers the device `rtl` with the registry (the CLI calls it).
void register_rtl_backend();

}  // namespace baresm::cosim
