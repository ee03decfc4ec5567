// The control core (rtl/mcu/baresm_mcu_core.sv) verilated, in lockstep with
// the reference ISS (sim/mcu/rv32_iss.*): every instruction the core retires
// (its trace_o) must be the ISS's next one (pc, word, rd and its value, the
// store's address, bytes and strobes); where the core halts the ISS must halt
// with the same cause at the same pc; at the end the register files (the
// core's RAM) and the memories must be equal. The core's memory answers with
// random wait states (before a request is taken, before a read's response).
//
// Programs: random RV32I streams (every opcode; loads and stores inside a
// data region; forward branches and jumps), directed stop causes, and the C
// program fw/mcu_selftest (built by clang) whose results are also checked
// against this file's own computation of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vmcu.h"
#include "Vmcu___024root.h"
#include "sim/mcu/rv32_iss.h"
#include "verilated.h"

namespace {

using baresm::rv32::Cause;
using baresm::rv32::cause_name;
using baresm::rv32::Iss;
using baresm::rv32::Retire;
namespace enc = baresm::rv32::enc;

constexpr uint32_t kMemWords = 16384;   // 64 KB, the core's PcW = 16
constexpr uint32_t kDataBase = 0x8000;  // the random programs' data region
constexpr uint32_t kDataBytes = 512;

// A field of a packed struct port (bit lo upwards, width <= 32) of a wide
// (VlWide) or narrow (QData) Verilator value.
template <typename W>
uint32_t field(const W& w, unsigned lo, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) {
    const unsigned i = lo + b;
    v |= static_cast<uint64_t>((w[i / 32] >> (i % 32)) & 1u) << b;
  }
  return static_cast<uint32_t>(v);
}
struct Narrow {  // a QData seen as 32-bit words
  uint64_t q;
  uint32_t operator[](unsigned i) const { return static_cast<uint32_t>(q >> (32 * i)); }
};

// Port layouts (rtl/prim/baresm_mcu_types.svh; the first field is the MSB).
struct Req {
  bool valid, we;
  uint32_t addr, wdata, strb;
};
template <typename W>
Req decode_req(const W& w) {
  return {field(w, 67, 1) != 0, field(w, 66, 1) != 0, field(w, 36, 30), field(w, 4, 32), field(w, 0, 4)};
}
struct Status {
  bool halted;
  uint32_t cause, pc, insn;
};
template <typename W>
Status decode_status(const W& w) {
  return {field(w, 67, 1) != 0, field(w, 64, 3), field(w, 32, 32), field(w, 0, 32)};
}
template <typename W>
bool decode_trace(const W& w, Retire* r) {
  r->pc = field(w, 137, 32);
  r->insn = field(w, 105, 32);
  r->rd_we = field(w, 104, 1) != 0;
  r->rd = field(w, 99, 5);
  r->rd_val = field(w, 67, 32);
  r->st_we = field(w, 66, 1) != 0;
  r->st_addr = field(w, 36, 30);
  r->st_data = field(w, 4, 32);
  r->st_strb = field(w, 0, 4);
  return field(w, 169, 1) != 0;
}

