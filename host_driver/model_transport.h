// Transport over the functional device model (cq_model/model_device.h).
// Device time is model ticks: one tick is one engine cycle at
// CONFIG5.CLOCK_KHZ, and it passes only in wait_irq() and delay(), so every
// timeout the driver takes is deterministic.
#pragma once

#include <memory>

#include "cq_model/model_device.h"
#include "host_driver/transport.h"

namespace baresm::drv {

class ModelTransport : public Transport {
 public:
  // Drives a device the caller owns.
  explicit ModelTransport(cq::ModelDevice* device);
  // Creates and owns its device.
  explicit ModelTransport(const cq::ModelDeviceConfig& cfg);
  ~ModelTransport() override;

  const char* name() const override { return "model"; }
  Status mmio_read32(uint32_t offset, uint32_t* value) override;
  Status mmio_write32(uint32_t offset, uint32_t value) override;
  Status mem_read(uint32_t addr, void* dst, uint32_t len) override;
  Status mem_write(uint32_t addr, const void* src, uint32_t len) override;
  Status wait_irq(uint64_t timeout_ns, bool* asserted) override;
  Status delay(uint64_t ns) override;
  uint64_t now_ns() override;

  cq::ModelDevice& device() { return *dev_; }
  uint64_t ticks() const { return dev_->cycles(); }
  uint64_t ns_to_ticks(uint64_t ns) const;

  struct Stats {
    uint64_t mmio_reads = 0, mmio_writes = 0, mem_reads = 0, mem_writes = 0, mem_bytes = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  std::unique_ptr<cq::ModelDevice> owned_;
  cq::ModelDevice* dev_;
  Stats stats_;
};

}  // namespace baresm::drv
