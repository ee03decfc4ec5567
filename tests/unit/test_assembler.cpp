// Assembler: every opcode and modifier to the expected fields, directives,
// immediates, reconvergence points from the CFG, and diagnostics.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/disasm.h"
#include "isa/isa.h"

using namespace baresm::isa;

namespace {

std::string wrap(const std::string& body) {
  return ".kernel k\n.param p0, 4\n.param p1, 8\n.regs 63\n" + body + "\nEXIT;\n.end\n";
}

AsmResult asm_ok(const std::string& src) {
  AsmResult r = assemble(src, "t.s");
  EXPECT_TRUE(r.ok()) << src << "\n" << r.format_errors();
  return r;
}

// The first instruction of `line` wrapped in a kernel.
Instr one(const std::string& line) {
  AsmResult r = asm_ok(wrap(line));
  if (r.module.code.empty()) return Instr{};
  auto d = decode(r.module.code[0]);
  EXPECT_TRUE(d.has_value()) << line;
  return d.value_or(Instr{});
}

uint32_t fbits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

struct Expect {
  const char* line;
  Op op;
  bool bimm;
  uint8_t pg;
  bool pg_neg;
  uint8_t rd, ra, rb, rc, mod;
  uint32_t imm;
};

constexpr uint8_t Z = kRegZero;
constexpr uint8_t T = kPredTrue;

// Hand-computed fields for each operand form.
const Expect kExpect[] = {
    {"NOP", Op::NOP, false, T, false, Z, Z, Z, Z, 0, 0},
    {"MOV R1, R2", Op::MOV, false, T, false, 1, Z, 2, Z, 0, 0},
    {"MOV R1, 0x12345678", Op::MOV, true, T, false, 1, Z, Z, Z, 0, 0x12345678},
    {"MOV R62, -1", Op::MOV, true, T, false, 62, Z, Z, Z, 0, 0xFFFFFFFF},
    {"MOV RZ, RZ", Op::MOV, false, T, false, Z, Z, Z, Z, 0, 0},
    {"IADD R1, R2, R3", Op::IADD, false, T, false, 1, 2, 3, Z, 0, 0},
    {"IADD R1, R2, 100", Op::IADD, true, T, false, 1, 2, Z, Z, 0, 100},
    {"ISUB R4, R5, R6", Op::ISUB, false, T, false, 4, 5, 6, Z, 0, 0},
    {"IMUL R4, R5, 3", Op::IMUL, true, T, false, 4, 5, Z, Z, 0, 3},
    {"IMULHI.U32 R4, R5, R6", Op::IMULHI, false, T, false, 4, 5, 6, Z, 1, 0},
    {"IMAD R1, R2, R3, R4", Op::IMAD, false, T, false, 1, 2, 3, 4, 0, 0},
    {"IMIN R1, R2, -5", Op::IMIN, true, T, false, 1, 2, Z, Z, 0, 0xFFFFFFFB},
    {"IMAX.U32 R1, R2, R3", Op::IMAX, false, T, false, 1, 2, 3, Z, 1, 0},
    {"IABS R1, R2", Op::IABS, false, T, false, 1, 2, Z, Z, 0, 0},
    {"AND R1, R2, 0xFF", Op::AND, true, T, false, 1, 2, Z, Z, 0, 0xFF},
    {"OR R1, R2, R3", Op::OR, false, T, false, 1, 2, 3, Z, 0, 0},
    {"XOR R1, R2, R3", Op::XOR, false, T, false, 1, 2, 3, Z, 0, 0},
    {"NOT R1, R2", Op::NOT, false, T, false, 1, 2, Z, Z, 0, 0},
    {"SHL R1, R2, 3", Op::SHL, true, T, false, 1, 2, Z, Z, 0, 3},
    {"SHR R1, R2, R3", Op::SHR, false, T, false, 1, 2, 3, Z, 0, 0},
    {"SHRA R1, R2, 31", Op::SHRA, true, T, false, 1, 2, Z, Z, 0, 31},
    {"POPC R1, R2", Op::POPC, false, T, false, 1, 2, Z, Z, 0, 0},
    {"CLZ R1, R2", Op::CLZ, false, T, false, 1, 2, Z, Z, 0, 0},
    // ISETP: rd = pd | pc << 3; mod = cmp | U32 << 3 | comb << 4 | !pc << 6.
    {"ISETP.LT P2, R1, R3", Op::ISETP, false, T, false, 2 | (7 << 3), 1, 3, Z, 2, 0},
    {"ISETP.GE.U32.OR P0, R1, 7, !P5", Op::ISETP, true, T, false, 0 | (5 << 3), 1, Z, Z, 5 | 8 | 16 | 64, 7},
    {"ISETP.EQ.XOR P6, R1, R2, P1", Op::ISETP, false, T, false, 6 | (1 << 3), 1, 2, Z, 0 | 32, 0},
    {"SEL R1, R2, R3, P4", Op::SEL, false, T, false, 1, 2, 3, Z, 4, 0},
    {"SEL R1, R2, 9, !PT", Op::SEL, true, T, false, 1, 2, Z, Z, 7 | 8, 9},
    {"S2R R7, SR_CTAID.Y", Op::S2R, false, T, false, 7, Z, Z, Z, SR_CTAID_Y, 0},
    {"FADD R1, R2, R3", Op::FADD, false, T, false, 1, 2, 3, Z, 0, 0},
    {"FADD R1, R2, 1.5", Op::FADD, true, T, false, 1, 2, Z, Z, 0, 0x3FC00000},
    {"FSUB R1, R2, -2.0", Op::FSUB, true, T, false, 1, 2, Z, Z, 0, 0xC0000000},
    {"FMUL R1, R2, 0.5f", Op::FMUL, true, T, false, 1, 2, Z, Z, 0, 0x3F000000},
    {"FFMA R1, R2, R3, R4", Op::FFMA, false, T, false, 1, 2, 3, 4, 0, 0},
    {"FMIN R1, R2, inf", Op::FMIN, true, T, false, 1, 2, Z, Z, 0, 0x7F800000},
    {"FMAX R1, R2, -inf", Op::FMAX, true, T, false, 1, 2, Z, Z, 0, 0xFF800000},
    {"FNEG R1, R2", Op::FNEG, false, T, false, 1, 2, Z, Z, 0, 0},
    {"FABS R1, R2", Op::FABS, false, T, false, 1, 2, Z, Z, 0, 0},
    {"FSETP.GTU.OR P1, R2, 0.0, !P3", Op::FSETP, true, T, false, 1 | (3 << 3), 2, Z, Z, 12 | 16 | 64, 0},
    {"I2F.U32 R1, R2", Op::I2F, false, T, false, 1, 2, Z, Z, 1, 0},
    {"F2I R1, R2", Op::F2I, false, T, false, 1, 2, Z, Z, 0, 0},
    // Loads/stores: always bimm, imm32 is the address offset.
    {"LDG R1, [R2]", Op::LDG, true, T, false, 1, 2, Z, Z, LDW_32, 0},
    {"LDG.S16 R1, [R2 + 0x10]", Op::LDG, true, T, false, 1, 2, Z, Z, LDW_S16, 16},
    {"LDS.U8 R1, [R2 - 4]", Op::LDS, true, T, false, 1, 2, Z, Z, LDW_U8, 0xFFFFFFFC},
    {"LDS R1, [0x200]", Op::LDS, true, T, false, 1, Z, Z, Z, LDW_32, 0x200},
    {"LDC R1, [PARAM(p1)]", Op::LDC, true, T, false, 1, Z, Z, Z, LDW_32, 8},
    {"LDC.S8 R1, [R3 + PARAM(p1)]", Op::LDC, true, T, false, 1, 3, Z, Z, LDW_S8, 8},
    {"STG [R2 + 8], R5", Op::STG, true, T, false, 5, 2, Z, Z, LDW_32, 8},
    {"STS.16 [R2], R5", Op::STS, true, T, false, 5, 2, Z, Z, LDW_U16, 0},
    {"STS.8 [3], R5", Op::STS, true, T, false, 5, Z, Z, Z, LDW_U8, 3},
    // Atomics: bimm = 0, imm20 is the offset.
    {"ATOMG.ADD R1, [R2 + 4], R3", Op::ATOMG, false, T, false, 1, 2, 3, Z, ATOM_ADD, 4},
    {"ATOMS.MIN.U32 R1, [R2 - 8], R3", Op::ATOMS, false, T, false, 1, 2, 3, Z, ATOM_MIN | 0x10, 0xFFFFFFF8},
    {"ATOMG.CAS R1, [R2], R3, R4", Op::ATOMG, false, T, false, 1, 2, 3, 4, ATOM_CAS, 0},
    {"VOTE.ANY P3, !P2", Op::VOTE, false, T, false, 3, 2 | 8, Z, Z, VOTE_ANY, 0},
    {"VOTE.BALLOT R9, P1", Op::VOTE, false, T, false, 9, 1, Z, Z, VOTE_BALLOT, 0},
    {"SHFL.DOWN R1, R2, R3", Op::SHFL, false, T, false, 1, 2, 3, Z, SHFL_DOWN | (5 << 2), 0},
    {"SHFL.BFLY R1, R2, 4, 8", Op::SHFL, true, T, false, 1, 2, Z, Z, SHFL_BFLY | (3 << 2), 4},
    {"BAR.SYNC 3, 96", Op::BAR, true, T, false, Z, Z, Z, Z, 0, 3 | (96u << 16)},
    {"BAR.SYNC 0", Op::BAR, true, T, false, Z, Z, Z, Z, 0, 0},
    {"@P3 EXIT", Op::EXIT, false, 3, false, Z, Z, Z, Z, 0, 0},
    {"@!P0 TRAP", Op::TRAP, false, 0, true, Z, Z, Z, Z, 0, 0},
    {"@!PT NOP;", Op::NOP, false, T, true, Z, Z, Z, Z, 0, 0},
    {"@PT iadd R1, R2, R3", Op::IADD, false, T, false, 1, 2, 3, Z, 0, 0},  // mnemonics are case-insensitive
};

}  // namespace

