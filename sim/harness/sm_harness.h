// Plain C++ harness around a verilated SM: drives the launch port, connects
// the memory port to the device-memory model (latency, back-pressure, stalls,
// out-of-order responses, all seeded), runs to done, and reports what the
// functional model reports (fault, CTA, warp, lane, pc, address) plus cycles
// and the SM's counters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/iss.h"
#include "sim/harness/mem_model.h"
#include "sim/harness/sm_dut.h"

namespace baresm::sim {

// One launch as the SM takes it (baresm_sm_pkg LD_* layout).
struct SmLaunch {
  uint32_t entry_pc = 0, code_base = 0, code_size = 0;
  iss::Dim3 grid, block;
  uint32_t regs = 0, smid = 0;
  uint32_t param_addr = 0, param_size = 0, shared_bytes = 0;
  std::vector<iss::Window> windows;  // the SM's NumWindows (config word 6) at most; more: cfg_error
  uint64_t watchdog_cycles = 0;      // 0 = none
  iss::Window protect;               // the CP's protected range (size 0: none)
};

std::array<uint32_t, kLaunchWords> pack_launch(const SmLaunch& l);
SmLaunch unpack_launch(const std::array<uint32_t, kLaunchWords>& d);
SmLaunch launch_from_params(const iss::LaunchParams& p, uint64_t watchdog_cycles);
// The launch as the functional model takes it (no instruction budget: the
// SM's watchdog counts cycles).
iss::LaunchParams model_params(const SmLaunch& l);
// The SM's ID/CONFIG words (config_o), decoded, and the inverse (the
// words an SM with parameters p reports): both from contract/sm_config.def, the
// table the RTL packs config_o with.
constexpr int kSmConfigWords = 8;
SmParams decode_sm_config(const uint32_t words[kSmConfigWords]);
void encode_sm_config(const SmParams& p, uint32_t words[kSmConfigWords]);

// Watches a run cycle by cycle (the lockstep checker): called once per cycle
// from the cycle after the SM took the launch (what is still in flight from
// an earlier launch is not this launch's), with the outputs settled, before
// the clock edge; `accepted` is the memory
// request the memory model takes at that edge, if any. Returning false stops
// the run (SmRunResult::stopped).
class SmObserver {
 public:
  virtual ~SmObserver() = default;
  virtual bool on_cycle(uint64_t cycle, SmDut& dut, const MemRequest* accepted) = 0;
};

struct SmRunOptions {
  MemModelConfig mem;           // line_bytes is taken from the SM
  bool gto = false;             // scheduler: greedy-then-oldest instead of round-robin
  uint64_t max_cycles = 50'000'000;  // harness give-up (the SM's watchdog should come first)
  SmObserver* observer = nullptr;
  const iss::PoisonMap* poison = nullptr;  // lines whose every access fails (MEMORY_ERROR)
};

struct SmRunResult {
  bool completed = false;   // done_o was seen
  bool cfg_error = false;   // the SM refused the launch
  bool timed_out = false;   // max_cycles passed without done_o
  bool stopped = false;     // the observer stopped the run
  bool fault_fields_clear = true;  // no fault: every fault output reads 0 (nothing stale)
  iss::FaultInfo fault;
  SmCounters counters;
  MemCounters mem;
  uint64_t cycles = 0;      // harness cycles from launch_valid to done
  double ipc() const { return counters.cycles ? double(counters.instrs) / double(counters.cycles) : 0.0; }
  std::string describe() const;
};

class SmHarness {
 public:
  // Resets the DUT.
  explicit SmHarness(std::unique_ptr<SmDut> dut);
  const SmParams& params() const { return params_; }
  SmDut& dut() { return *dut_; }

  // Holds reset for a few cycles (after a timed-out launch, for instance).
  void reset();
  // Runs one launch over mem (device memory, byte addressed from 0).
  SmRunResult run(const SmLaunch& launch, std::vector<uint8_t>& mem, const SmRunOptions& opt);

 private:
  void cycle(MemModel* mm, bool launch_valid, const std::array<uint32_t, kLaunchWords>& desc, bool gto);

  std::unique_ptr<SmDut> dut_;
  SmParams params_;
  MemRequest req_;
  SmObserver* observer_ = nullptr;
  uint64_t cycle_ = 0;
  bool stop_ = false;
};

}  // namespace baresm::sim
