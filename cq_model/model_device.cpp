// The functional device model (model_device.h). The command processor is a
// small state machine stepped once per tick; the SM is the launch executor
// (launch_executor.h), by default iss::FunctionalModel running as a coroutine
// that pauses after every instrs_per_tick retired warp-instructions
// (iss_executor.h). Everything runs on the caller's thread, so the model is
// deterministic and the host may touch device memory freely between ticks.
#include "cq_model/model_device.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cq_model/iss_executor.h"
#include "contract/regs.h"

namespace baresm::cq {

namespace {

using regs::QpReg;
namespace f = regs::f;

ErrorCode error_for(iss::FaultKind k) {
  switch (k) {  // the fault table, contract/faults.def
#define BSM_FAULT(kind, err, status, addr, desc) \
  case iss::FaultKind::kind:               \
    return ErrorCode::err;
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return ErrorCode::INTERNAL;
}

uint32_t sat32(uint64_t v) {
  return v > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(v);
}

}  // namespace

// ---------------------------------------------------------------------------
struct ModelDevice::Impl {
  Impl(const ModelDeviceConfig& c, const ExecutorFactory& make_executor)
      : cfg(c),
        mem(c.mem_bytes),
        runner(make_executor ? make_executor(mem) : make_iss_executor(mem, iss::ModelConfig{c.stack_depth, 0, c.has_fpu})) {
    cfg.num_queues = std::clamp<uint32_t>(cfg.num_queues, 1, regs::MAX_QUEUES);
    cfg.completion_write_ticks = std::clamp<uint32_t>(cfg.completion_write_ticks, 1, 3);
    cfg.max_windows = std::min<uint32_t>(cfg.max_windows, 255);
    reset_state();
  }

  struct Queue {
    uint32_t sq_base = 0, sq_size = 0, sq_head = 0, sq_tail = 0;
    uint32_t cq_base = 0, cq_size = 0, cq_head = 0, cq_tail = 0;
    bool doorbell_error = false;
  };
  // HALTED: a completion entry could not be written (a memory error); only a
  // reset leaves it.
  enum class Engine { IDLE, RUNNING, WRITING, RESETTING, HALTED };

  ModelDeviceConfig cfg;
  iss::DeviceMemory mem;
  std::unique_ptr<LaunchExecutor> runner;
  Stats stats;
  uint64_t total_ticks = 0;

  // registers
  bool enable = false;
  uint32_t watchdog = 0, scratch = 0, irq_status = 0, irq_mask = 0;
  uint32_t prot_base = 0, prot_size = 0;  // PROT_BASE/PROT_SIZE, taken by each launch
  bool fault = false;
  uint32_t fault_info = 0, fault_pc = 0, fault_addr = 0, fault_cta = 0;
  uint64_t fault_token = 0;
  uint64_t cycles = 0, warp_instrs = 0;
  uint32_t cycles_hi_snap = 0, warp_instrs_hi_snap = 0;
  uint32_t launches = 0, failed = 0, progress = 0;
  Queue q[regs::MAX_QUEUES];

  // engine
  Engine engine = Engine::IDLE;
  uint32_t reset_left = 0;
  uint32_t rr = 0;        // next queue the arbiter looks at first
  uint32_t cur_q = 0;     // queue of the launch in flight
  CompletionEntry entry;  // the completion being built / written
  uint32_t write_step = 0;
  uint64_t launch_retired_seen = 0, launch_ctas_seen = 0;
  uint64_t hold_left = 0;  // ticks the launch still occupies the device (clocked executors)
  void reset_state() {
    enable = false;
    watchdog = scratch = irq_mask = 0;
    prot_base = prot_size = 0;
    irq_status = 0;  // RESET_DONE is set again when the reset finishes
    fault = false;
    fault_info = fault_pc = fault_addr = fault_cta = 0;
    fault_token = 0;
    cycles = warp_instrs = 0;
    cycles_hi_snap = warp_instrs_hi_snap = 0;
    launches = failed = progress = 0;
    for (auto& x : q) x = Queue{};
    engine = Engine::IDLE;
    rr = cur_q = 0;
    write_step = 0;
  }

