// The functional device model at register level (what only the model can
// show: tick-exact behaviour), plus the driver numbers measured on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "cq_model/model_device.h"
#include "contract/regs.h"
#include "cq_model/scoreboard.h"
#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "host_driver/ring_io.h"
#include "tests/driver/driver_harness.h"

namespace {

using namespace baresm;
using regs::QpReg;
namespace rf = regs::f;

// A device with vec_add / the endless loop in memory and queue pairs set up by hand.
struct Rig {
  explicit Rig(cq::ModelDeviceConfig cfg = {}, const cq::ExecutorFactory& exec = {}) : dev(cfg, exec), bus(&dev) {
    place("vec_add", kVecAddCode);
    place("fault_endless_loop", kSpinCode);
    // a, b, c of 256 words; the window covers all three.
    for (uint32_t i = 0; i < 256; ++i) {
      const float x = float(i), y = float(2 * i);
      dev.mem_write(kA + 4 * i, &x, 4);
      dev.mem_write(kB + 4 * i, &y, 4);
    }
    const cq::WindowEntry w{kA, 3 * 1024};
    dev.mem_write(kWin, &w, 8);
    const uint32_t vp[4] = {kA, kB, kC, 256};
    dev.mem_write(kVecParams, vp, 16);
    const uint32_t sp[2] = {0, 0};
    dev.mem_write(kSpinParams, sp, 8);
  }
  void place(const char* name, uint32_t at) {
    const isa::Module& m = drvtest::kernel_module(name);
    dev.mem_write(at, m.code.data(), uint32_t(m.code.size() * 8));
    code_bytes[at] = uint32_t(m.code.size() * 8);
  }
  void setup_queue(uint32_t q, uint32_t sq_entries, uint32_t cq_entries) {
    qp[q].attach(&bus, drv::QueuePairLayout{q, kRings + q * 0x4000, sq_entries, kRings + q * 0x4000 + 0x2000,
                                           cq_entries});
    ASSERT_TRUE(qp[q].program());
  }
  cq::LaunchDescriptor vec_add(uint64_t token) {
    cq::LaunchDescriptor d;
    d.token = token;
    d.entry_pc = d.code_base = kVecAddCode;
    d.code_size = code_bytes[kVecAddCode];
    d.grid_x = 4;
    d.block_x = 64;
    d.regs = 8;
    d.param_addr = kVecParams;
    d.param_size = 16;
    d.window_table = kWin;
    d.window_count = 1;
    return d;
  }
  cq::LaunchDescriptor spin(uint64_t token) {
    cq::LaunchDescriptor d = vec_add(token);
    d.entry_pc = d.code_base = kSpinCode;
    d.code_size = code_bytes[kSpinCode];
    d.grid_x = 1;
    d.block_x = 32;
    d.param_addr = kSpinParams;
    d.param_size = 8;
    return d;
  }
  void enable() {
    dev.reg_write(regs::IRQ_MASK, 0xFFFFFFFFu);
    dev.reg_write(regs::CONTROL, rf::CONTROL_ENABLE.put(1));
  }
  uint32_t reg(uint32_t o) { return dev.reg_read(o); }
  bool check_c() {
    for (uint32_t i = 0; i < 256; ++i) {
      float c = 0;
      dev.mem_read(kC + 4 * i, &c, 4);
      if (c != float(3 * i)) return false;
    }
    return true;
  }

