// Device functions (.func) and calls: every call of a function outside a
// recursive cycle is inlined into the kernel before the lowering
// (docs/ptx.md, "Device functions and calls"). A call site's .param
// variables and the callee's parameters and return values become virtual
// registers (one per value written at a constant offset); the callee's
// registers, labels and .local variables are renamed apart for each call
// site; its ret is a branch to the end of its copy. A call into a recursive
// cycle (a strongly connected component of the call graph) becomes a region
// with each of the cycle's functions once, a per-thread call stack in local
// memory and a dispatch head that every call and return goes through
// (docs/ptx.md, "Recursion"). What cannot be translated exactly is refused
// by name at its PTX line and column: calls of functions without a body
// (vprintf, malloc, __assertfail: .extern), indirect calls, a parameter
// read with another width or offset than it was written, barriers and
// warp-wide instructions inside recursive functions.
#pragma once

#include "isa/ptx_ast.h"
#include "isa/ptx_diag.h"

namespace baresm::isa::ptx {

// The kernel with every call expanded (a kernel without calls is returned
// unchanged); errors go to diags.
Kernel inline_calls(const Kernel& k, const File& file, DiagSink* diags);

}  // namespace baresm::isa::ptx
