// The host driver (driver.h): the device and its registers (open, close,
// reset, programming the rings), errors, handle lookups, the ring bus.
// Firmware-style: fixed tables, status codes, and nothing but Transport calls
// to reach the device. The other seams are driver_*.cpp (docs/driver.md).

#include <cstdarg>

#include "host_driver/driver_impl.h"

namespace baresm::drv {

LaunchStats launch_stats(const cq::CompletionEntry& e) {
  LaunchStats st;
  st.cycles = e.end_cycle >= e.start_cycle ? e.end_cycle - e.start_cycle : 0;
  st.sm_cycles = e.sm_cycles;
  st.warp_instrs = e.warp_instrs;
  st.thread_instrs = e.thread_instrs;
  st.stall_cycles = e.stall_cycles;
  st.shared_passes = e.shared_passes;
  st.ctas_done = e.ctas_done;
  st.div_branches = e.div_branches;
  st.bar_releases = e.bar_releases;
  st.gmem_requests = e.gmem_requests;
  st.ifetch_fills = e.ifetch_fills;
  static_assert(LaunchStats::kWarpStates == cq::CompletionEntry::kWarpStates, "one warp-state list");
  for (int s = 0; s < LaunchStats::kWarpStates; ++s) st.warp_state_cycles[s] = e.warp_state_cycles(s);
  return st;
}


// ---- transport bus for the ring helpers ---------------------------------------------
bool Device::Bus::reg_read(uint32_t offset, uint32_t* value) {
  return ok(d_->transport_->mmio_read32(offset, value));
}
bool Device::Bus::reg_write(uint32_t offset, uint32_t value) {
  return ok(d_->transport_->mmio_write32(offset, value));
}
bool Device::Bus::mem_read(uint32_t addr, void* dst, uint32_t len) {
  return ok(d_->transport_->mem_read(addr, dst, len));
}
bool Device::Bus::mem_write(uint32_t addr, const void* src, uint32_t len) {
  return ok(d_->transport_->mem_write(addr, src, len));
}

Device::Device() = default;
Device::~Device() {
  close();
}

Status Device::fail(Status s, Layer layer, const char* fmt, ...) {
  err_.status = s;
  err_.layer = layer;
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(err_.detail, sizeof err_.detail, fmt, ap);
  va_end(ap);
  return s;
}

Status Device::rd(uint32_t off, uint32_t* v) {
  if (!ok(transport_->mmio_read32(off, v)))
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "register read at 0x%03x failed", off);
  return Status::OK;
}
Status Device::wr(uint32_t off, uint32_t v) {
  if (!ok(transport_->mmio_write32(off, v)))
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "register write at 0x%03x failed", off);
  return Status::OK;
}

// ---- table lookups --------------------------------------------------------------------
Device::ContextRec* Device::ctx_rec(Context c) {
  return ctxs_.find(c.id);
}
const Device::ContextRec* Device::ctx_rec(Context c) const {
  return ctxs_.find(c.id);
}
Device::StreamRec* Device::stream_rec(Stream s) {
  return streams_.find(s.id);
}
const Device::StreamRec* Device::stream_rec(Stream s) const {
  return streams_.find(s.id);
}
Device::EventRec* Device::event_rec(Event e) {
  return events_.find(e.id);
}
const Device::EventRec* Device::event_rec(Event e) const {
  return events_.find(e.id);
}
Device::ModuleRec* Device::module_rec(Module m) {
  return modules_.find(m.id);
}
const Device::KernelRec* Device::kernel_rec(Function fn, const ModuleRec** mod) const {
  const ModuleRec* M = modules_.at(int(fn.id & 0xF), fn.id >> 8);
  if (!M) return nullptr;
  const uint32_t k = (fn.id >> 4) & 0xF;
  if (k >= M->num_kernels) return nullptr;
  *mod = M;
  return &M->kernels[k];
}