TEST(Assembler, OperandFormsEncodeToExpectedFields) {
  std::set<Op> seen;
  for (const Expect& e : kExpect) {
    SCOPED_TRACE(e.line);
    Instr in = one(e.line);
    EXPECT_EQ(in.op, e.op);
    EXPECT_EQ(in.bimm, e.bimm);
    EXPECT_EQ(in.pg, e.pg);
    EXPECT_EQ(in.pg_neg, e.pg_neg);
    EXPECT_EQ(in.rd, e.rd);
    EXPECT_EQ(in.ra, e.ra);
    EXPECT_EQ(in.rb, e.rb);
    EXPECT_EQ(in.rc, e.rc);
    EXPECT_EQ(int(in.mod), int(e.mod));
    EXPECT_EQ(in.imm, e.imm);
    seen.insert(e.op);
  }
  // BRA is checked in the reconvergence tests.
  for (const auto& o : all_ops())
    if (o.op != Op::BRA) {
      EXPECT_TRUE(seen.count(o.op)) << o.mnemonic << " has no expectation";
    }
}

TEST(Assembler, UnusedFieldsAreCanonical) {
  // Unused register fields are RZ and the unused immediate 0, so equal text
  // always gives equal words.
  EXPECT_EQ(encode(one("NOP")), 0x00000FFF00FFF700ull);
  EXPECT_EQ(encode(one("EXIT")), 0x00000FFF00FFF741ull);
  EXPECT_EQ(one("IABS R1, R2").imm, 0u);
  auto r = asm_ok(wrap("POPC R1, R2"));
  EXPECT_EQ(r.module.code[0] >> 32, 0xFFFull);  // rb = rc = 63, imm20 = 0
}

