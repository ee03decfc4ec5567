#include "sim/timeline/timeline.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "sim/harness/state_names.h"

namespace baresm::timeline {

namespace {

constexpr uint8_t kIdle = sim::WS_IDLE, kWaitBar = sim::WS_WAIT_BAR;  // contract/states.def
constexpr uint32_t kCpIdle = sim::CP_IDLE, kCpFetch = sim::CP_FETCH;

std::string dim_json(const std::array<uint32_t, 3>& d) {
  return "[" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + "]";
}

std::string list_json(const std::vector<uint32_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// Names and args here are the builder's own: plain ASCII without quotes or
// backslashes, so they need no escaping.
void write_event(std::ostream& o, const Event& e) {
  o << "{\"ph\":\"" << e.ph << "\",\"name\":\"" << e.name << "\"";
  if (!e.cat.empty()) o << ",\"cat\":\"" << e.cat << "\"";
  o << ",\"ts\":" << e.ts;
  if (e.ph == 'X') o << ",\"dur\":" << e.dur;
  if (e.ph == 'i') o << ",\"s\":\"t\"";
  o << ",\"pid\":" << e.pid << ",\"tid\":" << e.tid;
  if (!e.args.empty()) o << ",\"args\":{" << e.args << "}";
  o << "}";
}

}  // namespace

std::string cta_name(const std::array<uint32_t, 3>& c) {
  return "CTA (" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

TimelineBuilder::TimelineBuilder(uint32_t warp_slots, uint32_t queues, uint32_t clock_khz)
    : slots_(warp_slots), queues_(queues), clock_khz_(clock_khz), runs_(warp_slots), occ_(warp_slots) {}

void TimelineBuilder::mem_change(uint64_t cycle, int sm_delta, int cp_delta) {
  if (!sm_delta && !cp_delta) return;
  mem_sm_ += sm_delta;
  mem_cp_ += cp_delta;
  // A change seen during cycle c holds from cycle c+1 on (the handshake
  // completes at the edge that ends c).
  events_.push_back(Event{'C', kMemCounter, "mem", cycle + 1, 0, kPidSm, 0,
                          "\"sm\":" + std::to_string(mem_sm_) + ",\"cp\":" + std::to_string(mem_cp_)});
}

void TimelineBuilder::close_occupancy(uint32_t slot, uint64_t cycle) {
  Occupancy& o = occ_[slot];
  if (!o.open) return;
  o.end = cycle;
  o.slot = slot;
  std::string args = "\"wic\":" + std::to_string(o.wic);
  events_.push_back(Event{'X', o.known ? cta_name(o.cta) : "CTA (unknown)", "cta", o.start, cycle - o.start,
                          kPidSm, int(slot), o.known ? args : ""});
  done_.push_back(o);
  o = Occupancy{};
}

void TimelineBuilder::close_sm_launch(uint64_t cycle, const CycleSample* s, bool aborted) {
  for (uint32_t w = 0; w < slots_; ++w) {
    const Run& r = runs_[w];
    events_.push_back(Event{'X', sim::kWarpStateNames[r.state % sim::kNumWarpStates], "state", r.start,
                            cycle - r.start, kPidSm, int(w), ""});
    close_occupancy(w, cycle);
  }
  // CTA placement (its first warp placed) and retirement (its last warp
  // gone), from the slots' residencies.
  struct Cta {
    uint64_t first = ~0ull, last = 0;
    std::vector<uint32_t> slots;
  };
  std::map<std::array<uint32_t, 3>, Cta> ctas;
  for (const Occupancy& o : done_) {
    if (!o.known) continue;
    Cta& c = ctas[o.cta];
    c.first = std::min(c.first, o.start);
    c.last = std::max(c.last, o.end);
    c.slots.push_back(o.slot);
  }
  for (const auto& [id, c] : ctas) {
    const std::string args = "\"cta\":" + dim_json(id) + ",\"slots\":" + list_json(c.slots);
    events_.push_back(Event{'i', "place " + cta_name(id), "cta", c.first, 0, kPidSm, kTidSm, args});
    events_.push_back(Event{'i', "retire " + cta_name(id), "cta", c.last, 0, kPidSm, kTidSm, args});
  }
  std::string args = "\"queue\":" + std::to_string(queue_) + ",\"grid\":" + dim_json(grid_) +
                     ",\"block\":" + dim_json(block_) + ",\"aborted\":" + (aborted ? "true" : "false") +
                     ",\"ctas_placed\":" + std::to_string(ctas.size());
  if (!aborted && s) {
    // The SM's own counters of the launch, which the checker compares with
    // the tracks (a reset clears them, so an aborted launch has none).
    args += ",\"fault_kind\":" + std::to_string(s->fault_kind) +
            ",\"ctas_retired\":" + std::to_string(s->ctas_retired) +
            ",\"barrier_releases\":" + std::to_string(s->barrier_releases) + ",\"state_cycles\":{";
    for (int k = 0; k < sim::kNumWarpStates; ++k)
      args += std::string(k ? "," : "") + "\"" + sim::kWarpStateNames[k] +
              "\":" + std::to_string(s->state_cycles[size_t(k)]);
    args += "}";
  }
  events_.push_back(Event{'X', "launch", "sm", sm_start_, cycle - sm_start_, kPidSm, kTidSm, args});
  done_.clear();
  sm_open_ = false;
  ++sm_launches_;
}

void TimelineBuilder::close_cp(uint64_t cycle) {
  if (!cp_open_) return;
  events_.push_back(Event{'X', sim::kCpStateNames[cp_state_ % sim::kNumCpStates], "cp", cp_state_start_,
                          cycle - cp_state_start_, kPidCp, int(cp_queue_), ""});
  if (cp_launch_start_ != ~0ull)
    events_.push_back(
        Event{'X', "launch", "cp", cp_launch_start_, cycle - cp_launch_start_, kPidCp, int(cp_queue_), ""});
  cp_open_ = false;
}

void TimelineBuilder::sample(const CycleSample& s) {
  const uint64_t t = s.cycle;
  // ---- memory port ----
  if (s.device_reset) {
    // The memory model drops every request in flight on the reset pin.
    mem_change(t, int(-mem_sm_), int(-mem_cp_));
  } else {
    int dsm = 0, dcp = 0;
    if (s.mem_req) (s.mem_req_cp ? dcp : dsm) += 1;
    if (s.mem_rsp) (s.mem_rsp_cp ? dcp : dsm) -= 1;
    mem_change(t, dsm, dcp);
  }
  // ---- command processor: its engine's states per queue; a launch is
  // everything from the descriptor fetch back to idle ----
  if (s.doorbell_queue >= 0)
    events_.push_back(Event{'i', "doorbell", "cp", t, 0, kPidCp, s.doorbell_queue,
                            "\"tail\":" + std::to_string(s.doorbell_value)});
  const bool cp_active = s.cp_state != kCpIdle;
  if (cp_open_ && (!cp_active || s.cp_queue != cp_queue_)) close_cp(t);
  if (cp_open_ && s.cp_state != cp_state_) {
    events_.push_back(Event{'X', sim::kCpStateNames[cp_state_ % sim::kNumCpStates], "cp", cp_state_start_,
                            t - cp_state_start_, kPidCp, int(cp_queue_), ""});
    cp_state_ = s.cp_state;
    cp_state_start_ = t;
  }
  if (!cp_open_ && cp_active) {
    cp_open_ = true;
    cp_queue_ = s.cp_queue;
    cp_state_ = s.cp_state;
    cp_state_start_ = t;
    cp_launch_start_ = s.cp_state == kCpFetch ? t : ~0ull;  // a soft reset alone is no launch
  }
  // ---- SM ----
  if (s.launch_accepted) {
    grid_ = s.grid;
    block_ = s.block;
    queue_ = s.cp_queue;  // the command processor hands it over from this queue
  }
  const bool running = s.sm_busy && !s.in_reset;
  if (!running) {
    if (sm_open_) close_sm_launch(t, &s, s.in_reset);
    return;
  }
  if (!sm_open_) {
    sm_open_ = true;
    sm_start_ = t;
    bars_ = s.barrier_releases;
    for (uint32_t w = 0; w < slots_; ++w) {
      runs_[w] = Run{s.warp_state[w], t};
      if (s.warp_state[w] != kIdle) occ_[w] = Occupancy{true, false, t};
    }
  } else {
    std::vector<uint32_t> released;
    for (uint32_t w = 0; w < slots_; ++w) {
      Run& r = runs_[w];
      const uint8_t st = s.warp_state[w];
      if (st == r.state) continue;
      events_.push_back(Event{'X', sim::kWarpStateNames[r.state % sim::kNumWarpStates], "state", r.start,
                              t - r.start, kPidSm, int(w), ""});
      if (r.state == kWaitBar) released.push_back(w);
      if (st == kIdle) close_occupancy(w, t);
      if (r.state == kIdle) occ_[w] = Occupancy{true, false, t};
      r = Run{st, t};
    }
    if (s.barrier_releases != bars_) {
      events_.push_back(Event{'i', "barrier release", "barrier", t, 0, kPidSm, kTidSm,
                              "\"releases\":" + std::to_string(s.barrier_releases - bars_) +
                                  ",\"slots\":" + list_json(released)});
      bars_ = s.barrier_releases;
    }
  }
  if (s.issue && s.issue_slot < slots_) {
    Occupancy& o = occ_[s.issue_slot];
    if (o.open && !o.known) {
      o.known = true;
      o.cta = s.issue_cta;
      o.wic = s.issue_wic;
    }
  }
}

void TimelineBuilder::finish(uint64_t cycle) {
  if (sm_open_) close_sm_launch(cycle, nullptr, true);
  close_cp(cycle);
}

void TimelineBuilder::write_json(std::ostream& o) const {
  // ts and dur are cycles, which the viewers read as microseconds.
  o << "{\"otherData\":{\"tool\":\"baresm --timeline\",\"time_unit\":\"cycle\","
    << "\"clock_khz\":" << clock_khz_ << ",\"warp_slots\":" << slots_ << ",\"queues\":" << queues_
    << ",\"warp_states\":[";
  for (int k = 0; k < sim::kNumWarpStates; ++k)
    o << (k ? "," : "") << "\"" << sim::kWarpStateNames[k] << "\"";
  o << "]},\n\"traceEvents\":[\n";
  // Names and order of the tracks.
  std::vector<Event> meta;
  auto name = [&](const char* what, int pid, int tid, const std::string& n) {
    meta.push_back(Event{'M', what, "", 0, 0, pid, tid, "\"name\":\"" + n + "\""});
  };
  auto order = [&](const char* what, int pid, int tid, int index) {
    meta.push_back(Event{'M', what, "", 0, 0, pid, tid, "\"sort_index\":" + std::to_string(index)});
  };
  name("process_name", kPidSm, 0, "SM");
  order("process_sort_index", kPidSm, 0, 1);
  name("process_name", kPidCp, 0, "command processor");
  order("process_sort_index", kPidCp, 0, 2);
  name("thread_name", kPidSm, kTidSm, "SM launches, CTAs, barriers");
  order("thread_sort_index", kPidSm, kTidSm, -1);
  for (uint32_t w = 0; w < slots_; ++w) {
    name("thread_name", kPidSm, int(w), "warp slot " + std::to_string(w));
    order("thread_sort_index", kPidSm, int(w), int(w));
  }
  for (uint32_t q = 0; q < queues_; ++q) {
    name("thread_name", kPidCp, int(q), "queue " + std::to_string(q));
    order("thread_sort_index", kPidCp, int(q), int(q));
  }
  bool first = true;
  for (const Event& e : meta) {
    o << (first ? "" : ",\n");
    write_event(o, e);
    first = false;
  }
  // A parent slice before the slices inside it (same start, longer first).
  std::vector<const Event*> sorted;
  sorted.reserve(events_.size());
  for (const Event& e : events_) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Event* a, const Event* b) {
    if (a->pid != b->pid) return a->pid < b->pid;
    if (a->tid != b->tid) return a->tid < b->tid;
    if (a->ts != b->ts) return a->ts < b->ts;
    return a->dur > b->dur;
  });
  for (const Event* e : sorted) {
    o << ",\n";
    write_event(o, *e);
  }
  o << "\n]}\n";
}

}  // namespace baresm::timeline
