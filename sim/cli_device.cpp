#include "sim/cli_device.h"

#include <iostream>

#include "host_driver/model_transport.h"
#include "sim/cli_util.h"

namespace baresm::cli {

void register_model_transport() {
  const samples::BackendEntry* model = samples::find_backend("model");
  if (!model) return;
  samples::BackendEntry e = *model;
  e.open_transport = [] {
    return std::unique_ptr<drv::Transport>(new drv::ModelTransport(cq::ModelDeviceConfig{}));
  };
  samples::register_backend(std::move(e));
}

std::string device_backend_names() {
  std::string s;
  for (const auto& b : samples::backends())
    if (b.open_transport) s += (s.empty() ? "" : ", ") + b.name;
  return s;
}

const samples::BackendEntry* find_device_backend(const std::string& cmd, const std::string& name,
                                                 int* exit_code) {
  const samples::BackendEntry* be = samples::find_backend(name);
  if (be && be->open_transport) return be;
  *exit_code = bad_value(cmd, "--backend", name,
                         std::string(be ? "has no host-driver transport" : "unknown backend") +
                             " (available: " + device_backend_names() + ")");
  return nullptr;
}

std::unique_ptr<OpenDevice> open_device(const std::string& cmd, const samples::BackendEntry& be,
                                        const drv::DeviceOptions& options) {
  auto d = std::make_unique<OpenDevice>();
  d->transport = be.open_transport();
  if (!d->transport) {
    std::cerr << "baresm " << cmd << ": backend '" << be.name << "' could not be started\n";
    return nullptr;
  }
  if (d->dev.open(d->transport.get(), options) != drv::Status::OK) {
    const drv::ErrorInfo& e = d->dev.last_error();
    std::cerr << "baresm " << cmd << ": opening the " << be.name
              << " device failed: " << drv::status_name(e.status) << ": " << e.detail << "\n";
    return nullptr;
  }
  return d;
}

}  // namespace baresm::cli
