// The fatbinary reader (cudart/fatbin.h) on nvcc 13's own output: the
// committed binaries of examples/cuda_app and tests/cudart/bin
// (build-bins.sh), and malformed copies of their fatbinaries.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "cudart/fatbin.h"
#include "isa/ptx.h"

using namespace baresm::cudart;

namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// The fatbinary with PTX in the .nv_fatbin section of an nvcc-built binary
// (the section also holds the device link step's, with SASS only).
std::vector<uint8_t> fatbin_of(const std::string& path) {
  const std::vector<uint8_t> elf = read_file(path);
  size_t off = 0, size = 0;
  std::string err;
  EXPECT_TRUE(elf_section(elf, ".nv_fatbin", &off, &size, &err)) << err;
  std::vector<Fatbin> all;
  EXPECT_TRUE(parse_fatbin_section(&elf[off], size, &all, &err)) << err;
  EXPECT_EQ(all.size(), 2u);
  for (const Fatbin& fb : all)
    if (best_ptx_entry(fb)) return std::vector<uint8_t>(fb.base, fb.base + fb.total_bytes);
  ADD_FAILURE() << "no fatbinary with PTX in " << path;
  return {};
}

const std::string kVecAdd = std::string(BARESM_SOURCE_DIR) + "/examples/cuda_app/vec_add";
const std::string kVecAddPlain = std::string(BARESM_CUDART_TEST_DIR) + "/bin/vec_add_uncompressed";

std::string ptx_of(const std::vector<uint8_t>& bytes, const FatbinEntry** entry = nullptr) {
  static Fatbin fb;
  std::string err, ptx;
  EXPECT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  const FatbinEntry* e = best_ptx_entry(fb);
  EXPECT_NE(e, nullptr);
  if (!e) return "";
  if (entry) *entry = e;
  EXPECT_TRUE(entry_ptx(fb, *e, &ptx, &err)) << err;
  return ptx;
}

TEST(CudartFatbin, Nvcc13EntriesAndZstdPtx) {
  const std::vector<uint8_t> bytes = fatbin_of(kVecAdd);
  Fatbin fb;
  std::string err;
  ASSERT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  // -arch=sm_90: the sm_90 SASS (ELF) and the compute_90 PTX.
  ASSERT_EQ(fb.entries.size(), 2u);
  EXPECT_EQ(fb.entries[0].kind, kEntryElf);
  EXPECT_EQ(fb.entries[0].arch, 90u);
  EXPECT_EQ(fb.entries[1].kind, kEntryPtx);
  EXPECT_EQ(fb.entries[1].arch, 90u);
  EXPECT_TRUE(fb.entries[1].flags & kFlagCompressedZstd);
  EXPECT_GT(fb.entries[1].decompressed_bytes, fb.entries[1].compressed_bytes);
  const FatbinEntry* e = nullptr;
  const std::string ptx = ptx_of(bytes, &e);
  EXPECT_LE(ptx.size(), e->decompressed_bytes);  // the trailing NULs dropped
  EXPECT_GT(ptx.size() + 8, e->decompressed_bytes);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(ptx.find(".entry _Z7vec_addPKfS0_Pfi"), std::string::npos);
  // And the front end takes it.
  const baresm::isa::PtxResult r = baresm::isa::translate_ptx(ptx, "compute_90.ptx");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  ASSERT_NE(r.module.find_kernel("_Z7vec_addPKfS0_Pfi"), nullptr);
}

TEST(CudartFatbin, UncompressedPtxIsTheSameText) {
  const std::vector<uint8_t> z = fatbin_of(kVecAdd), plain = fatbin_of(kVecAddPlain);
  const FatbinEntry* e = nullptr;
  const std::string a = ptx_of(z), b = ptx_of(plain, &e);
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(e->compressed());
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());
}

