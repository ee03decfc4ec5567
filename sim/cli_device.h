// The device of a `--backend NAME` for `baresm run`, `launch` and `info`:
// every one a host-driver transport from the device registry
// (host_driver/devices.h: the functional device model, an FPGA board over a
// serial port, and the verilated device, sim/systemc/rtl_cli.cpp), opened
// from the same typed settings with drv::Device, so all three commands see
// the same devices.
#pragma once

#include <memory>
#include <string>

#include "host_driver/driver.h"
#include "host_driver/devices.h"
#include "sim/cli_util.h"

namespace baresm::cli {

// The backend called name, or nullptr after a one-line usage error naming
// the option (*exit_code = kExitUsage).
const drv::DeviceEntry* find_device_backend(const std::string& cmd, const std::string& name,
                                                 int* exit_code);

// --port PATH and --baud N, the serial backend's settings (an FPGA board,
// docs/serial-protocol.md).
void add_serial_options(po::options_description* desc);
// Reads them into *settings: --backend serial needs --port, the options are
// refused on any other backend, and --baud must be a rate the port supports.
// kExitOk, or kExitUsage after one line saying why.
int read_serial_options(const std::string& cmd, const po::variables_map& vm, const std::string& backend,
                        drv::DeviceSettings* settings);

// Starts the backend's device with `settings` and opens it with the driver;
// nullptr after printing why (the driver's status and detail).
std::unique_ptr<drv::OpenDevice> open_device(const std::string& cmd, const drv::DeviceEntry& be,
                                             const drv::DeviceSettings& settings,
                                             const drv::DeviceOptions& options);

}  // namespace baresm::cli
