// Directed kernels on the verilated SM, each compared with the functional
// model over the same device memory: every integer opcode and modifier,
// predicates and guards, special registers, divergence and the
// reconvergence stack, barriers with counts and exits, shuffles and votes,
// shared memory and atomics, many CTAs, the launch checks, and every fault
// kind the issue stage raises. Built per SM configuration like the system
// tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/disasm.h"
#include "isa/isa.h"
#include "isa/iss.h"
#include "sim/harness/lockstep.h"
#include "sim/harness/sm_config_layout.h"
#include "sim/harness/sm_harness.h"


#ifndef RTL_SM_BUDGET_SCALE
#define RTL_SM_BUDGET_SCALE 1   // the hardwired SMs' budgets
#endif
namespace {

using baresm::iss::Dim3;
using baresm::iss::FaultKind;
using baresm::sim::SmHarness;
using baresm::sim::SmRunOptions;
using baresm::sim::SmRunResult;

constexpr uint32_t kMemBytes = 1u << 20;
constexpr uint32_t kCode = 0x1000;
constexpr uint32_t kParam = 0x8000;
constexpr uint32_t kData = 0x10000;   // window 0: [kData, kData + kDataSize)
constexpr uint32_t kDataSize = 0x40000;
uint32_t g_code_trim = 0;  // bytes cut from the end of the launch's code range
// The launch's windows when not empty (default: the one window [kData, kData + kDataSize)).
std::vector<baresm::iss::Window> g_windows;
baresm::iss::Window g_protect{0, 0};   // the CP's protected range for the next run (size 0: none)

SmHarness& harness() {
  static SmHarness h(baresm::sim::make_sm_dut());
  return h;
}

struct Run {
  baresm::iss::LaunchResult model;
  SmRunResult rtl;
  std::vector<uint8_t> model_mem, rtl_mem;
  bool lockstep_ok = false;
  std::string lockstep_report;
  baresm::sim::LockstepStats lockstep_stats;
};

// Assembles `src` (one kernel), places code, params and `init` data, runs it
// on both and returns both results.
Run run_both(const std::string& src, Dim3 grid, Dim3 block, const std::vector<uint32_t>& params,
             const std::vector<uint32_t>& init = {}, SmRunOptions opt = {}, uint64_t watchdog = 0) {
  Run r;
  auto a = baresm::isa::assemble(src, "test.s");
  EXPECT_TRUE(a.ok()) << a.format_errors();
  if (!a.ok()) return r;
  const auto& k = a.module.kernels.at(0);
  std::vector<uint8_t> mem(kMemBytes, 0);
  for (size_t i = 0; i < a.module.code.size(); i++)
    for (int b = 0; b < 8; b++) mem[kCode + i * 8 + size_t(b)] = uint8_t(a.module.code[i] >> (8 * b));
  for (size_t i = 0; i < params.size(); i++) std::memcpy(&mem[kParam + 4 * i], &params[i], 4);
  for (size_t i = 0; i < init.size(); i++) std::memcpy(&mem[kData + 4 * i], &init[i], 4);

  baresm::iss::LaunchParams p;
  p.entry_pc = kCode + k.entry;
  p.code_base = kCode;
  p.code_size = uint32_t(a.module.code.size() * 8) - g_code_trim;
  p.grid = grid;
  p.block = block;
  p.param_addr = kParam;
  p.param_size = uint32_t(params.size() * 4);
  p.regs_per_thread = k.regs;
  p.shared_bytes = k.shared_bytes;
  p.windows = {baresm::iss::Window{kData, kDataSize}};
  if (!g_windows.empty()) p.windows = g_windows;
  p.protect = g_protect;
  p.instr_budget = watchdog;

  r.model_mem = mem;
  baresm::iss::DeviceMemory dm(kMemBytes);
  dm.bytes() = mem;
  if (opt.poison) dm.poison() = *opt.poison;
  baresm::iss::ModelConfig mc;
  mc.stack_depth = harness().params().stack_depth;
  mc.has_fpu = harness().params().has_fpu;
  baresm::iss::FunctionalModel model(dm, mc);
  r.model = model.run(p);
  r.model_mem = dm.bytes();

  r.rtl_mem = mem;
  // RTL_SM_BUDGET_SCALE: the firmware SM (rtl/msm) takes that many times a
  // hardwired SM's cycles per warp-instruction (tests/rtl_sm/CMakeLists.txt):
  // its cycle limit and its watchdog (cycles on the RTL; the model's counts
  // instructions) scale by it.
  const uint64_t limit = RTL_SM_BUDGET_SCALE * 2'000'000ull;
  if (!opt.max_cycles || opt.max_cycles > limit) opt.max_cycles = limit;
  // The RTL runs in lockstep with the model as well (sim/harness/lockstep.h).
  baresm::sim::LockstepChecker lockstep(mem, p, harness().params());
  if (opt.poison) lockstep.set_poison(*opt.poison);
  opt.observer = &lockstep;
  r.rtl = harness().run(baresm::sim::launch_from_params(p, RTL_SM_BUDGET_SCALE * watchdog), r.rtl_mem, opt);
  r.lockstep_ok = lockstep.finish(r.rtl, r.rtl_mem);
  r.lockstep_report = lockstep.report();
  r.lockstep_stats = lockstep.stats();
  return r;
}

void expect_same(const Run& r, bool check_fault_place = true) {
  EXPECT_TRUE(r.lockstep_ok) << r.lockstep_report;
  ASSERT_FALSE(r.rtl.timed_out) << "rtl did not finish";
  EXPECT_FALSE(r.rtl.cfg_error);
  EXPECT_EQ(int(r.rtl.fault.kind), int(r.model.fault.kind))
      << "rtl: " << r.rtl.fault.describe() << "\nmodel: " << r.model.fault.describe();
  if (check_fault_place && !r.model.fault.ok() && r.rtl.fault.kind == r.model.fault.kind) {
    EXPECT_EQ(r.rtl.fault.pc, r.model.fault.pc);
    EXPECT_EQ(r.rtl.fault.cta.x, r.model.fault.cta.x);
    EXPECT_EQ(r.rtl.fault.warp, r.model.fault.warp);
    EXPECT_EQ(r.rtl.fault.lane, r.model.fault.lane);
    EXPECT_EQ(r.rtl.fault.addr, r.model.fault.addr);
  }
  size_t diffs = 0, first = 0;
  for (size_t i = 0; i < r.model_mem.size(); i++)
    if (r.model_mem[i] != r.rtl_mem[i]) {
      if (!diffs) first = i;
      diffs++;
    }
  EXPECT_EQ(diffs, 0u) << "first difference at 0x" << std::hex << first << ": model 0x"
                       << int(r.model_mem[first]) << " rtl 0x" << int(r.rtl_mem[first]);
}

// out[gtid * 4 + k] = R(k) for k in 0..3: the tail every kernel below uses.
const char* kStore4 = R"(
    S2R R60, SR_CTAID.X;
    S2R R61, SR_NTID.X;
    S2R R62, SR_TID.X;
    IMAD R60, R60, R61, R62;
    SHL R60, R60, 4;
    LDC R61, [0];
    IADD R60, R60, R61;
    STG [R60], R0;
    STG [R60 + 4], R1;
    STG [R60 + 8], R2;
    STG [R60 + 12], R3;
    EXIT;
.end
)";

