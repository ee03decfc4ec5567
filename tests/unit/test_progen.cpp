// progen (isa/progen.h): every profile over a range of seeds assembles and
// runs on the functional model to its expected end (no fault, or exactly the
// profile's fault), the same seed gives the same text, and across the seed
// range the programs cover every opcode, every modifier value the opcode
// table allows, both guard polarities, divergent branches, loops, barriers
// with and without counts, 2D/3D blocks and partial warps. The coverage
// checks fail as soon as the generator stops producing one of them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/isa.h"
#include "isa/iss.h"
#include "isa/progen.h"

using namespace baresm;

namespace {

constexpr uint64_t kSeeds = 300;  // per profile

bool is_fault_profile(const std::string& p) { return p.rfind("fault-", 0) == 0; }

// Every program of the sweep, assembled (not run).
struct Assembled {
  progen::GeneratedProgram prog;
  isa::Module module;
};
const std::vector<Assembled>& sweep() {
  static const std::vector<Assembled> v = [] {
    std::vector<Assembled> out;
    for (const auto& prof : progen::profiles())
      for (uint64_t s = 0; s < kSeeds; ++s) {
        Assembled a;
        a.prog = progen::generate(s, prof);
        isa::AsmResult r = isa::assemble(a.prog.source, "progen.s");
        EXPECT_TRUE(r.ok()) << prof << " seed " << s << "\n" << r.format_errors() << a.prog.source;
        a.module = std::move(r.module);
        out.push_back(std::move(a));
      }
    return out;
  }();
  return v;
}

TEST(Progen, EveryProfileRunsToItsExpectedEnd) {
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t divergent = 0, barriers = 0, warp_instrs = 0;
  std::map<std::string, int> faults_seen;
  for (const auto& prof : progen::profiles()) {
    for (uint64_t s = 0; s < kSeeds; ++s) {
      const progen::GeneratedProgram p = progen::generate(s, prof);
      ASSERT_EQ(p.profile, prof);
      ASSERT_EQ(p.seed, s);
      const progen::ModelRun r = progen::run_on_model(p);
      ASSERT_TRUE(r.assembled) << prof << " seed " << s << "\n" << r.errors;
      ASSERT_FALSE(r.result.launch_error) << prof << " seed " << s << ": " << r.result.launch_error_message;
      ASSERT_EQ(r.result.fault.kind, p.expected_fault)
          << prof << " seed " << s << ": " << r.result.fault.describe() << "\n" << p.source;
      if (!is_fault_profile(prof)) {
        EXPECT_EQ(p.expected_fault, iss::FaultKind::NONE);
        EXPECT_LE(r.result.stats.warp_instrs, p.instr_budget);
        divergent += r.result.stats.divergent_branches;
        barriers += r.result.stats.barriers;
      } else {
        ++faults_seen[prof];
      }
      warp_instrs += r.result.stats.warp_instrs;
    }
  }
  EXPECT_GT(divergent, 0u) << "no branch ever diverged";
  EXPECT_GT(barriers, 0u) << "no barrier ever released";
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%zu profiles x %llu seeds: %llu warp-instructions in %.1f s\n", progen::profiles().size(),
              (unsigned long long)kSeeds, (unsigned long long)warp_instrs, secs);
}

TEST(Progen, SameSeedSameSourceOtherSeedOtherSource) {
  for (const auto& prof : progen::profiles()) {
    for (uint64_t s : {0ull, 7ull, 123456789ull, ~0ull}) {
      const auto a = progen::generate(s, prof), b = progen::generate(s, prof);
      EXPECT_EQ(a.source, b.source) << prof << " " << s;
      EXPECT_EQ(a.param_values({0x1000, 0x2000, 0x3000}), b.param_values({0x1000, 0x2000, 0x3000}));
      ASSERT_EQ(a.buffers.size(), b.buffers.size());
      for (size_t k = 0; k < a.buffers.size(); ++k) EXPECT_EQ(a.buffers[k].init, b.buffers[k].init);
    }
    EXPECT_NE(progen::generate(1, prof).source, progen::generate(2, prof).source) << prof;
  }
  EXPECT_NE(progen::generate(5, "alu").source, progen::generate(5, "fpu").source);
}

