// The golden functional model: runs one launch of a kernel over device memory
// with the SIMT semantics of docs/isa.md. It is what every other backend (the
// verilated RTL, the FPGA board) is compared against.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "isa/isa.h"
#include "isa/mem_poison.h"

namespace baresm::iss {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// Flat byte-addressed device memory [0, size).
class DeviceMemory {
 public:
  explicit DeviceMemory(uint32_t size) : bytes_(size, 0) {}
  uint32_t size() const { return uint32_t(bytes_.size()); }
  bool contains(uint32_t addr, uint32_t len) const {
    return uint64_t(addr) + len <= bytes_.size();
  }
  // Out-of-range accesses are programming errors of the caller: they throw
  // std::out_of_range (the kernel-visible checks are the launch's windows).
  void read(uint32_t addr, void* dst, uint32_t len) const;
  void write(uint32_t addr, const void* src, uint32_t len);
  uint32_t read32(uint32_t addr) const;
  void write32(uint32_t addr, uint32_t value);
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Injected uncorrectable errors: kernels' accesses to these lines fault
  // (FETCH_ERROR, MEMORY_ERROR); host copies are not affected.
  PoisonMap& poison() { return poison_; }
  const PoisonMap& poison() const { return poison_; }

 private:
  std::vector<uint8_t> bytes_;
  PoisonMap poison_;
};

// A range of device memory a launch may touch with global loads/stores/atomics.
struct Window {
  uint32_t base = 0;
  uint32_t size = 0;
};

struct LaunchParams {
  uint32_t entry_pc = 0;   // device address of the kernel's first instruction
  uint32_t code_base = 0;  // instructions may be fetched from [code_base, code_base+code_size)
  uint32_t code_size = 0;
  Dim3 grid, block;
  uint32_t param_addr = 0;  // device address of the packed parameter buffer
  uint32_t param_size = 0;
  uint32_t regs_per_thread = isa::kMaxRegsPerThread;
  uint32_t shared_bytes = 0;
  std::vector<Window> windows;
  // Out of reach of every global access whatever the windows (the device's
  // PROT_BASE/PROT_SIZE): an access touching it is OUT_OF_WINDOW.
  Window protect;
  uint64_t instr_budget = 0;  // watchdog: warp-instructions per launch; 0 = none
  uint32_t smid = 0;
};

// The fault table (contract/faults.def), numbered from NONE = 0 in table order.
enum class FaultKind : uint8_t {
#define BSM_FAULT(kind, err, status, addr, desc) kind,
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};
const char* fault_kind_name(FaultKind k);  // "OUT_OF_WINDOW", ...

// What a fault's address word holds (the table's ADDR column).
enum class FaultAddr : uint8_t {
  NONE,           // nothing
  ADDRESS,        // a memory address: FaultInfo::addr
  WAITING_WARPS,  // bit w = warp w of the CTA waits: FaultInfo::waiting_warps
};
FaultAddr fault_addr_of(FaultKind k);
// The number of fault kinds, NONE included (kinds are 0 .. kNumFaultKinds-1).
constexpr int kNumFaultKinds = 0
#define BSM_FAULT(kind, err, status, addr, desc) +1
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
    ;

struct FaultInfo {
  FaultKind kind = FaultKind::NONE;
  Dim3 cta{0, 0, 0};          // CTA coordinates
  uint32_t warp = 0;          // warp index inside the CTA
  uint32_t lane = 0;
  uint32_t pc = 0;            // device address of the faulting instruction
  uint32_t addr = 0;          // memory address for OUT_OF_WINDOW / MISALIGNED / *_ERROR
  uint64_t waiting_warps = 0; // BARRIER_DEADLOCK: bit w = warp w of the CTA waits
  std::string detail;         // human-readable, e.g. "warp 1 at bar 1, warp 0 at bar 0"
  bool ok() const { return kind == FaultKind::NONE; }
  std::string describe() const;  // one-line report
};

struct LaunchStats {
  uint64_t warp_instrs = 0;    // retired warp-instructions (guard-false ones included)
  uint64_t thread_instrs = 0;  // lanes with a true guard, summed
  uint64_t ctas = 0;
  uint64_t divergent_branches = 0;
  uint64_t barriers = 0;       // barrier releases
};

struct LaunchResult {
  FaultInfo fault;
  LaunchStats stats;
  // The launch itself was invalid (host-side error: bad dimensions, register
  // count, code or parameter range outside memory, ...); nothing ran.
  bool launch_error = false;
  std::string launch_error_message;
  bool ok() const { return fault.ok() && !launch_error; }
};

// One retired warp-instruction, for lockstep co-simulation and tracing.
struct StoreRecord {
  bool shared = false;
  uint32_t addr = 0;
  uint8_t size = 0;   // bytes
  uint32_t value = 0;
  uint8_t lane = 0;
};
struct RetireEvent {
  uint32_t cta_linear = 0;
  uint32_t warp = 0;
  uint32_t pc = 0;
  isa::Instr instr;
  uint32_t warp_mask = 0;  // lanes of the executing stack entry
  uint32_t exec_mask = 0;  // ... whose guard was true
  bool wrote_reg = false;
  uint8_t rd = 0;
  std::array<uint32_t, 32> reg_values{};  // valid for lanes in exec_mask
  bool wrote_pred = false;
  uint8_t pd = 0;
  uint32_t pred_values = 0;  // bit per lane, valid for lanes in exec_mask
  std::vector<StoreRecord> stores;  // in lane order; atomics included
  std::array<uint32_t, 32> mem_addrs{};  // loads, stores, atomics: each exec lane's address
};

struct ModelConfig {
  uint32_t stack_depth = 16;  // reconvergence-stack entries per warp (D)
  uint32_t smid = 0;
  bool has_fpu = true;  // false: every FPU instruction is ILLEGAL_INSTR (CONFIG6.HAS_FPU)
};

class FunctionalModel {
 public:
  FunctionalModel(DeviceMemory& mem, ModelConfig cfg = {});
  // Runs the whole grid. CTAs run one after another in linear order (x fastest);
  // the warps of a CTA interleave one instruction at a time in warp order.
  LaunchResult run(const LaunchParams& p);
  void set_retire_callback(std::function<void(const RetireEvent&)> cb) { retire_cb_ = std::move(cb); }

