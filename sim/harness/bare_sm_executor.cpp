#include "sim/harness/bare_sm_executor.h"

namespace baresm::sim {

BareSmExecutor::BareSmExecutor(std::unique_ptr<SmHarness> harness, iss::DeviceMemory& mem,
                               const BareSmOptions& opt)
    : harness_(std::move(harness)), mem_(mem), opt_(opt) {}

void BareSmExecutor::start(const iss::LaunchParams& p) {
  params_ = p;
  out_ = cq::LaunchOutcome{};
  state_ = READY;
}

uint64_t BareSmExecutor::cta_switches() const {
  // The SM runs CTAs side by side; at the end every one but the last counts.
  const uint64_t ctas = state_ == DONE ? out_.result.stats.ctas : 0;
  return ctas ? ctas - 1 : 0;
}

bool BareSmExecutor::step(uint32_t) {
  if (state_ == DONE) return true;
  if (state_ != READY) return false;
  state_ = DONE;
  // The device's watchdog budget (descriptor or WATCHDOG register) is in SM cycles here.
  const SmLaunch l = launch_from_params(params_, params_.instr_budget);
  SmRunOptions opt = opt_.run;
  std::unique_ptr<LockstepChecker> checker;
  if (opt_.lockstep) {
    checker = std::make_unique<LockstepChecker>(mem_.bytes(), model_params(l), harness_->params());
    opt.observer = checker.get();
  }
  const SmRunResult r = harness_->run(l, mem_.bytes(), opt);
  runs_.push_back(r);

  out_.clocked = true;
  out_.sm_cycles = r.counters.cycles;
  out_.stall_cycles = r.counters.stalls;
  out_.shared_passes = r.counters.smem_passes;
  out_.gmem_requests = r.counters.gmem_reqs;
  out_.ifetch_fills = r.counters.ifills;
  for (size_t s = 0; s < out_.warp_state_cycles.size() && s < r.counters.state_cycles.size(); ++s)
    out_.warp_state_cycles[s] = r.counters.state_cycles[s];
  iss::LaunchResult& res = out_.result;
  res.fault = r.fault;
  res.stats.warp_instrs = r.counters.instrs;
  res.stats.thread_instrs = r.counters.thread_instrs;
  res.stats.ctas = r.counters.ctas;
  res.stats.divergent_branches = r.counters.divergent_branches;
  res.stats.barriers = r.counters.barrier_releases;

  if (checker) {
    LockstepRun lr;
    lr.ok = checker->finish(r, mem_.bytes());
    lr.report = checker->report();
    lr.stats = checker->stats();
    lockstep_runs_.push_back(lr);
    if (!lr.ok) {
      out_.internal_error = true;
      out_.internal_message = "bare SM: lockstep co-simulation: " + lr.report;
    }
  }
  if (r.timed_out) {
    out_.internal_error = true;
    out_.internal_message = "bare SM: the SM did not finish: " + r.describe();
    harness_->reset();  // whatever it was doing must not leak into the next launch
  } else if (r.cfg_error) {
    // The command processor checked the launch against the SM's own limits:
    // a refusal here means the two disagree.
    out_.internal_error = true;
    out_.internal_message = "bare SM: the SM refused a launch the command processor accepted";
  }
  return true;
}

}  // namespace baresm::sim
