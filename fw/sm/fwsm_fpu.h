/* The FPU instructions, one lane at a time (fw/sm/fwsm_fpu.cpp). */
#ifndef FWSM_FPU_H
#define FWSM_FPU_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* One lane of FPU instruction op (OP_F*, I2F, F2I) with mod and operands a,
   b, c: its result, or for FSETP its comparison (0 or 1) before the combine. */
uint32_t fwsm_fpu(uint32_t op, uint32_t mod, uint32_t a, uint32_t b, uint32_t c);
#ifdef __cplusplus
}
#endif
#endif
