// Disassembler: text for single instructions, and byte-identical round trips
// (assemble(disassemble(m)) == m) for every kernel source in the tree and for
// a synthetic module holding every opcode/modifier combination.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/disasm.h"
#include "isa/isa.h"
#include "isa/module.h"

using namespace baresm::isa;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> sources_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".s") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

size_t count_of(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// Disassembles m, reassembles the text under m's source name and expects the
// same bytes; returns the text.
std::string round_trip(const Module& m) {
  const std::string text = disassemble(m);
  AsmResult r = assemble(text, m.source_name);
  EXPECT_TRUE(r.ok()) << r.format_errors() << "\n" << text;
  if (!r.ok()) return text;
  const std::vector<uint8_t> a = write_module(m), b = write_module(r.module);
  EXPECT_TRUE(a == b) << "reassembled module differs (" << a.size() << " vs " << b.size() << " bytes)\n"
                      << text;
  // The disassembly of the reassembled module is a fixed point.
  EXPECT_EQ(disassemble(r.module), text);
  return text;
}

Instr make(Op op) {
  Instr in;
  in.op = op;
  return in;
}

}  // namespace

TEST(Disasm, InstructionText) {
  Instr bra = make(Op::BRA);
  bra.bimm = true;
  bra.pg = 1;
  bra.pg_neg = true;
  bra.imm = 4 | (6u << 16);
  EXPECT_EQ(disassemble_instr(bra, 0x20), "@!P1 BRA L_0040;");
  bra.imm = uint16_t(-4);
  bra.pg = kPredTrue;
  bra.pg_neg = false;
  EXPECT_EQ(disassemble_instr(bra, 0x20), "BRA L_0000;");

  Instr i = make(Op::IADD);
  i.rd = 1, i.ra = 2, i.bimm = true, i.imm = uint32_t(-5);
  EXPECT_EQ(disassemble_instr(i, 0), "IADD R1, R2, -5;");
  i.imm = 0x12345678;
  EXPECT_EQ(disassemble_instr(i, 0), "IADD R1, R2, 0x12345678;");
  i.bimm = false, i.rb = kRegZero, i.imm = 0;
  EXPECT_EQ(disassemble_instr(i, 0), "IADD R1, R2, RZ;");

  Instr f = make(Op::FADD);
  f.rd = 1, f.ra = 2, f.bimm = true;
  auto fimm = [&](uint32_t bits) {
    f.imm = bits;
    return disassemble_instr(f, 0);
  };
  EXPECT_EQ(fimm(0x3FC00000), "FADD R1, R2, 1.5;");
  EXPECT_EQ(fimm(0x42C80000), "FADD R1, R2, 100.0;");  // never reads back as an integer
  EXPECT_EQ(fimm(0x80000000), "FADD R1, R2, -0.0;");
  EXPECT_EQ(fimm(0xFF800000), "FADD R1, R2, -inf;");
  EXPECT_EQ(fimm(0x7FFFFFFF), "FADD R1, R2, 0x7FFFFFFF;");  // NaN has no literal
  EXPECT_EQ(fimm(0x3DCCCCCD), "FADD R1, R2, 0.1;");

  Instr ld = make(Op::LDG);
  ld.bimm = true, ld.rd = 1, ld.ra = 2, ld.mod = LDW_U8, ld.imm = uint32_t(-4);
  EXPECT_EQ(disassemble_instr(ld, 0), "LDG.U8 R1, [R2 - 4];");
  ld.mod = LDW_32, ld.ra = kRegZero, ld.imm = 256;
  EXPECT_EQ(disassemble_instr(ld, 0), "LDG R1, [256];");
  ld.imm = 0;
  ld.ra = 7;
  EXPECT_EQ(disassemble_instr(ld, 0), "LDG R1, [R7];");

  Instr st = make(Op::STS);
  st.bimm = true, st.rd = 5, st.ra = 3, st.mod = LDW_U16, st.imm = 0x20000;
  EXPECT_EQ(disassemble_instr(st, 0), "STS.16 [R3 + 0x20000], R5;");

  Instr setp = make(Op::ISETP);
  setp.rd = 1 | (4 << 3), setp.ra = 2, setp.rb = 3, setp.mod = CMP_LT | kCmpUnsigned | (COMB_OR << 4) | 0x40;
  EXPECT_EQ(disassemble_instr(setp, 0), "ISETP.LT.U32.OR P1, R2, R3, !P4;");
  setp.rd = 1 | (7 << 3), setp.mod = CMP_EQ;
  EXPECT_EQ(disassemble_instr(setp, 0), "ISETP.EQ.AND P1, R2, R3;");

  Instr shfl = make(Op::SHFL);
  shfl.rd = 1, shfl.ra = 2, shfl.bimm = true, shfl.imm = 1, shfl.mod = SHFL_UP | (4 << 2);
  EXPECT_EQ(disassemble_instr(shfl, 0), "SHFL.UP R1, R2, 1, 16;");
  Instr bar = make(Op::BAR);
  bar.bimm = true, bar.imm = 2 | (64u << 16);
  EXPECT_EQ(disassemble_instr(bar, 0), "BAR.SYNC 2, 64;");
  Instr vote = make(Op::VOTE);
  vote.rd = 0, vote.ra = 1 | 8, vote.mod = VOTE_ANY;
  EXPECT_EQ(disassemble_instr(vote, 0), "VOTE.ANY P0, !P1;");
  Instr s2r = make(Op::S2R);
  s2r.rd = 3, s2r.mod = SR_LANEID;
  EXPECT_EQ(disassemble_instr(s2r, 0), "S2R R3, SR_LANEID;");
  Instr cas = make(Op::ATOMS);
  cas.rd = 1, cas.ra = 2, cas.rb = 3, cas.rc = 4, cas.mod = ATOM_CAS, cas.imm = 8;
  EXPECT_EQ(disassemble_instr(cas, 0), "ATOMS.CAS R1, [R2 + 8], R3, R4;");
  Instr sel = make(Op::SEL);
  sel.rd = 1, sel.ra = 2, sel.rb = 3, sel.mod = 5 | 8;
  EXPECT_EQ(disassemble_instr(sel, 0), "SEL R1, R2, R3, !P5;");
  Instr ex = make(Op::EXIT);
  ex.pg = 0;
  EXPECT_EQ(disassemble_instr(ex, 0), "@P0 EXIT;");
}

