// samples::Backend on the verilated SM: device memory, allocation and module
// loading behave exactly as the functional-model backend's (same heap base,
// granule and first-fit policy, so the same calls give the same addresses
// and the two backends' memories can be compared byte for byte); a launch
// runs on the RTL through SmHarness.
#pragma once

#include <map>
#include <memory>

#include "samples/backend.h"
#include "sim/harness/sm_harness.h"

namespace baresm::sim {

struct RtlBackendConfig {
  uint32_t memory_bytes = 16u << 20;
  uint64_t default_watchdog = 20'000'000;  // cycles, when a launch asks for the default
  SmRunOptions run;                        // memory model and scheduler settings
  bool verbose = false;                    // print cycles/IPC of every launch
};

class RtlBackend : public samples::Backend {
 public:
  RtlBackend(std::unique_ptr<SmDut> dut, RtlBackendConfig cfg = {});

  std::string name() const override { return "rtl"; }
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

  std::vector<uint8_t>& memory() { return mem_; }
  SmHarness& harness() { return harness_; }
  RtlBackendConfig& config() { return cfg_; }
  // Every launch's harness result, in order.
  const std::vector<SmRunResult>& runs() const { return runs_; }
  void clear_runs() { runs_.clear(); }

 private:
  samples::Status fail(samples::Status s, std::string msg);
  bool owns(const samples::Buffer& b) const;

  struct LoadedModule {
    isa::Module module;
    samples::Buffer code;
  };

  SmHarness harness_;
  RtlBackendConfig cfg_;
  std::vector<uint8_t> mem_;
  std::map<uint32_t, uint32_t> free_;
  struct Allocation {
    uint32_t size = 0, reserved = 0;
  };
  std::map<uint32_t, Allocation> used_;
  std::map<samples::ModuleHandle, LoadedModule> modules_;
  samples::ModuleHandle next_module_ = 1;
  std::vector<SmRunResult> runs_;
  std::string error_;
};

}  // namespace baresm::sim
