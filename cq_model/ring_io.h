// The reference producer/consumer of one queue pair: how a host programs the
// rings, submits descriptors and consumes completion entries with the phase
// protocol (docs/ring-formats.md). The driver uses it, and so can any
// testbench: it needs only a RingBus (register + device-memory access).
#pragma once

#include <cstdint>

#include "cq_model/rings.h"

namespace baresm::cq {

// Register and device-memory access, as a host sees them. Each call returns
// false when the access could not be made (transport failure).
class RingBus {
 public:
  virtual ~RingBus() = default;
  virtual bool reg_read(uint32_t offset, uint32_t* value) = 0;
  virtual bool reg_write(uint32_t offset, uint32_t value) = 0;
  virtual bool mem_read(uint32_t addr, void* dst, uint32_t len) = 0;
  virtual bool mem_write(uint32_t addr, const void* src, uint32_t len) = 0;
};

struct QueuePairLayout {
  uint32_t queue = 0;
  uint32_t sq_base = 0, sq_size = 0;  // entries, power of two
  uint32_t cq_base = 0, cq_size = 0;  // entries, power of two
};

class QueuePairHost {
 public:
  QueuePairHost() = default;
  void attach(RingBus* bus, const QueuePairLayout& layout) {
    bus_ = bus;
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
  bool write_descriptor(const LaunchDescriptor& d, uint32_t* index);
  // Writes raw bytes as a descriptor (tests: malformed descriptors).
  bool write_raw_descriptor(const uint8_t bytes[kDESC_BYTES], uint32_t* index);
  bool ring_doorbell();

  // ---- completion ----
  uint32_t cq_head() const { return cq_head_; }
  // 1: the entry at the host's head is valid and is in *e; 0: not yet; -1: bus error.
  int peek(CompletionEntry* e);
  void pop() {
    ++cq_head_;
    // Entry i completes descriptor i, so the device has fetched at least this far.
    if (int32_t(cq_head_ - sq_head_seen_) > 0) sq_head_seen_ = cq_head_;
  }
  // Tells the device the entries before the host's head may be overwritten.
  bool commit_head();

 private:
  RingBus* bus_ = nullptr;
  QueuePairLayout lay_;
  uint32_t sq_tail_ = 0, cq_head_ = 0;
  uint32_t sq_head_seen_ = 0;
};

}  // namespace baresm::cq