TEST(Assembler, EveryModifierCombination) {
  const char* cmp[] = {"EQ",  "NE",  "LT",  "LE",  "GT",  "GE",  "NUM",
                       "NAN", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU"};
  const char* comb[] = {"AND", "OR", "XOR"};
  int checked = 0;
  auto check = [&](const std::string& line, Op op, uint8_t mod) {
    SCOPED_TRACE(line);
    Instr in = one(line);
    EXPECT_EQ(in.op, op);
    EXPECT_EQ(int(in.mod), int(mod));
    ++checked;
  };
  // SIGN
  for (const char* m : {"IMULHI", "IMIN", "IMAX"}) {
    Op op = op_by_mnemonic(m)->op;
    check(std::string(m) + " R1, R2, R3", op, 0);
    check(std::string(m) + ".S32 R1, R2, R3", op, 0);
    check(std::string(m) + ".U32 R1, R2, R3", op, 1);
  }
  for (const char* m : {"I2F", "F2I"}) {
    Op op = op_by_mnemonic(m)->op;
    check(std::string(m) + " R1, R2", op, 0);
    check(std::string(m) + ".U32 R1, R2", op, 1);
  }
  // CMPI / CMPF: every comparison x signedness x combination.
  for (int c = 0; c < 14; ++c)
    for (int u = 0; u < 2; ++u)
      for (int k = -1; k < 3; ++k) {
        std::string sfx =
            std::string(".") + cmp[c] + (u ? ".U32" : "") + (k >= 0 ? std::string(".") + comb[k] : "");
        uint8_t kk = uint8_t(k < 0 ? 0 : k);
        if (c < 6) check("ISETP" + sfx + " P1, R2, R3", Op::ISETP, uint8_t(c | (u << 3) | (kk << 4)));
        if (!u) check("FSETP" + sfx + " P1, R2, R3", Op::FSETP, uint8_t(c | (kk << 4)));
      }
  // LDW / STW
  const std::pair<const char*, uint8_t> ldw[] = {{"", 4},     {".U8", 0},  {".S8", 1},
                                                 {".U16", 2}, {".S16", 3}, {".32", 4}};
  for (const char* m : {"LDG", "LDS", "LDC"})
    for (auto [s, v] : ldw) check(std::string(m) + s + " R1, [R2]", op_by_mnemonic(m)->op, v);
  const std::pair<const char*, uint8_t> stw[] = {{"", 4}, {".8", 0}, {".16", 2}, {".32", 4}};
  for (const char* m : {"STG", "STS"})
    for (auto [s, v] : stw) check(std::string(m) + s + " [R2], R1", op_by_mnemonic(m)->op, v);
  // ATOM
  const char* aop[] = {"ADD", "MIN", "MAX", "EXCH", "CAS", "AND", "OR", "XOR"};
  for (const char* m : {"ATOMG", "ATOMS"})
    for (int a = 0; a < 8; ++a) {
      std::string ops = a == ATOM_CAS ? " R1, [R2], R3, R4" : " R1, [R2], R3";
      check(std::string(m) + "." + aop[a] + ops, op_by_mnemonic(m)->op, uint8_t(a));
      if (a == ATOM_MIN || a == ATOM_MAX)
        check(std::string(m) + "." + aop[a] + ".U32" + ops, op_by_mnemonic(m)->op, uint8_t(a | 0x10));
    }
  // VOTE
  check("VOTE.ANY P0, P1", Op::VOTE, 0);
  check("VOTE.ALL P0, P1", Op::VOTE, 1);
  check("VOTE.BALLOT R0, P1", Op::VOTE, 2);
  // SHFL: mode x width (log2 in mod[4:2], default 32)
  const char* shfl[] = {"IDX", "UP", "DOWN", "BFLY"};
  for (int m = 0; m < 4; ++m) {
    check(std::string("SHFL.") + shfl[m] + " R1, R2, R3", Op::SHFL, uint8_t(m | (5 << 2)));
    for (int lg = 0; lg <= 5; ++lg)
      check(std::string("SHFL.") + shfl[m] + " R1, R2, 1, " + std::to_string(1 << lg), Op::SHFL,
            uint8_t(m | (lg << 2)));
  }
  // S2R: every special register
  for (uint8_t id = 0; id < SR_COUNT; ++id) check(std::string("S2R R1, ") + sreg_name(id), Op::S2R, id);
  // BAR ids
  for (int id = 0; id < 16; ++id) {
    Instr in = one("BAR.SYNC " + std::to_string(id) + ", 65535");
    EXPECT_EQ(in.bar_id(), uint32_t(id));
    EXPECT_EQ(in.bar_count(), 65535u);
  }
  // Guards
  for (int p = 0; p < 8; ++p)
    for (int n = 0; n < 2; ++n) {
      std::string g = std::string("@") + (n ? "!" : "") + (p == 7 ? "PT" : "P" + std::to_string(p));
      Instr in = one(g + " NOP");
      EXPECT_EQ(in.pg, p);
      EXPECT_EQ(in.pg_neg, bool(n));
    }
  EXPECT_EQ(checked, 211);  // 13 sign + 104 compare + 26 width + 20 atomic + 3 vote + 28 shuffle + 17 sreg
}

TEST(Assembler, Immediates) {
  auto imm = [](const std::string& text) { return one("MOV R1, " + text).imm; };
  EXPECT_EQ(imm("0"), 0u);
  EXPECT_EQ(imm("4294967295"), 0xFFFFFFFFu);
  EXPECT_EQ(imm("0xffffffff"), 0xFFFFFFFFu);
  EXPECT_EQ(imm("-2147483648"), 0x80000000u);
  EXPECT_EQ(imm("-1"), 0xFFFFFFFFu);
  EXPECT_EQ(imm("007"), 7u);  // decimal, not octal
  EXPECT_EQ(imm("1.5"), 0x3FC00000u);
  EXPECT_EQ(imm(".5"), 0x3F000000u);
  EXPECT_EQ(imm("-0.0"), 0x80000000u);
  EXPECT_EQ(imm("1.0f"), 0x3F800000u);
  EXPECT_EQ(imm("2e-3"), fbits(2e-3f));
  EXPECT_EQ(imm("-2E+3"), fbits(-2000.0f));
  EXPECT_EQ(imm("1e-45"), 1u);  // smallest subnormal
  EXPECT_EQ(imm("3.4028235e38"), 0x7F7FFFFFu);
  EXPECT_EQ(imm("0.1"), fbits(0.1f));
  EXPECT_EQ(imm("inf"), 0x7F800000u);
  EXPECT_EQ(imm("-inf"), 0xFF800000u);
  EXPECT_EQ(one("LDG R1, [R2 - 2147483648]").imm, 0x80000000u);
  EXPECT_EQ(one("LDG R1, [R2 + -4]").imm, 0xFFFFFFFCu);
  EXPECT_EQ(one("LDG R1, [0xFFFFFFFC]").imm, 0xFFFFFFFCu);
  EXPECT_EQ(one("ATOMG.ADD R1, [R2 + 524287], R3").imm, 524287u);
  EXPECT_EQ(one("ATOMG.ADD R1, [R2 - 524288], R3").imm, uint32_t(-524288));

  for (const char* bad : {"4294967296", "-2147483649", "nan", "1e39", "0x1G", "1.2.3", "0x", "1ee5",
                          "99999999999999999999999"}) {
    AsmResult r = assemble(wrap(std::string("MOV R1, ") + bad), "t.s");
    ASSERT_EQ(r.diagnostics.size(), 1u) << bad << "\n" << r.format_errors();
    EXPECT_EQ(r.diagnostics[0].line, 5) << bad;
    EXPECT_EQ(r.diagnostics[0].column, 9) << bad;
  }
}

TEST(Assembler, Directives) {
  const std::string src =
      "// two kernels\n"
      ".kernel alpha\n"
      ".param a, 1\n"
      ".param b, 4\n"
      ".param c, 2\n"
      ".param d, 8\n"
      ".param e, 3\n"
      ".param f, 12\n"
      ".param g, 4, 16\n"
      ".regs 10\n"
      ".shared 2048\n"
      "    LDC R0, [PARAM(g)]\n"
      "  @P1 EXIT;\n"
      "\tEXIT\n"
      ".end\n"
      ".kernel beta\n"
      ".param x, 1\n"
      ".regs 40\n"
      "    .word 0x0123456789ABCDEF\n"
      "    .loc 77, 9\n"
      "    EXIT; NOP; EXIT\n"
      ".end\n"
      ".kernel gamma\n"
      ".regs 1\n"
      ".shared 4096\n"
      "EXIT\n"
      ".end\n";
  AsmResult r = asm_ok(src);
  const Module& m = r.module;
  EXPECT_EQ(m.source_name, "t.s");
  EXPECT_EQ(m.target.arch_id, kArchId);
  EXPECT_EQ(m.target.max_regs, 40u);
  EXPECT_EQ(m.target.max_shared_bytes, 4096u);
  ASSERT_EQ(m.kernels.size(), 3u);
  const KernelInfo& a = m.kernels[0];
  EXPECT_EQ(a.name, "alpha");
  EXPECT_EQ(a.entry, 0u);
  EXPECT_EQ(a.code_bytes, 24u);
  EXPECT_EQ(a.regs, 10u);
  EXPECT_EQ(a.shared_bytes, 2048u);
  // Natural packing: default align = min(size, 8) rounded up to a power of two.
  const uint32_t off[] = {0, 4, 8, 16, 24, 32, 48};
  const uint32_t al[] = {1, 4, 2, 8, 4, 8, 16};
  ASSERT_EQ(a.params.size(), 7u);
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(a.params[i].offset, off[i]) << a.params[i].name;
    EXPECT_EQ(a.params[i].align, al[i]) << a.params[i].name;
  }
  EXPECT_EQ(a.params[5].size, 12u);
  EXPECT_EQ(a.param_bytes, 52u);
  EXPECT_EQ(decode(m.code[0])->imm, 48u);  // PARAM(g)
  const KernelInfo& b = m.kernels[1];
  EXPECT_EQ(b.entry, 24u);
  EXPECT_EQ(b.code_bytes, 32u);
  EXPECT_EQ(b.param_bytes, 4u);  // 1 rounded up to 4
  EXPECT_EQ(b.shared_bytes, 0u);
  EXPECT_EQ(m.code[3], 0x0123456789ABCDEFull);
  const KernelInfo& g = m.kernels[2];
  EXPECT_EQ(g.entry, 56u);
  EXPECT_EQ(g.param_bytes, 0u);
  EXPECT_EQ(m.find_kernel("beta"), &m.kernels[1]);
  EXPECT_EQ(m.find_kernel("delta"), nullptr);
  // Line table: one entry per word, statement columns; .loc overrides the next one.
  ASSERT_EQ(m.lines.size(), m.code.size());
  const uint32_t want[][3] = {{0, 12, 5},  {8, 13, 3},   {16, 14, 2},  {24, 19, 5},
                              {32, 77, 9}, {40, 21, 11}, {48, 21, 16}, {56, 26, 1}};
  for (size_t i = 0; i < m.lines.size(); ++i) {
    EXPECT_EQ(m.lines[i].pc, want[i][0]);
    EXPECT_EQ(m.lines[i].line, want[i][1]) << i;
    EXPECT_EQ(m.lines[i].column, want[i][2]) << i;
  }
  ASSERT_NE(m.line_for(44), nullptr);
  EXPECT_EQ(m.line_for(44)->pc, 40u);
}

