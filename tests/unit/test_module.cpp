// .bsm module format: round trip, and a reader that rejects every kind of
// damaged image with INVALID_IMAGE and every mismatched device with
// NO_BINARY_FOR_DEVICE (docs/module-format.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/isa.h"
#include "isa/module.h"

using namespace baresm::isa;

namespace {

// Independent bitwise CRC-32 (IEEE), to re-seal images after patching them.
uint32_t crc32_ref(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}

uint32_t get32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
constexpr size_t kHeader = 88;  // what the writer writes (1.1)
void reseal(std::vector<uint8_t>& b) {
  put32(b, 76, crc32_ref(b.data() + kHeader, b.size() - kHeader));
}

// Header field offsets (docs/module-format.md).
enum {
  H_VERSION = 4,
  H_HEADER_SIZE = 8,
  H_FLAGS = 12,
  H_ARCH = 16,
  H_KCOUNT = 28,
  H_KOFF = 32,
  H_PCOUNT = 36,
  H_POFF = 40,
  H_LCOUNT = 44,
  H_LOFF = 48,
  H_COFF = 52,
  H_CSIZE = 56,
  H_SOFF = 60,
  H_SSIZE = 64,
  H_SRC = 68,
  H_TOTAL = 72,
  H_ATTR_COUNT = 80,  // 1.1: the kernel-attribute table (local_bytes, units)
  H_ATTR_OFF = 84,
};
constexpr uint32_t kAttrEntry = 8;
enum : uint32_t {
};

const char* kSource =
    ".kernel scale\n"
    ".param data, 4\n"
    ".param factor, 4\n"
    ".param n, 2\n"
    ".regs 40\n"
    ".shared 1024\n"
    "  S2R R0, SR_TID.X\n"
    "  LDC R1, [PARAM(factor)]\n"
    "  @P0 BRA done\n"
    "  IMUL R0, R0, R1\n"
    "done:\n"
    "  EXIT\n"
    ".end\n"
    ".kernel tiny\n"
    ".param x, 8\n"
    ".regs 3\n"
    ".shared 65536\n"
    "  .word 0xDEADBEEFCAFEF00D\n"
    "  EXIT\n"
    ".end\n";

Module sample() {
  AsmResult r = assemble(kSource, "sample.s");
  EXPECT_TRUE(r.ok()) << r.format_errors();
  return r.module;
}

void expect_same(const Module& a, const Module& b) {
  EXPECT_EQ(a.version_major, b.version_major);
  EXPECT_EQ(a.version_minor, b.version_minor);
  EXPECT_EQ(a.target.arch_id, b.target.arch_id);
  EXPECT_EQ(a.target.max_regs, b.target.max_regs);
  EXPECT_EQ(a.target.max_shared_bytes, b.target.max_shared_bytes);
  EXPECT_EQ(a.source_name, b.source_name);
  EXPECT_EQ(a.code, b.code);
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    const KernelInfo &x = a.kernels[i], &y = b.kernels[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.entry, y.entry);
    EXPECT_EQ(x.code_bytes, y.code_bytes);
    EXPECT_EQ(x.regs, y.regs);
    EXPECT_EQ(x.shared_bytes, y.shared_bytes);
    EXPECT_EQ(x.param_bytes, y.param_bytes);
    ASSERT_EQ(x.params.size(), y.params.size());
    for (size_t j = 0; j < x.params.size(); ++j) {
      EXPECT_EQ(x.params[j].name, y.params[j].name);
      EXPECT_EQ(x.params[j].offset, y.params[j].offset);
      EXPECT_EQ(x.params[j].size, y.params[j].size);
      EXPECT_EQ(x.params[j].align, y.params[j].align);
    }
  }
  ASSERT_EQ(a.lines.size(), b.lines.size());
  for (size_t i = 0; i < a.lines.size(); ++i) {
    EXPECT_EQ(a.lines[i].pc, b.lines[i].pc);
    EXPECT_EQ(a.lines[i].line, b.lines[i].line);
    EXPECT_EQ(a.lines[i].column, b.lines[i].column);
  }
}

LoadResult load(const std::vector<uint8_t>& b, const DeviceLimits* lim = nullptr) {
  return read_module(b.data(), b.size(), lim);
}

