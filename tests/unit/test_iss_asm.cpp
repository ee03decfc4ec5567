// Functional model on assembled kernels: the reconvergence points come from
// the assembler (immediate post-dominators), so these check that model and
// assembler together give the C semantics of each kernel, lane by lane.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "test_iss_util.h"

using namespace isstest;

namespace {

constexpr uint32_t IN = Rig::kData, OUT = Rig::kData + 0x8000;

// Assembles `src`, loads kernel 0 with params (in, out, n) and runs it.
iss::LaunchResult run_asm(Rig& rig, const std::string& src, iss::Dim3 grid, iss::Dim3 block, uint32_t n) {
  auto a = isa::assemble(src, "test.s");
  EXPECT_TRUE(a.ok()) << a.format_errors();
  if (!a.ok()) return {};
  const auto& k = a.module.kernels.at(0);
  rig.load(a.module.code);
  rig.lp.entry_pc = Rig::kCode + k.entry;
  rig.lp.regs_per_thread = k.regs;
  rig.lp.shared_bytes = k.shared_bytes;
  rig.params({IN, OUT, n});
  EXPECT_EQ(k.param_bytes, 12u);
  return rig.run(grid, block);
}

const char* kHeader = R"(
.kernel k
.param in, 4
.param out, 4
.param n, 4
)";

TEST(IssAsm, IfElseChainsAndBreakingLoop) {
  // x = in[i]; if (x % 3 == 0) r = x * 2; else if (x & 1) r = x + 100;
  // else { r = 0; for (k = 0; k < 40; k++) { if (r > x) break; r += k; } }
  // out[i] = r ^ i
  std::string src = std::string(kHeader) + R"(
.regs 10
    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;
    LDC R1, [PARAM(n)];
    ISETP.GE.U32 P0, R0, R1;
    @P0 EXIT;
    SHL R2, R0, 2;
    LDC R1, [PARAM(in)];
    IADD R1, R1, R2;
    LDG R3, [R1];
    IMULHI.U32 R5, R3, 0xAAAAAAAB;
    SHR R5, R5, 1;
    IMUL R5, R5, 3;
    ISUB R5, R3, R5;              // x % 3
    ISETP.NE P1, R5, 0;
    @P1 BRA not3;
    SHL R4, R3, 1;
    BRA done;
not3:
    AND R5, R3, 1;
    ISETP.EQ P1, R5, 0;
    @P1 BRA even;
    IADD R4, R3, 100;
    BRA done;
even:
    MOV R4, 0;
    MOV R6, 0;
loop:
    ISETP.GE P2, R6, 40;
    @P2 BRA done;
    ISETP.GT.U32 P3, R4, R3;
    @P3 BRA done;                 // break
    IADD R4, R4, R6;
    IADD R6, R6, 1;
    BRA loop;
done:
    XOR R4, R4, R0;
    LDC R1, [PARAM(out)];
    IADD R1, R1, R2;
    STG [R1], R4;
    EXIT;
.end
)";
  Rig rig;
  const uint32_t n = 300;
  for (uint32_t i = 0; i < n; ++i) rig.mem.write32(IN + 4 * i, (i * 2654435761u) % 1000);
  rig.mem.write32(OUT + 4 * n, 0xDEADBEEF);
  auto r = run_asm(rig, src, {3, 1, 1}, {128, 1, 1}, n);
  ASSERT_TRUE(r.ok()) << r.fault.describe() << r.launch_error_message;
  EXPECT_GT(r.stats.divergent_branches, 0u);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t x = (i * 2654435761u) % 1000, want;
    if (x % 3 == 0) {
      want = x * 2;
    } else if (x & 1) {
      want = x + 100;
    } else {
      want = 0;
      for (uint32_t k = 0; k < 40; ++k) {
        if (want > x) break;
        want += k;
      }
    }
    ASSERT_EQ(rig.mem.read32(OUT + 4 * i), want ^ i) << i;
  }
  EXPECT_EQ(rig.mem.read32(OUT + 4 * n), 0xDEADBEEFu);  // threads past n exited
}

