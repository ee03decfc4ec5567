// The host driver (driver.h): launch: validation, windows, the local
// buffer, parameter packing, submission to a queue pair, results.
#include "host_driver/driver_impl.h"

namespace baresm::drv {

// ---- launch -----------------------------------------------------------------------------------
Status Device::check_launch(Function fn, const LaunchConfig& cfg, CheckedLaunch* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  const ModuleRec* M = nullptr;
  const KernelRec* K = kernel_rec(fn, &M);
  if (!K) return fail(Status::INVALID_HANDLE, Layer::API, "invalid function");
  ContextRec& C = ctxs_[M->ctx];
  if (C.sticky != Status::OK)
    return fail(C.sticky, status_layer(C.sticky), "context error is sticky: %s", status_message(C.sticky));
  int si = C.default_stream;
  if (cfg.stream.id) {
    const StreamRec* S = stream_rec(cfg.stream);
    if (!S || S->ctx != M->ctx)
      return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream for this context");
    si = streams_.index(S);
  }
  const Dim3& g = cfg.grid;
  const Dim3& b = cfg.block;
  const DeviceProps& P = props_;
  const Layer L = Layer::LAUNCH_CONFIG;
  if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
    return fail(Status::INVALID_CONFIGURATION, L, "zero dimension: grid (%u,%u,%u) block (%u,%u,%u)", g.x,
                g.y, g.z, b.x, b.y, b.z);
  if (b.x > P.max_block.x || b.y > P.max_block.y || b.z > P.max_block.z)
    return fail(Status::INVALID_CONFIGURATION, L,
                "block (%u,%u,%u) exceeds the per-dimension maximum (%u,%u,%u)", b.x, b.y, b.z, P.max_block.x,
                P.max_block.y, P.max_block.z);
  if (b.count() > P.max_threads_per_block)
    return fail(Status::INVALID_CONFIGURATION, L,
                "block of %llu threads exceeds the device's maximum of %u (min(1024, NUM_WARPS %u * 32))",
                (unsigned long long)b.count(), P.max_threads_per_block, P.num_warps);
  if (g.x > P.max_grid.x || g.y > P.max_grid.y || g.z > P.max_grid.z)
    return fail(Status::INVALID_CONFIGURATION, L, "grid (%u,%u,%u) exceeds the maximum (%u,%u,%u)", g.x, g.y,
                g.z, P.max_grid.x, P.max_grid.y, P.max_grid.z);
  // The device numbers CTAs linearly in 32 bits and refuses a larger grid (DCHK_DIMS).
  if (g.count() > 0xFFFFFFFFull)
    return fail(Status::INVALID_CONFIGURATION, L,
                "grid (%u,%u,%u) has %llu CTAs, more than the 2^32-1 the device numbers", g.x, g.y, g.z,
                (unsigned long long)g.count());
  const uint32_t regs = cfg.regs ? cfg.regs : K->regs;
  if (regs < K->regs || regs == 0)
    return fail(Status::INVALID_VALUE, L, "%u registers per thread, kernel %s needs %u", regs, K->name,
                K->regs);
  if (regs > P.max_regs_per_thread)
    return fail(Status::INVALID_VALUE, L, "%u registers per thread exceeds the device's maximum of %u", regs,
                P.max_regs_per_thread);
  const uint64_t shared = uint64_t(K->shared_bytes) + cfg.dynamic_shared;
  if (shared > P.shared_bytes)
    return fail(Status::INVALID_VALUE, L, "%llu bytes of shared memory (static %u + dynamic %u) exceeds %u",
                (unsigned long long)shared, K->shared_bytes, cfg.dynamic_shared, P.shared_bytes);
  const uint64_t warps = (b.count() + 31) / 32;
  if (warps * 32 * regs > P.regfile_regs)
    return fail(Status::LAUNCH_OUT_OF_RESOURCES, L,
                "a CTA of %llu warps at %u registers needs %llu registers, the register file has %u",
                (unsigned long long)warps, regs, (unsigned long long)(warps * 32 * regs), P.regfile_regs);
  if (cfg.num_windows > P.max_windows || cfg.num_windows > uint32_t(kMaxLaunchWindows))
    return fail(Status::INVALID_VALUE, L, "%u windows, the device takes %u (CONFIG1.MAX_WINDOWS)", cfg.num_windows,
                P.max_windows < uint32_t(kMaxLaunchWindows) ? P.max_windows : uint32_t(kMaxLaunchWindows));
  if (cfg.num_windows && !cfg.windows)
    return fail(Status::INVALID_VALUE, L, "%u windows and a null window list", cfg.num_windows);
  for (uint32_t i = 0; i < cfg.num_windows; ++i) {
    Status st = check_window(M->ctx, i, cfg.windows[i]);
    if (!ok(st)) return st;
  }
  out->kernel = K;
  out->module = M;
  out->regs = regs;
  out->shared = uint32_t(shared);
  out->queue = streams_[si].queue;
  out->stream = si;
  return Status::OK;
}

// An explicit window must lie inside the launching context's own data
// allocations (the bytes it asked for; exactly adjacent ones may be spanned):
// never another context's memory, module code, the driver's rings,
// descriptors or parameter buffers, freed or unallocated memory.
Status Device::check_window(int ci, uint32_t i, const Window& w) {
  const uint64_t end = uint64_t(w.base) + w.size;
  if (w.size == 0) return Status::OK;  // an empty window grants nothing
  auto refuse = [&](uint32_t where, const char* what) {
    return fail(Status::INVALID_VALUE, Layer::LAUNCH_CONFIG,
                "window %u [0x%08x, 0x%08llx) is not inside this context's allocations: 0x%08x is %s", i,
                w.base, (unsigned long long)end, where, what);
  };
  if (end > props_.mem_bytes) return refuse(std::max(w.base, props_.mem_bytes), "past device memory");
  uint64_t cur = w.base;
  while (cur < end) {
    const uint32_t a = uint32_t(cur);
    const bool prot = a >= props_.protected_base;
    const Allocator::Block* b = prot ? priv_.at(a) : alloc_.at(a);
    if (!b)
      return refuse(a, prot                ? "in the driver's protected range"
                       : a < alloc_.base() ? "in the reserved first page"
                                           : "unallocated memory");
    if (b->kind == KIND_RING) return refuse(a, "the driver's rings, descriptors and parameter buffers");
    if (b->kind == KIND_CODE)
      return refuse(a, b->owner == uint16_t(ci + 1) ? "this context's module code (read-only to kernels)"
                                                    : "another context's module code");
    if (prot) return refuse(a, "in the driver's protected range");
    if (b->kind == KIND_FREEING) return refuse(a, "freed memory (waiting for queued launches)");
    if (b->kind == KIND_LMEM)
      return refuse(a, "the driver's local-memory buffer (granted only to the launches that need it)");
    if (b->owner != uint16_t(ci + 1)) return refuse(a, "another context's allocation");
    if (cur >= uint64_t(b->addr) + b->bytes) return refuse(a, "past the end of this context's allocation");
    cur = uint64_t(b->addr) + b->bytes;
  }
  return Status::OK;
}

Status Device::context_windows(int ci, Window* out, uint32_t* n) {
  const uint32_t maxw =
      props_.max_windows < uint32_t(kMaxLaunchWindows) ? props_.max_windows : kMaxLaunchWindows;
  uint32_t k = 0;
  for (const auto& [addr, b] : alloc_.blocks()) {
    if (b.owner != uint16_t(ci + 1) || b.kind != KIND_DATA) continue;
    // Windows cover what was requested, not the alignment padding, so an
    // access one past a buffer is out of window; exactly adjacent buffers merge.
    if (k && out[k - 1].base + out[k - 1].size == b.addr) {
      out[k - 1].size += b.bytes;
      continue;
    }
    if (k == maxw)
      return fail(Status::INVALID_VALUE, Layer::LAUNCH_CONFIG,
                  "the context's allocations form more than %u separate ranges; pass LaunchConfig::windows",
                  maxw);
    out[k++] = Window{b.addr, b.bytes};
  }
  *n = k;
  return Status::OK;
}

Status Device::submit(uint32_t q, const cq::LaunchDescriptor& d0, const Inflight& inf0, const void* params,
                      uint32_t param_bytes, const Window* windows, uint32_t num_windows, uint64_t* token) {
  QueueState& Q = queues_[q];
  // At most sq_entries launches in flight per queue: each owns a submission
  // slot and its parameter/window slot until its completion is consumed.
  if (Q.host.sq_tail() - Q.host.cq_head() >= opt_.sq_entries) {
    Status st = wait_until([&] { return Q.host.sq_tail() - Q.host.cq_head() < opt_.sq_entries; },
                           kWaitDefault, inf0.ctx);
    if (!ok(st)) return st;
  }
  const uint32_t index = Q.host.sq_tail();
  const uint32_t slot = cq::ring_slot(index, opt_.sq_entries);
  const uint32_t slot_addr = Q.slot_base + slot * slot_bytes();
  cq::LaunchDescriptor d = d0;
  d.token = next_token_++;
  if (param_bytes) {
    if (!ok(transport_->mem_write(slot_addr, params, param_bytes)))
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "writing the parameter buffer failed");
    d.param_addr = slot_addr;
    d.param_size = param_bytes;
  }
  if (num_windows) {
    uint8_t wt[kMaxLaunchWindows * cq::kWIN_BYTES];
    for (uint32_t i = 0; i < num_windows; ++i)
      cq::encode(cq::WindowEntry{windows[i].base, windows[i].size}, wt + i * 8);
    const uint32_t wt_addr = slot_addr + opt_.max_param_bytes;
    if (!ok(transport_->mem_write(wt_addr, wt, num_windows * cq::kWIN_BYTES)))
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "writing the window table failed");
    d.window_table = wt_addr;
    d.window_count = uint8_t(num_windows);
  }
  uint32_t written = 0;
  if (!Q.host.write_descriptor(d, &written) || !Q.host.ring_doorbell())
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "writing the descriptor or the doorbell failed");
  Inflight inf = inf0;
  inf.token = d.token;
  Q.inflight[slot] = inf;
  ++ctxs_[inf.ctx].pending;
  ++streams_[inf.stream].pending;
  ++stats_.submitted;
  if (token) *token = d.token;
  return Status::OK;
}