void expect_invalid(const std::vector<uint8_t>& b, const std::string& needle) {
  LoadResult r = load(b);
  EXPECT_EQ(r.status, LoadStatus::INVALID_IMAGE) << needle;
  EXPECT_EQ(r.message.rfind("invalid image: ", 0), 0u) << r.message;
  EXPECT_NE(r.message.find(needle), std::string::npos) << "message: " << r.message << "\nwanted: " << needle;
}

}  // namespace

TEST(Module, RoundTrip) {
  const Module m = sample();
  ASSERT_EQ(m.kernels.size(), 2u);
  const std::vector<uint8_t> bytes = write_module(m);
  // The fixed parts of the layout.
  ASSERT_GE(bytes.size(), kHeader);
  EXPECT_EQ(bytes[0], 'B');
  EXPECT_EQ(bytes[1], 'S');
  EXPECT_EQ(bytes[2], 'M');
  EXPECT_EQ(bytes[3], 0);
  EXPECT_EQ(get32(bytes, H_HEADER_SIZE), kHeader);
  EXPECT_EQ(get32(bytes, H_ATTR_COUNT), 2u);
  EXPECT_EQ(get32(bytes, H_TOTAL), bytes.size());
  EXPECT_EQ(bytes.size() % 4, 0u);
  EXPECT_EQ(get32(bytes, H_COFF) % 8, 0u);
  EXPECT_EQ(get32(bytes, H_CSIZE), m.code.size() * 8);
  EXPECT_EQ(get32(bytes, H_KCOUNT), 2u);
  EXPECT_EQ(get32(bytes, H_PCOUNT), 4u);
  EXPECT_EQ(get32(bytes, H_LCOUNT), m.code.size());
  EXPECT_EQ(get32(bytes, 76), crc32_ref(bytes.data() + kHeader, bytes.size() - kHeader));
  // Code words little-endian at the code offset.
  const size_t coff = get32(bytes, H_COFF);
  EXPECT_EQ(get32(bytes, coff + 5 * 8), 0xCAFEF00Du);
  EXPECT_EQ(get32(bytes, coff + 5 * 8 + 4), 0xDEADBEEFu);

  LoadResult r = load(bytes);
  ASSERT_EQ(r.status, LoadStatus::OK) << r.message;
  EXPECT_TRUE(r.message.empty());
  expect_same(m, r.module);
  EXPECT_EQ(write_module(r.module), bytes);
  EXPECT_EQ(r.module.target.max_regs, 40u);
  EXPECT_EQ(r.module.target.max_shared_bytes, 65536u);

  // An empty module is a valid image too.
  Module empty;
  LoadResult e = load(write_module(empty));
  ASSERT_EQ(e.status, LoadStatus::OK) << e.message;
  expect_same(empty, e.module);
}

TEST(Module, LookupHelpers) {
  const Module m = sample();
  ASSERT_NE(m.find_kernel("tiny"), nullptr);
  EXPECT_EQ(m.find_kernel("tiny")->entry, 40u);
  EXPECT_EQ(m.find_kernel("nope"), nullptr);
  ASSERT_NE(m.line_for(16), nullptr);
  EXPECT_EQ(m.line_for(16)->line, 9u);  // @P0 BRA done
  EXPECT_EQ(m.line_for(16)->column, 3u);
  EXPECT_EQ(m.line_for(1000)->pc, 48u);  // past the end: the last entry
  Module none;
  EXPECT_EQ(none.line_for(0), nullptr);
  EXPECT_STREQ(load_status_name(LoadStatus::OK), "OK");
  EXPECT_STREQ(load_status_name(LoadStatus::INVALID_IMAGE), "INVALID_IMAGE");
  EXPECT_STREQ(load_status_name(LoadStatus::NO_BINARY_FOR_DEVICE), "NO_BINARY_FOR_DEVICE");
}

TEST(Module, BadMagic) {
  std::vector<uint8_t> b = write_module(sample());
  b[0] = 'X';
  expect_invalid(b, "bad magic 0x004D5358, expected BSM\\0");
  expect_invalid(std::vector<uint8_t>{0x7F, 'E', 'L', 'F', 2, 1, 1, 0}, "bad magic 0x464C457F");
  LoadResult r = read_module(nullptr, 0);
  EXPECT_EQ(r.status, LoadStatus::INVALID_IMAGE);
}

