// Writes the assembler's libFuzzer dictionary from the opcode table
// (contract/opcodes.def through isa/isa.h) and the assembler's directive list, at
// build time, so nothing in it is typed twice: every mnemonic with every
// suffix combination the decoder accepts, each suffix alone, the registers,
// predicates and special registers, the directives, and the punctuation of
// the operand syntax.
// Usage: gen_dict OUT.dict
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "isa/assembler.h"
#include "isa/isa.h"
#include "tests/fuzz/dict_writer.h"

using namespace baresm::isa;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_dict OUT.dict\n");
    return 2;
  }
  std::set<std::string> words;
  // Mnemonics: every mod value the decoder accepts for each opcode, as text.
  for (const OpInfo& op : all_ops()) {
    for (unsigned mod = 0; mod < 256; ++mod) {
      uint64_t w = uint64_t(op.code) | uint64_t(mod) << 24;
      if (op.flags & F_BIMM_ALWAYS) w |= 1u << 7;
      auto in = decode(w);
      if (!in) continue;
      const std::string mn = mnemonic_text(*in);
      words.insert(mn);
      for (size_t dot = mn.find('.'); dot != std::string::npos; dot = mn.find('.', dot + 1))
        words.insert(mn.substr(dot, mn.find('.', dot + 1) - dot));
    }
  }
  for (int r = 0; r < kNumRegFields; ++r)
    words.insert(r == kRegZero ? std::string("RZ") : "R" + std::to_string(r));
  for (int p = 0; p < kNumPreds; ++p)
    words.insert(p == kPredTrue ? std::string("PT") : "P" + std::to_string(p));
  for (uint8_t s = 0; s < SR_COUNT; ++s) words.insert(sreg_name(s));
  for (const std::string& d : directive_names()) words.insert(d);
  // Operand syntax (docs/isa.md, "Assembly syntax").
  for (const char* s :
       {"@",  "@!",         "!",          "[",           "]",      " + ",     " - ",
        ", ", ";",          ":",          "PARAM(",      ")",      "//",      "#",
        "0x", "-",          "1.5e-3",     "inf",         "-inf",   "\n",      "\r\n",
        "\t", "0xFFFFFFFF", "2147483648", "-2147483648", "524287", "-524288", "18446744073709551615"})
    words.insert(s);
  return baresm::fuzz::write_dict("gen_dict", argv[1], "contract/opcodes.def and the assembler's directives",
                                  words);
}