uint32_t strb_mask(uint32_t strb) {
  uint32_t m = 0;
  for (int k = 0; k < 4; ++k)
    if (strb & (1u << k)) m |= 0xffu << (8 * k);
  return m;
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

std::string describe(const Retire& r) {
  std::ostringstream s;
  s << "pc " << hex(r.pc) << " insn " << hex(r.insn);
  if (r.rd_we) s << " x" << r.rd << "=" << hex(r.rd_val);
  if (r.st_we) s << " store [" << hex(r.st_addr * 4) << "] " << hex(r.st_data) << " strb " << r.st_strb;
  return s.str();
}

struct BusConfig {
  unsigned ready_pct = 100;  // chance that a request is taken in a given cycle
  unsigned max_delay = 1;    // a read's response 1..max_delay cycles after it was taken
};

struct RunResult {
  std::string error;  // empty: the core and the ISS agreed throughout
  Cause cause = Cause::kRunning;
  uint32_t halt_pc = 0;
  uint64_t cycles = 0, retired = 0;
  std::vector<uint32_t> mem;  // the core's memory at the end
};

// Runs `image` (words from address 0, the rest of memory `fill`) on the core
// and on the ISS in lockstep until the core halts.
RunResult run_lockstep(const std::vector<uint32_t>& image, const std::vector<uint32_t>& fill,
                       const BusConfig& bus, uint64_t seed, uint64_t max_cycles = 2000000) {
  RunResult res;
  std::vector<uint32_t> rtl_mem = fill, iss_mem = fill;
  rtl_mem.resize(kMemWords, 0);
  iss_mem.resize(kMemWords, 0);
  for (size_t i = 0; i < image.size(); ++i) rtl_mem[i] = iss_mem[i] = image[i];
  Iss iss(&iss_mem, 0);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);  // registers and RAM start random (x0 must be made zero)
  ctx->randSeed(static_cast<int>(seed & 0x7fffffff));
  auto top = std::make_unique<Vmcu>(ctx.get());
  std::mt19937_64 rng(seed * 7919 + 1);
  auto chance = [&](unsigned pct) { return rng() % 100 < pct; };

  top->clk_i = 0;
  top->rst_ni = 0;
  top->req_ready_i = 0;
  top->rsp_i = 0;
  top->eval();
  top->clk_i = 1;
  top->eval();
  top->clk_i = 0;
  top->eval();
  top->rst_ni = 1;
  top->eval();
  // The registers start undefined (random here): the ISS starts from the same.
  // The core keeps two copies (rs1 is read from u_rf, rs2 from u_rf2), both
  // written on every write; on the FPGA both start alike (EBR contents come
  // from the bitstream), so the second starts as a copy of the first here.
  const auto& rf = top->rootp->baresm_mcu_core__DOT__u_rf__DOT__mem_q;
  auto& rf2 = top->rootp->baresm_mcu_core__DOT__u_rf2__DOT__mem_q;
  for (unsigned i = 0; i < 32; ++i) rf2[i] = rf[i];
  for (unsigned i = 1; i < 32; ++i) iss.set_reg(i, rf[i]);

  bool pending = false;
  unsigned delay = 0;
  uint32_t pending_data = 0;
  auto fail = [&](const std::string& what) {
    res.error = "cycle " + std::to_string(res.cycles) + ": " + what;
  };
  for (; res.cycles < max_cycles; ++res.cycles) {
    // Inputs of this cycle.
    const bool ready = chance(bus.ready_pct);
    const bool rsp_valid = pending && delay == 0;
    top->req_ready_i = ready;
    top->rsp_i = rsp_valid ? ((1ull << 32) | pending_data) : 0;
    top->eval();

    const Status st = decode_status(top->status_o);
    if (st.halted) {
      Retire r;
      if (iss.step(&r)) {
        fail("the core halted (" + std::string(cause_name(static_cast<Cause>(st.cause))) + " at " +
             hex(st.pc) + ") where the ISS retires " + describe(r));
        return res;
      }
      if (static_cast<uint32_t>(iss.cause()) != st.cause || iss.pc() != st.pc || iss.insn() != st.insn) {
        fail("halt: core " + std::string(cause_name(static_cast<Cause>(st.cause))) + " at " + hex(st.pc) +
             " insn " + hex(st.insn) + ", ISS " + cause_name(iss.cause()) + " at " + hex(iss.pc()) +
             " insn " + hex(iss.insn()));
        return res;
      }
      res.cause = iss.cause();
      res.halt_pc = st.pc;
      break;
    }

    Retire got;
    if (decode_trace(top->trace_o, &got)) {
      ++res.retired;
      Retire want;
      if (!iss.step(&want)) {
        fail("the core retired " + describe(got) + " where the ISS halts (" + cause_name(iss.cause()) +
             " at " + hex(iss.pc()) + ")");
        return res;
      }
      const uint32_t m = strb_mask(got.st_strb);
      const bool same = got.pc == want.pc && got.insn == want.insn && got.rd_we == want.rd_we &&
                        (!want.rd_we || (got.rd == want.rd && got.rd_val == want.rd_val)) &&
                        got.st_we == want.st_we && (!want.st_we || got.st_addr == want.st_addr) &&
                        (!want.st_we || (got.st_strb == want.st_strb && (got.st_data & m) == want.st_data));
      if (!same) {
        fail("retired " + describe(got) + ", the ISS " + describe(want));
        return res;
      }
    }

    // The memory: take the request, answer a read later.
    const Req rq = decode_req(top->req_o);
    if (rsp_valid) pending = false;
    if (pending && delay > 0) --delay;
    if (rq.valid && ready) {
      if (pending) {
        fail("a second request while a read is outstanding");
        return res;
      }
      uint32_t& w = rtl_mem[rq.addr & (kMemWords - 1)];
      if (rq.we) {
        const uint32_t m = strb_mask(rq.strb);
        w = (w & ~m) | (rq.wdata & m);
      } else {
        pending = true;
        pending_data = w;
        delay = static_cast<unsigned>(rng() % bus.max_delay);  // 0: the next cycle
      }
    }
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
  }
  if (res.cycles >= max_cycles) {
    fail("no halt within " + std::to_string(max_cycles) + " cycles");
    return res;
  }

  // Register files and memories.
  for (unsigned i = 0; i < 32; ++i) {
    if (rf[i] != iss.reg(i) || rf2[i] != iss.reg(i)) {
      fail("at the end x" + std::to_string(i) + " = " + hex(rf[i]) + " (second copy " + hex(rf2[i]) +
           "), the ISS's " + hex(iss.reg(i)));
      return res;
    }
  }
  for (uint32_t i = 0; i < kMemWords; ++i) {
    if (rtl_mem[i] != iss_mem[i]) {
      fail("at the end memory " + hex(4 * i) + " = " + hex(rtl_mem[i]) + ", the ISS's " + hex(iss_mem[i]));
      return res;
    }
  }
  res.mem = rtl_mem;
  top->final();
  return res;
}

