// f32 operations the device has no instruction for, as baresm instruction
// sequences on virtual registers (docs/ptx.md, "f32 division and square
// root"): correctly rounded division, reciprocal and square root built from
// FFMA Newton-Raphson steps and integer exponent handling, and the flush of
// a subnormal to a signed zero (.ftz). Each function appends its
// instructions (unguarded: they cannot fault) and returns the vreg holding
// the result; the caller writes it to the destination under the guard.
#pragma once

#include "isa/ptx_mir.h"

namespace baresm::isa::ptx {

int emit_div_rn(MKernel* m, Pos pos, int a, int b);  // a / b, IEEE round to nearest even
int emit_rcp_rn(MKernel* m, Pos pos, int b);         // 1 / b
int emit_sqrt_rn(MKernel* m, Pos pos, int a);        // sqrt(a)
int emit_ex2(MKernel* m, Pos pos, int x);             // 2^x, within 1 ulp
int emit_lg2(MKernel* m, Pos pos, int x);             // log2(x), within 4 ulp
// x rounded to an integral f32: mode 'n' nearest even, 'z' toward zero,
// 'm' down, 'p' up (cvt.{rni,rzi,rmi,rpi}.f32.f32); exact.
int emit_round(MKernel* m, Pos pos, int x, char mode);
// a + b (op 'a'; sub is a + -b) or a * b (op 'm') rounded toward zero
// ('z'), down ('m') or up ('p'): the round-to-nearest result corrected by
// one ulp from the sign of its exact residual (docs/ptx.md "Directed
// roundings"); exact, IEEE signed zeros and overflow included.
int emit_directed(MKernel* m, Pos pos, char op, int a, int b, char mode);
// fma.{rz,rm,rp}.f32: a b + c rounded toward zero, down or up, exactly: the
// FFMA result corrected by the sign of its exact residual (ErrFma, with the
// tiny and huge products scaled first; docs/ptx.md "Directed roundings").
int emit_fma_directed(MKernel* m, Pos pos, int a, int b, int c, char mode);
// cvt.{rz,rm,rp}.f32.{s32,u32}: the integer x rounded toward zero, down or up.
int emit_cvt_directed(MKernel* m, Pos pos, int x, bool is_signed, char mode);
int emit_ftz(MKernel* m, Pos pos, int x);            // x, or its signed zero when subnormal
int emit_sat(MKernel* m, Pos pos, int x);            // x clamped to [+0, 1], NaN to +0

}  // namespace baresm::isa::ptx