TEST(Module, EveryTruncation) {
  const std::vector<uint8_t> b = write_module(sample());
  for (size_t len = 0; len < b.size(); ++len) {
    std::vector<uint8_t> t(b.begin(), b.begin() + long(len));
    LoadResult r = load(t);
    ASSERT_EQ(r.status, LoadStatus::INVALID_IMAGE) << "length " << len;
    ASSERT_NE(r.message.find(len < 4 ? "too short" : "truncated"), std::string::npos)
        << len << ": " << r.message;
  }
  // A trailing byte is not silently ignored either.
  std::vector<uint8_t> longer = b;
  longer.push_back(0);
  expect_invalid(longer, "size mismatch");
}

TEST(Module, FlippedBytes) {
  const std::vector<uint8_t> b = write_module(sample());
  // Any change after the header is caught by the CRC.
  for (size_t i = kHeader; i < b.size(); ++i) {
    std::vector<uint8_t> f = b;
    f[i] ^= uint8_t(1u << (i % 8));
    LoadResult r = load(f);
    ASSERT_EQ(r.status, LoadStatus::INVALID_IMAGE) << "byte " << i;
    ASSERT_NE(r.message.find("CRC mismatch"), std::string::npos) << r.message;
  }
  // Header bytes are checked field by field; most flips are caught, none crash,
  // and whatever is accepted re-serializes to a loadable image.
  int rejected = 0;
  for (size_t i = 0; i < kHeader; ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> f = b;
      f[i] ^= uint8_t(1u << bit);
      LoadResult r = load(f);
      if (r.status != LoadStatus::OK) {
        EXPECT_FALSE(r.message.empty());
        ++rejected;
      } else {
        EXPECT_EQ(load(write_module(r.module)).status, LoadStatus::OK);
      }
    }
  EXPECT_GT(rejected, 500);  // only arch id, max regs/shared and minor version bits are free
}

TEST(Module, Versions) {
  Module m = sample();
  m.version_major = 2;
  expect_invalid(write_module(m), "unsupported version 2.1");  // the writer never claims less than 1.1
  m.version_major = 0;
  expect_invalid(write_module(m), "unsupported version 0.1");
  m.version_major = kModuleVersionMajor;
  m.version_minor = 9;  // minor versions only add: still readable
  LoadResult r = load(write_module(m));
  ASSERT_EQ(r.status, LoadStatus::OK) << r.message;
  EXPECT_EQ(r.module.version_minor, 9);
}

// 1.1's local-memory table: each kernel's bytes per thread, read back; a
// 1.0 image (80-byte header, no table) still loads, every kernel without
// local memory; bad entries are refused.
TEST(Module, LocalBytesAndVersion10Images) {
  Module m = sample();
  m.kernels[1].local_bytes = 64;
  const std::vector<uint8_t> b = write_module(m);
  EXPECT_EQ(get32(b, H_VERSION) >> 16, 1u);  // minor 1
  LoadResult r = load(b);
  ASSERT_EQ(r.status, LoadStatus::OK) << r.message;
  EXPECT_EQ(r.module.kernels[0].local_bytes, 0u);
  EXPECT_EQ(r.module.kernels[1].local_bytes, 64u);
  const uint32_t loc = get32(b, H_ATTR_OFF) + kAttrEntry;  // kernel 1's entry
  EXPECT_EQ(get32(b, loc), 64u);

  // The same image as a 1.0 writer made it: the 8 bytes of 1.1's header
  // fields gone, every offset 8 lower, minor version 0.
  std::vector<uint8_t> old(b.begin(), b.begin() + 80);
  old.insert(old.end(), b.begin() + long(kHeader), b.end());
  put32(old, H_VERSION, kModuleVersionMajor);
  put32(old, H_HEADER_SIZE, 80);
  for (size_t f : {size_t(H_KOFF), size_t(H_POFF), size_t(H_LOFF), size_t(H_COFF), size_t(H_SOFF)})
    put32(old, f, get32(old, f) - 8);
  put32(old, H_TOTAL, uint32_t(old.size()));
  put32(old, 76, crc32_ref(old.data() + 80, old.size() - 80));
  r = load(old);
  ASSERT_EQ(r.status, LoadStatus::OK) << r.message;
  EXPECT_EQ(r.module.version_minor, 0);
  EXPECT_EQ(r.module.kernels[1].local_bytes, 0u);
  EXPECT_EQ(r.module.code, m.code);
  // A 1.1 image must have 1.1's header.
  std::vector<uint8_t> short11 = old;
  put32(short11, H_VERSION, kModuleVersionMajor | 1u << 16);
  expect_invalid(short11, "bad header size 80 for version 1.1");

  auto patched = [&](size_t at, uint32_t v) {
    std::vector<uint8_t> p = b;
    put32(p, at, v);
    reseal(p);
    return p;
  };
  expect_invalid(patched(loc, 6), "kernel 'tiny': 6 bytes of local memory per thread (a multiple of 4");
  expect_invalid(patched(loc, kMaxLocalBytes + 4), "bytes of local memory per thread");
  expect_invalid(patched(H_ATTR_COUNT, 1), "kernel-attribute table has 1 entries for 2 kernels");
  Module big = sample();
  big.kernels[0].local_bytes = kMaxLocalBytes;  // the limit itself is fine
  EXPECT_EQ(load(write_module(big)).status, LoadStatus::OK);
}

