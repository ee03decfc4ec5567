// The host driver (driver.h): the device and its registers (open, close,
// reset, programming the rings), errors, handle lookups.
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
// Every field of DeviceOptions against its range (driver.h); the sizes that
// only fail together (the protected range) are checked in open.
Status Device::check_options() {
  const DeviceOptions& o = opt_;
  const uint32_t qmax = std::min<uint32_t>(props_.num_queues, kMaxQueues);
  if (o.queues > qmax)
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::queues is %u; it must be 0 (all) or 1..%u (the device has %u queue pairs, the "
                "driver holds %d)",
                o.queues, qmax, props_.num_queues, kMaxQueues);
  if (o.sq_entries != 0 && (!cq::is_pow2(o.sq_entries) || o.sq_entries > uint32_t(kMaxSqEntries)))
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::sq_entries is %u; it must be 0 (fit the device) or a power of two, 1..%d "
                "(kMaxSqEntries)",
                o.sq_entries, kMaxSqEntries);
  if (o.cq_entries != 0 && (!cq::is_pow2(o.cq_entries) || o.cq_entries > kMaxCqEntries))
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::cq_entries is %u; it must be 0 (fit the device) or a power of two, 1..%u "
                "(kMaxCqEntries, the device's ring limit)",
                o.cq_entries, kMaxCqEntries);
  if (o.max_param_bytes > isa::kMaxParamBytes)
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::max_param_bytes is %u; it must be 0..%u (isa::kMaxParamBytes, the most a "
                "kernel declares)",
                o.max_param_bytes, isa::kMaxParamBytes);
  if (o.sync_timeout_ns == 0)
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::sync_timeout_ns is 0; it must be at least 1 (0 would make every default wait a "
                "query that never waits)");
  if (o.hang_window_ns == 0 || o.hang_window_ns > o.sync_timeout_ns)
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::hang_window_ns is %llu; it must be 1..sync_timeout_ns (%llu)",
                (unsigned long long)o.hang_window_ns, (unsigned long long)o.sync_timeout_ns);
  if (o.poll_interval_ns == 0)
    return fail(Status::INVALID_VALUE, Layer::API,
                "DeviceOptions::poll_interval_ns is 0; it must be at least 1 (a polling wait of 0 ns lets no "
                "device time pass)");
  // code_pool_bytes: any (0 = the default); whether it fits is open's check.
  // use_irq: either. watchdog: the whole WATCHDOG register.
  return Status::OK;
}

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
  // A link and memory bring-up bitstream (rtl/fpga/baresm_icebreaker_link_top,
  // docs/fpga.md) answers registers and memory but has no SM and no queues.
  if (!props_.num_lanes && !props_.num_warps && !props_.num_queues)
    return bail(fail(Status::DEVICE_ERROR, Layer::DEVICE,
                     "the device has no SM and no queue pairs (CONFIG0, CONFIG1 read 0): a link and memory "
                     "bring-up build (docs/fpga.md), it runs no kernels"));
  if (!props_.num_lanes || !props_.num_warps || !props_.cta_slots || !props_.max_regs_per_thread ||
      !props_.num_queues || !props_.regfile_regs || !props_.mem_bytes || !props_.clock_khz)
    return bail(fail(Status::DEVICE_ERROR, Layer::DEVICE, "CONFIG registers report a zero resource"));

  // Options against their ranges and what the device has.
  if (!ok(st = check_options())) return bail(st);
  nq_ = opt_.queues ? opt_.queues : props_.num_queues;
  opt_.max_param_bytes = align_up(opt_.max_param_bytes, 8);  // <= isa::kMaxParamBytes: no wrap

  // Device memory: 0 is never handed out, so DevPtr 0 can mean "none". The
  // top of memory is the driver's own, the protected range (PROT_BASE/
  // PROT_SIZE): the rings, descriptors and parameter/window slots of every
  // queue pair and the module code, out of reach of every kernel. Context
  // data lives below it. Every size in 64 bits: no product wraps.
  const uint64_t mem_top = props_.mem_bytes / 256 * 256;
  uint64_t code_pool = opt_.code_pool_bytes
                           ? opt_.code_pool_bytes
                           : std::max<uint64_t>(mem_top / 8, std::min<uint64_t>(65536, mem_top / 4));
  code_pool = (code_pool + 255) / 256 * 256;
  auto a256 = [](uint64_t v) { return (v + 255) / 256 * 256; };
  const uint64_t slot = slot_bytes();
  auto prot_for = [&](uint64_t sq, uint64_t cq) {
    return uint64_t(nq_) * (a256(sq * cq::kDESC_BYTES) + a256(cq * cq::kCPL_BYTES) + a256(sq * slot)) + code_pool;
  };
  // Ring sizes left 0: 64 entries, halved while the protected range would
  // not fit (a small board's memory: the iCEBreaker's 64 KB).
  if (opt_.sq_entries == 0 || opt_.cq_entries == 0) {
    uint32_t n = 64;
    while (n > 1 && prot_for(opt_.sq_entries ? opt_.sq_entries : n, opt_.cq_entries ? opt_.cq_entries : n) + 512 >
                        mem_top)
      n /= 2;
    if (opt_.sq_entries == 0) opt_.sq_entries = n;
    if (opt_.cq_entries == 0) opt_.cq_entries = n;
  }
  const uint64_t prot_bytes = prot_for(opt_.sq_entries, opt_.cq_entries);
  if (prot_bytes + 512 > mem_top)
    return bail(fail(Status::OUT_OF_MEMORY, Layer::DEVICE,
                     "DeviceOptions do not fit: queues %u x (sq_entries %u x (max_param_bytes %u + %u) + "
                     "cq_entries %u x %u) + code_pool_bytes %u (%llu) = %llu > device memory %u - 512",
                     nq_, opt_.sq_entries, opt_.max_param_bytes, cq::kDESC_BYTES + kMaxLaunchWindows * cq::kWIN_BYTES,
                     opt_.cq_entries, cq::kCPL_BYTES, opt_.code_pool_bytes, (unsigned long long)code_pool,
                     (unsigned long long)prot_bytes, props_.mem_bytes));
  props_.protected_base = uint32_t(mem_top - prot_bytes);
  props_.protected_bytes = uint32_t(prot_bytes);
  alloc_.init(256, props_.protected_base - 256, 256);
  priv_.init(props_.protected_base, props_.protected_bytes, 256);
  for (uint32_t q = 0; q < nq_; ++q) {
    QueuePairLayout lay;
    lay.queue = q;
    lay.sq_size = opt_.sq_entries;
    lay.cq_size = opt_.cq_entries;
    uint32_t slots = 0;
    if (!priv_.alloc(opt_.sq_entries * cq::kDESC_BYTES, kOwnerDriver, KIND_RING, true, &lay.sq_base) ||
        !priv_.alloc(opt_.cq_entries * cq::kCPL_BYTES, kOwnerDriver, KIND_RING, true, &lay.cq_base) ||
        !priv_.alloc(opt_.sq_entries * slot_bytes(), kOwnerDriver, KIND_RING, true, &slots))
      return bail(
          fail(Status::OUT_OF_MEMORY, Layer::DEVICE, "no device memory for the rings of queue %u", q));
    queues_[q].host.attach(transport_, lay);
    queues_[q].slot_base = slots;
  }
  for (auto& x : ctxs_) x.used = false;
  for (auto& x : streams_) x.used = false;
  for (auto& x : events_) x.used = false;
  for (auto& x : modules_) x.used = false;
  for (auto& r : results_) r.token = 0;
  frees_.clear();
  pending_free_bytes_ = 0;
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

}  // namespace baresm::drv
