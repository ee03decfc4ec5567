/* The SM's control as firmware (docs/microarchitecture.md, "The choice
   revisited again"): the thread-serial SM's sequencer (rtl/ssm/
   baresm_ssm_seq.sv) written as a program for the control core. The same
   order of checks, the same faults and the same lanes named; the
   per-thread work goes to the lane engine (fwsm_hal.h). The functional model
   (isa/iss_exec.cpp) is the specification.

   Per launch: the checks of baresm_sm_launch (a refused launch runs
   nothing), then the grid one CTA at a time (x fastest). Per CTA: the warps'
   first stack entries, predicates cleared, shared memory cleared; then
   warp-instructions, round robin over the runnable warps, until none is
   left or the first fault. */
#include "fw/include/baresm_isa.h"
#include "fw/sm/fwsm_fpu.h"
#include "fw/sm/fwsm_hal.h"

/* The board's SM (rtl/configs.txt `serial`). */
#define NUM_WARPS 4
#define NUM_REGS 16
#define SHARED_BYTES 2048
#define STACK_DEPTH 4
#define NUM_WINDOWS 4
#define RF_DEPTH (NUM_WARPS * NUM_REGS * 32)
#define HAS_FPU 1 /* in firmware: fwsm_fpu.cpp */
#define PC_NONE 0xFFFFFFFFu

