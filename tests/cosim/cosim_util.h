// Helpers shared by the cosim tests.
#pragma once

#include <memory>

#include "sim/systemc/sc_transport.h"

namespace baresm::cosimtest {

// The memory the cosim tests run against unless they say otherwise: latency
// 1..12 cycles, responses out of order, some back-pressure (seeded).
inline sim::MemModelConfig test_memory(uint64_t seed = 7) {
  sim::MemModelConfig m;
  m.min_latency = 1;
  m.max_latency = 12;
  m.out_of_order = true;
  m.ready_drop = 0.05;
  m.seed = seed;
  return m;
}

inline std::unique_ptr<cosim::ScTransport> rtl_device(uint64_t seed = 7) {
  cosim::RtlDeviceOptions o;
  o.mem = test_memory(seed);
  return cosim::open_rtl_device(o);
}

}  // namespace baresm::cosimtest
