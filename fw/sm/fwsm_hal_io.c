/* fw/sm/fwsm_hal.h on the board, the part the SM alone and the whole device
   share: each call is a few loads and stores to the I/O registers of
   contract/msm_io.def (rtl/msm/baresm_msm_io.sv). */
#include "fw/include/baresm_isa.h"
#include "fw/sm/fwsm_hal.h"
#include "fw/sm/msm_io.h"

/* The memory loop's ranges (LP_RANGE, contract/msm_io.def): range r is
   [lo, hi) in 33 bits, lo at word 2r and hi at 2r + 1; LP_RANGE_TOP holds
   bit 32 of the next word written. The memory loop compares ends, not sizes
   (one pair of comparators for every range), so each end is base + size
   here. The protected range is written as [end, base): the loop takes it
   as touched when neither comparison holds (none: base = end = 0). */
static void lp_range(uint32_t r, uint32_t lo, uint32_t lo_top, uint32_t hi, uint32_t hi_top) {
  REG(IO_LP_RANGE_TOP) = lo_top;
  REG(IO_LP_RANGE + 8 * r) = lo;
  REG(IO_LP_RANGE_TOP) = hi_top;
  REG(IO_LP_RANGE + 8 * r + 4) = hi;
}

void hal_launch(const fw_launch_t* l) {
  uint32_t k, end;
  const uint32_t pbase = l->prot_size ? l->prot_base : 0;
  lp_range(0, 0, 0, l->shared, 0);
  lp_range(1, 0, 0, l->param_size, 0);
  for (k = 0; k < 8; k++) {
    end = l->win_base[k] + l->win_size[k];
    lp_range(2 + k, l->win_base[k], 0, end, end < l->win_base[k]);
  }
  end = pbase + l->prot_size;
  lp_range(10, end, end < pbase, pbase, 0);
  REG(IO_LP_PARAM_ADDR) = l->param_addr;
  REG(IO_LP_BLOCK_XY) = l->block[0] | l->block[1] << 16;
  REG(IO_LP_REGS) = l->regs;
}

uint32_t hal_now(void) { return REG(IO_NOW_LO); }

/* The memory port: one request, then its answer (bit 1 of MEM_STATUS: an error). */
static uint32_t mem_done(void) {
  uint32_t s;
  do s = REG(IO_MEM_STATUS);
  while (s & 1u);
  return (s >> 1) & 1u;
}

static uint32_t mem_read(uint32_t request_reg, uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]) {
  REG(request_reg) = line_addr;
  if (mem_done()) return 1;
  words[0] = REG(IO_MEM_DATA0);
  words[1] = REG(IO_MEM_DATA1);
  words[2] = REG(IO_MEM_DATA2);
  words[3] = REG(IO_MEM_DATA3);
  return 0;
}

uint32_t hal_fetch_line(uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]) {
  return mem_read(IO_MEM_FETCH, line_addr, words);
}

uint32_t hal_mem_read(uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]) {
  return mem_read(IO_MEM_READ, line_addr, words);
}

uint32_t hal_mem_write(uint32_t line_addr, const uint32_t words[FWSM_LINE_BYTES / 4], uint32_t strb) {
  REG(IO_MEM_DATA0) = words[0];
  REG(IO_MEM_DATA1) = words[1];
  REG(IO_MEM_DATA2) = words[2];
  REG(IO_MEM_DATA3) = words[3];
  REG(IO_MEM_WSTRB) = strb;
  REG(IO_MEM_STORE) = line_addr;
  return mem_done();
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