namespace {

// Target and reconvergence deltas of the BRA at each code index.
std::map<size_t, std::pair<int, int>> branches(const std::string& body) {
  AsmResult r = asm_ok(".kernel k\n.regs 8\n" + body + ".end\n");
  std::map<size_t, std::pair<int, int>> out;
  for (size_t i = 0; i < r.module.code.size(); ++i) {
    auto d = decode(r.module.code[i]);
    if (d && d->op == Op::BRA) out[i] = {d->bra_target_delta(), d->bra_reconv_delta()};
  }
  return out;
}
using BranchMap = std::map<size_t, std::pair<int, int>>;

}  // namespace

TEST(AssemblerReconvergence, IfThen) {
  EXPECT_EQ(branches("  ISETP.LT P0, R0, 16\n"  // 0
                     "  @P0 BRA skip\n"         // 1
                     "  IADD R1, R0, 1\n"       // 2
                     "skip:\n  EXIT\n"),        // 3
            (BranchMap{{1, {2, 2}}}));
}

TEST(AssemblerReconvergence, IfThenElse) {
  EXPECT_EQ(branches("  ISETP.LT P0, R0, 16\n"  // 0
                     "  @!P0 BRA else\n"        // 1 -> 4, joins at 5
                     "  IADD R1, R0, 1\n"       // 2
                     "  BRA join\n"             // 3 unguarded: no reconvergence
                     "else: IADD R1, R0, 2\n"   // 4
                     "join: MOV R2, R1\n"       // 5
                     "  EXIT\n"),
            (BranchMap{{1, {3, 4}}, {3, {2, 0}}}));
}

