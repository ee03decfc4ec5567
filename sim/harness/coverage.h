// Functional coverage of the RTL suites: what the directed, sample and random
// tests make the SM (and the command processor) do, counted in named bins.
//
// The lockstep checkers (sim/harness/lockstep.h, sim/systemc/sm_lockstep.h)
// record every bin as they watch a run. Each test process adds its counts
// to one file in $BARESM_COVERAGE_DIR (nothing is recorded when it is not
// set); `coverage_report` (tests/rtl_sm) merges the files of a whole
// `make test` against the full list of bins (Coverage::universe()) and
// writes build/coverage.txt with every bin that was never hit.
//
// Bin names are "group/detail":
//   op/<MNEMONIC>/<mod>        every opcode with every modifier value it takes
//   guard/<MNEMONIC>/<PT|P|!P> every opcode under each guard polarity
//   div_depth/<d>              reconvergence-stack depth reached (1..16)
//   smem_passes/<k>            passes of a shared access (k-way conflict, 1..32)
//   smem/broadcast             lanes of one shared access reading one word
//   gmem_lines/<n>             lines a global access coalesces into (1..32)
//   bar_id/<i>, bar/partial, bar/all    barrier ids, with and without a count
//   fault/<KIND>               every fault kind the SM reports
//   warp_state/<name>          every warp state
//   cp_state/<name>            every command-processor engine state
//   cp_queue/<q>               a completion written for each queue pair
//   cp_ring/<event>            sq_wrap, cq_wrap (a record in the ring's last
//                              slot, the next in slot 0), cq_phase0 (an entry
//                              of an odd lap), sq_full (the host filled its
//                              submission ring), cq_full (a queue with work
//                              waits for its host to consume completions)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "sim/harness/state_names.h"

namespace baresm::sim {

class Coverage {
 public:
  static Coverage& get();  // the process's counts, written out at exit
  void hit(const std::string& bin, uint64_t n = 1);
  const std::map<std::string, uint64_t>& counts() const { return counts_; }
  void write(const std::string& path) const;  // "count bin" lines

  // Every bin the suites should hit.
  static std::vector<std::string> universe();
  // Helpers for the bins that need a name.
  static std::string op_bin(const isa::Instr& in);
  static std::string guard_bin(const isa::Instr& in);

 private:
  Coverage() = default;
  ~Coverage();
  std::map<std::string, uint64_t> counts_;
};

// The command processor's and the warp states' names: state_names.h.
// Queue pairs of the device the cp_queue bins cover (the SystemC top's
// NumQueues: checked where the bins are recorded, sim/systemc/sm_lockstep.cpp).
constexpr uint32_t kCoveredCpQueues = 4;

}  // namespace baresm::sim