enum {
#define BSM_FAULT(name, iss, cuda, field, desc) FAULT_##name,
#define BSM_ERR_STATUS(name, cuda)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};

typedef struct {
  uint32_t pc, rpc, mask, pad; /* 16 bytes: rv32i has no multiplier, so every array stride is a power of two */
} entry_t;

typedef struct {
  uint32_t op, bimm, pg, pg_neg, rd, ra, mod, rb, rc, imm;
} instr_t;

/* Per warp. */
static entry_t stack[NUM_WARPS][STACK_DEPTH];
static uint32_t depth[NUM_WARPS];
static uint32_t pred[NUM_WARPS][8];
static uint32_t bar_pc[NUM_WARPS], bar_id[NUM_WARPS], bar_cnt[NUM_WARPS];
static uint32_t reg_written[NUM_WARPS];            /* bit r: written in this CTA */
static uint32_t tid0[NUM_WARPS][4];                /* lane 0's thread id (x, y, z) */
static uint32_t used, exited, waiting, bar_first;  /* bit w */

static fw_launch_t L;
static uint32_t threads, nw;
static uint32_t cta[3];
static uint32_t cw;  /* the current warp */
static fw_fault_t fault;
static uint32_t faulted, aborted;

static uint32_t lowest_lane(uint32_t m) {
  uint32_t l = 0;
  if (!m) return 0;
  while (!(m & 1u)) {
    m >>= 1;
    l++;
  }
  return l;
}

/* Bits set, without a multiplier and without a loop. */
static uint32_t popc(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  m = (m + (m >> 4)) & 0x0F0F0F0Fu;
  m += m >> 8;
  m += m >> 16;
  return m & 0x3Fu;
}

/* Leading zeros (32 for 0), by halves: rv32i has no clz. */
static uint32_t clz(uint32_t v) {
  uint32_t n = 0;
  if (!v) return 32;
  if (!(v >> 16)) { n += 16; v <<= 16; }
  if (!(v >> 24)) { n += 8; v <<= 8; }
  if (!(v >> 28)) { n += 4; v <<= 4; }
  if (!(v >> 30)) { n += 2; v <<= 2; }
  if (!(v >> 31)) n += 1;
  return n;
}

/* ---- the launch's counts (fwsm_hal.h) ----------------------------------------------
   Cheap enough to run on every warp-instruction: the warps other than the
   current one change state only when the masks change (a CTA's start, an
   exit, a barrier), so IDLE, EXITED, WAIT_BAR and the live cycles are
   charged then; the current warp's instruction is timed from its start to
   its end (ISSUED one cycle, WAIT_MEM its fetch and memory loop, WAIT_SB the
   rest); READY is what is left of NUM_WARPS x the launch's cycles
   (fwsm_counts_finish). */
fwsm_counts_t fwsm_counts;
static uint32_t cnt_t0;                          /* the launch's start */
static uint32_t bg_t, bg_used, bg_exited, bg_waiting; /* the masks charged since bg_t */
static uint32_t in_t, mem_t, mem_cycles;         /* the current instruction's start, a memory wait's */
static uint32_t cnt_in_instr, cnt_issued;

/* ws[st] += dt * n for n <= 7, in shifts and adds (a loop would become a call to __muldi3). */
static void charge(uint32_t st, uint32_t dt, uint32_t n) {
  uint64_t* c = &fwsm_counts.ws[st];
  if (n & 1u) *c += dt;
  if (n & 2u) *c += (uint64_t)dt << 1;
  if (n & 4u) *c += (uint64_t)dt << 2;
}

/* The masks changed (or the launch ends): charge the interval since the last change. */
static void charge_masks(uint32_t now) {
  const uint32_t dt = now - bg_t, live = bg_used & ~bg_exited;
  charge(FWSM_WS_IDLE, dt, NUM_WARPS - popc(bg_used));
  charge(FWSM_WS_EXITED, dt, popc(bg_used & bg_exited));
  charge(FWSM_WS_WAIT_BAR, dt, popc(live & bg_waiting));
  if (live) fwsm_counts.live_cycles += dt;
  bg_t = now;
  bg_used = used;
  bg_exited = exited;
  bg_waiting = waiting;
}

static void status(uint32_t in_instr) {
  if (in_instr || cnt_in_instr || used != bg_used || exited != bg_exited || waiting != bg_waiting) {
    const uint32_t now = hal_now();
    if (in_instr) {
      in_t = now;
      mem_cycles = cnt_issued = 0;
    } else if (cnt_in_instr) {
      const uint32_t d = now - in_t - mem_cycles;
      fwsm_counts.ws[FWSM_WS_ISSUED] += cnt_issued;
      fwsm_counts.ws[FWSM_WS_WAIT_MEM] += mem_cycles;
      fwsm_counts.ws[FWSM_WS_WAIT_SB] += d > cnt_issued ? d - cnt_issued : 0;
    }
    if (used != bg_used || exited != bg_exited || waiting != bg_waiting) charge_masks(now);
  }
  cnt_in_instr = in_instr;
  hal_warps(used, exited, waiting, cw, in_instr);
}

/* The current warp waits for memory (its fetch, its memory loop) or not. */
static void mem_wait(uint32_t on) {
  const uint32_t now = hal_now();
  if (on) mem_t = now;
  else mem_cycles += now - mem_t;
}

/* The launch's end: the masks' last interval, and READY as the rest. */
static void counts_finish(void) {
  const uint32_t now = hal_now();
  const uint64_t total = (uint64_t)(now - cnt_t0) * NUM_WARPS; /* a power of two: a shift */
  uint64_t other = 0;
  uint32_t st;
  charge_masks(now);
  for (st = 0; st < FWSM_NUM_WS; st++)
    if (st != FWSM_WS_READY) other += fwsm_counts.ws[st];
  fwsm_counts.ws[FWSM_WS_READY] = total > other ? total - other : 0;
}

static void issue(uint32_t exec, uint32_t diverge) {
  fwsm_counts.warp_instrs++;
  fwsm_counts.thread_instrs += popc(exec);
  fwsm_counts.div_branches += diverge;
  cnt_issued = 1;
}

/* The last line fetched. Code cannot change while a launch runs (it lies in
   the protected range, where a store faults), so the line is kept until the
   next launch. */
static uint32_t fetch_line_addr = 1, fetch_words[FWSM_LINE_BYTES / 4];

/* The first fault ends the launch. pc: the instruction's. */
static void take_fault(uint32_t kind, uint32_t lane, uint32_t addr, uint32_t pc) {
  faulted = 1;
  fault.kind = kind;
  fault.cta[0] = cta[0];
  fault.cta[1] = cta[1];
  fault.cta[2] = cta[2];
  fault.warp = cw;
  fault.lane = lane;
  fault.pc = pc;
  fault.addr = addr;
  fault.waiting = 0;
}

static uint32_t warp_mask(uint32_t w) {
  uint32_t rem = threads - 32 * w;
  return rem >= 32 ? 0xFFFFFFFFu : ((1u << rem) - 1);
}

/* The thread id 32 threads on (the next warp's lane 0), without dividing. */
static void tid_step32(uint32_t t[3]) {
  t[0] += 32;
  while (t[0] >= L.block[0]) {
    t[0] -= L.block[0];
    if (++t[1] >= L.block[1]) {
      t[1] = 0;
      t[2]++;
    }
  }
}

static void decode(uint32_t lo, uint32_t hi, instr_t* in) {
  in->op = lo & 0x7Fu;
  in->bimm = (lo >> ISA_BIMM_BIT) & 1u;
  in->pg = (lo >> ISA_PG_LSB) & 7u;
  in->pg_neg = (lo >> ISA_PG_NEG_BIT) & 1u;
  in->rd = (lo >> ISA_RD_LSB) & 63u;
  in->ra = (lo >> ISA_RA_LSB) & 63u;
  in->mod = (lo >> ISA_MOD_LSB) & 0xFFu;
  if (in->bimm) {
    in->imm = hi;
    in->rb = ISA_REG_ZERO;
    in->rc = ISA_REG_ZERO;
  } else {
    in->rb = (hi >> (ISA_RB_LSB - 32)) & 63u;
    in->rc = (hi >> (ISA_RC_LSB - 32)) & 63u;
    in->imm = hi >> (ISA_IMM20_LSB - 32);
    if (in->imm & 0x80000u) in->imm |= 0xFFF00000u;
  }
}

static uint32_t is_atom(uint32_t op) { return op == OP_ATOMG || op == OP_ATOMS; }

/* The register fields an instruction reads or writes, {rc, rb, ra, rd}. */
static uint32_t used_fields(const instr_t* in) {
  const uint32_t f = isa_op_info[in->op];
  uint32_t u = 0;
  if (in->op == OP_VOTE) return (in->mod & 3u) == VOTE_BALLOT ? 1u : 0u;
  if (f & (F_WRD | F_RRD)) u |= 1u;
  if (f & F_RA) u |= 2u;
  if ((f & F_RB) && !in->bimm) u |= 4u;
  if ((f & F_RC) && (!is_atom(in->op) || (in->mod & 15u) == ATOM_CAS)) u |= 8u;
  return u;
}

static uint32_t illegal(const instr_t* in) {
  const uint32_t i = isa_op_info[in->op];
  const uint32_t fields[4] = {in->rd, in->ra, in->rb, in->rc};
  uint32_t u, k;
  if (!ISA_INFO_LEGAL(i)) return 1;
  if (!((isa_mod_ok[ISA_INFO_MODMAP(i)][in->mod >> 5] >> (in->mod & 31u)) & 1u)) return 1;
  if (in->bimm && !(i & (F_BIMM_OK | F_BIMM_ALWAYS))) return 1;
  if (!in->bimm && (i & F_BIMM_ALWAYS)) return 1;
  if (!HAS_FPU && ISA_INFO_UNIT(i) == UNIT_FPU) return 1;
  u = used_fields(in);
  for (k = 0; k < 4; k++)
    if (((u >> k) & 1u) && fields[k] != ISA_REG_ZERO && fields[k] >= L.regs) return 1;
  return 0;
}

static uint32_t shfl_src(uint32_t mod, uint32_t lane, uint32_t b) {
  const uint32_t width = 1u << ((mod >> 2) & 7u);
  const uint32_t base = lane & ~(width - 1);
  switch (mod & 3u) {
    case SHFL_IDX: return (base + (b & (width - 1))) & 63u;
    case SHFL_UP: return b > lane - base ? lane : (lane - (b & 63u)) & 63u;
    case SHFL_DOWN: return (uint64_t)lane + b >= base + width ? lane : (lane + (b & 63u)) & 63u;
    default: return lane ^ (b & (width - 1));
  }
}

/* A predicate as the file holds it (PT: every lane). */
static uint32_t pred_word(uint32_t w, uint32_t idx) { return idx == ISA_PRED_TRUE ? 0xFFFFFFFFu : pred[w][idx]; }

/* A register read: RZ and registers this CTA has not written are 0. */
static uint32_t reg_zero(uint32_t w, uint32_t r) { return r == ISA_REG_ZERO || !((reg_written[w] >> r) & 1u); }
static uint32_t reg_read(uint32_t w, uint32_t r, uint32_t lane) {
  return reg_zero(w, r) ? 0 : hal_rf_read(w, r, lane);
}

/* ---- launch checks (baresm_sm_launch: what this SM refuses) ------------------ */
static uint32_t launch_bad(void) {
  /* The block's threads, without a 64-bit multiply: x * y fits 32 bits. */
  const uint32_t xy = L.block[0] * L.block[1];
  const uint32_t full = xy > 1024 ? 1025 : xy * L.block[2];
  uint32_t usable = 0, w, k, need = 0;
  for (w = 0; w < NUM_WARPS; w++) {
    need += L.regs << 5; /* register-file entries of warps 0..w */
    if (need <= RF_DEPTH) usable++;
  }
  for (k = NUM_WINDOWS; k < 8; k++)
    if (L.win_size[k]) return 1;
  if (L.regs == 0 || L.regs > NUM_REGS || full == 0 || full > 1024) return 1;
  if (L.grid[0] == 0 || L.grid[1] == 0 || L.grid[2] == 0) return 1;
  if (((full + 31) >> 5) > usable || L.shared > SHARED_BYTES) return 1;
  return 0;
}

/* ---- one CTA ---------------------------------------------------------------- */
static void cta_start(void) {
  uint32_t t[3] = {0, 0, 0}, w, k;
  for (w = 0; w < NUM_WARPS; w++) {
    depth[w] = 1;
    reg_written[w] = 0;
    bar_cnt[w] = 0;
    bar_id[w] = 0;
    if (w < nw) {
      tid0[w][0] = t[0];
      tid0[w][1] = t[1];
      tid0[w][2] = t[2];
      stack[w][0].pc = L.entry;
      stack[w][0].rpc = PC_NONE;
      stack[w][0].mask = warp_mask(w);
      for (k = 0; k < 7; k++) pred[w][k] = 0;
      tid_step32(t);
    }
  }
  used = nw >= 32 ? 0xFFFFFFFFu : (1u << nw) - 1;
  exited = waiting = bar_first = 0;
  {
    uint32_t words = (L.shared + 3) >> 2;
    if (words > SHARED_BYTES / 4) words = SHARED_BYTES / 4;
    if (words == 0) words = 1;  /* the hardware clears at least one word */
    hal_smem_clear(words);
  }
  cw = NUM_WARPS - 1;
  hal_cta(cta);
  status(0);
}

/* S2R of a special register that is the same in every lane of the warp (the
   block and grid sizes, the CTA, the warp, the SM): its value, which the lane
   engine then writes as a MOV's immediate (the engine keeps only what
   differs per lane: the thread id, the lane, the clock). */
static uint32_t s2r_uniform(uint32_t id, uint32_t* v) {
  switch (id) {
    case SR_NTID_X: *v = L.block[0]; return 1;
    case SR_NTID_Y: *v = L.block[1]; return 1;
    case SR_NTID_Z: *v = L.block[2]; return 1;
    case SR_CTAID_X: *v = cta[0]; return 1;
    case SR_CTAID_Y: *v = cta[1]; return 1;
    case SR_CTAID_Z: *v = cta[2]; return 1;
    case SR_NCTAID_X: *v = L.grid[0]; return 1;
    case SR_NCTAID_Y: *v = L.grid[1]; return 1;
    case SR_NCTAID_Z: *v = L.grid[2]; return 1;
    case SR_WARPID: *v = cw; return 1;
    case SR_SMID: *v = L.smid; return 1;
    default: return 0;
  }
}

/* ---- the memory instructions: the lane engine's memory loop --------------------- */
static void lane_op_init(fw_lane_op_t* op, const instr_t* in, uint32_t exec, uint32_t wr) {
  op->op = in->op;
  op->mod = in->mod;
  op->warp = cw;
  op->ra = in->ra;
  op->rb = in->rb;
  op->rc = in->rc;
  op->rd = in->rd;
  op->bimm = in->bimm;
  op->imm = in->imm;
  op->exec = exec;
  op->sel = 0;
  op->zero_a = reg_zero(cw, in->ra);
  op->zero_b = reg_zero(cw, in->rb);
  op->zero_c = reg_zero(cw, in->rc);
  op->write_rd = wr;
  op->zero_fill = wr && !((reg_written[cw] >> in->rd) & 1u);
  op->tid[0] = tid0[cw][0];
  op->tid[1] = tid0[cw][1];
  op->tid[2] = tid0[cw][2];
}

static void exec_mem(const instr_t* in, const entry_t* top, uint32_t exec) {
  const uint32_t store = in->op == OP_STG || in->op == OP_STS;
  const uint32_t wr = (isa_op_info[in->op] & F_WRD) && in->rd != ISA_REG_ZERO;
  fw_lane_op_t op;
  uint32_t kind, lane, addr, bad;
  lane_op_init(&op, in, exec, wr);
  op.zero_b = reg_zero(cw, store ? in->rd : in->rb);
  mem_wait(1);
  bad = hal_lane_mem(&op, &kind, &lane, &addr);
  mem_wait(0);
  if (bad) return take_fault(kind, lane, addr, top->pc);
  /* A lane a request or a pass on the thread-serial SM (not counted for a faulting instruction). */
  if (in->op == OP_LDS || in->op == OP_STS || in->op == OP_ATOMS) fwsm_counts.shared_passes += popc(exec);
  else fwsm_counts.gmem_requests += popc(exec);
  if (wr) reg_written[cw] |= 1u << in->rd;
}

/* ---- what the lane engine does not compute: lane by lane here ---------------------
   POPC and CLZ (the ALU has no counter: about 100 LUTs of the iCEBreaker's
   5,280, for rare instructions) and the FPU's (fwsm_fpu.cpp: no FPU fits). */
static void exec_lanes(const instr_t* in, uint32_t exec, uint32_t p2, uint32_t wr) {
  const uint32_t f = isa_op_info[in->op];
  const uint32_t fill = wr && !((reg_written[cw] >> in->rd) & 1u);
  uint32_t l, bits = 0;
  for (l = 0; l < 32; l++) {
    if ((exec >> l) & 1u) {
      const uint32_t a = reg_read(cw, in->ra, l);
      const uint32_t b = in->bimm ? in->imm : (f & F_RB) ? reg_read(cw, in->rb, l) : 0;
      const uint32_t c = (f & F_RC) ? reg_read(cw, in->rc, l) : 0;
      const uint32_t r = in->op == OP_POPC ? popc(a) : in->op == OP_CLZ ? clz(a) : fwsm_fpu(in->op, in->mod, a, b, c);
      if (in->op == OP_FSETP) bits |= r << l;
      else if (wr) hal_rf_write(cw, in->rd, l, r, 1);
    } else if (fill) {
      hal_rf_write(cw, in->rd, l, 0, 0);
    }
  }
  if (in->op == OP_FSETP) {
    /* The comparison combined with the second predicate, as ISETP's in the lane engine. */
    const uint32_t comb = (in->mod >> 4) & 3u, pd = in->rd & 7u;
    const uint32_t v = comb == COMB_AND ? bits & p2 : comb == COMB_OR ? bits | p2 : bits ^ p2;
    if (pd != ISA_PRED_TRUE) {
      pred[cw][pd] = (pred[cw][pd] & ~exec) | (v & exec);
      hal_pred_write(cw, pd, exec, v);
    }
  } else if (wr) {
    reg_written[cw] |= 1u << in->rd;
  }
}

/* ---- BRA: isa/iss_exec.cpp exec_bra ------------------------------------------- */
/* Returns 1 when the warp's stack emptied (it exited). */
static uint32_t exec_bra(const instr_t* in, entry_t* top, uint32_t exec) {
  const uint32_t dtop = depth[cw] - 1;
  const uint32_t imm_lo = in->imm & 0xFFFFu, imm_hi = in->imm >> 16;
  const uint32_t t = top->pc + (((imm_lo & 0x8000u) ? (imm_lo | 0xFFFF0000u) : imm_lo) << 3);
  const uint32_t r = imm_hi == 0 ? PC_NONE : top->pc + (((imm_hi & 0x8000u) ? (imm_hi | 0xFFFF0000u) : imm_hi) << 3);
  const uint32_t f = top->pc + 8;
  const uint32_t rest = top->mask & ~exec;
  entry_t e[3];
  uint32_t n = 0, d = dtop, k;
  if (rest == 0) {
    top->pc = t;
    return 0;
  }
  if (exec == 0) {
    top->pc = f;
    return 0;
  }
  /* Divergent: the old top's slot, then the pushes. */
  if (r == top->rpc) {
    if (f != r) {
      e[n].pc = f;
      e[n].rpc = r;
      e[n].mask = rest;
      n++;
    }
  } else {
    e[n].pc = r;
    e[n].rpc = top->rpc;
    e[n].mask = top->mask;
    n++;
    if (f != r) {
      e[n].pc = f;
      e[n].rpc = r;
      e[n].mask = rest;
      n++;
    }
  }
  if (t != r) {
    e[n].pc = t;
    e[n].rpc = r;
    e[n].mask = exec;
    n++;
  }
  for (k = 0; k < n; k++) {
    stack[cw][d + k].pc = e[k].pc;
    stack[cw][d + k].rpc = e[k].rpc;
    stack[cw][d + k].mask = e[k].mask;
  }
  if (n) {
    depth[cw] = d + n;
    *top = stack[cw][d + n - 1];
    return 0;
  }
  /* No entry written: the old top went. */
  depth[cw] = d;
  if (!d) return 1;
  *top = stack[cw][d - 1];
  return 0;
}

/* The stack depth a divergent branch needs (the overflow check at issue). */
static uint32_t bra_overflows(const instr_t* in, const entry_t* top) {
  const uint32_t dtop = depth[cw] - 1;
  const uint32_t imm_lo = in->imm & 0xFFFFu, imm_hi = in->imm >> 16;
  const uint32_t t = top->pc + (((imm_lo & 0x8000u) ? (imm_lo | 0xFFFF0000u) : imm_lo) << 3);
  const uint32_t r = imm_hi == 0 ? PC_NONE : top->pc + (((imm_hi & 0x8000u) ? (imm_hi | 0xFFFF0000u) : imm_hi) << 3);
  const uint32_t f = top->pc + 8;
  const uint32_t same = r == top->rpc;
  uint32_t keep = (same && f == r) ? dtop : dtop + 1;
  uint32_t need = keep + (!same && f != r) + (t != r);
  return need > STACK_DEPTH;
}

/* ---- barriers: any id whose arrivals are complete releases ------------------------ */
static void barrier_scan(void) {
  uint32_t s, w;
  const uint32_t live = used & ~exited;
  const uint32_t nlive = popc(live);
  for (s = 0; s < NUM_WARPS; s++) {
    uint32_t arrived = 0, same = 0, expect;
    if (!((waiting >> s) & 1u) || !((bar_first >> s) & 1u)) continue;
    for (w = 0; w < NUM_WARPS; w++)
      if (((waiting >> w) & 1u) && bar_id[w] == bar_id[s]) {
        same |= 1u << w;
        arrived++;
      }
    expect = bar_cnt[s] == 0 ? nlive : (bar_cnt[s] + 31) >> 5;
    if (arrived >= expect) {
      waiting &= ~same;
      hal_event(EV_BAR_RELEASE);
      fwsm_counts.bar_releases++;
    }
  }
}

/* 1 when every live warp waits at a barrier that cannot release (a fault). */
static uint32_t deadlock(void) {
  const uint32_t live = used & ~exited;
  if (live && !(live & ~waiting)) {
    const uint32_t w = lowest_lane(waiting);
    cw = w;
    take_fault(FAULT_BARRIER_DEADLOCK, 0, 0, bar_pc[w]);
    fault.waiting = waiting;
    return 1;
  }
  return 0;
}

/* ---- one warp-instruction of warp cw ----------------------------------------------- */
static void step(void) {
  entry_t top = stack[cw][depth[cw] - 1];
  instr_t in;
  uint32_t exec, p2 = 0xFFFFFFFFu, p2_idx = ISA_PRED_TRUE, p2_neg = 0, g;
  uint32_t lo, hi, next = 1;

  status(1);
  if (hal_watchdog_expired()) return take_fault(FAULT_WATCHDOG, lowest_lane(top.mask), 0, top.pc);
  if ((top.pc & 7u) || top.pc < L.code_base || (uint64_t)top.pc + 8 > (uint64_t)L.code_base + L.code_size) {
    hal_issue_fault(cw, top.pc, top.mask);
    return take_fault(FAULT_INVALID_PC, lowest_lane(top.mask), 0, top.pc);
  }
  if ((top.pc & ~(uint32_t)(FWSM_LINE_BYTES - 1)) != fetch_line_addr) {
    uint32_t err;
    mem_wait(1);
    err = hal_fetch_line(top.pc & ~(uint32_t)(FWSM_LINE_BYTES - 1), fetch_words);
    mem_wait(0);
    fwsm_counts.ifetch_fills++;
    if (err) {
      fetch_line_addr = 1;
      hal_issue_fault(cw, top.pc, top.mask);
      return take_fault(FAULT_FETCH_ERROR, lowest_lane(top.mask), top.pc, top.pc);
    }
    fetch_line_addr = top.pc & ~(uint32_t)(FWSM_LINE_BYTES - 1);
  }
  lo = fetch_words[(top.pc >> 2) & 3u];
  hi = fetch_words[((top.pc >> 2) & 3u) + 1];
  decode(lo, hi, &in);
  if (illegal(&in)) {
    hal_issue_fault(cw, top.pc, top.mask);
    return take_fault(FAULT_ILLEGAL_INSTR, lowest_lane(top.mask), 0, top.pc);
  }
  g = pred_word(cw, in.pg);
#ifdef FWSM_PLANTED_BUG
  exec = top.mask & g; /* the self-test's build: the guard's negation forgotten (tests/rtl_sm must fail) */
#else
  exec = top.mask & (in.pg_neg ? ~g : g);
#endif
  if (in.op == OP_ISETP || in.op == OP_FSETP) {
    p2_idx = in.rd >> 3;
    p2_neg = (in.mod >> 6) & 1u;
  } else if (in.op == OP_SEL) {
    p2_idx = in.mod & 7u;
    p2_neg = (in.mod >> 3) & 1u;
  } else if (in.op == OP_VOTE) {
    p2_idx = in.ra & 7u;
    p2_neg = (in.ra >> 3) & 1u;
  }
  p2 = pred_word(cw, p2_idx);
  if (p2_neg) p2 = ~p2;

  /* Faults at issue. */
  if (in.op == OP_TRAP && exec) {
    hal_issue_fault(cw, top.pc, top.mask);
    return take_fault(FAULT_TRAP, lowest_lane(exec), 0, top.pc);
  }
  if (in.op == OP_BRA && (top.mask & ~exec) && exec && bra_overflows(&in, &top)) {
    hal_issue_fault(cw, top.pc, top.mask);
    return take_fault(FAULT_STACK_OVERFLOW, lowest_lane(top.mask), 0, top.pc);
  }
  {
    const uint32_t diverge = in.op == OP_BRA && (top.mask & ~exec) && exec;
    hal_issue(cw, top.pc, top.mask, exec, diverge);
    issue(exec, diverge);
  }

  switch (in.op) {
    case OP_TRAP: break;
    case OP_BRA:
      next = 0;
      if (exec_bra(&in, &top, exec)) {
        exited |= 1u << cw;
        status(0);
        return;
      }
      break;
    case OP_EXIT:
      /* The lanes leave every entry below the top too. */
      if (exec) {
        uint32_t k;
        for (k = 0; k + 1 < depth[cw]; k++) stack[cw][k].mask &= ~exec;
      }
      top.mask &= ~exec;
      next = top.mask != 0;
      break;
    case OP_BAR:
      if (exec) {
        uint32_t w, seen = 0;
        for (w = 0; w < NUM_WARPS; w++)
          if (((waiting >> w) & 1u) && bar_id[w] == (in.imm & 15u)) seen = 1;
        bar_pc[cw] = top.pc;
        waiting |= 1u << cw;
        bar_id[cw] = in.imm & 15u;
        bar_cnt[cw] = in.imm >> 16;
        if (seen) bar_first &= ~(1u << cw);
        else bar_first |= 1u << cw;
      }
      break;
    default: {
      const uint32_t is_vote = in.op == OP_VOTE, ballot = is_vote && (in.mod & 3u) == VOTE_BALLOT;
      const uint32_t wr = ((isa_op_info[in.op] & F_WRD) || ballot) && in.rd != ISA_REG_ZERO;
      if (in.op == OP_NOP || !exec) break;
      if (is_vote && !ballot) {
        const uint32_t yes = exec & p2;
        const uint32_t r = (in.mod & 3u) == VOTE_ANY ? yes != 0 : yes == exec;
        const uint32_t pd = in.rd & 7u;
        if (pd != ISA_PRED_TRUE) {
          pred[cw][pd] = (pred[cw][pd] & ~exec) | ((r ? 0xFFFFFFFFu : 0) & exec);
          hal_pred_write(cw, pd, exec, r ? 0xFFFFFFFFu : 0);
        }
      } else if (in.op == OP_SHFL) {
        uint32_t src[32], l;
        const uint32_t fill = wr && !((reg_written[cw] >> in.rd) & 1u);
        for (l = 0; l < 32; l++)
          if ((exec >> l) & 1u) {
            const uint32_t b = in.bimm ? in.imm : reg_read(cw, in.rb, l);
            src[l] = reg_read(cw, in.ra, shfl_src(in.mod & 31u, l, b) & 31u);
          }
        for (l = 0; l < 32; l++) {
          if ((exec >> l) & 1u) {
            if (wr) hal_rf_write(cw, in.rd, l, src[l], 1);
          } else if (fill) {
            hal_rf_write(cw, in.rd, l, 0, 0);
          }
        }
        if (wr) reg_written[cw] |= 1u << in.rd;
      } else if (in.op == OP_POPC || in.op == OP_CLZ || ISA_INFO_UNIT(isa_op_info[in.op]) == UNIT_FPU) {
        exec_lanes(&in, exec, p2, wr);
      } else if (isa_op_info[in.op] & F_MEM) {
        exec_mem(&in, &top, exec);
        if (faulted) return;
      } else {
        /* The lane engine: ALU, S2R, SEL, ISETP, VOTE.BALLOT. */
        fw_lane_op_t op;
        uint32_t bits;
        lane_op_init(&op, &in, exec, wr);
        op.bimm = in.bimm || ballot;
        op.imm = ballot ? (exec & p2) : in.imm;
        op.sel = p2;
        if (in.op == OP_S2R && s2r_uniform(in.mod, &op.imm)) {
          op.op = OP_MOV; /* the same value in every lane: a MOV of it */
          op.bimm = 1;
        }
        bits = hal_lane_alu(&op);
        if (in.op == OP_ISETP) {
          const uint32_t pd = in.rd & 7u;
          if (pd != ISA_PRED_TRUE) {
            pred[cw][pd] = (pred[cw][pd] & ~exec) | (bits & exec);
            hal_pred_write(cw, pd, exec, bits);
          }
        }
        if (wr) reg_written[cw] |= 1u << in.rd;
      }
      break;
    }
  }
  if (next) top.pc += 8;

  /* The top written back; finished entries popped. */
  for (;;) {
    if (top.mask != 0 && top.pc != top.rpc) {
      stack[cw][depth[cw] - 1] = top;
      break;
    }
    depth[cw]--;
    if (depth[cw] == 0) {
      exited |= 1u << cw;
      break;
    }
    top = stack[cw][depth[cw] - 1];
  }
  status(0);
}

static void run_grid(void) {
  cta[0] = cta[1] = cta[2] = 0;
  for (;;) {
    cta_start();
    for (;;) {
      const uint32_t runnable = used & ~exited & ~waiting;
      uint32_t k, pick = cw, ok = 0;
      for (k = 1; k <= NUM_WARPS; k++)
        if ((runnable >> ((cw + k) % NUM_WARPS)) & 1u) {
          pick = (cw + k) % NUM_WARPS;
          ok = 1;
          break;
        }
      if (!ok) break;
      cw = pick;
      if (hal_service()) {
        aborted = 1;
        return;
      }
      step();
      if (faulted) return;
      if (waiting) {
        barrier_scan();
        status(0);
      }
      if (deadlock()) return;
    }
    used = 0;
    status(0);
    hal_event(EV_CTA_RETIRE);
    fwsm_counts.ctas_done++;
    if (++cta[0] == L.grid[0]) {
      cta[0] = 0;
      if (++cta[1] == L.grid[1]) {
        cta[1] = 0;
        if (++cta[2] == L.grid[2]) return;
      }
    }
  }
}

uint32_t fwsm_run(const fw_launch_t* l, fw_fault_t* f) {
  uint32_t k;
  L = *l;
  for (k = 0; k < sizeof fwsm_counts / sizeof(uint64_t); k++) ((uint64_t*)&fwsm_counts)[k] = 0;
  cnt_t0 = bg_t = hal_now();
  bg_used = bg_exited = bg_waiting = 0;
  cnt_in_instr = cnt_issued = 0;
  fetch_line_addr = 1;
  faulted = 0;
  aborted = 0;
  fault.kind = FAULT_NONE;
  used = exited = waiting = 0;
  if (launch_bad()) {
    *f = fault;
    return FWSM_REFUSED;
  }
  hal_launch(&L);
  threads = L.block[0] * L.block[1] * L.block[2];
  nw = (threads + 31) >> 5;
  run_grid();
  counts_finish();
  if (aborted) {
    used = exited = waiting = 0;
    status(0);
  }
  if (!faulted) {
    fault.kind = FAULT_NONE;
    fault.cta[0] = fault.cta[1] = fault.cta[2] = 0;
    fault.warp = fault.lane = fault.pc = fault.addr = fault.waiting = 0;
  }
  *f = fault;
  return aborted ? FWSM_ABORTED : FWSM_RAN;
}
