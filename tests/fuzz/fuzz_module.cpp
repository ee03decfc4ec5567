// libFuzzer target: the module loader, bytes -> module, and on what it
// accepts the disassembler and the assembler: the disassembly of a loaded
// module reassembles to its image byte for byte wherever the disassembler
// does not warn that it cannot (fuzz_check.h, check_round_trip).
//
// Each input is tried as it is and, when it is long enough for a header,
// once more with the header's total size and CRC made right, so that the
// mutations reach the structural checks behind the CRC.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "isa/isa.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_image.h"

using namespace baresm;

namespace {

void check_image(const uint8_t* data, size_t size) {
  const isa::LoadResult r = isa::read_module(data, size);
  // Device limits only add NO_BINARY_FOR_DEVICE: what fails without them fails the same way with them.
  isa::DeviceLimits lim{isa::kArchId, uint32_t(isa::kMaxRegsPerThread), 48u << 10};
  const isa::LoadResult rl = isa::read_module(data, size, &lim);
  if (r.status != isa::LoadStatus::OK) {
    FUZZ_CHECK(r.status == isa::LoadStatus::INVALID_IMAGE, isa::load_status_name(r.status));
    FUZZ_CHECK(r.message.rfind("invalid image: ", 0) == 0, r.message);
    FUZZ_CHECK(rl.status == r.status && rl.message == r.message, rl.message);
    return;
  }
  FUZZ_CHECK(rl.status == isa::LoadStatus::OK || rl.status == isa::LoadStatus::NO_BINARY_FOR_DEVICE);
  FUZZ_CHECK(rl.status == isa::LoadStatus::OK || !rl.message.empty());
  fuzz::check_canonical(r.module);
  fuzz::check_round_trip(r.module);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check_image(data, size);
  if (size >= fuzz::kHeaderBytes && size <= isa::kMaxModuleBytes) {
    std::vector<uint8_t> sealed(data, data + size);
    fuzz::reseal(sealed);
    if (std::memcmp(sealed.data(), data, size) != 0) check_image(sealed.data(), sealed.size());
  }
  return 0;
}
