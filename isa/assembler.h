// Assembler: kernel source (docs/isa.md, "Assembly syntax") -> Module.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "isa/module.h"

namespace baresm::isa {

// Text for a message: bytes that are not printable ASCII as \xNN; quote()
// puts it in single quotes.
std::string printable(std::string_view s);
std::string quote(std::string_view s);

struct Diagnostic {
  std::string file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based
  std::string message;
  std::string source_line;
  // "file:line:col: error: message\n<source line>\n<caret>"
  std::string format() const;
};

struct AsmResult {
  bool ok() const { return diagnostics.empty(); }
  Module module;
  std::vector<Diagnostic> diagnostics;  // every error in the file, in order
  std::string format_errors() const;
};

// Besides the errors of each line, a source is rejected as a whole (a
// diagnostic with line 0) when it defines no kernel, when its module would
// exceed kMaxModuleBytes (what the loader accepts), or when filename, which
// the module records, contains a control character.
AsmResult assemble(std::string_view source, std::string_view filename);
// Reads path (at most kMaxSourceBytes; a directory is an error) and assembles it.
constexpr uint64_t kMaxSourceBytes = 256u << 20;
AsmResult assemble_file(const std::string& path);

// Every directive the assembler reads (".kernel", ".regs", ...): the one list,
// which the assembler checks a directive against before it parses it (so a
// name missing here is rejected as unknown) and the fuzzing dictionary is
// generated from (tests/fuzz/gen_dict.cpp).
const std::vector<std::string>& directive_names();

}  // namespace baresm::isa