  static constexpr uint32_t kVecAddCode = 0x1000, kSpinCode = 0x2000;
  static constexpr uint32_t kA = 0x10000, kB = 0x10400, kC = 0x10800, kWin = 0x11000;
  static constexpr uint32_t kVecParams = 0x11100, kSpinParams = 0x11200, kRings = 0x20000;
  cq::ModelDevice dev;
  drv::ModelTransport bus;  // the ring helpers reach the device through it
  drv::QueuePairHost qp[4];
  std::map<uint32_t, uint32_t> code_bytes;
};

TEST(ModelDevice, RegistersHoldTheirResetValuesAfterPowerOnAndSoftReset) {
  Rig r;
  int nr = 0;
  const regs::RegInfo* rs = regs::reg_table(&nr);
  auto check_all = [&](const char* when) {
    for (int i = 0; i < nr; ++i) {
      const regs::RegInfo& ri = rs[i];
      if (ri.reset == regs::HWPARAM || ri.access == regs::Access::WO) continue;
      for (uint32_t q = 0; q < (ri.per_queue ? r.dev.config().num_queues : 1u); ++q) {
        const uint32_t off = ri.per_queue ? regs::qp(q, QpReg(ri.offset)) : ri.offset;
        if (off == regs::CYCLES_LO || off == regs::STATUS) continue;  // time moves; checked below
        EXPECT_EQ(r.reg(off), uint32_t(ri.reset)) << when << ": " << ri.name << " q" << q;
      }
    }
  };
  check_all("power-on");
  EXPECT_EQ(r.reg(regs::STATUS), uint32_t(rf::STATUS_IDLE.put(1)));
  // Dirty every writable register, run a kernel into the middle, then reset.
  r.setup_queue(0, 8, 8);
  r.enable();
  uint32_t idx;
  ASSERT_TRUE(r.qp[0].write_descriptor(r.spin(1), &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  r.dev.tick(50);
  r.dev.reg_write(regs::WATCHDOG, 123);  // read at fetch: does not stop the running launch
  r.dev.reg_write(regs::SCRATCH, 77);
  EXPECT_EQ(rf::STATUS_BUSY.get(r.reg(regs::STATUS)), 1u);
  r.dev.reg_write(regs::CONTROL, rf::CONTROL_SOFT_RESET.put(1));
  EXPECT_EQ(rf::STATUS_RESETTING.get(r.reg(regs::STATUS)), 1u);
  r.dev.reg_write(regs::SCRATCH, 5);  // ignored while resetting
  r.dev.tick(r.dev.config().reset_ticks);
  EXPECT_EQ(rf::STATUS_RESETTING.get(r.reg(regs::STATUS)), 0u);
  EXPECT_EQ(rf::IRQ_STATUS_RESET_DONE.get(r.reg(regs::IRQ_STATUS)), 1u);
  r.dev.reg_write(regs::IRQ_STATUS, rf::IRQ_STATUS_RESET_DONE.put(1));  // W1C
  check_all("after soft reset");
  EXPECT_EQ(r.dev.stats().aborted, 1u);
  // Memory survives; the device runs again after reprogramming.
  r.setup_queue(0, 8, 8);
  r.enable();
  ASSERT_TRUE(r.qp[0].write_descriptor(r.vec_add(2), &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  r.dev.tick(500);
  cq::CompletionEntry e;
  ASSERT_EQ(r.qp[0].peek(&e), 1);
  EXPECT_EQ(e.token, 2u);
  EXPECT_EQ(e.status, uint8_t(cq::CplStatus::COMPLETED));
  EXPECT_TRUE(r.check_c());
}

TEST(ModelDevice, CompletionBecomesVisibleWithThePhaseWordLast) {
  Rig r;  // completion_write_ticks = 3 by default
  r.setup_queue(0, 8, 8);
  r.enable();
  uint32_t idx;
  ASSERT_TRUE(r.qp[0].write_descriptor(r.vec_add(0xABCDEF), &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  const uint32_t slot = r.qp[0].layout().cq_base;
  // Tick until the token appears (first piece), then watch the rest land.
  int t = 0;
  uint64_t token = 0;
  for (; t < 1000 && token == 0; ++t) {
    r.dev.tick();
    r.dev.mem_read(slot, &token, 8);
  }
  ASSERT_EQ(token, 0xABCDEFu);
  cq::CompletionEntry e;
  uint32_t phase = 0;
  r.dev.mem_read(slot + offsetof(cq::CompletionEntry, phase), &phase, 4);
  EXPECT_EQ(phase, 0u) << "phase word written with the first piece";
  EXPECT_EQ(r.qp[0].peek(&e), 0) << "a consumer sees a half-written entry";
  EXPECT_EQ(r.reg(regs::qp(0, QpReg::CQ_TAIL)), 0u);
  r.dev.tick();  // second piece: body complete, phase still old
  r.dev.mem_read(slot + offsetof(cq::CompletionEntry, phase), &phase, 4);
  EXPECT_EQ(phase, 0u);
  EXPECT_EQ(r.qp[0].peek(&e), 0);
  r.dev.tick();  // phase word
  ASSERT_EQ(r.qp[0].peek(&e), 1);
  EXPECT_EQ(e.seq, 0u);
  EXPECT_EQ(e.ctas_done, 4u);
  EXPECT_EQ(r.reg(regs::qp(0, QpReg::CQ_TAIL)), 1u);
  EXPECT_EQ(r.reg(regs::LAUNCHES), 1u);
  EXPECT_TRUE(r.dev.irq_line());
}

// An executor with a clock, as the bare SM's (sim/harness/bare_sm_executor.h):
// the whole launch at the first step, ending with the outcome it was given.
class ScriptedExecutor final : public cq::LaunchExecutor {
 public:
  ScriptedExecutor(const cq::LaunchOutcome& o, std::vector<iss::LaunchParams>* started)
      : out_(o), started_(started) {}
  void start(const iss::LaunchParams& p) override {
    started_->push_back(p);
    steps_ = 0;
  }
  bool step(uint32_t) override {
    ++steps_;
    return true;
  }
  void abort() override {}
  const cq::LaunchOutcome& outcome() const override { return out_; }
  uint64_t retired() const override { return steps_ ? out_.result.stats.warp_instrs : 0; }
  uint64_t cta_switches() const override { return 0; }

 private:
  cq::LaunchOutcome out_;
  std::vector<iss::LaunchParams>* started_;
  int steps_ = 0;
};

// Ticks until queue 0 has a completion entry (at most max_ticks); the ticks run.
int tick_to_completion(Rig& r, cq::CompletionEntry* e, int max_ticks) {
  int t = 0;
  while (t < max_ticks && r.qp[0].peek(e) == 0) {
    r.dev.tick();
    ++t;
  }
  return t;
}

TEST(ModelDevice, ClockedExecutorKeepsTheDeviceBusyForItsCyclesAndFillsTheEntry) {
  cq::LaunchOutcome o;
  o.clocked = true;
  o.sm_cycles = 500;
  o.stall_cycles = 7;
  o.gmem_requests = 9;
  o.ifetch_fills = 3;
  o.shared_passes = 5;
  for (size_t i = 0; i < o.warp_state_cycles.size(); ++i) o.warp_state_cycles[i] = 100 + i;
  o.result.stats.warp_instrs = 40;
  o.result.stats.thread_instrs = 1000;
  o.result.stats.ctas = 4;
  o.result.stats.divergent_branches = 2;
  o.result.stats.barriers = 1;
  std::vector<iss::LaunchParams> started;
  Rig r({}, [&](iss::DeviceMemory&) { return std::make_unique<ScriptedExecutor>(o, &started); });
  r.setup_queue(0, 8, 8);
  r.enable();
  uint32_t idx;
  cq::LaunchDescriptor d = r.vec_add(0x77);
  d.watchdog = 12345;
  ASSERT_TRUE(r.qp[0].write_descriptor(d, &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  cq::CompletionEntry e;
  const int before = tick_to_completion(r, &e, 400);
  EXPECT_EQ(r.qp[0].peek(&e), 0) << "completed after " << before << " ticks, the SM took 500";
  EXPECT_TRUE(rf::STATUS_BUSY.get(r.reg(regs::STATUS)));
  tick_to_completion(r, &e, 1000);
  ASSERT_EQ(r.qp[0].peek(&e), 1);
  // The executor got the descriptor's launch.
  ASSERT_EQ(started.size(), 1u);
  EXPECT_EQ(started[0].entry_pc, Rig::kVecAddCode);
  EXPECT_EQ(started[0].grid.x, 4u);
  EXPECT_EQ(started[0].block.x, 64u);
  ASSERT_EQ(started[0].windows.size(), 1u);
  EXPECT_EQ(started[0].windows[0].base, Rig::kA);
  EXPECT_EQ(started[0].instr_budget, 12345u);
  // Its counters are in the entry, and device time covers its cycles.
  EXPECT_EQ(e.cpl_status(), cq::CplStatus::COMPLETED);
  EXPECT_EQ(e.end_cycle - e.start_cycle, 500u);
  EXPECT_EQ(e.sm_cycles, 500u);
  EXPECT_EQ(e.stall_cycles, 7u);
  EXPECT_EQ(e.gmem_requests, 9u);
  EXPECT_EQ(e.ifetch_fills, 3u);
  EXPECT_EQ(e.shared_passes, 5u);
  EXPECT_EQ(e.warp_instrs, 40u);
  EXPECT_EQ(e.thread_instrs, 1000u);
  EXPECT_EQ(e.ctas_done, 4u);
  EXPECT_EQ(e.div_branches, 2u);
  EXPECT_EQ(e.bar_releases, 1u);
  for (int s = 0; s < cq::CompletionEntry::kWarpStates; ++s) EXPECT_EQ(e.warp_state_cycles(s), 100u + s);
  EXPECT_EQ(r.reg(regs::WARP_INSTRS_LO), 40u);
}

TEST(ModelDevice, ExecutorThatCannotRunTheLaunchFailsItAsInternal) {
  cq::LaunchOutcome o;
  o.internal_error = true;
  o.internal_message = "the SM refused";
  std::vector<iss::LaunchParams> started;
  Rig r({}, [&](iss::DeviceMemory&) { return std::make_unique<ScriptedExecutor>(o, &started); });
  r.setup_queue(0, 8, 8);
  r.enable();
  uint32_t idx;
  ASSERT_TRUE(r.qp[0].write_descriptor(r.vec_add(0x78), &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  cq::CompletionEntry e;
  tick_to_completion(r, &e, 100);
  ASSERT_EQ(r.qp[0].peek(&e), 1);
  EXPECT_EQ(e.cpl_status(), cq::CplStatus::FAILED);
  EXPECT_EQ(e.error_code(), cq::ErrorCode::INTERNAL);
  EXPECT_TRUE(rf::STATUS_FAULT.get(r.reg(regs::STATUS)));
}

TEST(ModelDevice, SpinningKernelRetiresInstructionsButMakesNoProgress) {
  Rig r;
  r.setup_queue(0, 8, 8);
  r.enable();
  uint32_t idx;
  ASSERT_TRUE(r.qp[0].write_descriptor(r.spin(1), &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  r.dev.tick(100);
  const uint32_t p0 = r.reg(regs::PROGRESS), w0 = r.reg(regs::WARP_INSTRS_LO);
  r.dev.tick(1000);
  EXPECT_EQ(r.reg(regs::PROGRESS), p0);
  EXPECT_EQ(r.reg(regs::WARP_INSTRS_LO) - w0, 1000u * r.dev.config().instrs_per_tick)
      << "bounded slices: instrs_per_tick per tick";
  EXPECT_EQ(rf::STATUS_BUSY.get(r.reg(regs::STATUS)), 1u);
  EXPECT_EQ(rf::QSTATUS_ACTIVE.get(r.reg(regs::qp(0, QpReg::QSTATUS))), 1u);
  EXPECT_FALSE(r.dev.irq_line());
}

TEST(ModelDevice, ResetDuringACompletionWriteLeavesNoValidEntry) {
  Rig r;
  r.setup_queue(0, 8, 8);
  r.enable();
  uint32_t idx;
  ASSERT_TRUE(r.qp[0].write_descriptor(r.vec_add(7), &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  const uint32_t slot = r.qp[0].layout().cq_base;
  uint64_t token = 0;
  for (int t = 0; t < 1000 && token == 0; ++t) {
    r.dev.tick();
    r.dev.mem_read(slot, &token, 8);
  }
  ASSERT_EQ(token, 7u);
  r.dev.reg_write(regs::CONTROL, rf::CONTROL_SOFT_RESET.put(1));  // mid-write
  r.dev.tick(100);
  cq::CompletionEntry e;
  EXPECT_EQ(r.qp[0].peek(&e), 0) << "the half-written entry must not read as valid";
  EXPECT_EQ(r.reg(regs::qp(0, QpReg::CQ_TAIL)), 0u);
  EXPECT_EQ(r.reg(regs::LAUNCHES), 0u);
}

TEST(ModelDevice, QueuesAreServedRoundRobin) {
  Rig r;
  r.setup_queue(0, 8, 8);
  r.setup_queue(1, 8, 8);
  uint32_t idx;
  for (uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(r.qp[0].write_descriptor(r.vec_add(100 + i), &idx));
    ASSERT_TRUE(r.qp[1].write_descriptor(r.vec_add(200 + i), &idx));
  }
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  ASSERT_TRUE(r.qp[1].ring_doorbell());
  r.enable();
  r.dev.tick(3000);
  std::vector<std::pair<uint64_t, uint64_t>> order;  // (end_cycle, token)
  for (int q = 0; q < 2; ++q) {
    cq::CompletionEntry e;
    while (r.qp[q].peek(&e) == 1) {
      order.push_back({e.end_cycle, e.token});
      r.qp[q].pop();
    }
  }
  ASSERT_EQ(order.size(), 6u);
  std::sort(order.begin(), order.end());
  const uint64_t want[6] = {100, 200, 101, 201, 102, 202};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(order[i].second, want[i]) << i;
}

// The ring registers of a queue pair in use are fixed (as on the RTL:
// CommandProcessor.RingRegistersOfAQueueInUseAreFixed).
TEST(ModelDevice, RingRegistersOfAQueueInUseAreFixed) {
  Rig r;
  r.setup_queue(0, 8, 8);
  uint32_t idx = 0;
  cq::LaunchDescriptor m;
  m.token = 7;
  m.flags = cq::kDESC_FLAG_MARKER;
  ASSERT_TRUE(r.qp[0].write_descriptor(m, &idx));
  ASSERT_TRUE(r.qp[0].ring_doorbell());
  const uint32_t cq_size = r.reg(regs::qp(0, QpReg::CQ_SIZE));
  r.dev.reg_write(regs::qp(0, QpReg::CQ_SIZE), 16);  // submitted, not fetched
  EXPECT_EQ(r.reg(regs::qp(0, QpReg::CQ_SIZE)), cq_size);
  EXPECT_EQ(rf::QSTATUS_DOORBELL_ERROR.get(r.reg(regs::qp(0, QpReg::QSTATUS))), 1u);
  r.dev.reg_write(regs::CONTROL, rf::CONTROL_ENABLE.put(1));
  r.dev.tick(200);
  ASSERT_EQ(r.reg(regs::qp(0, QpReg::CQ_TAIL)), 1u);
  r.dev.reg_write(regs::qp(0, QpReg::SQ_BASE), 0x30000);  // completion not consumed
  EXPECT_NE(r.reg(regs::qp(0, QpReg::SQ_BASE)), 0x30000u);
  r.dev.reg_write(regs::qp(0, QpReg::CQ_HEAD), 1);
  r.dev.reg_write(regs::qp(0, QpReg::SQ_BASE), 0x30000);  // quiescent
  EXPECT_EQ(r.reg(regs::qp(0, QpReg::SQ_BASE)), 0x30000u);
}

TEST(ModelDevice, BadDoorbellsAndRingConfigurationsAreRejected) {
  Rig r;
  // Queue 0: not configured -> a doorbell is an error.
  r.dev.reg_write(regs::qp(0, QpReg::DOORBELL), 1);
  EXPECT_EQ(rf::QSTATUS_DOORBELL_ERROR.get(r.reg(regs::qp(0, QpReg::QSTATUS))), 1u);
  EXPECT_EQ(rf::IRQ_STATUS_QUEUE_ERROR.get(r.reg(regs::IRQ_STATUS)), 1u);
  // Queue 1: size not a power of two -> CONFIG_ERROR.
  r.dev.reg_write(regs::qp(1, QpReg::SQ_BASE), 0x20000);
  r.dev.reg_write(regs::qp(1, QpReg::SQ_SIZE), 6);
  r.dev.reg_write(regs::qp(1, QpReg::CQ_BASE), 0x22000);
  r.dev.reg_write(regs::qp(1, QpReg::CQ_SIZE), 8);
  EXPECT_EQ(rf::QSTATUS_CONFIG_ERROR.get(r.reg(regs::qp(1, QpReg::QSTATUS))), 1u);
  // Queue 2: valid, but a doorbell more than SQ_SIZE ahead is ignored.
  r.setup_queue(2, 8, 8);
  EXPECT_EQ(r.reg(regs::qp(2, QpReg::QSTATUS)), 0u);
  r.dev.reg_write(regs::qp(2, QpReg::DOORBELL), 9);
  EXPECT_EQ(r.reg(regs::qp(2, QpReg::SQ_TAIL)), 0u);
  EXPECT_EQ(rf::QSTATUS_DOORBELL_ERROR.get(r.reg(regs::qp(2, QpReg::QSTATUS))), 1u);
  // CQ_HEAD may not pass CQ_TAIL.
  r.dev.reg_write(regs::qp(2, QpReg::CQ_HEAD), 3);
  EXPECT_EQ(r.reg(regs::qp(2, QpReg::CQ_HEAD)), 0u);
  // Queues beyond NUM_QUEUES read 0 and ignore writes.
  const uint32_t nq = r.dev.config().num_queues;
  r.dev.reg_write(regs::qp(nq, QpReg::SQ_BASE), 0x1234);
  EXPECT_EQ(r.reg(regs::qp(nq, QpReg::SQ_BASE)), 0u);
  // The interrupt line follows IRQ_STATUS & IRQ_MASK; W1C clears.
  EXPECT_FALSE(r.dev.irq_line());
  r.dev.reg_write(regs::IRQ_MASK, rf::IRQ_MASK_QUEUE_ERROR.put(1));
  EXPECT_TRUE(r.dev.irq_line());
  r.dev.reg_write(regs::IRQ_STATUS, rf::IRQ_STATUS_QUEUE_ERROR.put(1));
  EXPECT_FALSE(r.dev.irq_line());
}

TEST(ModelDevice, CountersSnapshotTheHighWord) {
  Rig r;
  r.dev.tick(1234);
  const uint32_t lo = r.reg(regs::CYCLES_LO);
  EXPECT_EQ(lo, 1234u);
  EXPECT_EQ(r.reg(regs::CYCLES_HI), 0u);
  EXPECT_EQ(r.reg(regs::VERSION), 0x01020002u);
  EXPECT_EQ(r.reg(regs::CONFIG4), r.dev.config().mem_bytes);
}

TEST(ModelDevice, RunsAreDeterministic) {
  auto run = [] {
    Rig r;
    r.setup_queue(0, 8, 4);
    r.setup_queue(1, 8, 4);
    r.enable();
    uint32_t idx;
    for (uint64_t i = 0; i < 6; ++i) EXPECT_TRUE(r.qp[i % 2].write_descriptor(r.vec_add(i + 1), &idx));
    r.qp[0].ring_doorbell();
    r.qp[1].ring_doorbell();
    r.dev.tick(5000);
    std::vector<uint8_t> img(0x30000);
    r.dev.mem_read(0, img.data(), uint32_t(img.size()));
    return img;
  };
  EXPECT_EQ(run(), run());
}

// ---- driver-level checks that need a differently built model device ----------------------------------
TEST(ModelDriver, KernelNeedingMoreRegistersThanTheDeviceHasIsNoBinary) {
  cq::ModelDeviceConfig cfg;
  cfg.max_regs = 16;
  drvtest::Harness h;
  drv::DeviceOptions o;
  ASSERT_EQ(h.open(std::make_unique<drv::ModelTransport>(cfg), o), drv::Status::OK);
  EXPECT_EQ(h.dev.props().max_regs_per_thread, 16u);
  drv::Context c;
  ASSERT_EQ(h.dev.ctx_create(&c), drv::Status::OK);
  isa::Module m = drvtest::kernel_module("vec_add");
  m.kernels[0].regs = 17;
  m.target.max_regs = 17;
  const std::vector<uint8_t> img = isa::write_module(m);
  drv::Module mod;
  EXPECT_EQ(h.dev.module_load_data(c, img.data(), img.size(), &mod), drv::Status::NO_BINARY_FOR_DEVICE)
      << h.last_error_text();
}

// CONFIG6.HAS_FPU 0: a module whose kernels use the FPU is no binary for the
// device (at load, naming the kernel and the instruction); integer ones run.
TEST(ModelDriver, DeviceWithoutTheFpuRefusesFpModulesAndRunsIntegerOnes) {
  cq::ModelDeviceConfig cfg;
  cfg.has_fpu = false;
  drvtest::Harness h;
  drv::DeviceOptions o;
  ASSERT_EQ(h.open(std::make_unique<drv::ModelTransport>(cfg), o), drv::Status::OK);
  EXPECT_FALSE(h.dev.props().has_fpu);
  drv::Context c;
  ASSERT_EQ(h.dev.ctx_create(&c), drv::Status::OK);
  const std::vector<uint8_t> fp = isa::write_module(drvtest::kernel_module("vec_add"));  // FADD
  drv::Module mod;
  EXPECT_EQ(h.dev.module_load_data(c, fp.data(), fp.size(), &mod), drv::Status::NO_BINARY_FOR_DEVICE);
  EXPECT_NE(h.last_error_text().find("kernel 'vec_add' uses the FPU (first at vec_add+"), std::string::npos)
      << h.last_error_text();
  const std::vector<uint8_t> ints = isa::write_module(drvtest::kernel_module("histogram"));
  EXPECT_EQ(h.dev.module_load_data(c, ints.data(), ints.size(), &mod), drv::Status::OK) << h.last_error_text();
}

// The measured numbers of docs/driver.md: launch round trip in model ticks.
TEST(ModelDriver, LaunchRoundTripInTicks) {
  drvtest::Harness h;
  drv::DeviceOptions o;
  ASSERT_EQ(h.open(std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{}), o), drv::Status::OK);
  auto* mt = static_cast<drv::ModelTransport*>(h.transport.get());
  drv::Context c;
  ASSERT_EQ(h.dev.ctx_create(&c), drv::Status::OK);
  drvtest::VecAdd va;
  ASSERT_EQ(va.setup(h.dev, c, 32, 1), drv::Status::OK);
  uint64_t rt[3];
  for (int i = 0; i < 3; ++i) {
    const uint64_t t0 = mt->ticks();
    ASSERT_EQ(va.launch(h.dev, drv::Stream{}, nullptr, 32), drv::Status::OK);
    ASSERT_EQ(h.dev.ctx_synchronize(c), drv::Status::OK);
    rt[i] = mt->ticks() - t0;
  }
  EXPECT_EQ(rt[1], rt[2]) << "the model is deterministic";
  const drv::LaunchReport& r = h.reports.back();
  const uint64_t exec = r.end_cycle - r.start_cycle;
  // fetch (1) + execution + completion write (3 pieces): the rest is the driver.
  EXPECT_EQ(rt[2], exec + 1 + 3) << "round trip = fetch + execution + completion write";
  ::testing::Test::RecordProperty("round_trip_ticks", int(rt[2]));
  std::printf("[ measure  ] vec_add n=32 (1 warp, %u warp-instrs): round trip %llu ticks, %llu executing\n",
              r.stats.warp_instrs, (unsigned long long)rt[2], (unsigned long long)exec);
  // An event marker: fetch + write.
  drv::Event e;
  ASSERT_EQ(h.dev.event_create(c, &e), drv::Status::OK);
  const uint64_t t0 = mt->ticks();
  ASSERT_EQ(h.dev.event_record(e, drv::Stream{}), drv::Status::OK);
  ASSERT_EQ(h.dev.event_synchronize(e), drv::Status::OK);
  EXPECT_EQ(mt->ticks() - t0, 4u);
}

}  // namespace
