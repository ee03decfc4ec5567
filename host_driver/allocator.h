// First-fit allocator over a device-memory range, with fixed-size state (a
// sorted table of allocated blocks; the gaps between them are free).
// Allocations are searched bottom-up, or top-down for long-lived driver
// blocks (rings, code) so that a context's data buffers stay contiguous and
// fit in few windows.
#pragma once

#include <cstdint>

namespace baresm::drv {

class Allocator {
 public:
  static constexpr int kMaxBlocks = 256;

  struct Block {
    uint32_t addr = 0;
    uint32_t size = 0;   // bytes reserved (the request rounded up to the alignment)
    uint32_t bytes = 0;  // bytes requested: what the owner may touch
    uint16_t owner = 0;  // the caller's tag (context id, driver)
    uint8_t kind = 0;    // the caller's tag (data, code, ...)
  };

  void init(uint32_t base, uint32_t size, uint32_t align = 256);
  // False when no gap fits or the table is full.
  bool alloc(uint32_t bytes, uint16_t owner, uint8_t kind, bool from_top, uint32_t* addr);
  bool free(uint32_t addr);
  // Changes the tags of the block at addr (false when there is none).
  bool retag(uint32_t addr, uint16_t owner, uint8_t kind);
  // The block whose requested range contains [addr, addr+len), or nullptr.
  const Block* find(uint32_t addr, uint32_t len) const;
  // The block whose reserved range (padding included) contains addr, or nullptr.
  const Block* at(uint32_t addr) const;

  int count() const { return n_; }
  const Block& block(int i) const { return blocks_[i]; }
  uint32_t free_bytes() const;
  uint32_t largest_free() const;
  uint32_t base() const { return base_; }
  uint32_t end() const { return end_; }

 private:
  Block blocks_[kMaxBlocks];
  int n_ = 0;
  uint32_t base_ = 0, end_ = 0, align_ = 256;
};

}  // namespace baresm::drv
