#include "sim/systemc/sc_transport.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace baresm::cosim {

using drv::Status;

Status ScTransport::mmio_read32(uint32_t offset, uint32_t* value) {
  if (!value) return Status::INVALID_VALUE;
  if (offset >= 1024 || offset % 4) return Status::TRANSPORT_ERROR;
  *value = tb_.mmio_read(offset);
  return Status::OK;
}

Status ScTransport::mmio_write32(uint32_t offset, uint32_t value) {
  if (offset >= 1024 || offset % 4) return Status::TRANSPORT_ERROR;
  tb_.mmio_write(offset, value);
  return Status::OK;
}

Status ScTransport::mem_read(uint32_t addr, void* dst, uint32_t len) {
  std::vector<uint8_t>& m = tb_.memory();
  if (uint64_t(addr) + len > m.size() || (len && !dst)) return Status::TRANSPORT_ERROR;
  if (len) std::memcpy(dst, m.data() + addr, len);
  return Status::OK;
}

Status ScTransport::mem_write(uint32_t addr, const void* src, uint32_t len) {
  std::vector<uint8_t>& m = tb_.memory();
  if (uint64_t(addr) + len > m.size() || (len && !src)) return Status::TRANSPORT_ERROR;
  if (len) std::memcpy(m.data() + addr, src, len);
  return Status::OK;
}

uint64_t ScTransport::ns_to_cycles(uint64_t ns) const {
  const uint64_t ps = tb_.period_ps();
  const unsigned __int128 c = ((unsigned __int128)ns * 1000 + ps - 1) / ps;
  const uint64_t cycles = c > ~0ull ? ~0ull : uint64_t(c);
  return cycles ? cycles : 1;
}

Status ScTransport::wait_irq(uint64_t timeout_ns, bool* asserted) {
  const bool up = tb_.run_until_irq(ns_to_cycles(timeout_ns));
  if (asserted) *asserted = up;
  return Status::OK;
}

Status ScTransport::delay(uint64_t ns) {
  tb_.run_cycles(ns_to_cycles(ns));
  return Status::OK;
}

uint64_t ScTransport::now_ns() {
  return uint64_t((unsigned __int128)tb_.cycle() * tb_.period_ps() / 1000);
}

namespace {
std::string g_timeline_path;

// atexit: the timeline holds every cycle up to the end of the program, so
// it is written then; a write that fails fails the program.
void write_timeline_at_exit() {
  if (!Testbench::exists() || !Testbench::get().timeline_recording()) return;
  const std::string error = Testbench::get().write_timeline(g_timeline_path);
  if (error.empty()) return;
  std::cout.flush();
  std::cerr << "baresm: --timeline " << g_timeline_path << ": " << error << "\n";
  std::fflush(nullptr);
  _exit(1);  // the only way to fail once exit() has begun
}
}  // namespace

std::unique_ptr<ScTransport> open_rtl_device(const RtlDeviceOptions& o) {
  const bool fresh = !Testbench::exists();
  TbOptions to;
  to.mem = o.mem;
  to.gto = o.gto;
  to.trace = o.trace;
  Testbench& tb = Testbench::get(to);
  if (!fresh) tb.power_on(o.mem, o.gto, true);
  if (!o.timeline.empty() && !tb.timeline_recording()) {
    if (g_timeline_path.empty()) std::atexit(write_timeline_at_exit);
    g_timeline_path = o.timeline;
    tb.start_timeline();
  }
  return std::make_unique<ScTransport>(tb);
}

}  // namespace baresm::cosim