TEST(Progen, SourceHeaderSaysHowToReproduce) {
  const auto p = progen::generate(42, "control");
  EXPECT_NE(p.source.find("seed 42"), std::string::npos);
  EXPECT_NE(p.source.find("baresm gen --seed 42 --profile control"), std::string::npos);
  EXPECT_NE(p.source.find("buffer in:"), std::string::npos);
  EXPECT_NE(p.source.find("buffer out:"), std::string::npos);
}

TEST(Progen, UnknownProfileThrows) {
  EXPECT_THROW(progen::generate(1, "nope"), std::invalid_argument);
  EXPECT_THROW(progen::generate(1, "fault-NONE"), std::invalid_argument);
  EXPECT_TRUE(progen::is_profile("fault-WATCHDOG"));
  EXPECT_EQ(progen::profiles().size(), 6u + 8u);
}

// The mod values decode() accepts for op (what the opcode table lists).
std::set<uint8_t> valid_mods(const isa::OpInfo& oi) {
  std::set<uint8_t> v;
  if (oi.op == isa::Op::S2R) {
    for (uint8_t id = 0; id < isa::SR_COUNT; ++id)
      if (id != isa::SR_CLOCK && id != isa::SR_CLOCKHI) v.insert(id);  // never generated
    return v;
  }
  if (oi.op == isa::Op::SEL) {
    for (uint8_t m = 0; m < 16; ++m) v.insert(m);
    return v;
  }
  if (oi.mod_kind == isa::MK_NONE) return {0};
  for (int m = 0; m < 256; ++m) {
    isa::Instr in;
    in.op = oi.op;
    in.bimm = (oi.flags & isa::F_BIMM_ALWAYS) != 0;
    in.mod = uint8_t(m);
    const auto d = isa::decode(isa::encode(in));
    if (d && d->mod == uint8_t(m)) v.insert(uint8_t(m));
  }
  return v;
}

TEST(Progen, CoversEveryOpcodeAndModifier) {
  std::map<isa::Op, std::set<uint8_t>> seen;
  for (const auto& a : sweep())
    for (uint64_t w : a.module.code)
      if (auto in = isa::decode(w)) seen[in->op].insert(in->mod);
  for (const auto& oi : isa::all_ops()) {
    ASSERT_TRUE(seen.count(oi.op)) << "opcode " << oi.mnemonic << " never generated";
    const std::set<uint8_t> want = valid_mods(oi);
    for (uint8_t m : want) {
      isa::Instr in;
      in.op = oi.op;
      in.mod = m;
      EXPECT_TRUE(seen[oi.op].count(m)) << oi.mnemonic << " mod 0x" << std::hex << int(m) << " ("
                                        << isa::mnemonic_text(in) << ") never generated";
    }
    for (uint8_t m : seen[oi.op]) EXPECT_TRUE(want.count(m)) << oi.mnemonic << " unexpected mod " << int(m);
  }
  // The ones the issue names, spelled out (also covered by the loop above).
  for (uint8_t m = 0; m < 4; ++m)
    for (uint8_t lg = 0; lg <= 5; ++lg) EXPECT_TRUE(seen[isa::Op::SHFL].count(uint8_t(m | lg << 2)));
  for (uint8_t m = 0; m < 3; ++m) EXPECT_TRUE(seen[isa::Op::VOTE].count(m));
  for (uint8_t m = 0; m < 8; ++m) {
    EXPECT_TRUE(seen[isa::Op::ATOMG].count(m)) << "ATOMG op " << int(m);
    EXPECT_TRUE(seen[isa::Op::ATOMS].count(m)) << "ATOMS op " << int(m);
  }
  for (isa::Op op : {isa::Op::LDG, isa::Op::LDS, isa::Op::LDC})
    for (uint8_t w = 0; w <= 4; ++w) EXPECT_TRUE(seen[op].count(w)) << "load width " << int(w);
  for (isa::Op op : {isa::Op::STG, isa::Op::STS})
    for (uint8_t w : {0, 2, 4}) EXPECT_TRUE(seen[op].count(w)) << "store width " << int(w);
}

