// The golden functional model: device memory, fault reports, and the launch
// engine (isa/iss_exec.cpp). Semantics: docs/isa.md; every decision the ISA
// leaves open is written down in docs/functional-model.md.
#include "isa/iss.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace baresm::iss {

namespace {
std::string range_text(uint32_t addr, uint32_t len, size_t size) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "device memory access [0x%08x, +%u) outside [0, 0x%zx)", addr, len,
                size);
  return buf;
}
}  // namespace

void DeviceMemory::read(uint32_t addr, void* dst, uint32_t len) const {
  if (!contains(addr, len)) throw std::out_of_range(range_text(addr, len, bytes_.size()));
  if (len) std::memcpy(dst, bytes_.data() + addr, len);
}

void DeviceMemory::write(uint32_t addr, const void* src, uint32_t len) {
  if (!contains(addr, len)) throw std::out_of_range(range_text(addr, len, bytes_.size()));
  if (len) std::memcpy(bytes_.data() + addr, src, len);
}

uint32_t DeviceMemory::read32(uint32_t addr) const {
  if (!contains(addr, 4)) throw std::out_of_range(range_text(addr, 4, bytes_.size()));
  const uint8_t* p = bytes_.data() + addr;
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

void DeviceMemory::write32(uint32_t addr, uint32_t value) {
  if (!contains(addr, 4)) throw std::out_of_range(range_text(addr, 4, bytes_.size()));
  uint8_t* p = bytes_.data() + addr;
  p[0] = uint8_t(value);
  p[1] = uint8_t(value >> 8);
  p[2] = uint8_t(value >> 16);
  p[3] = uint8_t(value >> 24);
}

const char* fault_kind_name(FaultKind k) {
  switch (k) {
#define BSM_FAULT(kind, err, status, addr, desc) \
  case FaultKind::kind:                    \
    return #kind;
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return "UNKNOWN";
}

FaultAddr fault_addr_of(FaultKind k) {
  switch (k) {
#define BSM_FAULT(kind, err, status, addr, desc) \
  case FaultKind::kind:                          \
    return FaultAddr::addr;
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return FaultAddr::NONE;
}

std::string FaultInfo::describe() const {
  if (kind == FaultKind::NONE) return "no fault";
  char buf[192];
  std::snprintf(buf, sizeof buf, "%s at pc 0x%08x (cta (%u,%u,%u) warp %u lane %u)",
                fault_kind_name(kind), pc, cta.x, cta.y, cta.z, warp, lane);
  std::string s = buf;
  if (fault_addr_of(kind) == FaultAddr::ADDRESS) {
    std::snprintf(buf, sizeof buf, " address 0x%08x", addr);
    s += buf;
  }
  if (!detail.empty()) {
    s += ": ";
    s += detail;
  }
  return s;
}

}  // namespace baresm::iss
