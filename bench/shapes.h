// The H200 behaviour-shape micro-benchmarks (bench/kernels/*.s) on a
// verilated SM, shared by the report program (h200_shapes.cpp) and its test
// (test_h200_shapes.cpp). Every kernel times itself with SR_CLOCK (SM
// cycles, like clock64() on the GPU) and lane 0 of each warp writes its
// {start, end} to global memory; the numbers below come from those clocks
// only, never from the harness.
//
// Loops are measured by difference: each benchmark runs with two iteration
// counts and reports the extra time per extra iteration, which cancels the
// fixed costs (instruction-cache misses, the first barrier, the drain) the
// way a long run on the GPU amortises them. The divergence benchmark times
// its whole switch instead, because the per-path dispatch is part of what it
// measures.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/module.h"
#include "sim/harness/sm_harness.h"

namespace baresm::bench {

// The sweeps of the reference's tables (the SM here has at most
// params().warps warps per CTA, so the sweeps stop there).
inline const std::vector<uint32_t> kStrides = {1, 2, 4, 8, 16, 32};
inline const std::vector<uint32_t> kGroups = {1, 2, 4, 8, 16, 32};
inline const std::vector<uint32_t> kWarps = {1, 2, 4, 8, 16, 32};
inline const std::vector<uint32_t> kCtaThreads = {32, 64, 128, 256, 512, 1024};

// Fixed latency of the harness's memory model for the memory benchmark.
constexpr uint32_t kMemLatency = 100;

struct MemPoint {
  double cycles_per_load = 0;  // per warp: its chain's time per load
  double loads_per_cycle = 0;  // warp-loads per cycle, the whole SM
};

class ShapeBench {
 public:
  // Builds the SM (the configuration linked in) and assembles the kernels.
  // quick: one extra loop iteration instead of two and shorter divergent
  // paths (the test's CPU budget); the shapes are the same, a little less
  // exact.
  explicit ShapeBench(bool quick = false);
  ~ShapeBench();
  const sim::SmParams& params() const;

  // One CTA of `warps` warps (0: every slot), independent LDS: warp-wide
  // loads per cycle.
  double smem_loads_per_cycle(uint32_t stride_words, uint32_t warps = 0);
  // One warp, dependent LDS chain: cycles per load. stride 0 = broadcast.
  double smem_latency(uint32_t stride_words);
  // One warp split into `groups` paths of equal work: cycles of the switch.
  double divergence_cycles(uint32_t groups);
  // `warps` warps of dependent FFMA chains: thread FFMAs per cycle.
  double ffma_per_cycle(uint32_t warps);
  // `warps` warps of dependent global loads, fixed memory latency.
  MemPoint mem_chase(uint32_t warps, uint32_t latency = kMemLatency);
  // One CTA of `threads` threads, back-to-back BAR.SYNC: cycles per barrier.
  double barrier_cycles(uint32_t threads);

  // Harness cycles simulated so far (to report the cost of a sweep).
  uint64_t simulated_cycles() const { return simulated_; }

 private:
  struct Times {
    double span = 0;       // last end - first start, over the warps
    double mean_warp = 0;  // mean of end - start
  };
  using Init = std::function<void(std::vector<uint8_t>& mem, uint32_t data_base)>;
  // Runs `kernel` as one CTA of `threads`; params by name (out is set here).
  Times run(const std::string& kernel, uint32_t threads, std::map<std::string, uint32_t> params,
            const sim::SmRunOptions& opt = {}, const Init& init = {});
  // Time per iteration: (run(n2) - run(n1)) / (n2 - n1), iterations in "iters".
  Times per_iter(const std::string& kernel, uint32_t threads, const std::map<std::string, uint32_t>& params,
                 uint32_t n1, uint32_t n2, const sim::SmRunOptions& opt = {}, const Init& init = {});

  std::unique_ptr<sim::SmHarness> harness_;
  uint32_t n1_ = 1, n2_ = 3;                    // iteration counts of per_iter()
  uint32_t path_iters_ = 16;                    // divergence: 8-FFMA iterations per path
  std::map<std::string, isa::Module> modules_;  // kernel name -> its file, assembled
  uint64_t simulated_ = 0;
};

}  // namespace baresm::bench