TEST(SmKernels, Minimal) {
  const std::string src = R"(
.kernel k
.regs 63
    MOV R0, 7;
    MOV R1, 0x12345678;
    IADD R2, R0, R1;
    S2R R3, SR_LANEID;
)" + std::string(kStore4);
  auto r = run_both(src, {1, 1, 1}, {32, 1, 1}, {kData});
  expect_same(r);
  std::printf("minimal: %s\n", r.rtl.describe().c_str());
}

}  // namespace

namespace {

// c[i] = a[i] + b[i] (integers), many CTAs, a partial last warp and the
// bounds EXIT of vec_add.
TEST(SmKernels, VecAddInt) {
  const std::string src = R"(
.kernel k
.regs 8
    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;
    LDC R3, [12];
    ISETP.GE.U32 P0, R0, R3;
    @P0 EXIT;
    SHL R4, R0, 2;
    LDC R5, [0];
    IADD R5, R5, R4;
    LDG R5, [R5];
    LDC R6, [4];
    IADD R6, R6, R4;
    LDG R6, [R6];
    IADD R5, R5, R6;
    LDC R7, [8];
    IADD R7, R7, R4;
    STG [R7], R5;
    EXIT;
.end
)";
  const uint32_t n = 1000;
  std::vector<uint32_t> init(2 * n);
  for (uint32_t i = 0; i < 2 * n; i++) init[i] = i * 2654435761u;
  auto r = run_both(src, {10, 1, 1}, {100, 1, 1}, {kData, kData + 4 * n, kData + 8 * n, n}, init);
  expect_same(r);
  std::printf("vec_add_int: %s\n", r.rtl.describe().c_str());
}

}  // namespace

namespace {

// Random operands through every integer opcode and modifier; each thread
// stores 48 words. Shift amounts include >= 32; inputs include INT_MIN, 0
// and -1.
TEST(SmKernels, EveryIntegerOp) {
  const std::string src = R"(
.kernel k
.regs 40
    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R30, R0, R1, R2;       // global thread id
    SHL R31, R30, 3;
    LDC R32, [0];               // in
    IADD R31, R31, R32;
    LDG R3, [R31];              // a
    LDG R4, [R31 + 4];          // b
    AND R5, R4, 63;             // shift amount 0..63
    SHL R33, R30, 8;            // 48 words = 192 bytes, 256-byte stride
    LDC R32, [4];               // out
    IADD R33, R33, R32;
    MOV R6, R4;
    STG [R33], R6;
    IADD R6, R3, R4;
    STG [R33 + 4], R6;
    ISUB R6, R3, R4;
    STG [R33 + 8], R6;
    IMUL R6, R3, R4;
    STG [R33 + 12], R6;
    IMULHI R6, R3, R4;
    STG [R33 + 16], R6;
    IMULHI.U32 R6, R3, R4;
    STG [R33 + 20], R6;
    IMAD R6, R3, R4, R30;
    STG [R33 + 24], R6;
    IMIN R6, R3, R4;
    STG [R33 + 28], R6;
    IMIN.U32 R6, R3, R4;
    STG [R33 + 32], R6;
    IMAX R6, R3, R4;
    STG [R33 + 36], R6;
    IMAX.U32 R6, R3, R4;
    STG [R33 + 40], R6;
    IABS R6, R3;
    STG [R33 + 44], R6;
    AND R6, R3, R4;
    STG [R33 + 48], R6;
    OR R6, R3, 0x0F0F0F0F;
    STG [R33 + 52], R6;
    XOR R6, R3, R4;
    STG [R33 + 56], R6;
    NOT R6, R3;
    STG [R33 + 60], R6;
    SHL R6, R3, R5;
    STG [R33 + 64], R6;
    SHR R6, R3, R5;
    STG [R33 + 68], R6;
    SHRA R6, R3, R5;
    STG [R33 + 72], R6;
    POPC R6, R3;
    STG [R33 + 76], R6;
    CLZ R6, R4;
    STG [R33 + 80], R6;
    SHRA R6, R3, 40;
    STG [R33 + 84], R6;
    // predicates: every comparison, signed and unsigned, combined
    ISETP.LT P0, R3, R4;
    ISETP.LT.U32 P1, R3, R4;
    ISETP.EQ.OR P2, R5, 7, P0;
    ISETP.NE.XOR P3, R3, R4, !P1;
    ISETP.LE.AND P4, R3, 0, P1;
    ISETP.GT.U32 P5, R4, R3;
    ISETP.GE P6, R4, -5;
    SEL R6, R3, R4, P0;
    STG [R33 + 88], R6;
    SEL R6, R3, R4, !P1;
    STG [R33 + 92], R6;
    SEL R6, R30, 1, P2;
    STG [R33 + 96], R6;
    SEL R6, R30, 2, P3;
    STG [R33 + 100], R6;
    SEL R6, R30, 3, P4;
    STG [R33 + 104], R6;
    SEL R6, R30, 4, P5;
    STG [R33 + 108], R6;
    SEL R6, R30, 5, !P6;
    STG [R33 + 112], R6;
    // guards: only some lanes write
    MOV R7, 111;
    @P0 MOV R7, 222;
    @!P6 IADD R7, R7, 1000;
    STG [R33 + 116], R7;
    // votes over the guard-true lanes
    VOTE.BALLOT R8, P0;
    STG [R33 + 120], R8;
    @P1 VOTE.BALLOT R8, !P5;
    STG [R33 + 124], R8;
    VOTE.ANY P2, P4;
    VOTE.ALL P3, P1;
    @P6 VOTE.ALL P4, P6;
    SEL R9, R30, 0, P2;
    STG [R33 + 128], R9;
    SEL R9, R30, 0, P3;
    STG [R33 + 132], R9;
    SEL R9, R30, 0, P4;
    STG [R33 + 136], R9;
    // shuffles: every mode, widths, register and immediate b
    AND R10, R4, 31;
    SHFL.IDX R11, R3, R10;
    STG [R33 + 140], R11;
    SHFL.UP R11, R3, 3, 8;
    STG [R33 + 144], R11;
    SHFL.DOWN R11, R3, R10, 16;
    STG [R33 + 148], R11;
    SHFL.BFLY R11, R3, 5;
    STG [R33 + 152], R11;
    @P0 SHFL.IDX R11, R30, 0, 4;
    STG [R33 + 156], R11;
    SHFL.UP R11, R3, R10;
    STG [R33 + 160], R11;
    // special registers
    S2R R12, SR_LANEID;
    S2R R13, SR_WARPID;
    MOV R16, 100;
    IMAD R12, R13, R16, R12;
    STG [R33 + 164], R12;
    S2R R12, SR_NCTAID.X;
    S2R R13, SR_NTID.Y;
    MOV R16, 1000;
    IMAD R12, R13, R16, R12;
    STG [R33 + 168], R12;
    S2R R12, SR_TID.Y;
    S2R R13, SR_CTAID.Z;
    IMAD R12, R13, R16, R12;
    STG [R33 + 172], R12;
    S2R R12, SR_SMID;
    STG [R33 + 176], R12;
    // sub-word stores and loads, signed and unsigned
    STG.8 [R33 + 180], R3;
    STG.16 [R33 + 182], R4;
    LDG.S8 R14, [R33 + 180];
    LDG.U16 R15, [R33 + 182];
    IADD R14, R14, R15;
    STG [R33 + 184], R14;
    LDG.S16 R14, [R33 + 182];
    LDG.U8 R15, [R33 + 181];
    XOR R14, R14, R15;
    STG [R33 + 188], R14;
    EXIT;
.end
)";
  const uint32_t threads = 3 * 50;
  std::vector<uint32_t> in(2 * threads);
  uint64_t s = 12345;
  for (auto& v : in) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v = uint32_t(s >> 32);
  }
  in[0] = 0x80000000u;
  in[1] = 0xFFFFFFFFu;
  in[2] = 0;
  in[3] = 0x80000000u;
  in[5] = 0;
  const uint32_t out = kData + 0x1000;
  auto r = run_both(src, {3, 1, 1}, {50, 1, 1}, {kData, out}, in);
  expect_same(r);
  std::printf("every_integer_op: %s\n", r.rtl.describe().c_str());
}

}  // namespace

