// libFuzzer target: the assembler, source text -> module.
//
// Every input either fails with well-formed diagnostics (positions inside the
// source, in order) or assembles to a module that loads, whose image is as
// large as module_image_bytes says, and whose disassembly reassembles to the
// same bytes (an assembled module is always reproducible: no warning).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_check.h"

using namespace baresm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view src(reinterpret_cast<const char*>(data), size);
  const isa::AsmResult r = isa::assemble(src, "fuzz.s");
  if (!r.ok()) {
    fuzz::check_diagnostics(r, src, "fuzz.s");
    return 0;
  }
  FUZZ_CHECK(!r.module.kernels.empty());
  FUZZ_CHECK(isa::module_image_bytes(r.module) <= isa::kMaxModuleBytes);
  const std::vector<uint8_t> image = isa::write_module(r.module);
  const isa::LoadResult l = isa::read_module(image.data(), image.size());
  FUZZ_CHECK(l.status == isa::LoadStatus::OK, "an assembled module does not load: " + l.message);
  fuzz::check_canonical(l.module);
  FUZZ_CHECK(isa::write_module(l.module) == image, "load + write changes an assembled image");
  FUZZ_CHECK(fuzz::check_round_trip(r.module),
             "the disassembly of an assembled module carries a warning:\n" + isa::disassemble(r.module));
  return 0;
}