TEST(AssemblerReconvergence, Nested) {
  EXPECT_EQ(branches("  @P0 BRA outer_else\n"        // 0 -> 7, joins at 8
                     "  @P1 BRA inner_else\n"        // 1 -> 4, joins at 5
                     "  IADD R1, R1, 1\n"            // 2
                     "  BRA inner_join\n"            // 3
                     "inner_else: IADD R1, R1, 2\n"  // 4
                     "inner_join: IADD R1, R1, 3\n"  // 5
                     "  BRA outer_join\n"            // 6
                     "outer_else: IADD R1, R1, 4\n"  // 7
                     "outer_join: EXIT\n"),          // 8
            (BranchMap{{0, {7, 8}}, {1, {3, 4}}, {3, {2, 0}}, {6, {2, 0}}}));
}

TEST(AssemblerReconvergence, LoopWithBreak) {
  EXPECT_EQ(branches("  MOV R0, 0\n"             // 0
                     "loop: IADD R0, R0, 1\n"    // 1
                     "  ISETP.EQ P0, R0, 7\n"    // 2
                     "  @P0 BRA out\n"           // 3 break: joins at 6
                     "  ISETP.LT P1, R0, 100\n"  // 4
                     "  @P1 BRA loop\n"          // 5 back edge: joins at 6
                     "out: EXIT\n"),             // 6
            (BranchMap{{3, {3, 3}}, {5, {-4, 1}}}));
}

TEST(AssemblerReconvergence, EarlyExit) {
  EXPECT_EQ(branches("  ISETP.GE P0, R0, R1\n"  // 0
                     "  @P0 EXIT\n"             // 1: falls through and exits
                     "  @P1 BRA skip\n"         // 2 -> 4, joins at 4
                     "  IADD R1, R0, 1\n"       // 3
                     "skip: STG [R2], R1\n"     // 4
                     "  EXIT\n"),
            (BranchMap{{2, {2, 2}}}));
}

TEST(AssemblerReconvergence, IpdomIsExit) {
  // Both sides end in their own EXIT: the paths only meet at the exit.
  EXPECT_EQ(branches("  @P0 BRA a\n"  // 0
                     "  IADD R1, R1, 1\n"
                     "  EXIT\n"
                     "a: IADD R1, R1, 2\n"
                     "  EXIT\n"),
            (BranchMap{{0, {3, 0}}}));
  // A guarded TRAP on one side does not change where the other side joins.
  EXPECT_EQ(branches("  @P0 BRA a\n"  // 0
                     "  @P1 TRAP\n"   // 1
                     "a: EXIT\n"),
            (BranchMap{{0, {2, 2}}}));
  // An endless loop never reaches the exit: no reconvergence point.
  EXPECT_EQ(branches("loop: @P0 BRA loop\n"  // 0
                     "  BRA loop\n"),        // 1
            (BranchMap{{0, {0, 0}}, {1, {-1, 0}}}));
}

TEST(AssemblerReconvergence, DoWhileAndGuardedFallThrough) {
  EXPECT_EQ(branches("loop: IADD R0, R0, 1\n"   // 0
                     "  ISETP.LT P0, R0, 10\n"  // 1
                     "  @P0 BRA loop\n"         // 2 joins at 3
                     "  EXIT\n"),
            (BranchMap{{2, {-2, 1}}}));
  // A guarded branch to the next instruction: both edges to one block.
  EXPECT_EQ(branches("  @P0 BRA n\nn: EXIT\n"), (BranchMap{{0, {1, 1}}}));
}

TEST(Cfg, BlocksEdgesAndPostDominators) {
  AsmResult r = asm_ok(
      ".kernel k\n.regs 4\n"
      "  @P0 BRA b\n"   // 0  B0 -> B2, B1
      "  @P1 EXIT\n"    // 1  B1 -> B2, exit
      "b: NOP\n"        // 2  B2 -> B3
      "  BRA c\n"       // 3
      "  .word 0x7F\n"  // 4  B3: unreachable illegal word -> exit
      "c: EXIT\n"       // 5  B4 -> exit
      ".end\n");
  const auto& code = r.module.code;
  Cfg cfg = build_cfg(code.data(), code.size());
  ASSERT_EQ(cfg.blocks.size(), 5u);
  const int X = cfg.exit();
  const std::vector<std::vector<int>> succs = {{2, 1}, {2, X}, {4}, {X}, {X}};
  const uint32_t firsts[] = {0, 1, 2, 4, 5};
  for (size_t b = 0; b < 5; ++b) {
    EXPECT_EQ(cfg.blocks[b].first, firsts[b]);
    EXPECT_EQ(cfg.blocks[b].succs, succs[b]) << b;
  }
  EXPECT_EQ(cfg.block_of_instr, (std::vector<int>{0, 1, 2, 2, 3, 4}));
  EXPECT_EQ(immediate_post_dominators(cfg), (std::vector<int>{X, X, 4, X, X}));
  EXPECT_EQ(reconvergence_deltas(code.data(), code.size()), (std::vector<int64_t>{0, 0, 0, 0, 0, 0}));
  EXPECT_FALSE(can_fall_off_end(code.data(), code.size()));
  EXPECT_TRUE(can_fall_off_end(code.data(), 3));
}