TEST(Disasm, KernelSourcesRoundTrip) {
  const std::string root = BARESM_SOURCE_DIR;
  const std::vector<std::string> kernels = sources_in(root + "/kernels");
  const std::vector<std::string> ours = sources_in(root + "/tests/data/asm");
  ASSERT_FALSE(kernels.empty()) << "no kernels/*.s to round-trip";
  ASSERT_GE(ours.size(), 3u) << "tests/data/asm is missing files";
  std::vector<std::string> all = kernels;
  all.insert(all.end(), ours.begin(), ours.end());
  for (const auto& path : all) {
    SCOPED_TRACE(path);
    AsmResult r = assemble_file(path);
    ASSERT_TRUE(r.ok()) << r.format_errors();
    ASSERT_FALSE(r.module.code.empty());
    const std::string text = round_trip(r.module);
    // Nothing the assembler wrote needs a .word, except words written as .word.
    size_t words_in_source = 0;
    {
      std::ifstream f(path);
      std::string line;
      while (std::getline(f, line)) {
        auto p = line.find_first_not_of(" \t");
        if (p != std::string::npos && line.compare(p, 5, ".word") == 0) ++words_in_source;
      }
    }
    size_t illegal = 0;
    for (uint64_t w : r.module.code) illegal += !decode(w).has_value();
    EXPECT_GE(count_of(text, ".word "), illegal);
    EXPECT_LE(count_of(text, ".word "), words_in_source);
    // A plain listing has no .loc lines and still names every kernel.
    const std::string plain = disassemble(r.module, DisasmOptions{false});
    EXPECT_EQ(count_of(plain, ".loc"), 0u);
    for (const auto& k : r.module.kernels)
      EXPECT_NE(plain.find(".kernel " + k.name + "\n"), std::string::npos);
  }
}

