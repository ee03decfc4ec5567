#include "host_driver/allocator.h"

namespace baresm::drv {

void Allocator::init(uint32_t base, uint32_t size, uint32_t align) {
  align_ = align ? align : 1;
  base_ = (base + align_ - 1) / align_ * align_;
  const uint64_t end = uint64_t(base) + size;
  end_ = uint32_t(end / align_ * align_);
  if (end_ < base_) end_ = base_;
  n_ = 0;
}

bool Allocator::alloc(uint32_t bytes, uint16_t owner, uint8_t kind, bool from_top, uint32_t* addr) {
  if (bytes == 0 || n_ >= kMaxBlocks) return false;
  const uint64_t need = (uint64_t(bytes) + align_ - 1) / align_ * align_;
  // Gap i lies between block i-1 and block i (gap 0 starts at base_, gap n_ ends at end_).
  auto gap_lo = [&](int i) -> uint64_t {
    return i == 0 ? base_ : uint64_t(blocks_[i - 1].addr) + blocks_[i - 1].size;
  };
  auto gap_hi = [&](int i) -> uint64_t { return i == n_ ? end_ : blocks_[i].addr; };
  int at = -1;
  uint64_t where = 0;
  if (!from_top) {
    for (int i = 0; i <= n_; ++i)
      if (gap_hi(i) - gap_lo(i) >= need) {
        at = i;
        where = gap_lo(i);
        break;
      }
  } else {
    for (int i = n_; i >= 0; --i)
      if (gap_hi(i) - gap_lo(i) >= need) {
        at = i;
        where = gap_hi(i) - need;
        break;
      }
  }
  if (at < 0) return false;
  for (int j = n_; j > at; --j) blocks_[j] = blocks_[j - 1];
  blocks_[at] = Block{uint32_t(where), uint32_t(need), bytes, owner, kind};
  ++n_;
  *addr = uint32_t(where);
  return true;
}

bool Allocator::free(uint32_t addr) {
  for (int i = 0; i < n_; ++i) {
    if (blocks_[i].addr != addr) continue;
    for (int j = i; j + 1 < n_; ++j) blocks_[j] = blocks_[j + 1];
    --n_;
    return true;
  }
  return false;
}

bool Allocator::retag(uint32_t addr, uint16_t owner, uint8_t kind) {
  for (int i = 0; i < n_; ++i) {
    if (blocks_[i].addr != addr) continue;
    blocks_[i].owner = owner;
    blocks_[i].kind = kind;
    return true;
  }
  return false;
}

const Allocator::Block* Allocator::find(uint32_t addr, uint32_t len) const {
  for (int i = 0; i < n_; ++i) {
    const Block& b = blocks_[i];
    if (addr >= b.addr && uint64_t(addr) + len <= uint64_t(b.addr) + b.bytes) return &b;
  }
  return nullptr;
}

const Allocator::Block* Allocator::at(uint32_t addr) const {
  for (int i = 0; i < n_; ++i) {
    const Block& b = blocks_[i];
    if (addr >= b.addr && uint64_t(addr) < uint64_t(b.addr) + b.size) return &b;
  }
  return nullptr;
}

uint32_t Allocator::free_bytes() const {
  uint64_t used = 0;
  for (int i = 0; i < n_; ++i) used += blocks_[i].size;
  return uint32_t(uint64_t(end_ - base_) - used);
}

uint32_t Allocator::largest_free() const {
  uint64_t best = 0;
  for (int i = 0; i <= n_; ++i) {
    const uint64_t lo = i == 0 ? base_ : uint64_t(blocks_[i - 1].addr) + blocks_[i - 1].size;
    const uint64_t hi = i == n_ ? end_ : blocks_[i].addr;
    if (hi - lo > best) best = hi - lo;
  }
  return uint32_t(best);
}

}  // namespace baresm::drv
