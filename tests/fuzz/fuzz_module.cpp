// libFuzzer target: the module loader, bytes -> module, and on what it
// accepts the disassembler and the assembler: the disassembly of a loaded
// module reassembles to its image byte for byte wherever the disassembler
// does not warn that it cannot (fuzz_check.h, check_round_trip).
//
// Each input is tried as it is and, when it is long enough for a header,
// once more with the header's total size and CRC made right, so that the
// mutations reach the structural checks behind the CRC. Half the mutations
// are libFuzzer's own; the other half know the format's shape (every field
// is an aligned 32-bit word): they set one word of the header or the tables
// to a value that counts, offsets and sizes fail at (0, 1, one past, all
// ones, the image size), to another word of the image (an offset or a count
// found elsewhere), or to itself plus or minus a little.
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

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  uint32_t r = seed * 2654435761u + 1;
  auto next = [&r] {
    r ^= r << 13;
    r ^= r >> 17;
    r ^= r << 5;
    return r;
  };
  if (size < fuzz::kHeaderBytes || next() % 2) return LLVMFuzzerMutate(data, size, max_size);
  std::vector<uint8_t> b(data, data + size);
  // Header and tables lie before the code, in what the assembler writes: mostly aim there.
  const size_t code_at = fuzz::get32(b.data() + 52);
  const size_t span = (next() % 4 && code_at > 8 && code_at <= size) ? code_at : size;
  const size_t words = span / 4;
  const int n = 1 + int(next() % 3);
  for (int k = 0; k < n; ++k) {
    const size_t at = 4 * (next() % words);
    if (at == fuzz::kCrcAt || at == fuzz::kTotalSizeAt || at + 4 > size) continue;
    const uint32_t old = fuzz::get32(b.data() + at);
    uint32_t v;
    switch (next() % 4) {
      case 0: {
        const uint32_t pick[] = {0,
                                 1,
                                 4,
                                 8,
                                 63,
                                 64,
                                 0x7FFFFFFFu,
                                 0x80000000u,
                                 0xFFFFFFFFu,
                                 uint32_t(size),
                                 uint32_t(size - 4),
                                 uint32_t(size + 8)};
        v = pick[next() % (sizeof pick / sizeof pick[0])];
        break;
      }
      case 1:
        v = fuzz::get32(b.data() + 4 * (next() % (size / 4)));
        break;
      default:
        v = old + uint32_t(int32_t(next() % 33) - 16);
        break;
    }
    fuzz::put32(b, at, v);
  }
  fuzz::reseal(b);
  std::memcpy(data, b.data(), size);
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check_image(data, size);
  if (size >= fuzz::kHeaderBytes && size <= isa::kMaxModuleBytes) {
    std::vector<uint8_t> sealed(data, data + size);
    fuzz::reseal(sealed);
    if (std::memcmp(sealed.data(), data, size) != 0) check_image(sealed.data(), sealed.size());
  }
  return 0;
}
