// The behaviour shapes the SM's design promises, measured by the H200
// comparison's kernels (bench/shapes.h) on the verilated c32w16 SM. Each
// test states its tolerance; docs/h200-comparison.md says where and why the
// SM's shape differs from the H200's.
#include <gtest/gtest.h>

#include <cstdio>

#include "bench/shapes.h"

namespace {

using baresm::bench::ShapeBench;

ShapeBench& bench() {
  static ShapeBench b;
  return b;
}

// A k-way bank conflict costs k passes, one pass per cycle (docs/lsu.md):
// time vs stride 1 within 10% of the stride.
TEST(H200Shapes, SharedThroughputScalesWithConflictDegree) {
  const double l1 = bench().smem_loads_per_cycle(1);
  EXPECT_LE(l1, 1.0 + 1e-9) << "more than one conflict-free warp load per cycle";
  EXPECT_GE(l1, 0.9) << "the LSU should take a conflict-free LDS every cycle with 16 warps";
  for (uint32_t s : baresm::bench::kStrides) {
    const double ratio = l1 / bench().smem_loads_per_cycle(s);
    std::printf("stride %2u: time vs stride 1 = %.3f\n", s, ratio);
    EXPECT_NEAR(ratio, double(s), 0.1 * s) << "stride " << s;
  }
}

// Dependent chain: every extra pass adds the same latency (one cycle here),
// so lat(s) = lat(1) + c (s - 1) within a cycle; a broadcast is one pass.
TEST(H200Shapes, SharedLatencyConstantPerPassBroadcastNotSlower) {
  const double l1 = bench().smem_latency(1);
  const double l32 = bench().smem_latency(32);
  const double per_pass = (l32 - l1) / 31;
  std::printf("stride 1: %.2f cycles, %.3f per extra pass\n", l1, per_pass);
  EXPECT_NEAR(per_pass, 1.0, 0.05) << "one pass per cycle";
  for (uint32_t s : baresm::bench::kStrides) {
    const double l = bench().smem_latency(s);
    std::printf("stride %2u: %.2f cycles per load\n", s, l);
    EXPECT_NEAR(l, l1 + per_pass * (s - 1), 1.0) << "stride " << s;
  }
  const double lb = bench().smem_latency(0);
  std::printf("broadcast: %.2f cycles per load\n", lb);
  EXPECT_LE(lb, l1 + 0.01);
}

// The reconvergence stack runs the G paths one after another: time vs G=1
// within 10% of G.
TEST(H200Shapes, DivergentPathsSerialize) {
  const double t1 = bench().divergence_cycles(1);
  for (uint32_t g : baresm::bench::kGroups) {
    const double ratio = bench().divergence_cycles(g) / t1;
    std::printf("G = %2u: time vs G=1 = %.3f\n", g, ratio);
    EXPECT_NEAR(ratio, double(g), 0.1 * g) << "G = " << g;
  }
}

// One warp issues a dependent FFMA every FpuLatency + 2 cycles; more warps
// fill the gaps until the single issue port (NumLanes thread-FFMAs a cycle)
// is the limit, which is never exceeded.
TEST(H200Shapes, AluThroughputGrowsWithWarpsUpToIssueLimit) {
  const auto& p = bench().params();
  const double limit = p.lanes;  // one warp-instruction per cycle, Beats = 1
  double prev = 0;
  for (uint32_t w : baresm::bench::kWarps) {
    if (w > p.warps) break;
    const double f = bench().ffma_per_cycle(w);
    std::printf("%2u warps: %.2f FFMA/cycle\n", w, f);
    EXPECT_LE(f, limit + 1e-9);
    if (w == 1) EXPECT_NEAR(f, 32.0 / (p.fpu_latency + 2), 0.1 * 32.0 / (p.fpu_latency + 2));
    // Doubling the warps doubles the rate until the issue port saturates.
    if (w > 1) EXPECT_GE(f, std::min(2 * prev, limit) * 0.9) << w << " warps";
    prev = f;
  }
}

// Dependent global loads: the LSU holds one global instruction until its
// last response (docs/lsu.md, "Cost and limits"), so the SM completes at
// most one warp-load per memory latency. Throughput grows from 1 warp
// (whose own issue/writeback gaps add to the latency) to 2, then stays
// saturated, and each warp's latency per load grows with the warps instead.
TEST(H200Shapes, MemoryThroughputSaturatesThenLatencyGrows) {
  const auto& p = bench().params();
  const double bound = 1.0 / baresm::bench::kMemLatency;
  const auto m1 = bench().mem_chase(1);
  std::printf(" 1 warp : %.1f cycles/load, %.5f warp-loads/cycle\n", m1.cycles_per_load, m1.loads_per_cycle);
  EXPECT_GE(m1.cycles_per_load, baresm::bench::kMemLatency);
  auto prev = m1;
  for (uint32_t w : baresm::bench::kWarps) {
    if (w == 1 || w > p.warps) continue;
    const auto m = bench().mem_chase(w);
    std::printf("%2u warps: %.1f cycles/load, %.5f warp-loads/cycle\n", w, m.cycles_per_load, m.loads_per_cycle);
    EXPECT_LE(m.loads_per_cycle, bound * 1.001) << w << " warps";
    EXPECT_GE(m.loads_per_cycle, prev.loads_per_cycle * 0.99) << w << " warps: throughput fell";
    // Saturated: latency per load grows in proportion to the warps (10%).
    EXPECT_NEAR(m.cycles_per_load / prev.cycles_per_load, double(w) / (w / 2), 0.1 * 2) << w << " warps";
    prev = m;
  }
}

// A barrier's cost grows with the warps it waits for.
TEST(H200Shapes, BarrierCostGrowsWithWarps) {
  const auto& p = bench().params();
  double prev = 0;
  for (uint32_t t : baresm::bench::kCtaThreads) {
    if (t / 32 > p.warps) break;
    const double c = bench().barrier_cycles(t);
    std::printf("%4u threads: %.2f cycles per barrier\n", t, c);
    if (t > 32) EXPECT_GT(c, prev) << t << " threads";
    prev = c;
  }
}

}  // namespace