Status Device::do_launch(Function fn, const LaunchConfig& cfg, const uint8_t* params, uint32_t param_bytes,
                         uint64_t* token) {
  CheckedLaunch c;
  Status st = check_launch(fn, cfg, &c);
  if (!ok(st)) return st;
  const KernelRec* K = c.kernel;
  const ModuleRec* M = c.module;
  const uint32_t regs = c.regs, shared = c.shared, q = c.queue;
  const int si = c.stream;
  const int ci = M->ctx;
  Window wins[kMaxLaunchWindows];
  uint32_t nw = 0;
  if (cfg.num_windows) {
    for (uint32_t i = 0; i < cfg.num_windows; ++i) wins[i] = cfg.windows[i];
    nw = cfg.num_windows;
  } else if (!ok(st = context_windows(ci, wins, &nw))) {
    return st;
  }
  // Local memory: one more window, and the buffer's address as the hidden
  // parameter after the user's (docs/driver.md "Local memory").
  uint8_t pbuf[4096 + 4];
  if (K->local_bytes) {
    const uint32_t maxw =
        props_.max_windows < uint32_t(kMaxLaunchWindows) ? props_.max_windows : kMaxLaunchWindows;
    if (nw + 1 > maxw)
      return fail(Status::INVALID_VALUE, Layer::LAUNCH_CONFIG,
                  "kernel %s uses local memory, whose buffer needs a window of its own: %u windows and it "
                  "are more than the %u the device takes",
                  K->name, nw, maxw);
    if (!ok(st = local_buffer(ci, *K, cfg, &wins[nw]))) return st;
    std::memcpy(pbuf, params, param_bytes);
    for (int i = 0; i < 4; ++i) pbuf[param_bytes + uint32_t(i)] = uint8_t(wins[nw].base >> (8 * i));
    params = pbuf;
    param_bytes += 4;
    ++nw;
  }
  // A device stopped by a failed launch runs nothing until reset: reset now so
  // this launch runs (the pending work of other contexts is reported lost).
  if (dev_faulted_) {
    if (!ok(st = recover())) return st;
    if (ctxs_[ci].sticky != Status::OK)
      return fail(ctxs_[ci].sticky, status_layer(ctxs_[ci].sticky), "context error is sticky: %s",
                  status_message(ctxs_[ci].sticky));
  }
  cq::LaunchDescriptor d;
  d.entry_pc = M->code + K->entry;
  d.code_base = M->code + K->entry;
  d.code_size = K->code_bytes;
  d.grid_x = cfg.grid.x;
  d.grid_y = uint16_t(cfg.grid.y);
  d.grid_z = uint16_t(cfg.grid.z);
  d.block_x = uint16_t(cfg.block.x);
  d.block_y = uint16_t(cfg.block.y);
  d.block_z = uint16_t(cfg.block.z);
  d.regs = uint8_t(regs);
  d.shared_bytes = shared;
  d.watchdog = cfg.watchdog;
  Inflight inf;
  inf.ctx = uint8_t(ci);
  inf.ctx_gen = ctxs_[ci].gen;
  inf.stream = uint8_t(si);
  inf.stream_gen = streams_[si].gen;
  inf.grid = cfg.grid;
  st = submit(q, d, inf, params, param_bytes, wins, nw, token);
  return ok(st) ? succeed() : st;
}

