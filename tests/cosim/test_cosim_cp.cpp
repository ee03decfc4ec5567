// The command processor's register block and ring engine on the verilated
// device, below the driver: reset values, a differential test of the
// register block against the functional device model (cq_model), doorbell
// and head errors, round-robin service, the phase word written last, soft
// reset draining the memory port, and the launch overhead in cycles
// (printed as "[perf]" lines for docs/command-processor.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <set>

#include "cq_model/model_device.h"
#include "host_driver/ring_io.h"
#include "cq_model/scoreboard.h"
#include "contract/regs.h"
#include "tests/cosim/cosim_util.h"
#include "tests/driver/driver_harness.h"

namespace baresm {
namespace {

using cosim::Testbench;
using cosim::TopParams;
using drvtest::TransportBus;
using regs::QpReg;
namespace f = regs::f;

cq::ModelDeviceConfig model_like_rtl() {
  cq::ModelDeviceConfig c;
  c.num_lanes = BARESM_TOP_NumLanes;
  c.num_warps = BARESM_TOP_NumWarps;
  c.cta_slots = BARESM_TOP_CtaSlots;
  c.num_banks = BARESM_TOP_NumBanks;
  c.max_regs = BARESM_TOP_NumRegs;
  c.stack_depth = BARESM_TOP_StackDepth;
  c.num_queues = BARESM_TOP_NumQueues;
  c.max_windows = BARESM_TOP_NumWindows;
  c.shared_bytes = BARESM_TOP_SharedBytes;
  c.regfile_regs = BARESM_TOP_RegfileRegs;
  c.mem_bytes = BARESM_TOP_MemBytes;
  c.clock_khz = BARESM_TOP_ClockKhz;
  return c;
}

bool is_time_dependent(uint32_t off) {
  return off == regs::CYCLES_LO || off == regs::CYCLES_HI;
}

// Every register offset of the map, global and per queue (all 8 blocks).
std::vector<uint32_t> all_offsets() {
  std::vector<uint32_t> v;
  int n = 0;
  const regs::RegInfo* t = regs::reg_table(&n);
  for (int i = 0; i < n; ++i) {
    if (!t[i].per_queue) {
      v.push_back(t[i].offset);
    } else {
      for (uint32_t q = 0; q < regs::MAX_QUEUES; ++q)
        v.push_back(regs::QP_BASE + q * regs::QP_STRIDE + t[i].offset);
    }
  }
  return v;
}

TEST(CommandProcessor, PowerOnValuesMatchTheMapAndTheModel) {
  auto t = cosimtest::rtl_device();
  TransportBus bus(t.get());
  cq::ModelDevice model(model_like_rtl());
  std::set<uint32_t> mapped;
  for (uint32_t off : all_offsets()) {
    mapped.insert(off);
    if (is_time_dependent(off)) continue;
    EXPECT_EQ(bus.reg(off), model.reg_read(off)) << "offset 0x" << std::hex << off;
  }
  int n = 0;
  const regs::RegInfo* tab = regs::reg_table(&n);
  for (int i = 0; i < n; ++i) {
    if (tab[i].per_queue || tab[i].reset == regs::HWPARAM || tab[i].access == regs::Access::WO) continue;
    if (is_time_dependent(tab[i].offset)) continue;
    EXPECT_EQ(bus.reg(tab[i].offset), uint32_t(tab[i].reset)) << tab[i].name;
  }
  for (uint32_t off = 0; off < regs::REG_SPACE; off += 4) {
    if (!mapped.count(off)) {
      EXPECT_EQ(bus.reg(off), 0u) << "unmapped offset 0x" << std::hex << off;
    }
  }
  const uint32_t c0 = bus.reg(regs::CONFIG0), c1 = bus.reg(regs::CONFIG1);
  EXPECT_EQ(f::CONFIG0_NUM_LANES.get(c0), TopParams::kNumLanes);
  EXPECT_EQ(f::CONFIG0_NUM_WARPS.get(c0), TopParams::kNumWarps);
  EXPECT_EQ(f::CONFIG1_NUM_QUEUES.get(c1), TopParams::kNumQueues);
  EXPECT_EQ(f::CONFIG1_MAX_WINDOWS.get(c1), TopParams::kNumWindows);
  EXPECT_EQ(bus.reg(regs::CONFIG4), TopParams::kMemBytes);
  EXPECT_EQ(bus.reg(regs::CONFIG5), TopParams::kClockKhz);
  EXPECT_EQ(bus.reg(regs::CONFIG6), f::CONFIG6_HAS_FPU.put(1));
  // CYCLES counts, and reading CYCLES_LO snapshots CYCLES_HI.
  const uint32_t c_a = bus.reg(regs::CYCLES_LO);
  t->testbench().run_cycles(100);
  const uint32_t c_b = bus.reg(regs::CYCLES_LO);
  EXPECT_GE(c_b - c_a, 100u);
  EXPECT_EQ(bus.reg(regs::CYCLES_HI), 0u);
}

// Random register traffic, applied to the RTL and to the functional device
// model; every register must read the same on both. The engine stays
// disabled (what it fetches would depend on timing), everything else --
// ring configuration checks, doorbells, heads, W1C interrupt bits, the
// interrupt line, soft reset -- is exercised.
TEST(CommandProcessor, RegisterBlockMatchesTheModelUnderRandomTraffic) {
  auto t = cosimtest::rtl_device();
  TransportBus bus(t.get());
  cq::ModelDevice model(model_like_rtl());
  std::mt19937 rng(2024);
  const std::vector<uint32_t> offs = all_offsets();
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  auto random_value = [&](uint32_t off) -> uint32_t {
    const uint32_t kind = pick(10);
    if (off >= regs::QP_BASE && off < regs::QP_BASE + regs::MAX_QUEUES * regs::QP_STRIDE) {
      const uint32_t q = (off - regs::QP_BASE) / regs::QP_STRIDE;
      const QpReg r = QpReg((off - regs::QP_BASE) % regs::QP_STRIDE);
      const uint32_t head = model.reg_read(regs::qp(q, QpReg::SQ_HEAD));
      switch (r) {
        case QpReg::SQ_BASE:
        case QpReg::CQ_BASE:
          if (kind < 6) return pick(TopParams::kMemBytes / 64) * 64;  // aligned, maybe too close to the end
          if (kind < 8) return pick(TopParams::kMemBytes);
          return uint32_t(rng());
        case QpReg::SQ_SIZE:
        case QpReg::CQ_SIZE:
          if (kind < 7) return 1u << pick(17);
          if (kind < 8) return 0;
          return pick(1u << 18);
        case QpReg::DOORBELL:
          if (kind < 6) return head + pick(70);
          if (kind < 8) return head - pick(4);
          return uint32_t(rng());
        case QpReg::CQ_HEAD:
          return kind < 8 ? pick(4) : uint32_t(rng());
        default:
          return uint32_t(rng());
      }
    }
    if (off == regs::CONTROL) return 0;  // never enable; soft resets are issued separately
    if (off == regs::IRQ_STATUS || off == regs::IRQ_MASK)
      return kind < 8 ? (1u << pick(11)) : uint32_t(rng());
    return uint32_t(rng());
  };
  auto compare_all = [&](int step) {
    for (uint32_t off : offs) {
      if (is_time_dependent(off)) continue;
      ASSERT_EQ(bus.reg(off), model.reg_read(off))
          << "offset 0x" << std::hex << off << std::dec << " after step " << step;
    }
    ASSERT_EQ(t->testbench().irq(), model.irq_line()) << "interrupt line after step " << step;
  };
  auto soft_reset_both = [&] {
    bus.reg_write(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1));
    model.reg_write(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1));
    model.tick(model.config().reset_ticks + 1);
    for (int i = 0; i < 1000 && f::STATUS_RESETTING.get(bus.reg(regs::STATUS)); ++i)
      t->testbench().run_cycles(1);
    ASSERT_EQ(f::STATUS_RESETTING.get(bus.reg(regs::STATUS)), 0u);
  };
  for (int step = 0; step < 1500; ++step) {
    const uint32_t kind = pick(100);
    if (kind < 2) {
      soft_reset_both();
    } else {
      uint32_t off;
      if (kind < 10)
        off = pick(regs::REG_SPACE / 4) * 4;  // anywhere, mapped or not
      else
        off = offs[pick(uint32_t(offs.size()))];
      if (off == regs::CONTROL) continue;
      const uint32_t v = random_value(off);
      ASSERT_TRUE(bus.reg_write(off, v));
      model.reg_write(off, v);
      // Spot-check the register written and the status registers.
      if (!is_time_dependent(off)) {
        ASSERT_EQ(bus.reg(off), model.reg_read(off)) << "offset 0x" << std::hex << off;
      }
      ASSERT_EQ(bus.reg(regs::IRQ_STATUS), model.reg_read(regs::IRQ_STATUS)) << "step " << step;
    }
    if (step % 100 == 99) compare_all(step);
    if (::testing::Test::HasFatalFailure()) return;
  }
  compare_all(-1);
}

