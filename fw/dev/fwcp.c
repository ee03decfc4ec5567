/* The command processor as firmware (docs/command-processor.md, "The whole
   device as one program"): the same control core that runs the SM's control
   (fw/sm/fwsm.c) answers the host's register accesses, fetches descriptors
   from the submission rings, checks them, runs the launch on the SM, and
   writes the completion entry. The functional device model
   (cq_model/model_device.cpp) is the specification: the same registers,
   checks in the same order, the same completion entries. The contract tables
   are read here as X-macros: contract/regmap.def, contract/rings.def,
   contract/faults.def, contract/sm_report.def.

   The host's register accesses come from the host link's frames
   (fw/dev/link.c, link_reg). The launch runs inside fwsm_run, which calls
   hal_service between warp-instructions: that is where the link is served
   while a kernel runs, and where a soft reset aborts it. */
#include "fw/dev/fwdev_hal.h"
#include "fw/dev/link.h"
#include "fw/sm/fwsm_hal.h"

/* The board's device (rtl/configs.txt `serial`, one queue pair). */
#define NUM_LANES 1
#define NUM_WARPS 4
#define CTA_SLOTS 1
#define NUM_BANKS 4
#define MAX_REGS 16
#define STACK_DEPTH 4
#define NUM_QUEUES 1
#define MAX_WINDOWS 4
#define SHARED_BYTES 2048
#define REGFILE_REGS (NUM_WARPS * MAX_REGS * 32)
#define HAS_FPU 1 /* in firmware (fw/sm/fwsm_fpu.cpp) */
#define MAX_REGS_PER_THREAD 63 /* isa::kMaxRegsPerThread */

/* ---- the contract tables ---------------------------------------------------- */
#define HWPARAM 0
enum {
#define BSM_CONST(name, v, d) C_##name = (v),
#define BSM_REG(name, off, acc, reset, d) R_##name = (off), RST_##name = (int)(reset),
#define BSM_QREG(name, off, acc, reset, d) Q_##name = (off),
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, d) F_##reg##_##name##_LSB = (lsb), F_##reg##_##name##_W = (msb) - (lsb) + 1,
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};
#define PUT(reg, f, v) (((uint32_t)(v) & (0xFFFFFFFFu >> (32 - F_##reg##_##f##_W))) << F_##reg##_##f##_LSB)
#define GET(reg, f, v) (((uint32_t)(v) >> F_##reg##_##f##_LSB) & (0xFFFFFFFFu >> (32 - F_##reg##_##f##_W)))

enum {
#define RING_FIELD(rec, name, type, off, d) rec##_##name = (off),
#define RING_CONST(name, v, d) RC_##name = (v),
#define RING_ENUM(group, name, v, d) group##_##name = (v),
#include "contract/rings.def"
#undef RING_FIELD
#undef RING_CONST
#undef RING_ENUM
};

