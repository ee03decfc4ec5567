// Module image helpers for the fuzz targets and the seed generator: the
// header's total size and CRC fields (docs/module-format.md), recomputed so
// that mutated images get past the CRC check.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace baresm::fuzz {

constexpr size_t kHeaderBytes = 80, kTotalSizeAt = 72, kCrcAt = 76, kHeaderSizeAt = 8;

// CRC-32 (IEEE 802.3, reflected), table-driven: it runs on every input.
inline uint32_t crc32(const uint8_t* p, size_t n) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return ~c;
}

inline void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
inline uint32_t get32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// Total size := the image's size; CRC := over the body after the header's
// declared size (or after 80 bytes when that size is not inside the image).
inline void reseal(std::vector<uint8_t>& b) {
  if (b.size() < kHeaderBytes) return;
  put32(b, kTotalSizeAt, uint32_t(b.size()));
  size_t from = get32(b.data() + kHeaderSizeAt);
  if (from < kHeaderBytes || from > b.size()) from = kHeaderBytes;
  put32(b, kCrcAt, crc32(b.data() + from, b.size() - from));
}

}  // namespace baresm::fuzz