// The optional units each kernel uses are recorded (and checked against the
// code); a device without one refuses the kernel at load.
TEST(Module, UnitsAreRecordedCheckedAndMatchedToTheDevice) {
  AsmResult a = assemble(
      ".kernel ints\n.regs 2\n  IADD R0, R0, 1\n  EXIT\n.end\n"
      ".kernel floats\n.regs 3\n  S2R R0, SR_TID.X\n  FFMA R1, R0, R0, R0\n  EXIT\n.end\n",
      "units.s");
  ASSERT_TRUE(a.ok()) << a.format_errors();
  const std::vector<uint8_t> b = write_module(a.module);
  const uint32_t attrs = get32(b, H_ATTR_OFF);
  EXPECT_EQ(get32(b, attrs + 4), 0u);
  EXPECT_EQ(get32(b, attrs + kAttrEntry + 4), kUnitFpu);
  LoadResult r = load(b);
  ASSERT_EQ(r.status, LoadStatus::OK) << r.message;
  EXPECT_EQ(r.module.kernels[0].units, 0u);
  EXPECT_EQ(r.module.kernels[1].units, kUnitFpu);

  // A recorded mask that is not what the code uses is a broken image.
  auto patched = [&](size_t at, uint32_t v) {
    std::vector<uint8_t> p = b;
    put32(p, at, v);
    reseal(p);
    return p;
  };
  expect_invalid(patched(attrs + kAttrEntry + 4, 0),
                 "kernel 'floats': records units 0x00000000, its code uses 0x00000001 (an FPU instruction at floats+0x8)");
  expect_invalid(patched(attrs + 4, kUnitFpu), "kernel 'ints': records units 0x00000001, its code uses 0x00000000");
  expect_invalid(patched(attrs + 4, 0x80), "kernel 'ints': unknown units 0x00000080");

  // On a device without the FPU: no binary for the FP kernel's module; an
  // integer-only module loads.
  DeviceLimits lim;
  lim.arch_id = kArchId;
  lim.max_regs_per_thread = 63;
  lim.max_shared_per_cta = 1u << 20;
  lim.units = 0;
  r = read_module(b.data(), b.size(), &lim);
  EXPECT_EQ(r.status, LoadStatus::NO_BINARY_FOR_DEVICE);
  EXPECT_NE(r.message.find("kernel 'floats' uses the FPU (first at floats+0x8), the device has none"),
            std::string::npos) << r.message;
  AsmResult ints = assemble(".kernel ints\n.regs 2\n  IADD R0, R0, 1\n  EXIT\n.end\n", "ints.s");
  ASSERT_TRUE(ints.ok());
  const std::vector<uint8_t> bi = write_module(ints.module);
  EXPECT_EQ(read_module(bi.data(), bi.size(), &lim).status, LoadStatus::OK);
  lim.units = kUnitFpu;
  EXPECT_EQ(read_module(b.data(), b.size(), &lim).status, LoadStatus::OK);
}

