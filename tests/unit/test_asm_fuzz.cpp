// Robustness: thousands of mutated assembly texts and module images. Nothing
// may crash or throw; every failure is a clean diagnostic (asm: with a valid
// position) or a load status with a message; every success is consistent
// (assembled modules load and round-trip through the disassembler; loaded
// images re-serialize). Fixed seeds, so a failure is reproducible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/disasm.h"
#include "isa/isa.h"
#include "isa/module.h"

using namespace baresm::isa;
namespace fs = std::filesystem;

namespace {

// BARESM_FUZZ_CASES=N runs N cases of each kind instead (a deeper local soak).
int cases(int dflt) {
  const char* env = std::getenv("BARESM_FUZZ_CASES");
  return env && std::atoi(env) > 0 ? std::atoi(env) : dflt;
}
const int kAsmCases = cases(6000);
const int kModuleCases = cases(6000);

const char* kBuiltin =
    ".kernel builtin\n"
    ".param p, 4\n"
    ".param q, 8, 8\n"
    ".regs 12\n"
    ".shared 256\n"
    "    S2R R0, SR_TID.X;\n"
    "    LDC R1, [PARAM(q)];\n"
    "    ISETP.GE.U32.AND P0, R0, R1, !P2;\n"
    "    @P0 BRA out;\n"
    "loop: IADD R2, R2, 1;\n"
    "    FFMA R3, R3, R4, R5;\n"
    "    FADD R3, R3, -1.5e-3;\n"
    "    ATOMS.CAS R6, [R7 + 16], R8, R9;\n"
    "    SHFL.BFLY R1, R1, 4, 8;\n"
    "    VOTE.BALLOT R10, !P1;\n"
    "    @!P1 BRA loop;\n"
    "    BAR.SYNC 1, 64;\n"
    "    .word 0x000000000000007F\n"
    "out: EXIT;\n"
    ".end\n";

std::vector<std::string> corpus() {
  std::vector<std::string> texts = {kBuiltin};
  const std::string root = BARESM_SOURCE_DIR;
  std::vector<std::string> paths;
  for (const char* dir : {"/kernels", "/tests/data/asm"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root + dir, ec))
      if (e.path().extension() == ".s") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());  // directory order is not deterministic
  for (const auto& p : paths) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    texts.push_back(s.str());
  }
  return texts;
}

std::vector<std::string> split_lines(const std::string& src) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (true) {
    size_t nl = src.find('\n', start);
    std::string l = src.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

// Whitespace-separated tokens with their positions, for token-level mutations.
std::vector<std::pair<size_t, size_t>> token_spans(const std::string& s) {
  std::vector<std::pair<size_t, size_t>> spans;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) spans.push_back({b, i - b});
  }
  return spans;
}

std::string mutate_text(std::string s, std::mt19937& rng) {
  const char interesting[] = ",[]@!;:-+.()#/\t\n\r\0\xff\x80 0123456789RPxX";
  const int n = 1 + int(rng() % 4);
  for (int k = 0; k < n && !s.empty(); ++k) {
    const size_t pos = rng() % s.size();
    switch (rng() % 8) {
      case 0:
        s[pos] = char(rng() % 256);
        break;  // byte flip
      case 1:
        s[pos] = interesting[rng() % (sizeof interesting - 1)];
        break;
      case 2:
        s.erase(pos, 1 + rng() % 24);
        break;   // deletion
      case 3: {  // duplication
        std::string piece = s.substr(pos, 1 + rng() % 40);
        s.insert(rng() % (s.size() + 1), piece);
        break;
      }
      case 4: {  // swap two tokens
        auto t = token_spans(s);
        if (t.size() < 2) break;
        auto a = t[rng() % t.size()], b = t[rng() % t.size()];
        if (a.first > b.first) std::swap(a, b);
        if (a.first + a.second > b.first) break;
        std::string ta = s.substr(a.first, a.second), tb = s.substr(b.first, b.second);
        s.replace(b.first, b.second, ta);
        s.replace(a.first, a.second, tb);
        break;
      }
      case 5: {  // replace a token by another one from the text
        auto t = token_spans(s);
        if (t.empty()) break;
        auto a = t[rng() % t.size()], b = t[rng() % t.size()];
        s.replace(a.first, a.second, s.substr(b.first, b.second));
        break;
      }
      case 6:
        s.resize(pos);
        break;   // truncation
      case 7: {  // swap two lines
        auto lines = split_lines(s);
        if (lines.size() < 2) break;
        std::swap(lines[rng() % lines.size()], lines[rng() % lines.size()]);
        std::string j;
        for (size_t i = 0; i < lines.size(); ++i) j += lines[i] + (i + 1 < lines.size() ? "\n" : "");
        s = j;
        break;
      }
    }
  }
  return s;
}