namespace {

// Data-dependent nested if/else inside a divergent loop: every lane takes its
// own path and trip count; the stack pushes and pops at every level.
const char* kDivergent = R"(
.kernel k
.regs 12
    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;
    SHL R3, R0, 2;
    LDC R4, [0];
    IADD R4, R4, R3;
    LDG R5, [R4];               // x
    MOV R6, 0;                  // acc
    AND R7, R5, 7;              // trip count 0..7
loop:
    ISETP.EQ P0, R7, 0;
    @P0 BRA done;
    AND R8, R5, 3;
    ISETP.EQ P1, R8, 0;
    @P1 BRA a;
    ISETP.EQ P2, R8, 1;
    @P2 BRA b;
    IADD R6, R6, 1000;
    ISETP.LT.U32 P3, R5, 0x40000000;
    @P3 IADD R6, R6, 7;
    @!P3 BRA c;
    IADD R6, R6, 3;
    BRA next;
c:
    XOR R6, R6, R5;
    BRA next;
a:
    IADD R6, R6, 1;
    BRA next;
b:
    SHL R6, R6, 1;
next:
    SHR R5, R5, 3;
    IADD R5, R5, R7;
    ISUB R7, R7, 1;
    BRA loop;
done:
    STG [R4], R6;
    EXIT;
.end
)";

std::vector<uint32_t> random_words(size_t n, uint64_t seed) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x = uint32_t(seed >> 33) ^ uint32_t(seed);
  }
  return v;
}

TEST(SmKernels, NestedDivergenceAndLoops) {
  auto r = run_both(kDivergent, {7, 1, 1}, {96, 1, 1}, {kData}, random_words(7 * 96, 3));
  expect_same(r);
  EXPECT_GT(r.model.stats.divergent_branches, 0u);
  EXPECT_EQ(r.rtl.counters.divergent_branches, r.model.stats.divergent_branches);
  EXPECT_EQ(r.rtl.counters.instrs, r.model.stats.warp_instrs);
  EXPECT_EQ(r.rtl.counters.thread_instrs, r.model.stats.thread_instrs);
  std::printf("nested_divergence: %s\n", r.rtl.describe().c_str());
}

// A branch nest deeper than the stack: STACK_OVERFLOW at the first branch
// that needs too many entries (the same one in the model, same depth).
TEST(SmKernels, StackOverflow) {
  // Only warp 1 of CTA 1 runs the nest, so the report names one place.
  std::string src =
      ".kernel k\n.regs 4\n    S2R R0, SR_LANEID;\n    S2R R1, SR_WARPID;\n    S2R R2, SR_CTAID.X;\n"
      "    IADD R1, R1, R2;\n    ISETP.NE P1, R1, 2;\n    @P1 EXIT;\n    MOV R1, 0;\n";
  const int levels = 20;
  for (int i = 0; i < levels; i++)
    src += "    ISETP.EQ P0, R0, " + std::to_string(i) + ";\n    @P0 BRA out" + std::to_string(i) + ";\n";
  src += "    IADD R1, R1, 1;\n";
  for (int i = levels - 1; i >= 0; i--) src += "out" + std::to_string(i) + ":\n    IADD R1, R1, 1;\n";
  src += "    EXIT;\n.end\n";
  auto r = run_both(src, {2, 1, 1}, {64, 1, 1}, {kData});
  ASSERT_EQ(int(r.model.fault.kind), int(FaultKind::STACK_OVERFLOW));
  expect_same(r);
}

// Barriers: the tree of reduce_sum with whole-CTA and counted barriers, warps
// that exit before the last barrier, several CTAs resident at once.
TEST(SmKernels, BarriersAcrossWarpsAndCtas) {
  const std::string src = R"(
.kernel k
.regs 12
.shared 1024
    S2R R0, SR_TID.X;
    S2R R1, SR_CTAID.X;
    S2R R2, SR_NTID.X;
    IMAD R3, R1, R2, R0;
    SHL R4, R3, 2;
    LDC R5, [0];
    IADD R5, R5, R4;
    LDG R6, [R5];
    SHL R7, R0, 2;
    STS [R7], R6;
    BAR.SYNC 0;
    // every thread sums its neighbour's word from another warp
    IADD R8, R0, 32;
    ISETP.GE.U32 P0, R8, R2;
    @P0 ISUB R8, R8, R2;
    SHL R8, R8, 2;
    LDS R9, [R8];
    IADD R6, R6, R9;
    BAR.SYNC 1;
    STS [R7], R6;
    BAR.SYNC 1;
    // warps >= 2 leave; a counted barrier for the two that stay
    S2R R10, SR_WARPID;
    ISETP.GE.U32 P1, R10, 2;
    @P1 BRA store;
    LDS R9, [R8];
    IADD R6, R6, R9;
    BAR.SYNC 3, 64;
    STS [R7], R6;
    BAR.SYNC 3, 64;
    LDS R9, [R8];
    XOR R6, R6, R9;
store:
    STG [R5], R6;
    EXIT;
.end
)";
  auto r = run_both(src, {9, 1, 1}, {128, 1, 1}, {kData}, random_words(9 * 128, 4));
  expect_same(r);
  EXPECT_GT(r.rtl.counters.barrier_releases, 0u);
  std::printf("barriers: %s\n", r.rtl.describe().c_str());
}