// Raw ring access: a queue pair programmed by the test itself.
struct RawQueue {
  drv::QueuePairHost qp;
  uint32_t sq = 0, cq = 0;
};

cq::LaunchDescriptor marker(uint64_t token) {
  cq::LaunchDescriptor d;
  d.token = token;
  d.flags = cq::kDESC_FLAG_MARKER;
  return d;
}

TEST(CommandProcessor, QueuesAreServedRoundRobinAndAFullRingBlocksOnlyItsQueue) {
  auto t = cosimtest::rtl_device();
  TransportBus bus(t.get());
  Testbench& tb = t->testbench();
  RawQueue q[3];
  for (uint32_t i = 0; i < 3; ++i) {
    q[i].sq = 0x10000 + i * 0x4000;
    q[i].cq = 0x40000 + i * 0x4000;
    // Queue 2's completion ring has 2 entries: it fills and waits while the others run on.
    q[i].qp.attach(bus.transport(), drv::QueuePairLayout{i, q[i].sq, 16, q[i].cq, i == 2 ? 2u : 16u});
    ASSERT_TRUE(q[i].qp.program());
  }
  ASSERT_TRUE(bus.reg_write(regs::IRQ_MASK, 0xFFu));
  for (uint32_t i = 0; i < 3; ++i) {
    for (uint32_t k = 0; k < 5; ++k) {
      uint32_t idx = 0;
      ASSERT_TRUE(q[i].qp.write_descriptor(marker(100 * i + k), &idx));
    }
    ASSERT_TRUE(q[i].qp.ring_doorbell());
  }
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, f::CONTROL_ENABLE.put(1)));
  tb.run_cycles(3000);
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::CQ_TAIL)), 5u);
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::CQ_TAIL)), 5u);
  EXPECT_EQ(bus.reg(regs::qp(2, QpReg::CQ_TAIL)), 2u) << "queue 2 wrote past its host's head";
  EXPECT_EQ(bus.reg(regs::qp(2, QpReg::SQ_HEAD)), 2u) << "queue 2 fetched without a free completion slot";
  EXPECT_EQ(f::QSTATUS_CQ_FULL.get(bus.reg(regs::qp(2, QpReg::QSTATUS))), 1u);
  EXPECT_EQ(f::IRQ_STATUS_CQ.get(bus.reg(regs::IRQ_STATUS)), 0x7u);
  EXPECT_TRUE(tb.irq());
  // Round robin: the markers' times interleave q0, q1, q2, q0, q1, q2, q0, q1, q0, q1, ...
  std::vector<std::pair<uint64_t, uint32_t>> order;  // (time, queue)
  for (uint32_t i = 0; i < 3; ++i) {
    for (uint32_t k = 0; k < (i == 2 ? 2u : 5u); ++k) {
      cq::CompletionEntry e;
      ASSERT_EQ(q[i].qp.peek(&e), 1);
      EXPECT_EQ(e.seq, k);
      EXPECT_EQ(e.token, 100u * i + k);
      EXPECT_EQ(e.status, uint8_t(cq::CplStatus::COMPLETED));
      EXPECT_EQ(e.start_cycle, e.end_cycle);
      EXPECT_EQ((e.phase >> cq::kCPL_QUEUE_LSB) & 0xFF, i);
      order.push_back({e.start_cycle, i});
      q[i].qp.pop();
    }
  }
  std::sort(order.begin(), order.end());
  const uint32_t want[] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 1, 0, 1};
  ASSERT_EQ(order.size(), 12u);
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i].second, want[i]) << "completion " << i;
  // The host frees queue 2's ring: the rest of it runs.
  ASSERT_TRUE(q[2].qp.commit_head());
  tb.run_cycles(1000);
  EXPECT_EQ(bus.reg(regs::qp(2, QpReg::CQ_TAIL)), 4u);
  EXPECT_EQ(bus.reg(regs::LAUNCHES), 14u);
  EXPECT_EQ(bus.reg(regs::FAILED), 0u);
}