  // ---- queue configuration ----
  bool ring_ok(uint32_t base, uint32_t size, uint32_t rec_bytes) const {
    return is_pow2(size) && size <= 65536 && base % 64 == 0 &&
           uint64_t(base) + uint64_t(size) * rec_bytes <= mem.size();
  }
  bool queue_off(const Queue& Q) const { return Q.sq_size == 0; }
  bool queue_valid(const Queue& Q) const {
    return ring_ok(Q.sq_base, Q.sq_size, kDESC_BYTES) && ring_ok(Q.cq_base, Q.cq_size, kCPL_BYTES);
  }
  bool cq_full(const Queue& Q) const { return ring_count(Q.cq_head, Q.cq_tail) >= Q.cq_size; }
  bool has_work(const Queue& Q) const { return queue_valid(Q) && Q.sq_head != Q.sq_tail; }
  bool active(uint32_t qi) const {
    return (engine == Engine::RUNNING || engine == Engine::WRITING) && cur_q == qi;
  }
  // Nothing submitted and unfetched, no launch in flight, no completion unconsumed.
  bool quiescent(uint32_t qi) const {
    const Queue& Q = q[qi];
    return Q.sq_head == Q.sq_tail && Q.cq_head == Q.cq_tail && !active(qi);
  }

  uint32_t status_reg() const {
    uint32_t s = 0;
    const bool resetting = engine == Engine::RESETTING;
    const bool busy = engine == Engine::RUNNING || engine == Engine::WRITING;
    bool pending = false;
    for (uint32_t i = 0; i < cfg.num_queues; ++i) pending |= has_work(q[i]);
    const bool idle = !resetting && !busy && (!pending || !enable || fault);
    s |= f::STATUS_IDLE.put(idle);
    s |= f::STATUS_BUSY.put(busy);
    s |= f::STATUS_FAULT.put(fault);
    s |= f::STATUS_RESETTING.put(resetting);
    s |= f::STATUS_ENABLED.put(enable);
    return s;
  }

  // ---- registers ----
  uint32_t read(uint32_t off) {
    if (off % 4 || off >= regs::REG_SPACE) return 0;
    if (off >= regs::QP_BASE && off < regs::QP_BASE + regs::MAX_QUEUES * regs::QP_STRIDE) {
      const uint32_t qi = (off - regs::QP_BASE) / regs::QP_STRIDE;
      if (qi >= cfg.num_queues) return 0;
      const Queue& Q = q[qi];
      switch (QpReg((off - regs::QP_BASE) % regs::QP_STRIDE)) {
        case QpReg::SQ_BASE:
          return Q.sq_base;
        case QpReg::SQ_SIZE:
          return Q.sq_size;
        case QpReg::SQ_HEAD:
          return Q.sq_head;
        case QpReg::SQ_TAIL:
          return Q.sq_tail;
        case QpReg::CQ_BASE:
          return Q.cq_base;
        case QpReg::CQ_SIZE:
          return Q.cq_size;
        case QpReg::CQ_HEAD:
          return Q.cq_head;
        case QpReg::CQ_TAIL:
          return Q.cq_tail;
        case QpReg::DOORBELL:
          return 0;
        case QpReg::QSTATUS:
          return f::QSTATUS_CONFIG_ERROR.put(!queue_off(Q) && !queue_valid(Q)) |
                 f::QSTATUS_DOORBELL_ERROR.put(Q.doorbell_error) |
                 f::QSTATUS_CQ_FULL.put(queue_valid(Q) && cq_full(Q)) |
                 f::QSTATUS_ACTIVE.put(active(qi));
      }
      return 0;
    }
    switch (off) {
      case regs::ID:
        return isa::kArchId;
      case regs::VERSION:
        return f::VERSION_MAJOR.put(regs::VERSION_MAJOR) | f::VERSION_MINOR.put(regs::VERSION_MINOR) |
               f::VERSION_RING.put(kDESC_VERSION);
      case regs::CONFIG0:
        return f::CONFIG0_NUM_LANES.put(cfg.num_lanes) | f::CONFIG0_NUM_WARPS.put(cfg.num_warps) |
               f::CONFIG0_CTA_SLOTS.put(cfg.cta_slots) | f::CONFIG0_NUM_BANKS.put(cfg.num_banks);
      case regs::CONFIG1:
        return f::CONFIG1_MAX_REGS.put(cfg.max_regs) | f::CONFIG1_STACK_DEPTH.put(cfg.stack_depth) |
               f::CONFIG1_NUM_QUEUES.put(cfg.num_queues) | f::CONFIG1_MAX_WINDOWS.put(cfg.max_windows);
      case regs::CONFIG2:
        return cfg.shared_bytes;
      case regs::CONFIG3:
        return cfg.regfile_regs;
      case regs::CONFIG4:
        return mem.size();
      case regs::CONFIG5:
        return cfg.clock_khz;
      case regs::CONFIG6:
        return f::CONFIG6_HAS_FPU.put(cfg.has_fpu);
      case regs::CONTROL:
        return f::CONTROL_ENABLE.put(enable);
      case regs::STATUS:
        return status_reg();
      case regs::WATCHDOG:
        return watchdog;
      case regs::SCRATCH:
        return scratch;
      case regs::PROT_BASE:
        return prot_base;
      case regs::PROT_SIZE:
        return prot_size;
      case regs::IRQ_STATUS:
        return irq_status;
      case regs::IRQ_MASK:
        return irq_mask;
      case regs::FAULT_INFO:
        return fault_info;
      case regs::FAULT_PC:
        return fault_pc;
      case regs::FAULT_ADDR:
        return fault_addr;
      case regs::FAULT_CTA:
        return fault_cta;
      case regs::FAULT_TOKEN_LO:
        return uint32_t(fault_token);
      case regs::FAULT_TOKEN_HI:
        return uint32_t(fault_token >> 32);
      case regs::CYCLES_LO:
        cycles_hi_snap = uint32_t(cycles >> 32);
        return uint32_t(cycles);
      case regs::CYCLES_HI:
        return cycles_hi_snap;
      case regs::LAUNCHES:
        return launches;
      case regs::FAILED:
        return failed;
      case regs::WARP_INSTRS_LO:
        warp_instrs_hi_snap = uint32_t(warp_instrs >> 32);
        return uint32_t(warp_instrs);
      case regs::WARP_INSTRS_HI:
        return warp_instrs_hi_snap;
      case regs::PROGRESS:
        return progress;
      default:
        return 0;
    }
  }