TEST(Module, HeaderFieldsOutOfRange) {
  const std::vector<uint8_t> good = write_module(sample());
  auto patched = [&](size_t field, uint32_t v) {
    std::vector<uint8_t> b = good;
    put32(b, field, v);
    return b;
  };
  const uint32_t total = uint32_t(good.size());
  expect_invalid(patched(H_HEADER_SIZE, 16), "bad header size 16");
  expect_invalid(patched(H_HEADER_SIZE, total + 4), "bad header size");
  expect_invalid(patched(H_FLAGS, 1), "unknown flags");
  expect_invalid(patched(H_TOTAL, total - 4), "size mismatch");
  expect_invalid(patched(H_KOFF, total), "kernel table");
  expect_invalid(patched(H_KOFF, 0xFFFFFFF0u), "lies outside the image");
  expect_invalid(patched(H_KOFF, 8), "lies outside the image");  // inside the header
  expect_invalid(patched(H_KCOUNT, 0xFFFFFFFFu), "kernel table");
  expect_invalid(patched(H_PCOUNT, 0x10000000u), "parameter table");
  expect_invalid(patched(H_LCOUNT, 1000), "line table");
  expect_invalid(patched(H_CSIZE, 0xFFFFFFF8u), "code");
  expect_invalid(patched(H_CSIZE, get32(good, H_CSIZE) - 4), "not 8-byte aligned");
  expect_invalid(patched(H_COFF, get32(good, H_COFF) + 4), "");  // misaligned or overlapping
  expect_invalid(patched(H_SOFF, total + 100), "string table");
  expect_invalid(patched(H_SSIZE, 0), "empty string table");
  expect_invalid(patched(H_POFF, get32(good, H_KOFF)), "kernel table overlaps parameter table");
  expect_invalid(patched(H_SRC, 0x7FFFFFFF), "bad source name offset");
  expect_invalid(patched(H_KOFF, get32(good, H_KOFF) + 2), "");
}

TEST(Module, BodyFieldsOutOfRange) {
  const std::vector<uint8_t> good = write_module(sample());
  const size_t k0 = get32(good, H_KOFF), k1 = k0 + 32, p0 = get32(good, H_POFF), l0 = get32(good, H_LOFF);
  const size_t s0 = get32(good, H_SOFF), ssize = get32(good, H_SSIZE);
  const uint32_t csize = get32(good, H_CSIZE);
  // Patch a body field and fix the CRC, so the structural checks are what fail.
  auto sealed = [&](size_t at, uint32_t v) {
    std::vector<uint8_t> b = good;
    put32(b, at, v);
    reseal(b);
    return b;
  };
  EXPECT_EQ(load(sealed(k0 + 12, 40)).status, LoadStatus::OK);  // same value: the reseal itself is sound
  expect_invalid(sealed(k0 + 0, uint32_t(ssize)), "kernel 0: bad name offset");
  expect_invalid(sealed(k0 + 0, 0), "kernel 0: bad name offset");  // empty name
  expect_invalid(sealed(k1 + 0, get32(good, k0)), "duplicate kernel 'scale'");
  expect_invalid(sealed(k0 + 4, 4), "kernel 'scale': code");            // misaligned entry
  expect_invalid(sealed(k0 + 4, csize), "kernel 'scale': code");        // past the end
  expect_invalid(sealed(k0 + 8, 0), "kernel 'scale': code");            // empty
  expect_invalid(sealed(k0 + 8, 0xFFFFFFF8u), "kernel 'scale': code");  // wraps around
  expect_invalid(sealed(k0 + 12, 64), "kernel 'scale': 64 registers");
  expect_invalid(sealed(k0 + 12, 0), "kernel 'scale': 0 registers");  // the device refuses 0 at launch
  expect_invalid(sealed(k1 + 12, 41), "kernel 'tiny': needs 41 registers, the header's maximum is 40");
  expect_invalid(sealed(20, 63), "header register maximum 63 is not the most any kernel needs (40)");
  expect_invalid(sealed(20, 39), "kernel 'scale': needs 40 registers, the header's maximum is 39");
  expect_invalid(sealed(p0 + 32 + 4, 6), "parameter 'factor' [4, +4) overlaps 'n' at offset 6");
  expect_invalid(sealed(p0 + 16 + 4, 0), "overlaps");
  expect_invalid(sealed(k0 + 24, 3), "kernel 'scale': parameters");
  expect_invalid(sealed(k0 + 28, 0xFFFFFFFFu), "kernel 'scale': parameters");
  expect_invalid(sealed(k1 + 24, 0), "is shared");               // tiny reuses scale's params
  expect_invalid(sealed(k0 + 20, 8), "parameter 'n'");           // param_bytes too small
  expect_invalid(sealed(p0 + 16 + 4, 2), "parameter 'factor'");  // misaligned offset
  expect_invalid(sealed(p0 + 12, 3), "parameter 'data'");        // align not a power of two
  expect_invalid(sealed(p0 + 8, 0), "parameter 'data'");         // zero size
  expect_invalid(sealed(p0 + 16, get32(good, p0)), "duplicate parameter 'data'");
  expect_invalid(sealed(p0, 0xFFFFFF), "parameter 0 has a bad name offset");
  expect_invalid(sealed(l0, csize), "line entry 0");
  expect_invalid(sealed(l0, 4), "line entry 0");
  expect_invalid(sealed(l0 + 12, 0xFFFFFFF8u), "line entry 1");
  expect_invalid(sealed(l0, 16), "not sorted");
  // A string table whose last string runs off its end.
  std::vector<uint8_t> b = good;
  b[s0 + ssize - 1] = 'x';
  reseal(b);
  expect_invalid(b, "string table does not end with NUL");
}