uint32_t crc32_ref(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}

void reseal(std::vector<uint8_t>& b) {
  if (b.size() < 80) return;
  // The CRC covers [header_size, total): 88 from version 1.1 on; a mutated size as it says, if it fits.
  size_t h = size_t(b[8]) | size_t(b[9]) << 8 | size_t(b[10]) << 16 | size_t(b[11]) << 24;
  if (h < 80 || h > b.size()) h = 88 <= b.size() ? 88 : 80;
  const uint32_t c = crc32_ref(b.data() + h, b.size() - h);
  for (int i = 0; i < 4; ++i) b[76 + i] = uint8_t(c >> (8 * i));
}

std::vector<uint8_t> mutate_image(std::vector<uint8_t> b, std::mt19937& rng) {
  const int n = 1 + int(rng() % 4);
  for (int k = 0; k < n && !b.empty(); ++k) {
    const size_t pos = rng() % b.size();
    switch (rng() % 6) {
      case 0:
        b[pos] ^= uint8_t(1u << (rng() % 8));
        break;
      case 1:
        b[pos] = uint8_t(rng());
        break;
      case 2: {  // an interesting 32-bit value at an aligned offset (counts, offsets, sizes)
        const size_t at = (pos & ~size_t(3));
        if (at + 4 > b.size()) break;
        const uint32_t vals[] = {0,
                                 1,
                                 4,
                                 7,
                                 8,
                                 63,
                                 64,
                                 80,
                                 0x7FFFFFFF,
                                 0x80000000u,
                                 0xFFFFFFFFu,
                                 uint32_t(b.size()),
                                 uint32_t(b.size() - 4),
                                 uint32_t(rng())};
        const uint32_t v = vals[rng() % (sizeof vals / sizeof vals[0])];
        for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
        break;
      }
      case 3:
        b.resize(pos);
        break;
      case 4:
        b.insert(b.begin() + long(pos), uint8_t(rng()));
        break;
      case 5:
        b.erase(b.begin() + long(pos));
        break;
    }
  }
  // Mostly keep the CRC valid (and total_size right), so the structural checks get exercised.
  if (rng() % 10 < 7) {
    if (b.size() >= 80 && rng() % 2) {
      const uint32_t sz = uint32_t(b.size());
      for (int i = 0; i < 4; ++i) b[72 + i] = uint8_t(sz >> (8 * i));
    }
    reseal(b);
  }
  return b;
}

}  // namespace

