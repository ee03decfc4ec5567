// The `rtl` device of the registry (host_driver/devices.h): the verilated
// device (baresm_top under SystemC) as a host-driver transport, opened from
// the command line's typed settings (--trace, --trace-window,
// --mem-latency, --mem-seed, --timeline; docs/cosim.md). Every launch
// counter comes from the launch's completion entry, as on every device.
#pragma once

#include <memory>
#include <string>

#include "host_driver/devices.h"
#include "sim/systemc/sc_transport.h"

namespace baresm::cosim {

// The device `baresm run --backend rtl` uses when the command line says
// nothing: memory latency random in 1..20 cycles, memory seed 1.
RtlDeviceOptions default_rtl_device_options();
// The device for the command line's settings.
RtlDeviceOptions rtl_device_options(const drv::DeviceSettings& s);
// The driver's options for it: the watchdog in cycles
// (drv::kDefaultWatchdogCycles) and a synchronize timeout long enough for
// a slow simulation.
drv::DeviceOptions rtl_driver_options();

// The verilated device opened by the driver (tests and benches); nullptr
// with *error when it cannot be opened.
std::unique_ptr<drv::OpenDevice> open_rtl(const RtlDeviceOptions& device, const drv::DeviceOptions& options,
                                          std::string* error);

// Registers the device `rtl` with the registry (the CLI calls it).
void register_rtl_device();

}  // namespace baresm::cosim
