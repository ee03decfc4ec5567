#include "samples/model_backend.h"

#include <algorithm>

namespace baresm::samples {

namespace {
// Allocations start above 0 so a null pointer is never inside a buffer, and
// are rounded to a granule so neighbouring buffers never share a line.
constexpr uint32_t kHeapBase = 0x1000;
constexpr uint32_t kGranule = 256;

uint64_t round_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

std::string dim_text(const iss::Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}
}  // namespace

ModelBackend::ModelBackend(ModelBackendConfig cfg) : cfg_(cfg), mem_(cfg.memory_bytes) {
  if (cfg_.memory_bytes > kHeapBase) free_[kHeapBase] = cfg_.memory_bytes - kHeapBase;
}

isa::DeviceLimits ModelBackend::limits() const {
  isa::DeviceLimits l;
  l.arch_id = isa::kArchId;
  l.max_regs_per_thread = cfg_.max_regs_per_thread;
  l.max_shared_per_cta = cfg_.max_shared_per_cta;
  return l;
}

Status ModelBackend::fail(Status s, std::string msg) {
  error_ = std::move(msg);
  return s;
}

Status ModelBackend::alloc(uint32_t bytes, Buffer* out) {
  if (bytes == 0) return fail(Status::INVALID_VALUE, "alloc of 0 bytes");
  const uint64_t need = round_up(bytes, kGranule);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const uint32_t addr = it->first;
    const uint32_t rest = uint32_t(it->second - need);
    free_.erase(it);
    if (rest) free_[uint32_t(addr + need)] = rest;
    used_[addr] = Allocation{bytes, uint32_t(need)};
    *out = Buffer{addr, bytes};
    return Status::OK;
  }
  return fail(Status::OUT_OF_MEMORY, "no free range of " + std::to_string(bytes) + " bytes");
}

Status ModelBackend::free(const Buffer& b) {
  auto it = used_.find(b.addr);
  if (it == used_.end()) return fail(Status::INVALID_VALUE, "free of an address that is not allocated");
  uint32_t addr = it->first, size = it->second.reserved;
  used_.erase(it);
  // Coalesce with the free neighbours on both sides.
  auto next = free_.lower_bound(addr);
  if (next != free_.end() && next->first == addr + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == addr) {
      prev->second += size;
      return Status::OK;
    }
  }
  free_[addr] = size;
  return Status::OK;
}

bool ModelBackend::owns(const Buffer& b) const {
  auto it = used_.upper_bound(b.addr);
  if (it == used_.begin()) return false;
  --it;
  return uint64_t(b.addr) + b.size <= uint64_t(it->first) + it->second.size;
}

Status ModelBackend::write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) {
  if (!owns(b) || uint64_t(offset) + bytes > b.size)
    return fail(Status::INVALID_VALUE, "write outside the buffer");
  mem_.write(b.addr + offset, src, bytes);
  return Status::OK;
}

Status ModelBackend::read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) {
  if (!owns(b) || uint64_t(offset) + bytes > b.size)
    return fail(Status::INVALID_VALUE, "read outside the buffer");
  mem_.read(b.addr + offset, dst, bytes);
  return Status::OK;
}

Status ModelBackend::load_module(const std::vector<uint8_t>& image, ModuleHandle* out) {
  const isa::DeviceLimits lim = limits();
  isa::LoadResult r = isa::read_module(image.data(), image.size(), &lim);
  if (r.status == isa::LoadStatus::INVALID_IMAGE) return fail(Status::INVALID_IMAGE, r.message);
  if (r.status != isa::LoadStatus::OK) return fail(Status::NO_BINARY_FOR_DEVICE, r.message);
  LoadedModule lm;
  lm.module = std::move(r.module);
  const uint64_t code_bytes = uint64_t(lm.module.code.size()) * isa::kInstrBytes;
  if (code_bytes == 0) return fail(Status::INVALID_IMAGE, "module has no code");
  if (code_bytes > UINT32_MAX) return fail(Status::OUT_OF_MEMORY, "module code too large");
  Status s = alloc(uint32_t(code_bytes), &lm.code);
  if (s != Status::OK) return s;
  for (size_t i = 0; i < lm.module.code.size(); ++i) {
    const uint64_t w = lm.module.code[i];
    uint8_t bytes[8];
    for (int k = 0; k < 8; ++k) bytes[k] = uint8_t(w >> (8 * k));
    mem_.write(lm.code.addr + uint32_t(i * 8), bytes, 8);
  }
  *out = next_module_++;
  modules_[*out] = std::move(lm);
  return Status::OK;
}

Status ModelBackend::unload_module(ModuleHandle m) {
  auto it = modules_.find(m);
  if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module handle");
  Buffer code = it->second.code;
  modules_.erase(it);
  return free(code);
}

Status ModelBackend::launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                            const std::vector<uint8_t>& params, LaunchReport* out) {
  auto it = modules_.find(m);
  if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module handle");
  const LoadedModule& lm = it->second;
  const isa::KernelInfo* k = lm.module.find_kernel(kernel);
  if (!k) return fail(Status::NOT_FOUND, "no kernel '" + kernel + "' in the module");
  if (params.size() != k->param_bytes)
    return fail(Status::INVALID_VALUE, "kernel '" + kernel + "' takes " + std::to_string(k->param_bytes) +
                                           " parameter bytes, got " + std::to_string(params.size()));
  const iss::Dim3 &g = cfg.grid, &b = cfg.block;
  if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z || g.count() > UINT32_MAX)
    return fail(Status::INVALID_VALUE, "bad grid " + dim_text(g) + " or block " + dim_text(b));
  if (b.count() > cfg_.max_threads_per_cta)
    return fail(Status::INVALID_VALUE, "block " + dim_text(b) + " has more than " +
                                           std::to_string(cfg_.max_threads_per_cta) + " threads");
  for (const Buffer& w : cfg.windows)
    if (!owns(w)) return fail(Status::INVALID_VALUE, "a window is not inside an allocated buffer");

  // The parameter buffer lives in device memory for the launch only.
  Buffer pbuf{};
  if (!params.empty()) {
    Status s = alloc(uint32_t(params.size()), &pbuf);
    if (s != Status::OK) return s;
    mem_.write(pbuf.addr, params.data(), uint32_t(params.size()));
  }

  iss::LaunchParams lp;
  lp.entry_pc = lm.code.addr + k->entry;
  lp.code_base = lm.code.addr;
  lp.code_size = lm.code.size;
  lp.grid = g;
  lp.block = b;
  lp.param_addr = pbuf.addr;
  lp.param_size = uint32_t(params.size());
  lp.regs_per_thread = k->regs;
  lp.shared_bytes = k->shared_bytes;
  for (const Buffer& w : cfg.windows) lp.windows.push_back(iss::Window{w.addr, w.size});
  lp.instr_budget = cfg.watchdog ? cfg.watchdog : cfg_.default_watchdog;
  lp.smid = cfg_.model.smid;

  iss::FunctionalModel model(mem_, cfg_.model);
  if (retire_cb_) model.set_retire_callback(retire_cb_);
  iss::LaunchResult r = model.run(lp);
  if (pbuf.size) free(pbuf);
  if (r.launch_error)
    return fail(Status::INVALID_VALUE, "the model refused the launch: " + r.launch_error_message);

  out->fault = r.fault;
  out->stats = r.stats;
  out->code_base = lm.code.addr;
  return Status::OK;
}

}  // namespace baresm::samples