// ---- open / close ------------------------------------------------------------------
Status Device::open(Transport* t, const DeviceOptions& options) {
  if (transport_) return fail(Status::INVALID_VALUE, Layer::API, "device already open");
  if (!t) return fail(Status::INVALID_VALUE, Layer::API, "no transport");
  transport_ = t;
  opt_ = options;
  Status st = Status::OK;
  auto bail = [&](Status s) {
    transport_ = nullptr;
    return s;
  };

  uint32_t id = 0, ver = 0;
  if (!ok(st = rd(regs::ID, &id)) || !ok(st = rd(regs::VERSION, &ver))) return bail(st);
  if (id != isa::kArchId)
    return bail(fail(Status::UNSUPPORTED_DEVICE, Layer::DEVICE, "ID reads 0x%08x, expected 0x%08x (\"BSM1\")",
                     id, isa::kArchId));
  props_ = DeviceProps{};
  props_.arch_id = id;
  props_.version_major = f::VERSION_MAJOR.get(ver);
  props_.version_minor = f::VERSION_MINOR.get(ver);
  props_.ring_version = f::VERSION_RING.get(ver);
  if (props_.version_major != regs::VERSION_MAJOR || props_.ring_version != cq::kDESC_VERSION)
    return bail(fail(Status::UNSUPPORTED_DEVICE, Layer::DEVICE,
                     "register map v%u / ring format v%u; this driver speaks v%u / v%u", props_.version_major,
                     props_.ring_version, regs::VERSION_MAJOR, cq::kDESC_VERSION));

  // Start from a clean device: whatever a previous host left running is dropped.
  if (!ok(st = soft_reset_device())) return bail(st);

  uint32_t c[7];
  const uint32_t offs[7] = {regs::CONFIG0, regs::CONFIG1, regs::CONFIG2, regs::CONFIG3,
                            regs::CONFIG4, regs::CONFIG5, regs::CONFIG6};
  for (int i = 0; i < 7; ++i)
    if (!ok(st = rd(offs[i], &c[i]))) return bail(st);
  props_.num_lanes = f::CONFIG0_NUM_LANES.get(c[0]);
  props_.num_warps = f::CONFIG0_NUM_WARPS.get(c[0]);
  props_.cta_slots = f::CONFIG0_CTA_SLOTS.get(c[0]);
  props_.num_banks = f::CONFIG0_NUM_BANKS.get(c[0]);
  props_.max_regs_per_thread = f::CONFIG1_MAX_REGS.get(c[1]);
  props_.stack_depth = f::CONFIG1_STACK_DEPTH.get(c[1]);
  props_.num_queues = f::CONFIG1_NUM_QUEUES.get(c[1]);
  props_.max_windows = f::CONFIG1_MAX_WINDOWS.get(c[1]);
  props_.shared_bytes = c[2];
  props_.regfile_regs = c[3];
  props_.mem_bytes = c[4];
  props_.clock_khz = c[5];
  // CONFIG6 came with register map 1.2; every earlier device had the FPU.
  props_.has_fpu = props_.version_minor < 2 || f::CONFIG6_HAS_FPU.get(c[6]);
  props_.max_threads_per_block = props_.num_warps * 32 < 1024 ? props_.num_warps * 32 : 1024;
  if (!props_.num_lanes || !props_.num_warps || !props_.cta_slots || !props_.max_regs_per_thread ||
      !props_.num_queues || !props_.regfile_regs || !props_.mem_bytes || !props_.clock_khz)
    return bail(fail(Status::DEVICE_ERROR, Layer::DEVICE, "CONFIG registers report a zero resource"));

  // Options against what the device has.
  nq_ = opt_.queues ? opt_.queues : props_.num_queues;
  if (nq_ > props_.num_queues || nq_ > uint32_t(kMaxQueues))
    return bail(fail(Status::INVALID_VALUE, Layer::API,
                     "%u queues requested, the device has %u (driver max %d)", nq_, props_.num_queues,
                     kMaxQueues));
  if (!cq::is_pow2(opt_.sq_entries) || opt_.sq_entries > uint32_t(kMaxSqEntries) ||
      !cq::is_pow2(opt_.cq_entries) || opt_.cq_entries > 65536)
    return bail(fail(Status::INVALID_VALUE, Layer::API,
                     "ring sizes must be powers of two (sq %u <= %d, cq %u <= 65536)", opt_.sq_entries,
                     kMaxSqEntries, opt_.cq_entries));
  if (opt_.max_param_bytes % 8) opt_.max_param_bytes = align_up(opt_.max_param_bytes, 8);

  // Device memory: 0 is never handed out, so DevPtr 0 can mean "none". The
  // top of memory is the driver's own, the protected range (PROT_BASE/
  // PROT_SIZE): the rings, descriptors and parameter/window slots of every
  // queue pair and the module code, out of reach of every kernel. Context
  // data lives below it.
  const uint64_t mem_top = props_.mem_bytes / 256 * 256;
  uint64_t code_pool = opt_.code_pool_bytes ? opt_.code_pool_bytes : std::max<uint64_t>(mem_top / 8, 65536);
  code_pool = (code_pool + 255) / 256 * 256;
  uint64_t ring_bytes = 0;
  for (uint32_t q = 0; q < nq_; ++q)
    ring_bytes += align_up(opt_.sq_entries * cq::kDESC_BYTES, 256) +
                  align_up(opt_.cq_entries * cq::kCPL_BYTES, 256) +
                  align_up(opt_.sq_entries * slot_bytes(), 256);
  const uint64_t prot_bytes = ring_bytes + code_pool;
  if (prot_bytes + 512 > mem_top)
    return bail(fail(
        Status::OUT_OF_MEMORY, Layer::DEVICE,
        "the protected range (%llu bytes of rings, %llu of code pool) does not fit %u bytes of device memory",
        (unsigned long long)ring_bytes, (unsigned long long)code_pool, props_.mem_bytes));
  props_.protected_base = uint32_t(mem_top - prot_bytes);
  props_.protected_bytes = uint32_t(prot_bytes);
  alloc_.init(256, props_.protected_base - 256, 256);
  priv_.init(props_.protected_base, props_.protected_bytes, 256);
  for (uint32_t q = 0; q < nq_; ++q) {
    cq::QueuePairLayout lay;
    lay.queue = q;
    lay.sq_size = opt_.sq_entries;
    lay.cq_size = opt_.cq_entries;
    uint32_t slots = 0;
    if (!priv_.alloc(opt_.sq_entries * cq::kDESC_BYTES, kOwnerDriver, KIND_RING, true, &lay.sq_base) ||
        !priv_.alloc(opt_.cq_entries * cq::kCPL_BYTES, kOwnerDriver, KIND_RING, true, &lay.cq_base) ||
        !priv_.alloc(opt_.sq_entries * slot_bytes(), kOwnerDriver, KIND_RING, true, &slots))
      return bail(
          fail(Status::OUT_OF_MEMORY, Layer::DEVICE, "no device memory for the rings of queue %u", q));
    queues_[q].host.attach(&bus_, lay);
    queues_[q].slot_base = slots;
  }
  for (auto& x : ctxs_) x.used = false;
  for (auto& x : streams_) x.used = false;
  for (auto& x : events_) x.used = false;
  for (auto& x : modules_) x.used = false;
  for (auto& r : results_) r.token = 0;
  for (auto& p : frees_) p = PendingFree{};
  next_queue_ = 0;
  dev_faulted_ = false;
  stats_ = DriverStats{};
  if (!ok(st = program_device())) return bail(st);
  return succeed();
}

