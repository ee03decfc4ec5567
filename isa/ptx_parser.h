// PTX parser: tokens (ptx_lexer) to the AST (ptx_ast.h). Accepts the module
// directives nvcc writes (.version, .target, .address_size, .file), kernels
// (.entry, optionally .visible/.weak) with their .param lists, and in a body
// .reg, .shared, .loc, labels and instructions. Other directives are errors
// naming the directive; every error in the file is reported (after one, the
// parser skips to the end of that statement).
#pragma once

#include <string_view>

#include "isa/ptx_ast.h"
#include "isa/ptx_diag.h"

namespace baresm::isa::ptx {

File parse(std::string_view source, DiagSink* diags);

}  // namespace baresm::isa::ptx
