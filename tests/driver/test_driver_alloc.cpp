// The device-memory allocator without a hidden block limit (issue 33): its
// tables grow with the range (one block per alignment unit at most), it
// places every block where the first-fit search over the gaps would (checked
// against a reference that walks the gaps), and the driver's mem_alloc runs
// out of memory, not of table entries, and says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "host_driver/allocator.h"
#include "host_driver/model_transport.h"
#include "tests/driver/driver_harness.h"

namespace baresm::drvtest {
namespace {

// The placement rule, written the slow way: the sorted blocks, the gaps
// between them, the lowest gap that fits (bottom-up, at its bottom) or the
// highest (top-down, at its top).
struct Reference {
  struct B {
    uint32_t addr, size;
  };
  std::vector<B> blocks;
  uint32_t base, end, align;
  Reference(uint32_t b, uint32_t size, uint32_t a) : base(b), end(b + size), align(a) {}
  bool alloc(uint32_t bytes, bool top, uint32_t* out) {
    const uint64_t need = (uint64_t(bytes) + align - 1) / align * align;
    const size_t n = blocks.size();
    auto lo = [&](size_t i) -> uint64_t { return i == 0 ? base : uint64_t(blocks[i - 1].addr) + blocks[i - 1].size; };
    auto hi = [&](size_t i) -> uint64_t { return i == n ? end : blocks[i].addr; };
    for (size_t k = 0; k <= n; ++k) {
      const size_t i = top ? n - k : k;
      if (hi(i) - lo(i) < need) continue;
      *out = uint32_t(top ? hi(i) - need : lo(i));
      blocks.insert(blocks.begin() + long(i), B{*out, uint32_t(need)});
      return true;
    }
    return false;
  }
  void free(uint32_t addr) {
    blocks.erase(std::find_if(blocks.begin(), blocks.end(), [&](const B& b) { return b.addr == addr; }));
  }
  uint32_t largest() const {
    uint64_t best = 0, at = base;
    for (const B& b : blocks) {
      best = std::max<uint64_t>(best, b.addr - at);
      at = uint64_t(b.addr) + b.size;
    }
    return uint32_t(std::max<uint64_t>(best, end - at));
  }
};

TEST(Allocator, PlacesEveryBlockWhereFirstFitWould) {
  for (const uint32_t align : {16u, 256u}) {
    for (const uint32_t units : {1000u, 5000u, 20000u}) {  // leaves of 64 units, odd sizes included
      SCOPED_TRACE("align " + std::to_string(align) + ", units " + std::to_string(units));
      drv::Allocator a;
      a.init(align, units * align, align);
      Reference ref(align, units * align, align);
      std::mt19937 rng(units + align);
      std::vector<uint32_t> live;
      for (int step = 0; step < 40000; ++step) {
        const bool grow = live.empty() || rng() % 100 < 62;
        if (grow) {
          // Mostly small blocks, some spanning several 64-unit leaves.
          const uint32_t bytes = rng() % 10 ? 1 + rng() % (4 * align) : 1 + rng() % (300 * align);
          const bool top = rng() % 4 == 0;
          uint32_t got = 0, want = 0;
          const bool ok = a.alloc(bytes, 1, 0, top, &got);
          ASSERT_EQ(ok, ref.alloc(bytes, top, &want)) << "step " << step << ", " << bytes << " bytes";
          if (!ok) continue;
          ASSERT_EQ(got, want) << "step " << step << ", " << bytes << " bytes" << (top ? " from the top" : "");
          live.push_back(got);
        } else {
          const size_t i = rng() % live.size();
          ASSERT_TRUE(a.free(live[i]));
          ref.free(live[i]);
          live[i] = live.back();
          live.pop_back();
        }
        if (step % 97 == 0) {
          ASSERT_EQ(a.largest_free(), ref.largest()) << "step " << step;
          ASSERT_EQ(a.count(), int(live.size()));
        }
      }
      EXPECT_GT(live.size(), 256u) << "the walk never went past the old fixed table";
    }
  }
}

TEST(Allocator, HoldsOneBlockPerAlignmentUnit) {
  drv::Allocator a;
  a.init(0, 1u << 20, 16);  // 65536 units
  ASSERT_EQ(a.max_blocks(), 65536u);
  uint32_t p = 0;
  for (uint32_t i = 0; i < a.max_blocks(); ++i) ASSERT_TRUE(a.alloc(1, 1, 0, i % 2, &p)) << "block " << i;
  EXPECT_FALSE(a.alloc(1, 1, 0, false, &p)) << "the memory is full";
  EXPECT_EQ(a.count(), 65536);
  EXPECT_EQ(a.free_bytes(), 0u);
  EXPECT_EQ(a.largest_free(), 0u);
  // In address order, one unit each, none overlapping.
  uint32_t next = 0;
  for (const auto& [addr, b] : a.blocks()) {
    ASSERT_EQ(addr, next);
    ASSERT_EQ(b.size, 16u);
    next = addr + b.size;
  }
  for (uint32_t addr = 0; addr < (1u << 20); addr += 32) ASSERT_TRUE(a.free(addr));
  EXPECT_EQ(a.largest_free(), 16u) << "every other unit is free: no run of two";
  EXPECT_FALSE(a.alloc(17, 1, 0, false, &p));
  for (uint32_t addr = 16; addr < (1u << 20); addr += 32) ASSERT_TRUE(a.free(addr));
  EXPECT_EQ(a.count(), 0);
  EXPECT_EQ(a.largest_free(), 1u << 20) << "freed neighbours merge into one run";
  ASSERT_TRUE(a.alloc(1u << 20, 1, 0, true, &p));
  EXPECT_EQ(p, 0u);
}

// The driver: one-byte allocations in a context until device memory, not a
// table, runs out; then the error names that limit.
TEST(DriverMemory, TensOfThousandsOfAllocationsUntilMemoryRunsOut) {
  cq::ModelDeviceConfig cfg;
  cfg.mem_bytes = 16u << 20;
  Harness h;
  ASSERT_EQ(h.open(std::make_unique<drv::ModelTransport>(cfg), drv::DeviceOptions{}), drv::Status::OK)
      << h.last_error_text();
  drv::Context ctx;
  ASSERT_EQ(h.dev.ctx_create(&ctx), drv::Status::OK);
  uint32_t free0 = 0, total = 0;
  ASSERT_EQ(h.dev.mem_get_info(&free0, &total), drv::Status::OK);
  std::vector<drv::DevPtr> ptrs;
  drv::DevPtr p = 0;
  drv::Status st;
  while ((st = h.dev.mem_alloc(ctx, 1, &p)) == drv::Status::OK) {
    ptrs.push_back(p);
    ASSERT_LE(ptrs.size(), size_t(free0 / 256)) << "more blocks than 256-byte units";
  }
  EXPECT_EQ(st, drv::Status::OUT_OF_MEMORY);
  EXPECT_EQ(ptrs.size(), size_t(free0 / 256)) << "stopped before memory ran out: " << h.last_error_text();
  EXPECT_GE(ptrs.size(), 50000u);
  const std::string detail = h.dev.last_error().detail;
  EXPECT_NE(detail.find("the limit is device memory"), std::string::npos) << detail;
  EXPECT_NE(detail.find("largest free block is 0 bytes"), std::string::npos) << detail;
  // Each is its own allocation of this context.
  uint32_t v = 0x12345678, back = 0;
  ASSERT_EQ(h.dev.memcpy_htod(ctx, ptrs[ptrs.size() / 2], &v, 1), drv::Status::OK);
  EXPECT_EQ(h.dev.memcpy_htod(ctx, ptrs[ptrs.size() / 2], &v, 2), drv::Status::INVALID_VALUE);
  ASSERT_EQ(h.dev.memcpy_dtoh(ctx, &back, ptrs[ptrs.size() / 2], 1), drv::Status::OK);
  EXPECT_EQ(back & 0xFF, 0x78u);
  // Freed in a scattered order, the memory is whole again.
  std::shuffle(ptrs.begin(), ptrs.end(), std::mt19937(5));
  for (drv::DevPtr q : ptrs) ASSERT_EQ(h.dev.mem_free(ctx, q), drv::Status::OK) << h.last_error_text();
  uint32_t free1 = 0;
  ASSERT_EQ(h.dev.mem_get_info(&free1, nullptr), drv::Status::OK);
  EXPECT_EQ(free1, free0);
  ASSERT_EQ(h.dev.mem_alloc(ctx, free0, &p), drv::Status::OK) << "one block of all of it";
  ASSERT_EQ(h.dev.mem_free(ctx, p), drv::Status::OK);
  EXPECT_TRUE(vec_add_runs(h, ctx, 1000, 3));
}

}  // namespace
}  // namespace baresm::drvtest
