// Lockstep co-simulation of the verilated SM against the functional model.
//
// The checker watches the SM's trace port every cycle (SmObserver) and steps
// iss::LockstepModel one warp-instruction at each scheduler grant, in the
// order the RTL issues, so the model follows every choice the RTL makes
// (which warp, which CTA in which slot, contended atomics, barrier order).
// It compares, as they happen:
//   - at issue: the warp exists and may run, its pc and stack-top mask, its
//     guard-true lanes, and whether it faults at issue;
//   - every register-file write (any port, any beat): the register, the lanes
//     and every lane's value;
//   - every predicate write: the predicate, the lanes and their values;
//   - every global store the memory port accepts: each strobed byte against
//     the bytes the model stored, in order;
// and at the end of the launch: the fault (kind, pc, CTA, warp, lane,
// address), that every expected write happened, that every CTA ran to the
// end, and device memory byte for byte. The first difference stops the run
// with a report naming the cycle, CTA, warp, pc, the disassembled
// instruction, the lane, and the expected and actual values.
// docs/verification.md, "Lockstep co-simulation".
#pragma once

#include <cstdint>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/iss.h"
#include "sim/harness/sm_harness.h"

namespace baresm::sim {

struct LockstepStats {
  uint64_t issues = 0;        // grants stepped in the model
  uint64_t lane_values = 0;   // register and predicate lanes compared
  uint64_t store_bytes = 0;   // global store bytes compared at the port
  uint64_t max_resident_ctas = 0;  // CTAs that had started and not finished, at most
};

class LockstepChecker final : public SmObserver {
 public:
  // mem: device memory as it is when the launch starts (the checker keeps
  // its own copy for the model); p: the launch as the model takes it.
  LockstepChecker(const std::vector<uint8_t>& mem, const iss::LaunchParams& p, const SmParams& sm);
  ~LockstepChecker() override;

  bool on_cycle(uint64_t cycle, SmDut& dut, const MemRequest* accepted) override;
  // The same for a trace read some other way (the SystemC top): `accepted` is
  // the SM's memory request taken at this edge, if any.
  bool check_cycle(uint64_t cycle, const SmTrace& t, const MemRequest* accepted);
  // The end of the launch: the run's result and device memory after it.
  // Returns ok(); report() says what differed.
  bool finish(const SmRunResult& r, const std::vector<uint8_t>& rtl_mem);

  // Compare only the launch's windows at the end, not all of device memory
  // (inside the device top the host and the command processor write too).
  void compare_windows_only(bool on) { windows_only_ = on; }
  // Poisoned lines of device memory (the RTL's memory model fails them too):
  // the model reports MEMORY_ERROR where they are accessed.
  void set_poison(const iss::PoisonMap& p) { mem_.poison() = p; }

  bool ok() const { return error_.empty(); }
  const std::string& report() const { return error_; }
  const LockstepStats& stats() const { return stats_; }

 private:
  struct Origin {  // the instruction an expected effect comes from
    uint64_t cycle = 0;
    uint32_t cta = 0, warp = 0, slot = 0, pc = 0;
    isa::Instr instr;
  };
  struct Pending {  // a register or predicate write the RTL still owes
    Origin from;
    uint32_t lanes = 0;  // lanes not written yet
    std::array<uint32_t, 32> values{};
    bool from_device = false;  // S2R CLOCK: the model takes the RTL's value
  };
  struct SlotInfo {
    bool valid = false;
    uint32_t cta = 0, warp = 0;
    Origin last;  // its latest issue, for reports
  };

  void on_issue(uint64_t cycle, const SmTrace& t);
  void on_rf_write(uint64_t cycle, const SmTrace::RfWrite& w);
  void on_pred_write(uint64_t cycle, const SmTrace::PredWrite& w);
  void on_store(uint64_t cycle, const MemRequest& q);
  void mismatch(uint64_t cycle, const Origin* from, const std::string& what);
  void cover_issue(const iss::RetireEvent& ev, uint32_t depth);
  std::string where(const Origin& o) const;
  uint32_t linear(const uint32_t cta[3]) const;

  iss::LaunchParams p_;
  SmParams sm_;
  uint32_t beats_ = 1, entries_per_warp_ = 1;
  iss::DeviceMemory mem_;
  std::unique_ptr<iss::LockstepModel> model_;
  std::vector<SlotInfo> slots_;
  std::map<uint64_t, std::deque<Pending>> regs_;   // (slot << 8 | reg) -> in issue order
  std::map<uint64_t, std::deque<Pending>> preds_;  // (slot << 8 | pred)
  // A byte a global store of the model wrote, as the port must show it:
  // when several lanes of one STG write a byte, a coalescing SM writes the
  // last lane's value, the thread-serial SM (SmParams::serial) each lane's.
  struct StoreByte {
    uint8_t value = 0;
    Origin from;
  };
  std::map<uint32_t, std::deque<StoreByte>> stores_;  // byte address -> values, in order
  bool fault_expected_ = false;  // the model faulted: the RTL must report that fault
  bool windows_only_ = false;
  Origin fault_origin_;
  std::string error_;
  LockstepStats stats_;
  std::array<uint64_t, kNumWarpStates> state_cycles_{};  // coverage, recorded at finish()
  std::vector<uint8_t> states_;
};

}  // namespace baresm::sim
