// The bare verilated SM as a host-driver transport: the functional device
// model's command processor, rings and device memory (cq_model/model_device.h)
// with the launches executed by the SM (bare_sm_executor.h). The driver, and
// through it the samples, reach the SM exactly as they reach the
// model and the SystemC top; the SM's counters come back in the completion
// entries. Where the SystemC top (sim/systemc) runs the RTL command processor
// too, this runs only the SM, so it builds per SM configuration in seconds
// and can check every launch in lockstep with the model.
//
// The device's CONFIG registers describe the SM (device_config()): a functional
// model given the same configuration refuses exactly the launches this one
// refuses, and the driver's deterministic allocator gives both the same
// addresses for the same calls, so their memories can be compared byte for byte.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cq_model/model_device.h"
#include "host_driver/model_transport.h"
#include "sim/harness/bare_sm_executor.h"

namespace baresm::sim {

struct BareSmConfig {
  uint32_t mem_bytes = 16u << 20;
  BareSmOptions sm;
};

class BareSmTransport : public drv::Transport {
 public:
  BareSmTransport(std::unique_ptr<SmDut> dut, const BareSmConfig& cfg = {});
  ~BareSmTransport() override;

  // The functional device model's configuration for an SM with these
  // parameters (CONFIG0..CONFIG6 as the SM's), with mem_bytes of memory.
  static cq::ModelDeviceConfig device_config(const SmParams& p, uint32_t mem_bytes);

  const char* name() const override { return "bare-sm"; }
  drv::Status mmio_read32(uint32_t offset, uint32_t* value) override { return model_.mmio_read32(offset, value); }
  drv::Status mmio_write32(uint32_t offset, uint32_t value) override { return model_.mmio_write32(offset, value); }
  drv::Status mem_read(uint32_t addr, void* dst, uint32_t len) override { return model_.mem_read(addr, dst, len); }
  drv::Status mem_write(uint32_t addr, const void* src, uint32_t len) override {
    return model_.mem_write(addr, src, len);
  }
  drv::Status wait_irq(uint64_t timeout_ns, bool* asserted) override { return model_.wait_irq(timeout_ns, asserted); }
  drv::Status delay(uint64_t ns) override { return model_.delay(ns); }
  uint64_t now_ns() override { return model_.now_ns(); }

  cq::ModelDevice& device() { return *device_; }
  BareSmExecutor& sm() { return *exec_; }
  const SmParams& params() const { return exec_->harness().params(); }

 private:
  BareSmTransport(std::unique_ptr<SmHarness> harness, const BareSmConfig& cfg);

  BareSmExecutor* exec_ = nullptr;  // owned by device_; set while device_ is built (so declared first)
  std::unique_ptr<cq::ModelDevice> device_;
  drv::ModelTransport model_;
};

}  // namespace baresm::sim
