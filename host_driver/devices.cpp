#include "host_driver/devices.h"

#include "host_driver/model_transport.h"
#include "host_driver/serial_transport.h"

namespace baresm::drv {

namespace {
DeviceOptions with(uint32_t watchdog, uint64_t sync_timeout_ns) {
  DeviceOptions o;
  o.watchdog = watchdog;
  if (sync_timeout_ns) o.sync_timeout_ns = sync_timeout_ns;
  return o;
}

std::vector<DeviceEntry>& registry() {
  // The functional device model: cq_model's command processor around the
  // golden ISS, with its default configuration. Its watchdog counts
  // warp-instructions.
  static std::vector<DeviceEntry> r = {
      {"model", "functional device model (cq_model + isa/iss) through the host driver",
       [](const DeviceSettings&, std::string*) {
         return std::unique_ptr<Transport>(new ModelTransport(cq::ModelDeviceConfig{}));
       },
       with(kDefaultWatchdogInstrs, 0)},
      // An FPGA board (rtl/fpga) over its UART (docs/serial-protocol.md). Its
      // watchdog counts cycles like the RTL's; the driver's own timeout is
      // device time too (the bridge's cycle counter), so 10 s of the board.
      {"serial", "an FPGA board (or its simulation) over a serial port: --port PATH [--baud N]",
       [](const DeviceSettings& s, std::string* error) -> std::unique_ptr<Transport> {
         if (s.serial_port.empty()) {
           *error = "serial link: no port given (--port PATH)";
           return nullptr;
         }
         SerialOptions o;
         o.baud = s.serial_baud;
         return SerialTransport::open(s.serial_port, o, error);
       },
       with(kDefaultWatchdogCycles, 10'000'000'000ull)},
  };
  return r;
}
}  // namespace

void register_device(DeviceEntry e) {
  for (auto& x : registry()) {
    if (x.name == e.name) {
      x = std::move(e);
      return;
    }
  }
  registry().push_back(std::move(e));
}

const std::vector<DeviceEntry>& devices() {
  return registry();
}

const DeviceEntry* find_device(const std::string& name) {
  for (const auto& x : registry())
    if (x.name == name) return &x;
  return nullptr;
}

std::string device_names() {
  std::string s;
  for (const auto& d : registry()) s += (s.empty() ? "" : ", ") + d.name;
  return s;
}

std::unique_ptr<OpenDevice> open_device(const std::string& name, std::unique_ptr<Transport> transport,
                                        const DeviceOptions& options, std::string* error) {
  auto d = std::make_unique<OpenDevice>();
  d->name = name;
  d->transport = std::move(transport);
  if (d->device.open(d->transport.get(), options) != Status::OK) {
    const ErrorInfo& e = d->device.last_error();
    *error = "opening the " + name + " device failed: " + status_name(e.status) + " (" + layer_name(e.layer) +
             "): " + e.detail;
    return nullptr;
  }
  return d;
}

std::unique_ptr<OpenDevice> open_device(const DeviceEntry& entry, const DeviceSettings& settings,
                                        const DeviceOptions& options, std::string* error) {
  std::string why;
  std::unique_ptr<Transport> t = entry.open_transport ? entry.open_transport(settings, &why) : nullptr;
  if (!t) {
    *error = "device '" + entry.name + "' could not be started" + (why.empty() ? "" : ": " + why);
    return nullptr;
  }
  return open_device(entry.name, std::move(t), options, error);
}

std::unique_ptr<OpenDevice> open_model_device(const cq::ModelDeviceConfig& cfg, std::string* error) {
  const DeviceEntry* model = find_device("model");
  return open_device("model", std::make_unique<ModelTransport>(cfg), model->options, error);
}

}  // namespace baresm::drv