TEST(AssemblerErrors, ManyErrorsInOrderWithPositions) {
  const std::string src =
      "    IADD R1, R2, R3\n"                  // 1
      ".kernel vec_add\n"                      // 2
      ".param a, 4\n"                          // 3
      ".regs 8\n"                              // 4
      "    IAD R1, R2, R3\n"                   // 5
      "    IADD R9, R2, R3\n"                  // 6
      "    IADD R1, R2 R3\n"                   // 7
      "    BAR.SYNC 1, 70000\n"                // 8
      "    @P9 EXIT\n"                         // 9
      "    BRA nowhere\n"                      // 10
      "x: x: NOP\n"                            // 11
      "    MOV R1, 1.5e99\n"                   // 12
      "    SHFL.IDX R1, R2, R3, 3\n"           // 13
      "    ATOMG.CAS R1, [R2+4], R3\n"         // 14
      "\tIMAD R1, R2, 5, R3\n"                 // 15
      "    LDC R1, [PARAM(b)]\n"               // 16
      "    ISETP.LT.FOO P0, R1, R2\n"          // 17
      "    ATOMS.ADD R1, [R2 + 600000], R3\n"  // 18
      "    S2R R1, SR_FOO\n"                   // 19
      ".regs 4\n"                              // 20
      "    MOV R1, R2 ; garbage\n"             // 21
      "    NOP\n"                              // 22
      ".end\n"                                 // 23
      ".bogus 1\n"                             // 24
      ".kernel vec_add\n"                      // 25
      "    EXIT\n";                            // 26
  AsmResult r = assemble(src, "bad.s");
  struct E {
    int line, col;
    const char* msg;
  };
  const E want[] = {
      {1, 5, "instruction outside a .kernel"},
      {5, 5, "unknown mnemonic 'IAD'"},
      {6, 10, "register R9 is beyond .regs 8 of kernel 'vec_add'"},
      {7, 17, "expected ',' after operand 2, found 'R3'"},
      {8, 17, "immediate 70000 does not fit the 16-bit barrier thread count (0..65535)"},
      {9, 6, "no predicate 'P9'"},
      {10, 9, "undefined label 'nowhere' in kernel 'vec_add'"},
      {11, 4, "duplicate label 'x' (first defined at line 11)"},
      {12, 13, "float literal '1.5e99' is out of range"},
      {13, 26, "SHFL width 3 is not a power of two"},
      {14, 29, "ATOMG.CAS needs a 4th operand"},
      {15, 15, "expected a register as operand 3, found '5'"},
      {16, 20, "unknown parameter 'b' of kernel 'vec_add'"},
      {17, 5, "unknown modifier '.FOO' for ISETP"},
      {18, 25, "offset 600000 does not fit the signed 20-bit atomic offset"},
      {19, 13, "unknown special register 'SR_FOO'"},
      {20, 1, ".regs must come before the first instruction of kernel 'vec_add'"},
      {21, 18, "unknown mnemonic 'garbage'"},  // ';' separates statements
      {24, 1, "unknown directive '.bogus'"},
      {25, 1, "kernel 'vec_add' has no .end"},
      {25, 9, "duplicate kernel 'vec_add'"},
      {26, 5, "kernel 'vec_add' has no .regs before its first instruction"},
  };
  ASSERT_EQ(r.diagnostics.size(), sizeof(want) / sizeof(want[0])) << r.format_errors();
  for (size_t i = 0; i < r.diagnostics.size(); ++i) {
    const Diagnostic& d = r.diagnostics[i];
    SCOPED_TRACE(d.format());
    EXPECT_EQ(d.file, "bad.s");
    EXPECT_EQ(d.line, want[i].line);
    EXPECT_EQ(d.column, want[i].col);
    EXPECT_NE(d.message.find(want[i].msg), std::string::npos) << d.message;
  }
  EXPECT_FALSE(r.ok());
  // The caret keeps tabs so it lines up under tab-indented source.
  EXPECT_EQ(r.diagnostics[1].format(), "bad.s:5:5: error: unknown mnemonic 'IAD'\n    IAD R1, R2, R3\n    ^");
  EXPECT_EQ(r.diagnostics[11].format(),
            "bad.s:15:15: error: expected a register as operand 3, found '5'\n\tIMAD R1, R2, 5, R3\n\t       "
            "      ^");
  EXPECT_EQ(r.format_errors().find("bad.s:1:5: error: instruction outside a .kernel\n"), 0u);
}

