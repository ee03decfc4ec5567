// Backend on the golden functional model (isa/iss.h): device memory is an
// iss::DeviceMemory, module code is copied into it, and a launch is one
// FunctionalModel::run with windows = exactly the buffers the caller granted.
#pragma once

#include <map>
#include <memory>

#include "samples/backend.h"

namespace baresm::samples {

struct ModelBackendConfig {
  uint32_t memory_bytes = 16u << 20;
  uint32_t max_regs_per_thread = isa::kMaxRegsPerThread;
  uint32_t max_shared_per_cta = 48u << 10;
  uint32_t max_threads_per_cta = 1024;
  // Watchdog when a launch asks for the default: warp-instructions.
  uint64_t default_watchdog = 50'000'000;
  iss::ModelConfig model;
};

class ModelBackend : public Backend {
 public:
  explicit ModelBackend(ModelBackendConfig cfg = {});

  std::string name() const override { return "model"; }
  isa::DeviceLimits limits() const override;
  uint32_t max_threads_per_cta() const override { return cfg_.max_threads_per_cta; }
  std::string last_error() const override { return error_; }

  Status alloc(uint32_t bytes, Buffer* out) override;
  Status free(const Buffer& b) override;
  Status write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) override;
  Status read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) override;
  Status load_module(const std::vector<uint8_t>& image, ModuleHandle* out) override;
  Status unload_module(ModuleHandle m) override;
  Status launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                const std::vector<uint8_t>& params, LaunchReport* out) override;

  // For tests and tracing: the memory and the model behind the backend.
  iss::DeviceMemory& memory() { return mem_; }
  void set_retire_callback(std::function<void(const iss::RetireEvent&)> cb) { retire_cb_ = std::move(cb); }

 private:
  Status fail(Status s, std::string msg);
  bool owns(const Buffer& b) const;

  struct LoadedModule {
    isa::Module module;
    Buffer code;
  };

  ModelBackendConfig cfg_;
  iss::DeviceMemory mem_;
  std::map<uint32_t, uint32_t> free_;  // free ranges: addr -> size (coalesced)
  struct Allocation {
    uint32_t size = 0;      // what the caller asked for (the window a launch may get)
    uint32_t reserved = 0;  // rounded up to the allocation granule
  };
  std::map<uint32_t, Allocation> used_;  // live allocations by address
  std::map<ModuleHandle, LoadedModule> modules_;
  ModuleHandle next_module_ = 1;
  std::function<void(const iss::RetireEvent&)> retire_cb_;
  std::string error_;
};

}  // namespace baresm::samples
