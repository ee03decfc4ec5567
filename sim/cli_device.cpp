#include "sim/cli_device.h"

#include <iostream>

#include "host_driver/serial_transport.h"
#include "sim/cli_util.h"

namespace baresm::cli {

const samples::BackendEntry* find_device_backend(const std::string& cmd, const std::string& name,
                                                 int* exit_code) {
  const samples::BackendEntry* be = samples::find_backend(name);
  if (be) return be;
  *exit_code = bad_value(cmd, "--backend", name, "unknown backend (available: " + samples::backend_names() + ")");
  return nullptr;
}

void add_serial_options(po::options_description* desc) {
  desc->add_options()("port", po::value<std::string>(),
                      "serial: the board's serial port (e.g. /dev/ttyUSB1)")(
      "baud", po::value<std::string>(), "serial: baud rate of the link (default 1000000, the board's)");
}

int read_serial_options(const std::string& cmd, const po::variables_map& vm, const std::string& backend,
                        samples::DeviceSettings* settings) {
  if (backend != "serial") {
    if (vm.count("port") || vm.count("baud")) return usage_error(cmd, "--port and --baud need --backend serial");
    return kExitOk;
  }
  if (!vm.count("port")) return usage_error(cmd, "--backend serial needs --port PATH (the board's serial port)");
  settings->serial_port = vm["port"].as<std::string>();
  if (vm.count("baud")) {
    const std::string b = vm["baud"].as<std::string>();
    uint64_t v = 0;
    if (!parse_number(b, 0, UINT32_MAX, &v) || !drv::serial_baud_supported(uint32_t(v)))
      return bad_value(cmd, "--baud", b, "not a rate the serial port supports (" + drv::serial_baud_list() + ")");
    settings->serial_baud = uint32_t(v);
  }
  return kExitOk;
}

std::unique_ptr<OpenDevice> open_device(const std::string& cmd, const samples::BackendEntry& be,
                                        const samples::DeviceSettings& settings,
                                        const drv::DeviceOptions& options) {
  auto d = std::make_unique<OpenDevice>();
  d->entry = &be;
  std::string why;
  d->transport = be.open_transport(settings, &why);
  if (!d->transport) {
    std::cerr << "baresm " << cmd << ": backend '" << be.name << "' could not be started"
              << (why.empty() ? "" : ": " + why) << "\n";
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
