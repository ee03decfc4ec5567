// The link bring-up bitstream in simulation (rtl/fpga/baresm_icebreaker_link_top,
// docs/fpga.md): UART, frame bridge, the generated register block and the
// SPRAM device memory, no SM. The real drv::SerialTransport over a
// pseudo-terminal to the verilated top (sim/serial, library
// baresm_board_sim_link): what a freshly flashed board must answer before the
// SM fits: ID/VERSION/CONFIG, SCRATCH, soft reset and its interrupt, memory
// bursts over all 128 KB, range refusals, link faults retried; and the driver
// refusing the device clearly (no SM, no queues) instead of queueing launches.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "contract/regs.h"
#include "host_driver/driver.h"
#include "host_driver/serial_transport.h"
#include "sim/serial/board_sim.h"
#include "tests/serial/serial_test_util.h"

namespace {

namespace drv = baresm::drv;
namespace regs = baresm::regs;
namespace rf = baresm::regs::f;
using baresm::serialsim::BoardSim;
using baresm::serialsim::BoardSimOptions;
using baresm::serialsim::LinkFaults;

using baresm::serialtest::FaultyLinkCalls;
using baresm::serialtest::open_link;

uint32_t rd(drv::SerialTransport& t, uint32_t off) {
  uint32_t v = 0xDEADBEEF;
  EXPECT_EQ(t.mmio_read32(off, &v), drv::Status::OK) << t.last_error();
  return v;
}

TEST(SerialLinkTop, RegistersSayNoSm) {
  BoardSim b;
  ASSERT_TRUE(b.ok()) << b.error();
  auto t = open_link(b);
  ASSERT_TRUE(t);
  EXPECT_EQ(rd(*t, regs::ID), 0x42534D31u);
  EXPECT_EQ(rf::VERSION_MAJOR.get(rd(*t, regs::VERSION)), uint32_t(regs::VERSION_MAJOR));
  EXPECT_EQ(rd(*t, regs::CONFIG0), 0u) << "no lanes, warps, CTA slots, banks";
  EXPECT_EQ(rd(*t, regs::CONFIG1), 0u) << "no queue pairs";
  EXPECT_EQ(rd(*t, regs::CONFIG4), 131072u) << "MemBytes of the board";
  EXPECT_EQ(rd(*t, regs::CONFIG5), 12000u) << "ClockKhz of the board";
  EXPECT_EQ(rd(*t, regs::STATUS), rf::STATUS_IDLE.put(1));
  std::mt19937 rng(5);
  for (int i = 0; i < 30; i++) {
    const uint32_t w = rng();
    ASSERT_EQ(t->mmio_write32(regs::SCRATCH, w), drv::Status::OK) << t->last_error();
    ASSERT_EQ(rd(*t, regs::SCRATCH), w);
  }
  // CYCLES counts.
  const uint32_t c0 = rd(*t, regs::CYCLES_LO);
  EXPECT_GT(rd(*t, regs::CYCLES_LO), c0);
  // An offset outside the register space is refused by the bridge.
  uint32_t v = 0;
  EXPECT_EQ(t->mmio_read32(0x400, &v), drv::Status::TRANSPORT_ERROR);
  EXPECT_NE(t->last_error().find("MEM_RANGE"), std::string::npos) << t->last_error();
}

TEST(SerialLinkTop, SoftResetClearsRegistersAndInterrupts) {
  BoardSim b;
  auto t = open_link(b);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->mmio_write32(regs::SCRATCH, 0x12345678u), drv::Status::OK);
  ASSERT_EQ(t->mmio_write32(regs::CONTROL, rf::CONTROL_SOFT_RESET.put(1)), drv::Status::OK);
  EXPECT_EQ(rd(*t, regs::SCRATCH), 0u);
  EXPECT_EQ(rf::STATUS_RESETTING.get(rd(*t, regs::STATUS)), 0u);
  EXPECT_EQ(rf::IRQ_STATUS_RESET_DONE.get(rd(*t, regs::IRQ_STATUS)), 1u);
  // The interrupt line follows IRQ_STATUS & IRQ_MASK.
  bool irq = false;
  ASSERT_EQ(t->wait_irq(1000000, &irq), drv::Status::OK);
  EXPECT_FALSE(irq) << "masked";
  ASSERT_EQ(t->mmio_write32(regs::IRQ_MASK, rf::IRQ_MASK_RESET_DONE.put(1)), drv::Status::OK);
  ASSERT_EQ(t->wait_irq(1000000, &irq), drv::Status::OK);
  EXPECT_TRUE(irq);
  ASSERT_EQ(t->mmio_write32(regs::IRQ_STATUS, rf::IRQ_STATUS_RESET_DONE.put(1)), drv::Status::OK);  // W1C
  ASSERT_EQ(t->wait_irq(1000000, &irq), drv::Status::OK);
  EXPECT_FALSE(irq);
}

