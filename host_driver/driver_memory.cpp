// The host driver (driver.h): device memory: allocation, frees deferred
// behind queued launches, copies and memset.
#include "host_driver/driver_impl.h"

namespace baresm::drv {

// ---- memory ----------------------------------------------------------------------------------
Status Device::mem_alloc(Context c, uint32_t bytes, DevPtr* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (!out || bytes == 0)
    return fail(Status::INVALID_VALUE, Layer::API, "zero-size allocation or null output");
  const uint16_t owner = uint16_t(ctxs_.index(C) + 1);
  uint32_t addr = 0;
  if (!alloc_waiting(owner, bytes, KIND_DATA, &addr))
    return fail(Status::OUT_OF_MEMORY, Layer::API,
                "%u bytes requested (%llu at %u-byte alignment); the limit is device memory: the largest free "
                "block is %u bytes, %u free in all, %d blocks allocated (%u bytes freed, waiting for queued "
                "launches)",
                bytes, (unsigned long long)(uint64_t(bytes) + alloc_.align() - 1) / alloc_.align() * alloc_.align(),
                alloc_.align(), alloc_.largest_free(), alloc_.free_bytes(), alloc_.count(),
                mem_pending_free_bytes());
  *out = addr;
  return succeed();
}

bool Device::alloc_waiting(uint16_t owner, uint32_t bytes, uint8_t kind, uint32_t* addr) {
  reclaim_frees();
  bool got = alloc_.alloc(bytes, owner, kind, false, addr);
  if (!got && mem_pending_free_bytes()) {
    // Memory freed while launches that may use it are queued comes back when
    // they complete: wait for that rather than fail (a caching allocator
    // synchronizes and retries the same way).
    wait_until(
        [&] {
          got = got || alloc_.alloc(bytes, owner, kind, false, addr);
          return got || mem_pending_free_bytes() == 0;
        },
        kWaitDefault, -1);
    if (!got) got = alloc_.alloc(bytes, owner, kind, false, addr);
  }
  return got;
}

Status Device::mem_free(Context c, DevPtr p) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  const Allocator::Block* b = alloc_.find(p, 1);
  if (!b || b->addr != p || b->owner != uint16_t(ctxs_.index(C) + 1) || b->kind != KIND_DATA)
    return fail(Status::INVALID_VALUE, Layer::API, "0x%08x is not an allocation of this context", p);
  free_after_queued(ctxs_.index(C), p, false);
  return succeed();
}

void Device::free_after_queued(int ci, DevPtr p, bool priv) {
  Allocator& A = priv ? priv_ : alloc_;
  // The launches of ci still queued (submitted, completion not consumed) may
  // use p: with the default windows they are granted every allocation of the
  // context, and explicit windows lie inside the context's own allocations.
  // The last of them on each queue is the fence: completions are consumed
  // in order per queue, so once the head passes it none of them can run.
  PendingFree pf;
  for (uint32_t q = 0; q < nq_; ++q) {
    const QueueState& Q = queues_[q];
    for (uint32_t i = Q.host.cq_head(); i != Q.host.sq_tail(); ++i)
      if (Q.inflight[cq::ring_slot(i, opt_.sq_entries)].ctx == ci) {
        pf.queues = uint8_t(pf.queues | (1u << q));
        pf.fence[q] = i + 1;
      }
  }
  const Allocator::Block* b = A.find(p, 1);
  if (!pf.queues || !b) {
    A.free(p);
    return;
  }
  pf.addr = p;
  pf.bytes = b->size;
  pf.priv = priv;
  // Out of every context's reach (no window, no copy, no second free) while it waits.
  A.retag(p, kOwnerDriver, KIND_FREEING);
  frees_.push_back(pf);
  if (!priv) pending_free_bytes_ += pf.bytes;
}

void Device::reclaim_frees() {
  size_t keep = 0;
  for (size_t i = 0; i < frees_.size(); ++i) {
    const PendingFree& pf = frees_[i];
    bool done = true;
    for (uint32_t q = 0; q < nq_ && done; ++q)
      if ((pf.queues >> q & 1) && int32_t(queues_[q].host.cq_head() - pf.fence[q]) < 0) done = false;
    if (!done) {
      frees_[keep++] = pf;
      continue;
    }
    (pf.priv ? priv_ : alloc_).free(pf.addr);
    if (!pf.priv) pending_free_bytes_ -= pf.bytes;
  }
  frees_.resize(keep);
}

void Device::release_all_frees() {
  for (const auto& pf : frees_) (pf.priv ? priv_ : alloc_).free(pf.addr);
  frees_.clear();
  pending_free_bytes_ = 0;
}

uint32_t Device::mem_pending_free_bytes() const {
  return uint32_t(pending_free_bytes_);
}

Status Device::mem_get_info(uint32_t* free_bytes, uint32_t* total_bytes) const {
  if (!transport_) return Status::NOT_INITIALIZED;
  if (free_bytes) *free_bytes = alloc_.free_bytes();
  if (total_bytes) *total_bytes = props_.mem_bytes;
  return Status::OK;
}

bool Device::range_owned(int ci, DevPtr p, uint32_t bytes) const {
  const Allocator::Block* b = alloc_.find(p, bytes ? bytes : 1);
  return b && b->owner == uint16_t(ci + 1) && b->kind == KIND_DATA;
}

Status Device::memcpy_htod(Context c, DevPtr dst, const void* src, uint32_t bytes) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (bytes == 0) return succeed();
  if (!src || !range_owned(ctxs_.index(C), dst, bytes))
    return fail(Status::INVALID_VALUE, Layer::API,
                "[0x%08x, +%u) is not inside an allocation of this context", dst, bytes);
  if (!ok(transport_->mem_write(dst, src, bytes)))
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "device-memory write failed");
  return succeed();
}

Status Device::memcpy_dtoh(Context c, void* dst, DevPtr src, uint32_t bytes) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (bytes == 0) return succeed();
  if (!dst || !range_owned(ctxs_.index(C), src, bytes))
    return fail(Status::INVALID_VALUE, Layer::API,
                "[0x%08x, +%u) is not inside an allocation of this context", src, bytes);
  if (!ok(transport_->mem_read(src, dst, bytes)))
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "device-memory read failed");
  return succeed();
}

Status Device::memset_d8(Context c, DevPtr dst, uint8_t value, uint32_t bytes) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (bytes && !range_owned(ctxs_.index(C), dst, bytes))
    return fail(Status::INVALID_VALUE, Layer::API,
                "[0x%08x, +%u) is not inside an allocation of this context", dst, bytes);
  uint8_t buf[512];
  std::memset(buf, value, sizeof buf);
  for (uint32_t off = 0; off < bytes; off += sizeof buf) {
    const uint32_t n = bytes - off < sizeof buf ? bytes - off : uint32_t(sizeof buf);
    if (!ok(transport_->mem_write(dst + off, buf, n)))
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "device-memory write failed");
  }
  return succeed();
}

}  // namespace baresm::drv
