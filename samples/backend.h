// The device interface the samples (and the `baresm run` command) run against.
//
// Deliberately small: device memory (alloc/free/copy), module load with the
// device-limits check, and one synchronous launch that returns the fault
// report and statistics. The functional model implements it here
// (model_backend.h); the host driver implements the same interface over its
// transports (verilated RTL, FPGA board), so a sample written once runs on all
// of them and must leave identical memory behind.
//
// Every call returns a Status; on anything but OK, last_error() says why.
// A launch that *ran* returns OK even when the kernel faulted: the fault is in
// LaunchReport::fault (a faulting kernel is a result, not a call error).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "isa/iss.h"
#include "isa/module.h"

namespace baresm::drv {
class Transport;
}

namespace baresm::samples {

enum class Status {
  OK,
  OUT_OF_MEMORY,         // alloc: no free range large enough
  INVALID_VALUE,         // a bad argument: unknown buffer, range outside a buffer, bad dims ...
  INVALID_IMAGE,         // load_module: the bytes are not a valid .bsm image
  NO_BINARY_FOR_DEVICE,  // load_module: the module needs more than the device has
  NOT_FOUND,             // unknown module handle or kernel name
  DEVICE_ERROR,          // the transport or the device failed (not a kernel fault)
};
const char* status_name(Status s);  // "INVALID_VALUE", ...

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
  iss::LaunchStats stats;
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

// ---- backend registry ----------------------------------------------------------
// The command line picks a backend by name from this list. The model is
// always there; other components add theirs with register_backend() (see
// sim/CMakeLists.txt for how a library hooks its registration in).
struct BackendEntry {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Backend>()> make;
  // The same device as a host-driver transport (host_driver/transport.h),
  // for the commands that drive it through drv::Device themselves (`baresm
  // launch`, `baresm info`); empty when the backend has none. The CLI adds
  // the model's (this library does not link the driver).
  std::function<std::unique_ptr<drv::Transport>()> open_transport;
};
void register_backend(BackendEntry e);  // replaces an entry of the same name
const std::vector<BackendEntry>& backends();
const BackendEntry* find_backend(const std::string& name);

}  // namespace baresm::samples
