// Writes the PTX front end's libFuzzer dictionary from its own name lists
// (isa/ptx.h: ptx_directive_names, ptx_type_names, ptx_opcode_names,
// ptx_sreg_names, the lists it checks names against), at build time, so
// nothing in it is typed twice; plus the punctuation of PTX's syntax.
// Usage: gen_ptx_dict OUT.dict
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "isa/ptx.h"
#include "tests/fuzz/dict_writer.h"

using namespace baresm::isa;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_ptx_dict OUT.dict\n");
    return 2;
  }
  std::set<std::string> words;
  for (const auto* list : {&ptx_directive_names(), &ptx_type_names(), &ptx_opcode_names(), &ptx_sreg_names()})
    for (const std::string& w : *list) words.insert(w);
  for (const std::string& t : ptx_type_names()) words.insert(t.substr(1));
  // Operand and statement syntax (docs/ptx.md).
  for (const char* s : {"%r1",
                        "%rd1",
                        "%p1",
                        "%rs1",
                        "%f1",
                        "%r<10>",
                        "@%p1 ",
                        "@!%p1 ",
                        "$L__BB0_1",
                        "[",
                        "]",
                        "+",
                        "{",
                        "}",
                        "(",
                        ")",
                        ";",
                        ",",
                        ":",
                        "|",
                        "!",
                        "<",
                        ">",
                        "0f3F800000",
                        "0x",
                        "-2147483648",
                        "4294967295",
                        "//",
                        "/*",
                        "*/",
                        "\"nounroll\"",
                        "\n",
                        "\r\n",
                        "\t"})
    words.insert(s);
  return baresm::fuzz::write_dict("gen_ptx_dict", argv[1], "the PTX front end's name lists (isa/ptx.h)",
                                  words);
}