// A queue pair's ring registers are fixed while it is in use (work
// submitted, a launch in flight, completions unconsumed): the write is ignored
// and reported, so the completion slot reserved at fetch stays the one the
// host expects (the formal proof of the completion writer relies on it).
TEST(CommandProcessor, RingRegistersOfAQueueInUseAreFixed) {
  auto t = cosimtest::rtl_device();
  TransportBus bus(t.get());
  Testbench& tb = t->testbench();
  auto qerr = [&] { return f::QSTATUS_DOORBELL_ERROR.get(bus.reg(regs::qp(0, QpReg::QSTATUS))); };
  drv::QueuePairHost qp;
  qp.attach(bus.transport(), drv::QueuePairLayout{0, 0x10000, 8, 0x14000, 8});
  ASSERT_TRUE(qp.program());
  uint32_t idx = 0;
  ASSERT_TRUE(qp.write_descriptor(marker(7), &idx));
  ASSERT_TRUE(qp.ring_doorbell());
  // Submitted, not fetched (the engine is off): locked.
  for (QpReg r : {QpReg::SQ_BASE, QpReg::SQ_SIZE, QpReg::CQ_BASE, QpReg::CQ_SIZE}) {
    ASSERT_TRUE(bus.reg_write(regs::qp(0, r), 0x20000));
  }
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::SQ_BASE)), 0x10000u);
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::SQ_SIZE)), 8u);
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::CQ_BASE)), 0x14000u);
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::CQ_SIZE)), 8u);
  EXPECT_EQ(qerr(), 1u);
  EXPECT_EQ(f::IRQ_STATUS_QUEUE_ERROR.get(bus.reg(regs::IRQ_STATUS)), 1u);
  // Fetched and completed, the completion not consumed: still locked.
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, f::CONTROL_ENABLE.put(1)));
  tb.run_cycles(500);
  ASSERT_EQ(bus.reg(regs::qp(0, QpReg::CQ_TAIL)), 1u);
  ASSERT_TRUE(bus.reg_write(regs::qp(0, QpReg::CQ_SIZE), 16));
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::CQ_SIZE)), 8u);
  // Consumed: the queue pair is quiescent and can be moved.
  cq::CompletionEntry e;
  ASSERT_EQ(qp.peek(&e), 1);
  EXPECT_EQ(e.token, 7u);
  qp.pop();
  ASSERT_TRUE(qp.commit_head());
  ASSERT_TRUE(bus.reg_write(regs::qp(0, QpReg::CQ_SIZE), 16));
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::CQ_SIZE)), 16u);
}

