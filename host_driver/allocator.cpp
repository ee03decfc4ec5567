#include "host_driver/allocator.h"

#include <algorithm>

namespace baresm::drv {

namespace {
uint32_t ones_low(uint64_t w) {  // free units from the bottom of a leaf
  return ~w ? uint32_t(__builtin_ctzll(~w)) : 64;
}
uint32_t ones_high(uint64_t w) {  // free units from the top of a leaf
  return ~w ? uint32_t(__builtin_clzll(~w)) : 64;
}
uint32_t longest_ones(uint64_t w) {
  uint32_t n = 0;
  for (; w; ++n) w &= w << 1;
  return n;
}
// Bit p set: units p .. p+n-1 of the leaf are all free (1 <= n <= 64).
uint64_t run_starts(uint64_t w, uint32_t n) {
  uint64_t y = w;
  for (uint32_t i = 1; i < n && y; ++i) y &= w >> i;
  return y;
}
}  // namespace

void Allocator::init(uint32_t base, uint32_t size, uint32_t align) {
  align_ = align ? align : 1;
  base_ = uint32_t((uint64_t(base) + align_ - 1) / align_ * align_);
  const uint64_t end = uint64_t(base) + size;
  end_ = uint32_t(end / align_ * align_);
  if (end_ < base_) end_ = base_;
  blocks_.clear();
  units_ = (end_ - base_) / align_;
  free_units_ = units_;
  leaves_ = 1;
  while (uint64_t(leaves_) * kLeafUnits < units_) leaves_ *= 2;
  bits_.assign(leaves_, 0);
  for (uint32_t l = 0; l < leaves_; ++l) {
    const uint64_t first = uint64_t(l) * kLeafUnits;
    if (first >= units_) break;
    const uint64_t n = std::min<uint64_t>(kLeafUnits, units_ - first);
    bits_[l] = n == 64 ? ~0ull : (1ull << n) - 1;
  }
  tree_.assign(2 * size_t(leaves_), Node{});
  for (uint32_t l = 0; l < leaves_; ++l) pull_leaf(l);
  uint32_t span = kLeafUnits;
  for (uint32_t lo = leaves_ / 2; lo >= 1; lo /= 2) {
    span *= 2;
    for (uint32_t i = lo; i < 2 * lo; ++i) pull(i, span);
  }
}

void Allocator::pull_leaf(uint32_t leaf) {
  const uint64_t w = bits_[leaf];
  Node& n = tree_[leaves_ + leaf];
  n.pre = ones_low(w);
  n.suf = ones_high(w);
  n.best = longest_ones(w);
}

void Allocator::pull(uint32_t i, uint32_t span) {
  const Node& L = tree_[2 * i];
  const Node& R = tree_[2 * i + 1];
  const uint32_t half = span / 2;
  Node& n = tree_[i];
  n.pre = L.pre == half ? half + R.pre : L.pre;
  n.suf = R.suf == half ? half + L.suf : R.suf;
  n.best = std::max({L.best, R.best, L.suf + R.pre});
}

void Allocator::set_range(uint32_t unit, uint32_t n, bool free) {
  const uint32_t first = unit / kLeafUnits, last = (unit + n - 1) / kLeafUnits;
  for (uint32_t l = first; l <= last; ++l) {
    const uint64_t lo = std::max<uint64_t>(unit, uint64_t(l) * kLeafUnits) - uint64_t(l) * kLeafUnits;
    const uint64_t hi = std::min<uint64_t>(uint64_t(unit) + n, uint64_t(l + 1) * kLeafUnits) - uint64_t(l) * kLeafUnits;
    const uint64_t mask = (hi - lo == 64 ? ~0ull : ((1ull << (hi - lo)) - 1)) << lo;
    bits_[l] = free ? bits_[l] | mask : bits_[l] & ~mask;
    pull_leaf(l);
  }
  uint32_t lo = first + leaves_, hi = last + leaves_, span = kLeafUnits;
  while (lo > 1) {
    lo /= 2;
    hi /= 2;
    span *= 2;
    for (uint32_t i = lo; i <= hi; ++i) pull(i, span);
  }
  free_units_ = free ? free_units_ + n : free_units_ - n;
}

uint32_t Allocator::find_first(uint32_t n) const {
  if (tree_.empty() || tree_[1].best < n) return ~0u;
  uint32_t i = 1, offset = 0, span = leaves_ * kLeafUnits;
  while (i < leaves_) {
    const uint32_t half = span / 2;
    const Node& L = tree_[2 * i];
    const Node& R = tree_[2 * i + 1];
    if (L.best >= n) {
      i = 2 * i;
    } else if (L.suf + R.pre >= n) {
      return offset + half - L.suf;
    } else {
      i = 2 * i + 1;
      offset += half;
    }
    span = half;
  }
  return offset + uint32_t(__builtin_ctzll(run_starts(bits_[i - leaves_], n)));
}

uint32_t Allocator::find_last(uint32_t n) const {
  if (tree_.empty() || tree_[1].best < n) return ~0u;
  uint32_t i = 1, offset = 0, span = leaves_ * kLeafUnits;
  while (i < leaves_) {
    const uint32_t half = span / 2;
    const Node& L = tree_[2 * i];
    const Node& R = tree_[2 * i + 1];
    if (R.best >= n) {
      i = 2 * i + 1;
      offset += half;
    } else if (L.suf + R.pre >= n) {
      return offset + half + R.pre - n;
    } else {
      i = 2 * i;
    }
    span = half;
  }
  return offset + 63 - uint32_t(__builtin_clzll(run_starts(bits_[i - leaves_], n)));
}

bool Allocator::alloc(uint32_t bytes, uint16_t owner, uint8_t kind, bool from_top, uint32_t* addr) {
  if (bytes == 0) return false;
  const uint64_t need = (uint64_t(bytes) + align_ - 1) / align_;
  if (need > free_units_) return false;
  const uint32_t unit = from_top ? find_last(uint32_t(need)) : find_first(uint32_t(need));
  if (unit == ~0u) return false;
  set_range(unit, uint32_t(need), false);
  const uint32_t where = base_ + unit * align_;
  blocks_[where] = Block{where, uint32_t(need) * align_, bytes, owner, kind};
  *addr = where;
  return true;
}

bool Allocator::free(uint32_t addr) {
  const auto it = blocks_.find(addr);
  if (it == blocks_.end()) return false;
  set_range((addr - base_) / align_, it->second.size / align_, true);
  blocks_.erase(it);
  return true;
}

bool Allocator::retag(uint32_t addr, uint16_t owner, uint8_t kind) {
  const auto it = blocks_.find(addr);
  if (it == blocks_.end()) return false;
  it->second.owner = owner;
  it->second.kind = kind;
  return true;
}

const Allocator::Block* Allocator::find(uint32_t addr, uint32_t len) const {
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return nullptr;
  const Block& b = (--it)->second;
  return uint64_t(addr) + len <= uint64_t(b.addr) + b.bytes ? &b : nullptr;
}

const Allocator::Block* Allocator::at(uint32_t addr) const {
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return nullptr;
  const Block& b = (--it)->second;
  return uint64_t(addr) < uint64_t(b.addr) + b.size ? &b : nullptr;
}

uint32_t Allocator::largest_free() const {
  return tree_.empty() ? 0 : tree_[1].best * align_;
}

}  // namespace baresm::drv
