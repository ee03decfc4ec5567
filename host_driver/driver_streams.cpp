// The host driver (driver.h): contexts, streams and events: the
// handles work is ordered and waited on by.
#include "host_driver/driver_impl.h"

namespace baresm::drv {

// ---- contexts ----------------------------------------------------------------------------
Status Device::ctx_create(Context* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  const int ci = ctxs_.free_slot(), si = streams_.free_slot();
  if (ci < 0 || si < 0)
    return fail(Status::OUT_OF_RESOURCES, Layer::API, "%s table full", ci < 0 ? "context" : "stream");
  const uint32_t handle = ctxs_.create(ci);
  ctxs_[ci].default_stream = uint8_t(si);
  streams_.create(si);
  StreamRec& S = streams_[si];
  S.ctx = uint8_t(ci);
  S.queue = uint8_t(next_queue_++ % nq_);
  *out = Context{handle};
  return succeed();
}

Status Device::ctx_destroy(Context c) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  const int ci = ctxs_.index(C);
  // Let its work finish; if it cannot (the context failed, or the device is
  // stopped), reset so that nothing of it stays queued on the device.
  if (C->pending && C->sticky == Status::OK) wait_until([&] { return C->pending == 0; }, kWaitDefault, ci);
  if (C->pending || (dev_faulted_ && C->sticky != Status::OK)) {
    Status st = recover();
    if (!ok(st)) return st;
  }
  // Nothing of the context is queued any more: what it freed is released too.
  reclaim_frees();
  for (Allocator* A : {&alloc_, &priv_}) {
    std::vector<uint32_t> mine;
    for (const auto& [addr, b] : A->blocks())
      if (b.owner == uint16_t(ci + 1)) mine.push_back(addr);
    for (uint32_t addr : mine) A->free(addr);
  }
  for (auto& m : modules_)
    if (m.used && m.ctx == ci) m.used = false;
  for (auto& s : streams_)
    if (s.used && s.ctx == ci) s.used = false;
  for (auto& e : events_)
    if (e.used && e.ctx == ci) e.used = false;
  C->used = false;
  return succeed();
}

Status Device::ctx_get_error(Context c) const {
  const ContextRec* C = ctx_rec(c);
  if (!C) return Status::INVALID_HANDLE;
  return C->sticky;
}

Status Device::ctx_last_failure(Context c, LaunchReport* out) const {
  const ContextRec* C = ctx_rec(c);
  if (!C) return Status::INVALID_HANDLE;
  if (!out) return Status::INVALID_VALUE;
  if (!C->has_failure) return Status::NOT_READY;
  *out = C->failure;
  return Status::OK;
}

Status Device::ctx_synchronize(Context c, uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  Status st = wait_until([&] { return C->pending == 0; }, timeout_ns, ctxs_.index(C));
  if (!ok(st)) return st;
  if (C->sticky != Status::OK)
    return fail(C->sticky, status_layer(C->sticky), "context error is sticky: %s", status_message(C->sticky));
  return succeed();
}

Status Device::ctx_default_stream(Context c, Stream* out) const {
  const ContextRec* C = ctx_rec(c);
  if (!C) return Status::INVALID_HANDLE;
  if (!out) return Status::INVALID_VALUE;
  *out = Stream{streams_.handle(C->default_stream)};
  return Status::OK;
}

// ---- streams ----------------------------------------------------------------------------------
Status Device::stream_create(Context c, Stream* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  const int i = streams_.free_slot();
  if (i < 0) return fail(Status::OUT_OF_RESOURCES, Layer::API, "stream table full");
  const uint32_t handle = streams_.create(i);
  StreamRec& S = streams_[i];
  S.ctx = uint8_t(ctxs_.index(C));
  // Streams spread over the queue pairs so independent streams do not contend.
  S.queue = uint8_t(next_queue_++ % nq_);
  *out = Stream{handle};
  return succeed();
}

Status Device::stream_destroy(Stream s) {
  StreamRec* S = stream_rec(s);
  if (!S) return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream");
  if (streams_.index(S) == ctxs_[S->ctx].default_stream)
    return fail(Status::INVALID_HANDLE, Layer::API, "the default stream cannot be destroyed");
  // Work already queued still completes; its reports just no longer count for a stream.
  S->used = false;
  return succeed();
}

Status Device::stream_query(Stream s) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  StreamRec* S = stream_rec(s);
  if (!S) return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream");
  Status st = process_completions();
  if (!ok(st)) return st;
  if (ctxs_[S->ctx].sticky != Status::OK) return ctxs_[S->ctx].sticky;
  return S->pending ? Status::NOT_READY : Status::OK;
}

Status Device::stream_synchronize(Stream s, uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  StreamRec* S = stream_rec(s);
  if (!S) return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream");
  const int ci = S->ctx;
  Status st = wait_until([&] { return S->pending == 0; }, timeout_ns, ci);
  if (!ok(st)) return st;
  if (ctxs_[ci].sticky != Status::OK)
    return fail(ctxs_[ci].sticky, status_layer(ctxs_[ci].sticky), "context error is sticky: %s",
                status_message(ctxs_[ci].sticky));
  return succeed();
}