TEST(Module, DeviceLimits) {
  const std::vector<uint8_t> b = write_module(sample());
  DeviceLimits fits{kArchId, 63, 65536};
  LoadResult ok = load(b, &fits);
  ASSERT_EQ(ok.status, LoadStatus::OK) << ok.message;

  DeviceLimits other_arch{0x12345678, 63, 1u << 20};
  LoadResult r = load(b, &other_arch);
  EXPECT_EQ(r.status, LoadStatus::NO_BINARY_FOR_DEVICE);
  EXPECT_NE(r.message.find("arch 0x42534D31"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("0x12345678"), std::string::npos) << r.message;

  DeviceLimits few_regs{kArchId, 32, 1u << 20};
  r = load(b, &few_regs);
  EXPECT_EQ(r.status, LoadStatus::NO_BINARY_FOR_DEVICE);
  EXPECT_NE(r.message.find("kernel 'scale' needs 40 registers per thread, the device has 32"),
            std::string::npos)
      << r.message;

  DeviceLimits small_smem{kArchId, 63, 49152};
  r = load(b, &small_smem);
  EXPECT_EQ(r.status, LoadStatus::NO_BINARY_FOR_DEVICE);
  EXPECT_NE(r.message.find("kernel 'tiny' needs 65536 bytes of shared memory, the device has 49152"),
            std::string::npos)
      << r.message;

  // A broken image is INVALID_IMAGE even with limits that would also fail.
  std::vector<uint8_t> broken = b;
  broken[100] ^= 1;
  EXPECT_EQ(load(broken, &few_regs).status, LoadStatus::INVALID_IMAGE);
}

TEST(Module, ReadFile) {
  LoadResult missing = read_module_file("/nonexistent/dir/m.bsm");
  EXPECT_EQ(missing.status, LoadStatus::INVALID_IMAGE);
  EXPECT_NE(missing.message.find("No such file or directory"), std::string::npos) << missing.message;
  EXPECT_NE(missing.message.find("/nonexistent/dir/m.bsm"), std::string::npos) << missing.message;

  const std::string path = ::testing::TempDir() + "/module_test.bsm";
  const Module m = sample();
  const std::vector<uint8_t> bytes = write_module(m);
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
  }
  LoadResult r = read_module_file(path);
  ASSERT_EQ(r.status, LoadStatus::OK) << r.message;
  expect_same(m, r.module);
  DeviceLimits few_regs{kArchId, 8, 1u << 20};
  EXPECT_EQ(read_module_file(path, &few_regs).status, LoadStatus::NO_BINARY_FOR_DEVICE);
  std::remove(path.c_str());
}

// A name is never a way to put a line into text made from the module (the
// disassembly, diagnostics): the loader refuses control characters in any.
TEST(Module, ControlCharactersInNamesAreRejected) {
  const char* bad[] = {"a\nb", "tab\there", "cr\r", "nul\x01", "del\x7F"};
  for (const char* name : bad) {
    SCOPED_TRACE(name);
    Module m = sample();
    m.kernels[0].name = name;
    expect_invalid(write_module(m), "kernel 0: the name contains a control character");
    m = sample();
    m.kernels[1].params[0].name = name;
    expect_invalid(write_module(m), "kernel 'tiny': parameter 0: the name contains a control character");
    m = sample();
    m.source_name = name;
    expect_invalid(write_module(m), "the source name contains a control character");
  }
  // Printable and non-ASCII bytes are names like any other.
  Module m = sample();
  m.source_name = "dir with space/caf\xC3\xA9.s";
  EXPECT_EQ(load(write_module(m)).status, LoadStatus::OK);
}

