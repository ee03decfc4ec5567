// The devices a program can open by name (`--backend NAME`): every baresm
// device is a host-driver transport (transport.h), started from typed
// settings and opened with drv::Device. The functional device model and the
// serial link (an FPGA board) are here; the verilated device (`rtl`) is
// added by the program that links it (sim/systemc/rtl_cli.cpp,
// register_rtl_device), since the driver does not depend on the simulator.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cq_model/model_device.h"
#include "host_driver/driver.h"
#include "host_driver/transport.h"

namespace baresm::drv {

// What the command line says about the device, typed (no environment
// variables). A device ignores what it has no use for; the command line
// refuses the RTL-only settings on the model.
struct DeviceSettings {
  std::string trace_file;  // FST waveform of the device, "" none
  uint64_t trace_start = 0, trace_end = UINT64_MAX;  // the cycles traced
  uint32_t mem_latency = 0;  // fixed device-memory latency in cycles; 0 = the device's default
  uint64_t mem_seed = 1;     // seed of the device-memory model (stalls, reordering)
  std::string timeline_file;  // warp timeline (docs/timeline.md), written at exit; "" none
  std::string serial_port;    // serial: the board's UART (a tty or pty path)
  uint32_t serial_baud = 1000000;  // serial: the link's baud rate (the board's default)
};

// The watchdog budget (DeviceOptions::watchdog) of a device's launches that
// ask for the default, in the device's unit: cycles on a device with a clock
// (the verilated device, an FPGA board), warp-instructions on the functional
// model.
constexpr uint32_t kDefaultWatchdogCycles = 20'000'000;
constexpr uint32_t kDefaultWatchdogInstrs = 50'000'000;

struct DeviceEntry {
  std::string name;
  std::string description;
  // The device at power-on; nullptr with *error (one line naming the layer
  // and the cause) when it cannot be started.
  std::function<std::unique_ptr<Transport>(const DeviceSettings&, std::string* error)> open_transport;
  // The options it is opened with: its default watchdog and, on a slow
  // device, a longer synchronize timeout.
  DeviceOptions options;
};

// Adds a device (replacing an entry of the same name).
void register_device(DeviceEntry e);
const std::vector<DeviceEntry>& devices();
const DeviceEntry* find_device(const std::string& name);
std::string device_names();  // "model, serial, rtl"

// A started device opened by the driver. The transport is declared first,
// so the device is closed before its transport goes.
struct OpenDevice {
  std::string name;  // the registry's name ("model", "rtl", ...)
  std::unique_ptr<Transport> transport;
  Device device;
};

// Starts `entry` with `settings` and opens it with `options`; nullptr with
// *error (one line: the device, the layer, why) when it cannot.
std::unique_ptr<OpenDevice> open_device(const DeviceEntry& entry, const DeviceSettings& settings,
                                        const DeviceOptions& options, std::string* error);
// Opens an already started transport as device `name`.
std::unique_ptr<OpenDevice> open_device(const std::string& name, std::unique_ptr<Transport> transport,
                                        const DeviceOptions& options, std::string* error);
// The functional device model with configuration `cfg` (tests and tools
// that need other memory or limits), with the registry's options for it.
std::unique_ptr<OpenDevice> open_model_device(const cq::ModelDeviceConfig& cfg, std::string* error);

}  // namespace baresm::drv