Status Device::local_buffer(int ci, const KernelRec& K, const LaunchConfig& cfg, Window* out) {
  ContextRec& C = ctxs_[ci];
  // Every warp of the grid gets its frames (CUDA sizes lmem by the resident
  // threads; the device names a warp only by its place in the grid).
  const uint64_t warps = cfg.grid.count() * ((cfg.block.count() + 31) / 32);
  const uint64_t need = warps * 32 * K.local_bytes;
  if (need > C.lmem_bytes) {
    uint32_t addr = 0;
    if (need > props_.mem_bytes || !alloc_waiting(uint16_t(ci + 1), uint32_t(need), KIND_LMEM, &addr)) {
      // The old buffer is not released first: queued launches may still use it.
      return fail(Status::OUT_OF_MEMORY, Layer::LAUNCH_CONFIG,
                  "kernel %s needs %llu bytes of local memory (%u bytes per thread x 32 lanes x %llu warps of "
                  "the grid); the largest free block is %u bytes (%u bytes freed, waiting for queued launches)",
                  K.name, (unsigned long long)need, K.local_bytes, (unsigned long long)warps,
                  alloc_.largest_free(), mem_pending_free_bytes());
    }
    if (C.lmem) free_after_queued(ci, C.lmem, false);  // released once its launches are done
    C.lmem = addr;
    C.lmem_bytes = uint32_t(need);
  }
  *out = Window{C.lmem, uint32_t(need)};
  return Status::OK;
}