// One size limit for every image: the loader refuses anything larger before
// looking at it, and a file is never read past it (an endless device file
// cannot exhaust memory), nor a directory taken for an empty file.
TEST(Module, SizeLimitAndUnreadableFiles) {
  std::vector<uint8_t> huge(size_t(kMaxModuleBytes) + 1, 0);
  const std::vector<uint8_t> small = write_module(sample());
  std::copy(small.begin(), small.end(), huge.begin());
  expect_invalid(huge, std::to_string(kMaxModuleBytes + 1) + " bytes, more than the " +
                           std::to_string(kMaxModuleBytes) + "-byte module limit");

  LoadResult r = read_module_file("/dev/zero");
  EXPECT_EQ(r.status, LoadStatus::INVALID_IMAGE);
  EXPECT_NE(r.message.find("'/dev/zero': larger than the " + std::to_string(kMaxModuleBytes) + "-byte limit"),
            std::string::npos)
      << r.message;
  r = read_module_file(::testing::TempDir());
  EXPECT_EQ(r.status, LoadStatus::INVALID_IMAGE);
  EXPECT_NE(r.message.find(": is a directory"), std::string::npos) << r.message;
}

TEST(Module, ImageBytesIsTheWrittenSize) {
  Module m = sample();
  EXPECT_EQ(module_image_bytes(m), write_module(m).size());
  m.source_name = "a longer name.s";
  m.lines.resize(7);
  m.code.resize(9);
  EXPECT_EQ(module_image_bytes(m), write_module(m).size());
}

// The loader accepts no kernel the assembler could not have written (found by
// fuzzing: an alignment of 2^26, which the loader took and the disassembler
// printed as ".param a, 4, 67108864", which does not assemble; regression
// inputs in tests/fuzz/regressions/module/): shared memory, parameter bytes
// and alignment stay within the assembler's limits (module.h).
TEST(Module, AssemblerLimitsAreTheLoaders) {
  const std::vector<uint8_t> good = write_module(sample());
  const size_t k0 = get32(good, H_KOFF), p0 = get32(good, H_POFF);
  auto sealed = [&](size_t at, uint32_t v) {
    std::vector<uint8_t> b = good;
    put32(b, at, v);
    reseal(b);
    return b;
  };
  // At each limit: loads. One past it: refused, naming the kernel and the limit.
  EXPECT_EQ(load(sealed(k0 + 16, kMaxSharedBytes)).status, LoadStatus::OK);
  expect_invalid(sealed(k0 + 16, kMaxSharedBytes + 1),
                 "kernel 'scale': 16777217 bytes of shared memory, more than the 16777216-byte limit");
  EXPECT_EQ(load(sealed(k0 + 20, kMaxParamBytes)).status, LoadStatus::OK);
  expect_invalid(sealed(k0 + 20, kMaxParamBytes + 4),
                 "kernel 'scale': 4100 parameter bytes, more than the 4096-byte limit");
  EXPECT_EQ(load(sealed(p0 + 12, kMaxParamAlign)).status, LoadStatus::OK);  // data: offset 0, align 256
  expect_invalid(sealed(p0 + 12, kMaxParamAlign * 2), "parameter 'data' (offset 0, size 4, align 512)");
  // And the assembler takes exactly these limits.
  const std::string at_limit = ".kernel k\n.param a, 4096, 256\n.regs 1\n.shared " +
                               std::to_string(kMaxSharedBytes) + "\n  EXIT\n.end\n";
  EXPECT_TRUE(assemble(at_limit, "l.s").ok()) << assemble(at_limit, "l.s").format_errors();
  EXPECT_FALSE(assemble(".kernel k\n.param a, 4, 512\n.regs 1\n  EXIT\n.end\n", "l.s").ok());
  EXPECT_FALSE(assemble(".kernel k\n.param a, 4097\n.regs 1\n  EXIT\n.end\n", "l.s").ok());
  EXPECT_FALSE(
      assemble(".kernel k\n.regs 1\n.shared " + std::to_string(kMaxSharedBytes + 1) + "\n  EXIT\n.end\n",
               "l.s")
          .ok());
}
