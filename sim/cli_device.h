// The device of a `--backend NAME`, driven through the host driver
// (drv::Device over the device's transport), for the commands that talk to
// the device themselves: `baresm launch` and `baresm info`. The transports
// come from the device registry (samples/backend.h): the functional device
// model, an FPGA board over a serial port, and the verilated device
// (sim/systemc/rtl_cli.cpp), opened from the
// same typed settings as `baresm run`'s, so all three commands see the same
// devices.
#pragma once

#include <memory>
#include <string>

#include "host_driver/driver.h"
#include "samples/backend.h"
#include "sim/cli_util.h"

namespace baresm::cli {

// The backend called name, or nullptr after a one-line usage error naming
// the option (*exit_code = kExitUsage).
const samples::BackendEntry* find_device_backend(const std::string& cmd, const std::string& name,
                                                 int* exit_code);

// --port PATH and --baud N, the serial backend's settings (an FPGA board,
// docs/serial-protocol.md).
void add_serial_options(po::options_description* desc);
// Reads them into *settings: --backend serial needs --port, the options are
// refused on any other backend, and --baud must be a rate the port supports.
// kExitOk, or kExitUsage after one line saying why.
int read_serial_options(const std::string& cmd, const po::variables_map& vm, const std::string& backend,
                        samples::DeviceSettings* settings);

struct OpenDevice {
  const samples::BackendEntry* entry = nullptr;
  std::unique_ptr<drv::Transport> transport;
  drv::Device dev;  // declared after the transport: closed before it goes
};

// Starts the backend's device with `settings` and opens it with the driver;
// nullptr after printing why (the driver's status and detail).
std::unique_ptr<OpenDevice> open_device(const std::string& cmd, const samples::BackendEntry& be,
                                        const samples::DeviceSettings& settings,
                                        const drv::DeviceOptions& options);

}  // namespace baresm::cli
