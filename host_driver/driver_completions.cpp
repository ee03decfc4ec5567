// The host driver (driver.h): completions and recovery: delivering
// completion entries, waiting, hang detection, ring halts, reset and recovery.
#include "host_driver/driver_impl.h"

namespace baresm::drv {

// ---- completions -----------------------------------------------------------------------
void Device::deliver(uint32_t q, const Inflight& inf, LaunchReport& r) {
  r.token = inf.token;
  r.queue = q;
  r.marker = inf.marker;
  r.status = status_for_error(r.error);
  if (r.error != ErrorCode::OK && r.status == Status::OK) r.status = Status::LAUNCH_FAILED;
  if (r.cpl_status == CplStatus::FAILED && r.error != ErrorCode::OK && r.grid.x) {
    const uint64_t gx = inf.grid.x, gy = inf.grid.y;
    r.fault_cta_xyz = Dim3{uint32_t(r.fault_cta % gx), uint32_t((r.fault_cta / gx) % gy),
                           uint32_t(r.fault_cta / (gx * gy))};
  }
  const bool failed = r.cpl_status == CplStatus::FAILED;
  if (r.from_device)
    ++stats_.completed;
  else
    ++stats_.lost;

  r.ctx = Context{ctxs_.make_handle(inf.ctx, inf.ctx_gen)};
  if (ContextRec* C = ctxs_.at(inf.ctx, inf.ctx_gen)) {
    if (C->pending) --C->pending;
    if (failed && C->sticky == Status::OK) {
      C->sticky = r.status;
      C->has_failure = true;
      C->failure = r;
      C->failure.raw = nullptr;
    }
  }
  r.stream = Stream{streams_.make_handle(inf.stream, inf.stream_gen)};
  StreamRec* S = streams_.at(inf.stream, inf.stream_gen);
  if (S && S->pending) --S->pending;
  if (inf.event < kMaxEvents) {
    EventRec* E = events_.at(inf.event, inf.event_gen);
    if (E && E->token == inf.token) {
      E->state = EventRec::DONE;
      E->result = failed ? r.status : Status::OK;
      E->timestamp = r.end_cycle;
      E->epoch = epoch_;
    }
  }
  // The device stops on a failed launch (not on a rejected descriptor).
  if (failed && r.from_device && r.error != ErrorCode::BAD_DESCRIPTOR) dev_faulted_ = true;
  ResultRec& rr = results_[inf.token % kResultHistory];
  rr.token = inf.token;
  rr.report = r;
  rr.report.raw = nullptr;
  if (hook_) hook_(hook_user_, r);
}

Status Device::process_completions() {
  for (uint32_t q = 0; q < nq_; ++q) {
    QueueState& Q = queues_[q];
    uint32_t consumed = 0;
    Status bad = Status::OK;
    while (Q.host.cq_head() != Q.host.sq_tail()) {
      cq::CompletionEntry e;
      const int r = Q.host.peek(&e);
      if (r < 0)
        return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "reading completion ring %u failed", q);
      if (r == 0) break;
      const uint32_t idx = Q.host.cq_head();
      const Inflight inf = Q.inflight[cq::ring_slot(idx, opt_.sq_entries)];
      // An unreadable descriptor leaves the device no token to return.
      const bool unreadable = e.error_code() == ErrorCode::RING_ERROR && e.token == 0;
      if (e.seq != idx || (e.token != inf.token && !unreadable)) {
        bad = fail(Status::DEVICE_ERROR, Layer::DEVICE,
                   "queue %u entry %u carries seq %u token 0x%llx, expected token 0x%llx", q, idx, e.seq,
                   (unsigned long long)e.token, (unsigned long long)inf.token);
      }
      Q.host.pop();
      ++consumed;
      LaunchReport rep;
      rep.from_device = true;
      rep.cpl_status = e.cpl_status();
      rep.error = e.error_code();
      if (rep.cpl_status != CplStatus::COMPLETED && rep.cpl_status != CplStatus::FAILED) {
        rep.cpl_status = CplStatus::FAILED;
        if (rep.error == ErrorCode::OK) rep.error = ErrorCode::INTERNAL;
      }
      rep.fault_pc = e.fault_pc;
      rep.fault_addr = e.fault_addr;
      rep.fault_warp = e.fault_warp;
      rep.fault_lane = e.fault_lane;
      rep.fault_cta = e.fault_cta;
      rep.grid = inf.grid;
      rep.start_cycle = e.start_cycle;
      rep.end_cycle = e.end_cycle;
      rep.stats = launch_stats(e);
      rep.raw = &e;
      deliver(q, inf, rep);
    }
    if (consumed && !Q.host.commit_head())
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "writing CQ_HEAD of queue %u failed", q);
    if (!ok(bad)) return bad;
  }
  reclaim_frees();
  return Status::OK;
}

uint32_t Device::pending() const {
  uint32_t n = 0;
  for (uint32_t q = 0; q < nq_; ++q) n += queues_[q].host.sq_tail() - queues_[q].host.cq_head();
  return n;
}

Status Device::poll() {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  Status st = process_completions();
  return ok(st) ? succeed() : st;
}