TEST(IssAsm, SharedTreeReductionWithBarriersInALoop) {
  std::string src = std::string(kHeader) + R"(
.regs 8
.shared 1024
    S2R R0, SR_TID.X;
    S2R R1, SR_CTAID.X;
    SHL R2, R1, 8;
    IADD R2, R2, R0;              // global index
    SHL R2, R2, 2;
    LDC R3, [PARAM(in)];
    IADD R3, R3, R2;
    LDG R4, [R3];
    SHL R5, R0, 2;
    STS [R5], R4;
    BAR.SYNC 0;
    MOV R6, 128;                  // stride
loop:
    ISETP.LT.U32 P0, R0, R6;
    SHL R7, R6, 2;
    IADD R7, R7, R5;
    @P0 LDS R4, [R7];
    @P0 LDS R3, [R5];
    @P0 IADD R4, R4, R3;
    @P0 STS [R5], R4;
    BAR.SYNC 0;
    SHR R6, R6, 1;
    ISETP.NE P1, R6, 0;
    @P1 BRA loop;
    ISETP.NE P2, R0, 0;
    @P2 EXIT;
    LDS R4, [RZ];
    LDC R3, [PARAM(out)];
    SHL R1, R1, 2;
    IADD R3, R3, R1;
    STG [R3], R4;
    EXIT;
.end
)";
  Rig rig;
  for (uint32_t i = 0; i < 4 * 256; ++i) rig.mem.write32(IN + 4 * i, i * i + 7);
  auto r = run_asm(rig, src, {4, 1, 1}, {256, 1, 1}, 0);
  ASSERT_TRUE(r.ok()) << r.fault.describe() << r.launch_error_message;
  EXPECT_EQ(r.stats.barriers, 4u * 9);
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t sum = 0;
    for (uint32_t i = c * 256; i < (c + 1) * 256; ++i) sum += i * i + 7;
    EXPECT_EQ(rig.mem.read32(OUT + 4 * c), sum) << c;
  }
}

TEST(IssAsm, WarpShuffleReduction) {
  std::string src = std::string(kHeader) + R"(
.regs 8
    S2R R0, SR_TID.X;
    SHL R2, R0, 2;
    LDC R3, [PARAM(in)];
    IADD R3, R3, R2;
    LDG R4, [R3];
    SHFL.BFLY R5, R4, 16;
    IADD R4, R4, R5;
    SHFL.BFLY R5, R4, 8;
    IADD R4, R4, R5;
    SHFL.BFLY R5, R4, 4;
    IADD R4, R4, R5;
    SHFL.BFLY R5, R4, 2;
    IADD R4, R4, R5;
    SHFL.BFLY R5, R4, 1;
    IADD R4, R4, R5;
    SHFL.UP R6, R0, 1, 8;         // tid - 1 inside segments of 8
    LDC R3, [PARAM(out)];
    IADD R3, R3, R2;
    STG [R3], R4;
    STG [R3 + 0x400], R6;
    EXIT;
.end
)";
  Rig rig;
  for (uint32_t i = 0; i < 64; ++i) rig.mem.write32(IN + 4 * i, i * 3 + 1);
  auto r = run_asm(rig, src, {1, 1, 1}, {64, 1, 1}, 0);
  ASSERT_TRUE(r.ok()) << r.fault.describe() << r.launch_error_message;
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t w = i / 32, sum = 0;
    for (uint32_t j = w * 32; j < w * 32 + 32; ++j) sum += j * 3 + 1;
    EXPECT_EQ(rig.mem.read32(OUT + 4 * i), sum) << i;
    EXPECT_EQ(rig.mem.read32(OUT + 0x400 + 4 * i), i % 8 == 0 ? i : i - 1) << i;
  }
}

}  // namespace