// ---- random programs ------------------------------------------------------------------
enum Op : uint32_t {
  LOAD = 0x03,
  MISC = 0x0f,
  OPIMM = 0x13,
  AUIPC = 0x17,
  STORE = 0x23,
  OP = 0x33,
  LUI = 0x37,
  BRANCH = 0x63,
  JALR = 0x67,
  JAL = 0x6f,
  SYSTEM = 0x73
};

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  uint32_t u(uint32_t n) { return static_cast<uint32_t>(rng() % n); }
  uint32_t reg() { return u(8) == 0 ? 0 : 1 + u(31); }
  int32_t simm12() {
    switch (u(4)) {
      case 0:
        return static_cast<int32_t>(u(32)) - 16;
      case 1:
        return u(2) ? 2047 : -2048;
      default:
        return static_cast<int32_t>(u(4096)) - 2048;
    }
  }
  uint32_t value() {
    switch (u(6)) {
      case 0:
        return u(64);
      case 1:
        return 0x80000000u >> u(32);
      case 2:
        return 0xffffffffu - u(4);
      default:
        return static_cast<uint32_t>(rng());
    }
  }
};

// A base address in a register: LUI rb, hi; ADDI rb, rb, lo; then the access
// at imm(rb) reaches `target`.
void emit_base(std::vector<uint32_t>* g, uint32_t rb, uint32_t target, int32_t imm) {
  const uint32_t base = target - static_cast<uint32_t>(imm);
  const int32_t lo = static_cast<int32_t>(base << 20) >> 20;
  const uint32_t hi = (base - static_cast<uint32_t>(lo)) >> 12;
  g->push_back(enc::u(hi, rb, LUI));
  g->push_back(enc::i(lo, rb, 0, rb, OPIMM));
}

struct Program {
  std::vector<uint32_t> image, fill;
};

