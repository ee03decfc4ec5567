// The host driver's Transport (host_driver/transport.h) over the SystemC
// testbench: register accesses are bus cycles on the device's MMIO port,
// device-memory copies go straight into the memory model's backing store
// (the host's DMA, taking no device time), wait_irq() runs the simulation
// until the interrupt line rises or the timeout passes, delay() runs it.
// Device time is the simulated clock: CONFIG5.CLOCK_KHZ (100 MHz: 10 ns per
// cycle), so every timeout the driver takes is deterministic.
#pragma once

#include <memory>

#include "host_driver/transport.h"
#include "sim/systemc/testbench.h"

namespace baresm::cosim {

class ScTransport : public drv::Transport {
 public:
  explicit ScTransport(Testbench& tb) : tb_(tb) {}

  const char* name() const override { return "rtl"; }
  drv::Status mmio_read32(uint32_t offset, uint32_t* value) override;
  drv::Status mmio_write32(uint32_t offset, uint32_t value) override;
  drv::Status mem_read(uint32_t addr, void* dst, uint32_t len) override;
  drv::Status mem_write(uint32_t addr, const void* src, uint32_t len) override;
  drv::Status wait_irq(uint64_t timeout_ns, bool* asserted) override;
  drv::Status delay(uint64_t ns) override;
  uint64_t now_ns() override;

  Testbench& testbench() { return tb_; }
  uint64_t ns_to_cycles(uint64_t ns) const;

 private:
  Testbench& tb_;
};

struct RtlDeviceOptions {
  sim::MemModelConfig mem;  // the memory model for this device
  bool gto = false;
  TraceOptions trace;  // only when this is the process's first device
  // A warp timeline (docs/timeline.md) of everything from this power-on to
  // the process's exit, written to this file at exit; "" none.
  std::string timeline;
};

// A device at power-on: the process's testbench (created at the first call)
// with its reset pin pulsed, its memory zeroed and the memory model set up
// as asked.
std::unique_ptr<ScTransport> open_rtl_device(const RtlDeviceOptions& o = {});

}  // namespace baresm::cosim
