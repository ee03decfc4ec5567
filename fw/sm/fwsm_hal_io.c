/* fw/sm/fwsm_hal.h on the board: each call is a few loads and stores to the
   I/O registers of contract/msm_io.def (rtl/msm/baresm_msm_io.sv). */
#include "fw/include/baresm_isa.h"
#include "fw/sm/fwsm_hal.h"

#define MSM_IO_BASE 0x10000u

enum {
#define MSM_IO(name, offset, access, desc) IO_##name = MSM_IO_BASE + (offset),
#include "contract/msm_io.def"
#undef MSM_IO
};

#define REG(a) (*(volatile uint32_t*)(uintptr_t)(a))

/* The launch record's fields (contract/launch.def): offsets from the table. */
enum {
#define BSM_LAUNCH_FIELD(name, bits, count, desc) LF_##name,
#include "contract/launch.def"
#undef BSM_LAUNCH_FIELD
  LF_COUNT
};
static const uint8_t lf_bits[LF_COUNT] = {
#define BSM_LAUNCH_FIELD(name, bits, count, desc) bits,
#include "contract/launch.def"
#undef BSM_LAUNCH_FIELD
};
static const uint8_t lf_count[LF_COUNT] = {
#define BSM_LAUNCH_FIELD(name, bits, count, desc) count,
#include "contract/launch.def"
#undef BSM_LAUNCH_FIELD
};

/* Bits [lsb, lsb + 32) of the held record. */
static uint32_t record_word(uint32_t lsb) {
  const uint32_t w = lsb >> 5, s = lsb & 31u;
  uint32_t v = REG(IO_LAUNCH_WORD + 4 * w) >> s;
  if (s) v |= REG(IO_LAUNCH_WORD + 4 * (w + 1)) << (32 - s);
  return v;
}

/* The record's fields in table order, one pass: value k of field f at
   vals[first[f] + k], a 64-bit field as two values. */
enum { LV_COUNT = 2 + 2 * 8 + 17 };
static uint32_t lv[LV_COUNT];
static uint8_t lv_first[LF_COUNT];

void hal_wait_launch(fw_launch_t* l) {
  uint32_t f, k, lsb = 0, n = 0;
  while (!(REG(IO_LAUNCH_OFFERED) & 1u)) {
  }
  REG(IO_LAUNCH_ACCEPT) = 1;
  for (f = 0; f < LF_COUNT; f++) {
    const uint32_t bits = lf_bits[f];
    lv_first[f] = (uint8_t)n;
    for (k = 0; k < lf_count[f]; k++) {
      lv[n++] = bits >= 32 ? record_word(lsb) : record_word(lsb) & ((1u << bits) - 1);
      if (bits == 64) lv[n++] = record_word(lsb + 32);
      lsb += bits;
    }
  }
  l->entry = lv[lv_first[LF_ENTRY_PC]];
  l->code_base = lv[lv_first[LF_CODE_BASE]];
  l->code_size = lv[lv_first[LF_CODE_SIZE]];
  l->grid[0] = lv[lv_first[LF_GRID_X]];
  l->grid[1] = lv[lv_first[LF_GRID_Y]];
  l->grid[2] = lv[lv_first[LF_GRID_Z]];
  l->block[0] = lv[lv_first[LF_BLOCK_X]];
  l->block[1] = lv[lv_first[LF_BLOCK_Y]];
  l->block[2] = lv[lv_first[LF_BLOCK_Z]];
  l->regs = lv[lv_first[LF_REGS]];
  l->smid = lv[lv_first[LF_SMID]];
  l->param_addr = lv[lv_first[LF_PARAM_ADDR]];
  l->param_size = lv[lv_first[LF_PARAM_SIZE]];
  l->shared = lv[lv_first[LF_SHARED]];
  for (k = 0; k < 8; k++) {
    l->win_base[k] = lv[lv_first[LF_WIN_BASE] + k];
    l->win_size[k] = lv[lv_first[LF_WIN_SIZE] + k];
  }
  l->watchdog = (uint64_t)lv[lv_first[LF_WATCHDOG] + 1] << 32 | lv[lv_first[LF_WATCHDOG]];
  l->prot_base = lv[lv_first[LF_PROT_BASE]];
  l->prot_size = lv[lv_first[LF_PROT_SIZE]];
}

void hal_done(uint32_t cfg_error, const fw_fault_t* f) {
  REG(IO_FAULT_KIND) = f->kind;
  REG(IO_FAULT_CTA_X) = f->cta[0];
  REG(IO_FAULT_CTA_Y) = f->cta[1];
  REG(IO_FAULT_CTA_Z) = f->cta[2];
  REG(IO_FAULT_WARP) = f->warp;
  REG(IO_FAULT_LANE) = f->lane;
  REG(IO_FAULT_PC) = f->pc;
  REG(IO_FAULT_ADDR) = f->addr;
  REG(IO_FAULT_WAITING) = f->waiting;
  REG(IO_LAUNCH_DONE) = cfg_error;
}

