// The SystemC testbench around the verilated device (rtl/baresm_top.sv):
// clock and reset, the device-memory module (sim/harness/mem_model behind
// the device's memory port), the host port (MMIO bus cycles, the interrupt
// line) and an optional FST trace with a cycle window. docs/cosim.md
// describes how it is built and driven.
//
// SystemC elaborates once per process, so the testbench is a process-wide
// object created at its first use (Testbench::get()); every "new device"
// after that (a new transport, a new CLI backend) is the same elaborated
// design brought back to power-on by the reset pin (power_on()).
//
// Time advances only inside the calls below: the host code (the driver, the
// tests) runs on the process's own thread and drives sc_start() in slices;
// the testbench's clocked processes end a slice with sc_pause() exactly when
// what the host waits for has happened (an MMIO response, the interrupt
// line, a cycle count). Everything is single-threaded and seeded, so a run
// is reproducible.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/harness/mem_model.h"
#include "sim/harness/state_names.h"

namespace baresm::cosim {

// The configuration baresm_top was verilated with (sim/systemc/CMakeLists.txt).
struct TopParams {
  static constexpr uint32_t kNumLanes = BARESM_TOP_NumLanes;
  static constexpr uint32_t kNumWarps = BARESM_TOP_NumWarps;
  static constexpr uint32_t kLineBytes = BARESM_TOP_MemLineBytes;
  static constexpr uint32_t kMemBytes = BARESM_TOP_MemBytes;
  static constexpr uint32_t kClockKhz = BARESM_TOP_ClockKhz;
  static constexpr uint32_t kNumQueues = BARESM_TOP_NumQueues;
  static constexpr uint32_t kIdBits = BARESM_TOP_LsuIdWidth + 2;
  static constexpr uint32_t kNumWindows = BARESM_TOP_NumWindows;  // CONFIG1.MAX_WINDOWS
};

// Cycle window of an FST trace: cycles [start, end] are dumped.
struct TraceOptions {
  std::string path;  // empty: no trace
  uint64_t start_cycle = 0;
  uint64_t end_cycle = ~0ull;
};

struct TbOptions {
  sim::MemModelConfig mem;  // latency, bandwidth, back-pressure, reordering, stalls, seed
  bool gto = false;         // SM scheduler: greedy-then-oldest instead of loose round-robin
  TraceOptions trace;       // only honoured when the testbench is created
};

// Counters of the SM's last (or current) launch, from the device's status outputs.
struct SmCounters {
  uint64_t cycles = 0, instrs = 0, stalls = 0;
  uint32_t smem_passes = 0, gmem_reqs = 0;
  uint64_t divergent_branches = 0, barrier_releases = 0, thread_instrs = 0, ctas = 0;
  std::array<uint64_t, sim::kNumWarpStates> state_cycles{};  // warp-cycles per baresm_state_pkg::WS_* (contract/states.def)
};

class TbModule;  // the sc_module (testbench.cpp)
struct LockstepLaunch;  // sim/systemc/sm_lockstep.h

class Testbench {
 public:
  // The process's testbench, created (elaborated) at the first call with
  // `opt`; later calls return it and ignore `opt`.
  static Testbench& get(const TbOptions& opt = {});
  static bool exists();

  // Power-on: the reset pin is held low for a few cycles while the memory
  // model drops everything in flight and takes `mem` as its new settings;
  // device memory is zeroed when clear_memory.
  void power_on(const sim::MemModelConfig& mem, bool gto, bool clear_memory = true);
  // Pulses the reset pin for `cycles` cycles (memory content is kept).
  void pin_reset(uint32_t cycles = 4);

  // ---- host port ----
  uint32_t mmio_read(uint32_t offset);
  void mmio_write(uint32_t offset, uint32_t value);
  bool irq() const;

  // ---- time ----
  void run_cycles(uint64_t n);
  // Runs until the interrupt line is high (true) or n cycles have passed (false).
  bool run_until_irq(uint64_t n);
  // Runs until the command processor's engine was in `state` (baresm_cp
  // E_*) during a cycle -- it returns at the edge that ends that cycle
  // (true) -- or until n cycles have passed (false).
  bool run_until_cp_state(uint32_t state, uint64_t n);
  uint64_t cycle() const;  // rising clock edges since elaboration
  uint64_t period_ps() const;

  // ---- device memory (the memory model's backing store) ----
  std::vector<uint8_t>& memory();
  const sim::MemCounters& mem_counters() const;
  // Lines whose every access by the device fails (rtl mem_rsp_err_i); the
  // host's copies are not affected.
  iss::PoisonMap& memory_poison();
  // From the next edge on, the memory neither accepts nor answers anything
  // for `cycles` cycles (an injected stall; the memory's own time stops).
  void freeze_memory(uint64_t cycles);
  // Byte ranges [first, last] the command processor wrote since the last clear.
  const std::vector<std::pair<uint32_t, uint32_t>>& cp_writes() const;
  void clear_cp_writes();

  // ---- status outputs of the device ----
  uint32_t status() const;    // STATUS
  uint32_t cp_state() const;  // command-processor engine state
  void warp_states(std::vector<uint8_t>* out) const;
  SmCounters sm_counters() const;
  uint32_t mem_outstanding() const;

  // ---- lockstep co-simulation (sim/systemc/sm_lockstep.h) ----
  // While on, every SM launch is checked against the functional model as it
  // runs; the verdicts pile up until cleared.
  void set_lockstep(bool on);
  const std::vector<LockstepLaunch>& lockstep_launches() const;
  void clear_lockstep();

  // ---- warp timeline (sim/systemc/timeline_port.h, docs/timeline.md) ----
  // Records every cycle from now on, until write_timeline() ends the
  // recording and writes the JSON file ("" or why it could not).
  void start_timeline();
  bool timeline_recording() const;
  std::string write_timeline(const std::string& path);

  bool tracing() const;
  // Flushes and closes the trace (also done at exit).
  void close_trace();

  // Counts for docs/cosim.md: MMIO accesses and sc_start slices so far.
  uint64_t mmio_accesses() const { return mmio_accesses_; }
  uint64_t slices() const { return slices_; }

 private:
  explicit Testbench(const TbOptions& opt);
  void slice(uint64_t max_cycles);  // one sc_start, ended by sc_pause or the cycle limit

  TbModule* m_ = nullptr;  // never destroyed: SystemC owns it until exit
  uint64_t mmio_accesses_ = 0, slices_ = 0;
};

}  // namespace baresm::cosim
