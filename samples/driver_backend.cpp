#include "samples/driver_backend.h"

#include "host_driver/model_transport.h"
#include "isa/module.h"

namespace baresm::samples {

DriverBackend::DriverBackend(std::unique_ptr<drv::Transport> transport, DriverBackendOptions opt)
    : transport_(std::move(transport)), opt_(std::move(opt)) {
  if (dev_.open(transport_.get(), opt_.device) != drv::Status::OK) {
    fail_driver(Status::DEVICE_ERROR, "open");
    return;
  }
  if (dev_.ctx_create(&exec_ctx_) != drv::Status::OK) {
    fail_driver(Status::DEVICE_ERROR, "ctx_create");
    return;
  }
  ++exec_epoch_;
  opened_ = true;
}

DriverBackend::~DriverBackend() {
  if (opened_) dev_.close();
}

Status DriverBackend::fail(Status s, const std::string& msg) {
  error_ = msg;
  return s;
}

// The driver's own status where it gave one (s where it did not).
Status DriverBackend::fail_driver(Status s, const std::string& what) {
  const drv::ErrorInfo& e = dev_.last_error();
  return fail(e.status != Status::OK ? e.status : s, what + ": " + drv::status_name(e.status) + ": " + e.detail);
}

isa::DeviceLimits DriverBackend::limits() const {
  isa::DeviceLimits l;
  l.arch_id = dev_.props().arch_id;
  l.max_regs_per_thread = dev_.props().max_regs_per_thread;
  l.max_shared_per_cta = dev_.props().shared_bytes;
  return l;
}

uint32_t DriverBackend::max_threads_per_cta() const {
  return dev_.props().max_threads_per_block;
}

Status DriverBackend::alloc(uint32_t bytes, Buffer* out) {
  if (!opened_) return fail(Status::DEVICE_ERROR, "device not open");
  Status st = ensure_exec_context();
  if (st != Status::OK) return st;
  drv::DevPtr p = 0;
  const drv::Status s = dev_.mem_alloc(exec_ctx_, bytes, &p);
  if (s == drv::Status::OUT_OF_MEMORY) return fail_driver(Status::OUT_OF_MEMORY, "mem_alloc");
  if (s != drv::Status::OK) return fail_driver(Status::INVALID_VALUE, "mem_alloc");
  buffers_[p] = Buf{bytes, exec_ctx_};
  *out = Buffer{p, bytes};
  return Status::OK;
}

Status DriverBackend::free(const Buffer& b) {
  auto it = buffers_.find(b.addr);
  if (it == buffers_.end() || it->second.size != b.size) return fail(Status::INVALID_VALUE, "unknown buffer");
  const drv::Context owner = it->second.ctx;
  if (dev_.mem_free(owner, b.addr) != drv::Status::OK) return fail_driver(Status::INVALID_VALUE, "mem_free");
  buffers_.erase(it);
  drop_if_unused(owner);
  return Status::OK;
}

void DriverBackend::drop_if_unused(drv::Context c) {
  for (size_t i = 0; i < retired_.size(); ++i) {
    if (retired_[i].id != c.id) continue;
    for (const auto& kv : buffers_)
      if (kv.second.ctx.id == c.id) return;
    dev_.ctx_destroy(c);
    retired_.erase(retired_.begin() + long(i));
    return;
  }
}

Status DriverBackend::write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) {
  if (uint64_t(offset) + bytes > b.size) return fail(Status::INVALID_VALUE, "write outside the buffer");
  auto it = buffers_.find(b.addr);
  if (it == buffers_.end()) return fail(Status::INVALID_VALUE, "unknown buffer");
  if (dev_.memcpy_htod(it->second.ctx, b.addr + offset, src, bytes) != drv::Status::OK)
    return fail_driver(Status::INVALID_VALUE, "memcpy_htod");
  return Status::OK;
}

Status DriverBackend::read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) {
  if (uint64_t(offset) + bytes > b.size) return fail(Status::INVALID_VALUE, "read outside the buffer");
  auto it = buffers_.find(b.addr);
  if (it == buffers_.end()) return fail(Status::INVALID_VALUE, "unknown buffer");
  if (dev_.memcpy_dtoh(it->second.ctx, dst, b.addr + offset, bytes) != drv::Status::OK)
    return fail_driver(Status::INVALID_VALUE, "memcpy_dtoh");
  return Status::OK;
}

