// Helpers shared by the driver test suites: a device + transport + a record
// of every completion report, kernels assembled from kernels/*.s, a raw
// register/memory bus over any transport, and a vec_add workload.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host_driver/ring_io.h"
#include "cq_model/scoreboard.h"
#include "host_driver/driver.h"
#include "host_driver/transport.h"
#include "isa/isa.h"
#include "isa/module.h"

namespace baresm::drvtest {

// The module image of kernels/<name>.s (assembled once per process).
const std::vector<uint8_t>& kernel_image(const std::string& name);
// The assembled module itself (for finding instruction offsets).
const isa::Module& kernel_module(const std::string& name);
// Byte offset of the first instruction with opcode `op` in the module's code.
uint32_t first_offset_of(const isa::Module& m, isa::Op op);

// Raw access to a device through its transport (register + memory), for
// tests that speak the ring protocol directly, beside or without the driver:
// true/false instead of a status, and reg() that fails the test itself. The
// ring helpers (drv::QueuePairHost) take transport().
class TransportBus {
 public:
  explicit TransportBus(drv::Transport* t) : t_(t) {}
  drv::Transport* transport() const { return t_; }
  bool reg_read(uint32_t offset, uint32_t* value) { return drv::ok(t_->mmio_read32(offset, value)); }
  bool reg_write(uint32_t offset, uint32_t value) { return drv::ok(t_->mmio_write32(offset, value)); }
  bool mem_read(uint32_t addr, void* dst, uint32_t len) { return drv::ok(t_->mem_read(addr, dst, len)); }
  bool mem_write(uint32_t addr, const void* src, uint32_t len) { return drv::ok(t_->mem_write(addr, src, len)); }
  uint32_t reg(uint32_t offset) {
    uint32_t v = 0xDEADBEEF;
    EXPECT_TRUE(reg_read(offset, &v)) << "register read 0x" << std::hex << offset;
    return v;
  }

 private:
  drv::Transport* t_;
};

// A device opened over a transport, recording every report the driver makes.
// With a scoreboard attached, every entry the device writes is checked.
class Harness {
 public:
  Harness() = default;
  ~Harness();
  drv::Status open(std::unique_ptr<drv::Transport> t, const drv::DeviceOptions& o);

  std::unique_ptr<drv::Transport> transport;
  drv::Device dev;
  std::vector<drv::LaunchReport> reports;
  std::map<uint64_t, int> times_reported;  // token -> reports

  // Optional scoreboard over the device's entries. Call expect() after every
  // successful launch/event_record with the stream it went to.
  cq::Scoreboard* scoreboard = nullptr;
  void expect(drv::Stream s, drv::Context c, uint64_t token, cq::CplStatus st = cq::CplStatus::PENDING,
              const cq::ExpectedCounters* counters = nullptr);
  void scoreboard_reset();  // after a reset: indices restart, outstanding work was lost

  const drv::LaunchReport* report_for(uint64_t token) const;
  uint32_t reg(uint32_t offset);
  std::string last_error_text() const;

 private:
  static void hook(void* self, const drv::LaunchReport& r);
  uint32_t submitted_[drv::kMaxQueues] = {};
  uint32_t consumed_[drv::kMaxQueues] = {};
};

// The parameters of a kernels/fault_*.s kernel, in order: its buffer (and
// word count) where it takes them, the target CTA, the target thread.
std::vector<uint32_t> fault_kernel_params(const std::string& kernel, drv::DevPtr buf, uint32_t nwords,
                                          uint32_t target_cta, uint32_t target_tid);

// The slot the next descriptor (or, completion_ring, the next completion
// entry) of queue pair q goes to, from the device's ring registers; 0 when
// the queue pair is off.
uint32_t next_ring_slot(drv::Transport* t, uint32_t q, bool completion_ring);

// c[i] = a[i] + b[i] with kernels/vec_add.s.
struct VecAdd {
  drv::Module mod;
  drv::Function fn;
  drv::DevPtr a = 0, b = 0, c = 0;
  uint32_t n = 0;
  std::vector<float> ha, hb;

  drv::Status setup(drv::Device& dev, drv::Context ctx, uint32_t n, uint32_t seed);
  drv::Status launch(drv::Device& dev, drv::Stream s, uint64_t* token, uint32_t block = 128);
  ::testing::AssertionResult check(drv::Device& dev, drv::Context ctx);
};

// vec_add of n elements set up, launched on the default stream, synchronized
// and checked in ctx: how the recovery tests show that a context works.
::testing::AssertionResult vec_add_runs(Harness& h, drv::Context ctx, uint32_t n, uint32_t seed);

// vec_add as raw descriptors on a queue pair the test programs itself (the
// rings, parameter block and window table in the context's memory, the code
// where the driver loaded it), for tests of the ring protocol beside the
// driver.
struct RawVecAddQueue {
  VecAdd va;
  drv::DevPtr sq_ring = 0, cq_ring = 0, window_table = 0;
  drv::QueuePairHost qp;
  cq::LaunchDescriptor desc;  // the whole vec_add in CTAs of 32 threads, token 0

  ::testing::AssertionResult setup(drv::Device& dev, drv::Context ctx, TransportBus* bus, uint32_t queue,
                                   uint32_t sq_entries, uint32_t cq_entries, uint32_t n, uint32_t seed);
};

}  // namespace baresm::drvtest
