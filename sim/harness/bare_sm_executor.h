// Runs the launches of the functional device model (cq_model/model_device.h)
// on the bare verilated SM (SmHarness) instead of the ISS: the command
// processor, the rings and device memory stay the model's, the SM executes.
// The harness is synchronous, so the whole launch runs at the first step();
// the outcome carries the SM's cycles and counters, and the device then stays
// busy for those cycles (cq::LaunchOutcome::clocked). With lockstep on, every
// launch is also checked instruction by instruction against the model
// (lockstep.h). The descriptor's watchdog counts SM cycles here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cq_model/launch_executor.h"
#include "sim/harness/lockstep.h"
#include "sim/harness/sm_harness.h"

namespace baresm::sim {

struct BareSmOptions {
  SmRunOptions run;       // memory model and scheduler settings (observer: leave null)
  bool lockstep = false;  // check every launch against the model as it runs
};

// One launch's lockstep verdict (BareSmOptions::lockstep).
struct LockstepRun {
  bool ok = false;
  std::string report;  // the first difference, when !ok
  LockstepStats stats;
};

class BareSmExecutor final : public cq::LaunchExecutor {
 public:
  BareSmExecutor(std::unique_ptr<SmHarness> harness, iss::DeviceMemory& mem, const BareSmOptions& opt);

  void start(const iss::LaunchParams& p) override;
  bool step(uint32_t budget) override;
  void abort() override { state_ = IDLE; }
  const cq::LaunchOutcome& outcome() const override { return out_; }
  uint64_t retired() const override { return state_ == DONE ? out_.result.stats.warp_instrs : 0; }
  uint64_t cta_switches() const override;

  SmHarness& harness() { return *harness_; }
  BareSmOptions& options() { return opt_; }
  // Every launch's harness result and lockstep verdict, in order.
  const std::vector<SmRunResult>& runs() const { return runs_; }
  const std::vector<LockstepRun>& lockstep_runs() const { return lockstep_runs_; }
  void clear_runs() {
    runs_.clear();
    lockstep_runs_.clear();
  }

 private:
  enum State { IDLE, READY, DONE };
  std::unique_ptr<SmHarness> harness_;
  iss::DeviceMemory& mem_;
  BareSmOptions opt_;
  State state_ = IDLE;
  iss::LaunchParams params_;
  cq::LaunchOutcome out_;
  std::vector<SmRunResult> runs_;
  std::vector<LockstepRun> lockstep_runs_;
};

}  // namespace baresm::sim
