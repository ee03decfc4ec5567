// Disassembler: Module -> source text that assembles back to a byte-identical module.
#pragma once

#include <string>
#include <vector>

#include "isa/isa.h"
#include "isa/module.h"

namespace baresm::isa {

// One instruction as assembly text, e.g. "@!P1 BRA L_0040;". pc is the byte
// offset of the instruction, used to resolve branch targets to labels.
std::string disassemble_instr(const Instr& in, uint32_t pc);

struct DisasmOptions {
  // Emit `.loc line, col` wherever the line table differs from where the text
  // itself puts an instruction, so the text reassembles byte-identically.
  // Off: a plain listing for people.
  bool line_info = true;
  // Plain listings only: the lines of the source the module was built from
  // (a .s or, for a module from the PTX front end, the .ptx). Each
  // instruction's comment then ends with its line: "| 42: add.s32 ...".
  const std::vector<std::string>* source_lines = nullptr;
  // With source_lines, per source line (1-based, like them): a further
  // origin shown after it, "saxpy.cu:7: y[i] = ..." (the CUDA line of a PTX
  // line, ptx_source_locations); empty where there is none.
  const std::vector<std::string>* origin_lines = nullptr;
};

std::string disassemble(const Module& m);
std::string disassemble(const Module& m, const DisasmOptions& opts);

}  // namespace baresm::isa