  void queue_error(Queue& Q) {
    Q.doorbell_error = true;
    irq_status |= f::IRQ_STATUS_QUEUE_ERROR.put(1);
  }

  void write(uint32_t off, uint32_t v) {
    if (off % 4 || off >= regs::REG_SPACE) return;
    if (off == regs::CONTROL && f::CONTROL_SOFT_RESET.get(v)) {
      soft_reset();
      return;
    }
    if (engine == Engine::RESETTING) return;  // registers are not usable while resetting
    if (off >= regs::QP_BASE && off < regs::QP_BASE + regs::MAX_QUEUES * regs::QP_STRIDE) {
      const uint32_t qi = (off - regs::QP_BASE) / regs::QP_STRIDE;
      if (qi >= cfg.num_queues) return;
      Queue& Q = q[qi];
      const QpReg r = QpReg((off - regs::QP_BASE) % regs::QP_STRIDE);
      if ((r == QpReg::SQ_BASE || r == QpReg::SQ_SIZE || r == QpReg::CQ_BASE || r == QpReg::CQ_SIZE) &&
          !quiescent(qi)) {
        queue_error(Q);  // the ring registers of a queue pair in use are fixed
        return;
      }
      switch (r) {
        case QpReg::SQ_BASE:
          Q.sq_base = v;
          break;
        case QpReg::SQ_SIZE:
          Q.sq_size = v;
          break;
        case QpReg::CQ_BASE:
          Q.cq_base = v;
          break;
        case QpReg::CQ_SIZE:
          Q.cq_size = v;
          break;
        case QpReg::CQ_HEAD:
          // The head may only move forward, and never past the tail.
          if (ring_count(Q.cq_head, v) <= ring_count(Q.cq_head, Q.cq_tail))
            Q.cq_head = v;
          else
            queue_error(Q);
          break;
        case QpReg::DOORBELL:
          if (queue_off(Q) || !queue_valid(Q))
            queue_error(Q);
          else if (ring_count(Q.sq_head, v) > Q.sq_size || ring_count(Q.sq_tail, v) > Q.sq_size)
            queue_error(Q);
          else
            Q.sq_tail = v;
          break;
        default:
          break;  // read-only
      }
      return;
    }
    switch (off) {
      case regs::CONTROL:
        enable = f::CONTROL_ENABLE.get(v);
        break;
      case regs::WATCHDOG:
        watchdog = v;
        break;
      case regs::SCRATCH:
        scratch = v;
        break;
      case regs::PROT_BASE:
        prot_base = v;
        break;
      case regs::PROT_SIZE:
        prot_size = v;
        break;
      case regs::IRQ_STATUS:
        irq_status &= ~v;
        break;
      case regs::IRQ_MASK:
        irq_mask = v & (f::IRQ_MASK_CQ.mask() | f::IRQ_MASK_FAULT.mask() | f::IRQ_MASK_RESET_DONE.mask() |
                        f::IRQ_MASK_QUEUE_ERROR.mask());
        break;
      default:
        break;
    }
  }