TEST(Progen, CoversGuardsBranchesLoopsBarriersAndShapes) {
  bool guard_pos = false, guard_neg = false, fwd_cond = false, backward = false, bar_all = false,
       bar_count = false, block2d = false, block3d = false, partial = false, multi_cta = false, grid2d = false,
       imm_b = false, reg_b = false, bar_in_loop = false;
  std::set<int> faults;
  for (const auto& a : sweep()) {
    const auto& p = a.prog;
    faults.insert(int(p.expected_fault));
    if (p.block.y > 1 && p.block.z == 1) block2d = true;
    if (p.block.z > 1) block3d = true;
    if (p.block.count() % 32 != 0) partial = true;
    if (p.grid.count() > 1) multi_cta = true;
    if (p.grid.y > 1 || p.grid.z > 1) grid2d = true;
    const auto& code = a.module.code;
    for (size_t i = 0; i < code.size(); ++i) {
      auto in = isa::decode(code[i]);
      if (!in) continue;
      if (in->op == isa::Op::BRA && in->bra_target_delta() < 0)
        for (size_t j = i + in->bra_target_delta(); j < i; ++j) {
          auto b = isa::decode(code[j]);
          if (b && b->op == isa::Op::BAR) bar_in_loop = true;
        }
      if (in->pg != isa::kPredTrue) (in->pg_neg ? guard_neg : guard_pos) = true;
      if (in->op == isa::Op::BRA) {
        if (in->bra_target_delta() < 0) backward = true;
        if (in->bra_target_delta() > 0 && in->pg != isa::kPredTrue) fwd_cond = true;
      }
      if (in->op == isa::Op::BAR) (in->bar_count() ? bar_count : bar_all) = true;
      if (in->op == isa::Op::IADD) (in->bimm ? imm_b : reg_b) = true;
    }
  }
  EXPECT_TRUE(guard_pos) << "@Pn guards";
  EXPECT_TRUE(guard_neg) << "@!Pn guards";
  EXPECT_TRUE(fwd_cond) << "conditional forward branches";
  EXPECT_TRUE(backward) << "loops (backward branches)";
  EXPECT_TRUE(bar_all) << "BAR.SYNC without a thread count";
  EXPECT_TRUE(bar_count) << "BAR.SYNC with a thread count";
  EXPECT_TRUE(bar_in_loop) << "BAR.SYNC inside a (uniform) loop";
  EXPECT_TRUE(block2d) << "2D blocks";
  EXPECT_TRUE(block3d) << "3D blocks";
  EXPECT_TRUE(partial) << "partial warps";
  EXPECT_TRUE(multi_cta) << "grids of several CTAs";
  EXPECT_TRUE(grid2d) << "2D/3D grids";
  EXPECT_TRUE(imm_b && reg_b) << "register and immediate b";
  EXPECT_EQ(faults.size(), 9u) << "NONE and every fault kind";
}

// The constraints that make the final memory checkable, seen in the retire
// stream: every plain global store of a thread lands in its own output slot
// or in the slot of thread tid & ~3 (lanes of one warp colliding in one
// instruction, ordered by lane: never two warps on one address), every thread
// stores all its data registers and its predicates, plain shared stores of a
// CTA never touch a byte a thread of another warp stored. Atomics are exempt
// (they contend). Some programs do collide within a warp, in both spaces.
TEST(Progen, StoresAreRaceFreeAndEveryThreadStoresItsRegisters) {
  uint64_t global_collisions = 0, shared_collisions = 0;
  for (const auto& prof : progen::profiles()) {
    if (is_fault_profile(prof)) continue;
    for (uint64_t s = 0; s < 40; ++s) {
      const auto p = progen::generate(s, prof);
      const uint32_t threads = uint32_t(p.block.count()), total = threads * uint32_t(p.grid.count());
      const uint32_t slot = p.buffers[1].size / total;
      const uint32_t words = p.regs - 16 + 1;  // data registers + the predicate word
      const isa::AsmResult a = isa::assemble(p.source, "p.s");
      ASSERT_TRUE(a.ok());
      const uint32_t out_base = progen::default_layout(p, uint32_t(8 * a.module.code.size())).buffer_addrs[1];
      std::vector<std::vector<bool>> stored(total, std::vector<bool>(words, false));
      std::map<std::pair<uint32_t, uint32_t>, uint32_t> shared_writer;  // (cta, byte) -> tid
      bool bad_global = false, bad_shared = false;
      std::string first_bad;
      const progen::ModelRun r = progen::run_on_model(p, [&](const iss::RetireEvent& e) {
        if (e.instr.op == isa::Op::ATOMG || e.instr.op == isa::Op::ATOMS) return;
        for (const auto& st : e.stores) {
          const uint32_t tid = e.warp * 32 + st.lane, g = e.cta_linear * threads + tid;
          if (st.shared) {
            for (uint32_t b = 0; b < st.size; ++b) {
              auto it = shared_writer.emplace(std::make_pair(e.cta_linear, st.addr + b), tid).first;
              if (it->second / 32 != tid / 32) bad_shared = true;
              if (it->second != tid) ++shared_collisions;
            }
            continue;
          }
          const uint32_t lo = out_base + g * slot, lo4 = out_base + (g - (tid & 3)) * slot;
          if (st.addr >= lo4 && st.addr + st.size <= lo4 + slot && lo4 != lo) {
            ++global_collisions;  // in the slot of thread tid & ~3
          } else if (st.addr < lo || st.addr + st.size > lo + slot) {
            if (!bad_global) first_bad = "thread " + std::to_string(g) + " stored at " + std::to_string(st.addr);
            bad_global = true;
          } else if (st.size == 4 && (st.addr - lo) % 4 == 0 && (st.addr - lo) / 4 < words) {
            stored[g][(st.addr - lo) / 4] = true;
          }
        }
      });
      ASSERT_TRUE(r.result.ok()) << prof << " " << s;
      EXPECT_FALSE(bad_global) << prof << " seed " << s << ": " << first_bad;
      EXPECT_FALSE(bad_shared) << prof << " seed " << s << ": two warps stored to one shared byte";
      for (uint32_t g = 0; g < total; ++g)
        for (uint32_t w = 0; w < words; ++w)
          ASSERT_TRUE(stored[g][w]) << prof << " seed " << s << ": thread " << g << " never stored word " << w;
    }
  }
  std::printf("stores colliding inside a warp: %llu global, %llu shared bytes\n",
              (unsigned long long)global_collisions, (unsigned long long)shared_collisions);
  EXPECT_GT(global_collisions, 0u);
  EXPECT_GT(shared_collisions, 0u);
}

