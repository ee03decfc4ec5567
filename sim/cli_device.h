// The device of a `--backend NAME`, driven through the host driver
// (drv::Device over the backend's transport), for the commands that talk to
// the device themselves: `baresm launch` and `baresm info`. The transports
// come from the samples' backend registry (BackendEntry::open_transport):
// the functional device model (added here) and the verilated device (added
// by sim/systemc/rtl_cli.cpp), so both commands see the same devices as
// `baresm run`, only through the driver instead of the samples' interface.
#pragma once

#include <memory>
#include <string>

#include "host_driver/driver.h"
#include "samples/backend.h"

namespace baresm::cli {

// Gives the registry's `model` entry its transport: cq::ModelDevice with its
// default configuration, behind drv::ModelTransport.
void register_model_transport();

// The names of the backends that have a transport, "model, rtl".
std::string device_backend_names();

// The backend called name, or nullptr after a one-line usage error naming
// the option (*exit_code = kExitUsage).
const samples::BackendEntry* find_device_backend(const std::string& cmd, const std::string& name,
                                                 int* exit_code);

struct OpenDevice {
  std::unique_ptr<drv::Transport> transport;
  drv::Device dev;  // declared after the transport: closed before it goes
};

// Starts the backend's device and opens it with the driver; nullptr after
// printing why (the driver's status and detail).
std::unique_ptr<OpenDevice> open_device(const std::string& cmd, const samples::BackendEntry& be,
                                        const drv::DeviceOptions& options);

}  // namespace baresm::cli