  void soft_reset() {
    if (engine == Engine::RUNNING) ++stats.aborted;
    runner->abort();
    ++stats.resets;
    reset_state();
    engine = Engine::RESETTING;
    reset_left = std::max<uint32_t>(cfg.reset_ticks, 1);
  }

  // The reset pin: everything at once, as at power-on (memory is kept).
  void pin_reset() {
    if (engine == Engine::RUNNING) ++stats.aborted;
    runner->abort();
    ++stats.resets;
    reset_state();
    engine = Engine::IDLE;
  }

  // ---- the command processor ----
  void tick() {
    ++total_ticks;
    ++stats.ticks;
    ++cycles;
    switch (engine) {
      case Engine::RESETTING:
        if (--reset_left == 0) {
          engine = Engine::IDLE;
          irq_status |= f::IRQ_STATUS_RESET_DONE.put(1);
        }
        return;
      case Engine::IDLE:
        try_fetch();
        return;
      case Engine::RUNNING:
        run_slice();
        return;
      case Engine::WRITING:
        write_completion();
        return;
      case Engine::HALTED:
        return;
    }
  }

  void try_fetch() {
    if (!enable || fault) return;
    bool blocked = false;
    for (uint32_t i = 0; i < cfg.num_queues; ++i) {
      const uint32_t qi = (rr + i) % cfg.num_queues;
      Queue& Q = q[qi];
      if (!has_work(Q)) continue;
      // The completion slot is reserved before fetching, so a finished launch
      // never waits: a queue whose completion ring is full is not served.
      if (cq_full(Q)) {
        blocked = true;
        continue;
      }
      rr = (qi + 1) % cfg.num_queues;
      fetch(qi);
      return;
    }
    if (blocked) ++stats.cq_full_ticks;
  }

  void fetch(uint32_t qi) {
    Queue& Q = q[qi];
    uint8_t bytes[kDESC_BYTES];
    const uint32_t desc_addr = Q.sq_base + ring_slot(Q.sq_head, Q.sq_size) * kDESC_BYTES;
    // An unreadable descriptor reads as zeros, as on the device.
    const bool unreadable = mem.poison().hit(desc_addr, kDESC_BYTES);
    if (unreadable) std::memset(bytes, 0, sizeof bytes);
    else mem.read(desc_addr, bytes, kDESC_BYTES);
    const uint32_t seq = Q.sq_head++;
    ++progress;
    ++stats.fetched;
    const LaunchDescriptor d = decode_descriptor(bytes);
    cur_q = qi;
    entry = CompletionEntry{};
    entry.token = d.token;
    entry.seq = seq;
    entry.start_cycle = entry.end_cycle = cycles;

    iss::LaunchParams p;
    uint32_t ring_error_addr = 0;
    const DescCheck chk = unreadable ? DescCheck::NONE : check(d, &p, &ring_error_addr);
    if (unreadable || ring_error_addr) {
      entry.status = uint8_t(CplStatus::FAILED);
      entry.error = uint8_t(ErrorCode::RING_ERROR);
      entry.fault_addr = unreadable ? iss::PoisonMap::line_of(desc_addr) : ring_error_addr;
      begin_write();
      return;
    }
    if (chk != DescCheck::NONE) {
      ++stats.bad_descriptors;
      entry.status = uint8_t(CplStatus::FAILED);
      entry.error = uint8_t(ErrorCode::BAD_DESCRIPTOR);
      entry.fault_addr = uint32_t(chk);
      begin_write();
      return;
    }
    if (d.is_marker()) {
      entry.status = uint8_t(CplStatus::COMPLETED);
      begin_write();
      return;
    }
    grid_x = d.grid_x;
    grid_y = d.grid_y;
    runner->start(p);
    hold_left = 0;
    ++stats.launches_run;
    launch_retired_seen = launch_ctas_seen = 0;
    engine = Engine::RUNNING;
  }

