// The device-memory model on the far side of the SM's memory port
// (docs/lsu.md, "Memory port"). Plain C++, clocked by the caller: each cycle
// the caller drives the port with the model's outputs (req_ready(),
// rsp_valid(), rsp()), reads the design's outputs, and calls tick() at the
// clock edge with what the design drove. Everything random (latency,
// back-pressure, reordering, stalls) comes from one seed, so a run is
// reproducible.
//
// Requests take effect when they are accepted, in acceptance order; each
// gets exactly one response, presented no earlier than min_latency cycles
// later and held until it is taken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "isa/mem_poison.h"

namespace baresm::sim {

enum class MemOp : uint8_t { READ = 0, WRITE = 1, ATOMIC = 2 };

struct MemRequest {
  uint32_t id = 0;
  uint32_t addr = 0;  // READ/WRITE: line-aligned; ATOMIC: 4-byte aligned word
  MemOp op = MemOp::READ;
  uint8_t amo = 0;             // ATOMIC: the ATOM mod field [4:0]
  std::vector<uint8_t> wdata;  // line_bytes; ATOMIC: b in [0,4), c in [4,8)
  std::vector<uint8_t> wstrb;  // line_bytes, 0/1 per byte (WRITE)
};

struct MemResponse {
  uint32_t id = 0;
  bool error = false;          // the request failed (mem_rsp_err): no data, no effect
  std::vector<uint8_t> rdata;  // line_bytes; ATOMIC: the old value in [0,4); zeros on error
};

struct MemModelConfig {
  uint32_t line_bytes = 128;
  uint32_t min_latency = 1;      // cycles from acceptance to the response (>= 1)
  uint32_t max_latency = 1;      // uniformly random in [min, max]
  uint32_t accept_interval = 1;  // bandwidth: at most one request per N cycles
  double ready_drop = 0.0;       // probability that req_ready is low in a cycle
  bool out_of_order = false;     // present any due response, not the oldest
  double stall_start = 0.0;      // probability per cycle that a stall begins
  uint32_t stall_min = 1;        // stall length in cycles (no new response)
  uint32_t stall_max = 1;
  uint32_t max_outstanding = 64;  // in flight; req_ready is low when full
  double error_rate = 0.0;       // probability that a request fails (a transient bus error)
  uint64_t seed = 1;
};

struct MemCounters {
  uint64_t cycles = 0;
  uint64_t requests = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t atomics = 0;
  uint64_t bytes_read = 0;     // line bytes returned by READ
  uint64_t bytes_written = 0;  // strobed bytes of WRITE
  uint64_t responses = 0;
  uint64_t stall_cycles = 0;         // cycles inside an injected stall
  uint64_t backpressure_cycles = 0;  // cycles with req_ready low
  uint64_t bad_requests = 0;         // outside memory or malformed (answered with zeros)
  uint64_t errors = 0;               // answered with an error (poisoned line or error_rate)
  uint64_t max_in_flight = 0;
};

// docs/isa.md ATOM semantics: the new memory value from the old one. Shared
// by the model and the tests' reference.
uint32_t atomic_apply(uint8_t amo, uint32_t old, uint32_t b, uint32_t c);

class MemModel {
 public:
  // mem is the device memory (e.g. iss::DeviceMemory::bytes()); it must
  // outlive the model, as must poison (lines whose every access fails; may be null).
  MemModel(std::vector<uint8_t>& mem, const MemModelConfig& cfg, const iss::PoisonMap* poison = nullptr);

  // Port outputs for the current cycle.
  bool req_ready() const { return req_ready_; }
  bool rsp_valid() const { return rsp_valid_; }
  const MemResponse& rsp() const { return rsp_; }

  // The clock edge. req is accepted when req_valid && req_ready(); the
  // presented response is taken when rsp_ready && rsp_valid().
  void tick(bool req_valid, const MemRequest& req, bool rsp_ready);

  // Drops everything in flight (the design was reset); counters are kept.
  void reset();

  size_t in_flight() const { return pending_.size() + (rsp_valid_ ? 1 : 0); }
  const MemCounters& counters() const { return counters_; }
  const MemModelConfig& config() const { return cfg_; }
  std::vector<uint8_t>& memory() { return mem_; }

 private:
  struct Pending {
    uint64_t seq = 0;
    uint64_t due = 0;  // first cycle it may be presented
    MemResponse rsp;
  };
  uint64_t rand64();
  uint32_t rand_range(uint32_t lo, uint32_t hi);  // inclusive
  bool chance(double p);
  MemResponse apply(const MemRequest& req);
  void choose_outputs();

  std::vector<uint8_t>& mem_;
  const iss::PoisonMap* poison_;
  MemModelConfig cfg_;
  uint64_t rng_;
  uint64_t cycle_ = 0;
  uint64_t seq_ = 0;
  uint64_t last_accept_ = 0;
  bool accepted_any_ = false;
  uint32_t stall_left_ = 0;
  std::deque<Pending> pending_;  // acceptance order
  bool req_ready_ = false;
  bool rsp_valid_ = false;
  MemResponse rsp_;
  MemCounters counters_;
};

}  // namespace baresm::sim
