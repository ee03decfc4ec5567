#include "sim/systemc/mem_port.h"

namespace baresm::cosim {

DeviceMemoryPort::DeviceMemoryPort(sc_core::sc_module_name name, std::vector<uint8_t>& mem)
    : sc_core::sc_module(name),
      clk("clk"),
      rst_n("rst_n"),
      req_valid("req_valid"),
      req_ready("req_ready"),
      req_id("req_id"),
      req_addr("req_addr"),
      req_op("req_op"),
      req_amo("req_amo"),
      req_wdata("req_wdata"),
      req_wstrb("req_wstrb"),
      rsp_valid("rsp_valid"),
      rsp_ready("rsp_ready"),
      rsp_id("rsp_id"),
      rsp_rdata("rsp_rdata"),
      rsp_err("rsp_err"),
      mem_(mem),
      rdata_() {
  configure(sim::MemModelConfig{});
  req_.wdata.assign(kLineBytes, 0);
  req_.wstrb.assign(kLineBytes, 0);
  SC_HAS_PROCESS(DeviceMemoryPort);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void DeviceMemoryPort::configure(const sim::MemModelConfig& cfg) {
  sim::MemModelConfig c = cfg;
  c.line_bytes = kLineBytes;
  poison_.clear();
  model_ = std::make_unique<sim::MemModel>(mem_, c, &poison_);
}

// One rising edge: the port's inputs are what the device drove during the
// cycle that just ended; the model's new outputs are seen by the device
// from this edge on.
void DeviceMemoryPort::on_clock() {
  if (!rst_n.read()) {
    model_->reset();
    frozen_ = 0;
    frozen_active_ = false;
    req_ready.write(false);
    rsp_valid.write(false);
    rsp_err.write(false);
    return;
  }
  if (frozen_active_) {
    // The port showed neither ready nor a response: nothing was exchanged.
    if (--frozen_ == 0) {
      frozen_active_ = false;
      drive_outputs();  // what the model has comes back on the port
    }
    return;
  }
  const bool valid = req_valid.read();
  if (valid && model_->req_ready()) {
    req_.id = uint32_t(req_id.read());
    req_.addr = req_addr.read();
    req_.op = sim::MemOp(req_op.read() & 3u);
    req_.amo = uint8_t(req_amo.read());
    to_bytes(req_wdata.read(), req_.wdata.data(), kLineBytes);
    const vl_t<kLineBytes> strb = req_wstrb.read();
    for (int i = 0; i < kLineBytes; ++i) req_.wstrb[size_t(i)] = bit_of(strb, i) ? 1 : 0;
    if (req_.op == sim::MemOp::WRITE && (req_.id >> (kIdBits - 1)) != 0) {
      int first = -1, last = -1;
      for (int i = 0; i < kLineBytes; ++i) {
        if (!req_.wstrb[size_t(i)]) continue;
        if (first < 0) first = i;
        last = i;
      }
      if (first >= 0) cp_writes_.push_back({req_.addr + uint32_t(first), req_.addr + uint32_t(last)});
    }
  }
  model_->tick(valid, req_, rsp_ready.read());
  if (frozen_ != 0) {
    frozen_active_ = true;
    req_ready.write(false);
    rsp_valid.write(false);
    return;
  }
  drive_outputs();
}

void DeviceMemoryPort::drive_outputs() {
  req_ready.write(model_->req_ready());
  const bool v = model_->rsp_valid();
  rsp_valid.write(v);
  if (v) {
    const sim::MemResponse& r = model_->rsp();
    rsp_id.write(vl_t<kIdBits>(r.id));
    rsp_err.write(r.error);
    from_bytes(r.rdata.data(), r.rdata.size(), &rdata_);
    rsp_rdata.write(rdata_);
  }
}

}  // namespace baresm::cosim
