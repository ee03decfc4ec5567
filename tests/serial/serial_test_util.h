// What the serial-link tests share: the transport options they run with
// (short timeouts, generous retries: the simulated board is slower than a
// real one) and a counter for calls made over a faulty link.
#pragma once

#include <cstdlib>

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "host_driver/serial_transport.h"
#include "sim/serial/board_sim.h"

namespace baresm::serialtest {

// BARESM_SERIAL_TIMEOUT_MS stretches the wait for an answer for a slower
// board model (the gate-level netlist of `make fpga-sim` simulates about
// 2,500 cycles/s, a few hundred times slower than the RTL).
inline drv::SerialOptions test_options() {
  drv::SerialOptions o;
  o.response_timeout_ms = 400;
  if (const char* t = std::getenv("BARESM_SERIAL_TIMEOUT_MS")) o.response_timeout_ms = std::atoi(t);
  o.quiet_ms = 20;
  o.max_attempts = 10;
  return o;
}

inline std::unique_ptr<drv::SerialTransport> open_link(serialsim::BoardSim& b,
                                                       const drv::SerialOptions& o = test_options()) {
  std::string err;
  auto t = drv::SerialTransport::open(b.port(), o, &err);
  EXPECT_TRUE(t) << err;
  return t;
}

// Calls over a link with injected faults: one may still fail (every attempt
// of one burst hit), but then it must say so, as a transport error naming
// the serial link, and never hand back wrong data (the callers check values).
struct FaultyLinkCalls {
  const drv::SerialTransport& t;
  int calls = 0, failed = 0;
  bool ok(drv::Status s) {
    ++calls;
    if (drv::ok(s)) return true;
    EXPECT_EQ(s, drv::Status::TRANSPORT_ERROR);
    EXPECT_NE(t.last_error().find("serial link: "), std::string::npos) << t.last_error();
    ++failed;
    return false;
  }
};

}  // namespace baresm::serialtest