  // The device's own checks, in the order of the DCHK table. Fills *p. A
  // window-table line that cannot be read sets *ring_error_addr to it (the
  // entries before it were checked).
  DescCheck check(const LaunchDescriptor& d, iss::LaunchParams* p, uint32_t* ring_error_addr) const {
    if (d.magic != kDESC_MAGIC) return DescCheck::MAGIC;
    if (d.version != kDESC_VERSION) return DescCheck::VERSION;
    if ((d.flags & ~kDESC_FLAGS_KNOWN) || d.reserved) return DescCheck::FLAGS;
    if (d.is_marker()) return DescCheck::NONE;
    if (!d.grid_x || !d.grid_y || !d.grid_z || !d.block_x || !d.block_y || !d.block_z ||
        d.grid_x > 0x7FFFFFFFu || uint64_t(d.grid_x) * d.grid_y * d.grid_z > 0xFFFFFFFFull)
      return DescCheck::DIMS;
    const uint64_t threads = uint64_t(d.block_x) * d.block_y * d.block_z;
    if (threads > std::min<uint64_t>(1024, uint64_t(cfg.num_warps) * 32)) return DescCheck::BLOCK_SIZE;
    if (d.regs == 0 || d.regs > cfg.max_regs || d.regs > uint32_t(isa::kMaxRegsPerThread))
      return DescCheck::REGS;
    if (d.shared_bytes > cfg.shared_bytes) return DescCheck::SHARED;
    const uint64_t warps = (threads + 31) / 32;
    if (warps * 32 * d.regs > cfg.regfile_regs) return DescCheck::RESOURCES;
    const uint64_t msize = mem.size();
    if (d.code_size == 0 || d.code_size % 8 || d.code_base % 8 || uint64_t(d.code_base) + d.code_size > msize)
      return DescCheck::CODE_RANGE;
    if (d.entry_pc % 8 || d.entry_pc < d.code_base ||
        uint64_t(d.entry_pc) >= uint64_t(d.code_base) + d.code_size)
      return DescCheck::ENTRY_PC;
    if (uint64_t(d.param_addr) + d.param_size > msize) return DescCheck::PARAM_RANGE;
    if (d.window_count > cfg.max_windows) return DescCheck::WINDOW_COUNT;
    if (d.window_count &&
        (d.window_table % 8 || uint64_t(d.window_table) + uint64_t(d.window_count) * kWIN_BYTES > msize))
      return DescCheck::WINDOW_TABLE;
    p->windows.clear();
    for (uint32_t i = 0; i < d.window_count; ++i) {
      uint8_t wb[kWIN_BYTES];
      if (mem.poison().hit(d.window_table + i * kWIN_BYTES, kWIN_BYTES)) {
        *ring_error_addr = iss::PoisonMap::line_of(d.window_table + i * kWIN_BYTES);
        return DescCheck::NONE;
      }
      mem.read(d.window_table + i * kWIN_BYTES, wb, kWIN_BYTES);
      const WindowEntry w = decode_window(wb);
      if (uint64_t(w.base) + w.size > msize) return DescCheck::WINDOW_RANGE;
      if (w.size) p->windows.push_back(iss::Window{w.base, w.size});
    }
    p->protect = iss::Window{prot_base, prot_size};
    p->entry_pc = d.entry_pc;
    p->code_base = d.code_base;
    p->code_size = d.code_size;
    p->grid = iss::Dim3{d.grid_x, d.grid_y, d.grid_z};
    p->block = iss::Dim3{d.block_x, d.block_y, d.block_z};
    p->param_addr = d.param_addr;
    p->param_size = d.param_size;
    p->regs_per_thread = d.regs;
    p->shared_bytes = d.shared_bytes;
    p->instr_budget = d.watchdog ? d.watchdog : watchdog;
    p->smid = 0;
    return DescCheck::NONE;
  }