// A 2D block and 3D grid: thread ids walk x fastest; ids stored per thread.
TEST(SmKernels, ThreadIdsIn3D) {
  const std::string src = R"(
.kernel k
.regs 16
    S2R R0, SR_TID.X;
    S2R R1, SR_TID.Y;
    S2R R2, SR_TID.Z;
    S2R R3, SR_CTAID.X;
    S2R R4, SR_CTAID.Y;
    S2R R5, SR_CTAID.Z;
    S2R R6, SR_NTID.X;
    S2R R7, SR_NTID.Y;
    IMAD R8, R2, R7, R1;
    IMAD R8, R8, R6, R0;        // linear tid
    S2R R9, SR_NCTAID.X;
    S2R R10, SR_NCTAID.Y;
    IMAD R11, R5, R10, R4;
    IMAD R11, R11, R9, R3;      // linear cta
    S2R R12, SR_NTID.Z;
    IMUL R12, R12, R7;
    IMUL R12, R12, R6;          // threads per cta
    IMAD R13, R11, R12, R8;
    SHL R13, R13, 4;
    LDC R14, [0];
    IADD R13, R13, R14;
    SHL R1, R1, 8;
    SHL R2, R2, 16;
    OR R0, R0, R1;
    OR R0, R0, R2;
    S2R R15, SR_LANEID;
    STG [R13], R0;
    STG [R13 + 4], R11;
    STG [R13 + 8], R15;
    S2R R15, SR_WARPID;
    STG [R13 + 12], R15;
    EXIT;
.end
)";
  auto r = run_both(src, {2, 3, 2}, {5, 7, 3}, {kData});
  expect_same(r);
}

TEST(SmKernels, WatchdogAndInvalidPc) {
  const std::string spin = R"(
.kernel k
.regs 4
    S2R R0, SR_TID.X;
    ISETP.NE P0, R0, 37;
    @P0 EXIT;
spin:
    BRA spin;
.end
)";
  // The watchdog counts cycles on the RTL and instructions in the model;
  // both must name the spinning branch, warp 1 lane 5.
  auto r = run_both(spin, {1, 1, 1}, {64, 1, 1}, {kData}, {}, {}, 5000);
  ASSERT_EQ(int(r.model.fault.kind), int(FaultKind::WATCHDOG));
  expect_same(r);

  // The launch's code range stops one instruction short: INVALID_PC there.
  const std::string off = R"(
.kernel k
.regs 4
    S2R R0, SR_TID.X;
    ISETP.EQ P0, R0, 3;
    @P0 BRA last;
    EXIT;
last:
    IADD R0, R0, 1;
    EXIT;
.end
)";
  g_code_trim = 8;
  auto r2 = run_both(off, {1, 1, 1}, {32, 1, 1}, {kData});
  g_code_trim = 0;
  ASSERT_EQ(int(r2.model.fault.kind), int(FaultKind::INVALID_PC));
  expect_same(r2);
}

// Launches the SM refuses: nothing runs, cfg_error_o.
TEST(SmKernels, RefusedLaunches) {
  auto& h = harness();
  std::vector<uint8_t> mem(kMemBytes, 0);
  baresm::sim::SmLaunch l;
  l.entry_pc = l.code_base = kCode;
  l.code_size = 8;
  l.grid = {1, 1, 1};
  l.block = {h.params().warps * 32 + 1, 1, 1};  // more warps than slots
  l.regs = 4;
  auto r = h.run(l, mem, {});
  EXPECT_TRUE(r.cfg_error);
  l.block = {32, 1, 1};
  l.regs = h.params().regs + 1;
  EXPECT_TRUE(h.run(l, mem, {}).cfg_error);
  l.regs = 4;
  l.shared_bytes = h.params().shared_bytes + 4;
  EXPECT_TRUE(h.run(l, mem, {}).cfg_error);
  l.shared_bytes = 0;
  l.grid = {0, 1, 1};
  EXPECT_TRUE(h.run(l, mem, {}).cfg_error);
  l.grid = {1, 1, 1};
  // One window more than the SM checks (a nonzero size past its NumWindows)
  // is refused, not run with the extra window dropped.
  const uint32_t n = h.params().windows;
  if (n < uint32_t(baresm::sim::kLaunchWindows)) {
    for (uint32_t w = 0; w <= n; w++) l.windows.push_back(baresm::iss::Window{kData + 0x1000 * w, 256});
    const auto refused = h.run(l, mem, {});
    EXPECT_TRUE(refused.completed);
    EXPECT_TRUE(refused.cfg_error) << refused.describe();
    l.windows.pop_back();
    EXPECT_FALSE(h.run(l, mem, {}).cfg_error);
    l.windows.clear();
  }
  // And the SM still runs a good launch afterwards.
  auto ok = run_both(".kernel k\n.regs 2\n    EXIT;\n.end\n", {3, 1, 1}, {32, 1, 1}, {kData});
  expect_same(ok);
  EXPECT_FALSE(ok.rtl.cfg_error);
}

// Shared and global atomics from many CTAs (more than fit at once, so CTA
// slots and their shared memory are reused). Shared memory is not zeroed at
// CTA start on the RTL (the ISA does not promise it), so the kernel clears
// its words first.
TEST(SmKernels, SharedAtomicsManyCtas) {
  const std::string src = R"(
.kernel k
.regs 8
.shared 256
    S2R R0, SR_TID.X;
    S2R R1, SR_CTAID.X;
    AND R2, R0, 15;
    SHL R2, R2, 2;
    ISETP.LT.U32 P1, R0, 16;
    @P1 STS [R2], RZ;
    @P1 STS [R2 + 64], RZ;
    BAR.SYNC 0;
    ATOMS.ADD R3, [R2], R0;
    ATOMS.MAX R4, [R2 + 64], R1;
    BAR.SYNC 0;
    ISETP.GE.U32 P0, R0, 16;
    @P0 EXIT;
    LDS R5, [R2];
    LDS R6, [R2 + 64];
    LDC R7, [0];
    ATOMG.ADD R5, [R7], R5;
    SHL R1, R1, 2;
    IADD R7, R7, R1;
    ATOMG.MAX R6, [R7 + 4], R6;
    EXIT;
.end
)";
  auto r = run_both(src, {40, 1, 1}, {80, 1, 1}, {kData});
  expect_same(r);
  std::printf("shared_atomics: %s\n", r.rtl.describe().c_str());
}

}  // namespace