namespace {

// A canonical instruction of op with mod, random operands; b as a register or
// an immediate as asked.
Instr random_instr(std::mt19937& rng, Op op, uint8_t mod, bool bimm) {
  auto reg = [&] { return uint8_t(rng() % 64 == 0 ? kRegZero : rng() % 63); };
  auto pred = [&] { return uint8_t(rng() % 8); };
  const OpInfo& info = op_info(op);
  Instr in;
  in.op = op;
  in.mod = mod;
  in.pg = pred();
  in.pg_neg = rng() % 4 == 0;
  if (rng() % 2) in.pg = kPredTrue, in.pg_neg = false;
  auto b = [&] {
    in.bimm = bimm;
    if (bimm) {
      in.imm = uint32_t(rng());
      if (rng() % 2) in.imm = uint32_t(int32_t(rng() % 200) - 100);
    } else {
      in.rb = reg();
    }
  };
  switch (info.format) {
    case FMT_NONE:
      break;
    case FMT_RB:
      in.rd = reg();
      b();
      break;
    case FMT_RA:
      in.rd = reg();
      in.ra = reg();
      break;
    case FMT_RAB:
    case FMT_SHFL:
      in.rd = reg();
      in.ra = reg();
      b();
      break;
    case FMT_RABC:
      in.rd = reg();
      in.ra = reg();
      in.rb = reg();
      in.rc = reg();
      break;
    case FMT_SETP:
      in.rd = uint8_t(pred() | (pred() << 3));
      in.ra = reg();
      b();
      break;
    case FMT_SEL:
      in.rd = reg();
      in.ra = reg();
      b();
      break;
    case FMT_S2R:
      in.rd = reg();
      break;
    case FMT_LD:
    case FMT_ST:
      in.bimm = true;
      in.rd = reg();
      in.ra = reg();
      in.imm = rng() % 3 == 0 ? uint32_t(rng()) : uint32_t(int32_t(rng() % 4096) - 2048);
      break;
    case FMT_ATOM:
      in.rd = reg();
      in.ra = reg();
      in.rb = reg();
      if ((mod & 0xF) == ATOM_CAS) in.rc = reg();
      in.imm = uint32_t(int32_t(rng() % (1 << 20)) - (1 << 19));
      break;
    case FMT_VOTE:
      in.rd = mod == VOTE_BALLOT ? reg() : pred();
      in.ra = uint8_t(pred() | (rng() % 2 ? 8 : 0));
      break;
    case FMT_BRA:
      in.bimm = true;
      break;  // target filled in by the caller
    case FMT_BAR:
      in.bimm = true;
      in.imm = (rng() % 16) | (rng() % 3 ? 0u : uint32_t(rng() % 65536) << 16);
      break;
  }
  return in;
}

}  // namespace

