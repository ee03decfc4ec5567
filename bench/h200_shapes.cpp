// Prints each table of the H200 reference next to the same measurement on
// the verilated SM (bench/kernels/*.s through bench/shapes.h), both
// normalised the way the reference normalises them. Ratios carry over
// between the two machines, absolute cycles do not. docs/h200-comparison.md
// explains the method and the differences.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include "bench/shapes.h"

namespace {

using baresm::bench::ShapeBench;

// Measured on a real H200 (sm_90, clock64() in the kernel); copied from
// /work/shared/reference/h200-sm-behaviour.md, in the order of its rows.
struct H200 {
  static constexpr double smem_loads_per_cycle[6] = {0.99, 0.50, 0.25, 0.12, 0.06, 0.03};  // strides 1..32
  static constexpr double smem_time_vs_1[6] = {1.00, 1.99, 3.98, 7.95, 15.89, 31.78};
  static constexpr double smem_latency[6] = {38.15, 40.15, 44.15, 52.15, 68.15, 100.15};
  static constexpr double smem_latency_broadcast = 33.61;
  static constexpr double divergence_vs_1[6] = {1.00, 1.99, 4.00, 7.98, 15.97, 31.93};   // G = 1..32
  static constexpr double fma_per_cycle[6] = {6.52, 13.03, 26.07, 50.82, 84.12, 91.82};  // warps 1..32
  static constexpr double fma_peak = 128;  // 4 schedulers x 32 FP32 lanes
  static constexpr double mem_cycles_per_load[6] = {79.0, 64.9, 58.5, 83.1, 156.2, 312.4};  // warps 1..32
  static constexpr double mem_loads_per_cycle[6] = {0.41, 0.99, 2.19, 3.08, 3.28, 3.28};
  static constexpr double barrier_cycles[6] = {14.69, 16.69, 20.69, 28.69, 44.69, 76.71};  // 32..1024 threads
};

void rule() {
  std::printf("%s\n", std::string(86, '-').c_str());
}

}  // namespace