Status Device::wait_step(uint64_t ns) {
  if (ns == 0) ns = 1;
  if (opt_.use_irq) {
    bool asserted = false;
    if (!ok(transport_->wait_irq(ns, &asserted)))
      return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "waiting for the interrupt failed");
    if (asserted) {
      ++stats_.irq_wakeups;
      uint32_t causes = 0;
      Status st = rd(regs::IRQ_STATUS, &causes);
      if (!ok(st) || !ok(st = wr(regs::IRQ_STATUS, causes))) return st;
      if (f::IRQ_STATUS_FAULT.get(causes)) fault_irq_ = true;
    }
    return Status::OK;
  }
  if (!ok(transport_->delay(ns < opt_.poll_interval_ns ? ns : opt_.poll_interval_ns)))
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "delay failed");
  // A device that stopped without writing an entry (check_ring_halt) says so
  // only in IRQ_STATUS.FAULT: polled too, one register read per step.
  uint32_t causes = 0;
  Status st = rd(regs::IRQ_STATUS, &causes);
  if (!ok(st)) return st;
  if (f::IRQ_STATUS_FAULT.get(causes)) {
    fault_irq_ = true;
    if (!ok(st = wr(regs::IRQ_STATUS, f::IRQ_STATUS_FAULT.put(1)))) return st;
  }
  return Status::OK;
}

// The device stops without a completion entry when it cannot write one
// (a memory error on the completion ring): FAULT_INFO says RING_ERROR, and
// FAULT_TOKEN names the launch, the oldest unreported one of its queue. That
// launch is reported from the registers; the caller then recovers the device.
Status Device::check_ring_halt() {
  fault_irq_ = false;
  if (dev_faulted_) return Status::OK;
  uint32_t status = 0, info = 0, addr = 0, tlo = 0, thi = 0;
  Status st = rd(regs::STATUS, &status);
  if (!ok(st) || !f::STATUS_FAULT.get(status)) return st;
  if (!ok(st = rd(regs::FAULT_INFO, &info))) return st;
  if (ErrorCode(f::FAULT_INFO_ERROR.get(info)) != ErrorCode::RING_ERROR) return Status::OK;  // its entry follows
  if (!ok(st = rd(regs::FAULT_ADDR, &addr)) || !ok(st = rd(regs::FAULT_TOKEN_LO, &tlo)) ||
      !ok(st = rd(regs::FAULT_TOKEN_HI, &thi)))
    return st;
  const uint32_t q = f::FAULT_INFO_QUEUE.get(info);
  const uint64_t token = uint64_t(thi) << 32 | tlo;
  if (q >= nq_ || queues_[q].host.cq_head() == queues_[q].host.sq_tail())
    return fail(Status::DEVICE_ERROR, Layer::DEVICE, "RING_ERROR on queue %u, which has no launch pending", q);
  QueueState& Q = queues_[q];
  const Inflight inf = Q.inflight[cq::ring_slot(Q.host.cq_head(), opt_.sq_entries)];
  if (inf.token != token && token != 0)
    return fail(Status::DEVICE_ERROR, Layer::DEVICE,
                "RING_ERROR names token 0x%llx; queue %u's oldest pending launch is 0x%llx",
                (unsigned long long)token, q, (unsigned long long)inf.token);
  Q.host.pop();  // never committed: the reset that follows restarts the ring
  LaunchReport rep;
  rep.from_device = true;
  rep.cpl_status = CplStatus::FAILED;
  rep.error = ErrorCode::RING_ERROR;
  rep.fault_addr = addr;
  rep.grid = inf.grid;
  deliver(q, inf, rep);
  return Status::OK;
}

Status Device::recover() {
  // Whatever the device finished before the reset keeps its real result.
  process_completions();
  Status st = soft_reset_device();
  if (!ok(st)) return st;
  ++epoch_;
  ++stats_.resets;
  for (uint32_t q = 0; q < nq_; ++q) {
    QueueState& Q = queues_[q];
    // Every descriptor submitted and not yet reported, in submission order.
    while (Q.host.cq_head() != Q.host.sq_tail()) {
      const Inflight inf = Q.inflight[cq::ring_slot(Q.host.cq_head(), opt_.sq_entries)];
      Q.host.pop();
      LaunchReport rep;
      rep.from_device = false;
      rep.cpl_status = CplStatus::FAILED;
      rep.error = ErrorCode::CONTEXT_LOST;
      rep.grid = inf.grid;
      deliver(q, inf, rep);
    }
  }
  // Nothing runs or stays queued after the reset: freed memory is free now
  // (and the ring indices the fences count in restart at 0).
  release_all_frees();
  dev_faulted_ = false;
  fault_irq_ = false;
  return program_device();
}

Status Device::reset() {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  Status st = recover();
  return ok(st) ? succeed() : st;
}

Status Device::check_progress(bool* progressing) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ++stats_.hang_checks;
  uint32_t p1 = 0, p2 = 0;
  Status st = rd(regs::PROGRESS, &p1);
  if (!ok(st)) return st;
  const uint64_t c1 = stats_.completed;
  const uint64_t t0 = transport_->now_ns();
  for (;;) {
    if (!ok(st = process_completions())) return st;
    const uint64_t el = transport_->now_ns() - t0;
    if (el >= opt_.hang_window_ns) break;
    if (!ok(st = wait_step(opt_.hang_window_ns - el))) return st;
  }
  if (!ok(st = rd(regs::PROGRESS, &p2))) return st;
  *progressing = p1 != p2 || stats_.completed != c1;
  return Status::OK;
}

Status Device::synchronize(uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  const uint64_t lost = stats_.lost;
  Status st = wait_until([&] { return pending() == 0; }, timeout_ns, -1);
  if (!ok(st)) return st;
  if (stats_.lost != lost)
    return fail(Status::CONTEXT_LOST, Layer::CONTEXT_LOST, "the device was reset during the wait");
  return succeed();
}

}  // namespace baresm::drv