  void run_slice() {
    // A clocked executor has ended the launch already: the device stays busy
    // for the rest of the SM's cycles.
    if (hold_left) {
      if (--hold_left) return;
      finish_launch();
      return;
    }
    const bool done = runner->step(cfg.instrs_per_tick);
    // Account what the slice retired.
    const uint64_t r = runner->retired();
    warp_instrs += r - launch_retired_seen;
    launch_retired_seen = r;
    const uint64_t c = runner->cta_switches();
    progress += uint32_t(c - launch_ctas_seen);
    launch_ctas_seen = c;
    if (!done) return;
    const LaunchOutcome& out = runner->outcome();
    const uint64_t elapsed = cycles - entry.start_cycle;
    if (out.clocked && out.sm_cycles > elapsed) {
      hold_left = out.sm_cycles - elapsed;
      return;
    }
    finish_launch();
  }

  void finish_launch() {
    const LaunchOutcome& out = runner->outcome();
    const iss::LaunchResult& res = out.result;
    entry.end_cycle = cycles;
    entry.warp_instrs = sat32(res.stats.warp_instrs);
    entry.shared_passes = sat32(out.shared_passes);
    // The second line: what the executor counts. The ISS has no pipeline, so
    // no stalls, warp states, line requests or instruction fills (0,
    // docs/ring-formats.md), and its SM cycles are the device's end - start.
    entry.thread_instrs = sat32(res.stats.thread_instrs);
    entry.div_branches = sat32(res.stats.divergent_branches);
    entry.bar_releases = sat32(res.stats.barriers);
    entry.sm_cycles = sat32(out.clocked ? out.sm_cycles : entry.end_cycle - entry.start_cycle);
    entry.stall_cycles = sat32(out.stall_cycles);
    entry.gmem_requests = sat32(out.gmem_requests);
    entry.ifetch_fills = sat32(out.ifetch_fills);
    for (int i = 0; i < CompletionEntry::kWarpStates; ++i)
      entry.set_warp_state_cycles(i, sat32(out.warp_state_cycles[size_t(i)]));
    if (out.internal_error || res.launch_error) {
      entry.status = uint8_t(CplStatus::FAILED);
      entry.error = uint8_t(ErrorCode::INTERNAL);
      entry.ctas_done = 0;
    } else if (!res.fault.ok()) {
      const iss::FaultInfo& fi = res.fault;
      entry.status = uint8_t(CplStatus::FAILED);
      entry.error = uint8_t(error_for(fi.kind));
      entry.fault_pc = fi.pc;
      // A barrier deadlock names the warps that wait where an address would be.
      entry.fault_addr =
          fi.kind == iss::FaultKind::BARRIER_DEADLOCK ? uint32_t(fi.waiting_warps) : fi.addr;
      entry.fault_warp = uint8_t(fi.warp);
      entry.fault_lane = uint8_t(fi.lane);
      entry.fault_cta =
          uint32_t(fi.cta.x + uint64_t(fi.cta.y) * grid_x + uint64_t(fi.cta.z) * grid_x * grid_y);
      // The ISS runs CTAs in order: the ones before it finished. The SM counts its own.
      entry.ctas_done = out.clocked ? sat32(res.stats.ctas) : entry.fault_cta;
    } else {
      entry.status = uint8_t(CplStatus::COMPLETED);
      entry.ctas_done = sat32(res.stats.ctas);
      ++progress;  // the last CTA retired
    }
    begin_write();
  }

  void begin_write() {
    entry.phase = (expected_phase(q[cur_q].cq_tail, q[cur_q].cq_size) ? 1u : 0u) | (cur_q << kCPL_QUEUE_LSB);
    write_step = 0;
    engine = Engine::WRITING;
  }

