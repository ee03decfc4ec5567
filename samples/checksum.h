// The samples' output checksum: 64-bit FNV-1a over the bytes of every buffer
// a sample reads back from the device (SampleContext::download), in the
// order it reads them. Defined once here; `baresm run` (model, RTL) and the
// real-GPU runner tools/h200/run_cuda.cu both compute it through the same
// SampleContext, so equal checksums mean byte-identical device outputs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace baresm::samples {

constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnv1a64Prime = 0x100000001b3ull;

inline uint64_t fnv1a64(uint64_t h, const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= kFnv1a64Prime;
  }
  return h;
}

}  // namespace baresm::samples