namespace {

using baresm::isa::Instr;
using baresm::isa::Op;

// Every opcode with every modifier value the decoder accepts, each under PT,
// a predicate and a negated one (the functional-coverage bins op/ and
// guard/ of sim/harness/coverage.h), on thread-dependent operands, all
// results stored. Built from isa::encode and printed with the disassembler,
// so it follows the opcode table.
TEST(SmKernels, EveryOpcodeModifierAndGuard) {
  std::string body;
  uint32_t rng = 12345;
  auto next = [&rng] { return rng = rng * 1664525u + 1013904223u; };
  int n = 0;
  auto emit = [&](Instr in) {
    const int g = n++ % 3;  // PT, P0 (about half the lanes), !P0
    in.pg = g == 0 ? baresm::isa::kPredTrue : 0;
    in.pg_neg = g == 2;
    body += "    " + baresm::isa::disassemble_instr(in, 0) + "\n";
  };
  for (const auto& o : baresm::isa::all_ops()) {
    if (o.op == Op::BRA || o.op == Op::EXIT || o.op == Op::BAR || o.op == Op::TRAP) continue;
    int emitted = 0;
    for (int mod = 0; mod < 256; ++mod) {
      Instr in;
      in.op = o.op;
      in.mod = uint8_t(mod);
      in.bimm = (o.flags & baresm::isa::F_BIMM_ALWAYS) || ((o.flags & baresm::isa::F_BIMM_OK) && (next() & 1));
      if (!baresm::isa::decode(baresm::isa::encode(in))) {
        in.bimm = !in.bimm;
        if (!baresm::isa::decode(baresm::isa::encode(in))) continue;
      }
      in.rd = uint8_t(8 + next() % 24);  // R8..R31, stored at the end
      in.ra = uint8_t(1 + next() % 7);   // R1..R7: thread-dependent values
      in.rb = uint8_t(1 + next() % 7);
      in.rc = uint8_t(1 + next() % 7);
      in.imm = in.bimm ? next() : (next() & 0x7FF);
      switch (o.format) {
        case baresm::isa::FMT_SETP: in.rd = uint8_t((1 + next() % 6) | (next() % 8) << 3); break;  // P1..P6
        case baresm::isa::FMT_VOTE:
          in.ra = uint8_t(next() % 8 | (next() & 8));
          if ((mod & 3) != baresm::isa::VOTE_BALLOT) in.rd = uint8_t(1 + next() % 6);
          break;
        case baresm::isa::FMT_S2R:
          // CLOCK differs between the model and the RTL: kept out of memory.
          if (mod == baresm::isa::SR_CLOCK || mod == baresm::isa::SR_CLOCKHI) in.rd = 50;
          break;
        case baresm::isa::FMT_SHFL:
          if (in.bimm) in.imm = next() % 40;
          break;
        default: break;
      }
      if (o.format == baresm::isa::FMT_LD || o.format == baresm::isa::FMT_ST || o.format == baresm::isa::FMT_ATOM) {
        // Naturally aligned addresses inside the window / shared memory / params.
        in.imm = 0;
        if (o.op == Op::LDG) in.ra = 40;
        if (o.op == Op::LDS || o.op == Op::STS || o.op == Op::ATOMS) in.ra = 41;
        if (o.op == Op::LDC) in.ra = baresm::isa::kRegZero;
        if (o.op == Op::STG || o.op == Op::ATOMG) in.ra = 42;
      }
      for (int rep = 0; rep < (emitted < 3 ? 3 : 1); ++rep) emit(in);
      emitted++;
    }
  }
  const std::string src = R"(
.kernel k
.regs 63
.shared 256
    S2R R0, SR_LANEID;
    S2R R45, SR_TID.X;
    IMUL R1, R45, 0x9E3779B9;
    IADD R2, R45, 3;
    I2F R3, R45;
    FMUL R4, R3, R3;
    MOV R5, 0x3fc00000;
    XOR R6, R1, 0x5555;
    FADD R7, R3, -2.5;
    ISETP.LT P0, R0, 13;
    ISETP.NE P1, R6, 0;
    ISETP.GT P2, R1, R2;
    ISETP.EQ P3, R0, 5;
    ISETP.LT P4, R0, 20;
    ISETP.GE P5, R0, 7;
    ISETP.EQ P6, R0, 31;
    SHL R43, R45, 2;
    LDC R44, [0];
    IADD R40, R44, R43;         // global loads: in[tid]
    MOV R41, R43;               // shared: one word per thread, zeroed first
    STS [R41], RZ;              // (the RTL does not clear shared memory)
    BAR.SYNC 0;
    IADD R42, R44, 0x2000;
    IADD R42, R42, R43;         // global stores and atomics: a word per thread
)" + body + R"(
    LDC R44, [0];
    IADD R44, R44, 0x4000;
    SHL R43, R45, 7;
    IADD R44, R44, R43;         // out: 128 bytes per thread
    STG [R44], R8;
    STG [R44 + 4], R9;
    STG [R44 + 92], R10;
    STG [R44 + 8], R11;
    STG [R44 + 12], R12;
    STG [R44 + 16], R13;
    STG [R44 + 20], R14;
    STG [R44 + 24], R15;
    STG [R44 + 28], R16;
    STG [R44 + 32], R17;
    STG [R44 + 36], R18;
    STG [R44 + 40], R19;
    STG [R44 + 44], R20;
    STG [R44 + 48], R21;
    STG [R44 + 52], R22;
    STG [R44 + 56], R23;
    STG [R44 + 60], R24;
    STG [R44 + 64], R25;
    STG [R44 + 68], R26;
    STG [R44 + 72], R27;
    STG [R44 + 76], R28;
    STG [R44 + 80], R29;
    STG [R44 + 84], R30;
    STG [R44 + 88], R31;
    EXIT;
.end
)";
  std::vector<uint32_t> init(64);
  for (uint32_t i = 0; i < 64; i++) init[i] = i * 0x01010101u ^ 0x80402010u;
  auto r = run_both(src, {1, 1, 1}, {48, 1, 1}, {kData}, init);  // one CTA: no races between CTAs
  expect_same(r);
  std::printf("every opcode/modifier/guard (%d instructions): %s\n", n, r.rtl.describe().c_str());
}