Program random_program(uint64_t seed, unsigned groups) {
  Gen g(seed);
  // Groups of instructions; a branch or jump lands on the start of a later group.
  struct Group {
    std::vector<uint32_t> w;
    int kind = 0;  // 0 plain, 1 branch/JAL (last word), 2 AUIPC+JALR
    unsigned skip = 0;
    bool odd = false;
  };
  std::vector<Group> gs;
  for (uint32_t r = 1; r < 32; ++r) {  // every register a known value
    Group x;
    const uint32_t v = g.value();
    const int32_t lo = static_cast<int32_t>(v << 20) >> 20;
    x.w.push_back(enc::u((v - static_cast<uint32_t>(lo)) >> 12, r, LUI));
    x.w.push_back(enc::i(lo, r, 0, r, OPIMM));
    gs.push_back(x);
  }
  for (unsigned n = 0; n < groups; ++n) {
    Group x;
    const uint32_t k = g.u(100);
    if (k < 25) {  // OP
      static const uint32_t kOps[][2] = {{0, 0}, {0x20, 0}, {0, 1},    {0, 2}, {0, 3},
                                         {0, 4}, {0, 5},    {0x20, 5}, {0, 6}, {0, 7}};
      const auto* o = kOps[g.u(10)];
      x.w.push_back(enc::r(o[0], g.reg(), g.reg(), o[1], g.reg(), OP));
    } else if (k < 45) {  // OP-IMM
      const uint32_t f3 = g.u(8);
      if (f3 == 1 || f3 == 5) {
        const uint32_t f7 = (f3 == 5 && g.u(2)) ? 0x20 : 0;
        x.w.push_back(enc::r(f7, g.u(32), g.reg(), f3, g.reg(), OPIMM));
      } else {
        x.w.push_back(enc::i(g.simm12(), g.reg(), f3, g.reg(), OPIMM));
      }
    } else if (k < 50) {
      x.w.push_back(enc::u(g.u(1u << 20), g.reg(), g.u(2) ? LUI : AUIPC));
    } else if (k < 62) {  // load
      static const uint32_t kF3[] = {0, 1, 2, 4, 5};
      const uint32_t f3 = kF3[g.u(5)], size = 1u << (f3 & 3);
      const uint32_t target = kDataBase + (g.u(kDataBytes) & ~(size - 1));
      const int32_t imm = g.simm12();
      const uint32_t rb = 1 + g.u(31);
      emit_base(&x.w, rb, target, imm);
      x.w.push_back(enc::i(imm, rb, f3, g.reg(), LOAD));
    } else if (k < 74) {  // store
      const uint32_t f3 = g.u(3), size = 1u << f3;
      const uint32_t target = kDataBase + (g.u(kDataBytes) & ~(size - 1));
      const int32_t imm = g.simm12();
      const uint32_t rb = 1 + g.u(31);
      emit_base(&x.w, rb, target, imm);
      x.w.push_back(enc::s(imm, g.reg(), rb, f3));
    } else if (k < 88) {  // branch
      static const uint32_t kF3[] = {0, 1, 4, 5, 6, 7};
      const uint32_t rs1 = g.reg();
      x.w.push_back(enc::b(0, g.u(4) == 0 ? rs1 : g.reg(), rs1, kF3[g.u(6)]));
      x.kind = 1;
      x.skip = g.u(4);
    } else if (k < 92) {  // JAL
      x.w.push_back(enc::j(0, g.reg()));
      x.kind = 1;
      x.skip = g.u(4);
    } else if (k < 96) {  // AUIPC + JALR
      const uint32_t rt = 1 + g.u(31);
      x.w.push_back(enc::u(0, rt, AUIPC));
      x.w.push_back(enc::i(0, rt, 0, g.reg(), JALR));
      x.kind = 2;
      x.skip = g.u(4);
      x.odd = g.u(2) != 0;  // bit 0 of the target is cleared
    } else {
      x.w.push_back(enc::i(static_cast<int32_t>(g.u(4096)), g.u(32), 0, g.u(32), MISC));  // FENCE
    }
    gs.push_back(x);
  }
  Group end;
  end.w.push_back(0x00000073);  // ECALL
  gs.push_back(end);

  std::vector<uint32_t> start(gs.size() + 1, 0);
  for (size_t i = 0; i < gs.size(); ++i) start[i + 1] = start[i] + static_cast<uint32_t>(gs[i].w.size());
  Program p;
  for (size_t i = 0; i < gs.size(); ++i) {
    Group& x = gs[i];
    const size_t tgt = std::min(gs.size() - 1, i + 1 + x.skip);
    if (x.kind == 1) {
      const uint32_t at = start[i] + static_cast<uint32_t>(x.w.size()) - 1;
      const int32_t off = 4 * static_cast<int32_t>(start[tgt] - at);
      uint32_t& w = x.w.back();
      w = (w & 0x7f) == JAL ? enc::j(off, (w >> 7) & 31)
                            : enc::b(off, (w >> 20) & 31, (w >> 15) & 31, (w >> 12) & 7);
    } else if (x.kind == 2) {
      const int32_t off = 4 * static_cast<int32_t>(start[tgt] - start[i]) + (x.odd ? 1 : 0);
      const uint32_t w = x.w[1];
      x.w[1] = enc::i(off, (w >> 15) & 31, 0, (w >> 7) & 31, JALR);
    }
    p.image.insert(p.image.end(), x.w.begin(), x.w.end());
  }
  p.fill.resize(kMemWords);
  for (auto& w : p.fill) w = static_cast<uint32_t>(g.rng());
  return p;
}