TEST(AssemblerErrors, KernelStructure) {
  auto errs = [](const std::string& src) {
    AsmResult r = assemble(src, "k.s");
    std::vector<std::string> out;
    for (const auto& d : r.diagnostics)
      out.push_back(std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(errs(".kernel a\n.regs 2\n  MOV R0, 1\n.end\n"),
            V{"3:3: kernel 'a' can fall through past its last instruction"});
  EXPECT_EQ(errs(".kernel a\n.regs 2\n  @P0 EXIT\n.end\n"),
            V{"3:3: kernel 'a' can fall through past its last instruction"});
  EXPECT_EQ(errs(".kernel a\n.regs 2\n  @P0 BRA l\nl:\n.end\n"),
            V{"3:11: label 'l' is past the last instruction of kernel 'a'"});
  EXPECT_EQ(errs(".kernel a\n.regs 2\n.end\n"), V{"1:1: kernel 'a' has no instructions"});
  EXPECT_EQ(errs(".kernel a\n  EXIT\n.end\n"),
            V{"2:3: kernel 'a' has no .regs before its first instruction"});
  EXPECT_EQ(errs("l: \n"), V{"1:1: label 'l' outside a .kernel"});
  EXPECT_EQ(errs(".end\n"), V{"1:1: .end outside a .kernel"});
  EXPECT_EQ(errs(".kernel a\n.regs 64\n"),
            (V{"1:1: kernel 'a' has no .regs", "1:1: kernel 'a' has no instructions",
               "1:1: kernel 'a' has no .end", "2:7: register count 64 is out of range (1..63)"}));
  EXPECT_EQ(errs(".kernel a\n.regs 1\n.param x, 4\n.param x, 4\n  EXIT\n.end\n"),
            V{"4:8: duplicate parameter 'x' in kernel 'a'"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n.param x, 4, 3\n  EXIT\n.end\n"),
            V{"3:14: parameter alignment 3 is not a power of two"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n.kernel b\n.regs 1\n  EXIT\n.end\n"),
            (V{"1:1: kernel 'a' has no instructions", "3:1: missing .end of kernel 'a' before .kernel"}));
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  LDG R0, [R1]\n  EXIT\n.end\n"),
            V{"3:12: register R1 is beyond .regs 1 of kernel 'a'"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  MOV R63, 1\n  EXIT\n.end\n"),
            V{"3:7: no register 'R63' (R0..R62 and RZ)"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  IMAD R0, R0, R0, 1\n  EXIT\n.end\n"),
            V{"3:20: expected a register as operand 4, found '1'"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  ATOMG.ADD R0, [R0], R0, R0\n  EXIT\n.end\n"),
            V{"3:25: only ATOMG.CAS takes a 4th operand"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  STG [R0 + PARAM(x)], R0\n  EXIT\n.end\n"),
            V{"3:13: PARAM() is only allowed in LDC"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  LDG R0, [R0 + 1.5]\n  EXIT\n.end\n"),
            V{"3:17: float literal '1.5' is not allowed as an address offset"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  BAR.SYNC 16\n  EXIT\n.end\n"),
            V{"3:12: barrier id 16 is out of range (0..15)"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  VOTE.ANY P0, R0\n  EXIT\n.end\n"),
            V{"3:16: expected a predicate as operand 2, found 'R0'"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  EXIT R0\n.end\n"),
            V{"3:8: unexpected 'R0' after the operands of EXIT"});
  EXPECT_EQ(errs(".kernel a\n.regs 1\n  .word -1\n  EXIT\n.end\n"),
            V{"3:9: expected a 64-bit integer after .word, found '-'"});
}

TEST(AssemblerErrors, BranchOutOfRange) {
  std::string src = ".kernel far\n.regs 1\n  @P0 BRA end\n";
  for (int i = 0; i < 32768; ++i) src += "  NOP\n";
  src += "end: EXIT\n.end\n";
  AsmResult r = assemble(src, "far.s");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.format_errors().substr(0, 500);
  EXPECT_EQ(r.diagnostics[0].line, 3);
  EXPECT_NE(r.diagnostics[0].message.find("32769 instructions away"), std::string::npos)
      << r.diagnostics[0].message;
}

TEST(Assembler, AssembleFile) {
  AsmResult missing = assemble_file("/nonexistent/dir/x.s");
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_NE(missing.diagnostics[0].format().find("/nonexistent/dir/x.s: error: No such file"),
            std::string::npos)
      << missing.diagnostics[0].format();
  const std::string path = ::testing::TempDir() + "/asm_file_test.s";
  {
    std::ofstream f(path);
    f << ".kernel k\n.regs 1\nEXIT\n.end\n";
  }
  AsmResult r = assemble_file(path);
  ASSERT_TRUE(r.ok()) << r.format_errors();
  EXPECT_EQ(r.module.source_name, path);
  EXPECT_EQ(r.module.code.size(), 1u);
  std::remove(path.c_str());
}

// Whole-file errors have line 0 and no caret.
TEST(Assembler, SourceWithoutKernelsIsAnError) {
  for (const char* src : {"", "\n\n", "// only a comment\n", "# and another\n\n"}) {
    AsmResult r = assemble(src, "empty.s");
    ASSERT_EQ(r.diagnostics.size(), 1u) << src;
    EXPECT_EQ(r.diagnostics[0].line, 0);
    EXPECT_EQ(r.diagnostics[0].format(), "empty.s: error: no kernels: the source has no .kernel directive");
  }
}

TEST(Assembler, FileNameWithControlCharactersIsAnError) {
  AsmResult r = assemble(".kernel k\n.regs 1\n  EXIT\n.end\n", "a\nb.s");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 0);
  EXPECT_NE(r.diagnostics[0].message.find("'a\\x0Ab.s' contains a control character"), std::string::npos)
      << r.diagnostics[0].message;
}

// The assembler refuses exactly what the loader would: the largest module it
// writes loads, one instruction more is an error naming the limit.
TEST(Assembler, ModuleSizeLimitIsTheLoaders) {
  const auto source = [](size_t n) {
    std::string s = ".kernel k\n.regs 1\n";
    s.reserve(n * 8 + 32);
    for (size_t i = 1; i < n; ++i) s += "  NOP\n";
    return s + "  EXIT\n.end\n";
  };
  // Each instruction costs 8 code bytes and a 12-byte line entry.
  Module probe;
  probe.source_name = "big.s";
  probe.kernels.resize(1);
  probe.kernels[0].name = "k";
  size_t n = (kMaxModuleBytes - 4096) / 20;
  probe.code.resize(n);
  probe.lines.resize(n);
  while (module_image_bytes(probe) <= kMaxModuleBytes) {
    probe.code.resize(++n);
    probe.lines.resize(n);
  }
  --n;  // the largest that fits

  AsmResult fits = assemble(source(n), "big.s");
  ASSERT_TRUE(fits.ok()) << fits.format_errors();
  const std::vector<uint8_t> bytes = write_module(fits.module);
  EXPECT_LE(bytes.size(), kMaxModuleBytes);
  EXPECT_EQ(read_module(bytes.data(), bytes.size()).status, LoadStatus::OK);

  AsmResult over = assemble(source(n + 1), "big.s");
  ASSERT_EQ(over.diagnostics.size(), 1u);
  EXPECT_EQ(over.diagnostics[0].line, 0);
  EXPECT_NE(over.diagnostics[0].message.find("more than the " + std::to_string(kMaxModuleBytes) +
                                             "-byte module limit"),
            std::string::npos)
      << over.diagnostics[0].message;
}

// -(-2^63) does not exist in int64_t: the negated offset saturates (and is
// out of range), without undefined behaviour (the sanitizer build checks).
TEST(Assembler, NegatedMostNegativeOffset) {
  for (const char* op : {"LDG R1, [R2 - -9223372036854775808]", "LDG R1, [R2 - -99999999999999999999]",
                         "ATOMG.ADD R1, [R2 - -9223372036854775808], R3"}) {
    AsmResult r = assemble(std::string(".kernel k\n.regs 4\n  ") + op + "\n  EXIT\n.end\n", "o.s");
    ASSERT_EQ(r.diagnostics.size(), 1u) << op << "\n" << r.format_errors();
    EXPECT_NE(r.diagnostics[0].message.find("does not fit"), std::string::npos) << r.diagnostics[0].message;
  }
  AsmResult r = assemble(".kernel k\n.regs 4\n  LDG R1, [R2 - -16]\n  EXIT\n.end\n", "o.s");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  EXPECT_EQ(decode(r.module.code[0])->imm, 16u);
}

TEST(Assembler, AssembleFileRefusesDirectories) {
  AsmResult r = assemble_file(::testing::TempDir());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].format().find(": error: is a directory"), std::string::npos)
      << r.diagnostics[0].format();
}

// directive_names() is the list the fuzzing dictionary is generated from: each
// name on it is one the assembler handles (it gets past "unknown directive"),
// and a name not on it is unknown.
TEST(Assembler, DirectiveNamesAreTheOnesItReads) {
  ASSERT_FALSE(directive_names().empty());
  for (const std::string& d : directive_names()) {
    ASSERT_EQ(d[0], '.') << d;
    AsmResult r = assemble(".kernel k\n.regs 4\n" + d + "\n  EXIT\n.end\n", "d.s");
    for (const Diagnostic& diag : r.diagnostics) {
      EXPECT_EQ(diag.message.find("unknown directive"), std::string::npos) << d << ": " << diag.format();
      EXPECT_EQ(diag.message.find("internal"), std::string::npos) << d << ": " << diag.format();
    }
  }
  AsmResult r = assemble(".kernel k\n.regs 4\n.global x\n  EXIT\n.end\n", "d.s");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.format_errors();
  EXPECT_NE(r.diagnostics[0].message.find("unknown directive '.global'"), std::string::npos)
      << r.diagnostics[0].message;
}

// A .word is code like an instruction (found by fuzzing, tests/fuzz/regressions/
// */word_only_kernel.*: the disassembler writes a kernel whose words are all
// illegal as .word lines alone, which the assembler called "no instructions").
TEST(Assembler, WordIsCode) {
  AsmResult r = assemble(".kernel k\n.regs 1\n  .word 0x7F\n.end\n", "w.s");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  ASSERT_EQ(r.module.code.size(), 1u);
  EXPECT_EQ(r.module.code[0], 0x7Fu);
  EXPECT_EQ(r.module.kernels[0].code_bytes, 8u);
  // And so the directives that must come before the code must come before a .word.
  r = assemble(".kernel k\n  .word 0x7F\n.regs 1\n.end\n", "w.s");
  ASSERT_EQ(r.diagnostics.size(), 2u) << r.format_errors();
  EXPECT_EQ(r.diagnostics[0].message, "kernel 'k' has no .regs before its first instruction");
  EXPECT_EQ(r.diagnostics[1].message, ".regs must come before the first instruction of kernel 'k'");
  r = assemble(".kernel k\n.regs 1\n  .word 0x7F\n.shared 16\n.end\n", "w.s");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.format_errors();
  EXPECT_EQ(r.diagnostics[0].message, ".shared must come before the first instruction of kernel 'k'");
}

// .local N: the kernel's local memory per thread (docs/module-format.md,
// version 1.1), kept through write/read and the disassembly.
TEST(Assembler, LocalDirective) {
  AsmResult r = assemble(".kernel a\n.regs 2\n.local 64\n  EXIT\n.end\n.kernel b\n.regs 1\n  EXIT\n.end\n", "k.s");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  EXPECT_EQ(r.module.kernels[0].local_bytes, 64u);
  EXPECT_EQ(r.module.kernels[1].local_bytes, 0u);
  const std::vector<uint8_t> img = write_module(r.module);
  const LoadResult back = read_module(img.data(), img.size());
  ASSERT_EQ(back.status, LoadStatus::OK) << back.message;
  EXPECT_EQ(back.module.kernels[0].local_bytes, 64u);
  AsmResult again = assemble(disassemble(back.module), "k.s");
  ASSERT_TRUE(again.ok()) << again.format_errors();
  EXPECT_EQ(write_module(again.module), img);
  auto first_error = [](const std::string& src) {
    AsmResult e = assemble(src, "k.s");
    return e.diagnostics.empty() ? std::string() : e.diagnostics[0].message;
  };
  EXPECT_NE(first_error(".kernel a\n.regs 1\n.local 6\n  EXIT\n.end\n").find("whole number of 4-byte words"),
            std::string::npos);
  EXPECT_NE(first_error(".kernel a\n.regs 1\n.local 4\n.local 8\n  EXIT\n.end\n").find("duplicate .local"),
            std::string::npos);
  EXPECT_FALSE(first_error(".kernel a\n.regs 1\n.local " + std::to_string(kMaxLocalBytes + 4) + "\n  EXIT\n.end\n")
                   .empty());
}
