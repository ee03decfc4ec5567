#include "sim/harness/rtl_backend.h"

#include <algorithm>
#include <cstdio>

namespace baresm::sim {

using samples::Buffer;
using samples::Status;

RtlBackend::RtlBackend(std::unique_ptr<SmDut> dut, RtlBackendConfig cfg)
    : LocalBackend(cfg.memory_bytes), harness_(std::move(dut)), cfg_(cfg), mem_(cfg.memory_bytes, 0) {}

isa::DeviceLimits RtlBackend::limits() const {
  isa::DeviceLimits l;
  l.arch_id = isa::kArchId;
  l.max_regs_per_thread = harness_.params().regs;
  l.max_shared_per_cta = harness_.params().shared_bytes;
  return l;
}

uint32_t RtlBackend::max_threads_per_cta() const {
  return std::min<uint32_t>(1024, harness_.params().warps * 32);
}

Status RtlBackend::launch(samples::ModuleHandle m, const std::string& kernel,
                          const samples::LaunchConfig& cfg, const std::vector<uint8_t>& params,
                          samples::LaunchReport* out) {
  PreparedLaunch p;
  Status s = prepare_launch(m, kernel, cfg, params, harness_.params().windows, &p);
  if (s != Status::OK) return s;

  SmLaunch l;
  l.entry_pc = p.code.addr + p.kernel->entry;
  l.code_base = p.code.addr;
  l.code_size = p.code.size;
  l.grid = cfg.grid;
  l.block = cfg.block;
  l.regs = p.kernel->regs;
  l.param_addr = p.params.addr;
  l.param_size = p.params.size;
  l.shared_bytes = p.kernel->shared_bytes;
  for (const Buffer& w : p.windows) l.windows.push_back(iss::Window{w.addr, w.size});
  l.watchdog_cycles = cfg.watchdog ? cfg.watchdog : cfg_.default_watchdog;

  std::unique_ptr<LockstepChecker> checker;
  SmRunOptions opt = cfg_.run;
  if (cfg_.lockstep) {
    checker = std::make_unique<LockstepChecker>(mem_, model_params(l), harness_.params());
    opt.observer = checker.get();
  }
  SmRunResult r = harness_.run(l, mem_, opt);
  finish_launch(p);
  runs_.push_back(r);
  if (checker) {
    LockstepRun lr;
    lr.ok = checker->finish(r, mem_);
    lr.report = checker->report();
    lr.stats = checker->stats();
    lockstep_runs_.push_back(lr);
    if (!lr.ok) return fail(Status::DEVICE_ERROR, "lockstep co-simulation: " + lr.report);
  }
  if (cfg_.verbose)
    std::printf("[rtl] %s grid %s block %s: %s\n", kernel.c_str(), dim_text(cfg.grid).c_str(),
                dim_text(cfg.block).c_str(), r.describe().c_str());
  if (r.timed_out) return fail(Status::DEVICE_ERROR, "the SM did not finish: " + r.describe());
  if (r.cfg_error)
    return fail(Status::INVALID_VALUE, "the SM cannot run this launch (registers, shared memory or block size)");

  out->fault = r.fault;
  out->stats = iss::LaunchStats{};
  out->stats.warp_instrs = r.counters.instrs;
  out->stats.thread_instrs = r.counters.thread_instrs;
  out->stats.ctas = r.counters.ctas;
  out->stats.divergent_branches = r.counters.divergent_branches;
  out->stats.barriers = r.counters.barrier_releases;
  out->sm_counters = true;
  out->cycles = r.counters.cycles;
  out->code_base = p.code.addr;
  return Status::OK;
}

}  // namespace baresm::sim