  // Writes the entry in completion_write_ticks pieces; the phase word last.
  void write_completion() {
    Queue& Q = q[cur_q];
    const uint32_t addr = Q.cq_base + ring_slot(Q.cq_tail, Q.cq_size) * kCPL_BYTES;
    uint8_t bytes[kCPL_BYTES];
    encode(entry, bytes);
    if (mem.poison().hit(addr, kCPL_BYTES)) {
      // The entry cannot be written: FAULT_* names the launch, and the device
      // stops until reset (the host cannot be told through the ring).
      ++failed;
      ++progress;
      fault = true;
      fault_info = f::FAULT_INFO_ERROR.put(uint32_t(ErrorCode::RING_ERROR)) | f::FAULT_INFO_QUEUE.put(cur_q);
      fault_pc = 0;
      fault_addr = iss::PoisonMap::line_of(addr);
      fault_cta = 0;
      fault_token = entry.token;
      irq_status |= f::IRQ_STATUS_FAULT.put(1);
      engine = Engine::HALTED;
      return;
    }
    const uint32_t pieces = cfg.completion_write_ticks;
    const uint32_t body = offsetof(CompletionEntry, phase);
    // Piece boundaries over the 60 body bytes, then the phase word.
    if (pieces == 1) {
      mem.write(addr, bytes, body);
    } else if (pieces == 2) {
      if (write_step == 0) mem.write(addr, bytes, body);
    } else {
      if (write_step == 0) mem.write(addr, bytes, 32);
      if (write_step == 1) mem.write(addr + 32, bytes + 32, body - 32);
    }
    if (++write_step < pieces) return;
    mem.write(addr + body, bytes + body, 4);  // the phase word: the entry becomes valid

    ++Q.cq_tail;
    ++launches;
    ++progress;
    ++stats.completions;
    irq_status |= f::IRQ_STATUS_CQ.put(1u << cur_q);
    const ErrorCode err = ErrorCode(entry.error);
    if (entry.status == uint8_t(CplStatus::FAILED)) {
      ++failed;
      if (err != ErrorCode::BAD_DESCRIPTOR) {
        fault = true;
        fault_info = f::FAULT_INFO_ERROR.put(entry.error) | f::FAULT_INFO_QUEUE.put(cur_q) |
                     f::FAULT_INFO_WARP.put(entry.fault_warp) | f::FAULT_INFO_LANE.put(entry.fault_lane);
        fault_pc = entry.fault_pc;
        fault_addr = entry.fault_addr;
        fault_cta = entry.fault_cta;
        fault_token = entry.token;
        irq_status |= f::IRQ_STATUS_FAULT.put(1);
      }
    }
    engine = Engine::IDLE;
  }

  uint32_t grid_x = 1, grid_y = 1;
};

// ---------------------------------------------------------------------------
ModelDevice::ModelDevice(const ModelDeviceConfig& cfg, const ExecutorFactory& make_executor)
    : impl_(new Impl(cfg, make_executor)) {}
ModelDevice::~ModelDevice() = default;

uint32_t ModelDevice::reg_read(uint32_t offset) {
  return impl_->read(offset);
}
void ModelDevice::reg_write(uint32_t offset, uint32_t value) {
  impl_->write(offset, value);
}

bool ModelDevice::mem_read(uint32_t addr, void* dst, uint32_t len) const {
  if (!impl_->mem.contains(addr, len)) return false;
  impl_->mem.read(addr, dst, len);
  return true;
}
bool ModelDevice::mem_write(uint32_t addr, const void* src, uint32_t len) {
  if (!impl_->mem.contains(addr, len)) return false;
  impl_->mem.write(addr, src, len);
  return true;
}

bool ModelDevice::irq_line() const {
  return (impl_->irq_status & impl_->irq_mask) != 0;
}

void ModelDevice::pin_reset() {
  impl_->pin_reset();
}

void ModelDevice::tick(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) impl_->tick();
}

uint64_t ModelDevice::tick_until_irq(uint64_t n) {
  uint64_t i = 0;
  while (i < n && !irq_line()) {
    impl_->tick();
    ++i;
  }
  return i;
}

uint64_t ModelDevice::cycles() const {
  return impl_->total_ticks;
}
const ModelDeviceConfig& ModelDevice::config() const {
  return impl_->cfg;
}
iss::DeviceMemory& ModelDevice::memory() {
  return impl_->mem;
}
LaunchExecutor& ModelDevice::executor() {
  return *impl_->runner;
}
const ModelDevice::Stats& ModelDevice::stats() const {
  return impl_->stats;
}

}  // namespace baresm::cq