BusConfig random_bus(uint64_t seed) {
  switch (seed % 4) {
    case 0:
      return {100, 1};  // no wait states
    case 1:
      return {50, 4};
    case 2:
      return {20, 9};
    default:
      return {80, 2};
  }
}

#ifndef MCU_PLANTED
TEST(Random, LockstepManySeeds) {
  uint64_t retired = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    const Program p = random_program(seed, 250);
    const RunResult r = run_lockstep(p.image, p.fill, random_bus(seed), seed);
    ASSERT_EQ(r.error, "") << "seed " << seed;
    ASSERT_EQ(r.cause, Cause::kEcall) << "seed " << seed;
    retired += r.retired;
  }
  std::printf("random programs: 1000 seeds, %llu instructions retired in lockstep\n",
              static_cast<unsigned long long>(retired));
}

// The ISS alone against known answers (so that the lockstep does not rest on
// the ISS and the core sharing a misreading of the ISA).
TEST(Iss, KnownAnswers) {
  std::vector<uint32_t> mem(1024, 0);
  const std::vector<uint32_t> prog = {
      enc::u(0x80000, 1, LUI),                      // x1 = 0x80000000
      enc::i(-16, 0, 0, 2, OPIMM),                  // x2 = -16
      enc::r(0x20, 0, 1, 5, 3, OPIMM) | (4 << 20),  // x3 = SRAI x1, 4 = 0xf8000000
      enc::r(0, 0, 1, 5, 4, OPIMM) | (4 << 20),     // x4 = SRLI x1, 4 = 0x08000000
      enc::r(0, 2, 1, 3, 5, OP),                    // x5 = SLTU x1, x2 = 1 (0x80000000 < 0xfffffff0)
      enc::r(0, 2, 1, 2, 6, OP),                    // x6 = SLT x1, x2 = 1 (INT_MIN < -16)
      enc::r(0, 1, 2, 2, 7, OP),                    // x7 = SLT x2, x1 = 0
      enc::r(0x20, 2, 0, 0, 8, OP),                 // x8 = 0 - x2 = 16
      enc::r(0, 8, 2, 1, 9, OP),                    // x9 = x2 << 16 = 0xfff00000
      enc::i(-1, 0, 3, 10, OPIMM),                  // x10 = SLTIU 0, -1 = 1
      enc::s(0x100, 2, 0, 0),                       // [0x100] byte = 0xf0
      enc::i(0x100, 0, 0, 11, LOAD),                // x11 = LB = -16
      enc::i(0x100, 0, 4, 12, LOAD),                // x12 = LBU = 0xf0
      enc::b(8, 2, 1, 6),                           // BLTU x1, x2: taken, skips the next
      enc::i(1, 0, 0, 13, OPIMM),                   // (skipped)
      enc::j(8, 14),                                // JAL x14 (= pc + 4), skips the next
      enc::i(1, 0, 0, 13, OPIMM),                   // (skipped)
      0x00000073};
  for (size_t i = 0; i < prog.size(); ++i) mem[i] = prog[i];
  Iss iss(&mem, 0);
  Retire r;
  while (iss.step(&r)) {
  }
  EXPECT_EQ(iss.cause(), Cause::kEcall);
  const uint32_t want[] = {0,  0x80000000u, 0xfffffff0u, 0xf8000000u, 0x08000000u, 1, 1,     0,
                           16, 0xfff00000u, 1,           0xfffffff0u, 0xf0,        0, 4 * 16};
  for (unsigned i = 0; i < 15; ++i) EXPECT_EQ(iss.reg(i), want[i]) << "x" << i;
}

