// The reference producer/consumer of one queue pair: how a host programs the
// rings, submits descriptors and consumes completion entries with the phase
// protocol (docs/ring-formats.md). The driver uses it, and so can any
// testbench: it reaches the device through a Transport (transport.h), the one
// interface of register and device-memory access.
#pragma once

#include <cstdint>

#include "contract/rings.h"
#include "host_driver/transport.h"

namespace baresm::drv {

struct QueuePairLayout {
  uint32_t queue = 0;
  uint32_t sq_base = 0, sq_size = 0;  // entries, power of two
  uint32_t cq_base = 0, cq_size = 0;  // entries, power of two
};

class QueuePairHost {
 public:
  QueuePairHost() = default;
  void attach(Transport* transport, const QueuePairLayout& layout) {
    transport_ = transport;
    lay_ = layout;
    sq_tail_ = cq_head_ = 0;
    sq_head_seen_ = 0;
  }
  const QueuePairLayout& layout() const { return lay_; }

  // Zeroes the completion ring and programs the queue registers; the host's
  // indices restart at 0 (as the device's do after reset).
  bool program();

  // ---- submission ----
  uint32_t sq_tail() const { return sq_tail_; }
  // Free submission slots (reads SQ_HEAD).
  bool sq_free(uint32_t* free_slots);
  // Writes d into the slot at the tail and advances the local tail; the
  // device sees it only after ring_doorbell(). Fails when the ring is full.
  bool write_descriptor(const cq::LaunchDescriptor& d, uint32_t* index);
  // Writes raw bytes as a descriptor (tests: malformed descriptors).
  bool write_raw_descriptor(const uint8_t bytes[cq::kDESC_BYTES], uint32_t* index);
  bool ring_doorbell();

  // ---- completion ----
  uint32_t cq_head() const { return cq_head_; }
  // 1: the entry at the host's head is valid and is in *e; 0: not yet; -1: bus error.
  int peek(cq::CompletionEntry* e);
  void pop() {
    ++cq_head_;
    // Entry i completes descriptor i, so the device has fetched at least this far.
    if (int32_t(cq_head_ - sq_head_seen_) > 0) sq_head_seen_ = cq_head_;
  }
  // Tells the device the entries before the host's head may be overwritten.
  bool commit_head();

 private:
  Transport* transport_ = nullptr;
  QueuePairLayout lay_;
  uint32_t sq_tail_ = 0, cq_head_ = 0;
  uint32_t sq_head_seen_ = 0;
};

}  // namespace baresm::drv
