// libFuzzer target: the PTX front end, PTX text -> module (isa/ptx.h).
//
// Every input either fails with diagnostics that each name a place inside the
// PTX (line and column within the text; a message; only "not PTX at all"
// errors of the file as a whole, and those alone; never an internal error of
// the generated assembly), or translates to a module that loads, whose image
// module_image_bytes predicts, and that disassembles and reassembles (the
// round trip of fuzz_check.h). Inputs over 16 KiB are skipped: nvcc's PTX of
// the samples is under 5 KiB, and the stages are linear or nearly so.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "isa/ptx.h"
#include "tests/fuzz/fuzz_check.h"

using namespace baresm;

namespace {

void check_ptx_diagnostics(const isa::PtxResult& r, std::string_view src) {
  FUZZ_CHECK(!r.diagnostics.empty());
  const std::vector<std::string_view> lines = fuzz::split_lines(src);
  for (const isa::Diagnostic& d : r.diagnostics) {
    FUZZ_CHECK(!d.message.empty(), d.format());
    FUZZ_CHECK(d.file == "fuzz.ptx", d.format());
    FUZZ_CHECK(d.message.rfind("internal", 0) != 0, d.format() + "\n" + r.format_errors());
    FUZZ_CHECK(d.format().find(": error: ") != std::string::npos, d.format());
    if (d.line == 0) {
      // Only the two "this is not PTX" errors are about the file as a whole.
      FUZZ_CHECK(r.diagnostics.size() == 1 && d.column == 0 &&
                     (d.message == "no .version directive: this is not PTX" ||
                      d.message == "no .entry kernel in the file"),
                 r.format_errors());
      continue;
    }
    FUZZ_CHECK(d.line >= 1 && size_t(d.line) <= lines.size(), d.format());
    const std::string_view l = lines[size_t(d.line) - 1];
    FUZZ_CHECK(d.column >= 1 && size_t(d.column) <= l.size() + 1, d.format());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (16u << 10)) return 0;
  const std::string_view src(reinterpret_cast<const char*>(data), size);
  const isa::PtxResult r = isa::translate_ptx(src, "fuzz.ptx");
  if (!r.ok()) {
    check_ptx_diagnostics(r, src);
    FUZZ_CHECK(r.kernels.empty() && r.assembly.empty());
    return 0;
  }
  FUZZ_CHECK(!r.module.kernels.empty());
  FUZZ_CHECK(r.kernels.size() == r.module.kernels.size());
  FUZZ_CHECK(isa::module_image_bytes(r.module) <= isa::kMaxModuleBytes);
  const std::vector<uint8_t> image = isa::write_module(r.module);
  const isa::LoadResult l = isa::read_module(image.data(), image.size());
  FUZZ_CHECK(l.status == isa::LoadStatus::OK, "a translated module does not load: " + l.message);
  fuzz::check_canonical(l.module);
  // The generated assembly is the assembler's input: its disassembly must
  // reassemble as an assembled module's does.
  FUZZ_CHECK(fuzz::check_round_trip(r.module),
             "the disassembly of a translated module carries a warning:\n" + isa::disassemble(r.module));
  return 0;
}