TEST(CommandProcessor, DoorbellAndHeadErrorsAreIgnoredAndReported) {
  auto t = cosimtest::rtl_device();
  TransportBus bus(t.get());
  auto qerr = [&](uint32_t q) { return f::QSTATUS_DOORBELL_ERROR.get(bus.reg(regs::qp(q, QpReg::QSTATUS))); };
  // A queue that is off ignores its doorbell.
  ASSERT_TRUE(bus.reg_write(regs::qp(0, QpReg::DOORBELL), 1));
  EXPECT_EQ(bus.reg(regs::qp(0, QpReg::SQ_TAIL)), 0u);
  EXPECT_EQ(qerr(0), 1u);
  EXPECT_EQ(f::IRQ_STATUS_QUEUE_ERROR.get(bus.reg(regs::IRQ_STATUS)), 1u);
  ASSERT_TRUE(bus.reg_write(regs::IRQ_STATUS, f::IRQ_STATUS_QUEUE_ERROR.put(1)));
  EXPECT_EQ(bus.reg(regs::IRQ_STATUS), 0u);
  // Invalid ring registers: CONFIG_ERROR.
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::SQ_BASE), 0x1020));  // not 64-byte aligned
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::SQ_SIZE), 8));
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_BASE), 0x2000));
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_SIZE), 8));
  EXPECT_EQ(f::QSTATUS_CONFIG_ERROR.get(bus.reg(regs::qp(1, QpReg::QSTATUS))), 1u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::SQ_BASE), 0x1000));
  EXPECT_EQ(f::QSTATUS_CONFIG_ERROR.get(bus.reg(regs::qp(1, QpReg::QSTATUS))), 0u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_SIZE), 12));  // not a power of two
  EXPECT_EQ(f::QSTATUS_CONFIG_ERROR.get(bus.reg(regs::qp(1, QpReg::QSTATUS))), 1u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_SIZE), 8));
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_BASE), TopParams::kMemBytes - 4 * cq::kCPL_BYTES));  // runs past memory
  EXPECT_EQ(f::QSTATUS_CONFIG_ERROR.get(bus.reg(regs::qp(1, QpReg::QSTATUS))), 1u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_BASE), 0x2000));
  // Doorbells: up to SQ_SIZE ahead of the head is fine; more, or behind the tail, is not.
  EXPECT_EQ(qerr(1), 0u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::DOORBELL), 8));
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::SQ_TAIL)), 8u);
  EXPECT_EQ(qerr(1), 0u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::DOORBELL), 9));
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::SQ_TAIL)), 8u);
  EXPECT_EQ(qerr(1), 1u);
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::DOORBELL), 7));
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::SQ_TAIL)), 8u);
  // CQ_HEAD may not pass CQ_TAIL.
  ASSERT_TRUE(bus.reg_write(regs::qp(1, QpReg::CQ_HEAD), 1));
  EXPECT_EQ(bus.reg(regs::qp(1, QpReg::CQ_HEAD)), 0u);
  // Queues beyond CONFIG1.NUM_QUEUES do not exist.
  ASSERT_TRUE(bus.reg_write(regs::qp(TopParams::kNumQueues, QpReg::SQ_SIZE), 8));
  EXPECT_EQ(bus.reg(regs::qp(TopParams::kNumQueues, QpReg::SQ_SIZE)), 0u);
  // The interrupt line is IRQ_STATUS & IRQ_MASK.
  EXPECT_FALSE(t->testbench().irq());
  ASSERT_TRUE(bus.reg_write(regs::IRQ_MASK, f::IRQ_MASK_QUEUE_ERROR.put(1)));
  t->testbench().run_cycles(2);
  EXPECT_TRUE(t->testbench().irq());
  ASSERT_TRUE(bus.reg_write(regs::IRQ_STATUS, 0xFFFFFFFFu));
  t->testbench().run_cycles(2);
  EXPECT_FALSE(t->testbench().irq());
}