Status DriverBackend::load_module(const std::vector<uint8_t>& image, ModuleHandle* out) {
  if (!opened_) return fail(Status::DEVICE_ERROR, "device not open");
  Status s = ensure_exec_context();
  if (s != Status::OK) return s;
  Loaded l;
  l.image = image;
  const drv::Status ds = dev_.module_load_data(exec_ctx_, image.data(), image.size(), &l.mod);
  if (ds == drv::Status::INVALID_IMAGE) return fail_driver(Status::INVALID_IMAGE, "module_load_data");
  if (ds == drv::Status::NO_BINARY_FOR_DEVICE)
    return fail_driver(Status::NO_BINARY_FOR_DEVICE, "module_load_data");
  if (ds != drv::Status::OK) return fail_driver(Status::DEVICE_ERROR, "module_load_data");
  l.ctx_epoch = exec_epoch_;
  const ModuleHandle h = next_handle_++;
  modules_[h] = std::move(l);
  *out = h;
  return Status::OK;
}

Status DriverBackend::unload_module(ModuleHandle m) {
  auto it = modules_.find(m);
  if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module handle");
  if (it->second.ctx_epoch == exec_epoch_) dev_.module_unload(it->second.mod);
  modules_.erase(it);
  return Status::OK;
}

// A faulted context is replaced; it is kept while it owns buffers (destroyed
// at once otherwise, which resets the stopped device). Modules are loaded
// again on their next launch.
Status DriverBackend::ensure_exec_context() {
  if (dev_.ctx_get_error(exec_ctx_) == drv::Status::OK) return Status::OK;
  retired_.push_back(exec_ctx_);
  drop_if_unused(exec_ctx_);
  if (dev_.ctx_create(&exec_ctx_) != drv::Status::OK) {
    // The context table is full of faulted contexts: give up the oldest (its buffers die with it).
    if (retired_.empty()) return fail_driver(Status::DEVICE_ERROR, "ctx_create");
    const drv::Context old = retired_.front();
    for (auto it = buffers_.begin(); it != buffers_.end();)
      it = it->second.ctx.id == old.id ? buffers_.erase(it) : std::next(it);
    dev_.ctx_destroy(old);
    retired_.erase(retired_.begin());
    if (dev_.ctx_create(&exec_ctx_) != drv::Status::OK)
      return fail_driver(Status::DEVICE_ERROR, "ctx_create");
  }
  ++exec_epoch_;
  return Status::OK;
}

