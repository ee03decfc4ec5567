#include "cq_model/scoreboard.h"

#include <cstdio>

namespace baresm::cq {

Scoreboard::Scoreboard(uint32_t num_queues) : queues_(num_queues) {}

void Scoreboard::set_cq_size(uint32_t q, uint32_t entries) {
  if (q < queues_.size()) queues_[q].cq_size = entries;
}

void Scoreboard::fail(uint32_t q, uint32_t index, const std::string& what) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "queue %u index %u: ", q, index);
  // Keep the first errors; a broken device would otherwise flood memory.
  if (errors_.size() < 1000) errors_.push_back(buf + what);
}

void Scoreboard::expect(uint32_t q, uint32_t seq, const Expectation& e) {
  if (q >= queues_.size()) return fail(q, seq, "submission to a queue the scoreboard does not track");
  Queue& Q = queues_[q];
  if (seq != Q.next_seq) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "submission index %u, expected %u (submissions out of order)", seq,
                  Q.next_seq);
    fail(q, seq, buf);
  }
  Q.next_seq = seq + 1;
  Q.pending.push_back(Pending{seq, e});
}

void Scoreboard::observe(uint32_t q, uint32_t index, const CompletionEntry& e) {
  ++observed_;
  if (q >= queues_.size()) return fail(q, index, "completion from a queue the scoreboard does not track");
  Queue& Q = queues_[q];
  char buf[200];
  if (index != Q.next_index) {
    std::snprintf(buf, sizeof buf, "consumed index %u, expected %u (entry skipped or repeated)", index,
                  Q.next_index);
    fail(q, index, buf);
  }
  Q.next_index = index + 1;
  if (Q.cq_size && index != 0 && (index % Q.cq_size) == 0) ++Q.wraps;
  if (e.seq != index) {
    std::snprintf(buf, sizeof buf, "entry seq %u at index %u (lost, duplicated or misplaced entry)", e.seq,
                  index);
    fail(q, index, buf);
  }
  if (Q.cq_size && e.phase_bit() != expected_phase(index, Q.cq_size)) fail(q, index, "wrong phase bit");
  if (e.queue() != q) {
    std::snprintf(buf, sizeof buf, "entry says queue %u", e.queue());
    fail(q, index, buf);
  }
  const CplStatus st = e.cpl_status();
  if (st != CplStatus::COMPLETED && st != CplStatus::FAILED) {
    std::snprintf(buf, sizeof buf, "status %u is neither COMPLETED nor FAILED", e.status);
    fail(q, index, buf);
  }
  if (st == CplStatus::COMPLETED && e.error_code() != ErrorCode::OK)
    fail(q, index, std::string("COMPLETED with error ") + error_code_name(e.error_code()));
  if (st == CplStatus::FAILED && e.error_code() == ErrorCode::OK) fail(q, index, "FAILED with error OK");
  if (e.error_code() == ErrorCode::CONTEXT_LOST) fail(q, index, "the device wrote CONTEXT_LOST");
  if (e.end_cycle < e.start_cycle) fail(q, index, "end_cycle before start_cycle");
  if (e.end_cycle < Q.last_end) fail(q, index, "end_cycle earlier than the previous entry's");
  Q.last_end = e.end_cycle;
  if (e.reserved0 || e.reserved1 || e.reserved2) fail(q, index, "a reserved word of the entry is not 0");
  uint64_t ws_total = 0;
  bool saturated = e.sm_cycles == 0xFFFFFFFFu;
  for (int s = 0; s < CompletionEntry::kWarpStates; ++s) {
    ws_total += e.warp_state_cycles(s);
    saturated |= e.warp_state_cycles(s) == 0xFFFFFFFFu;
  }
  if (e.error_code() == ErrorCode::BAD_DESCRIPTOR &&
      (e.warp_instrs || e.thread_instrs || e.stall_cycles || e.shared_passes || e.div_branches ||
       e.bar_releases || e.gmem_requests || e.ifetch_fills || e.sm_cycles || ws_total))
    fail(q, index, "a bad descriptor's entry counts work (nothing ran)");
  // Every warp slot is in exactly one state each SM cycle: the states add up
  // to sm_cycles x warp slots (a device without warp states writes none).
  if (ws_total && !saturated && (e.sm_cycles == 0 || ws_total % e.sm_cycles != 0)) {
    std::snprintf(buf, sizeof buf, "warp-state cycles add up to %llu, not a multiple of sm_cycles %u",
                  (unsigned long long)ws_total, e.sm_cycles);
    fail(q, index, buf);
  }

  if (Q.pending.empty()) return fail(q, index, "completion with no outstanding submission (duplicate?)");
  const Pending p = Q.pending.front();
  Q.pending.pop_front();
  if (p.seq != e.seq) {
    std::snprintf(buf, sizeof buf, "completes submission %u but %u is the oldest outstanding", e.seq, p.seq);
    fail(q, index, buf);
  }
  if (p.e.token != e.token) {
    std::snprintf(buf, sizeof buf, "token 0x%llx, submitted 0x%llx", (unsigned long long)e.token,
                  (unsigned long long)p.e.token);
    fail(q, index, buf);
  }
  if (p.e.status != CplStatus::PENDING && p.e.status != st) {
    std::snprintf(buf, sizeof buf, "status %s, expected %s", cpl_status_name(st),
                  cpl_status_name(p.e.status));
    fail(q, index, buf);
  }
  if (p.e.check_error && p.e.error != e.error_code()) {
    std::snprintf(buf, sizeof buf, "error %s, expected %s", error_code_name(e.error_code()),
                  error_code_name(p.e.error));
    fail(q, index, buf);
  }
  if (p.e.check_counters) {
    const ExpectedCounters& x = p.e.counters;
    const struct {
      const char* name;
      uint32_t got, want;
    } cs[] = {{"warp_instrs", e.warp_instrs, x.warp_instrs},
              {"thread_instrs", e.thread_instrs, x.thread_instrs},
              {"div_branches", e.div_branches, x.div_branches},
              {"bar_releases", e.bar_releases, x.bar_releases},
              {"ctas_done", e.ctas_done, x.ctas_done}};
    for (const auto& c : cs) {
      if (c.got == c.want) continue;
      std::snprintf(buf, sizeof buf, "counter %s is %u, expected %u", c.name, c.got, c.want);
      fail(q, index, buf);
    }
  }
}

uint64_t Scoreboard::reset() {
  uint64_t n = 0;
  for (Queue& Q : queues_) {
    n += Q.pending.size();
    Q.pending.clear();
    Q.next_seq = Q.next_index = 0;
    Q.last_end = 0;
  }
  dropped_ += n;
  return n;
}

uint64_t Scoreboard::outstanding() const {
  uint64_t n = 0;
  for (const Queue& Q : queues_) n += Q.pending.size();
  return n;
}

std::string Scoreboard::report() const {
  std::string s;
  for (const auto& e : errors_) s += e + "\n";
  return s;
}

}  // namespace baresm::cq
