// samples::Backend on the verilated SM: device memory, allocation and module
// loading are the functional-model backend's (samples/local_backend.h: the
// same calls give the same addresses, so the two backends' memories can be
// compared byte for byte); a launch runs on the RTL through SmHarness.
#pragma once

#include <cstring>
#include <memory>

#include "samples/local_backend.h"
#include "sim/harness/lockstep.h"
#include "sim/harness/sm_harness.h"

namespace baresm::sim {

struct RtlBackendConfig {
  uint32_t memory_bytes = 16u << 20;
  uint64_t default_watchdog = 20'000'000;  // cycles, when a launch asks for the default
  SmRunOptions run;                        // memory model and scheduler settings
  bool verbose = false;                    // print cycles/IPC of every launch
  bool lockstep = false;                   // check every launch against the model as it runs
};

// One launch's lockstep verdict (RtlBackendConfig::lockstep).
struct LockstepRun {
  bool ok = false;
  std::string report;  // the first difference, when !ok
  LockstepStats stats;
};

class RtlBackend : public samples::LocalBackend {
 public:
  RtlBackend(std::unique_ptr<SmDut> dut, RtlBackendConfig cfg = {});

  std::string name() const override { return "rtl"; }
  isa::DeviceLimits limits() const override;
  uint32_t max_threads_per_cta() const override;
  samples::Status launch(samples::ModuleHandle m, const std::string& kernel, const samples::LaunchConfig& cfg,
                         const std::vector<uint8_t>& params, samples::LaunchReport* out) override;

  std::vector<uint8_t>& memory() { return mem_; }
  SmHarness& harness() { return harness_; }
  RtlBackendConfig& config() { return cfg_; }
  // Every launch's harness result, in order.
  const std::vector<SmRunResult>& runs() const { return runs_; }
  const std::vector<LockstepRun>& lockstep_runs() const { return lockstep_runs_; }
  void clear_runs() {
    runs_.clear();
    lockstep_runs_.clear();
  }

 private:
  void mem_write(uint32_t addr, const void* src, uint32_t bytes) override {
    std::memcpy(mem_.data() + addr, src, bytes);
  }
  void mem_read(uint32_t addr, void* dst, uint32_t bytes) override { std::memcpy(dst, mem_.data() + addr, bytes); }

  SmHarness harness_;
  RtlBackendConfig cfg_;
  std::vector<uint8_t> mem_;
  std::vector<SmRunResult> runs_;
  std::vector<LockstepRun> lockstep_runs_;
};

}  // namespace baresm::sim
