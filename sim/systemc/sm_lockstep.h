// Lockstep co-simulation of the SM inside the whole device: every launch the
// command processor hands to the SM is checked by a sim::LockstepChecker
// (sim/harness/lockstep.h) against the functional model, instruction by
// instruction, from the SM's trace port (wires of the verilated baresm_top,
// made readable by sim/systemc/sim.vlt). Sampled at the falling clock edge,
// when the cycle's values are settled. A reset of the SM in the middle of a
// launch (a soft reset, the reset pin) ends that launch's check as aborted.
#pragma once

#include <systemc.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/harness/lockstep.h"

class Vbaresm_top;
class Vbaresm_top___024root;

namespace baresm::cosim {

struct LockstepLaunch {
  bool ok = false;
  bool aborted = false;  // the SM was reset before it finished
  std::string report;    // the first difference, when !ok
  sim::LockstepStats stats;
};

class SmLockstepPort : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  SmLockstepPort(sc_core::sc_module_name name, Vbaresm_top& dut, std::vector<uint8_t>& mem,
                 std::function<uint64_t()> cycle);
  ~SmLockstepPort() override;

  void enable(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  const std::vector<LockstepLaunch>& launches() const { return launches_; }
  void clear() { launches_.clear(); }

 private:
  void on_negedge();
  void cover_cp(const Vbaresm_top___024root& r);

  Vbaresm_top& dut_;
  std::vector<uint8_t>& mem_;
  std::function<uint64_t()> cycle_;
  bool enabled_ = false;
  std::unique_ptr<sim::LockstepChecker> checker_;
  uint64_t start_ = 0;
  sim::MemRequest req_;
  std::vector<LockstepLaunch> launches_;
  uint32_t cp_state_ = ~0u;  // coverage: the command processor's states entered
};

}  // namespace baresm::cosim