// ---- directed stop causes -------------------------------------------------------------
struct Stop {
  const char* what;
  std::vector<uint32_t> prog;  // after a prologue of three ADDIs
  Cause cause;
  uint32_t index;  // the stopping instruction's index in prog
};

std::vector<uint32_t> with_prologue(const std::vector<uint32_t>& prog) {
  std::vector<uint32_t> v = {enc::i(0x123, 0, 0, 5, OPIMM), enc::u(0x8, 6, LUI),  // x6 = 0x8000
                             enc::i(-7, 0, 0, 7, OPIMM)};
  v.insert(v.end(), prog.begin(), prog.end());
  v.push_back(0x00000073);
  return v;
}

TEST(Directed, EveryStopCause) {
  const uint32_t ecall = 0x00000073;
  std::vector<Stop> cases = {
      {"ecall", {enc::i(1, 5, 0, 5, OPIMM), ecall}, Cause::kEcall, 1},
      {"ebreak", {0x00100073}, Cause::kEbreak, 0},
      {"all zeros", {0x00000000}, Cause::kIllegal, 0},
      {"all ones", {0xffffffff}, Cause::kIllegal, 0},
      {"compressed (low bits 01)", {0x00000011}, Cause::kIllegal, 0},
      {"low bits 10", {0x00000012 | (5 << 7)}, Cause::kIllegal, 0},
      {"JALR funct3 1", {enc::i(0, 6, 1, 1, JALR)}, Cause::kIllegal, 0},
      {"branch funct3 2", {enc::b(8, 5, 5, 2)}, Cause::kIllegal, 0},
      {"branch funct3 3", {enc::b(8, 5, 5, 3)}, Cause::kIllegal, 0},
      {"load funct3 3 (LD)", {enc::i(0, 6, 3, 1, LOAD)}, Cause::kIllegal, 0},
      {"load funct3 6 (LWU)", {enc::i(0, 6, 6, 1, LOAD)}, Cause::kIllegal, 0},
      {"load funct3 7", {enc::i(0, 6, 7, 1, LOAD)}, Cause::kIllegal, 0},
      {"store funct3 3 (SD)", {enc::s(0, 5, 6, 3)}, Cause::kIllegal, 0},
      {"store funct3 4", {enc::s(0, 5, 6, 4)}, Cause::kIllegal, 0},
      {"store funct3 7", {enc::s(0, 5, 6, 7)}, Cause::kIllegal, 0},
      {"SLLI funct7 0x20", {enc::r(0x20, 3, 5, 1, 1, OPIMM)}, Cause::kIllegal, 0},
      {"SLLI shamt bit 5 (RV64)", {enc::r(0x01, 3, 5, 1, 1, OPIMM)}, Cause::kIllegal, 0},
      {"SRLI funct7 0x01", {enc::r(0x01, 3, 5, 5, 1, OPIMM)}, Cause::kIllegal, 0},
      {"SRAI funct7 0x21", {enc::r(0x21, 3, 5, 5, 1, OPIMM)}, Cause::kIllegal, 0},
      {"MUL (funct7 1)", {enc::r(0x01, 5, 5, 0, 1, OP)}, Cause::kIllegal, 0},
      {"DIVU (funct7 1)", {enc::r(0x01, 5, 5, 5, 1, OP)}, Cause::kIllegal, 0},
      {"OP funct7 0x20 AND", {enc::r(0x20, 5, 5, 7, 1, OP)}, Cause::kIllegal, 0},
      {"OP funct7 0x20 SLL", {enc::r(0x20, 5, 5, 1, 1, OP)}, Cause::kIllegal, 0},
      {"OP funct7 0x20 SLT", {enc::r(0x20, 5, 5, 2, 1, OP)}, Cause::kIllegal, 0},
      {"OP funct7 0x20 SLTU", {enc::r(0x20, 5, 5, 3, 1, OP)}, Cause::kIllegal, 0},
      {"OP funct7 0x20 XOR", {enc::r(0x20, 5, 5, 4, 1, OP)}, Cause::kIllegal, 0},
      {"OP funct7 0x20 OR", {enc::r(0x20, 5, 5, 6, 1, OP)}, Cause::kIllegal, 0},
      {"SUB and SRA are legal, then EBREAK",
       {enc::r(0x20, 5, 7, 0, 1, OP), enc::r(0x20, 5, 7, 5, 2, OP), 0x00100073},
       Cause::kEbreak,
       2},
      {"OP funct7 0x40", {enc::r(0x40, 5, 5, 0, 1, OP)}, Cause::kIllegal, 0},
      {"FENCE.I", {enc::i(0, 0, 1, 0, MISC)}, Cause::kIllegal, 0},
      {"MISC-MEM funct3 2", {enc::i(0, 0, 2, 0, MISC)}, Cause::kIllegal, 0},
      {"CSRRW", {0x30001073}, Cause::kIllegal, 0},
      {"CSRRS cycle", {0xc0002573}, Cause::kIllegal, 0},
      {"MRET", {0x30200073}, Cause::kIllegal, 0},
      {"WFI", {0x10500073}, Cause::kIllegal, 0},
      {"ECALL with rd 1", {0x000000f3}, Cause::kIllegal, 0},
      {"ECALL with rs1 1", {0x00008073}, Cause::kIllegal, 0},
      {"system imm 2 (URET)", {0x00200073}, Cause::kIllegal, 0},
      {"LOAD-FP", {0x00002007}, Cause::kIllegal, 0},
      {"AMO", {0x0000202f}, Cause::kIllegal, 0},
      {"OP-IMM-32 (RV64)", {0x0000001b}, Cause::kIllegal, 0},
      {"custom-0", {0x0000000b}, Cause::kIllegal, 0},
      {"OP-V", {0x00000057}, Cause::kIllegal, 0},
      {"LW at +1", {enc::i(1, 6, 2, 1, LOAD)}, Cause::kLoadMisaligned, 0},
      {"LW at +2", {enc::i(2, 6, 2, 1, LOAD)}, Cause::kLoadMisaligned, 0},
      {"LW at +3", {enc::i(3, 6, 2, 1, LOAD)}, Cause::kLoadMisaligned, 0},
      {"LH at +1", {enc::i(1, 6, 1, 1, LOAD)}, Cause::kLoadMisaligned, 0},
      {"LHU at +3", {enc::i(3, 6, 5, 1, LOAD)}, Cause::kLoadMisaligned, 0},
      {"LH at -1 (negative offset)", {enc::i(-1, 6, 1, 1, LOAD)}, Cause::kLoadMisaligned, 0},
      {"SW at +2", {enc::s(2, 5, 6, 2)}, Cause::kStoreMisaligned, 0},
      {"SW at +1", {enc::s(1, 5, 6, 2)}, Cause::kStoreMisaligned, 0},
      {"SH at +3", {enc::s(3, 5, 6, 1)}, Cause::kStoreMisaligned, 0},
      {"LB, LBU, SB anywhere; then SH at +1",
       {enc::i(3, 6, 0, 1, LOAD), enc::i(1, 6, 4, 2, LOAD), enc::s(3, 5, 6, 0), enc::s(1, 5, 6, 1)},
       Cause::kStoreMisaligned,
       3},
      {"JAL to +6", {enc::j(6, 1)}, Cause::kFetchMisaligned, 0},
      {"JAL to -2", {enc::i(1, 5, 0, 5, OPIMM), enc::j(-2, 1)}, Cause::kFetchMisaligned, 1},
      {"JALR to +6", {enc::u(0, 8, AUIPC), enc::i(6, 8, 0, 1, JALR)}, Cause::kFetchMisaligned, 1},
      {"JALR to +7 (bit 0 cleared, bit 1 set)",
       {enc::u(0, 8, AUIPC), enc::i(7, 8, 0, 1, JALR)},
       Cause::kFetchMisaligned,
       1},
      {"JALR to +13 (bit 0 cleared: aligned), then EBREAK",
       {enc::u(0, 8, AUIPC), enc::i(13, 8, 0, 8, JALR), 0xffffffff, 0x00100073},
       Cause::kEbreak,
       3},
      {"taken BEQ to +6", {enc::b(6, 5, 5, 0)}, Cause::kFetchMisaligned, 0},
      {"not-taken BNE to +6 goes on, then taken BLTU to -2",
       {enc::b(6, 5, 5, 1), enc::b(-2, 7, 5, 6)},
       Cause::kFetchMisaligned,
       1},
  };
  for (const Stop& c : cases) {
    const std::vector<uint32_t> img = with_prologue(c.prog);
    for (uint64_t seed : {1, 2}) {
      const RunResult r = run_lockstep(img, {}, random_bus(seed), seed, 10000);
      EXPECT_EQ(r.error, "") << c.what;
      EXPECT_EQ(r.cause, c.cause) << c.what << ": " << cause_name(r.cause);
      EXPECT_EQ(r.halt_pc, 4 * (3 + c.index)) << c.what;
    }
  }
}

