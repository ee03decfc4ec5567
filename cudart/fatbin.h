// The fatbinary nvcc embeds in a host program (the `.nv_fatbin` section),
// as far as baresm's CUDA runtime needs it: the PTX of a virtual
// architecture. docs/cuda-runtime.md describes the layout.
//
//   __fatBinC_Wrapper_t  {magic 0x466243B1, version 1, data, filename}
//     -> fatbinary header {magic 0xBA55ED50, version 1, header size 16, body size}
//        -> entries       {kind (1 PTX, 2 ELF), header size, payload size, flags,
//                          compressed size, arch, decompressed size, ...} + payload
//
// A PTX payload is compressed with zstd when its flags have 0x8000 (nvcc 13's
// default) or stored as is; flag 0x2000 (LZ4, older nvcc) is refused by name.
// Every error names the byte offset (from the start of the fatbinary) and
// the cause.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace baresm::cudart {

constexpr uint32_t kFatbinWrapperMagic = 0x466243B1u;
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
constexpr uint16_t kEntryPtx = 1;
constexpr uint16_t kEntryElf = 2;
constexpr uint64_t kFlagCompressedLz4 = 0x2000;
constexpr uint64_t kFlagCompressedZstd = 0x8000;
// The most a fatbinary or a decompressed PTX entry may claim (a bound for a
// corrupted size field, not a limit real programs reach).
constexpr uint64_t kMaxFatbinBytes = 1ull << 30;

struct FatbinEntry {
  uint16_t kind = 0;  // kEntryPtx, kEntryElf
  uint32_t arch = 0;  // 90 for compute_90 / sm_90
  uint16_t version_major = 0, version_minor = 0;  // of the PTX ISA / the ELF format
  uint64_t flags = 0;
  size_t header_offset = 0;   // from the start of the fatbinary
  size_t payload_offset = 0;  // from the start of the fatbinary
  uint64_t payload_bytes = 0;      // stored bytes (with padding)
  uint32_t compressed_bytes = 0;   // 0: not compressed
  uint64_t decompressed_bytes = 0;
  bool compressed() const { return (flags & (kFlagCompressedZstd | kFlagCompressedLz4)) != 0; }
};

struct Fatbin {
  const uint8_t* base = nullptr;  // start of the fatbinary (its header)
  size_t total_bytes = 0;         // header + body
  std::vector<FatbinEntry> entries;
};

// Parses the fatbinary at data. available: the bytes known to be readable
// from data (SIZE_MAX when unknown, as for a registered binary: the header's
// size is then trusted). False with *err on malformed input.
bool parse_fatbin(const uint8_t* data, size_t available, Fatbin* out, std::string* err);

// Every fatbinary of a `.nv_fatbin` section: nvcc places one per
// compilation unit (and one for the device link step) end to end, each
// aligned to 8 bytes.
bool parse_fatbin_section(const uint8_t* data, size_t size, std::vector<Fatbin>* out, std::string* err);

// The wrapper nvcc passes to __cudaRegisterFatBinary: checks it and returns
// its fatbinary pointer.
bool unwrap_fatbin(const void* wrapper, const uint8_t** data, std::string* err);

// The text of one PTX entry, decompressed (without trailing NULs).
bool entry_ptx(const Fatbin& fb, const FatbinEntry& e, std::string* ptx, std::string* err);

// The PTX entry to run: the highest virtual architecture present.
// Null when the fatbinary has no PTX.
const FatbinEntry* best_ptx_entry(const Fatbin& fb);

// A section of an ELF64 little-endian file image (tests and tools: the
// `.nv_fatbin` of an nvcc-built binary). False with *err when absent.
bool elf_section(const std::vector<uint8_t>& elf, const std::string& name, size_t* offset, size_t* size,
                 std::string* err);

}  // namespace baresm::cudart
