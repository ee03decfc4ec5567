// The warp timeline of the co-simulated device (sim/timeline/timeline.h):
// at every falling clock edge, when the cycle's values are settled, the
// device's pins (warp states, memory port, command-processor state, the host
// port's doorbell writes) and the wires sim.vlt makes readable (the SM's
// trace port, the launch handshake, its counters) become one CycleSample.
// Off until start(); costs one test per cycle while off.
#pragma once

#include <systemc.h>

#include <functional>
#include <memory>
#include <string>

#include "sim/timeline/timeline.h"

class Vbaresm_top;

namespace baresm::cosim {

class TimelinePort : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  TimelinePort(sc_core::sc_module_name name, Vbaresm_top& dut, std::function<uint64_t()> cycle);
  ~TimelinePort() override;

  void start();
  bool recording() const { return builder_ != nullptr; }
  // Ends the recording and writes the JSON file; "" or why it failed.
  std::string finish(const std::string& path);

 private:
  void on_negedge();

  Vbaresm_top& dut_;
  std::function<uint64_t()> cycle_;
  std::unique_ptr<timeline::TimelineBuilder> builder_;
  timeline::CycleSample s_;
};

}  // namespace baresm::cosim