// The entry's phase word is written last: at no cycle is the phase valid
// while the other 60 bytes are not yet final.
TEST(CommandProcessor, PhaseWordBecomesValidOnlyAfterTheWholeEntry) {
  cosim::RtlDeviceOptions o;
  o.mem = cosimtest::test_memory(3);
  o.mem.min_latency = 5;
  o.mem.max_latency = 60;
  auto t = cosim::open_rtl_device(o);
  TransportBus bus(t.get());
  Testbench& tb = t->testbench();
  drv::QueuePairHost qp;
  const uint32_t sq = 0x8000, cqb = 0x9000;
  qp.attach(bus.transport(), drv::QueuePairLayout{0, sq, 8, cqb, 4});
  ASSERT_TRUE(qp.program());
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, f::CONTROL_ENABLE.put(1)));
  for (uint32_t round = 0; round < 12; ++round) {
    uint32_t idx = 0;
    cq::LaunchDescriptor d = marker(0xABC000 + round);
    if (round % 3 == 1) d.magic = 0;  // a bad descriptor completes the same way
    ASSERT_TRUE(qp.write_descriptor(d, &idx));
    ASSERT_TRUE(qp.ring_doorbell());
    const uint32_t slot = cqb + (idx % 4) * cq::kCPL_BYTES;
    const bool want_phase = ((idx / 4) % 2) == 0;
    uint8_t last[cq::kCPL_BYTES];
    std::memcpy(last, tb.memory().data() + slot, cq::kCPL_BYTES);
    bool seen = false;
    int changes_after = 0;
    for (int c = 0; c < 2000 && !seen; ++c) {
      tb.run_cycles(1);
      cq::CompletionEntry e;
      std::memcpy(&e, tb.memory().data() + slot, cq::kCPL_BYTES);
      if (e.phase_bit() == want_phase) {
        seen = true;
        // Everything else must already be final.
        EXPECT_EQ(e.token, d.token);
        EXPECT_EQ(e.seq, idx);
        EXPECT_NE(e.status, 0u);
      }
    }
    ASSERT_TRUE(seen) << "round " << round;
    uint8_t now[cq::kCPL_BYTES];
    std::memcpy(now, tb.memory().data() + slot, cq::kCPL_BYTES);
    tb.run_cycles(200);
    changes_after = std::memcmp(now, tb.memory().data() + slot, cq::kCPL_BYTES);
    EXPECT_EQ(changes_after, 0) << "the entry changed after its phase word was written";
    cq::CompletionEntry e;
    ASSERT_EQ(qp.peek(&e), 1);
    qp.pop();
    ASSERT_TRUE(qp.commit_head());
    (void)last;
  }
}

