#include "host_driver/model_transport.h"

namespace baresm::drv {

ModelTransport::ModelTransport(cq::ModelDevice* device) : dev_(device) {}
ModelTransport::ModelTransport(const cq::ModelDeviceConfig& cfg)
    : owned_(new cq::ModelDevice(cfg)), dev_(owned_.get()) {}
ModelTransport::~ModelTransport() = default;

Status ModelTransport::mmio_read32(uint32_t offset, uint32_t* value) {
  ++stats_.mmio_reads;
  if (!value) return Status::INVALID_VALUE;
  *value = dev_->reg_read(offset);
  return Status::OK;
}

Status ModelTransport::mmio_write32(uint32_t offset, uint32_t value) {
  ++stats_.mmio_writes;
  dev_->reg_write(offset, value);
  return Status::OK;
}

Status ModelTransport::mem_read(uint32_t addr, void* dst, uint32_t len) {
  ++stats_.mem_reads;
  stats_.mem_bytes += len;
  return dev_->mem_read(addr, dst, len) ? Status::OK : Status::TRANSPORT_ERROR;
}

Status ModelTransport::mem_write(uint32_t addr, const void* src, uint32_t len) {
  ++stats_.mem_writes;
  stats_.mem_bytes += len;
  return dev_->mem_write(addr, src, len) ? Status::OK : Status::TRANSPORT_ERROR;
}

uint64_t ModelTransport::ns_to_ticks(uint64_t ns) const {
  // ticks = ns * kHz / 1e6, rounded up, at least one.
  const uint64_t khz = dev_->config().clock_khz ? dev_->config().clock_khz : 1;
  const unsigned __int128 t = ((unsigned __int128)ns * khz + 999999) / 1000000;
  const uint64_t ticks = t > ~0ull ? ~0ull : uint64_t(t);
  return ticks ? ticks : 1;
}

Status ModelTransport::wait_irq(uint64_t timeout_ns, bool* asserted) {
  dev_->tick_until_irq(ns_to_ticks(timeout_ns));
  if (asserted) *asserted = dev_->irq_line();
  return Status::OK;
}

Status ModelTransport::delay(uint64_t ns) {
  dev_->tick(ns_to_ticks(ns));
  return Status::OK;
}

uint64_t ModelTransport::now_ns() {
  const uint64_t khz = dev_->config().clock_khz ? dev_->config().clock_khz : 1;
  return uint64_t((unsigned __int128)dev_->cycles() * 1000000 / khz);
}

}  // namespace baresm::drv
