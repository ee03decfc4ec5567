// Emission for the PTX front end: a lowered kernel with its register
// allocation printed as baresm assembly (docs/isa.md), which the existing
// assembler turns into the module, so encoding, label resolution and the
// reconvergence points (immediate post-dominators) are computed in one place
// for hand-written and translated kernels alike. A `.loc LINE, COL` before
// every instruction makes the module's line table point at the PTX source.
#pragma once

#include <string>

#include "isa/ptx_mir.h"
#include "isa/ptx_regalloc.h"

namespace baresm::isa::ptx {

// The kernel as `.kernel ... .end` text. Fails (returns false with *error)
// only when a name cannot be written in the assembler's syntax.
bool emit_kernel(const MKernel& k, const Allocation& a, std::string* text, std::string* error);

}  // namespace baresm::isa::ptx