TEST(CommandProcessor, SoftResetDrainsTheMemoryPortAndRestoresEveryRegister) {
  cosim::RtlDeviceOptions o;
  o.mem = cosimtest::test_memory(5);
  o.mem.min_latency = 100;
  o.mem.max_latency = 300;
  auto t = cosim::open_rtl_device(o);
  TransportBus bus(t.get());
  Testbench& tb = t->testbench();
  drv::Device dev;
  drv::DeviceOptions dopt;
  dopt.queues = 1;
  ASSERT_EQ(dev.open(t.get(), dopt), drv::Status::OK);
  drv::Context c;
  ASSERT_EQ(dev.ctx_create(&c), drv::Status::OK);
  drvtest::VecAdd va;
  ASSERT_EQ(va.setup(dev, c, 4096, 1), drv::Status::OK);
  ASSERT_EQ(va.launch(dev, drv::Stream{}, nullptr, 128), drv::Status::OK);
  // Let it get going, and reset in the cycle a new request reaches the
  // memory (the count goes up), so at least one answer is >= 100 cycles away
  // whatever the requests already in flight (the layout of device memory
  // decides which of those are near their answer).
  tb.run_cycles(2000);
  for (int i = 0; i < 20000; ++i) {
    const uint32_t before = tb.mem_outstanding();
    tb.run_cycles(1);
    if (tb.mem_outstanding() > before) break;
  }
  ASSERT_GE(tb.mem_outstanding(), 1u);
  ASSERT_TRUE(bus.reg_write(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1)));
  ASSERT_EQ(f::STATUS_RESETTING.get(tb.status()), 1u);
  uint64_t cycles = 0;
  while (f::STATUS_RESETTING.get(tb.status())) {
    tb.run_cycles(1);
    ++cycles;
    ASSERT_LT(cycles, 10000u);
  }
  EXPECT_EQ(tb.mem_outstanding(), 0u);
  EXPECT_GE(cycles, 100u) << "the reset ended before the slow memory answered";
  std::printf("[perf] soft reset with responses in flight (latency 100..300): %llu cycles\n",
              (unsigned long long)cycles);
  cq::ModelDevice model(model_like_rtl());
  for (uint32_t off : all_offsets()) {
    if (is_time_dependent(off) || off == regs::IRQ_STATUS) continue;
    EXPECT_EQ(bus.reg(off), model.reg_read(off)) << "offset 0x" << std::hex << off;
  }
  EXPECT_EQ(bus.reg(regs::IRQ_STATUS), f::IRQ_STATUS_RESET_DONE.put(1));
  // Nothing touches memory afterwards.
  const std::vector<uint8_t> before = tb.memory();
  tb.run_cycles(5000);
  EXPECT_TRUE(before == tb.memory()) << "device memory changed after the reset";
  EXPECT_EQ(tb.mem_outstanding(), 0u);
  dev.close();
}

