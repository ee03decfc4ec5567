// The only way the driver core touches a device: 32-bit register accesses,
// device-memory copies, the interrupt line, and a clock. Implementations:
// ModelTransport (the functional device model, model_transport.h); a
// SystemC/verilated-RTL transport and a serial-link (FPGA board) transport
// implement the same interface.
//
// Time is the device's: on a simulated device, time passes only inside
// wait_irq()/delay() (and whatever an access costs), so timeouts are
// deterministic there and wall-clock on real hardware.
#pragma once

#include <cstdint>

#include "host_driver/status.h"

namespace baresm::drv {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;

  // Register block (docs/registers.md). Offsets are byte offsets, 4-aligned.
  virtual Status mmio_read32(uint32_t offset, uint32_t* value) = 0;
  virtual Status mmio_write32(uint32_t offset, uint32_t value) = 0;

  // Device memory [0, CONFIG4.MEM_BYTES). TRANSPORT_ERROR when out of range.
  virtual Status mem_read(uint32_t addr, void* dst, uint32_t len) = 0;
  virtual Status mem_write(uint32_t addr, const void* src, uint32_t len) = 0;

  // Returns when the interrupt line is asserted (*asserted = true) or after
  // timeout_ns of device time (*asserted = false). Returns at once when the
  // line is already high.
  virtual Status wait_irq(uint64_t timeout_ns, bool* asserted) = 0;
  // Lets ns of device time pass (polling mode, reset waits).
  virtual Status delay(uint64_t ns) = 0;
  // Device time in nanoseconds (monotonic).
  virtual uint64_t now_ns() = 0;
};

}  // namespace baresm::drv
