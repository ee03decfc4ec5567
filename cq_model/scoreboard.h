// Checks every completion entry a device writes against what the host
// submitted: per-queue order, exactly one entry per descriptor (no loss, no
// duplicate), the right token, status and error, the phase of each wrap, and
// sane timestamps and counters (the reserved words 0; nothing counted for a
// bad descriptor; the warp states of an RTL entry adding up to whole cycles;
// exact counters where the expectation has them). Used by the driver tests on the functional model and by
// the RTL testbench on the command processor: it only sees descriptors going
// in and entries coming out.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "contract/rings.h"

namespace baresm::cq {

// Counters of a launch known exactly in advance (from the functional model's
// run of the same deterministic kernel): the ones every backend counts the
// same way (docs/ring-formats.md).
struct ExpectedCounters {
  uint32_t warp_instrs = 0, thread_instrs = 0, div_branches = 0, bar_releases = 0, ctas_done = 0;
};

struct Expectation {
  uint64_t token = 0;
  // PENDING: completed or failed are both acceptable.
  CplStatus status = CplStatus::PENDING;
  bool check_error = false;
  ErrorCode error = ErrorCode::OK;
  bool check_counters = false;  // compare `counters` with the entry's
  ExpectedCounters counters{};
};

class Scoreboard {
 public:
  explicit Scoreboard(uint32_t num_queues = 8);

  // The completion ring size of queue q, for the phase check (0: not checked).
  void set_cq_size(uint32_t q, uint32_t entries);

  // The host submitted a descriptor to queue q at submission index seq.
  void expect(uint32_t q, uint32_t seq, const Expectation& e);
  // The host consumed the entry at completion index `index` of queue q.
  void observe(uint32_t q, uint32_t index, const CompletionEntry& e);
  // The device was reset: everything outstanding was dropped (the host
  // reports it as CONTEXT_LOST) and indices restart at 0. Returns how many
  // expectations were dropped.
  uint64_t reset();

  uint64_t outstanding() const;
  uint64_t observed() const { return observed_; }
  uint64_t dropped() const { return dropped_; }
  // Times the consumer went past the end of queue q's completion ring.
  uint64_t wraps(uint32_t q) const { return q < queues_.size() ? queues_[q].wraps : 0; }

  bool ok() const { return errors_.empty(); }
  const std::vector<std::string>& errors() const { return errors_; }
  std::string report() const;  // every error, one per line (empty when ok)

 private:
  struct Pending {
    uint32_t seq;
    Expectation e;
  };
  struct Queue {
    std::deque<Pending> pending;
    uint32_t next_seq = 0;    // next submission index the host may use
    uint32_t next_index = 0;  // next completion index the consumer should see
    uint32_t cq_size = 0;
    uint64_t last_end = 0;
    uint64_t wraps = 0;
  };
  void fail(uint32_t q, uint32_t index, const std::string& what);

  std::vector<Queue> queues_;
  std::vector<std::string> errors_;
  uint64_t observed_ = 0, dropped_ = 0;
};

}  // namespace baresm::cq