Status Device::launch(Function fn, const LaunchConfig& cfg, const LaunchArg* args, uint32_t num_args,
                      uint64_t* token) {
  const ModuleRec* M = nullptr;
  const KernelRec* K = kernel_rec(fn, &M);
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  if (!K) return fail(Status::INVALID_HANDLE, Layer::API, "invalid function");
  // The one parameter packer (isa/params.h), against the kernel's table:
  // the argument list must match it exactly.
  uint8_t buf[isa::kMaxParamBytes];
  const isa::PackResult r =
      isa::pack_params(K->params, K->num_params, K->param_bytes, args, num_args, buf, sizeof buf);
  if (!r.ok()) {
    char why[sizeof err_.detail];
    return fail(Status::INVALID_VALUE, Layer::LAUNCH_CONFIG, "%s",
                isa::pack_error_text(r, K->name, why, sizeof why));
  }
  return do_launch(fn, cfg, buf, K->param_bytes, token);
}

Status Device::launch_packed(Function fn, const LaunchConfig& cfg, const void* params, uint32_t param_bytes,
                             uint64_t* token) {
  const ModuleRec* M = nullptr;
  const KernelRec* K = kernel_rec(fn, &M);
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  if (!K) return fail(Status::INVALID_HANDLE, Layer::API, "invalid function");
  if (param_bytes != K->param_bytes || (param_bytes && !params))
    return fail(Status::INVALID_VALUE, Layer::LAUNCH_CONFIG,
                "kernel %s takes a %u-byte parameter buffer, %u given", K->name, K->param_bytes, param_bytes);
  return do_launch(fn, cfg, static_cast<const uint8_t*>(params), param_bytes, token);
}

Status Device::launch_result(uint64_t token, LaunchReport* out) const {
  if (!out || token == 0 || token >= next_token_) return Status::INVALID_VALUE;
  const ResultRec& r = results_[token % kResultHistory];
  if (r.token == token) {
    *out = r.report;
    return Status::OK;
  }
  return r.token > token ? Status::INVALID_VALUE : Status::NOT_READY;
}

}  // namespace baresm::drv
