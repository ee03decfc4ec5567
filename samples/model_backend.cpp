#include "samples/model_backend.h"

#include <limits>

namespace baresm::samples {

ModelBackend::ModelBackend(ModelBackendConfig cfg)
    : LocalBackend(cfg.memory_bytes), cfg_(cfg), mem_(cfg.memory_bytes) {}

isa::DeviceLimits ModelBackend::limits() const {
  isa::DeviceLimits l;
  l.arch_id = isa::kArchId;
  l.max_regs_per_thread = cfg_.max_regs_per_thread;
  l.max_shared_per_cta = cfg_.max_shared_per_cta;
  return l;
}

Status ModelBackend::launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                            const std::vector<uint8_t>& params, LaunchReport* out) {
  PreparedLaunch p;
  // The model takes any number of windows.
  Status s = prepare_launch(m, kernel, cfg, params, std::numeric_limits<uint32_t>::max(), &p);
  if (s != Status::OK) return s;

  iss::LaunchParams lp;
  lp.entry_pc = p.code.addr + p.kernel->entry;
  lp.code_base = p.code.addr;
  lp.code_size = p.code.size;
  lp.grid = cfg.grid;
  lp.block = cfg.block;
  lp.param_addr = p.params.addr;
  lp.param_size = p.params.size;
  lp.regs_per_thread = p.kernel->regs;
  lp.shared_bytes = p.kernel->shared_bytes;
  for (const Buffer& w : p.windows) lp.windows.push_back(iss::Window{w.addr, w.size});
  lp.instr_budget = cfg.watchdog ? cfg.watchdog : cfg_.default_watchdog;
  lp.smid = cfg_.model.smid;

  iss::FunctionalModel model(mem_, cfg_.model);
  if (retire_cb_) model.set_retire_callback(retire_cb_);
  iss::LaunchResult r = model.run(lp);
  finish_launch(p);
  if (r.launch_error)
    return fail(Status::INVALID_VALUE, "the model refused the launch: " + r.launch_error_message);

  out->fault = r.fault;
  out->stats = r.stats;
  out->sm_counters = true;  // the model counts everything (no cycles: it has no clock)
  out->code_base = p.code.addr;
  return Status::OK;
}

}  // namespace baresm::samples
