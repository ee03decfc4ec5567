// Backend over the host driver (host_driver/driver.h) and any of
// its transports: the samples and `baresm run` drive every device (the
// functional device model, the verilated RTL) the way a CUDA program does --
// allocations, module load, launches through the rings, completions --
// instead of calling a model directly. make_device_backend() opens a
// registered device (backend.h) from typed settings.
//
// Contexts: buffers, modules and launches share one context, since the
// driver grants a launch only windows inside its own context's allocations.
// A faulting launch makes that context's error sticky (docs/driver.md): the
// next allocation, module load or launch opens a fresh context (its first
// launch resets the stopped device) and loads the modules into it again.
// Buffers of the faulted context stay readable, writable and freeable; it is
// destroyed when the last of them is freed. A launch cannot be granted a
// buffer of an earlier context (as a CUDA context's memory dies with it).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cq_model/model_device.h"
#include "host_driver/driver.h"
#include "samples/backend.h"

namespace baresm::samples {

struct DriverBackendOptions {
  std::string name = "driver";
  drv::DeviceOptions device;      // for Device::open
  uint32_t default_watchdog = 0;  // budget when a launch asks for the default (device units)
};

class DriverBackend : public Backend {
 public:
  DriverBackend(std::unique_ptr<drv::Transport> transport, DriverBackendOptions opt);
  ~DriverBackend() override;

  // False when the device could not be opened (last_error() says why).
  bool ok() const { return opened_; }
  drv::Device& device() { return dev_; }
  drv::Transport& transport() { return *transport_; }

  std::string name() const override { return opt_.name; }
  isa::DeviceLimits limits() const override;
  uint32_t max_threads_per_cta() const override;
  std::string last_error() const override { return error_; }

  Status alloc(uint32_t bytes, Buffer* out) override;
  Status free(const Buffer& b) override;
  Status write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) override;
  Status read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) override;
  Status load_module(const std::vector<uint8_t>& image, ModuleHandle* out) override;
  Status unload_module(ModuleHandle m) override;
  Status launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                         const std::vector<uint8_t>& params, LaunchReport* out) override;

  // The driver's report of the last launch.
  const drv::LaunchReport& last_report() const { return last_; }

 private:
  Status fail(Status s, const std::string& msg);
  Status fail_driver(Status s, const std::string& what);
  Status ensure_exec_context();
  void drop_if_unused(drv::Context c);  // destroys a retired context with no buffers left

  struct Loaded {
    std::vector<uint8_t> image;
    drv::Module mod;         // in the current execution context
    uint64_t ctx_epoch = 0;  // execution context it was loaded into
  };

  std::unique_ptr<drv::Transport> transport_;
  DriverBackendOptions opt_;
  drv::Device dev_;
  bool opened_ = false;
  drv::Context exec_ctx_;              // the current context
  std::vector<drv::Context> retired_;  // faulted contexts that still own buffers
  uint64_t exec_epoch_ = 0;
  std::map<ModuleHandle, Loaded> modules_;
  ModuleHandle next_handle_ = 1;
  struct Buf {
    uint32_t size = 0;
    drv::Context ctx;  // the context that owns it
  };
  std::map<uint32_t, Buf> buffers_;  // by address
  drv::LaunchReport last_;
  std::string error_;
};

// The registered device `entry`, opened with `settings` and driven through
// the driver; nullptr with *error set when it cannot be started or opened.
std::unique_ptr<DriverBackend> make_device_backend(const BackendEntry& entry, const DeviceSettings& settings,
                                                   std::string* error);

// The functional device model (cq_model: command processor + ISS) through
// the driver, as the registry's `model` device but with the given
// configuration (tests and tools that need other memory or limits). Check
// ok() on the result.
std::unique_ptr<DriverBackend> make_model_backend(const cq::ModelDeviceConfig& cfg = {});

}  // namespace baresm::samples
