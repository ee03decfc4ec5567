// libFuzzer target: the disassembler on loaded modules. The input is mostly
// instruction words (fuzz_disasm_input.h); the module built from it is laid
// out as the assembler lays one out, written, and loaded (the loader must
// accept it). Then every word goes through the instruction-level
// disassembler, and the module through the whole-module one, whose text must
// reassemble to the same bytes (words the syntax cannot express come out as
// .word) unless a kernel can fall through past its end, the one warning it may
// give (the assembler refuses such code).
#include <cstddef>
#include <cstdint>

#include "isa/isa.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_disasm_input.h"

using namespace baresm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::Module built = fuzz::module_from_input(data, size);
  if (built.kernels.empty()) return 0;
  const std::vector<uint8_t> image = isa::write_module(built);
  const isa::LoadResult l = isa::read_module(image.data(), image.size());
  FUZZ_CHECK(l.status == isa::LoadStatus::OK, "the loader rejects an assembler-shaped module: " + l.message);
  for (size_t i = 0; i < l.module.code.size(); ++i)
    if (auto in = isa::decode(l.module.code[i])) {
      const std::string text = isa::disassemble_instr(*in, uint32_t(i * isa::kInstrBytes));
      FUZZ_CHECK(!text.empty() && text.find('\n') == std::string::npos, text);
    }
  // The one thing the disassembler may warn about here is code the assembler
  // would refuse: a kernel that can run past its last instruction.
  std::string text;
  const bool exact = fuzz::check_round_trip(l.module, &text);
  const std::vector<std::string> warnings = fuzz::warnings(text);
  for (const std::string& w : warnings)
    FUZZ_CHECK(w == "this kernel can fall through past its last instruction",
               "the disassembler warns about an assembler-shaped module: " + w + "\n" + text);
  FUZZ_CHECK(exact == warnings.empty());
  return 0;
}