uint32_t hal_watchdog_expired(void) { return REG(IO_WATCHDOG) & 1u; }

uint32_t hal_fetch_line(uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]) {
  uint32_t s;
  REG(IO_MEM_FETCH) = line_addr;
  do s = REG(IO_MEM_STATUS);
  while (s & 1u);
  if (s & 2u) return 1;
  words[0] = REG(IO_MEM_DATA0);
  words[1] = REG(IO_MEM_DATA1);
  words[2] = REG(IO_MEM_DATA2);
  words[3] = REG(IO_MEM_DATA3);
  return 0;
}

/* Register-file index: {warp, register, lane} of the board's SM (4 warps, 16 registers). */
static uint32_t rf_index(uint32_t w, uint32_t r, uint32_t lane) { return (w << 9) | (r << 5) | lane; }

uint32_t hal_rf_read(uint32_t w, uint32_t r, uint32_t lane) { return REG(IO_RF + 4 * rf_index(w, r, lane)); }

void hal_rf_write(uint32_t w, uint32_t r, uint32_t lane, uint32_t v, uint32_t traced) {
  REG((traced ? IO_RF_TRACED : IO_RF) + 4 * rf_index(w, r, lane)) = v;
}

static void lane_op_out(const fw_lane_op_t* op) {
  REG(IO_LANE_OP) = op->op | op->mod << 7 | op->warp << 15 | op->bimm << 20 | op->zero_a << 21 | op->zero_b << 22 |
                    op->zero_c << 23 | op->write_rd << 24 | op->zero_fill << 25;
  REG(IO_LANE_REGS) = op->ra | op->rb << 6 | op->rc << 12 | op->rd << 18;
  REG(IO_LANE_IMM) = op->imm;
  REG(IO_LANE_EXEC) = op->exec;
  REG(IO_LANE_SEL) = op->sel;
  if (op->op == OP_S2R) { /* the other loops do not look at the thread id */
    REG(IO_LANE_TID_XY) = op->tid[0] | op->tid[1] << 16;
    REG(IO_LANE_TID_Z) = op->tid[2];
  }
}

uint32_t hal_lane_alu(const fw_lane_op_t* op) {
  lane_op_out(op);
  REG(IO_LANE_START) = 1;
  while (REG(IO_LANE_STATUS) & 1u) {
  }
  return REG(IO_LANE_BITS);
}

uint32_t hal_lane_mem(const fw_lane_op_t* op, uint32_t* kind, uint32_t* lane, uint32_t* addr) {
  uint32_t f;
  lane_op_out(op);
  REG(IO_LANE_MEM_START) = 1;
  while (REG(IO_LANE_STATUS) & 1u) {
  }
  f = REG(IO_LANE_FAULT);
  if (!(f & 1u)) return 0;
  *kind = (f >> 4) & 15u;
  *lane = (f >> 8) & 31u;
  *addr = REG(IO_LANE_FAULT_ADDR);
  return 1;
}

void hal_smem_clear(uint32_t words) {
  REG(IO_SMEM_CLEAR) = words;
  while (REG(IO_LANE_STATUS) & 1u) {
  }
}

void hal_warps(uint32_t used, uint32_t exited, uint32_t waiting, uint32_t cur, uint32_t in_instr) {
  REG(IO_WARPS) = used | exited << 8 | waiting << 16 | cur << 24 | in_instr << 29;
}

void hal_cta(const uint32_t cta[3]) {
  REG(IO_CTA_X) = cta[0];
  REG(IO_CTA_Y) = cta[1];
  REG(IO_CTA_Z) = cta[2];
}

void hal_issue(uint32_t warp, uint32_t pc, uint32_t tmask, uint32_t exec, uint32_t diverge) {
  REG(IO_ISSUE_PC) = pc;
  REG(IO_ISSUE_TMASK) = tmask;
  REG(IO_ISSUE_EXEC) = exec;
  REG(IO_ISSUE) = warp | diverge << 9;
}

void hal_issue_fault(uint32_t warp, uint32_t pc, uint32_t tmask) {
  REG(IO_ISSUE_PC) = pc;
  REG(IO_ISSUE_TMASK) = tmask;
  REG(IO_ISSUE_EXEC) = 0;
  REG(IO_ISSUE) = warp | 1u << 8;
}

void hal_pred_write(uint32_t warp, uint32_t pd, uint32_t mask, uint32_t bits) {
  REG(IO_PW_MASK) = mask;
  REG(IO_PW_BITS) = bits;
  REG(IO_PW) = warp | pd << 8;
}

void hal_event(uint32_t ev) { REG(IO_EVENT) = ev; }

int main(void) {
  fwsm_main();
  return 0;
}
