// Disassembler: Module -> source text that assembles back to a byte-identical module.
#pragma once

#include <string>

#include "isa/isa.h"
#include "isa/module.h"

namespace baresm::isa {

// One instruction as assembly text, e.g. "@!P1 BRA L_0x40;". pc is the byte
// offset of the instruction, used to resolve branch targets to labels.
std::string disassemble_instr(const Instr& in, uint32_t pc);
std::string disassemble(const Module& m);

}  // namespace baresm::isa