TEST(Disasm, SyntheticEveryOpcodeAndModifier) {
  std::mt19937 rng(12345);
  // Every (op, mod, bimm) the decoder accepts, BRA and EXIT aside.
  std::vector<Instr> body;
  for (const auto& o : all_ops()) {
    if (o.op == Op::BRA || o.op == Op::EXIT) continue;
    for (int mod = 0; mod < 256; ++mod)
      for (int bimm = 0; bimm < 2; ++bimm) {
        Instr probe;
        probe.op = o.op;
        probe.mod = uint8_t(mod);
        probe.bimm = bimm;
        if (!decode(encode(probe))) continue;
        for (int rep = 0; rep < 3; ++rep) body.push_back(random_instr(rng, o.op, uint8_t(mod), bimm));
      }
  }
  ASSERT_GT(body.size(), 500u);
  // Float immediates of every kind: normals, subnormals, zeros, infinities, NaNs.
  for (int i = 0; i < 2000; ++i) {
    Instr f = random_instr(rng, i % 2 ? Op::FMUL : Op::FSETP, i % 2 ? 0 : uint8_t(rng() % 14), true);
    const uint32_t special[] = {0,           0x80000000u, 1,           0x807FFFFFu,
                                0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F7FFFFFu};
    f.imm = i < 8 ? special[i] : uint32_t(rng());
    body.push_back(f);
  }
  std::shuffle(body.begin(), body.end(), rng);

  Module m;
  m.source_name = "synthetic.s";
  m.target.arch_id = kArchId;
  const size_t nkernels = 3;
  size_t injected_words = 0;
  for (size_t k = 0; k < nkernels; ++k) {
    const size_t first = m.code.size();
    const size_t n = body.size() / nkernels;
    std::vector<Instr> code(body.begin() + long(k * n), body.begin() + long((k + 1) * n));
    // Branches (half guarded) to random places inside the kernel.
    for (int i = 0; i < 200; ++i) {
      Instr bra = make(Op::BRA);
      bra.bimm = true;
      if (i % 2) bra.pg = uint8_t(rng() % 7), bra.pg_neg = rng() % 2;
      code.insert(code.begin() + long(rng() % code.size()), bra);
    }
    code.push_back(make(Op::EXIT));
    std::vector<uint64_t> words;
    for (size_t i = 0; i < code.size(); ++i) {
      if (code[i].op == Op::BRA) {
        const int64_t t = int64_t(rng() % code.size());
        code[i].imm = uint16_t(int16_t(t - int64_t(i)));
      }
      words.push_back(encode(code[i]));
    }
    // Words the syntax has no form for: written as .word, still byte-identical.
    const uint64_t odd[] = {
        0x000000000000007Full,                 // opcode 0x7F does not exist
        encode(make(Op::NOP)) | (1ull << 44),  // NOP with an imm20
        encode(make(Op::MOV)) ^ (1ull << 18),  // MOV with ra != RZ
        0x0000000007FFF713ull,                 // ISETP with comparison 7
    };
    for (uint64_t w : odd) words.insert(words.begin() + long(1 + rng() % (words.size() - 1)), w);
    injected_words += 4;
    // The reconvergence points the assembler would compute.
    const std::vector<int64_t> reconv = reconvergence_deltas(words.data(), words.size());
    for (size_t i = 0; i < words.size(); ++i)
      if (reconv[i]) words[i] = (words[i] & ~(0xFFFFull << 48)) | (uint64_t(uint16_t(reconv[i])) << 48);
    KernelInfo ki;
    ki.name = "synth" + std::to_string(k);
    ki.entry = uint32_t(first * 8);
    ki.code_bytes = uint32_t(words.size() * 8);
    ki.regs = 63;
    ki.shared_bytes = uint32_t(k * 1000);
    if (k == 1) {
      // .param a, 1 / .param b, 4, 16 / .param c, 12
      ki.params = {{"a", 0, 1, 1}, {"b", 16, 4, 16}, {"c", 24, 12, 8}};
      ki.param_bytes = 36;
    }
    m.kernels.push_back(ki);
    m.code.insert(m.code.end(), words.begin(), words.end());
  }
  m.target.max_regs = 63;
  m.target.max_shared_bytes = 2000;
  for (size_t i = 0; i < m.code.size(); ++i)
    m.lines.push_back({uint32_t(i * 8), uint32_t(1 + rng() % 100000), uint32_t(rng() % 80)});

  const std::string text = round_trip(m);
  EXPECT_EQ(count_of(text, ".word "), injected_words);
  EXPECT_EQ(count_of(text, "// warning"), 0u) << text.substr(0, 2000);
  // Every mnemonic with its suffixes appears as text.
  for (const Instr& in : body)
    EXPECT_NE(text.find(mnemonic_text(in)), std::string::npos) << mnemonic_text(in);
}

