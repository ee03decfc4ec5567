// The device-memory allocator's cost as the block count grows (issue 33):
// Google Benchmark, never a timed test (bench_alloc_runs only checks that
// it runs). Every case holds N live blocks and times one more operation:
//
//   BM_AllocFreeFirstHole/N   N one-unit blocks with a one-unit hole after
//                             each: allocate one unit (the lowest hole), free it
//   BM_AllocPastEveryHole/N   the same heap, a two-unit request that fits no
//                             hole (first fit must pass all N), then free it
//   BM_AllocTopDown/N         a two-unit request from the top, as the
//                             driver's rings and code are placed, then free it
//   BM_FillThenFree/N         N one-byte allocations into an empty range and
//                             their frees in a scattered order (per block)
//   BM_DeviceMemAlloc/N       Device::mem_alloc + mem_free of one byte in a
//                             context that holds N allocations (the
//                             functional model, 32 MiB of device memory)
//
//   build/bench/bench_alloc [--benchmark_filter=...]   (docs/driver.md has the numbers)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "host_driver/allocator.h"
#include "host_driver/driver.h"
#include "host_driver/model_transport.h"

namespace {

using baresm::drv::Allocator;
constexpr uint32_t kAlign = 256;
constexpr uint32_t kRange = 64u << 20;  // 262144 units: room for 2 x 50k blocks

// N one-unit blocks, each followed by a one-unit hole.
void fragmented(Allocator& a, int64_t n) {
  a.init(kAlign, kRange, kAlign);
  std::vector<uint32_t> holes;
  uint32_t p = 0;
  for (int64_t i = 0; i < 2 * n; ++i) {
    a.alloc(1, 1, 0, false, &p);
    if (i % 2) holes.push_back(p);
  }
  for (uint32_t h : holes) a.free(h);
}

void BM_AllocFreeFirstHole(benchmark::State& st) {
  Allocator a;
  fragmented(a, st.range(0));
  uint32_t p = 0;
  for (auto _ : st) {
    if (!a.alloc(1, 1, 0, false, &p)) st.SkipWithError("alloc failed");
    a.free(p);
  }
  st.counters["blocks"] = double(a.count());
}

void BM_AllocPastEveryHole(benchmark::State& st) {
  Allocator a;
  fragmented(a, st.range(0));
  uint32_t p = 0;
  for (auto _ : st) {
    if (!a.alloc(2 * kAlign, 1, 0, false, &p)) st.SkipWithError("alloc failed");
    a.free(p);
  }
  st.counters["blocks"] = double(a.count());
}

void BM_AllocTopDown(benchmark::State& st) {
  Allocator a;
  fragmented(a, st.range(0));
  uint32_t p = 0;
  for (auto _ : st) {
    if (!a.alloc(2 * kAlign, 1, 0, true, &p)) st.SkipWithError("alloc failed");
    a.free(p);
  }
  st.counters["blocks"] = double(a.count());
}

void BM_FillThenFree(benchmark::State& st) {
  const int64_t n = st.range(0);
  std::vector<uint32_t> ptrs(size_t(n), 0);
  Allocator a;
  for (auto _ : st) {
    a.init(kAlign, kRange, kAlign);
    for (auto& p : ptrs) a.alloc(1, 1, 0, false, &p);
    st.PauseTiming();
    std::shuffle(ptrs.begin(), ptrs.end(), std::mt19937(1));
    st.ResumeTiming();
    for (uint32_t p : ptrs) a.free(p);
  }
  st.SetItemsProcessed(st.iterations() * n);  // items/s: blocks allocated and freed
}

void BM_DeviceMemAlloc(benchmark::State& st) {
  namespace drv = baresm::drv;
  baresm::cq::ModelDeviceConfig cfg;
  cfg.mem_bytes = 32u << 20;
  drv::ModelTransport t(cfg);
  drv::Device dev;
  drv::Context ctx;
  if (dev.open(&t, drv::DeviceOptions{}) != drv::Status::OK || dev.ctx_create(&ctx) != drv::Status::OK) {
    st.SkipWithError(dev.last_error().detail);
    return;
  }
  drv::DevPtr p = 0;
  for (int64_t i = 0; i < st.range(0); ++i)
    if (dev.mem_alloc(ctx, 1, &p) != drv::Status::OK) {
      st.SkipWithError(dev.last_error().detail);
      return;
    }
  for (auto _ : st) {
    if (dev.mem_alloc(ctx, 1, &p) != drv::Status::OK) st.SkipWithError(dev.last_error().detail);
    dev.mem_free(ctx, p);
  }
}

#define SIZES ->Arg(1000)->Arg(10000)->Arg(50000)
BENCHMARK(BM_AllocFreeFirstHole) SIZES;
BENCHMARK(BM_AllocPastEveryHole) SIZES;
BENCHMARK(BM_AllocTopDown) SIZES;
BENCHMARK(BM_FillThenFree) SIZES->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeviceMemAlloc) SIZES;

}  // namespace

BENCHMARK_MAIN();