Status Device::close() {
  if (!transport_) return Status::OK;
  // Leave the device quiet: nothing of ours keeps running after we are gone.
  Status st = soft_reset_device();
  transport_ = nullptr;
  return st;
}

Status Device::soft_reset_device() {
  Status st = wr(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1));
  if (!ok(st)) return st;
  for (int i = 0; i < 1000; ++i) {
    uint32_t s = 0;
    if (!ok(st = rd(regs::STATUS, &s))) return st;
    if (!f::STATUS_RESETTING.get(s)) return Status::OK;
    if (!ok(transport_->delay(1000)))
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "delay failed while waiting for reset");
  }
  return fail(Status::DEVICE_ERROR, Layer::DEVICE, "STATUS.RESETTING did not clear within 1 ms");
}

Status Device::program_device() {
  Status st = wr(regs::WATCHDOG, opt_.watchdog);
  if (!ok(st)) return st;
  // The protected range first: nothing is fetched before ENABLE below.
  uint32_t pb = 0, ps = 0;
  if (!ok(st = wr(regs::PROT_BASE, props_.protected_base)) ||
      !ok(st = wr(regs::PROT_SIZE, props_.protected_bytes)) || !ok(st = rd(regs::PROT_BASE, &pb)) ||
      !ok(st = rd(regs::PROT_SIZE, &ps)))
    return st;
  if (pb != props_.protected_base || ps != props_.protected_bytes)
    return fail(
        Status::DEVICE_ERROR, Layer::DEVICE,
        "PROT_BASE/PROT_SIZE read back 0x%08x/%u after writing 0x%08x/%u: the device cannot protect the "
        "driver's rings and code from kernels",
        pb, ps, props_.protected_base, props_.protected_bytes);
  for (uint32_t q = 0; q < nq_; ++q)
    if (!queues_[q].host.program())
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "programming queue pair %u failed", q);
  uint32_t mask = 0;
  if (opt_.use_irq) mask = f::IRQ_MASK_CQ.put((1u << nq_) - 1) | f::IRQ_MASK_FAULT.put(1);
  if (!ok(st = wr(regs::IRQ_STATUS, 0xFFFFFFFFu)) || !ok(st = wr(regs::IRQ_MASK, mask)) ||
      !ok(st = wr(regs::CONTROL, f::CONTROL_ENABLE.put(1))))
    return st;
  for (uint32_t q = 0; q < nq_; ++q) {
    uint32_t qs = 0;
    if (!ok(st = rd(regs::qp(q, regs::QpReg::QSTATUS), &qs))) return st;
    if (f::QSTATUS_CONFIG_ERROR.get(qs))
      return fail(Status::DEVICE_ERROR, Layer::DEVICE, "queue pair %u rejects its ring configuration", q);
  }
  return Status::OK;
}

