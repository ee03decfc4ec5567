/* The SM alone on the board (rtl/msm/baresm_msm.sv): the launch port's half
   of fw/sm/fwsm_hal.h, through the launch block's I/O registers
   (contract/msm_io.def 0x200-0x2FF, rtl/msm/baresm_msm_launch_io.sv). */
#include "fw/sm/fwsm_hal.h"
#include "fw/sm/msm_io.h"

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


/* The SM alone has no other work between warp-instructions. */
uint32_t hal_service(void) { return 0; }

int main(void) {
  fwsm_main();
  return 0;
}