int main() {
  const auto t_start = std::chrono::steady_clock::now();
  try {
    ShapeBench b;
    const auto& p = b.params();
    const uint32_t max_warps = p.warps;
    std::printf(
        "H200 (reference) vs baresm SM: %u lanes, %u warp slots, %u banks, FPU latency %u,\n"
        "memory model at a fixed %u-cycle latency for the memory table. Cycles are SM cycles\n"
        "read with SR_CLOCK inside the kernels; loops are timed by difference (bench/shapes.h).\n\n",
        p.lanes, p.warps, p.banks, p.fpu_latency, baresm::bench::kMemLatency);
    const auto& S = baresm::bench::kStrides;

    std::printf("Shared memory throughput vs lane stride (1 CTA, %u warps, independent LDS)\n", max_warps);
    rule();
    std::printf("%-8s | %-14s %-12s | %-14s %-12s\n", "stride", "H200 loads/cyc", "time vs s=1",
                "baresm ld/cyc", "time vs s=1");
    double l1 = 0;
    for (size_t i = 0; i < S.size(); i++) {
      const double l = b.smem_loads_per_cycle(S[i]);
      if (i == 0) l1 = l;
      std::printf("%-8u | %-14.2f %-12.2f | %-14.3f %-12.2f\n", S[i], H200::smem_loads_per_cycle[i],
                  H200::smem_time_vs_1[i], l, l1 / l);
    }

    std::printf("\nShared memory latency vs stride (1 warp, dependent LDS chain)\n");
    rule();
    std::printf("%-9s | %-11s %-15s | %-11s %-15s\n", "stride", "H200 cyc", "+cyc/extra pass", "baresm cyc",
                "+cyc/extra pass");
    double lat1 = 0;
    for (size_t i = 0; i < S.size(); i++) {
      const double l = b.smem_latency(S[i]);
      if (i == 0) lat1 = l;
      char h[32] = "-", m[32] = "-";
      if (i) {
        std::snprintf(h, sizeof h, "%.2f", (H200::smem_latency[i] - H200::smem_latency[0]) / (S[i] - 1));
        std::snprintf(m, sizeof m, "%.2f", (l - lat1) / (S[i] - 1));
      }
      std::printf("%-9u | %-11.2f %-15s | %-11.2f %-15s\n", S[i], H200::smem_latency[i], h, l, m);
    }
    const double lb = b.smem_latency(0);
    std::printf("%-9s | %-11.2f %-15s | %-11.2f %-15s\n", "broadcast", H200::smem_latency_broadcast, "", lb,
                "");

    std::printf("\nWarp divergence (1 warp split into G paths of equal work)\n");
    rule();
    std::printf("%-4s | %-14s | %-14s %-12s\n", "G", "H200 vs G=1", "baresm vs G=1", "baresm cyc");
    double d1 = 0;
    const auto& G = baresm::bench::kGroups;
    for (size_t i = 0; i < G.size(); i++) {
      const double d = b.divergence_cycles(G[i]);
      if (i == 0) d1 = d;
      std::printf("%-4u | %-14.2f | %-14.2f %-12.0f\n", G[i], H200::divergence_vs_1[i], d / d1, d);
    }

    const auto& W = baresm::bench::kWarps;
    std::printf("\nLatency hiding, ALU (1 CTA of W warps, dependent FFMA chains)\n");
    rule();
    std::printf("%-5s | %-10s %-10s %-11s | %-10s %-10s %-11s\n", "warps", "H200 FMA/c", "vs 1 warp",
                "of peak", "baresm/c", "vs 1 warp", "of peak");
    double f1 = 0;
    for (size_t i = 0; i < W.size(); i++) {
      if (W[i] > max_warps) {
        std::printf("%-5u | %-10.2f %-10.2f %-11.3f | %-10s (more warps than the SM's slots)\n", W[i],
                    H200::fma_per_cycle[i], H200::fma_per_cycle[i] / H200::fma_per_cycle[0],
                    H200::fma_per_cycle[i] / H200::fma_peak, "n/a");
        continue;
      }
      const double f = b.ffma_per_cycle(W[i]);
      if (i == 0) f1 = f;
      std::printf("%-5u | %-10.2f %-10.2f %-11.3f | %-10.2f %-10.2f %-11.3f\n", W[i], H200::fma_per_cycle[i],
                  H200::fma_per_cycle[i] / H200::fma_per_cycle[0], H200::fma_per_cycle[i] / H200::fma_peak, f,
                  f / f1, f / p.lanes);
    }

    std::printf("\nLatency hiding, memory (W warps, dependent global loads)\n");
    rule();
    std::printf("%-5s | %-9s %-10s %-9s | %-9s %-10s %-9s\n", "warps", "H200 c/ld", "H200 ld/c", "ld/c vs 1",
                "baresm c/ld", "ld/c", "ld/c vs 1");
    double m1 = 0;
    for (size_t i = 0; i < W.size(); i++) {
      if (W[i] > max_warps) {
        std::printf("%-5u | %-9.1f %-10.2f %-9.2f | %-9s (more warps than the SM's slots)\n", W[i],
                    H200::mem_cycles_per_load[i], H200::mem_loads_per_cycle[i],
                    H200::mem_loads_per_cycle[i] / H200::mem_loads_per_cycle[0], "n/a");
        continue;
      }
      const auto m = b.mem_chase(W[i]);
      if (i == 0) m1 = m.loads_per_cycle;
      std::printf("%-5u | %-9.1f %-10.2f %-9.2f | %-11.1f %-10.4f %-9.2f\n", W[i],
                  H200::mem_cycles_per_load[i], H200::mem_loads_per_cycle[i],
                  H200::mem_loads_per_cycle[i] / H200::mem_loads_per_cycle[0], m.cycles_per_load,
                  m.loads_per_cycle, m.loads_per_cycle / m1);
    }

    std::printf("\nBarrier (BAR.SYNC) cost vs CTA size\n");
    rule();
    std::printf("%-7s | %-9s %-12s | %-10s %-12s\n", "threads", "H200 cyc", "+cyc/warp", "baresm cyc",
                "+cyc/warp");
    const auto& T = baresm::bench::kCtaThreads;
    double b1 = 0;
    for (size_t i = 0; i < T.size(); i++) {
      char h[32] = "-", m[32] = "-";
      if (i)
        std::snprintf(h, sizeof h, "%.2f",
                      (H200::barrier_cycles[i] - H200::barrier_cycles[0]) / (T[i] / 32 - 1));
      if (T[i] / 32 > max_warps) {
        std::printf("%-7u | %-9.2f %-12s | %-10s (more warps than the SM's slots)\n", T[i],
                    H200::barrier_cycles[i], h, "n/a");
        continue;
      }
      const double c = b.barrier_cycles(T[i]);
      if (i == 0) b1 = c;
      if (i) std::snprintf(m, sizeof m, "%.2f", (c - b1) / (T[i] / 32 - 1));
      std::printf("%-7u | %-9.2f %-12s | %-10.2f %-12s\n", T[i], H200::barrier_cycles[i], h, c, m);
    }

    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::printf("\n%llu SM cycles simulated in %.1f s\n", (unsigned long long)b.simulated_cycles(), secs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_h200_shapes: %s\n", e.what());
    return 1;
  }
  return 0;
}