Status DriverBackend::launch(ModuleHandle m, const std::string& kernel,
                             const LaunchConfig& cfg, const std::vector<uint8_t>& params,
                             LaunchReport* out) {
  if (!opened_) return fail(Status::DEVICE_ERROR, "device not open");
  auto it = modules_.find(m);
  if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module handle");
  Status s = ensure_exec_context();
  if (s != Status::OK) return s;
  Loaded& l = it->second;
  if (l.ctx_epoch != exec_epoch_) {
    if (dev_.module_load_data(exec_ctx_, l.image.data(), l.image.size(), &l.mod) != drv::Status::OK)
      return fail_driver(Status::DEVICE_ERROR, "module_load_data (after a fault)");
    l.ctx_epoch = exec_epoch_;
  }
  drv::Function fn;
  if (dev_.module_get_function(l.mod, kernel.c_str(), &fn) != drv::Status::OK)
    return fail_driver(Status::NOT_FOUND, "module_get_function");
  for (const Buffer& w : cfg.windows) {
    auto b = buffers_.upper_bound(w.addr);
    if (b == buffers_.begin() ||
        uint64_t(w.addr) + w.size > uint64_t(std::prev(b)->first) + std::prev(b)->second.size)
      return fail(Status::INVALID_VALUE, "a window is not inside an allocated buffer");
    if (std::prev(b)->second.ctx.id != exec_ctx_.id)
      return fail(Status::INVALID_VALUE,
                  "a window is inside a buffer of a context that faulted earlier; allocate it again");
  }
  std::vector<drv::Window> wins;
  for (const Buffer& w : cfg.windows) wins.push_back(drv::Window{w.addr, w.size});
  drv::LaunchConfig lc;
  lc.grid = drv::Dim3{cfg.grid.x, cfg.grid.y, cfg.grid.z};
  lc.block = drv::Dim3{cfg.block.x, cfg.block.y, cfg.block.z};
  const uint64_t budget = cfg.watchdog ? cfg.watchdog : opt_.default_watchdog;
  lc.watchdog = budget > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(budget);
  lc.windows = wins.empty() ? nullptr : wins.data();
  lc.num_windows = uint32_t(wins.size());
  if (wins.empty()) {
    // No windows at all: the driver would grant the context's allocations;
    // an empty window grants nothing, as the caller asked.
    static const drv::Window none{0, 0};
    lc.windows = &none;
    lc.num_windows = 1;
  }
  uint64_t token = 0;
  drv::Status ds = dev_.launch_packed(fn, lc, params.data(), uint32_t(params.size()), &token);
  if (ds != drv::Status::OK) return fail_driver(Status::INVALID_VALUE, "launch");
  dev_.ctx_synchronize(exec_ctx_);
  drv::LaunchReport r;
  ds = dev_.launch_result(token, &r);
  if (ds != drv::Status::OK) return fail_driver(Status::DEVICE_ERROR, "the launch did not complete");
  last_ = r;
  if (!r.from_device)
    return fail(Status::DEVICE_ERROR, std::string("the launch was lost: ") + drv::status_name(r.status));

  LaunchReport rep;
  rep.stats.warp_instrs = r.stats.warp_instrs;
  rep.stats.ctas = r.stats.ctas_done;
  rep.cycles = r.end_cycle - r.start_cycle;
  rep.stall_cycles = r.stats.stall_cycles;
  rep.shared_passes = r.stats.shared_passes;
  drv::DevPtr code = 0;
  dev_.module_code_range(l.mod, &code, nullptr);
  rep.code_base = code;
  // The fault table read backwards (drv::fault_info, from isa/faults.def):
  // an SM fault is the launch's result; any other error a failed call.
  if (!drv::fault_info(r, &rep.fault))
    return fail(Status::DEVICE_ERROR, std::string("the device failed the launch: ") + cq::error_code_name(r.error));
  // The SM's counts of the launch, from its completion entry
  // (docs/ring-formats.md); the model leaves the warp-state cycles at 0.
  rep.sm_counters = true;
  rep.stats.thread_instrs = r.stats.thread_instrs;
  rep.stats.divergent_branches = r.stats.div_branches;
  rep.stats.barriers = r.stats.bar_releases;
  static_assert(sim::kNumWarpStates == drv::LaunchStats::kWarpStates, "one warp-state table");
  for (size_t s = 0; s < rep.state_cycles.size(); ++s) rep.state_cycles[s] = r.stats.warp_state_cycles[s];
  *out = rep;
  return Status::OK;
}

std::unique_ptr<DriverBackend> make_device_backend(const BackendEntry& entry, const DeviceSettings& settings,
                                                   std::string* error) {
  std::string why;
  std::unique_ptr<drv::Transport> t = entry.open_transport ? entry.open_transport(settings, &why) : nullptr;
  if (!t) {
    *error = "device '" + entry.name + "' could not be started" + (why.empty() ? "" : ": " + why);
    return nullptr;
  }
  DriverBackendOptions o;
  o.name = entry.name;
  o.default_watchdog = entry.default_watchdog;
  if (entry.sync_timeout_ns) o.device.sync_timeout_ns = entry.sync_timeout_ns;
  auto be = std::make_unique<DriverBackend>(std::move(t), o);
  if (!be->ok()) {
    *error = "device '" + entry.name + "': " + be->last_error();
    return nullptr;
  }
  return be;
}

std::unique_ptr<DriverBackend> make_model_backend(const cq::ModelDeviceConfig& cfg) {
  const BackendEntry* model = find_backend("model");
  DriverBackendOptions o;
  o.name = "model";
  o.default_watchdog = model ? model->default_watchdog : 0;
  return std::make_unique<DriverBackend>(std::make_unique<drv::ModelTransport>(cfg), o);
}

}  // namespace baresm::samples
