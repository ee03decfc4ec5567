// First-fit allocator over a device-memory range. Allocations are searched
// bottom-up (the lowest gap that fits), or top-down for long-lived driver
// blocks (rings, code: the highest gap that fits, placed at its top) so
// that a context's data buffers stay contiguous and fit in few windows.
//
// Its tables grow with the range, not to a fixed count: every block holds
// at least one alignment unit, so a range of N units holds at most N blocks
// (a 4 MiB device at 256 bytes: 16384), and the only limit an allocation can
// meet is the memory itself. The allocated blocks are kept by address (a
// std::map), the free space as a bitmap of units under a tree of run
// lengths (longest free run, free prefix and suffix per node), so a fit is
// found, taken and given back in O(log N) plus the units it covers
// (bench/alloc_bench.cpp measures it as the block count grows).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace baresm::drv {

class Allocator {
 public:
  struct Block {
    uint32_t addr = 0;
    uint32_t size = 0;   // bytes reserved (the request rounded up to the alignment)
    uint32_t bytes = 0;  // bytes requested: what the owner may touch
    uint16_t owner = 0;  // the caller's tag (context id, driver)
    uint8_t kind = 0;    // the caller's tag (data, code, ...)
  };
  using Blocks = std::map<uint32_t, Block>;  // by address

  void init(uint32_t base, uint32_t size, uint32_t align = 256);
  // False when no gap fits (the range has no free run of the rounded size).
  bool alloc(uint32_t bytes, uint16_t owner, uint8_t kind, bool from_top, uint32_t* addr);
  bool free(uint32_t addr);
  // Changes the tags of the block at addr (false when there is none).
  bool retag(uint32_t addr, uint16_t owner, uint8_t kind);
  // The block whose requested range contains [addr, addr+len), or nullptr.
  const Block* find(uint32_t addr, uint32_t len) const;
  // The block whose reserved range (padding included) contains addr, or nullptr.
  const Block* at(uint32_t addr) const;

  int count() const { return int(blocks_.size()); }
  const Blocks& blocks() const { return blocks_; }  // in address order
  uint32_t free_bytes() const { return free_units_ * align_; }
  uint32_t largest_free() const;
  uint32_t base() const { return base_; }
  uint32_t end() const { return end_; }
  uint32_t align() const { return align_; }
  // The most blocks the range can hold (one alignment unit each).
  uint32_t max_blocks() const { return units_; }

 private:
  // The free-unit tree: leaves are 64-unit words of the bitmap (bit set =
  // free), nodes hold the runs of free units in their span.
  struct Node {
    uint32_t pre = 0, suf = 0, best = 0;
  };
  static constexpr uint32_t kLeafUnits = 64;
  void set_range(uint32_t unit, uint32_t n, bool free);
  void pull_leaf(uint32_t leaf);
  void pull(uint32_t node, uint32_t span);
  // The first (lowest) / last (highest) unit where n free units start, or ~0u.
  uint32_t find_first(uint32_t n) const;
  uint32_t find_last(uint32_t n) const;

  Blocks blocks_;
  std::vector<uint64_t> bits_;  // one word per leaf
  std::vector<Node> tree_;      // heap order, 1 = root; leaves at [leaves_, 2 * leaves_)
  uint32_t leaves_ = 0;
  uint32_t units_ = 0, free_units_ = 0;
  uint32_t base_ = 0, end_ = 0, align_ = 256;
};

}  // namespace baresm::drv