Status Device::read_counters(DeviceCounters* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  uint32_t lo = 0, hi = 0;
  Status st;
  if (!ok(st = rd(regs::CYCLES_LO, &lo)) || !ok(st = rd(regs::CYCLES_HI, &hi))) return st;
  out->cycles = uint64_t(hi) << 32 | lo;
  if (!ok(st = rd(regs::WARP_INSTRS_LO, &lo)) || !ok(st = rd(regs::WARP_INSTRS_HI, &hi))) return st;
  out->warp_instrs = uint64_t(hi) << 32 | lo;
  if (!ok(st = rd(regs::LAUNCHES, &out->launches)) || !ok(st = rd(regs::FAILED, &out->failed)) ||
      !ok(st = rd(regs::PROGRESS, &out->progress)))
    return st;
  return succeed();
}

// ---- contexts ----------------------------------------------------------------------------
Status Device::ctx_create(Context* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  const int ci = ctxs_.free_slot(), si = streams_.free_slot();
  if (ci < 0 || si < 0)
    return fail(Status::OUT_OF_RESOURCES, Layer::API, "%s table full", ci < 0 ? "context" : "stream");
  const uint32_t handle = ctxs_.create(ci);
  ctxs_[ci].default_stream = uint8_t(si);
  streams_.create(si);
  StreamRec& S = streams_[si];
  S.ctx = uint8_t(ci);
  S.queue = uint8_t(next_queue_++ % nq_);
  *out = Context{handle};
  return succeed();
}

