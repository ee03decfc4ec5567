#include <cstdio>
#include <string>

#include "sim/systemc/rtl_backend.h"

namespace baresm::cosim {

namespace {
// Beyond the watchdog (20e6 cycles by default), only a device that stopped
// making progress needs the driver's own timeout: 1e9 cycles.
constexpr uint64_t kSyncTimeoutNs = 10'000'000'000ull;
}  // namespace

RtlDeviceOptions default_rtl_device_options() {
  RtlDeviceOptions o;
  o.mem.min_latency = 1;
  o.mem.max_latency = 20;
  o.mem.seed = 1;
  return o;
}

RtlDeviceOptions rtl_device_options(const samples::DeviceSettings& s) {
  RtlDeviceOptions o = default_rtl_device_options();
  if (s.mem_latency) o.mem.min_latency = o.mem.max_latency = s.mem_latency;
  o.mem.seed = s.mem_seed;
  o.trace.path = s.trace_file;
  o.trace.start_cycle = s.trace_start;
  o.trace.end_cycle = s.trace_end;
  o.timeline = s.timeline_file;
  return o;
}

std::unique_ptr<samples::DriverBackend> make_rtl_backend(const RtlBackendOptions& o) {
  samples::DriverBackendOptions bo;
  bo.name = "rtl";
  bo.default_watchdog = o.default_watchdog;
  bo.device.sync_timeout_ns = kSyncTimeoutNs;
  auto be = std::make_unique<samples::DriverBackend>(open_rtl_device(o.device), bo);
  if (!be->ok()) {
    std::fprintf(stderr, "rtl backend: %s\n", be->last_error().c_str());
    return nullptr;
  }
  return be;
}

void register_rtl_backend() {
  samples::BackendEntry e;
  e.name = "rtl";
  e.description = "verilated baresm_top (command processor + SM) under SystemC, through the host driver";
  e.open_transport = [](const samples::DeviceSettings& s, std::string*) {
    return std::unique_ptr<drv::Transport>(open_rtl_device(rtl_device_options(s)));
  };
  e.default_watchdog = RtlBackendOptions{}.default_watchdog;
  e.sync_timeout_ns = kSyncTimeoutNs;
  samples::register_backend(std::move(e));
}

}  // namespace baresm::cosim
