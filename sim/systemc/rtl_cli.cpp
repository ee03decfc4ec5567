#include "sim/systemc/rtl_device.h"

namespace baresm::cosim {

RtlDeviceOptions default_rtl_device_options() {
  RtlDeviceOptions o;
  o.mem.min_latency = 1;
  o.mem.max_latency = 20;
  o.mem.seed = 1;
  return o;
}

RtlDeviceOptions rtl_device_options(const drv::DeviceSettings& s) {
  RtlDeviceOptions o = default_rtl_device_options();
  if (s.mem_latency) o.mem.min_latency = o.mem.max_latency = s.mem_latency;
  o.mem.seed = s.mem_seed;
  o.trace.path = s.trace_file;
  o.trace.start_cycle = s.trace_start;
  o.trace.end_cycle = s.trace_end;
  o.timeline = s.timeline_file;
  return o;
}

drv::DeviceOptions rtl_driver_options() {
  drv::DeviceOptions o;
  o.watchdog = drv::kDefaultWatchdogCycles;
  // Beyond the watchdog, only a device that stopped making progress needs
  // the driver's own timeout: 1e9 cycles.
  o.sync_timeout_ns = 10'000'000'000ull;
  return o;
}

std::unique_ptr<drv::OpenDevice> open_rtl(const RtlDeviceOptions& device, const drv::DeviceOptions& options,
                                          std::string* error) {
  return drv::open_device("rtl", open_rtl_device(device), options, error);
}

void register_rtl_device() {
  drv::DeviceEntry e;
  e.name = "rtl";
  e.description = "verilated baresm_top (command processor + SM) under SystemC, through the host driver";
  e.open_transport = [](const drv::DeviceSettings& s, std::string*) {
    return std::unique_ptr<drv::Transport>(open_rtl_device(rtl_device_options(s)));
  };
  e.options = rtl_driver_options();
  drv::register_device(std::move(e));
}

}  // namespace baresm::cosim