// Shared-memory accesses of every conflict degree 1..32 (lanes 0..k-1 hit
// one bank in distinct words, the others read one broadcast word) and global
// accesses touching every number of lines 1..32; NB (banks) and the line size
// are kernel parameters taken from the SM.
TEST(SmKernels, EveryConflictDegreeAndLineCount) {
  const std::string src = R"(
.kernel k
.regs 16
.shared 4096
    S2R R0, SR_LANEID;
    LDC R1, [4];                // banks
    LDC R2, [8];                // line bytes
    LDC R3, [0];                // data
    SHL R4, R0, 2;
    STS [R4], R0;               // words 0..31 written
    IMUL R5, R0, R1;
    SHL R5, R5, 2;
    STS [R5], R0;               // words lane*NB written
    BAR.SYNC 0;
    MOV R6, 1;                  // k = 1..32
    MOV R7, 0;                  // checksum
loop:
    ISETP.LT.U32 P0, R0, R6;
    SEL R8, R5, 4, P0;          // k lanes on bank 0, the rest on word 1
    LDS R9, [R8];
    IADD R7, R7, R9;
    ISUB R10, R6, 1;
    IMIN.U32 R10, R0, R10;      // lines 0..k-1
    IMUL R10, R10, R2;
    IADD R10, R10, R3;
    LDG R11, [R10];
    IADD R7, R7, R11;
    IADD R6, R6, 1;
    ISETP.LE.U32 P1, R6, 32;
    @P1 BRA loop;
    SHL R12, R0, 2;
    IADD R12, R12, R3;
    STG [R12 + 0x8000], R7;
    EXIT;
.end
)";
  const auto& p = harness().params();
  std::vector<uint32_t> init(32 * 64);
  for (uint32_t i = 0; i < init.size(); i++) init[i] = i * 7 + 1;
  auto r = run_both(src, {1, 1, 1}, {32, 1, 1}, {kData, p.banks, p.line_bytes}, init);
  expect_same(r);
  std::printf("conflict degrees and line counts: %s\n", r.rtl.describe().c_str());
}

// An unguarded TRAP: the guard/TRAP/PT bin (the TRAP fault test of
// test_rtl_sm_system uses a predicate), and TRAP under guards false in every
// lane before it.
TEST(SmKernels, TrapUnderEveryGuard) {
  const std::string src = R"(
.kernel k
.regs 4
    S2R R0, SR_LANEID;
    ISETP.GT P0, R0, 40;        // false in every lane
    ISETP.LT P1, R0, 40;        // true in every lane
    @P0 TRAP;
    @!P1 TRAP;
    TRAP;
    EXIT;
.end
)";
  auto r = run_both(src, {1, 1, 1}, {32, 1, 1}, {kData});
  expect_same(r);
  EXPECT_EQ(r.rtl.fault.kind, FaultKind::TRAP);
}

}  // namespace

namespace {

// Occupancy: as many CTAs run at once as the CTA slots and the shared memory
// allow (the dispatcher's resource check). Each CTA of this kernel spins
// long enough for the next ones to be placed beside it.
TEST(SmKernels, OccupancyFollowsSharedMemory) {
  const auto& p = harness().params();
  for (uint32_t per_cta : {p.shared_bytes, p.shared_bytes / 2, p.shared_bytes / p.cta_slots}) {
    const std::string src = R"(
.kernel k
.regs 4
.shared )" + std::to_string(per_cta) + R"(
    MOV R0, 300;
spin:
    IADD R0, R0, -1;
    ISETP.GT P0, R0, 0;
    @P0 BRA spin;
    EXIT;
.end
)";
    auto r = run_both(src, {2 * p.cta_slots, 1, 1}, {32, 1, 1}, {kData});
    expect_same(r);
    const uint64_t want = std::min<uint64_t>(p.cta_slots, p.shared_bytes / per_cta);
    EXPECT_EQ(r.lockstep_stats.max_resident_ctas, want)
        << per_cta << " shared bytes per CTA, " << p.cta_slots << " CTA slots, " << p.shared_bytes << " bytes";
  }
}

}  // namespace

namespace {

// The ID/CONFIG words (docs/microarchitecture.md, "ID/CONFIG") the driver
// sizes launches from: the architecture id, the format version, and fields
// consistent with one another.
TEST(SmKernels, ConfigWords) {
  const auto& p = harness().params();
  EXPECT_EQ(p.arch_id, baresm::isa::kArchId);
  EXPECT_EQ(p.version, 1u);
  EXPECT_TRUE(p.windows >= 1 && p.windows <= uint32_t(baresm::sim::kLaunchWindows)) << p.windows;
  EXPECT_TRUE(p.lanes >= 1 && p.lanes <= 32 && 32 % p.lanes == 0) << p.lanes;
  EXPECT_EQ(p.rf_depth, p.warps * p.regs * (32 / p.lanes));
  EXPECT_GE(p.cta_slots, 1u);
  EXPECT_GE(p.stack_depth, 1u);
  EXPECT_EQ(p.line_bytes % 4, 0u);
  // Register-file banks: a power of two, no more than the beats of a warp
  // register when there are several (baresm_sm_pkg::rf_bank).
  EXPECT_TRUE(p.rf_banks >= 1 && (p.rf_banks & (p.rf_banks - 1)) == 0) << p.rf_banks;
  EXPECT_TRUE(p.lanes == 32 || p.rf_banks <= 32 / p.lanes) << p.rf_banks;
}

// Every one of the SM's NumWindows windows (config word 6) grants its bytes
// and nothing past them: thread w stores into window w (all of them at once),
// then the last window's thread stores one byte past its end (outside every
// window) and faults OUT_OF_WINDOW at that address, as in the model. (A launch
// with one window more than NumWindows is one of RefusedLaunches.)
TEST(SmKernels, EveryWindowOfTheSm) {
  const auto& p = harness().params();
  const std::string src = R"(
.kernel k
.regs 8
    S2R R0, SR_TID.X;
    LDC R1, [0];
    ISETP.GE.U32 P0, R0, R1;
    @P0 EXIT;
    SHL R2, R0, 2;
    LDC R3, [R2 + 4];
    LDC R4, [R2 + 36];
    IADD R3, R3, R4;
    STG [R3], R0;
    EXIT;
.end
)";
  const uint32_t n = p.windows;
  ASSERT_GE(n, 1u);
  g_windows.clear();
  std::vector<uint32_t> params(17, 0);
  params[0] = n;
  for (uint32_t w = 0; w < n; w++) {
    g_windows.push_back(baresm::iss::Window{kData + 0x1000 * w, 256});
    params[1 + w] = kData + 0x1000 * w;
  }
  auto r = run_both(src, {1, 1, 1}, {32, 1, 1}, params);
  expect_same(r);
  EXPECT_TRUE(r.rtl.fault.ok()) << r.rtl.fault.describe();
  params[9 + n - 1] = 256;  // one past the end of the last window
  auto f = run_both(src, {1, 1, 1}, {32, 1, 1}, params);
  g_windows.clear();
  expect_same(f);
  EXPECT_EQ(int(f.rtl.fault.kind), int(FaultKind::OUT_OF_WINDOW)) << f.rtl.fault.describe();
  EXPECT_EQ(f.rtl.fault.addr, kData + 0x1000 * (n - 1) + 256);
  EXPECT_EQ(f.rtl.fault.lane, n - 1);
  std::printf("windows: %u, %s\n", n, f.rtl.describe().c_str());
}

