// The device interface the samples (and the `baresm run` command) run against.
//
// Deliberately small: device memory (alloc/free/copy), module load with the
// device-limits check, and one synchronous launch that returns the fault
// report and statistics. Every baresm device is a host-driver transport
// (host_driver/transport.h) that the samples reach through drv::Device
// (driver_backend.h): the functional device model, the bare verilated SM
// (sim/harness/bare_sm_transport.h), the SystemC RTL, an FPGA board. The
// only other implementation is tools/h200's, over CUDA, which cannot be a
// register-level transport: this interface is the seam for it.
//
// Every call returns the driver's Status; on anything but OK, last_error() says why.
// A launch that *ran* returns OK even when the kernel faulted: the fault is in
// LaunchReport::fault (a faulting kernel is a result, not a call error).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host_driver/status.h"
#include "isa/iss.h"
#include "isa/module.h"
#include "sim/harness/state_names.h"

namespace baresm::drv {
class Transport;
struct LaunchReport;
}  // namespace baresm::drv

namespace baresm::samples {

// The driver's status codes (host_driver/status.h), with their names and
// layers: a backend returns OUT_OF_MEMORY, INVALID_VALUE, INVALID_IMAGE,
// NO_BINARY_FOR_DEVICE, NOT_FOUND, DEVICE_ERROR, or whatever the driver
// said when the backend is the driver.
using Status = drv::Status;
using drv::status_name;  // "INVALID_VALUE", ...

// A range of device memory returned by alloc. addr is a device byte address.
struct Buffer {
  uint32_t addr = 0;
  uint32_t size = 0;
};

using ModuleHandle = uint32_t;

struct LaunchConfig {
  iss::Dim3 grid, block;
  // The global-memory windows the kernel is granted: every global access
  // outside them is OUT_OF_WINDOW. Samples pass exactly the buffers the
  // kernel is meant to touch.
  std::vector<Buffer> windows;
  // Watchdog budget in the backend's own unit (warp-instructions on the
  // model, cycles on the RTL); 0 = the backend's default.
  uint64_t watchdog = 0;
};

struct LaunchReport {
  iss::FaultInfo fault;  // kind NONE when the grid completed
  // stats.thread_instrs, divergent_branches and barriers are meaningful only
  // when sm_counters is set; warp_instrs and ctas always are.
  iss::LaunchStats stats;
  bool sm_counters = false;
  // From the completion entry, on a backend behind the driver: device cycles
  // from start to end, and the engine's stall cycles and shared-memory passes.
  uint64_t cycles = 0;
  uint64_t stall_cycles = 0, shared_passes = 0;
  std::array<uint64_t, sim::kNumWarpStates> state_cycles{};  // warp-cycles per state (all 0 on the model)
  // Device address of the module's first instruction word: fault.pc -
  // code_base is the byte offset into Module::code.
  uint32_t code_base = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  // What load_module checks modules against.
  virtual isa::DeviceLimits limits() const = 0;
  virtual uint32_t max_threads_per_cta() const = 0;
  // Why the last failing call failed.
  virtual std::string last_error() const = 0;

  virtual Status alloc(uint32_t bytes, Buffer* out) = 0;
  virtual Status free(const Buffer& b) = 0;
  // Copies between host memory and [b.addr + offset, +bytes), which must lie in b.
  virtual Status write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) = 0;
  virtual Status read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) = 0;

  // Parses a .bsm image, checks it against limits() and places its code in
  // device memory.
  virtual Status load_module(const std::vector<uint8_t>& image, ModuleHandle* out) = 0;
  virtual Status unload_module(ModuleHandle m) = 0;

  // Runs one grid of `kernel` to completion (or to its fault). params are the
  // packed parameter bytes (pack_params): their size must be the kernel's
  // param_bytes.
  virtual Status launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                        const std::vector<uint8_t>& params, LaunchReport* out) = 0;
};

// ---- parameter packing ---------------------------------------------------------
// One kernel argument as raw little-endian bytes; its size must match the
// parameter's declared size.
struct Arg {
  std::vector<uint8_t> bytes;
  // A device address. It fills a 4-byte parameter (hand-written kernels) or,
  // zero-extended, an 8-byte one: a kernel compiled from CUDA takes its
  // pointers as 64-bit values, as cuLaunchKernel passes a CUdeviceptr.
  bool pointer = false;
  static Arg u32(uint32_t v);
  static Arg i32(int32_t v) { return u32(uint32_t(v)); }
  static Arg f32(float v);
  static Arg ptr(const Buffer& b) {
    Arg a = u32(b.addr);
    a.pointer = true;
    return a;
  }
};

// Places args (in the kernel's parameter order) at the offsets of the
// kernel's param table, which the assembler packed with natural alignment.
// Returns false with *error set when the count or a size does not match.
bool pack_params(const isa::KernelInfo& k, const std::vector<Arg>& args, std::vector<uint8_t>* out,
                 std::string* error);

// ---- device registry -----------------------------------------------------------
// The command line picks a device by name from this list; every device is a
// host-driver transport (host_driver/transport.h) that the samples drive
// through drv::Device (driver_backend.h), `baresm launch` and `baresm info`
// directly. The functional device model (cq_model + ISS) is always there;
// other components add theirs with register_backend() (see sim/CMakeLists.txt
// for how a library hooks its registration in).

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

// The watchdog budget of a launch that asks for the default, in the device's
// unit: cycles on a device with a clock (the verilated device, an FPGA
// board), warp-instructions on the functional model. The registry's entries,
// `baresm launch` and the tests take them from here.
constexpr uint32_t kDefaultWatchdogCycles = 20'000'000;
constexpr uint32_t kDefaultWatchdogInstrs = 50'000'000;

struct BackendEntry {
  std::string name;
  std::string description;
  // The device at power-on, for drv::Device::open; nullptr with *error (one
  // line naming the layer and the cause) when it cannot be started.
  std::function<std::unique_ptr<drv::Transport>(const DeviceSettings&, std::string* error)> open_transport;
  // Watchdog budget of a sample launch that asks for the default, in the
  // device's unit (warp-instructions on the model, cycles on the RTL).
  uint32_t default_watchdog = 0;
  // drv::DeviceOptions::sync_timeout_ns for the samples (0: the driver's default).
  uint64_t sync_timeout_ns = 0;
};
void register_backend(BackendEntry e);  // replaces an entry of the same name
const std::vector<BackendEntry>& backends();
const BackendEntry* find_backend(const std::string& name);
// "model, serial, rtl"
std::string backend_names();

}  // namespace baresm::samples
