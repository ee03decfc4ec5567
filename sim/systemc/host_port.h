// The host's side of the device pins: the MMIO bus master (one access at a
// time: request presented until accepted, then the response awaited), the
// reset pin, the scheduler-policy pin, and the interrupt line. Clocked by
// the testbench's clock; the host thread sets up what it wants between
// sc_start() slices, and this module ends the slice (sc_pause) when it has
// happened: an MMIO response arrived, the interrupt line is high, or the
// cycle the host asked for was reached.
#pragma once

#include <systemc.h>

#include <cstdint>

namespace baresm::cosim {

class HostPort : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_out<bool> rst_n;
  sc_core::sc_out<bool> sched_gto;
  sc_core::sc_out<bool> req_valid;
  sc_core::sc_in<bool> req_ready;
  sc_core::sc_out<uint32_t> req_addr;
  sc_core::sc_out<bool> req_write;
  sc_core::sc_out<uint32_t> req_wdata;
  sc_core::sc_in<bool> rsp_valid;
  sc_core::sc_in<uint32_t> rsp_rdata;
  sc_core::sc_in<bool> irq;
  sc_core::sc_in<uint32_t> cp_state;  // command-processor engine state (a watch condition)

  explicit HostPort(sc_core::sc_module_name name);

  // ---- set by the host thread between slices ----
  void start_access(uint32_t addr, bool write, uint32_t wdata);
  bool access_done() const { return state_ == DONE; }
  uint32_t access_result() {
    state_ = IDLE;
    return rdata_;
  }
  void hold_reset(uint32_t cycles) { reset_left_ = cycles; }
  bool in_reset() const { return reset_left_ != 0 || !reset_released_; }
  void set_gto(bool g) { gto_ = g; }
  void pause_on_irq(bool on) { pause_on_irq_ = on; }
  void stop_at(uint64_t cycle) { stop_at_ = cycle; }
  // Pause when the engine state is `state` (~0u: never).
  void pause_on_cp_state(uint32_t state) {
    watch_state_ = state;
    watch_hit_ = false;
  }
  bool cp_state_seen() const { return watch_hit_; }

  uint64_t cycle() const { return cycle_; }

 private:
  enum State { IDLE, REQUESTED, PRESENTED, WAITING, DONE };
  void on_clock();

  State state_ = IDLE;
  uint32_t addr_ = 0, wdata_ = 0, rdata_ = 0;
  bool write_ = false;
  uint32_t reset_left_ = 0;
  bool reset_released_ = false;
  bool gto_ = false;
  bool pause_on_irq_ = false;
  uint32_t watch_state_ = ~0u;
  bool watch_hit_ = false;
  uint64_t stop_at_ = ~0ull;
  uint64_t cycle_ = 0;
};

}  // namespace baresm::cosim