Status Device::stream_queue(Stream s, uint32_t* queue) const {
  const StreamRec* S = stream_rec(s);
  if (!S) return Status::INVALID_HANDLE;
  if (!queue) return Status::INVALID_VALUE;
  *queue = S->queue;
  return Status::OK;
}

// ---- events -----------------------------------------------------------------------------------
Status Device::event_create(Context c, Event* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (!out) return fail(Status::INVALID_VALUE, Layer::API, "null output");
  const int i = events_.free_slot();
  if (i < 0) return fail(Status::OUT_OF_RESOURCES, Layer::API, "event table full");
  const uint32_t handle = events_.create(i);
  events_[i].ctx = uint8_t(ctxs_.index(C));
  *out = Event{handle};
  return succeed();
}

Status Device::event_destroy(Event e) {
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  E->used = false;
  return succeed();
}

Status Device::event_record(Event e, Stream s) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  const int ci = E->ctx;
  int si = ctxs_[ci].default_stream;
  if (s.id) {
    const StreamRec* S = stream_rec(s);
    if (!S || S->ctx != ci)
      return fail(Status::INVALID_HANDLE, Layer::API, "invalid stream for the event's context");
    si = streams_.index(S);
  }
  ContextRec& C = ctxs_[ci];
  if (C.sticky != Status::OK)
    return fail(C.sticky, status_layer(C.sticky), "context error is sticky: %s", status_message(C.sticky));
  Status st;
  if (dev_faulted_) {
    if (!ok(st = recover())) return st;
    if (C.sticky != Status::OK)
      return fail(C.sticky, status_layer(C.sticky), "context error is sticky: %s", status_message(C.sticky));
  }
  // A marker descriptor: it completes when the queue reaches it, carrying the time.
  cq::LaunchDescriptor d;
  d.flags = cq::kDESC_FLAG_MARKER;
  Inflight inf;
  inf.ctx = uint8_t(ci);
  inf.ctx_gen = C.gen;
  inf.stream = uint8_t(si);
  inf.stream_gen = streams_[si].gen;
  inf.event = uint8_t(events_.index(E));
  inf.event_gen = E->gen;
  inf.marker = true;
  inf.grid = Dim3{0, 0, 0};
  uint64_t token = 0;
  // Claim the event before submitting: the marker's completion may be
  // consumed while submit() waits for a free slot.
  E->state = EventRec::PENDING;
  E->token = next_token_;  // submit() gives the marker exactly this token
  st = submit(streams_[si].queue, d, inf, nullptr, 0, nullptr, 0, &token);
  if (!ok(st)) {
    E->state = EventRec::NONE;
    return st;
  }
  E->token = token;
  return succeed();
}

Status Device::event_query(Event e) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  Status st = process_completions();
  if (!ok(st)) return st;
  if (E->state == EventRec::NONE) return Status::OK;  // never recorded: complete, as in CUDA
  if (E->state == EventRec::PENDING) return Status::NOT_READY;
  return E->result;
}

Status Device::event_synchronize(Event e, uint64_t timeout_ns) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  EventRec* E = event_rec(e);
  if (!E) return fail(Status::INVALID_HANDLE, Layer::API, "invalid event");
  Status st = wait_until([&] { return E->state != EventRec::PENDING; }, timeout_ns, E->ctx);
  if (!ok(st)) return st;
  if (E->state == EventRec::DONE && E->result != Status::OK)
    return fail(E->result, status_layer(E->result), "the event's marker failed: %s",
                status_message(E->result));
  return succeed();
}

Status Device::event_timestamp(Event e, uint64_t* cycle) const {
  const EventRec* E = event_rec(e);
  if (!E) return Status::INVALID_HANDLE;
  if (!cycle) return Status::INVALID_VALUE;
  if (E->state != EventRec::DONE) return Status::NOT_READY;
  if (E->result != Status::OK) return E->result;
  *cycle = E->timestamp;
  return Status::OK;
}

Status Device::event_elapsed_ms(Event start, Event end, float* ms) const {
  const EventRec* A = event_rec(start);
  const EventRec* B = event_rec(end);
  if (!A || !B) return Status::INVALID_HANDLE;
  if (!ms) return Status::INVALID_VALUE;
  if (A->state != EventRec::DONE || B->state != EventRec::DONE) return Status::NOT_READY;
  if (A->result != Status::OK) return A->result;
  if (B->result != Status::OK) return B->result;
  if (A->epoch != B->epoch) return Status::INVALID_VALUE;  // a reset restarted the clock in between
  const double cycles = double(int64_t(B->timestamp - A->timestamp));
  *ms = float(cycles / double(props_.clock_khz));
  return Status::OK;
}

}  // namespace baresm::drv
