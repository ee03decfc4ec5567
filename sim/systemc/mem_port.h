// The device-memory module: sim::MemModel (latency, bandwidth,
// back-pressure, out-of-order responses, stall injection, all from one seed)
// behind the device's memory port, as an sc_module clocked by the
// testbench's clock. The reset pin also resets the memory side: whatever
// was in flight is dropped (the device's memory port requires it, see
// rtl/baresm_top.sv).
#pragma once

#include <systemc.h>

#include <memory>
#include <utility>
#include <vector>

#include "sim/harness/mem_model.h"
#include "sim/systemc/sc_types.h"
#include "sim/systemc/testbench.h"

namespace baresm::cosim {

class DeviceMemoryPort : public sc_core::sc_module {
 public:
  static constexpr int kLineBytes = int(TopParams::kLineBytes);
  static constexpr int kLineBits = kLineBytes * 8;
  static constexpr int kIdBits = int(TopParams::kIdBits);
  static_assert(kLineBytes == int(iss::PoisonMap::kLineBytes),
                "poisoned lines are the device's memory lines on every backend");

  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;
  sc_core::sc_in<bool> req_valid;
  sc_core::sc_out<bool> req_ready;
  sc_core::sc_in<vl_t<kIdBits>> req_id;
  sc_core::sc_in<uint32_t> req_addr;
  sc_core::sc_in<uint32_t> req_op;
  sc_core::sc_in<uint32_t> req_amo;
  sc_core::sc_in<vl_t<kLineBits>> req_wdata;
  sc_core::sc_in<vl_t<kLineBytes>> req_wstrb;
  sc_core::sc_out<bool> rsp_valid;
  sc_core::sc_in<bool> rsp_ready;
  sc_core::sc_out<vl_t<kIdBits>> rsp_id;
  sc_core::sc_out<vl_t<kLineBits>> rsp_rdata;
  sc_core::sc_out<bool> rsp_err;

  DeviceMemoryPort(sc_core::sc_module_name name, std::vector<uint8_t>& mem);

  // Injected uncorrectable errors: every request touching a poisoned line is
  // answered with rsp_err (isa/mem_poison.h); cleared by configure().
  iss::PoisonMap& poison() { return poison_; }

  // New settings (a power-on): the model is rebuilt, nothing in flight, no line poisoned.
  void configure(const sim::MemModelConfig& cfg);
  const sim::MemCounters& counters() const { return model_->counters(); }
  // The memory answers nothing and accepts nothing for `cycles` cycles (its
  // own time stands still meanwhile): a stall injected by a test.
  void freeze(uint64_t cycles) { frozen_ = cycles; }
  // Byte ranges [first, last] the command processor wrote (id top bit set):
  // a test checks they all lie inside completion rings.
  const std::vector<std::pair<uint32_t, uint32_t>>& cp_writes() const { return cp_writes_; }
  void clear_cp_writes() { cp_writes_.clear(); }
  sim::MemModel& model() { return *model_; }

 private:
  void on_clock();
  void drive_outputs();

  std::vector<uint8_t>& mem_;
  iss::PoisonMap poison_;
  std::unique_ptr<sim::MemModel> model_;
  sim::MemRequest req_;
  vl_t<kLineBits> rdata_;
  uint64_t frozen_ = 0;
  bool frozen_active_ = false;
  std::vector<std::pair<uint32_t, uint32_t>> cp_writes_;
};

}  // namespace baresm::cosim
