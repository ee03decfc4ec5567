#include "sim/cli_device.h"

#include <iostream>

#include "host_driver/serial_transport.h"
#include "sim/cli_util.h"

namespace baresm::cli {

const drv::DeviceEntry* find_device_backend(const std::string& cmd, const std::string& name, int* exit_code) {
  const drv::DeviceEntry* be = drv::find_device(name);
  if (be) return be;
  *exit_code = bad_value(cmd, "--backend", name, "unknown backend (available: " + drv::device_names() + ")");
  return nullptr;
}

void add_serial_options(po::options_description* desc) {
  desc->add_options()("port", po::value<std::string>(),
                      "serial: the board's serial port (e.g. /dev/ttyUSB1)")(
      "baud", po::value<std::string>(), "serial: baud rate of the link (default 1000000, the board's)");
}

int read_serial_options(const std::string& cmd, const po::variables_map& vm, const std::string& backend,
                        drv::DeviceSettings* settings) {
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

std::unique_ptr<drv::OpenDevice> open_device(const std::string& cmd, const drv::DeviceEntry& be,
                                             const drv::DeviceSettings& settings,
                                             const drv::DeviceOptions& options) {
  std::string error;
  std::unique_ptr<drv::OpenDevice> d = drv::open_device(be, settings, options, &error);
  if (!d) std::cerr << "baresm " << cmd << ": " << error << "\n";
  return d;
}

}  // namespace baresm::cli
