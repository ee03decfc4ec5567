// The PTX front end: PTX as nvcc writes it (docs/ptx.md) -> a .bsm Module.
//
// Stages, one per file: ptx_lexer / ptx_parser (text -> ptx_ast.h),
// ptx_lower (AST -> machine IR with virtual registers, 64-bit addressing
// reduced to 32-bit device addresses), ptx_regalloc (liveness + linear scan
// onto R0..R62 / P0..P6), ptx_emit (baresm assembly) and then the ordinary
// assembler (assembler.h), which encodes, resolves labels and computes the
// reconvergence points.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "isa/assembler.h"
#include "isa/module.h"

namespace baresm::isa {

// What `ptxas -v` says about a kernel, for the translated one.
struct PtxKernelInfo {
  std::string name;
  int regs = 0;             // R registers per thread (the module's .regs)
  int preds = 0;            // predicates used
  int preds_in_regs = 0;    // predicates that did not fit P0..P6, kept as 0/1 in registers
  uint32_t lmem_bytes = 0;   // local memory per thread: .local variables and spill slots
  uint32_t spill_bytes = 0;  // of which spill slots
  uint32_t smem_bytes = 0;  // static shared memory per CTA
  uint32_t param_bytes = 0;
  int ptx_instrs = 0;  // PTX instructions translated
  int instrs = 0;      // baresm instructions emitted
  // "baresm-ptx: kernel vec_add: 9 registers, 1 predicate, 0 bytes lmem, 0 bytes smem, 28 bytes param, ..."
  std::string info_line() const;
};

// A module-scope .global or .const variable of the PTX (CUDA's __device__
// and __constant__ variables; docs/ptx.md "Module-scope variables"). The
// module holds no data: whoever loads it gives each variable device memory
// of `size` bytes (at least `align`-aligned) holding `init` followed by
// zeros, and passes its address to every kernel that references it in the
// hidden 4-byte parameter named kPtxVarParamPrefix + name, after the
// kernel's own parameters.
struct PtxVariable {
  std::string name;
  std::string space;  // "global" or "const"
  uint32_t size = 0;  // bytes
  uint32_t align = 1;
  std::vector<uint8_t> init;  // at most size bytes; the rest is zero
};
inline constexpr const char* kPtxVarParamPrefix = "__baresm_var_";

struct PtxResult {
  bool ok() const { return diagnostics.empty(); }
  Module module;
  std::vector<PtxVariable> variables;  // every .global/.const variable defined in the file
  std::vector<Diagnostic> diagnostics;  // every error, PTX line:column
  std::vector<PtxKernelInfo> kernels;
  std::string assembly;  // the generated assembly (ok() only)
  std::string format_errors() const;
};

PtxResult translate_ptx(std::string_view source, std::string_view filename);
// Reads path (at most kMaxSourceBytes; a directory is an error) and translates it.
PtxResult translate_ptx_file(const std::string& path);

// The names the front end reads, the lists it checks them against (and the
// fuzzing dictionary is generated from, tests/fuzz/gen_ptx_dict.cpp): the
// directives the parser accepts at module level, in a kernel's body and as
// parameter / shared-variable attributes (types aside: ptx_type_names), the
// instructions the lowering dispatches (an opcode not on the list is refused
// before any other check; one on it may still be refused for its modifiers or
// operands), the types and the special registers.
const std::vector<std::string>& ptx_directive_names();
const std::vector<std::string>& ptx_type_names();
const std::vector<std::string>& ptx_opcode_names();
const std::vector<std::string>& ptx_sreg_names();

// The CUDA source position each PTX line is under (nvcc -lineinfo writes
// `.file N "path"` and `.loc N LINE COL`): the last `.loc` at or before the
// line, by 1-based PTX line (index 0 unused); file empty where none is. What
// `baresm dis --plain --source x.ptx` shows beside the PTX line.
struct PtxSourceLoc {
  std::string file;  // as .file names it
  int line = 0;
};
std::vector<PtxSourceLoc> ptx_source_locations(std::string_view ptx);

// True when path ends in ".ptx": `baresm asm` picks the front end by it.
bool is_ptx_path(std::string_view path);

}  // namespace baresm::isa
