// The properties the libFuzzer targets check (tests/fuzz/fuzz_*.cpp). A
// property that does not hold prints what and aborts, which libFuzzer reports
// as a crash and saves the input as an artifact (docs/verification.md,
// "Fuzzing").
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "isa/assembler.h"
#include "isa/disasm.h"
#include "isa/module.h"

namespace baresm::fuzz {

[[noreturn]] inline void fail(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "\n==fuzz== property violated: %s\n%s\n", what, detail.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_CHECK(cond, ...)                                           \
  do {                                                                  \
    if (!(cond)) ::baresm::fuzz::fail(#cond, std::string(__VA_ARGS__)); \
  } while (0)

inline std::vector<std::string_view> split_lines(std::string_view src) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    const size_t nl = src.find('\n', start);
    std::string_view l =
        src.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

// A failed assembly: at least one diagnostic, each with a message, in order,
// at a position inside the source (line 0: about the whole file, first).
inline void check_diagnostics(const isa::AsmResult& r, std::string_view src, std::string_view file) {
  FUZZ_CHECK(!r.diagnostics.empty());
  const std::vector<std::string_view> lines = split_lines(src);
  int prev_line = 0, prev_col = 0;
  for (const isa::Diagnostic& d : r.diagnostics) {
    FUZZ_CHECK(!d.message.empty(), d.format());
    FUZZ_CHECK(d.file == file, d.format());
    FUZZ_CHECK(d.format().find(": error: ") != std::string::npos, d.format());
    if (d.line == 0) {
      FUZZ_CHECK(d.column == 0 && prev_line == 0, d.format());
      continue;
    }
    FUZZ_CHECK(d.line >= 1 && size_t(d.line) <= lines.size(), d.format());
    const std::string_view l = lines[size_t(d.line) - 1];
    FUZZ_CHECK(d.column >= 1 && size_t(d.column) <= l.size() + 1, d.format());
    FUZZ_CHECK(d.source_line == l, d.format());
    FUZZ_CHECK(d.line > prev_line || (d.line == prev_line && d.column >= prev_col),
               "out of order: " + d.format());
    prev_line = d.line;
    prev_col = d.column;
  }
}

// The disassembler's warnings ("// warning: ..." lines): each says why its
// text does not reproduce the module (the text assembles to other bytes, or
// not at all: a kernel that can fall through past its end is refused by the
// assembler). The lines, without the "// warning: " prefix.
inline std::vector<std::string> warnings(const std::string& text) {
  std::vector<std::string> w;
  for (std::string_view l : split_lines(text)) {
    const size_t at = l.find("// warning: ");
    if (at != std::string_view::npos) w.emplace_back(l.substr(at + 12));
  }
  return w;
}

// A loaded (or assembled) module through the disassembler and back. Where the
// disassembler does not warn, its text must assemble to the module's image
// byte for byte; where it warns, the text must still assemble or fail
// cleanly. Either way no name may add a line: one .kernel/.end per kernel.
// Returns whether the round trip was byte-identical; *text_out gets the text.
inline bool check_round_trip(const isa::Module& m, std::string* text_out = nullptr) {
  const std::string text = isa::disassemble(m);
  if (text_out) *text_out = text;
  size_t kernels = 0, ends = 0;
  for (std::string_view l : split_lines(text)) {
    if (l.substr(0, 8) == ".kernel ") ++kernels;
    if (l == ".end") ++ends;
  }
  FUZZ_CHECK(kernels == m.kernels.size() && ends == m.kernels.size(), "a name forged lines:\n" + text);
  // The plain listing (no .loc) must not crash either.
  (void)isa::disassemble(m, isa::DisasmOptions{false});

  const bool exact = warnings(text).empty();
  const isa::AsmResult again = isa::assemble(text, m.source_name);
  if (!again.ok()) {
    FUZZ_CHECK(!exact, "the disassembly has no warning but does not assemble:\n" + again.format_errors() +
                           "\n---- text ----\n" + text);
    check_diagnostics(again, text, m.source_name);
    return false;
  }
  const std::vector<uint8_t> image = isa::write_module(again.module);
  const isa::LoadResult back = isa::read_module(image.data(), image.size());
  FUZZ_CHECK(back.status == isa::LoadStatus::OK, "reassembled module does not load: " + back.message);
  if (!exact) return false;
  FUZZ_CHECK(image == isa::write_module(m),
             "the disassembly has no warning but reassembles to other bytes:\n" + text);
  return true;
}

// A module the loader accepted: its canonical image (write_module) has the
// size module_image_bytes says, loads, and rewrites to the same bytes.
inline void check_canonical(const isa::Module& m) {
  const std::vector<uint8_t> image = isa::write_module(m);
  FUZZ_CHECK(isa::module_image_bytes(m) == image.size());
  const isa::LoadResult r = isa::read_module(image.data(), image.size());
  FUZZ_CHECK(r.status == isa::LoadStatus::OK, "canonical image does not load: " + r.message);
  FUZZ_CHECK(isa::write_module(r.module) == image, "canonical image does not rewrite to itself");
}

}  // namespace baresm::fuzz
