// The behaviour shapes the SM's design promises, measured with the H200
// comparison's kernels and code (bench/shapes.h) on the verilated c32w16 SM,
// in the quick mode (one extra loop iteration; see ShapeBench). Each test
// states its tolerance. Where the SM's shape differs from the H200's (one
// scheduler, LoadSlots global loads in flight), the test asserts the SM's
// own shape; docs/h200-comparison.md gives the numbers and the causes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "bench/shapes.h"

namespace {

using baresm::bench::ShapeBench;

ShapeBench& bench() {
  static ShapeBench b(/*quick=*/true);
  return b;
}

// Shared-memory throughput. The LSU serves one pass a cycle, so a k-way
// conflict costs k cycles per warp load; the gather buffer's 5 entries let
// a memory instruction issue every cycle, so a conflict-free load costs one
// cycle (plus the loop's 3 control instructions per 96 loads in the one
// issue port). Issue 9's target: time vs stride 1 equal to k within 5% for
// k = 2..32. 8 warps of independent loads keep the LSU busy (16 give the
// same numbers for twice the CPU time).
TEST(H200Shapes, SharedThroughputIsConflictDegree) {
  std::vector<double> c;
  for (uint32_t s : baresm::bench::kStrides) {
    c.push_back(1.0 / bench().smem_loads_per_cycle(s, 8));
    std::printf("stride %2u: %.3f cycles per warp load, %.2f vs stride 1\n", s, c.back(), c.back() / c[0]);
  }
  EXPECT_GE(c[0], 1.0 - 1e-9) << "more than one pass per cycle";
  EXPECT_LE(c[0], 1.05) << "the SM should accept a conflict-free shared load every cycle";
  for (size_t i = 1; i < c.size(); i++) {
    const double s = baresm::bench::kStrides[i];
    EXPECT_NEAR(c[i] / c[0], s, 0.05 * s) << "stride " << s;
  }
}

// Shared-memory latency, one warp, dependent chain: every extra pass adds
// the same latency, one cycle, so lat(s) = lat(1) + (s - 1) within a cycle;
// a broadcast is one pass, not slower than stride 1.
TEST(H200Shapes, SharedLatencyConstantPerPassBroadcastNotSlower) {
  std::vector<double> l;
  for (uint32_t s : baresm::bench::kStrides) {
    l.push_back(bench().smem_latency(s));
    std::printf("stride %2u: %.2f cycles per load\n", s, l.back());
  }
  const double per_pass = (l.back() - l[0]) / 31;
  EXPECT_NEAR(per_pass, 1.0, 0.05) << "one pass per cycle";
  for (size_t i = 0; i < l.size(); i++) {
    const uint32_t s = baresm::bench::kStrides[i];
    EXPECT_NEAR(l[i], l[0] + per_pass * (s - 1), 1.0) << "stride " << s;
  }
  const double lb = bench().smem_latency(0);
  std::printf("broadcast: %.2f cycles per load\n", lb);
  EXPECT_LE(lb, l[0] + 0.01);
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

// One warp issues a dependent FFMA every FpuLatency + 2 cycles (10%); more
// warps fill the gaps (doubling the warps doubles the rate, 10%) until the
// single issue port is the limit: NumLanes thread-FFMAs a cycle, never
// exceeded, and reached (2%) once the 3 loop-control instructions per 64
// FFMAs are counted as the issue slots they take.
TEST(H200Shapes, AluThroughputGrowsWithWarpsUpToIssueLimit) {
  const auto& p = bench().params();
  const double limit = p.lanes;
  const double one = 32.0 / (p.fpu_latency + 2);
  double prev = 0;
  for (uint32_t w : baresm::bench::kWarps) {
    if (w > p.warps) break;
    const double f = bench().ffma_per_cycle(w);
    std::printf("%2u warps: %.2f FFMA/cycle\n", w, f);
    EXPECT_LE(f, limit + 1e-9) << w << " warps";
    if (w == 1) {
      EXPECT_NEAR(f, one, 0.1 * one);
    } else {
      EXPECT_GE(f, std::min(2 * prev, limit * 64 / 67) * 0.9) << w << " warps";
    }
    if (w == p.warps) {
      EXPECT_NEAR(f, limit * 64 / 67, 0.02 * limit) << "issue port not saturated";
    }
    prev = f;
  }
}

// Dependent global loads at a fixed memory latency L (50 here, to save CPU;
// the program uses 100). A load whose requests are out waits for its
// responses in one of the LSU's LoadSlots slots (docs/lsu.md, "Load slots"),
// so W warps keep min(W, LoadSlots + 1) loads in flight (the slots and the
// one in stage A): the warp-loads per cycle grow with the warps (each
// doubling at least 1.8x) while they fit, never fall (5%), and never
// exceed LoadSlots + 1 per L cycles.
// Issue 9's target: 16 warps move at least 6x the warp-loads per cycle of 1.
TEST(H200Shapes, MemoryLoadsOverlapUpToTheLoadSlots) {
  const auto& p = bench().params();
  ASSERT_GE(p.load_slots, 1u) << "the SM keeps one global load at a time";
  const uint32_t lat = 50;
  const auto m1 = bench().mem_chase(1, lat);
  std::printf(" 1 warp : %.1f cycles/load, %.5f warp-loads/cycle\n", m1.cycles_per_load, m1.loads_per_cycle);
  EXPECT_GE(m1.cycles_per_load, lat);
  double prev = m1.loads_per_cycle;
  uint32_t prev_w = 1;
  for (uint32_t w : baresm::bench::kWarps) {
    if (w == 1 || w > p.warps) continue;
    const auto m = bench().mem_chase(w, lat);
    std::printf("%2u warps: %.1f cycles/load, %.5f warp-loads/cycle, %.2fx 1 warp\n", w, m.cycles_per_load,
                m.loads_per_cycle, m.loads_per_cycle / m1.loads_per_cycle);
    EXPECT_LE(m.loads_per_cycle, double(p.load_slots + 1) / lat) << w << " warps";
    if (w <= p.load_slots) {
      EXPECT_GE(m.loads_per_cycle, prev * 0.9 * w / prev_w) << w << " warps: loads should overlap";
    } else {
      EXPECT_GE(m.loads_per_cycle, prev * 0.95) << w << " warps: past the slots the rate stays";
    }
    if (w == 16) {
      EXPECT_GE(m.loads_per_cycle, 6.0 * m1.loads_per_cycle) << "issue 9: 16 warps hide at least 6x";
    }
    prev = m.loads_per_cycle;
    prev_w = w;
  }
}

// A barrier's cost grows with the warps it waits for: every warp's BAR and,
// after the release, its next instruction go through the one issue port, so
// a barrier of W warps takes at least W cycles and each extra warp adds
// 1 to 1.5 cycles (its issue slot plus its share of the loop control).
TEST(H200Shapes, BarrierCostGrowsWithWarps) {
  const auto& p = bench().params();
  double first = 0, prev = 0;
  uint32_t last_warps = 1;
  for (uint32_t t : baresm::bench::kCtaThreads) {
    const uint32_t w = t / 32;
    if (w > p.warps) break;
    const double c = bench().barrier_cycles(t);
    std::printf("%4u threads: %.2f cycles per barrier\n", t, c);
    EXPECT_GE(c, double(w)) << t << " threads";
    if (w == 1) first = c;
    if (w > 1) {
      EXPECT_GT(c, prev) << t << " threads";
    }
    prev = c;
    last_warps = w;
  }
  const double per_warp = (prev - first) / (last_warps - 1);
  std::printf("%.3f cycles per extra warp\n", per_warp);
  EXPECT_GE(per_warp, 1.0);
  EXPECT_LE(per_warp, 1.5);
}

}  // namespace
