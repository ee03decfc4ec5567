// samples::Backend over the host driver (host_driver/driver.h) and any of
// its transports: the samples and `baresm run` drive a device the way a
// CUDA program does -- allocations, module load, launches through the rings,
// completions -- instead of calling a model directly.
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

#include "host_driver/driver.h"
#include "samples/backend.h"

namespace baresm::cosim {

struct DriverBackendOptions {
  std::string name = "driver";
  drv::DeviceOptions device;      // for Device::open
  uint32_t default_watchdog = 0;  // budget when a launch asks for the default (device units)
  // Called after every launch with the driver's report; it may add what the
  // completion entry does not carry to the sample's report (statistics).
  std::function<void(const drv::LaunchReport&, samples::LaunchReport*)> on_launch;
};

class DriverBackend : public samples::Backend {
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

  samples::Status alloc(uint32_t bytes, samples::Buffer* out) override;
  samples::Status free(const samples::Buffer& b) override;
  samples::Status write(const samples::Buffer& b, uint32_t offset, const void* src, uint32_t bytes) override;
  samples::Status read(const samples::Buffer& b, uint32_t offset, void* dst, uint32_t bytes) override;
  samples::Status load_module(const std::vector<uint8_t>& image, samples::ModuleHandle* out) override;
  samples::Status unload_module(samples::ModuleHandle m) override;
  samples::Status launch(samples::ModuleHandle m, const std::string& kernel, const samples::LaunchConfig& cfg,
                         const std::vector<uint8_t>& params, samples::LaunchReport* out) override;

  // The driver's report of the last launch.
  const drv::LaunchReport& last_report() const { return last_; }

 private:
  samples::Status fail(samples::Status s, const std::string& msg);
  samples::Status fail_driver(samples::Status s, const std::string& what);
  samples::Status ensure_exec_context();
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
  std::map<samples::ModuleHandle, Loaded> modules_;
  samples::ModuleHandle next_handle_ = 1;
  struct Buf {
    uint32_t size = 0;
    drv::Context ctx;  // the context that owns it
  };
  std::map<uint32_t, Buf> buffers_;  // by address
  drv::LaunchReport last_;
  std::string error_;
};

}  // namespace baresm::cosim