TEST(SerialLinkTop, MemoryBursts) {
  BoardSim b;
  auto t = open_link(b);
  ASSERT_TRUE(t);
  std::mt19937 rng(9);
  struct Case {
    uint32_t addr, len;
  };
  // Every SPRAM (16K x 16 each, side by side as 64-bit words) and both ends.
  const Case cases[] = {{0, 1}, {3, 7}, {0x1001, 129}, {0x8003, 300}, {0x10005, 200}, {131072 - 300, 300}};
  for (const Case& c : cases) {
    std::vector<uint8_t> w(c.len), r(c.len, 0xEE);
    for (auto& x : w) x = uint8_t(rng());
    ASSERT_EQ(t->mem_write(c.addr, w.data(), c.len), drv::Status::OK) << t->last_error();
    ASSERT_EQ(t->mem_read(c.addr, r.data(), c.len), drv::Status::OK) << t->last_error();
    EXPECT_EQ(r, w) << "at 0x" << std::hex << c.addr;
  }
  uint8_t x = 1;
  EXPECT_EQ(t->mem_write(131072, &x, 1), drv::Status::TRANSPORT_ERROR);
  EXPECT_NE(t->last_error().find("MEM_RANGE"), std::string::npos) << t->last_error();
  EXPECT_EQ(t->mem_read(131071, &x, 2), drv::Status::TRANSPORT_ERROR);
}

TEST(SerialLinkTop, LinkFaultsAreRetried) {
  BoardSimOptions o;
  o.seed = 7;
  LinkFaults f;
  f.drop = 0.002;
  f.flip = 0.002;
  f.dup = 0.002;
  o.to_device = f;
  o.to_host = f;
  BoardSim b(o);
  auto t = open_link(b);
  ASSERT_TRUE(t);
  std::mt19937 rng(17);
  FaultyLinkCalls c{*t};
  uint32_t v = 0;
  for (int i = 0; i < 60; i++) {
    const uint32_t w = rng();
    if (!c.ok(t->mmio_write32(regs::SCRATCH, w)) || !c.ok(t->mmio_read32(regs::SCRATCH, &v))) continue;
    ASSERT_EQ(v, w) << "a wrong register value came through at " << i;
  }
  std::vector<uint8_t> w(1000), r(1000);
  for (auto& x : w) x = uint8_t(rng());
  if (c.ok(t->mem_write(0x4000, w.data(), uint32_t(w.size()))) &&
      c.ok(t->mem_read(0x4000, r.data(), uint32_t(r.size())))) {
    EXPECT_EQ(r, w) << "a wrong memory byte came through";
  }
  const auto st = b.stats();
  EXPECT_GT(st.dropped + st.flipped + st.duplicated, 3u);
  EXPECT_GT(t->stats().retries, 0u);
  // 0.6% of the bytes faulted each way: a 134-byte burst frame fails about
  // half its attempts, so about one run in 25 has a call that runs out of
  // its 10; three in one run, about one in 100,000. One attempt per call
  // would fail about 25 of the 122.
  EXPECT_LE(c.failed, 2) << c.failed << " of " << c.calls << " calls failed: retries do not work";
}

TEST(SerialLinkTop, DriverRefusesTheDeviceClearly) {
  BoardSim b;
  auto t = open_link(b);
  ASSERT_TRUE(t);
  drv::Device dev;
  EXPECT_EQ(dev.open(t.get()), drv::Status::DEVICE_ERROR);
  EXPECT_EQ(dev.last_error().layer, drv::Layer::DEVICE);
  EXPECT_NE(std::strstr(dev.last_error().detail, "no SM"), nullptr) << dev.last_error().detail;
  // The link is still fine after the refusal.
  EXPECT_EQ(rd(*t, regs::ID), 0x42534D31u);
}

}  // namespace
