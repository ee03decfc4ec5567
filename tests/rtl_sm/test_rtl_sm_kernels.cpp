// Directed kernels on the verilated SM, each compared with the functional
// model over the same device memory: every integer opcode and modifier,
// predicates and guards, special registers, divergence and the
// reconvergence stack, barriers with counts and exits, shuffles and votes,
// shared memory and atomics, many CTAs, the launch checks, and every fault
// kind the issue stage raises. Built per SM configuration like the system
// tests.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "isa/assembler.h"
#include "isa/iss.h"
#include "sim/harness/sm_harness.h"

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

SmHarness& harness() {
  static SmHarness h(baresm::sim::make_sm_dut());
  return h;
}

struct Run {
  baresm::iss::LaunchResult model;
  SmRunResult rtl;
  std::vector<uint8_t> model_mem, rtl_mem;
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
  p.code_size = uint32_t(a.module.code.size() * 8);
  p.grid = grid;
  p.block = block;
  p.param_addr = kParam;
  p.param_size = uint32_t(params.size() * 4);
  p.regs_per_thread = k.regs;
  p.shared_bytes = k.shared_bytes;
  p.windows = {baresm::iss::Window{kData, kDataSize}};
  p.instr_budget = watchdog;

  r.model_mem = mem;
  baresm::iss::DeviceMemory dm(kMemBytes);
  dm.bytes() = mem;
  baresm::iss::ModelConfig mc;
  mc.stack_depth = harness().params().stack_depth;
  baresm::iss::FunctionalModel model(dm, mc);
  r.model = model.run(p);
  r.model_mem = dm.bytes();

  r.rtl_mem = mem;
  if (!opt.max_cycles || opt.max_cycles > 2'000'000) opt.max_cycles = 2'000'000;
  r.rtl = harness().run(baresm::sim::launch_from_params(p, watchdog), r.rtl_mem, opt);
  return r;
}

void expect_same(const Run& r, bool check_fault_place = true) {
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
