// Uncorrectable memory errors, for fault injection: a set of poisoned lines
// of device memory. Every access that touches a poisoned line fails -- on the
// functional model (iss, cq_model) and on the memory model behind the RTL's
// memory port (sim::MemModel answers it with mem_rsp_err) -- the way a line
// with an uncorrectable ECC error or a bus error behind it would. A failed
// read returns no data and a failed write or atomic changes nothing.
#pragma once

#include <cstdint>
#include <set>

namespace baresm::iss {

class PoisonMap {
 public:
  // The error granule: one device-memory line (the RTL's MemLineBytes).
  static constexpr uint32_t kLineBytes = 128;
  // The first byte of the line holding addr (what a failed access reports).
  static constexpr uint32_t line_of(uint32_t addr) { return addr & ~(kLineBytes - 1); }

  // Poisons every line that [addr, addr+len) touches.
  void poison(uint32_t addr, uint32_t len) {
    if (len == 0) return;
    const uint64_t last = (uint64_t(addr) + len - 1) / kLineBytes;
    for (uint64_t l = addr / kLineBytes; l <= last; ++l) lines_.insert(uint32_t(l));
  }
  void clear() { lines_.clear(); }
  bool empty() const { return lines_.empty(); }
  size_t lines() const { return lines_.size(); }
  // True when [addr, addr+len) touches a poisoned line.
  bool hit(uint32_t addr, uint32_t len) const {
    if (lines_.empty() || len == 0) return false;
    const uint64_t first = addr / kLineBytes, last = (uint64_t(addr) + len - 1) / kLineBytes;
    auto it = lines_.lower_bound(uint32_t(first));
    return it != lines_.end() && *it <= last;
  }

 private:
  std::set<uint32_t> lines_;
};

}  // namespace baresm::iss