 private:
  DeviceMemory& mem_;
  ModelConfig cfg_;
  std::function<void(const RetireEvent&)> retire_cb_;
};

// The functional model stepped one warp-instruction at a time, in an order
// the caller chooses, with any number of CTAs resident at once: the reference
// of the lockstep co-simulation (sim/harness/lockstep.h), which steps it in
// the order the RTL issues. Each CTA starts on its first step; memory is the
// one DeviceMemory, shared by all CTAs, as on the device.
class LockstepModel {
 public:
  LockstepModel(DeviceMemory& mem, const ModelConfig& cfg, const LaunchParams& p);
  ~LockstepModel();
  LockstepModel(const LockstepModel&) = delete;
  LockstepModel& operator=(const LockstepModel&) = delete;

  // Non-empty when the launch is invalid (nothing can be stepped).
  const std::string& launch_error() const;

  struct WarpView {
    bool exists = false;  // the warp index is inside the CTA
    uint32_t pc = 0;      // top of the reconvergence stack
    uint32_t mask = 0;    // its lanes
    bool exited = false, waiting = false;
    uint8_t bar_id = 0;
    uint32_t depth = 0;   // reconvergence-stack entries in use
  };
  // A warp's state before its next step; starts the CTA when it has not run yet.
  WarpView warp(uint32_t cta_linear, uint32_t warp);

  // Executes the warp's next instruction and fills *ev (when not null) with
  // what it did. Returns false when it faulted or left its CTA deadlocked:
  // fault() says how; the model then takes no more steps.
  bool step(uint32_t cta_linear, uint32_t warp, RetireEvent* ev);
  const FaultInfo& fault() const { return fault_; }
  bool faulted() const { return !fault_.ok(); }

  // Overrides one lane of a register (values the two sides may legitimately
  // disagree on, such as S2R CLOCK, are taken from the device).
  void set_reg(uint32_t cta_linear, uint32_t warp, uint8_t reg, uint32_t lane, uint32_t value);

  uint64_t ctas_started() const { return started_; }
  uint64_t ctas_finished() const { return finished_; }  // every warp exited
  uint64_t ctas_in_grid() const { return grid_ctas_; }
  uint64_t steps() const { return steps_; }

 private:
  struct Impl;
  Impl* cta(uint32_t cta_linear);
  DeviceMemory& mem_;
  ModelConfig cfg_;
  LaunchParams p_;
  std::string launch_error_;
  FaultInfo fault_;
  uint64_t started_ = 0, finished_ = 0, grid_ctas_ = 0, steps_ = 0;
  std::vector<std::pair<uint32_t, Impl*>> ctas_;  // resident CTAs (few): linear id -> engine
  std::unordered_set<uint32_t> done_;             // CTAs whose warps have all exited
};

}  // namespace baresm::iss
