// PTX lowering: one parsed kernel (ptx_ast.h) to the machine IR (ptx_mir.h)
// with virtual registers, one PTX instruction at a time.
//
// 64-bit values: the device has 32-bit addresses, so every 64-bit PTX
// register (%rd) is kept as its low 32-bit word only. That is exact for the
// operations whose low result word depends only on the operands' low words
// (add, sub, mul.lo, mul.wide, mad.lo, shl, and/or/xor/not, mov, selp, cvt
// to and from 32 bits, cvta.to.global, ld.param of a pointer); an operation
// that would observe a high word (shr, setp, div, st of 64 bits, ...) is an
// error naming the instruction, never a silently wrong translation.
//
// Everything outside the supported set (docs/ptx.md) is an error at the
// instruction's line and column; every unsupported instruction is reported.
#pragma once

#include "isa/ptx_ast.h"
#include "isa/ptx_diag.h"
#include "isa/ptx_mir.h"

namespace baresm::isa::ptx {

// Returns the lowered kernel; errors go to diags (the result is then partial).
// vars are the file's module-scope variables: those the kernel references
// are laid out (.shared) or refused (.global, .const) there; the rest are ignored.
MKernel lower_kernel(const Kernel& k, const std::vector<ModuleVar>& vars, DiagSink* diags);

}  // namespace baresm::isa::ptx