// The protected range (the command processor's rings, descriptors, code
// and parameters) wins over a window that covers it: a store into it is
// OUT_OF_WINDOW at the first lane that reaches it, with nothing written, as
// in the model; the same kernel with the range elsewhere runs to the end.
TEST(SmKernels, ProtectedRangeInsideAWindowFaults) {
  const std::string src = R"(
.kernel k
.regs 4
    S2R R0, SR_TID.X;
    LDC R1, [0];
    SHL R2, R0, 2;
    IADD R2, R1, R2;
    STG [R2], R0;
    EXIT;
.end
)";
  g_protect = baresm::iss::Window{kData + 64, 64};   // threads 16..31's words
  auto f = run_both(src, {1, 1, 1}, {32, 1, 1}, {kData});
  expect_same(f);
  EXPECT_EQ(int(f.rtl.fault.kind), int(FaultKind::OUT_OF_WINDOW)) << f.rtl.fault.describe();
  EXPECT_EQ(f.rtl.fault.addr, kData + 64);
  EXPECT_EQ(f.rtl.fault.lane, 16u);
  g_protect = baresm::iss::Window{kData + 4096, 64};  // beyond what the kernel writes
  auto ok = run_both(src, {1, 1, 1}, {32, 1, 1}, {kData});
  g_protect = baresm::iss::Window{0, 0};
  expect_same(ok);
  EXPECT_TRUE(ok.rtl.fault.ok()) << ok.rtl.fault.describe();
}

// FPU instructions need the FPU (baresm_sm HasFpu, CONFIG word 7 bit 0; the
// model's has_fpu). Without it each one is ILLEGAL_INSTR at issue wherever it
// is reached, guard true or false, with the model's pc, warp and lane: the
// first one reached is a guard-false FADD of warp 1 inside a divergent branch
// whose lowest lane is 5. With the FPU the same kernel runs to the end. Both
// in lockstep.
TEST(SmKernels, FpuInstructionsNeedTheFpu) {
  const std::string src = R"(
.kernel k
.regs 16
    S2R R0, SR_TID.X;
    S2R R1, SR_LANEID;
    S2R R2, SR_WARPID;
    MOV R3, 0;
    ISETP.EQ P0, R2, 0;
    @P0 BRA done;
    ISETP.GE P1, R1, 5;
    @!P1 BRA done;
    ISETP.LT P2, R1, 0;
    @P2 FADD R3, R0, 1.5;
    I2F R0, R0;
    FMUL R3, R0, R0;
done:
    S2R R4, SR_TID.X;
    SHL R4, R4, 2;
    LDC R5, [0];
    IADD R4, R4, R5;
    STG [R4], R3;
    EXIT;
.end
)";
  const auto& p = harness().params();
  auto r = run_both(src, {1, 1, 1}, {64, 1, 1}, {kData});
  expect_same(r);
  if (p.has_fpu) {
    EXPECT_EQ(int(r.model.fault.kind), int(FaultKind::NONE)) << r.model.fault.describe();
  } else {
    EXPECT_EQ(int(r.model.fault.kind), int(FaultKind::ILLEGAL_INSTR)) << r.model.fault.describe();
    EXPECT_EQ(r.rtl.fault.warp, 1u);
    EXPECT_EQ(r.rtl.fault.lane, 5u);
  }
  std::printf("fpu_needs_fpu: has_fpu=%d %s\n", int(p.has_fpu), r.rtl.describe().c_str());
}

// The register file is banked (baresm_sm_rf, CONFIG word 7 bits 15:8): two
// operands of an instruction in one bank at different entries are read in
// successive cycles. The same chain of IMADs and IADDs runs twice on one
// warp (slot 0, register-file base 0): once with the IMAD's three sources in
// three banks, once with two of them in one bank (2 read cycles per beat).
// Both must give the model's results in lockstep; the second must cost about
// one more cycle per IMAD beat. 16 registers, so micro runs it too. The bank
// of an entry mirrors baresm_sm_pkg::rf_bank.
TEST(SmKernels, RegisterBankConflictsCostCyclesNotResults) {
  const auto& p = harness().params();
  ASSERT_GE(p.rf_banks, 2u);
  const uint32_t beats = 32 / p.lanes;
  uint32_t bank_bits = 0;
  while ((1u << bank_bits) < p.rf_banks) bank_bits++;
  uint32_t beat_bits = 0;
  while ((1u << beat_bits) < beats) beat_bits++;
  auto bank = [&](uint32_t reg) {
    const uint32_t e = reg * beats;
    return (e + (e >> std::max(bank_bits, beat_bits))) & (p.rf_banks - 1);
  };
  // Registers 1..10: x, y, z, the IMAD's sources (x and y in one bank when
  // `clash`), and d, its destination; the others in banks of their own.
  auto pick = [&](bool clash) {
    std::vector<uint32_t> r{1};
    if (clash)
      for (uint32_t c = 2; c <= 10 && r.size() < 2; c++)
        if (bank(c) == bank(1)) r.push_back(c);
    for (uint32_t c = 2; c <= 10 && r.size() < 4; c++) {
      bool ok = std::find(r.begin(), r.end(), c) == r.end();
      for (uint32_t q : r) ok = ok && bank(c) != bank(q);
      if (ok) r.push_back(c);
    }
    return r;
  };
  auto kernel = [](const std::vector<uint32_t>& r) {
    auto R = [&](int i) { return "R" + std::to_string(r[size_t(i)]); };
    std::string src = ".kernel k\n.regs 16\n    S2R R0, SR_TID.X;\n";
    src += "    IADD " + R(0) + ", R0, 3;\n    IADD " + R(1) + ", R0, 5;\n    IADD " + R(2) + ", R0, 7;\n";
    for (int i = 0; i < 16; i++) {
      src += "    IMAD " + R(3) + ", " + R(0) + ", " + R(1) + ", " + R(2) + ";\n";
      src += "    IADD " + R(0) + ", " + R(0) + ", " + R(3) + ";\n";
    }
    src += "    MOV R12, " + R(0) + ";\n    MOV R13, " + R(3) + ";\n    MOV R14, " + R(1) + ";\n";
    src += R"(    SHL R15, R0, 4;
    LDC R11, [0];
    IADD R15, R15, R11;
    STG [R15], R12;
    STG [R15 + 4], R13;
    STG [R15 + 8], R14;
    EXIT;
.end
)";
    return src;
  };
  const auto apart = pick(false), clash = pick(true);
  ASSERT_EQ(apart.size(), 4u);
  ASSERT_EQ(clash.size(), 4u);
  auto fast = run_both(kernel(apart), {1, 1, 1}, {32, 1, 1}, {kData});
  expect_same(fast);
  auto slow = run_both(kernel(clash), {1, 1, 1}, {32, 1, 1}, {kData});
  expect_same(slow);
  EXPECT_TRUE(std::equal(fast.rtl_mem.begin() + kData, fast.rtl_mem.begin() + kData + 32 * 16,
                         slow.rtl_mem.begin() + kData))
      << "the same arithmetic on other registers";
  EXPECT_GE(slow.rtl.cycles, fast.rtl.cycles + 16 * beats / 2)
      << "two sources in one bank: " << slow.rtl.cycles << " cycles, in two: " << fast.rtl.cycles;
  std::printf("bank conflicts: %u banks, R%u/R%u apart %llu cycles, R%u/R%u in one bank %llu cycles\n",
              p.rf_banks, apart[0], apart[1], static_cast<unsigned long long>(fast.rtl.cycles), clash[0],
              clash[1], static_cast<unsigned long long>(slow.rtl.cycles));
}