/* The SM's fault kind (iss::FaultKind) -> the completion's error code. */
static const uint8_t fault_error[] = {
#define BSM_FAULT(kind, err, cuda, field, d) ERR_##err,
#define BSM_ERR_STATUS(err, cuda)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};
enum {
#define BSM_FAULT(kind, err, cuda, field, d) FK_##kind,
#define BSM_ERR_STATUS(err, cuda)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};


/* ---- state --------------------------------------------------------------------- */
typedef struct {
  uint32_t sq_base, sq_size, sq_head, sq_tail;
  uint32_t cq_base, cq_size, cq_head, cq_tail;
  uint32_t doorbell_error, pad[7]; /* 64 bytes: a power-of-two stride (rv32i has no multiplier) */
} queue_t;

enum { E_IDLE, E_RUNNING, E_HALTED };

static uint32_t enable, watchdog, scratch, irq_status, irq_mask, prot_base, prot_size;
static uint32_t fault, fault_info, fault_pc, fault_addr, fault_cta;
static uint64_t fault_token, warp_instrs;
static uint32_t cycles_hi_snap, warp_instrs_hi_snap, launches, failed, progress;
static queue_t q[NUM_QUEUES];
static uint32_t engine, rr, cur_q;
static uint32_t mem_bytes;
static uint32_t reset_requested;
static uint64_t launch_start, launch_budget, launch_link_cycles;

/* The completion entry being built, as words. */
static uint32_t cpl[RC_CPL_BYTES / 4];

static void reset_state(void) {
  uint32_t i, k;
  enable = watchdog = scratch = irq_mask = prot_base = prot_size = 0;
  irq_status = 0;
  fault = fault_info = fault_pc = fault_addr = fault_cta = 0;
  fault_token = warp_instrs = 0;
  cycles_hi_snap = warp_instrs_hi_snap = launches = failed = progress = 0;
  for (i = 0; i < NUM_QUEUES; i++)
    for (k = 0; k < sizeof(queue_t) / 4; k++) ((uint32_t*)&q[i])[k] = 0;
  engine = E_IDLE;
  rr = cur_q = 0;
}

/* ---- queues ------------------------------------------------------------------------ */
static uint32_t is_pow2(uint32_t v) { return v && !(v & (v - 1)); }
static uint32_t ring_ok(uint32_t base, uint32_t size, uint32_t rec_shift) {
  return is_pow2(size) && size <= 65536 && (base & 63u) == 0 &&
         (uint64_t)base + ((uint64_t)size << rec_shift) <= mem_bytes;
}
#define DESC_SHIFT 6 /* 64-byte descriptors */
#define CPL_SHIFT 7  /* 128-byte completion entries */
static uint32_t queue_off(const queue_t* Q) { return Q->sq_size == 0; }
static uint32_t queue_valid(const queue_t* Q) {
  return ring_ok(Q->sq_base, Q->sq_size, DESC_SHIFT) && ring_ok(Q->cq_base, Q->cq_size, CPL_SHIFT);
}
static uint32_t cq_full(const queue_t* Q) { return Q->cq_tail - Q->cq_head >= Q->cq_size; }
static uint32_t has_work(const queue_t* Q) { return Q->sq_head != Q->sq_tail && queue_valid(Q); }
static uint32_t active(uint32_t qi) { return engine == E_RUNNING && cur_q == qi; }
static uint32_t quiescent(uint32_t qi) {
  return q[qi].sq_head == q[qi].sq_tail && q[qi].cq_head == q[qi].cq_tail && !active(qi);
}

static uint32_t status_reg(void) {
  uint32_t i, pending = 0;
  const uint32_t busy = engine == E_RUNNING;
  for (i = 0; i < NUM_QUEUES; i++) pending |= has_work(&q[i]);
  return PUT(STATUS, IDLE, !busy && (!pending || !enable || fault)) | PUT(STATUS, BUSY, busy) |
         PUT(STATUS, FAULT, fault) | PUT(STATUS, ENABLED, enable);
}

static void outputs(void) {
  link_irq((irq_status & irq_mask) != 0);
  hal_status(status_reg());
}

/* WARP_INSTRS and PROGRESS count live: the running launch's share is the SM's count so far. */
static uint64_t warp_instrs_now(void) { return warp_instrs + (engine == E_RUNNING ? fwsm_counts.warp_instrs : 0); }
static uint32_t progress_now(void) {
  return progress + (engine == E_RUNNING ? (uint32_t)fwsm_counts.ctas_done : 0);
}

/* ---- registers ----------------------------------------------------------------------- */
static uint32_t reg_read(uint32_t off) {
  if (off >= C_QP_BASE && off < C_QP_BASE + C_MAX_QUEUES * C_QP_STRIDE) {
    const uint32_t qi = (off - C_QP_BASE) / C_QP_STRIDE;
    const queue_t* Q;
    if (qi >= NUM_QUEUES) return 0;
    Q = &q[qi];
    switch ((off - C_QP_BASE) % C_QP_STRIDE) {
      case Q_SQ_BASE: return Q->sq_base;
      case Q_SQ_SIZE: return Q->sq_size;
      case Q_SQ_HEAD: return Q->sq_head;
      case Q_SQ_TAIL: return Q->sq_tail;
      case Q_CQ_BASE: return Q->cq_base;
      case Q_CQ_SIZE: return Q->cq_size;
      case Q_CQ_HEAD: return Q->cq_head;
      case Q_CQ_TAIL: return Q->cq_tail;
      case Q_QSTATUS:
        return PUT(QSTATUS, CONFIG_ERROR, !queue_off(Q) && !queue_valid(Q)) |
               PUT(QSTATUS, DOORBELL_ERROR, Q->doorbell_error) |
               PUT(QSTATUS, CQ_FULL, queue_valid(Q) && cq_full(Q)) | PUT(QSTATUS, ACTIVE, active(qi));
      default: return 0;
    }
  }
  switch (off) {
    case R_ID: return RST_ID;
    case R_VERSION: return RST_VERSION;
    case R_CONFIG0:
      return PUT(CONFIG0, NUM_LANES, NUM_LANES) | PUT(CONFIG0, NUM_WARPS, NUM_WARPS) |
             PUT(CONFIG0, CTA_SLOTS, CTA_SLOTS) | PUT(CONFIG0, NUM_BANKS, NUM_BANKS);
    case R_CONFIG1:
      return PUT(CONFIG1, MAX_REGS, MAX_REGS) | PUT(CONFIG1, STACK_DEPTH, STACK_DEPTH) |
             PUT(CONFIG1, NUM_QUEUES, NUM_QUEUES) | PUT(CONFIG1, MAX_WINDOWS, MAX_WINDOWS);
    case R_CONFIG2: return SHARED_BYTES;
    case R_CONFIG3: return REGFILE_REGS;
    case R_CONFIG4: return mem_bytes;
    case R_CONFIG5: return hal_clock_khz();
    case R_CONFIG6: return PUT(CONFIG6, HAS_FPU, HAS_FPU);
    case R_CONTROL: return PUT(CONTROL, ENABLE, enable);
    case R_STATUS: return status_reg();
    case R_WATCHDOG: return watchdog;
    case R_SCRATCH: return scratch;
    case R_PROT_BASE: return prot_base;
    case R_PROT_SIZE: return prot_size;
    case R_IRQ_STATUS: return irq_status;
    case R_IRQ_MASK: return irq_mask;
    case R_FAULT_INFO: return fault_info;
    case R_FAULT_PC: return fault_pc;
    case R_FAULT_ADDR: return fault_addr;
    case R_FAULT_CTA: return fault_cta;
    case R_FAULT_TOKEN_LO: return (uint32_t)fault_token;
    case R_FAULT_TOKEN_HI: return (uint32_t)(fault_token >> 32);
    case R_CYCLES_LO: {
      const uint64_t c = hal_cycles();
      cycles_hi_snap = (uint32_t)(c >> 32);
      return (uint32_t)c;
    }
    case R_CYCLES_HI: return cycles_hi_snap;
    case R_LAUNCHES: return launches;
    case R_FAILED: return failed;
    case R_WARP_INSTRS_LO: {
      const uint64_t w = warp_instrs_now();
      warp_instrs_hi_snap = (uint32_t)(w >> 32);
      return (uint32_t)w;
    }
    case R_WARP_INSTRS_HI: return warp_instrs_hi_snap;
    case R_PROGRESS: return progress_now();
    default: return 0;
  }
}

static void queue_error(queue_t* Q) {
  Q->doorbell_error = 1;
  irq_status |= PUT(IRQ_STATUS, QUEUE_ERROR, 1);
}

static void reg_write(uint32_t off, uint32_t v) {
  if (off == R_CONTROL && GET(CONTROL, SOFT_RESET, v)) {
    /* Everything back to its reset value; the launch in flight is aborted
       at the next warp-instruction (hal_service). Nothing is in flight on
       the memory port between two firmware steps, so the reset is done at
       once and STATUS.RESETTING is never seen. */
    reset_requested = engine == E_RUNNING;
    reset_state();
    irq_status = PUT(IRQ_STATUS, RESET_DONE, 1);
    return;
  }
  if (off >= C_QP_BASE && off < C_QP_BASE + C_MAX_QUEUES * C_QP_STRIDE) {
    const uint32_t qi = (off - C_QP_BASE) / C_QP_STRIDE, r = (off - C_QP_BASE) % C_QP_STRIDE;
    queue_t* Q;
    if (qi >= NUM_QUEUES) return;
    Q = &q[qi];
    if ((r == Q_SQ_BASE || r == Q_SQ_SIZE || r == Q_CQ_BASE || r == Q_CQ_SIZE) && !quiescent(qi)) {
      queue_error(Q); /* the ring registers of a queue pair in use are fixed */
      return;
    }
    switch (r) {
      case Q_SQ_BASE: Q->sq_base = v; break;
      case Q_SQ_SIZE: Q->sq_size = v; break;
      case Q_CQ_BASE: Q->cq_base = v; break;
      case Q_CQ_SIZE: Q->cq_size = v; break;
      case Q_CQ_HEAD:
        /* The head may only move forward, and never past the tail. */
        if (v - Q->cq_head <= Q->cq_tail - Q->cq_head) Q->cq_head = v;
        else queue_error(Q);
        break;
      case Q_DOORBELL:
        if (queue_off(Q) || !queue_valid(Q)) queue_error(Q);
        else if (v - Q->sq_head > Q->sq_size || v - Q->sq_tail > Q->sq_size) queue_error(Q);
        else Q->sq_tail = v;
        break;
      default: break; /* read-only */
    }
    return;
  }
  switch (off) {
    case R_CONTROL: enable = GET(CONTROL, ENABLE, v); break;
    case R_WATCHDOG: watchdog = v; break;
    case R_SCRATCH: scratch = v; break;
    case R_PROT_BASE: prot_base = v; break;
    case R_PROT_SIZE: prot_size = v; break;
    case R_IRQ_STATUS: irq_status &= ~v; break;
    case R_IRQ_MASK:
      irq_mask = v & (PUT(IRQ_MASK, CQ, 0xFF) | PUT(IRQ_MASK, FAULT, 1) | PUT(IRQ_MASK, RESET_DONE, 1) |
                      PUT(IRQ_MASK, QUEUE_ERROR, 1));
      break;
    default: break;
  }
}

/* One register access of the host (a frame of the link): an unaligned
   offset reads 0 and writes nothing. */
uint32_t link_reg(uint32_t off, uint32_t write, uint32_t wdata) {
  uint32_t v = 0;
  if ((off & 3u) || off >= C_REG_SPACE) return 0;
  if (write) reg_write(off, wdata);
  else v = reg_read(off);
  outputs();
  return v;
}

/* Between two warp-instructions: the host link, and the launch's abort by a soft reset. */
uint32_t hal_service(void) {
  const uint64_t t0 = hal_cycles();
  link_poll();
  launch_link_cycles += hal_cycles() - t0;
  return reset_requested;
}

/* The watchdog counts the launch's own cycles: not those the control core
   spent serving the link, which depend on how often the host polls (a host
   polling a slow simulation back to back would otherwise end a kernel that
   passes at the board's real speed). */
uint32_t hal_watchdog_expired(void) {
  return launch_budget != 0 && hal_cycles() - launch_start - launch_link_cycles >= launch_budget;
}

/* ---- descriptors ---------------------------------------------------------------- */
static uint32_t desc[RC_DESC_BYTES / 4];
static uint32_t d32(uint32_t off) { return desc[off >> 2]; }
static uint32_t d16(uint32_t off) { return (desc[off >> 2] >> ((off & 2u) * 8)) & 0xFFFFu; }
/* The byte at byte offset off of a record held as words. */
static uint32_t byte_at(const uint32_t* w, uint32_t off) { return (w[off >> 2] >> ((off & 3u) * 8)) & 0xFFu; }
static uint32_t d8(uint32_t off) { return byte_at(desc, off); }

/* Reads `bytes` (a multiple of the line) at addr into w. Returns 0, or the
   address of the line that could not be read (+1, so that line 0 is nonzero). */
static uint32_t read_lines(uint32_t addr, uint32_t* w, uint32_t bytes) {
  uint32_t k;
  for (k = 0; k < bytes; k += FWSM_LINE_BYTES)
    if (hal_mem_read(addr + k, w + k / 4)) return addr + k + 1;
  return 0;
}

/* a * b, exactly (rv32i has no multiplier). */
static uint64_t mul64(uint32_t a, uint32_t b) {
  uint64_t r = 0, x = a;
  while (b) {
    if (b & 1u) r += x;
    x <<= 1;
    b >>= 1;
  }
  return r;
}

static fw_launch_t L;

/* The device's checks, in the order of the DCHK table (cq_model check()).
   Fills L. A window-table line that cannot be read sets *ring_error to it (+1). */
static uint32_t check(uint32_t* ring_error) {
  const uint32_t flags = d8(DESC_flags), count = d8(DESC_window_count);
  const uint32_t gx = d32(DESC_grid_x), gy = d16(DESC_grid_y), gz = d16(DESC_grid_z);
  const uint32_t bx = d16(DESC_block_x), by = d16(DESC_block_y), bz = d16(DESC_block_z);
  const uint32_t regs = d8(DESC_regs), code_base = d32(DESC_code_base), code_size = d32(DESC_code_size);
  const uint32_t entry = d32(DESC_entry_pc), table = d32(DESC_window_table);
  uint64_t gxy, threads;
  uint32_t i, k, n = 0;
  if (d16(DESC_magic) != RC_DESC_MAGIC) return DCHK_MAGIC;
  if (d8(DESC_version) != RC_DESC_VERSION) return DCHK_VERSION;
  if ((flags & ~(uint32_t)RC_DESC_FLAGS_KNOWN) || d32(DESC_reserved)) return DCHK_FLAGS;
  if (flags & RC_DESC_FLAG_MARKER) return DCHK_NONE;
  if (!gx || !gy || !gz || !bx || !by || !bz || gx > 0x7FFFFFFFu) return DCHK_DIMS;
  gxy = mul64(gx, gy);
  if (gxy > 0xFFFFFFFFull || mul64((uint32_t)gxy, gz) > 0xFFFFFFFFull) return DCHK_DIMS;
  threads = mul64(bx, by);
  if (threads <= 1024) threads = mul64((uint32_t)threads, bz);
  if (threads > 1024 || threads > NUM_WARPS * 32) return DCHK_BLOCK_SIZE;
  if (regs == 0 || regs > MAX_REGS || regs > MAX_REGS_PER_THREAD) return DCHK_REGS;
  if (d32(DESC_shared_bytes) > SHARED_BYTES) return DCHK_SHARED;
  if (mul64((uint32_t)((threads + 31) >> 5) << 5, regs) > REGFILE_REGS) return DCHK_RESOURCES;
  if (code_size == 0 || (code_size & 7u) || (code_base & 7u) || (uint64_t)code_base + code_size > mem_bytes)
    return DCHK_CODE_RANGE;
  if ((entry & 7u) || entry < code_base || (uint64_t)entry >= (uint64_t)code_base + code_size)
    return DCHK_ENTRY_PC;
  if ((uint64_t)d32(DESC_param_addr) + d32(DESC_param_size) > mem_bytes) return DCHK_PARAM_RANGE;
  if (count > MAX_WINDOWS) return DCHK_WINDOW_COUNT;
  if (count && ((table & 7u) || (uint64_t)table + ((uint64_t)count << 3) > mem_bytes)) return DCHK_WINDOW_TABLE;
  for (k = 0; k < 8; k++) L.win_base[k] = L.win_size[k] = 0;
  for (i = 0; i < count; i++) {
    const uint32_t a = table + (i << 3);
    uint32_t line[FWSM_LINE_BYTES / 4], base, size;
    if (hal_mem_read(a & ~(uint32_t)(FWSM_LINE_BYTES - 1), line)) {
      *ring_error = (a & ~(uint32_t)(FWSM_LINE_BYTES - 1)) + 1;
      return DCHK_NONE;
    }
    base = line[((a & (FWSM_LINE_BYTES - 1)) >> 2) + WIN_base / 4];
    size = line[((a & (FWSM_LINE_BYTES - 1)) >> 2) + WIN_size / 4];
    if ((uint64_t)base + size > mem_bytes) return DCHK_WINDOW_RANGE;
    if (size) {
      L.win_base[n] = base;
      L.win_size[n] = size;
      n++;
    }
  }
  L.prot_base = prot_base;
  L.prot_size = prot_size;
  L.entry = entry;
  L.code_base = code_base;
  L.code_size = code_size;
  L.grid[0] = gx;
  L.grid[1] = gy;
  L.grid[2] = gz;
  L.block[0] = bx;
  L.block[1] = by;
  L.block[2] = bz;
  L.param_addr = d32(DESC_param_addr);
  L.param_size = d32(DESC_param_size);
  L.regs = regs;
  L.shared = d32(DESC_shared_bytes);
  L.watchdog = d32(DESC_watchdog) ? d32(DESC_watchdog) : watchdog;
  L.smid = 0;
  return DCHK_NONE;
}

/* ---- completions ---------------------------------------------------------------- */
static void cpl_byte(uint32_t off, uint32_t v) {
  const uint32_t s = (off & 3u) * 8;
  cpl[off >> 2] = (cpl[off >> 2] & ~(0xFFu << s)) | (v & 0xFFu) << s;
}
static void cpl64(uint32_t off, uint64_t v) {
  cpl[off >> 2] = (uint32_t)v;
  cpl[(off >> 2) + 1] = (uint32_t)(v >> 32);
}

/* A new entry for the descriptor just fetched (its token as fetched, even a bad one). */
static void cpl_begin(uint32_t seq, uint64_t now) {
  uint32_t k;
  for (k = 0; k < RC_CPL_BYTES / 4; k++) cpl[k] = 0;
  cpl[CPL_token / 4] = desc[DESC_token / 4];
  cpl[CPL_token / 4 + 1] = desc[DESC_token / 4 + 1];
  cpl[CPL_seq / 4] = seq;
  cpl64(CPL_start_cycle, now);
  cpl64(CPL_end_cycle, now);
}

static void cpl_fail(uint32_t err, uint32_t addr) {
  cpl_byte(CPL_status, CPL_STATUS_FAILED);
  cpl_byte(CPL_error, err);
  cpl[CPL_fault_addr / 4] = addr;
}

static void set_fault(uint32_t err, uint32_t qi) {
  fault = 1;
  fault_info = PUT(FAULT_INFO, ERROR, err) | PUT(FAULT_INFO, QUEUE, qi);
  irq_status |= PUT(IRQ_STATUS, FAULT, 1);
}

/* Writes the entry at the completion ring's tail, the phase word last. */
static void cpl_write(void) {
  queue_t* Q = &q[cur_q];
  const uint32_t addr = Q->cq_base + ((Q->cq_tail & (Q->cq_size - 1)) << CPL_SHIFT);
  const uint64_t token = (uint64_t)cpl[CPL_token / 4 + 1] << 32 | cpl[CPL_token / 4];
  uint32_t k, bad = 0;
  cpl[CPL_phase / 4] = ((Q->cq_tail & Q->cq_size) == 0 ? 1u : 0u) << RC_CPL_PHASE_BIT | cur_q << RC_CPL_QUEUE_LSB;
  for (k = 0; k < RC_CPL_BYTES && !bad; k += FWSM_LINE_BYTES) {
    const uint32_t last = k + FWSM_LINE_BYTES == RC_CPL_BYTES;
    /* The last line without its phase word first. */
    if (hal_mem_write(addr + k, cpl + k / 4, last ? 0xFFFFu >> 4 : 0xFFFFu)) bad = addr + k + 1;
  }
  if (!bad && hal_mem_write(addr + RC_CPL_BYTES - FWSM_LINE_BYTES, cpl + (RC_CPL_BYTES - FWSM_LINE_BYTES) / 4, 0xF000u))
    bad = addr + RC_CPL_BYTES - FWSM_LINE_BYTES + 1;
  if (bad) {
    /* The entry cannot be written: FAULT_* names the launch, and the device
       stops until reset (the host cannot be told through the ring). */
    failed++;
    progress++;
    set_fault(ERR_RING_ERROR, cur_q);
    fault_pc = fault_cta = 0;
    fault_addr = bad - 1;
    fault_token = token;
    engine = E_HALTED;
    return;
  }
  Q->cq_tail++;
  launches++;
  progress++;
  irq_status |= PUT(IRQ_STATUS, CQ, 1u << cur_q);
  if (byte_at(cpl, CPL_status) == CPL_STATUS_FAILED) {
    const uint32_t err = byte_at(cpl, CPL_error);
    failed++;
    if (err != ERR_BAD_DESCRIPTOR) {
      set_fault(err, cur_q);
      fault_info |= PUT(FAULT_INFO, WARP, byte_at(cpl, CPL_fault_warp)) | PUT(FAULT_INFO, LANE, byte_at(cpl, CPL_fault_lane));
      fault_pc = cpl[CPL_fault_pc / 4];
      fault_addr = cpl[CPL_fault_addr / 4];
      fault_cta = cpl[CPL_fault_cta / 4];
      fault_token = token;
    }
  }
  engine = E_IDLE;
}

/* ---- a launch ------------------------------------------------------------------ */
static uint32_t sat32(uint64_t v) { return v > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)v; }

/* The SM's counts into the completion entry (contract/sm_report.def: the
   wrapping ones wrap, the others saturate). */
static void counts_out(uint64_t sm_cycles) {
  const fwsm_counts_t* c = &fwsm_counts;
  uint32_t st;
  cpl[CPL_warp_instrs / 4] = sat32(c->warp_instrs);
  cpl[CPL_stall_cycles / 4] = sat32(c->live_cycles > c->warp_instrs ? c->live_cycles - c->warp_instrs : 0);
  cpl[CPL_shared_passes / 4] = (uint32_t)c->shared_passes;
  cpl[CPL_thread_instrs / 4] = sat32(c->thread_instrs);
  cpl[CPL_div_branches / 4] = sat32(c->div_branches);
  cpl[CPL_bar_releases / 4] = sat32(c->bar_releases);
  cpl[CPL_gmem_requests / 4] = (uint32_t)c->gmem_requests;
  cpl[CPL_ifetch_fills / 4] = (uint32_t)c->ifetch_fills;
  cpl[CPL_sm_cycles / 4] = sat32(sm_cycles);
  for (st = 0; st < FWSM_NUM_WS; st++) cpl[CPL_ws_idle / 4 + st] = sat32(c->ws[st]);
}

static void run_launch(void) {
  fw_fault_t f;
  uint64_t end;
  uint32_t r;
  launch_start = hal_cycles();
  launch_link_cycles = 0;
  launch_budget = L.watchdog;
  hal_run(1);
  engine = E_RUNNING;
  outputs();
  r = fwsm_run(&L, &f);
  hal_run(0);
  if (r == FWSM_ABORTED) { /* a soft reset: no completion */
    reset_requested = 0;
    engine = E_IDLE;
    return;
  }
  end = hal_cycles();
  cpl64(CPL_end_cycle, end);
  counts_out(end - launch_start);
  warp_instrs += fwsm_counts.warp_instrs;
  if (r == FWSM_REFUSED) {
    cpl_fail(ERR_INTERNAL, 0);
  } else if (f.kind != FK_NONE) {
    cpl_fail(fault_error[f.kind], f.kind == FK_BARRIER_DEADLOCK ? f.waiting : f.addr);
    cpl[CPL_fault_pc / 4] = f.pc;
    cpl_byte(CPL_fault_warp, f.warp);
    cpl_byte(CPL_fault_lane, f.lane);
    cpl[CPL_fault_cta / 4] = f.cta[0] + (uint32_t)mul64(f.cta[1], L.grid[0]) +
                             (uint32_t)mul64(f.cta[2], (uint32_t)mul64(L.grid[0], L.grid[1]));
    /* CTAs run in order: the ones before the faulting one finished. */
    cpl[CPL_ctas_done / 4] = cpl[CPL_fault_cta / 4];
    progress += (uint32_t)fwsm_counts.ctas_done;
  } else {
    cpl_byte(CPL_status, CPL_STATUS_COMPLETED);
    cpl[CPL_ctas_done / 4] = (uint32_t)mul64((uint32_t)mul64(L.grid[0], L.grid[1]), L.grid[2]);
    progress += (uint32_t)fwsm_counts.ctas_done;
  }
}

static void fetch(uint32_t qi) {
  queue_t* Q = &q[qi];
  const uint32_t desc_addr = Q->sq_base + ((Q->sq_head & (Q->sq_size - 1)) << DESC_SHIFT);
  const uint32_t seq = Q->sq_head++;
  uint32_t unreadable, ring_error = 0, chk = DCHK_NONE, k;
  progress++;
  cur_q = qi;
  unreadable = read_lines(desc_addr, desc, RC_DESC_BYTES);
  if (unreadable)
    for (k = 0; k < RC_DESC_BYTES / 4; k++) desc[k] = 0; /* an unreadable descriptor reads as zeros */
  cpl_begin(seq, hal_cycles());
  if (!unreadable) chk = check(&ring_error);
  if (unreadable || ring_error) {
    cpl_fail(ERR_RING_ERROR, (unreadable ? unreadable : ring_error) - 1);
  } else if (chk != DCHK_NONE) {
    cpl_fail(ERR_BAD_DESCRIPTOR, chk);
  } else if (d8(DESC_flags) & RC_DESC_FLAG_MARKER) {
    cpl_byte(CPL_status, CPL_STATUS_COMPLETED);
  } else {
    run_launch();
    if (engine != E_RUNNING) return; /* aborted by a soft reset */
  }
  cpl_write();
}

static void try_fetch(void) {
  uint32_t i;
  if (!enable || fault || engine != E_IDLE) return;
  for (i = 0; i < NUM_QUEUES; i++) {
    const uint32_t qi = (rr + i) % NUM_QUEUES;
    /* The completion slot is reserved before fetching, so a finished launch
       never waits: a queue whose completion ring is full is not served. */
    if (!has_work(&q[qi]) || cq_full(&q[qi])) continue;
    rr = (qi + 1) % NUM_QUEUES;
    fetch(qi);
    outputs();
    return;
  }
}

int main(void) {
  mem_bytes = hal_mem_bytes();
  reset_requested = 0;
  reset_state();
  link_init();
  /* The link first: a request that came while the firmware started is
     answered before STATUS first says IDLE. */
  link_poll();
  outputs();
  /* The outputs change only with a register access (link_reg) or a
     descriptor's fetch and launch (try_fetch): the loop stays short, so the
     link's partial-frame timeout is seen soon after it expires. */
  for (;;) {
    link_poll();
    try_fetch();
  }
}
