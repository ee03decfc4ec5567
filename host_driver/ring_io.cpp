#include "host_driver/ring_io.h"

#include <cstddef>
#include <cstring>

#include "contract/regs.h"

namespace baresm::drv {

using regs::QpReg;

bool QueuePairHost::program() {
  if (!transport_) return false;
  // Zero the completion ring first so that nothing reads as valid (phase 0).
  static const uint8_t zeros[256] = {};
  const uint32_t bytes = lay_.cq_size * cq::kCPL_BYTES;
  for (uint32_t off = 0; off < bytes; off += sizeof zeros) {
    uint32_t n = bytes - off < sizeof zeros ? bytes - off : uint32_t(sizeof zeros);
    if (!ok(transport_->mem_write(lay_.cq_base + off, zeros, n))) return false;
  }
  const uint32_t q = lay_.queue;
  const bool done = ok(transport_->mmio_write32(regs::qp(q, QpReg::SQ_BASE), lay_.sq_base)) &&
            ok(transport_->mmio_write32(regs::qp(q, QpReg::SQ_SIZE), lay_.sq_size)) &&
            ok(transport_->mmio_write32(regs::qp(q, QpReg::CQ_BASE), lay_.cq_base)) &&
            ok(transport_->mmio_write32(regs::qp(q, QpReg::CQ_SIZE), lay_.cq_size)) &&
            ok(transport_->mmio_write32(regs::qp(q, QpReg::CQ_HEAD), 0));
  sq_tail_ = cq_head_ = sq_head_seen_ = 0;
  return done;
}

bool QueuePairHost::sq_free(uint32_t* free_slots) {
  uint32_t head = 0;
  if (!ok(transport_->mmio_read32(regs::qp(lay_.queue, QpReg::SQ_HEAD), &head))) return false;
  sq_head_seen_ = head;
  *free_slots = lay_.sq_size - cq::ring_count(head, sq_tail_);
  return true;
}

bool QueuePairHost::write_raw_descriptor(const uint8_t bytes[cq::kDESC_BYTES], uint32_t* index) {
  // Use the cached head first; only read the register when the ring looks full.
  if (cq::ring_count(sq_head_seen_, sq_tail_) >= lay_.sq_size) {
    uint32_t free_slots = 0;
    if (!sq_free(&free_slots) || free_slots == 0) return false;
  }
  const uint32_t addr = lay_.sq_base + cq::ring_slot(sq_tail_, lay_.sq_size) * cq::kDESC_BYTES;
  if (!ok(transport_->mem_write(addr, bytes, cq::kDESC_BYTES))) return false;
  if (index) *index = sq_tail_;
  ++sq_tail_;
  return true;
}

bool QueuePairHost::write_descriptor(const cq::LaunchDescriptor& d, uint32_t* index) {
  uint8_t bytes[cq::kDESC_BYTES];
  cq::encode(d, bytes);
  return write_raw_descriptor(bytes, index);
}

bool QueuePairHost::ring_doorbell() {
  return ok(transport_->mmio_write32(regs::qp(lay_.queue, QpReg::DOORBELL), sq_tail_));
}

int QueuePairHost::peek(cq::CompletionEntry* e) {
  const uint32_t addr = lay_.cq_base + cq::ring_slot(cq_head_, lay_.cq_size) * cq::kCPL_BYTES;
  // The phase word is written last by the device, so read it first: once it
  // is current, the rest of the entry is too.
  uint32_t phase = 0;
  if (!ok(transport_->mem_read(addr + offsetof(cq::CompletionEntry, phase), &phase, 4))) return -1;
  if (bool(phase & 1u) != cq::expected_phase(cq_head_, lay_.cq_size)) return 0;
  uint8_t bytes[cq::kCPL_BYTES];
  if (!ok(transport_->mem_read(addr, bytes, offsetof(cq::CompletionEntry, phase)))) return -1;
  std::memcpy(bytes + offsetof(cq::CompletionEntry, phase), &phase, 4);
  *e = cq::decode_completion(bytes);
  return 1;
}

bool QueuePairHost::commit_head() {
  return ok(transport_->mmio_write32(regs::qp(lay_.queue, QpReg::CQ_HEAD), cq_head_));
}

}  // namespace baresm::drv