// Faults stay in order while loads wait in the LSU's load slots (docs/lsu.md
// "Load slots"). First: an older load's memory error (its word poisoned,
// answered 100 cycles later) is reported, not the younger load that faults
// OUT_OF_WINDOW at once in stage A. Second: of two loads from poisoned words,
// the older one's MEMORY_ERROR is reported even when memory answers the
// younger one first (reordering memory, several seeds). Both as the model
// reports them, in lockstep; with LoadSlots = 0 (micro) the same holds.
TEST(SmKernels, FaultsOfLoadsInFlightAreReportedInOrder) {
  const std::string src = R"(
.kernel k
.regs 8
    LDC R1, [0];
    LDC R2, [4];
    LDG R3, [R1];
    LDG R4, [R2];
    IADD R5, R3, R4;
    STG [R1], R5;
    EXIT;
.end
)";
  const uint32_t first = kData + 0x200, second = kData + 0x1000;
  baresm::iss::PoisonMap poison;
  poison.poison(first, 4);
  SmRunOptions opt;
  opt.mem.min_latency = opt.mem.max_latency = 100;
  opt.poison = &poison;
  auto a = run_both(src, {1, 1, 1}, {32, 1, 1}, {first, 0x100}, {}, opt);
  expect_same(a);
  EXPECT_EQ(int(a.rtl.fault.kind), int(FaultKind::MEMORY_ERROR)) << a.rtl.fault.describe();
  EXPECT_EQ(a.rtl.fault.addr, first);

  poison.poison(second, 4);
  for (uint64_t seed = 1; seed <= 6; seed++) {
    SmRunOptions o;
    o.mem.min_latency = 1;
    o.mem.max_latency = 200;
    o.mem.out_of_order = true;
    o.mem.seed = seed;
    o.poison = &poison;
    auto b = run_both(src, {1, 1, 1}, {32, 1, 1}, {first, second}, {}, o);
    expect_same(b);
    EXPECT_EQ(int(b.rtl.fault.kind), int(FaultKind::MEMORY_ERROR)) << "seed " << seed << ": " << b.rtl.fault.describe();
    EXPECT_EQ(b.rtl.fault.addr, first) << "seed " << seed << ": the older load's error comes first";
  }
}

// ---- the SM's ID/CONFIG words (contract/sm_config.def) -----------------------------------------

// The C++ encoder and decoder, both from the table, are inverses: every
// field lands where the table says and comes back unchanged.
TEST(SmConfig, EncoderAndDecoderRoundTrip) {
  namespace C = baresm::sm_config;
  baresm::sim::SmParams p;
  p.arch_id = 0xA1B2C3D4;
  p.lanes = 0x11;
  p.warps = 0x22;
  p.regs = 0x33;
  p.stack_depth = 0x44;
  p.rf_depth = 0x55667788;
  p.shared_bytes = 0x99AABBCC;
  p.banks = 0x12;
  p.cta_slots = 0x34;
  p.fpu_latency = 0x56;
  p.ic_lines = 0x78;
  p.line_bytes = 0x0BADF00D;
  p.id_bits = 0x9A;
  p.windows = 0xBC;
  p.smid = 0xDE;
  p.version = 0xF1;
  p.has_fpu = true;
  p.rf_banks = 0x23;
  p.load_slots = 0x45;
  p.gather_depth = 0x67;
  uint32_t w[baresm::sim::kSmConfigWords];
  baresm::sim::encode_sm_config(p, w);
  // Placed where the table says (spot checks against the table's own numbers).
  EXPECT_EQ((w[C::kFields[C::NUM_LANES].word] >> C::kFields[C::NUM_LANES].lsb) & 0xFF, 0x11u);
  EXPECT_EQ((w[C::kFields[C::HAS_FPU].word] >> C::kFields[C::HAS_FPU].lsb) & 1, 1u);
  const baresm::sim::SmParams q = baresm::sim::decode_sm_config(w);
  uint32_t back[baresm::sim::kSmConfigWords];
  baresm::sim::encode_sm_config(q, back);
  for (int i = 0; i < baresm::sim::kSmConfigWords; ++i) EXPECT_EQ(back[i], w[i]) << "word " << i;
  EXPECT_EQ(q.arch_id, p.arch_id);
  EXPECT_EQ(q.lanes, p.lanes);
  EXPECT_EQ(q.stack_depth, p.stack_depth);
  EXPECT_EQ(q.rf_depth, p.rf_depth);
  EXPECT_EQ(q.line_bytes, p.line_bytes);
  EXPECT_EQ(q.gather_depth, p.gather_depth);
  EXPECT_EQ(q.has_fpu, p.has_fpu);
  // A field wider than its slot is cut to it, as the RTL's 8-bit fields are.
  p.lanes = 0x1FF;
  baresm::sim::encode_sm_config(p, w);
  EXPECT_EQ(baresm::sim::decode_sm_config(w).lanes, 0xFFu);
  EXPECT_EQ(baresm::sim::decode_sm_config(w).warps, 0x22u) << "the neighbour is untouched";
}

// What this SM's RTL packs into config_o (through baresm_smcfg_pkg, generated
// from the table), decoded by the harness's decoder (from the same table),
// is exactly the configuration it was built with (RTL_SM_PARAMS: the
// Name=Value list of rtl/configs.txt; a parameter it does not name keeps
// baresm_sm.sv's default and is not checked), plus the fixed fields.
TEST(SmConfig, RtlWordsAreTheConfiguration) {
  namespace C = baresm::sm_config;
  uint32_t w[baresm::sim::kSmConfigWords];
  baresm::sim::encode_sm_config(harness().params(), w);
  EXPECT_EQ(C::get(w, C::ARCH_ID), baresm::isa::kArchId);
  EXPECT_EQ(C::get(w, C::VERSION), 1u);
  std::istringstream list(RTL_SM_PARAMS);
  int checked = 0;
  for (std::string kv; list >> kv;) {
    const size_t eq = kv.find('=');
    ASSERT_NE(eq, std::string::npos) << kv;
    const std::string name = kv.substr(0, eq);
    const uint32_t value = uint32_t(std::stoul(kv.substr(eq + 1), nullptr, 0));
    for (int f = 0; f < C::kNumFields; ++f) {
      if (name != C::kFields[f].param) continue;
      EXPECT_EQ(C::get(w, C::Field(f)), value & C::mask(C::Field(f))) << C::kFields[f].name << " (" << kv << ")";
      ++checked;
    }
  }
  EXPECT_GE(checked, 5) << "RTL_SM_PARAMS: " << RTL_SM_PARAMS;
}

}  // namespace