// Cycles from the doorbell to the completion entry, with a one-cycle memory:
// for a marker, and for the smallest kernel (one warp of vec_add, n = 1).
TEST(CommandProcessor, LaunchOverheadInCycles) {
  cosim::RtlDeviceOptions o;
  o.mem.min_latency = o.mem.max_latency = 1;
  auto t = cosim::open_rtl_device(o);
  TransportBus bus(t.get());
  Testbench& tb = t->testbench();
  drv::Device dev;
  drv::DeviceOptions dopt;
  dopt.queues = 1;
  dopt.use_irq = true;
  ASSERT_EQ(dev.open(t.get(), dopt), drv::Status::OK);
  drv::Context c;
  ASSERT_EQ(dev.ctx_create(&c), drv::Status::OK);
  drvtest::VecAdd va;
  ASSERT_EQ(va.setup(dev, c, 1, 1), drv::Status::OK);
  drv::DevPtr code = 0;
  uint32_t code_bytes = 0;
  ASSERT_EQ(dev.module_code_range(va.mod, &code, &code_bytes), drv::Status::OK);
  drv::DevPtr sq = 0, cqb = 0, prm = 0, wt = 0;
  ASSERT_EQ(dev.mem_alloc(c, 8 * 64, &sq), drv::Status::OK);
  ASSERT_EQ(dev.mem_alloc(c, 8 * cq::kCPL_BYTES, &cqb), drv::Status::OK);
  ASSERT_EQ(dev.mem_alloc(c, 16, &prm), drv::Status::OK);
  ASSERT_EQ(dev.mem_alloc(c, 24, &wt), drv::Status::OK);
  const uint32_t pv[4] = {va.a, va.b, va.c, va.n};
  ASSERT_EQ(dev.memcpy_htod(c, prm, pv, 16), drv::Status::OK);
  const cq::WindowEntry w[3] = {{va.a, 4}, {va.b, 4}, {va.c, 4}};
  ASSERT_EQ(dev.memcpy_htod(c, wt, w, 24), drv::Status::OK);
  drv::QueuePairHost qp;
  qp.attach(bus.transport(), drv::QueuePairLayout{1, sq, 8, cqb, 8});
  ASSERT_TRUE(qp.program());
  ASSERT_TRUE(bus.reg_write(regs::IRQ_MASK, f::IRQ_MASK_CQ.put(2)));

  auto measure = [&](const cq::LaunchDescriptor& d, cq::CompletionEntry* out) -> uint64_t {
    uint32_t idx = 0;
    EXPECT_TRUE(qp.write_descriptor(d, &idx));
    EXPECT_TRUE(bus.reg_write(regs::IRQ_STATUS, 0xFFFFFFFFu));
    EXPECT_TRUE(qp.ring_doorbell());  // the write is accepted at the next edge
    const uint64_t t0 = tb.cycle();
    EXPECT_TRUE(tb.run_until_irq(100000));
    const uint64_t cycles = tb.cycle() - t0;
    EXPECT_EQ(qp.peek(out), 1);
    qp.pop();
    EXPECT_TRUE(qp.commit_head());
    return cycles;
  };
  cq::CompletionEntry e;
  const uint64_t m = measure(marker(1), &e);
  EXPECT_EQ(e.status, uint8_t(cq::CplStatus::COMPLETED));
  cq::LaunchDescriptor k;
  k.token = 2;
  k.entry_pc = code;
  k.code_base = code;
  k.code_size = code_bytes;
  k.grid_x = 1;
  k.block_x = 32;
  k.regs = uint8_t(drvtest::kernel_module("vec_add").kernels[0].regs);
  k.param_addr = prm;
  k.param_size = 16;
  k.window_table = wt;
  k.window_count = 3;
  const uint64_t total = measure(k, &e);
  EXPECT_EQ(e.status, uint8_t(cq::CplStatus::COMPLETED)) << cq::error_code_name(cq::ErrorCode(e.error));
  const uint64_t kernel = e.end_cycle - e.start_cycle;
  // The testbench's view of the SM's counters (Testbench::sm_counters, read
  // from inside the top) is what the command processor wrote.
  const cosim::SmCounters sc = tb.sm_counters();
  EXPECT_GT(sc.cycles, 0u);
  EXPECT_EQ(sc.cycles, e.sm_cycles);
  EXPECT_EQ(sc.instrs, e.warp_instrs);
  EXPECT_EQ(sc.stalls, e.stall_cycles);
  EXPECT_EQ(sc.smem_passes, e.shared_passes);
  EXPECT_EQ(sc.thread_instrs, e.thread_instrs);
  EXPECT_EQ(sc.divergent_branches, e.div_branches);
  EXPECT_EQ(sc.barrier_releases, e.bar_releases);
  EXPECT_EQ(sc.ctas, e.ctas_done);
  uint64_t warp_cycles = 0;
  for (int s = 0; s < cq::CompletionEntry::kWarpStates; ++s) {
    EXPECT_EQ(sc.state_cycles[size_t(s)], e.warp_state_cycles(s)) << "warp state " << s;
    warp_cycles += sc.state_cycles[size_t(s)];
  }
  EXPECT_EQ(warp_cycles, sc.cycles * cosim::TopParams::kNumWarps);
  k.token = 3;
  k.magic = 0;
  const uint64_t bad = measure(k, &e);
  EXPECT_EQ(e.error, uint8_t(cq::ErrorCode::BAD_DESCRIPTOR));
  std::printf(
      "[perf] doorbell -> interrupt, 1-cycle memory: marker %llu cycles; bad descriptor %llu cycles; "
      "vec_add n=1 %llu cycles, of which the SM ran %llu (launch overhead %llu)\n",
      (unsigned long long)m, (unsigned long long)bad, (unsigned long long)total, (unsigned long long)kernel,
      (unsigned long long)(total - kernel));
  EXPECT_LT(m, 40u);
  EXPECT_LT(total - kernel, 60u);
  dev.close();
}

}  // namespace
}  // namespace baresm