Status Device::ctx_destroy(Context c) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  const int ci = ctxs_.index(C);
  // Let its work finish; if it cannot (the context failed, or the device is
  // stopped), reset so that nothing of it stays queued on the device.
  if (C->pending && C->sticky == Status::OK) wait_until([&] { return C->pending == 0; }, kWaitDefault, ci);
  if (C->pending || (dev_faulted_ && C->sticky != Status::OK)) {
    Status st = recover();
    if (!ok(st)) return st;
  }
  // Nothing of the context is queued any more: what it freed is released too.
  reclaim_frees();
  for (int i = alloc_.count() - 1; i >= 0; --i)
    if (alloc_.block(i).owner == uint16_t(ci + 1)) alloc_.free(alloc_.block(i).addr);
  for (int i = priv_.count() - 1; i >= 0; --i)
    if (priv_.block(i).owner == uint16_t(ci + 1)) priv_.free(priv_.block(i).addr);
  for (auto& m : modules_)
    if (m.used && m.ctx == ci) m.used = false;
  for (auto& s : streams_)
    if (s.used && s.ctx == ci) s.used = false;
  for (auto& e : events_)
    if (e.used && e.ctx == ci) e.used = false;
  C->used = false;
  return succeed();
}

Status Device::ctx_get_error(Context c) const {
  const ContextRec* C = ctx_rec(c);
  if (!C) return Status::INVALID_HANDLE;
  return C->sticky;
}

Status Device::ctx_last_failure(Context c, LaunchReport* out) const {
  const ContextRec* C = ctx_rec(c);
  if (!C) return Status::INVALID_HANDLE;
  if (!out) return Status::INVALID_VALUE;
  if (!C->has_failure) return Status::NOT_READY;
  *out = C->failure;
  return Status::OK;
}

Status Device::ctx_synchronize(Context c, uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  Status st = wait_until([&] { return C->pending == 0; }, timeout_ns, ctxs_.index(C));
  if (!ok(st)) return st;
  if (C->sticky != Status::OK)
    return fail(C->sticky, status_layer(C->sticky), "context error is sticky: %s", status_message(C->sticky));
  return succeed();
}

Status Device::ctx_default_stream(Context c, Stream* out) const {
  const ContextRec* C = ctx_rec(c);
  if (!C) return Status::INVALID_HANDLE;
  if (!out) return Status::INVALID_VALUE;
  *out = Stream{streams_.handle(C->default_stream)};
  return Status::OK;
}

