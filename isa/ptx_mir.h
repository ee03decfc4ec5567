// The machine IR between the PTX lowering and the emitter: baresm
// instructions (mnemonic text as the assembler spells it) whose register
// operands are still virtual. ptx_lower produces it, ptx_regalloc maps the
// virtual registers onto R0..R62 / P0..P6, ptx_emit prints it for the
// assembler. Each instruction keeps the PTX position it came from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/ptx_ast.h"

namespace baresm::isa::ptx {

struct MOperand {
  enum Kind {
    VREG,   // a 32-bit virtual register (vreg)
    VPRED,  // a virtual predicate (vreg), negated with neg
    RZ,     // the zero register
    PT,     // the true predicate (negated with neg)
    IMM,    // 32-bit immediate (bits)
    LABEL,  // branch target: index into MKernel::labels
    SREG,   // special register name as the assembler spells it: "SR_TID.X"
    MEM,    // [vreg + imm] (vreg -1: [imm])
  };
  Kind kind = RZ;
  int vreg = -1;
  bool neg = false;
  bool def = false;  // the instruction writes this operand
  uint32_t imm = 0;  // IMM bits, MEM offset (two's complement), LABEL index
  std::string sreg;  // SREG

  static MOperand v(int r, bool d = false) {
    MOperand o;
    o.kind = VREG;
    o.vreg = r;
    o.def = d;
    return o;
  }
  static MOperand p(int r, bool d = false, bool n = false) {
    MOperand o;
    o.kind = VPRED;
    o.vreg = r;
    o.def = d;
    o.neg = n;
    return o;
  }
  static MOperand i(uint32_t bits) {
    MOperand o;
    o.kind = IMM;
    o.imm = bits;
    return o;
  }
  static MOperand mem(int base, int32_t off) {
    MOperand o;
    o.kind = MEM;
    o.vreg = base;
    o.imm = uint32_t(off);
    return o;
  }
  static MOperand rz() { return MOperand(); }
  static MOperand pt(bool n = false) {
    MOperand o;
    o.kind = PT;
    o.neg = n;
    return o;
  }
};

struct MInstr {
  std::string mnem;  // "ISETP.GE.U32"; empty: a label definition (label)
  int label = -1;    // label definition: index into MKernel::labels
  int guard = -1;    // virtual predicate, -1 = PT
  bool guard_neg = false;
  std::vector<MOperand> ops;
  Pos pos;  // the PTX instruction it came from
  // The frame prologue's IMUL by the warp's frame size (32 x local bytes per
  // thread): its immediate is set once spilling has fixed the frame size.
  bool frame_scale = false;
  bool is_branch() const { return mnem == "BRA"; }
  bool is_exit() const { return mnem == "EXIT" || mnem == "TRAP"; }
};

struct MVreg {
  bool pred = false;
  std::string name;  // the PTX register, or "" for a temporary of the lowering
  // Never spilled: the frame pointer, and the short-lived temporaries that
  // carry a spilled value to or from its slot (spilling those gains nothing).
  bool no_spill = false;
};

struct MParam {
  std::string name;
  uint32_t size = 0, align = 0, offset = 0;
};

struct MKernel {
  std::string name;
  Pos pos;
  std::vector<MParam> params;
  uint32_t param_bytes = 0;
  uint32_t shared_bytes = 0;
  std::vector<MVreg> vregs;
  std::vector<std::string> labels;  // PTX label names, by index
  std::vector<MInstr> code;
  int ptx_instructions = 0;  // PTX instructions translated
  // Local memory (docs/ptx.md "Local memory"): the .local variables take
  // bytes [0, local_var_bytes) of each thread's frame, spill slots (4 bytes
  // each) follow. `frame` is the vreg holding the thread's frame address
  // (-1 while nothing uses local memory); frame_prologue says whether the
  // code computing it has been placed at the entry.
  uint32_t local_var_bytes = 0;
  int spill_slots = 0;
  int frame = -1;
  bool frame_prologue = false;
  uint32_t local_bytes() const { return (local_var_bytes + 3) / 4 * 4 + 4 * uint32_t(spill_slots); }
};

}  // namespace baresm::isa::ptx
