#include "samples/local_backend.h"

#include <iterator>

namespace baresm::samples {

namespace {
uint64_t round_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}
}  // namespace

LocalBackend::LocalBackend(uint32_t memory_bytes) {
  if (memory_bytes > kHeapBase) free_[kHeapBase] = memory_bytes - kHeapBase;
}

std::string LocalBackend::dim_text(const iss::Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

Status LocalBackend::fail(Status s, std::string msg) {
  error_ = std::move(msg);
  return s;
}

Status LocalBackend::alloc(uint32_t bytes, Buffer* out) {
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

Status LocalBackend::free(const Buffer& b) {
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

bool LocalBackend::owns(const Buffer& b) const {
  auto it = used_.upper_bound(b.addr);
  if (it == used_.begin()) return false;
  --it;
  return uint64_t(b.addr) + b.size <= uint64_t(it->first) + it->second.size;
}

Status LocalBackend::write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) {
  if (!owns(b) || uint64_t(offset) + bytes > b.size)
    return fail(Status::INVALID_VALUE, "write outside the buffer");
  if (bytes) mem_write(b.addr + offset, src, bytes);
  return Status::OK;
}

Status LocalBackend::read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) {
  if (!owns(b) || uint64_t(offset) + bytes > b.size)
    return fail(Status::INVALID_VALUE, "read outside the buffer");
  if (bytes) mem_read(b.addr + offset, dst, bytes);
  return Status::OK;
}

Status LocalBackend::load_module(const std::vector<uint8_t>& image, ModuleHandle* out) {
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
    mem_write(lm.code.addr + uint32_t(i * 8), bytes, 8);
  }
  *out = next_module_++;
  modules_[*out] = std::move(lm);
  return Status::OK;
}

Status LocalBackend::unload_module(ModuleHandle m) {
  auto it = modules_.find(m);
  if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module handle");
  Buffer code = it->second.code;
  modules_.erase(it);
  return free(code);
}

Status LocalBackend::prepare_launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                                    const std::vector<uint8_t>& params, uint32_t max_windows,
                                    PreparedLaunch* out) {
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
  if (b.count() > max_threads_per_cta())
    return fail(Status::INVALID_VALUE, "block " + dim_text(b) + " has more than " +
                                           std::to_string(max_threads_per_cta()) + " threads");
  const uint64_t nwindows = cfg.windows.size() + (k->local_bytes ? 1 : 0);
  if (nwindows > max_windows)
    return fail(Status::INVALID_VALUE, std::to_string(cfg.windows.size()) + " windows" +
                                           (k->local_bytes ? " and the local-memory buffer's" : "") +
                                           ", the device takes " + std::to_string(max_windows));
  for (const Buffer& w : cfg.windows)
    if (!owns(w)) return fail(Status::INVALID_VALUE, "a window is not inside an allocated buffer");

  // The local frames and the parameter buffer live in device memory for the
  // launch only; the frames are zeroed, so that every backend starts a launch
  // from the same memory.
  std::vector<uint8_t> packed = params;
  out->windows = cfg.windows;
  Buffer lbuf{};
  if (k->local_bytes) {
    const uint64_t warps = g.count() * ((b.count() + 31) / 32);
    const uint64_t bytes = warps * 32 * k->local_bytes;
    const std::string what = "kernel '" + kernel + "' needs " + std::to_string(bytes) +
                             " bytes of local memory (" + std::to_string(k->local_bytes) +
                             " bytes per thread x 32 lanes x " + std::to_string(warps) + " warps)";
    if (bytes > UINT32_MAX) return fail(Status::OUT_OF_MEMORY, what + ", more than the 32-bit device has");
    if (alloc(uint32_t(bytes), &lbuf) != Status::OK) return fail(Status::OUT_OF_MEMORY, what + ": " + error_);
    const std::vector<uint8_t> zero(size_t(bytes), 0);
    mem_write(lbuf.addr, zero.data(), uint32_t(bytes));
    for (int i = 0; i < 4; ++i) packed.push_back(uint8_t(lbuf.addr >> (8 * i)));  // at offset param_bytes
    out->windows.push_back(lbuf);
  }
  Buffer pbuf{};
  if (!packed.empty()) {
    Status s = alloc(uint32_t(packed.size()), &pbuf);
    if (s != Status::OK) {
      if (lbuf.size) free(lbuf);
      return s;
    }
    mem_write(pbuf.addr, packed.data(), uint32_t(packed.size()));
  }
  out->kernel = k;
  out->code = lm.code;
  out->params = pbuf;
  out->local = lbuf;
  return Status::OK;
}

void LocalBackend::finish_launch(const PreparedLaunch& p) {
  if (p.params.size) free(p.params);
  if (p.local.size) free(p.local);
}

}  // namespace baresm::samples