TEST(Disasm, WordsTheAssemblerWouldRewrite) {
  // A register beyond .regs, a branch out of the kernel, a reconvergence
  // point the CFG disagrees with: each becomes .word and the round trip holds.
  AsmResult r = assemble(
      ".kernel k\n.regs 4\n"
      "  @P0 BRA a\n"
      "  IADD R1, R2, R3\n"
      "a: EXIT\n"
      ".end\n"
      ".kernel j\n.regs 2\n"
      "  EXIT\n"
      ".end\n",
      "w.s");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  Module m = r.module;
  ASSERT_EQ(m.code.size(), 4u);
  m.code[0] ^= 1ull << 48;                                   // reconvergence 2 -> 3
  m.code[1] = (m.code[1] & ~(63ull << 12)) | (10ull << 12);  // IADD R10, ...
  std::string text = round_trip(m);
  EXPECT_NE(text.find("reconvergence point differs"), std::string::npos) << text;
  EXPECT_NE(text.find("register beyond .regs"), std::string::npos) << text;
  m.code[0] = (m.code[0] & ~(0xFFFFull << 32)) | (3ull << 32);  // target: the next kernel
  text = round_trip(m);
  EXPECT_NE(text.find("branch leaves the kernel"), std::string::npos) << text;
}

TEST(Disasm, ReportsWhatCannotBeReproduced) {
  AsmResult r = assemble(".kernel k\n.param a, 4\n.regs 1\n  EXIT\n.end\n", "x.s");
  ASSERT_TRUE(r.ok());
  Module m = r.module;
  m.kernels[0].params[0].offset = 4;  // not natural packing
  m.kernels[0].param_bytes = 8;
  EXPECT_NE(disassemble(m).find("// warning: parameter offsets"), std::string::npos);
  m = r.module;
  m.lines.clear();
  EXPECT_NE(disassemble(m).find("// warning: the line table"), std::string::npos);
  EXPECT_EQ(disassemble(m, DisasmOptions{false}).find("warning"), std::string::npos);
}

// Names come from the module, not from the disassembler: whatever they hold,
// each stays inside its own line, quoted and escaped when it is not what the
// assembler reads as a name, so the text never carries directives the module
// does not have.
TEST(Disasm, NamesAreQuotedAndEscaped) {
  AsmResult r = assemble(".kernel k\n.param a, 4\n.regs 2\n  LDC R1, [PARAM(a)]\n  EXIT\n.end\n", "x.s");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  const std::string inject = "\n.end\n.kernel evil\n.regs 1\n  TRAP\n";
  Module m = r.module;
  m.source_name = "x.s" + inject;
  m.kernels[0].name = "k" + inject;
  m.kernels[0].params[0].name = "a\"" + inject;
  const std::string text = disassemble(m);
  EXPECT_EQ(count_of(text, "\n.kernel "), 1u) << text;
  EXPECT_EQ(count_of(text, "\n.end\n"), 1u) << text;
  EXPECT_EQ(text.find("evil\n"), std::string::npos) << text;
  EXPECT_NE(text.find("// baresm disassembly of \"x.s\\n.end\\n.kernel evil\\n.regs 1\\n  TRAP\\n\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n.kernel \"k\\n.end\\n.kernel evil"), std::string::npos) << text;
  EXPECT_NE(text.find("\n.param \"a\\\"\\n.end"), std::string::npos) << text;
  EXPECT_NE(text.find("// warning: kernel name \"k\\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("PARAM("), std::string::npos) << "no PARAM() of a name the assembler cannot read\n"
                                                    << text;
  // Such text does not assemble (quoted names are not names), let alone into "evil".
  AsmResult again = assemble(text, "again.s");
  EXPECT_FALSE(again.ok());
  EXPECT_EQ(again.module.find_kernel("evil"), nullptr);

  // Other bytes outside printable ASCII are escaped too; plain names are left alone.
  m = r.module;
  m.source_name = "tab\there \x01\x7F\xC3\xA9.s";
  EXPECT_NE(disassemble(m).find("of \"tab\\there \\x01\\x7F\\xC3\\xA9.s\"\n"), std::string::npos)
      << disassemble(m);
  m.source_name = "dir with space/x.s";
  EXPECT_NE(disassemble(m).find("// baresm disassembly of dir with space/x.s\n"), std::string::npos);
  EXPECT_EQ(disassemble(r.module).find('"'), std::string::npos);
}