// Nesting really goes up to the limit: with one stack entry less, some
// control-profile programs overflow.
TEST(Progen, NestingReachesTheStackDepth) {
  for (uint32_t depth : {3u, 6u, 8u}) {
    progen::ProgenLimits lim;
    lim.stack_depth = depth;
    int overflowed = 0;
    for (uint64_t s = 0; s < 60; ++s) {
      auto p = progen::generate(s, "control", lim);
      ASSERT_TRUE(progen::run_on_model(p).result.ok()) << depth << " " << s;
      p.stack_depth = depth - 1;
      overflowed += progen::run_on_model(p).result.fault.kind == iss::FaultKind::STACK_OVERFLOW;
    }
    EXPECT_GT(overflowed, 0) << "depth " << depth;
    std::printf("stack depth %u: %d/60 control programs need all %u entries\n", depth, overflowed, depth);
  }
}

// Programs stay inside smaller limits too, and still run clean.
TEST(Progen, RespectsSmallerLimits) {
  progen::ProgenLimits lim;
  lim.max_threads_per_block = 64;
  lim.max_warps_per_cta = 2;
  lim.stack_depth = 3;
  lim.max_shared_bytes = 512;
  lim.max_regs_per_thread = 24;
  lim.max_ctas = 2;
  lim.use_smid = false;
  for (const auto& prof : progen::profiles()) {
    for (uint64_t s = 0; s < 40; ++s) {
      const auto p = progen::generate(s, prof, lim);
      EXPECT_LE(p.block.count(), 64u);
      EXPECT_LE(p.grid.count(), 2u);
      EXPECT_LE(p.shared_bytes, 512u);
      EXPECT_LE(p.regs, 24u);
      EXPECT_LE(p.buffers.size(), 4u);
      EXPECT_EQ(p.stack_depth, 3u);
      EXPECT_EQ(p.source.find("SR_SMID"), std::string::npos);
      EXPECT_EQ(p.source.find("SR_CLOCK"), std::string::npos);
      const auto r = progen::run_on_model(p);
      ASSERT_TRUE(r.assembled) << r.errors;
      EXPECT_EQ(r.result.fault.kind, p.expected_fault)
          << prof << " seed " << s << ": " << r.result.fault.describe() << "\n" << p.source;
    }
  }
  // The smallest RTL stack (6) is the default; an overflow program is exact
  // to it: one entry more and the same program completes.
  for (uint64_t s = 0; s < 20; ++s) {
    auto p = progen::generate(s, "fault-STACK_OVERFLOW");
    EXPECT_EQ(progen::run_on_model(p).result.fault.kind, iss::FaultKind::STACK_OVERFLOW);
    p.stack_depth += 1;
    EXPECT_TRUE(progen::run_on_model(p).result.fault.ok()) << s;
  }
}

