// Where the PTX front end's stages report errors: file:line:col diagnostics
// in the assembler's format (isa::Diagnostic), with the PTX source line and a
// caret. Every stage reports every error it finds, in source order per stage.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "isa/assembler.h"
#include "isa/ptx_ast.h"

namespace baresm::isa::ptx {

class DiagSink {
 public:
  DiagSink(std::string_view source, std::string file);
  void error(Pos p, const std::string& msg);
  // An error of the file as a whole (line 0).
  void file_error(const std::string& msg);
  bool any() const { return !diags.empty(); }
  const std::string& file() const { return file_; }
  std::vector<Diagnostic> diags;

 private:
  std::vector<std::string> lines_;
  std::string file_;
};

}  // namespace baresm::isa::ptx
