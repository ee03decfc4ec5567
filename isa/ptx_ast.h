// The parsed form of a PTX file (what ptx_parser produces, ptx_lower reads):
// kernels with their parameters, register declarations, shared arrays and
// body statements, each carrying its PTX line and column for diagnostics.
// Instructions are kept generic (opcode + dot-suffixes + operands) so that
// the parser accepts any well-formed statement and the lowering decides what
// is supported, naming the instruction when it is not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace baresm::isa::ptx {

// The register that holds the call stack pointer of recursive device
// functions (ptx_inline.cpp writes it, ptx_lower.cpp addresses through it:
// docs/ptx.md "Recursion").
inline constexpr const char* kCallStackReg = "%__sp";

struct Pos {
  int line = 0, col = 0;  // 1-based
};

struct Operand {
  enum Kind {
    REG,     // %r1, %rd2, %p3 (a declared virtual register) or a special register %tid.x
    IMM,     // integer literal (value) or 0f/0F float literal (is_float, bits)
    SYMBOL,  // a name: a parameter, a shared array, a label
    ADDR,    // [base + offset]: base is a REG or SYMBOL name, or empty for [imm]
    VEC,     // {a, b, c, d}: the registers (or immediates, or the sink _) of a .v2/.v4 access
  };
  Kind kind = IMM;
  std::string name;          // REG / SYMBOL / ADDR base
  bool base_is_reg = false;  // ADDR
  int64_t value = 0;         // IMM value or ADDR offset
  bool is_float = false;     // IMM: 0f literal
  bool is_double = false;    // IMM: 0d literal (not supported by any lowering yet)
  uint32_t bits = 0;         // IMM with is_float
  bool negated = false;      // !%p as a source predicate
  Pos pos;
  std::vector<Operand> elems;  // VEC
};

struct Instruction {
  Pos pos;            // of the opcode
  std::string guard;  // "" = none
  bool guard_neg = false;
  std::string opcode;             // "add"
  std::vector<std::string> mods;  // {"s32"} for add.s32, without dots
  std::string full;               // "add.s32": for messages
  std::vector<Operand> ops;       // every operand in order; a|b destinations as two
  int pipe_dst = 0;               // 1 when the first operand was written p|q
  // call [(rets)], callee, (args)[, prototype]: ops[0] is the callee (a
  // SYMBOL, or a REG for an indirect call); the return and argument lists
  // name .param variables of the caller's call sequence.
  std::vector<Operand> call_rets, call_args;
  bool call_prototype = false;  // a prototype or target list followed: an indirect call
};

struct Param {
  std::string name;
  std::string type;   // "u64", "f32", "b8", ...
  uint32_t size = 0;  // bytes (element size x count)
  uint32_t align = 0;
  Pos pos;
};

struct Statement {
  enum Kind { LABEL, INSTR, PARAM } kind = INSTR;
  std::string label;  // LABEL
  Pos pos;
  Instruction instr;  // INSTR
  Param param;        // PARAM: a .param variable declared in a body (a call sequence's argument or return value)
};

struct RegDecl {
  std::string type;    // "pred", "b32", "f32", "b64", ...
  std::string prefix;  // "%r" for %r<9>, or the full name when count is 0
  int count = 0;       // %r<9> declares %r0..%r8; 0 declares the single name
  Pos pos;
};

struct SharedVar {
  std::string name;
  uint32_t align = 1;
  uint32_t size = 0;  // bytes
  Pos pos;
};

// A kernel (.entry), or a device function (.func: is_func) with its return
// parameters; a .func declared without a body (.extern, a prototype) has
// has_body false.
struct Kernel {
  std::string name;
  Pos pos;
  bool is_func = false;
  bool has_body = true;
  std::vector<Param> rets;  // .func (.param ... func_retval0) name(...)
  std::vector<Param> params;
  std::vector<RegDecl> regs;
  std::vector<SharedVar> shared;
  std::vector<SharedVar> locals;  // .local arrays (nvcc's __local_depot), per thread
  std::vector<Statement> body;
};

// A module-scope variable: `.global`/`.const` data (nvcc's __device__ and
// __constant__ variables, and the placeholder bytes CUDA 13's headers leave),
// `.shared` at module scope, and `.extern .shared name[]`, the kernel's
// dynamic shared memory.
struct ModuleVar {
  std::string space;  // "global", "const", "shared"
  std::string name;
  uint32_t align = 1;
  uint32_t size = 0;       // bytes; 0 for an unsized extern array
  bool is_extern = false;  // .extern: defined elsewhere (dynamic shared memory for .shared)
  bool initialised = false;
  // The initialiser's bytes (little-endian, in declaration order); shorter
  // than size when it lists fewer elements (the rest is zero, as in PTX).
  std::vector<uint8_t> init;
  Pos pos;
};

struct File {
  std::string version, target;
  int address_size = 0;
  std::vector<Kernel> kernels;
  std::vector<Kernel> funcs;  // .func device functions (inlined into the kernels that call them)
  std::vector<ModuleVar> vars;
};

}  // namespace baresm::isa::ptx