// ---- the C program (fw/mcu_selftest) ----------------------------------------------------
std::vector<uint32_t> read_hex(const std::string& path) {
  std::ifstream f(path);
  std::vector<uint32_t> v;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty()) v.push_back(static_cast<uint32_t>(std::stoul(line, nullptr, 16)));
  return v;
}

uint32_t crc32(const uint8_t* p, size_t n) {
  uint32_t crc = 0xffffffffu;
  while (n--) {
    crc ^= *p++;
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

TEST(Firmware, SelftestSortCrc) {
  const char* env = std::getenv("MCU_FW_HEX");
  const std::string path = env ? env : MCU_FW_HEX;
  const std::vector<uint32_t> img = read_hex(path);
  ASSERT_GT(img.size(), 16u) << "no image at " << path;

  // What fw/mcu_selftest/main.c computes, computed here.
  uint32_t s = 0x12345678u, data[64];
  for (auto& d : data) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    d = s;
  }
  std::sort(data, data + 64, [](uint32_t a, uint32_t b) { return int32_t(a) < int32_t(b); });
  const uint32_t crc = crc32(reinterpret_cast<const uint8_t*>(data), sizeof data);
  int32_t hsum = 0;
  for (uint32_t d : data) hsum += static_cast<int16_t>(d >> 7);
  std::string text = "baresm control core: RV32I firmware self-test";
  for (char& c : text)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  const uint32_t upper = crc32(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  uint32_t prod = 1;
  for (uint32_t i = 1; i <= 12; i++) prod *= i + (data[i] & 7);

  for (const BusConfig bus : {BusConfig{100, 1}, BusConfig{40, 6}}) {
    const RunResult r = run_lockstep(img, {}, bus, 11);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.cause, Cause::kEcall);
    const uint32_t* out = &r.mem[0x8000 / 4];
    EXPECT_EQ(out[0], 0x600dc0deu);
    EXPECT_EQ(out[1], crc);
    EXPECT_EQ(out[2], static_cast<uint32_t>(hsum));
    EXPECT_EQ(out[3], text.size());
    EXPECT_EQ(out[4], upper);
    EXPECT_EQ(out[5], prod);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[8 + i], data[i]) << i;
    std::printf(
        "fw/mcu_selftest (%s), bus ready %u%%, read latency 1..%u: %llu instructions, %llu cycles, "
        "CPI %.3f\n",
        path.c_str(), bus.ready_pct, bus.max_delay, static_cast<unsigned long long>(r.retired),
        static_cast<unsigned long long>(r.cycles), double(r.cycles) / double(r.retired));
  }
}
#else
// A build with a planted bug: the random programs must expose it.
TEST(Planted, LockstepCatchesIt) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const Program p = random_program(seed, 250);
    const RunResult r = run_lockstep(p.image, p.fill, random_bus(seed), seed);
    if (!r.error.empty()) {
      std::printf("PLANTED BUG CAUGHT (%s) at seed %llu: %s\n", MCU_PLANTED,
                  static_cast<unsigned long long>(seed), r.error.c_str());
      return;
    }
  }
  FAIL() << "planted bug " << MCU_PLANTED << " MISSED by 300 random programs";
}
#endif

}  // namespace
