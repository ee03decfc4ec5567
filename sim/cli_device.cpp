#include "sim/cli_device.h"

#include <iostream>

#include "sim/cli_util.h"

namespace baresm::cli {

const samples::BackendEntry* find_device_backend(const std::string& cmd, const std::string& name,
                                                 int* exit_code) {
  const samples::BackendEntry* be = samples::find_backend(name);
  if (be) return be;
  *exit_code = bad_value(cmd, "--backend", name, "unknown backend (available: " + samples::backend_names() + ")");
  return nullptr;
}

std::unique_ptr<OpenDevice> open_device(const std::string& cmd, const samples::BackendEntry& be,
                                        const samples::DeviceSettings& settings,
                                        const drv::DeviceOptions& options) {
  auto d = std::make_unique<OpenDevice>();
  d->entry = &be;
  d->transport = be.open_transport(settings);
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
