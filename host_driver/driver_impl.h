// Private to the host driver's sources (driver*.cpp): what more than one of
// them needs. Not part of the API (driver.h is).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "contract/regs.h"
#include "host_driver/driver.h"
#include "isa/file_io.h"
#include "isa/isa.h"
#include "isa/module.h"

namespace baresm::drv {

namespace f = regs::f;
using cq::CplStatus;
using cq::ErrorCode;

constexpr uint16_t kOwnerDriver = 0xFFFF;
// KIND_FREEING: freed, still reserved until the launches that may use it are done.
// KIND_LMEM: a context's local-memory buffer, granted by the driver to the launches that need it.
enum Kind : uint8_t { KIND_DATA = 0, KIND_CODE = 1, KIND_RING = 2, KIND_FREEING = 3, KIND_LMEM = 4 };

// Functions: bits 3:0 module index, bits 7:4 kernel, bits 31:8 module
// generation (never 0, so neither is the handle). The other handles are
// HandleTable's (handle_table.h).
static_assert(kMaxModules <= 16 && kMaxKernels <= 16, "function handles hold both in one byte");
inline uint32_t make_function(int module, uint32_t kernel, uint32_t gen) {
  return uint32_t(module) | (kernel << 4) | (gen << 8);
}

inline uint32_t align_up(uint32_t v, uint32_t a) {
  return a ? (v + a - 1) / a * a : v;
}


// Waits (polling or on interrupts) until done() holds; used by every
// synchronizing call (completions, contexts, streams, events).
template <class Done>
Status Device::wait_until(Done done, uint64_t timeout_ns, int ctx_index) {
  if (timeout_ns == kWaitDefault) timeout_ns = opt_.sync_timeout_ns;
  const uint64_t t0 = transport_->now_ns();
  Status st;
  for (;;) {
    if (!ok(st = process_completions())) return st;
    if (fault_irq_ && !ok(st = check_ring_halt())) return st;
    if (done()) return Status::OK;
    if (ctx_index >= 0 && ctxs_[ctx_index].sticky != Status::OK) {
      const Status s = ctxs_[ctx_index].sticky;
      return fail(s, status_layer(s), "context error is sticky: %s", status_message(s));
    }
    // A zero timeout is a query: checked once, never hang detection or a reset.
    if (timeout_ns == 0)
      return fail(Status::NOT_READY, Layer::NONE,
                  "still pending (a zero timeout checks once, without waiting)");
    if (dev_faulted_) {
      // The device stopped on another context's failed launch: what we wait
      // for can only finish after a reset.
      if (!ok(st = recover())) return st;
      continue;
    }
    const uint64_t el = transport_->now_ns() - t0;
    if (el >= timeout_ns) {
      // Without interrupts a device stopped by a ring error shows only here.
      if (!ok(st = check_ring_halt())) return st;
      if (dev_faulted_) continue;
      break;
    }
    if (!ok(st = wait_step(timeout_ns - el))) return st;
  }
  // Timed out. A slow device is not a hung one: look at PROGRESS.
  bool progressing = false;
  if (!ok(st = check_progress(&progressing))) return st;
  if (done()) return Status::OK;
  if (progressing)
    return fail(Status::TIMEOUT, Layer::TIMEOUT,
                "no completion within %llu ns; the device is still progressing",
                (unsigned long long)timeout_ns);
  const uint32_t lost_before = uint32_t(stats_.lost);
  if (!ok(st = recover())) return st;
  return fail(
      Status::CONTEXT_LOST, Layer::CONTEXT_LOST,
      "no progress for %llu ns after a %llu ns timeout: device reset, %u pending launches reported lost",
      (unsigned long long)opt_.hang_window_ns, (unsigned long long)timeout_ns,
      uint32_t(stats_.lost) - lost_before);
}

}  // namespace baresm::drv
