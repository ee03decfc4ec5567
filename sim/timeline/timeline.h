// A warp timeline of the device, as a Chrome/Perfetto trace-event JSON file
// (docs/timeline.md): one track per warp slot with its state over time, the
// CTA each slot holds, barrier releases, the memory requests in flight, and
// each queue's launches as the command processor sees them.
//
// TimelineBuilder turns one sample per clock cycle of the device's pins into
// events; it knows nothing of SystemC, so the co-simulation
// (sim/systemc/timeline_port.h) feeds it and the tests can too. Every state
// is one complete event ("ph":"X") per run of equal cycles; ts and dur are
// cycles (the viewers say "us": read "cycles").
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/harness/state_names.h"

namespace baresm::timeline {

// Track layout: process kPidSm holds one thread per warp slot (tid = slot)
// and kTidSm (SM launches, CTA placements and retirements, barrier
// releases); process kPidCp one thread per queue pair (tid = queue).
constexpr int kPidSm = 1, kPidCp = 2, kTidSm = 100;
constexpr const char* kMemCounter = "memory in flight";

struct Event {
  char ph = 'X';  // X complete, i instant, C counter, M metadata
  std::string name, cat;
  uint64_t ts = 0, dur = 0;
  int pid = 0, tid = 0;
  std::string args;  // the members of the args object, JSON-encoded ("" = none)
};

// The device's pins during one clock cycle, sampled when they are settled.
struct CycleSample {
  uint64_t cycle = 0;
  bool device_reset = false;                // the reset pin is low (the memory drops what is in flight)
  bool in_reset = false;                    // the SM is held in reset (the pin, a soft reset, an abort)
  bool sm_busy = false;                     // the SM is running a launch (its counters count this cycle)
  std::vector<uint8_t> warp_state;          // per slot, baresm_state_pkg::WS_*
  bool launch_accepted = false;             // the SM takes a descriptor at the end of this cycle
  std::array<uint32_t, 3> grid{}, block{};  // ... of that descriptor
  bool issue = false;                       // the SM's trace port: a warp-instruction issued
  uint32_t issue_slot = 0, issue_wic = 0;
  std::array<uint32_t, 3> issue_cta{};
  uint64_t barrier_releases = 0, ctas_retired = 0;           // the SM's event counters (this launch)
  std::array<uint64_t, sim::kNumWarpStates> state_cycles{};  // the SM's warp-cycles per state (this launch)
  uint32_t fault_kind = 0;                                   // the SM's fault of this launch (0 none)
  bool mem_req = false, mem_req_cp = false;  // a request accepted at the memory port (cp: the CP's)
  bool mem_rsp = false, mem_rsp_cp = false;  // a response taken
  uint32_t cp_state = 0, cp_queue = 0;       // the command processor's engine (E_*) and its queue
  int doorbell_queue = -1;                   // the host writes this queue's DOORBELL this cycle
  uint32_t doorbell_value = 0;
};

class TimelineBuilder {
 public:
  explicit TimelineBuilder(uint32_t warp_slots, uint32_t queues, uint32_t clock_khz = 0);
  void sample(const CycleSample& s);
  // Closes what is open at `cycle` (the end of the recording).
  void finish(uint64_t cycle);
  const std::vector<Event>& events() const { return events_; }
  uint32_t sm_launches() const { return sm_launches_; }
  // The whole file: metadata, then the events sorted by track and time.
  void write_json(std::ostream& out) const;

 private:
  struct Run {
    uint8_t state = 0;
    uint64_t start = 0;
  };
  struct Occupancy {  // a warp of a CTA resident in a slot
    bool open = false, known = false;
    uint64_t start = 0, end = 0;
    uint32_t slot = 0, wic = 0;
    std::array<uint32_t, 3> cta{};
  };
  void close_sm_launch(uint64_t cycle, const CycleSample* s, bool aborted);
  void close_occupancy(uint32_t slot, uint64_t cycle);
  void close_cp(uint64_t cycle);
  void mem_change(uint64_t cycle, int sm_delta, int cp_delta);

  uint32_t slots_, queues_, clock_khz_;
  std::vector<Event> events_;
  // SM launch in progress.
  bool sm_open_ = false;
  uint64_t sm_start_ = 0, bars_ = 0, ctas_ = 0;
  std::array<uint32_t, 3> grid_{}, block_{};
  uint32_t queue_ = 0;
  std::vector<Run> runs_;
  std::vector<Occupancy> occ_;   // per slot
  std::vector<Occupancy> done_;  // this launch's closed ones
  uint32_t sm_launches_ = 0;
  // Command processor: the launch and the engine state in progress.
  bool cp_open_ = false;
  uint32_t cp_state_ = 0, cp_queue_ = 0;
  uint64_t cp_state_start_ = 0, cp_launch_start_ = 0;
  // Memory requests in flight, per requester.
  int64_t mem_sm_ = 0, mem_cp_ = 0;
};

// "CTA (x,y,z)": the name of a slot's residency and the key the checker counts.
std::string cta_name(const std::array<uint32_t, 3>& cta);

}  // namespace baresm::timeline