TEST(AsmFuzz, MutatedSourcesNeverCrash) {
  const std::vector<std::string> texts = corpus();
  ASSERT_GE(texts.size(), 2u);
  std::mt19937 rng(20240601);
  int ok = 0, failed = 0;
  for (int i = 0; i < kAsmCases; ++i) {
    const std::string src = mutate_text(texts[size_t(i) % texts.size()], rng);
    SCOPED_TRACE("case " + std::to_string(i));
    AsmResult r;
    try {
      r = assemble(src, "fuzz.s");
    } catch (...) {
      FAIL() << "assemble threw on:\n" << src;
    }
    if (r.ok()) {
      ++ok;
      const std::vector<uint8_t> bytes = write_module(r.module);
      LoadResult l = read_module(bytes.data(), bytes.size());
      ASSERT_EQ(l.status, LoadStatus::OK) << l.message << "\n" << src;
      AsmResult again = assemble(disassemble(r.module), "fuzz.s");
      ASSERT_TRUE(again.ok()) << again.format_errors() << "\n" << src;
      ASSERT_TRUE(write_module(again.module) == bytes) << src;
      continue;
    }
    ++failed;
    const std::vector<std::string> lines = split_lines(src);
    int prev_line = 0, prev_col = 0;
    for (const Diagnostic& d : r.diagnostics) {
      ASSERT_FALSE(d.message.empty());
      ASSERT_EQ(d.file, "fuzz.s");
      if (d.line == 0) {  // about the whole file ("no kernels"): no position, sorted first
        ASSERT_EQ(d.column, 0) << d.format();
        ASSERT_EQ(prev_line, 0) << "out of order";
        continue;
      }
      ASSERT_GE(d.line, 1) << d.format();
      ASSERT_LE(size_t(d.line), lines.size()) << d.format();
      ASSERT_GE(d.column, 1) << d.format();
      ASSERT_LE(size_t(d.column), lines[size_t(d.line) - 1].size() + 1) << d.format();
      ASSERT_EQ(d.source_line, lines[size_t(d.line) - 1]);
      ASSERT_TRUE(d.line > prev_line || (d.line == prev_line && d.column >= prev_col)) << "out of order";
      prev_line = d.line;
      prev_col = d.column;
      ASSERT_NE(d.format().find(": error: "), std::string::npos);
    }
  }
  // The mutations must actually produce both outcomes.
  EXPECT_GT(ok, kAsmCases / 50);
  EXPECT_GT(failed, kAsmCases / 2);
  std::printf("asm fuzz: %d cases, %d assembled, %d rejected\n", kAsmCases, ok, failed);
}

TEST(AsmFuzz, MutatedImagesNeverCrash) {
  std::vector<std::vector<uint8_t>> images;
  for (const auto& t : corpus()) {
    AsmResult r = assemble(t, "seed.s");
    ASSERT_TRUE(r.ok()) << r.format_errors();
    images.push_back(write_module(r.module));
  }
  std::mt19937 rng(777);
  int ok = 0, invalid = 0;
  for (int i = 0; i < kModuleCases; ++i) {
    const std::vector<uint8_t> img = mutate_image(images[size_t(i) % images.size()], rng);
    SCOPED_TRACE("case " + std::to_string(i));
    LoadResult r;
    try {
      r = read_module(img.data(), img.size());
    } catch (...) {
      FAIL() << "read_module threw";
    }
    if (r.status != LoadStatus::OK) {
      ASSERT_EQ(r.status, LoadStatus::INVALID_IMAGE);  // no limits given
      ASSERT_FALSE(r.message.empty());
      ++invalid;
      continue;
    }
    ++ok;
    // A successful read re-serializes to an image that reads back the same.
    const std::vector<uint8_t> again = write_module(r.module);
    LoadResult r2 = read_module(again.data(), again.size());
    ASSERT_EQ(r2.status, LoadStatus::OK) << r2.message;
    ASSERT_TRUE(write_module(r2.module) == again);
    // The disassembler copes with whatever the loader accepts, and its text
    // always reassembles or fails cleanly.
    AsmResult a = assemble(disassemble(r.module), "redis.s");
    for (const auto& d : a.diagnostics) ASSERT_FALSE(d.message.empty());
  }
  EXPECT_GT(ok, kModuleCases / 50);
  EXPECT_GT(invalid, kModuleCases / 2);
  std::printf("module fuzz: %d cases, %d loaded, %d rejected\n", kModuleCases, ok, invalid);
}