// ---- launch -----------------------------------------------------------------------------------
Status Device::check_launch(Function fn, const LaunchConfig& cfg, const KernelRec** kout,
                            const ModuleRec** mout, uint32_t* regs_out, uint32_t* shared_out,
                            uint32_t* queue_out, int* stream_out) {
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
    return fail(Status::INVALID_VALUE, L, "%u windows, the device takes %u", cfg.num_windows, P.max_windows);
  if (cfg.num_windows && !cfg.windows)
    return fail(Status::INVALID_VALUE, L, "%u windows and a null window list", cfg.num_windows);
  for (uint32_t i = 0; i < cfg.num_windows; ++i) {
    Status st = check_window(M->ctx, i, cfg.windows[i]);
    if (!ok(st)) return st;
  }
  *kout = K;
  *mout = M;
  *regs_out = regs;
  *shared_out = uint32_t(shared);
  *queue_out = streams_[si].queue;
  *stream_out = si;
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
  for (int i = 0; i < alloc_.count(); ++i) {
    const Allocator::Block& b = alloc_.block(i);
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
  const KernelRec* K = nullptr;
  const ModuleRec* M = nullptr;
  uint32_t regs = 0, shared = 0, q = 0;
  int si = 0;
  Status st = check_launch(fn, cfg, &K, &M, &regs, &shared, &q, &si);
  if (!ok(st)) return st;
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
  const Layer L = Layer::LAUNCH_CONFIG;
  // The argument list must match the kernel's parameter table exactly.
  if (num_args != K->num_params)
    return fail(Status::INVALID_VALUE, L, "kernel %s takes %u parameters, %u given", K->name, K->num_params,
                num_args);
  if (num_args && !args) return fail(Status::INVALID_VALUE, L, "null argument list");
  uint8_t buf[4096];
  if (K->param_bytes > sizeof buf) return fail(Status::INVALID_VALUE, L, "parameter buffer too large");
  std::memset(buf, 0, K->param_bytes);
  uint32_t off = 0;
  for (uint32_t i = 0; i < num_args; ++i) {
    const ParamRec& p = K->params[i];
    if (args[i].size != p.size || !args[i].ptr)
      return fail(Status::INVALID_VALUE, L, "parameter %u of %s is %u bytes, argument has %u", i, K->name,
                  p.size, args[i].size);
    // Natural alignment: each parameter at the next multiple of its alignment.
    const uint32_t align = p.align ? p.align : 1;
    off = align_up(off, align);
    if (off != p.offset)
      return fail(Status::INVALID_VALUE, L,
                  "parameter %u of %s: natural alignment places it at %u, the module says %u", i, K->name,
                  off, p.offset);
    if (uint64_t(off) + p.size > K->param_bytes)
      return fail(Status::INVALID_VALUE, L, "parameter %u of %s overruns the %u-byte buffer", i, K->name,
                  K->param_bytes);
    std::memcpy(buf + off, args[i].ptr, p.size);
    off += p.size;
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

// ---- streams ----------------------------------------------------------------------------------
Status Device::stream_create(Context c, Stream* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  const int i = streams_.free_slot();
  if (i < 0) return fail(Status::OUT_OF_RESOURCES, Layer::API, "stream table full");
  const uint32_t handle = streams_.create(i);
  StreamRec& S = streams_[i];
  S.ctx = uint8_t(ctxs_.index(C));
  // Streams spread over the queue pairs so independent streams do not contend.
  S.queue = uint8_t(next_queue_++ % nq_);
  *out = Stream{handle};
  return succeed();
}

Status Device::stream_destroy(Stream s) {
  StreamRec* S = stream_rec(s);
  if (!S) return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream");
  if (streams_.index(S) == ctxs_[S->ctx].default_stream)
    return fail(Status::INVALID_HANDLE, Layer::API, "the default stream cannot be destroyed");
  // Work already queued still completes; its reports just no longer count for a stream.
  S->used = false;
  return succeed();
}

Status Device::stream_query(Stream s) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  StreamRec* S = stream_rec(s);
  if (!S) return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream");
  Status st = process_completions();
  if (!ok(st)) return st;
  if (ctxs_[S->ctx].sticky != Status::OK) return ctxs_[S->ctx].sticky;
  return S->pending ? Status::NOT_READY : Status::OK;
}

Status Device::stream_synchronize(Stream s, uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  StreamRec* S = stream_rec(s);
  if (!S) return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream");
  const int ci = S->ctx;
  Status st = wait_until([&] { return S->pending == 0; }, timeout_ns, ci);
  if (!ok(st)) return st;
  if (ctxs_[ci].sticky != Status::OK)
    return fail(ctxs_[ci].sticky, status_layer(ctxs_[ci].sticky), "context error is sticky: %s",
                status_message(ctxs_[ci].sticky));
  return succeed();
}

Status Device::stream_queue(Stream s, uint32_t* queue) const {
  const StreamRec* S = stream_rec(s);
  if (!S) return Status::INVALID_HANDLE;
  if (!queue) return Status::INVALID_VALUE;
  *queue = S->queue;
  return Status::OK;
}

// ---- events -----------------------------------------------------------------------------------
Status Device::event_create(Context c, Event* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  const int i = events_.free_slot();
  if (i < 0) return fail(Status::OUT_OF_RESOURCES, Layer::API, "event table full");
  const uint32_t handle = events_.create(i);
  events_[i].ctx = uint8_t(ctxs_.index(C));
  *out = Event{handle};
  return succeed();
}

Status Device::event_destroy(Event e) {
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  E->used = false;
  return succeed();
}

Status Device::event_record(Event e, Stream s) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  const int ci = E->ctx;
  int si = ctxs_[ci].default_stream;
  if (s.id) {
    const StreamRec* S = stream_rec(s);
    if (!S || S->ctx != ci)
      return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream for the event's context");
    si = streams_.index(S);
  }
  ContextRec& C = ctxs_[ci];
  if (C.sticky != Status::OK)
    return fail(C.sticky, status_layer(C.sticky), "context error is sticky: %s", status_message(C.sticky));
  Status st;
  if (dev_faulted_) {
    if (!ok(st = recover())) return st;
    if (C.sticky != Status::OK)
      return fail(C.sticky, status_layer(C.sticky), "context error is sticky: %s", status_message(C.sticky));
  }
  // A marker descriptor: it completes when the queue reaches it, carrying the time.
  cq::LaunchDescriptor d;
  d.flags = cq::kDESC_FLAG_MARKER;
  Inflight inf;
  inf.ctx = uint8_t(ci);
  inf.ctx_gen = C.gen;
  inf.stream = uint8_t(si);
  inf.stream_gen = streams_[si].gen;
  inf.event = uint8_t(events_.index(E));
  inf.event_gen = E->gen;
  inf.marker = true;
  inf.grid = Dim3{0, 0, 0};
  uint64_t token = 0;
  // Claim the event before submitting: the marker's completion may be
  // consumed while submit() waits for a free slot.
  E->state = EventRec::PENDING;
  E->token = next_token_;  // submit() gives the marker exactly this token
  st = submit(streams_[si].queue, d, inf, nullptr, 0, nullptr, 0, &token);
  if (!ok(st)) {
    E->state = EventRec::NONE;
    return st;
  }
  E->token = token;
  return succeed();
}

Status Device::event_query(Event e) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  Status st = process_completions();
  if (!ok(st)) return st;
  if (E->state == EventRec::NONE) return Status::OK;  // never recorded: complete, as in CUDA
  if (E->state == EventRec::PENDING) return Status::NOT_READY;
  return E->result;
}