// An SM like rtl/configs.txt's micro: 16 registers per thread, 4 warps, 2 KB
// of shared memory, stack depth 4 and no FPU. Every profile but fpu gives
// integer-only programs of at most 16 registers that run to their expected
// end on a model without the FPU (where an FPU instruction would be
// ILLEGAL_INSTR); loops, divergence and barriers still occur.
TEST(Progen, FitsSixteenRegistersWithoutTheFpu) {
  progen::ProgenLimits lim;
  lim.max_threads_per_block = 128;
  lim.max_warps_per_cta = 4;
  lim.stack_depth = 4;
  lim.max_shared_bytes = 2048;
  lim.max_regs_per_thread = 16;
  lim.has_fpu = false;
  uint64_t loops = 0, barriers = 0, divergent = 0;
  for (const auto& prof : progen::profiles()) {
    if (prof == "fpu") continue;
    for (uint64_t s = 0; s < 40; ++s) {
      auto p = progen::generate(s, prof, lim);
      EXPECT_LE(p.regs, 16u);
      EXPECT_GE(p.regs, 14u);
      EXPECT_LE(p.block.count(), 128u);
      const auto r = progen::run_on_model(p);
      ASSERT_TRUE(r.assembled) << prof << " seed " << s << ": " << r.errors;
      for (uint32_t i = 0; i < r.module.code.size(); ++i) {
        const auto d = isa::decode(r.module.code[i]);
        if (!d) continue;  // fault-ILLEGAL_INSTR's planted word
        EXPECT_NE(isa::op_info(d->op).unit, isa::UNIT_FPU)
            << prof << " seed " << s << " +0x" << std::hex << 8 * i << ": " << isa::mnemonic_text(*d);
      }
      iss::DeviceMemory dm(r.layout.memory_bytes);
      const iss::LaunchParams lp = progen::load_program(p, r.module, dm, r.layout);
      iss::FunctionalModel m(dm, iss::ModelConfig{p.stack_depth, 0, false});
      const auto res = m.run(lp);
      EXPECT_EQ(res.fault.kind, p.expected_fault)
          << prof << " seed " << s << ": " << res.fault.describe() << "\n" << p.source;
      loops += p.source.find("BRA loop") != std::string::npos || p.source.find("BRA uloop") != std::string::npos;
      barriers += res.stats.barriers;
      divergent += res.stats.divergent_branches;
    }
  }
  EXPECT_GT(loops, 0u);
  EXPECT_GT(barriers, 0u);
  EXPECT_GT(divergent, 0u);
  EXPECT_THROW(progen::generate(1, "alu", [] {
                 progen::ProgenLimits l;
                 l.max_regs_per_thread = 15;
                 return l;
               }()),
               std::invalid_argument);
}

TEST(Progen, LayoutAndLaunch) {
  const auto p = progen::generate(3, "memory");
  const auto r = progen::run_on_model(p);
  ASSERT_TRUE(r.assembled);
  ASSERT_EQ(r.launch.windows.size(), p.buffers.size());
  for (size_t k = 0; k < p.buffers.size(); ++k) {
    EXPECT_EQ(r.launch.windows[k].base, r.layout.buffer_addrs[k]);
    EXPECT_EQ(r.launch.windows[k].size, p.buffers[k].size);
    if (k) {
      EXPECT_GT(r.launch.windows[k].base, r.launch.windows[k - 1].base + r.launch.windows[k - 1].size);
    }
  }
  EXPECT_EQ(r.launch.param_size, 4 * p.params.size());
  EXPECT_EQ(r.launch.instr_budget, p.instr_budget);
  // The read-only input is untouched; the output changed.
  const auto& in = p.buffers[0];
  ASSERT_TRUE(in.read_only);
  EXPECT_TRUE(std::equal(in.init.begin(), in.init.end(), r.memory.begin() + r.layout.buffer_addrs[0]));
  const auto& out = p.buffers[1];
  EXPECT_FALSE(std::equal(out.init.begin(), out.init.end(), r.memory.begin() + r.layout.buffer_addrs[1]));
}

}  // namespace
