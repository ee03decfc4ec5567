#include "sim/harness/rtl_backend.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace baresm::sim {

using samples::Buffer;
using samples::Status;

namespace {
// The functional-model backend's heap: same base and granule (see
// samples/model_backend.cpp), so identical call sequences give identical
// addresses.
constexpr uint32_t kHeapBase = 0x1000;
constexpr uint32_t kGranule = 256;

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string dim_text(const iss::Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}
}  // namespace

RtlBackend::RtlBackend(std::unique_ptr<SmDut> dut, RtlBackendConfig cfg)
    : harness_(std::move(dut)), cfg_(cfg), mem_(cfg.memory_bytes, 0) {
  if (cfg_.memory_bytes > kHeapBase) free_[kHeapBase] = cfg_.memory_bytes - kHeapBase;
}

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

Status RtlBackend::fail(Status s, std::string msg) {
  error_ = std::move(msg);
  return s;
}

Status RtlBackend::alloc(uint32_t bytes, Buffer* out) {
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

Status RtlBackend::free(const Buffer& b) {
  auto it = used_.find(b.addr);
  if (it == used_.end()) return fail(Status::INVALID_VALUE, "free of an address that is not allocated");
  uint32_t addr = it->first, size = it->second.reserved;
  used_.erase(it);
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

bool RtlBackend::owns(const Buffer& b) const {
  auto it = used_.upper_bound(b.addr);
  if (it == used_.begin()) return false;
  --it;
  return uint64_t(b.addr) + b.size <= uint64_t(it->first) + it->second.size;
}

Status RtlBackend::write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) {
  if (!owns(b) || uint64_t(offset) + bytes > b.size)
    return fail(Status::INVALID_VALUE, "write outside the buffer");
  if (bytes) std::memcpy(mem_.data() + b.addr + offset, src, bytes);
  return Status::OK;
}

Status RtlBackend::read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) {
  if (!owns(b) || uint64_t(offset) + bytes > b.size)
    return fail(Status::INVALID_VALUE, "read outside the buffer");
  if (bytes) std::memcpy(dst, mem_.data() + b.addr + offset, bytes);
  return Status::OK;
}

Status RtlBackend::load_module(const std::vector<uint8_t>& image, samples::ModuleHandle* out) {
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
    for (int k = 0; k < 8; ++k) mem_[lm.code.addr + i * 8 + size_t(k)] = uint8_t(w >> (8 * k));
  }
  *out = next_module_++;
  modules_[*out] = std::move(lm);
  return Status::OK;
}

Status RtlBackend::unload_module(samples::ModuleHandle m) {
  auto it = modules_.find(m);
  if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module handle");
  Buffer code = it->second.code;
  modules_.erase(it);
  return free(code);
}

Status RtlBackend::launch(samples::ModuleHandle m, const std::string& kernel,
                          const samples::LaunchConfig& cfg, const std::vector<uint8_t>& params,
                          samples::LaunchReport* out) {
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
  if (b.count() > max_threads_per_cta() || b.x > 0xFFFF || b.y > 0xFFFF || b.z > 0xFFFF)
    return fail(Status::INVALID_VALUE, "block " + dim_text(b) + " has more than " +
                                           std::to_string(max_threads_per_cta()) + " threads");
  if (cfg.windows.size() > harness_.params().windows)
    return fail(Status::INVALID_VALUE, "more than " + std::to_string(harness_.params().windows) +
                                           " windows");
  for (const Buffer& w : cfg.windows)
    if (!owns(w)) return fail(Status::INVALID_VALUE, "a window is not inside an allocated buffer");

  Buffer pbuf{};
  if (!params.empty()) {
    Status s = alloc(uint32_t(params.size()), &pbuf);
    if (s != Status::OK) return s;
    std::memcpy(mem_.data() + pbuf.addr, params.data(), params.size());
  }

  SmLaunch l;
  l.entry_pc = lm.code.addr + k->entry;
  l.code_base = lm.code.addr;
  l.code_size = lm.code.size;
  l.grid = g;
  l.block = b;
  l.regs = k->regs;
  l.param_addr = pbuf.addr;
  l.param_size = uint32_t(params.size());
  l.shared_bytes = k->shared_bytes;
  for (const Buffer& w : cfg.windows) l.windows.push_back(iss::Window{w.addr, w.size});
  l.watchdog_cycles = cfg.watchdog ? cfg.watchdog : cfg_.default_watchdog;

  SmRunResult r = harness_.run(l, mem_, cfg_.run);
  if (pbuf.size) free(pbuf);
  runs_.push_back(r);
  if (cfg_.verbose)
    std::printf("[rtl] %s grid %s block %s: %s\n", kernel.c_str(), dim_text(g).c_str(),
                dim_text(b).c_str(), r.describe().c_str());
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
  out->code_base = lm.code.addr;
  return Status::OK;
}

}  // namespace baresm::sim