Status Device::event_synchronize(Event e, uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  Status st = wait_until([&] { return E->state != EventRec::PENDING; }, timeout_ns, E->ctx);
  if (!ok(st)) return st;
  if (E->state == EventRec::DONE && E->result != Status::OK)
    return fail(E->result, status_layer(E->result), "the event's marker failed: %s",
                status_message(E->result));
  return succeed();
}

Status Device::event_timestamp(Event e, uint64_t* cycle) const {
  const EventRec* E = event_rec(e);
  if (!E) return Status::INVALID_HANDLE;
  if (!cycle) return Status::INVALID_VALUE;
  if (E->state != EventRec::DONE) return Status::NOT_READY;
  if (E->result != Status::OK) return E->result;
  *cycle = E->timestamp;
  return Status::OK;
}

Status Device::event_elapsed_ms(Event start, Event end, float* ms) const {
  const EventRec* A = event_rec(start);
  const EventRec* B = event_rec(end);
  if (!A || !B) return Status::INVALID_HANDLE;
  if (!ms) return Status::INVALID_VALUE;
  if (A->state != EventRec::DONE || B->state != EventRec::DONE) return Status::NOT_READY;
  if (A->result != Status::OK) return A->result;
  if (B->result != Status::OK) return B->result;
  if (A->epoch != B->epoch) return Status::INVALID_VALUE;  // a reset restarted the clock in between
  const double cycles = double(int64_t(B->timestamp - A->timestamp));
  *ms = float(cycles / double(props_.clock_khz));
  return Status::OK;
}

}  // namespace baresm::drv
