/* The FPU instructions for the SM's control (fw/sm/fwsm.c): the board has no
   FPU in hardware (it would not fit the UP5K beside the lane engine), so the
   firmware computes each lane's result with the functional model's own
   binary32 code (isa/fp32.cpp, integer arithmetic, built for rv32i here):
   the same bits as the model by construction, one source for both. */
#include "fw/sm/fwsm_fpu.h"

#include "fw/include/baresm_isa.h"
#include "isa/fp32.h"

namespace fp32 = baresm::fp32;

extern "C" uint32_t fwsm_fpu(uint32_t op, uint32_t mod, uint32_t a, uint32_t b, uint32_t c) {
  const bool uns = mod & 1u;
  switch (op) {
    case OP_FADD: return fp32::add(a, b);
    case OP_FSUB: return fp32::sub(a, b);
    case OP_FMUL: return fp32::mul(a, b);
    case OP_FFMA: return fp32::fma(a, b, c);
    case OP_FMIN: return fp32::min(a, b);
    case OP_FMAX: return fp32::max(a, b);
    case OP_FNEG: return fp32::neg(a);
    case OP_FABS: return fp32::abs(a);
    case OP_I2F: return uns ? fp32::from_u32(a) : fp32::from_i32(int32_t(a));
    case OP_F2I: return uns ? fp32::to_u32(a) : uint32_t(fp32::to_i32(a));
    case OP_FSETP: return fp32::compare(uint8_t(mod & 15u), a, b);
    default: return 0;
  }
}
