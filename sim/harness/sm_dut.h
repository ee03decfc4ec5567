// The verilated SM seen through a small, configuration-independent interface.
//
// Every parameter set of rtl/sm/baresm_sm.sv is its own Verilator build with
// its own port widths; each build's library defines make_sm_dut() (in
// sim/harness/verilated_sm.cpp, compiled once per configuration) and the rest
// of the harness (sm_harness.h, bare_sm_executor.h) only ever talks to SmDut.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/harness/launch_layout.h"
#include "sim/harness/mem_model.h"
#include "sim/harness/state_names.h"

namespace baresm::sim {

// The SM's ID/CONFIG words (config_o), decoded.
struct SmParams {
  uint32_t arch_id = 0;
  uint32_t lanes = 0, warps = 0, regs = 0, stack_depth = 0;
  uint32_t rf_depth = 0;       // register-file entries per lane
  uint32_t shared_bytes = 0;
  uint32_t banks = 0, cta_slots = 0, fpu_latency = 0, ic_lines = 0;
  uint32_t line_bytes = 0;
  uint32_t id_bits = 0, windows = 0, smid = 0, version = 0;
  bool has_fpu = true;         // HasFpu: without it FPU instructions are ILLEGAL_INSTR
  bool serial = false;         // the thread-serial SM (baresm_ssm): each lane's store is its own write
  bool atomic_rmw = false;     // a global atomic is the SM's read and write of the word (rtl/msm), not at memory
  uint32_t rf_banks = 0;       // register-file RAMs (baresm_sm_pkg::rf_bank)
  uint32_t load_slots = 0;     // global loads waiting for memory outside the LSU's stage A
  uint32_t gather_depth = 0;   // gather-buffer entries (memory/SHFL instructions on the way to the LSU)
};

// Launch descriptor bit layout: contract/launch.def (sim/harness/launch_layout.h),
// room for kLaunchWindows windows (baresm_launch_pkg::MAX_WINDOWS).
constexpr int kLaunchBits = launch_layout::kLaunchBits;
constexpr int kLaunchWindows = launch_layout::kMaxWindows;
constexpr int kLaunchWords = (kLaunchBits + 31) / 32;

struct SmStatus {
  bool launch_ready = false, busy = false, done = false, cfg_error = false;
  uint8_t fault_kind = 0;
  uint32_t fault_cta[3] = {0, 0, 0};
  uint32_t fault_warp = 0, fault_lane = 0, fault_pc = 0, fault_addr = 0, fault_waiting = 0;
};

struct SmCounters {
  uint64_t cycles = 0, instrs = 0, stalls = 0;
  uint32_t smem_passes = 0, gmem_reqs = 0, ifills = 0;
  std::array<uint64_t, kNumWarpStates> state_cycles{};  // warp-cycles per state
  uint64_t divergent_branches = 0, barrier_releases = 0, thread_instrs = 0, ctas = 0;
};

// One cycle of the SM's trace port (baresm_sm trace_*_o, simulation only):
// what the lockstep checker (sim/harness/lockstep.h) compares with the model.
struct SmTrace {
  bool issue = false;        // a scheduler grant this cycle ...
  bool issue_fault = false;  // ... that faulted at issue instead of issuing
  uint32_t slot = 0, pc = 0, tmask = 0, exec = 0;
  uint32_t cta[3] = {0, 0, 0};
  uint32_t wic = 0;  // warp index in the CTA
  struct RfWrite {
    uint32_t entry = 0;  // register-file entry: slot * regs * beats + reg * beats + beat
    uint32_t lanes = 0;  // NumLanes bits: lanes of the beat written
    std::array<uint32_t, 32> data{};
  };
  int rf_writes = 0;
  std::array<RfWrite, 3> rf;
  struct PredWrite {  // the ALU's (ISETP, VOTE.ANY/ALL) and the FPU's (FSETP)
    uint32_t slot = 0, pd = 0;
    uint32_t mask = 0, bits = 0;  // warp lanes written, their values
  };
  int pred_writes = 0;
  std::array<PredWrite, 2> pw;
};

class SmDut {
 public:
  virtual ~SmDut() = default;
  virtual SmParams params() = 0;
  // Inputs for the current cycle.
  virtual void set_reset(bool asserted) = 0;
  virtual void set_launch(bool valid, const std::array<uint32_t, kLaunchWords>& desc, bool gto) = 0;
  // rsp_err: the response is a failed request (MEMORY_ERROR: no data, no effect).
  virtual void set_mem(bool req_ready, bool rsp_valid, uint32_t rsp_id, const uint8_t* rsp_data,
                       bool rsp_err) = 0;
  // Settles the outputs with the clock low.
  virtual void eval() = 0;
  // A rising clock edge.
  virtual void clock() = 0;
  // Outputs of the current cycle (after eval()).
  virtual SmStatus status() = 0;
  virtual bool mem_req(MemRequest* out) = 0;  // true when valid; fills *out then
  virtual bool mem_rsp_ready() = 0;
  // The launch's counters, read through the SM's report port: clocks the SM
  // once per word (call it after the launch ended).
  virtual SmCounters counters() = 0;
  virtual void warp_states(std::vector<uint8_t>* out) = 0;
  virtual void trace(SmTrace* out) = 0;
};

// Defined by each verilated configuration's library.
std::unique_ptr<SmDut> make_sm_dut();

}  // namespace baresm::sim
