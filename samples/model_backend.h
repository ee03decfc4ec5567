// Backend on the golden functional model (isa/iss.h): device memory is an
// iss::DeviceMemory, module code is copied into it, and a launch is one
// FunctionalModel::run with windows = exactly the buffers the caller granted.
#pragma once

#include <functional>

#include "samples/local_backend.h"

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

class ModelBackend : public LocalBackend {
 public:
  explicit ModelBackend(ModelBackendConfig cfg = {});

  std::string name() const override { return "model"; }
  isa::DeviceLimits limits() const override;
  uint32_t max_threads_per_cta() const override { return cfg_.max_threads_per_cta; }
  Status launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                const std::vector<uint8_t>& params, LaunchReport* out) override;

  // For tests and tracing: the memory and the model behind the backend.
  iss::DeviceMemory& memory() { return mem_; }
  void set_retire_callback(std::function<void(const iss::RetireEvent&)> cb) { retire_cb_ = std::move(cb); }

 private:
  void mem_write(uint32_t addr, const void* src, uint32_t bytes) override { mem_.write(addr, src, bytes); }
  void mem_read(uint32_t addr, void* dst, uint32_t bytes) override { mem_.read(addr, dst, bytes); }

  ModelBackendConfig cfg_;
  iss::DeviceMemory mem_;
  std::function<void(const iss::RetireEvent&)> retire_cb_;
};

}  // namespace baresm::samples
