#include "sim/systemc/host_port.h"

namespace baresm::cosim {

HostPort::HostPort(sc_core::sc_module_name name)
    : sc_core::sc_module(name),
      clk("clk"),
      rst_n("rst_n"),
      sched_gto("sched_gto"),
      req_valid("req_valid"),
      req_ready("req_ready"),
      req_addr("req_addr"),
      req_write("req_write"),
      req_wdata("req_wdata"),
      rsp_valid("rsp_valid"),
      rsp_rdata("rsp_rdata"),
      irq("irq"),
      cp_state("cp_state") {
  SC_HAS_PROCESS(HostPort);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void HostPort::start_access(uint32_t addr, bool write, uint32_t wdata) {
  addr_ = addr;
  write_ = write;
  wdata_ = wdata;
  state_ = REQUESTED;
}

// One rising edge. Inputs read here are what the device drove during the
// cycle that just ended; outputs written here are seen from this edge on.
void HostPort::on_clock() {
  ++cycle_;
  bool pause = false;

  // The reset pin (low while reset_left_ counts down).
  if (reset_left_ != 0) {
    --reset_left_;
    rst_n.write(false);
    reset_released_ = false;
  } else {
    rst_n.write(true);
    reset_released_ = true;
  }
  sched_gto.write(gto_);

  // MMIO: present, accepted, answered.
  switch (state_) {
    case PRESENTED:
      if (req_ready.read()) {
        req_valid.write(false);
        state_ = WAITING;
      }
      break;
    case WAITING:
      if (rsp_valid.read()) {
        rdata_ = rsp_rdata.read();
        state_ = DONE;
        pause = true;
      }
      break;
    default:
      break;
  }
  if (state_ == REQUESTED && reset_released_) {
    req_valid.write(true);
    req_addr.write(addr_);
    req_write.write(write_);
    req_wdata.write(wdata_);
    state_ = PRESENTED;
  }

  if (pause_on_irq_ && irq.read()) pause = true;
  if (watch_state_ != ~0u && cp_state.read() == watch_state_) {
    watch_hit_ = true;
    pause = true;
  }
  if (cycle_ >= stop_at_) pause = true;
  if (pause) sc_core::sc_pause();
}

}  // namespace baresm::cosim