TEST(CudartFatbin, MalformedHeaderNamesOffsetAndCause) {
  std::vector<uint8_t> bytes = fatbin_of(kVecAdd);
  Fatbin fb;
  std::string err;
  // bad magic
  std::vector<uint8_t> bad = bytes;
  bad[0] ^= 0xFF;
  EXPECT_FALSE(parse_fatbin(bad.data(), bad.size(), &fb, &err));
  EXPECT_NE(err.find("offset 0x0: bad magic"), std::string::npos) << err;
  // truncated
  EXPECT_FALSE(parse_fatbin(bytes.data(), bytes.size() - 100, &fb, &err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  EXPECT_FALSE(parse_fatbin(bytes.data(), 8, &fb, &err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  // an entry header size below the fixed part, at offset 16 + 4
  bad = bytes;
  bad[16 + 4] = 8;
  bad[16 + 5] = 0;
  EXPECT_FALSE(parse_fatbin(bad.data(), bad.size(), &fb, &err));
  EXPECT_NE(err.find("offset 0x14: entry header size 8"), std::string::npos) << err;
  // a payload size running past the end
  bad = bytes;
  const uint64_t huge = 1ull << 40;
  std::memcpy(&bad[16 + 8], &huge, 8);
  EXPECT_FALSE(parse_fatbin(bad.data(), bad.size(), &fb, &err));
  EXPECT_NE(err.find("offset 0x18: entry payload"), std::string::npos) << err;
  // an unsupported version
  bad = bytes;
  bad[4] = 7;
  EXPECT_FALSE(parse_fatbin(bad.data(), bad.size(), &fb, &err));
  EXPECT_NE(err.find("offset 0x4: fatbinary version 7"), std::string::npos) << err;
}

TEST(CudartFatbin, CorruptZstdPayloadNamesItsOffset) {
  std::vector<uint8_t> bytes = fatbin_of(kVecAdd);
  Fatbin fb;
  std::string err, ptx;
  ASSERT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  const FatbinEntry e = *best_ptx_entry(fb);
  // Scramble the compressed data after the frame header.
  for (size_t i = 16; i < e.compressed_bytes; ++i) bytes[e.payload_offset + i] ^= 0x5A;
  ASSERT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  EXPECT_FALSE(entry_ptx(fb, *best_ptx_entry(fb), &ptx, &err));
  char want[64];
  std::snprintf(want, sizeof want, "offset 0x%zx: zstd", e.payload_offset);
  EXPECT_NE(err.find(want), std::string::npos) << err;
  // Not a zstd frame at all.
  bytes[e.payload_offset] ^= 0xFF;
  ASSERT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  EXPECT_FALSE(entry_ptx(fb, *best_ptx_entry(fb), &ptx, &err));
  EXPECT_NE(err.find("not a zstd frame"), std::string::npos) << err;
}

TEST(CudartFatbin, LZ4IsRefusedByName) {
  std::vector<uint8_t> bytes = fatbin_of(kVecAdd);
  Fatbin fb;
  std::string err, ptx;
  ASSERT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  const size_t flags_at = best_ptx_entry(fb)->header_offset + 40;
  uint64_t flags;
  std::memcpy(&flags, &bytes[flags_at], 8);
  flags = (flags & ~kFlagCompressedZstd) | kFlagCompressedLz4;
  std::memcpy(&bytes[flags_at], &flags, 8);
  ASSERT_TRUE(parse_fatbin(bytes.data(), bytes.size(), &fb, &err)) << err;
  EXPECT_FALSE(entry_ptx(fb, *best_ptx_entry(fb), &ptx, &err));
  EXPECT_NE(err.find("LZ4"), std::string::npos) << err;
}

TEST(CudartFatbin, Wrapper) {
  const std::vector<uint8_t> bytes = fatbin_of(kVecAdd);
  struct {
    int magic, version;
    const void* data;
    void* name;
  } w{int(kFatbinWrapperMagic), 1, bytes.data(), nullptr};
  const uint8_t* data = nullptr;
  std::string err;
  ASSERT_TRUE(unwrap_fatbin(&w, &data, &err)) << err;
  EXPECT_EQ(data, bytes.data());
  w.version = 2;
  EXPECT_FALSE(unwrap_fatbin(&w, &data, &err));
  EXPECT_NE(err.find("-rdc"), std::string::npos) << err;
  w.version = 1;
  w.magic = 0x1234;
  EXPECT_FALSE(unwrap_fatbin(&w, &data, &err));
  EXPECT_NE(err.find("bad magic"), std::string::npos) << err;
}

TEST(CudartFatbin, SectionWithATruncatedFatbinary) {
  const std::vector<uint8_t> elf = read_file(kVecAdd);
  size_t off = 0, size = 0;
  std::string err;
  ASSERT_TRUE(elf_section(elf, ".nv_fatbin", &off, &size, &err)) << err;
  std::vector<Fatbin> all;
  EXPECT_FALSE(parse_fatbin_section(&elf[off], size - 24, &all, &err));
  EXPECT_NE(err.find("section offset 0x"), std::string::npos) << err;
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
}

TEST(CudartFatbin, ElfSectionErrors) {
  size_t off, size;
  std::string err;
  EXPECT_FALSE(elf_section({1, 2, 3}, ".nv_fatbin", &off, &size, &err));
  EXPECT_NE(err.find("not an ELF"), std::string::npos);
  EXPECT_FALSE(elf_section(read_file(kVecAdd), ".no_such", &off, &size, &err));
  EXPECT_NE(err.find("no section .no_such"), std::string::npos);
}

}  // namespace
