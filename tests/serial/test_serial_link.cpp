// The serial link end to end: drv::SerialTransport (the host's real code,
// termios included) talks over a pseudo-terminal to the verilated iCEBreaker
// top (sim/serial/board_sim.h: the bridge, UART and device RTL, with a
// bit-level UART model on the pins). Registers, memory bursts, the bridge's
// error answers and resynchronization, seeded link faults (never a wrong
// value: retried or a TRANSPORT_ERROR), the port closing mid-launch, and the
// integer samples through the unchanged driver, checked against the
// functional model configured like the board.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "contract/regs.h"
#include "host_driver/model_transport.h"
#include "host_driver/serial_protocol.h"
#include "host_driver/serial_transport.h"
#include "host_driver/devices.h"
#include "isa/fp32.h"
#include "samples/samples.h"
#include "sim/serial/board_sim.h"
#include "tests/serial/serial_test_util.h"

namespace {

namespace drv = baresm::drv;
namespace regs = baresm::regs;
namespace ser = baresm::drv::serial;
using baresm::serialsim::BoardSim;
using baresm::serialsim::BoardSimOptions;
using baresm::serialsim::LinkFaults;

using baresm::serialtest::FaultyLinkCalls;
using baresm::serialtest::open_link;
using baresm::serialtest::test_options;

double secs_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(SerialLink, RegistersOverThePty) {
  BoardSim b;
  ASSERT_TRUE(b.ok()) << b.error();
  auto t = open_link(b);
  ASSERT_TRUE(t);
  uint32_t v = 0;
  ASSERT_EQ(t->mmio_read32(regs::ID, &v), drv::Status::OK) << t->last_error();
  EXPECT_EQ(v, 0x42534D31u);
  ASSERT_EQ(t->mmio_read32(regs::CONFIG4, &v), drv::Status::OK);
  EXPECT_EQ(v, BoardSim::mem_bytes()) << "MemBytes of the board";
  ASSERT_EQ(t->mmio_read32(regs::CONFIG5, &v), drv::Status::OK);
  EXPECT_EQ(v, 12000u) << "ClockKhz of the board";
  std::mt19937 rng(5);
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = b.stats().cycles;
  const int n = 100;
  for (int i = 0; i < n; i++) {
    const uint32_t w = rng();
    ASSERT_EQ(t->mmio_write32(regs::SCRATCH, w), drv::Status::OK) << t->last_error();
    ASSERT_EQ(t->mmio_read32(regs::SCRATCH, &v), drv::Status::OK) << t->last_error();
    ASSERT_EQ(v, w);
  }
  const double s = secs_since(t0);
  const uint64_t cyc = b.stats().cycles - c0;
  std::printf("[perf] %d register write+read pairs: %.2f s, %.0f frames/s, %.0f simulated cycles/s\n", n, s,
              2 * n / s, cyc / s);
  // An offset outside the register space is refused by the bridge, not retried.
  EXPECT_EQ(t->mmio_read32(0x400, &v), drv::Status::TRANSPORT_ERROR);
  EXPECT_NE(t->last_error().find("MEM_RANGE"), std::string::npos) << t->last_error();
  EXPECT_EQ(t->stats().retries, 0u) << "timeouts " << t->stats().timeouts << " bad CRC " << t->stats().bad_crc
                                    << " bridge errors " << t->stats().device_errors;
}

TEST(SerialLink, MemoryBurstsOverThePty) {
  BoardSim b;
  auto t = open_link(b);
  ASSERT_TRUE(t);
  std::mt19937 rng(9);
  struct Case {
    uint32_t addr, len;
  };
  const Case cases[] = {{0, 1}, {3, 7}, {0x100, 128}, {0x1001, 129}, {0x2003, 1000},
                        {BoardSim::mem_bytes() - 300, 300}};
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t bytes = 0;
  for (const Case& c : cases) {
    std::vector<uint8_t> w(c.len), r(c.len, 0xEE);
    for (auto& x : w) x = uint8_t(rng());
    ASSERT_EQ(t->mem_write(c.addr, w.data(), c.len), drv::Status::OK) << t->last_error();
    ASSERT_EQ(t->mem_read(c.addr, r.data(), c.len), drv::Status::OK) << t->last_error();
    EXPECT_EQ(r, w) << "at 0x" << std::hex << c.addr;
    bytes += 2 * c.len;
  }
  const double s = secs_since(t0);
  std::printf("[perf] memory bursts: %llu bytes moved in %.2f s: %.0f bytes/s over the simulated link\n",
              (unsigned long long)bytes, s, bytes / s);
  // Beyond device memory: refused, nothing written.
  uint8_t x = 1;
  EXPECT_EQ(t->mem_write(BoardSim::mem_bytes(), &x, 1), drv::Status::TRANSPORT_ERROR);
  EXPECT_NE(t->last_error().find("MEM_RANGE"), std::string::npos) << t->last_error();
  EXPECT_EQ(t->mem_read(BoardSim::mem_bytes() - 1, &x, 2), drv::Status::TRANSPORT_ERROR);
}

// Raw bytes on the line: the bridge answers garbage, a truncated frame and a
// bad CRC with ERROR frames and keeps working.
std::vector<uint8_t> frame(uint8_t cmd, uint8_t seq, const std::vector<uint8_t>& p) {
  std::vector<uint8_t> f;
  f.reserve(p.size() + 6);
  for (uint8_t b : {uint8_t(ser::kSync), cmd, seq, uint8_t(p.size())}) f.push_back(b);
  for (uint8_t b : p) f.push_back(b);
  const uint16_t crc = ser::crc16(f.data() + 1, f.size() - 1);
  f.push_back(uint8_t(crc));
  f.push_back(uint8_t(crc >> 8));
  return f;
}

std::vector<uint8_t> read_for(int fd, int ms) {
  std::vector<uint8_t> out;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    uint8_t buf[256];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) out.insert(out.end(), buf, buf + n);
    else usleep(1000);
  }
  return out;
}

// The ERROR codes found in a byte stream (frames whose CRC holds).
std::vector<uint8_t> error_codes(const std::vector<uint8_t>& s) {
  std::vector<uint8_t> codes;
  for (size_t i = 0; i + 6 <= s.size(); i++) {
    if (s[i] != ser::kSync) continue;
    const size_t len = s[i + 3];
    if (i + 6 + len > s.size()) continue;
    const uint16_t crc = ser::crc16(&s[i + 1], 3 + len);
    if ((s[i + 4 + len] | (s[i + 5 + len] << 8)) != crc) continue;
    if (s[i + 1] == uint8_t(ser::Evt::ERROR) && len == 2) codes.push_back(s[i + 4]);
    i += 5 + len;
  }
  return codes;
}

TEST(SerialLink, BridgeAnswersBadFramesAndResynchronizes) {
  BoardSimOptions o;
  o.pty = false;  // a socket pair: raw bytes, no termios in the way
  BoardSim b(o);
  const int fd = b.host_fd();
  ASSERT_GE(fd, 0);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  // 1. A bad CRC.
  auto f = frame(uint8_t(ser::Cmd::REG_READ), 1, {0x2C, 0x00});
  f[f.size() - 1] ^= 0x40;
  ASSERT_EQ(::write(fd, f.data(), f.size()), ssize_t(f.size()));
  auto got = error_codes(read_for(fd, 150));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], uint8_t(ser::Err::BAD_CRC));
  // 2. A truncated frame: the bridge times out and answers TIMEOUT.
  f = frame(uint8_t(ser::Cmd::REG_WRITE), 2, {0x2C, 0x00, 1, 2, 3, 4});
  ASSERT_EQ(::write(fd, f.data(), 5), 5);
  got = error_codes(read_for(fd, 300));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], uint8_t(ser::Err::TIMEOUT));
  // 3. An oversize LEN, an unknown command, a wrong length.
  const uint8_t big[] = {uint8_t(ser::kSync), 0x05, 3, 250};
  ASSERT_EQ(::write(fd, big, 4), 4);
  got = error_codes(read_for(fd, 150));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], uint8_t(ser::Err::TOO_LONG));
  f = frame(0x33, 4, {});
  ASSERT_EQ(::write(fd, f.data(), f.size()), ssize_t(f.size()));
  got = error_codes(read_for(fd, 150));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], uint8_t(ser::Err::BAD_CMD));
  f = frame(uint8_t(ser::Cmd::REG_READ), 5, {0x2C});
  ASSERT_EQ(::write(fd, f.data(), f.size()), ssize_t(f.size()));
  got = error_codes(read_for(fd, 150));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], uint8_t(ser::Err::BAD_LEN));
  // 4. Garbage (SYNC bytes included), then the transport works at once.
  std::mt19937 rng(3);
  std::vector<uint8_t> junk(200);
  for (auto& x : junk) x = (rng() % 5 == 0) ? uint8_t(ser::kSync) : uint8_t(rng());
  ASSERT_EQ(::write(fd, junk.data(), junk.size()), ssize_t(junk.size()));
  drv::SerialTransport t(fd, test_options(), true);
  ASSERT_EQ(t.connect(), drv::Status::OK) << t.last_error();
  for (uint32_t i = 0; i < 10; i++) {
    uint32_t v = 0;
    ASSERT_EQ(t.mmio_write32(regs::SCRATCH, 0x1000 + i), drv::Status::OK) << t.last_error();
    ASSERT_EQ(t.mmio_read32(regs::SCRATCH, &v), drv::Status::OK) << t.last_error();
    EXPECT_EQ(v, 0x1000 + i);
  }
}

// A corrupted answer header whose LEN promises bytes that never come must
// not hide the answers after it: once the line is quiet the host drops the
// partial frame (this once wedged a run: every retry's answer queued behind
// a header waiting for 128 bytes).
TEST(SerialLink, PartialAnswerDoesNotHideTheRetrysAnswer) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  std::thread device([fd = sv[0]] {
    // Answers each request frame: the first with a bare header claiming 128
    // payload bytes, the others properly.
    std::vector<uint8_t> in;
    int answered = 0;
    while (answered < 2) {
      uint8_t buf[64];
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) return;
      in.insert(in.end(), buf, buf + n);
      while (in.size() >= 4 && in.size() >= in[3] + ser::kOverhead) {
        const uint8_t cmd = in[1], seq = in[2];
        in.erase(in.begin(), in.begin() + long(in[3] + ser::kOverhead));
        std::vector<uint8_t> a;
        if (answered++ == 0) {
          a = {uint8_t(ser::kSync), uint8_t(cmd | ser::kRspFlag), seq, 0x80};
        } else {
          a = frame(uint8_t(cmd | ser::kRspFlag), seq, {});
        }
        if (::write(fd, a.data(), a.size()) != ssize_t(a.size())) return;
      }
    }
  });
  drv::SerialOptions o = test_options();
  o.response_timeout_ms = 100;
  {
    drv::SerialTransport t(sv[1], o, true);
    EXPECT_EQ(t.mmio_write32(regs::SCRATCH, 5), drv::Status::OK) << t.last_error();
    EXPECT_EQ(t.stats().retries, 1u);
  }
  device.join();
  ::close(sv[0]);
}

// Seeded faults in both directions: every value that comes back is right;
// the checksums catch the faults and the transport retries them.
TEST(SerialLink, LinkFaultsAreRetriedNeverSilentlyWrong) {
  BoardSimOptions o;
  o.seed = 42;
  LinkFaults f;
  f.drop = 0.001;
  f.flip = 0.001;
  f.dup = 0.001;
  o.to_device = f;
  o.to_host = f;
  BoardSim b(o);
  auto t = open_link(b);
  ASSERT_TRUE(t);
  std::mt19937 rng(17);
  FaultyLinkCalls c{*t};
  uint32_t v = 0;
  for (int i = 0; i < 100; i++) {
    const uint32_t w = rng();
    if (!c.ok(t->mmio_write32(regs::SCRATCH, w))) continue;
    if (!c.ok(t->mmio_read32(regs::SCRATCH, &v))) continue;
    ASSERT_EQ(v, w) << "a wrong register value came through at " << i;
  }
  std::vector<uint8_t> w(2000), r(2000);
  for (int k = 0; k < 2; k++) {
    for (auto& x : w) x = uint8_t(rng());
    if (!c.ok(t->mem_write(0x4000, w.data(), uint32_t(w.size())))) continue;
    std::fill(r.begin(), r.end(), 0);
    if (!c.ok(t->mem_read(0x4000, r.data(), uint32_t(r.size())))) continue;
    ASSERT_EQ(r, w) << "a wrong memory byte came through";
  }
  const auto st = b.stats();
  const auto& ts = t->stats();
  std::printf("[faults] injected: %llu dropped, %llu flipped, %llu duplicated; transport: %llu requests, "
              "%llu retries, %llu bad CRCs, %llu timeouts, %llu bridge errors; %d of %d calls failed\n",
              (unsigned long long)st.dropped, (unsigned long long)st.flipped, (unsigned long long)st.duplicated,
              (unsigned long long)ts.requests, (unsigned long long)ts.retries, (unsigned long long)ts.bad_crc,
              (unsigned long long)ts.timeouts, (unsigned long long)ts.device_errors, c.failed, c.calls);
  EXPECT_GT(st.dropped + st.flipped + st.duplicated, 5u);
  EXPECT_GT(ts.retries, 0u);
  // 0.3% of the bytes faulted each way: with retries a call fails about once
  // in 3,000 runs of this test; with one attempt per call 23 of 186 failed.
  EXPECT_LE(c.failed, 2) << "retries do not get calls through rare faults";
}

TEST(SerialLink, DeadLinkIsATransportErrorNamingTheLayer) {
  BoardSim b;
  auto t = open_link(b);
  ASSERT_TRUE(t);
  LinkFaults all;
  all.drop = 1.0;
  b.set_faults(LinkFaults{}, all);
  drv::SerialOptions o = test_options();
  uint32_t v = 0;
  EXPECT_EQ(t->mmio_read32(regs::ID, &v), drv::Status::TRANSPORT_ERROR);
  EXPECT_NE(t->last_error().find("serial link: REG_READ 0x0: no valid answer after"), std::string::npos)
      << t->last_error();
  EXPECT_EQ(t->stats().attempts, uint64_t(o.max_attempts) + 2) << "STATUS + CONFIG5, then every attempt";
}

// A board whose flash holds no firmware (erased: the loader finds no image)
// runs nothing: no frame is answered, and its fault and link LEDs say why.
TEST(SerialLink, ErasedFlashRunsNothingAndLightsItsLeds) {
  if (!BoardSim::fw_flash()) GTEST_SKIP() << "this board's device has no firmware in the flash";
  BoardSimOptions bo;
  bo.flash_image = "/nonexistent/firmware.bin";
  BoardSim b(bo);
  ASSERT_TRUE(b.ok()) << b.error();
  drv::SerialOptions o = test_options();
  o.max_attempts = 2;
  std::string err;
  auto t = drv::SerialTransport::open(b.port(), o, &err);
  EXPECT_FALSE(t);
  EXPECT_NE(err.find("serial link: "), std::string::npos) << err;
  const BoardSim::Stats st = b.stats();
  EXPECT_TRUE(st.led_fault) << "the fault LED";
  EXPECT_TRUE(st.led_link) << "the link LED";
}

// ---- through the driver ---------------------------------------------------------------

constexpr uint64_t kSyncTimeoutNs = 60'000'000'000ull;  // device time; the watchdog ends real hangs

// The board's small memory: a small code pool and short rings.
drv::DeviceOptions board_options(uint32_t watchdog) {
  drv::DeviceOptions o;
  o.watchdog = watchdog;
  o.code_pool_bytes = 8 * 1024;
  o.sq_entries = 4;
  o.cq_entries = 4;
  return o;
}

std::unique_ptr<drv::OpenDevice> serial_backend(BoardSim& b) {
  std::string err;
  auto t = drv::SerialTransport::open(b.port(), test_options(), &err);
  EXPECT_TRUE(t) << err;
  if (!t) return nullptr;
  drv::DeviceOptions o = board_options(drv::kDefaultWatchdogCycles);
  o.sync_timeout_ns = kSyncTimeoutNs;
  auto d = drv::open_device("serial", std::move(t), o, &err);
  EXPECT_TRUE(d) << err;
  return d;
}

baresm::cq::ModelDeviceConfig model_like(const drv::DeviceProps& p) {
  baresm::cq::ModelDeviceConfig c;
  c.num_lanes = p.num_lanes;
  c.num_warps = p.num_warps;
  c.cta_slots = p.cta_slots;
  c.num_banks = p.num_banks;
  c.max_regs = p.max_regs_per_thread;
  c.stack_depth = p.stack_depth;
  c.num_queues = p.num_queues;
  c.max_windows = p.max_windows;
  c.shared_bytes = p.shared_bytes;
  c.regfile_regs = p.regfile_regs;
  c.mem_bytes = p.mem_bytes;
  c.clock_khz = p.clock_khz;
  c.has_fpu = p.has_fpu;
  return c;
}

// The port closes while a launch runs: the wait ends with TRANSPORT_ERROR
// naming the serial link and the closed port, and every later call fails the
// same way at once (no hang, no wrong result).
TEST(SerialLink, PortClosingMidLaunchEndsTheWaitWithAClearError) {
  BoardSim b;
  auto be = serial_backend(b);
  ASSERT_TRUE(be);
  const auto* s = baresm::samples::find_sample("fault_endless_loop");
  ASSERT_NE(s, nullptr);
  b.unplug_when_busy(2000);
  baresm::samples::RunOptions opts;
  const auto t0 = std::chrono::steady_clock::now();
  const auto got = baresm::samples::run_sample(*s, be->device, opts);
  EXPECT_FALSE(got.passed);
  for (int i = 0; i < 100 && !b.stats().unplugged; i++) usleep(10000);
  EXPECT_TRUE(b.stats().unplugged) << "the port closed without an unplug";
  EXPECT_NE(got.message.find("TRANSPORT_ERROR"), std::string::npos) << got.message;
  auto& t = static_cast<drv::SerialTransport&>(*be->transport);
  EXPECT_TRUE(t.closed());
  EXPECT_NE(t.last_error().find("serial link"), std::string::npos) << t.last_error();
  EXPECT_NE(t.last_error().find("the port closed"), std::string::npos) << t.last_error();
  uint32_t v = 0;
  EXPECT_EQ(t.mmio_read32(regs::ID, &v), drv::Status::TRANSPORT_ERROR);
  EXPECT_EQ(be->device.synchronize(1000000), drv::Status::TRANSPORT_ERROR);
  EXPECT_LT(secs_since(t0), 30.0);
  std::printf("[unplug] %s\n[unplug] transport: %s\n", got.message.c_str(), t.last_error().c_str());
}

class SampleOverSerial : public testing::TestWithParam<std::string> {};

TEST_P(SampleOverSerial, MatchesModel) {
  const auto* s = baresm::samples::find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  BoardSim b;
  auto be = serial_backend(b);
  ASSERT_TRUE(be);
  std::string err;
  auto model = drv::open_device("model", std::make_unique<drv::ModelTransport>(model_like(be->device.props())),
                                board_options(drv::kDefaultWatchdogInstrs), &err);
  ASSERT_TRUE(model) << err;
  baresm::samples::RunOptions opts;
  opts.seed = 7;
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = b.stats().cycles;
  const auto want = baresm::samples::run_sample(*s, model->device, opts);
  const auto got = baresm::samples::run_sample(*s, be->device, opts);
  const double secs = secs_since(t0);
  EXPECT_EQ(got.passed, want.passed) << "serial: " << got.message << "\nmodel: " << want.message;
  ASSERT_EQ(got.launches.size(), want.launches.size()) << "serial: " << got.message << "\nmodel: " << want.message;
  // A fault's kind, pc and CTA are the kernel's. The warp it names is the
  // one that got there first, the schedule's choice when several would
  // fault there (the model interleaves a CTA's warps one instruction at a
  // time, the board as its pipeline and memory let it; the lockstep suites
  // of tests/rtl_sm check the SM's choice exactly against the model stepped
  // in the SM's own order). The same warp must give the same report.
  bool same_warps = true;
  for (size_t i = 0; i < want.launches.size(); i++) {
    const auto& gf = got.launches[i].fault;
    const auto& wf = want.launches[i].fault;
    EXPECT_EQ(int(gf.kind), int(wf.kind)) << "launch " << i;
    if (wf.ok()) continue;
    EXPECT_EQ(gf.pc, wf.pc) << "launch " << i;
    EXPECT_TRUE(gf.cta.x == wf.cta.x && gf.cta.y == wf.cta.y && gf.cta.z == wf.cta.z) << "launch " << i;
    if (gf.warp != wf.warp && wf.kind != baresm::iss::FaultKind::BARRIER_DEADLOCK) same_warps = false;
  }
  if (!want.passed && same_warps) {
    EXPECT_EQ(got.message, want.message);
  }
  // The counters the model counts exactly, for every launch that ran to its
  // end on both (the completion entry's, contract/rings.def).
  for (size_t i = 0; i < want.launches.size(); i++) {
    const auto& g = got.launches[i].report;
    const auto& w = want.launches[i].report;
    if (!g.from_device || !w.from_device || g.error != baresm::cq::ErrorCode::OK ||
        w.error != baresm::cq::ErrorCode::OK || g.marker)
      continue;
    EXPECT_EQ(g.stats.warp_instrs, w.stats.warp_instrs) << "launch " << i;
    EXPECT_EQ(g.stats.thread_instrs, w.stats.thread_instrs) << "launch " << i;
    EXPECT_EQ(g.stats.div_branches, w.stats.div_branches) << "launch " << i;
    EXPECT_EQ(g.stats.bar_releases, w.stats.bar_releases) << "launch " << i;
    EXPECT_EQ(g.stats.ctas_done, w.stats.ctas_done) << "launch " << i;
    uint64_t ws = 0;
    for (uint32_t v : g.stats.warp_state_cycles) ws += v;
    EXPECT_GT(ws, 0u) << "launch " << i << ": the device counts its warp states";
    EXPECT_LE(g.stats.sm_cycles, g.stats.cycles) << "launch " << i;
  }
  auto& t = static_cast<drv::SerialTransport&>(*be->transport);
  const auto st = b.stats();
  std::printf("[serial] sample=%s %s: %.1f s wall, %llu board cycles (%.0f cycles/s), %llu requests, %llu bytes "
              "out, %llu in, %llu retries\n",
              s->name.c_str(), got.passed ? "passed" : got.message.c_str(), secs,
              (unsigned long long)(st.cycles - c0), (st.cycles - c0) / secs,
              (unsigned long long)t.stats().requests, (unsigned long long)t.stats().bytes_out,
              (unsigned long long)t.stats().bytes_in, (unsigned long long)t.stats().retries);
}

std::vector<std::string> sample_slice() {
  std::vector<std::string> names;
  const char* all = std::getenv("BARESM_SERIAL_ALL_SAMPLES");
  if (all && *all && std::string(all) != "0") {
    for (const auto& s : baresm::samples::all_samples()) names.push_back(s.name);
  } else {
    names = {"nested_divergence", "fault_out_of_window", "fault_barrier_deadlock", "fault_trap"};
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(Board, SampleOverSerial, testing::ValuesIn(sample_slice()),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace

// The command line over the link: `baresm info` and `baresm launch` with
// --backend serial --port on the simulated board's pty, as a user would on
// /dev/ttyUSB1. The kernel is vec_add, 100 elements in two CTAs of 64: as
// written where `baresm info` says the board has the FPU (the whole device
// computes it in firmware), with IADD for FADD where it has none (the
// hardwired thread-serial SM).
namespace cli {

struct Run {
  int rc = -1;
  std::string out;
};

Run baresm(const std::string& args) {
  Run r;
  const std::string cmd = std::string(BARESM_EXE) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace cli

TEST(SerialCli, InfoAndLaunchOverThePty) {
  BoardSim board;
  ASSERT_TRUE(board.ok()) << board.error();
  const std::string port = " --backend serial --port " + board.port();

  const cli::Run info = cli::baresm("info" + port);
  EXPECT_EQ(info.rc, 0) << info.out;
  EXPECT_NE(info.out.find("transport serial"), std::string::npos) << info.out;
  // The driver's default rings fit the board's memory (64 KB: 32 entries, 128 KB: 64).
  const std::string rings = BoardSim::mem_bytes() < 131072 ? "32 submission / 32 completion" : "64 submission / 64 completion";
  EXPECT_NE(info.out.find(rings), std::string::npos) << info.out;

  const std::string dir = ::testing::TempDir() + "/baresm_serial_cli_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const bool fpu = info.out.find("yes (f32 add") != std::string::npos;  // the FPU row of `baresm info`
  std::printf("[serial] vec_add with %s\n", fpu ? "FADD (the board has the FPU)" : "IADD for FADD (no FPU)");
  std::string src = cli::slurp(std::string(BARESM_SOURCE_DIR) + "/kernels/vec_add.s");
  if (!fpu) {
    const size_t at = src.find("FADD R5, R5, R6;");
    ASSERT_NE(at, std::string::npos);
    src.replace(at, 4, "IADD");
  }
  std::ofstream(dir + "/vec_add.s") << src;
  const uint32_t n = 100;
  std::vector<uint32_t> a(n), b(n), want(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (fpu) {  // floats whose sums round: 1/3-like fractions, a subnormal, a cancellation
      a[i] = baresm::fp32::from_i32(int32_t(i * 2654435761u) >> 7) ^ (i % 5 == 0 ? 0x80000000u : 0);
      b[i] = i == 3 ? 0x00000123u : baresm::fp32::from_i32(7 - int32_t(i)) + 0x2AAAu;
      want[i] = baresm::fp32::add(a[i], b[i]);
    } else {
      a[i] = i * 2654435761u;
      b[i] = 7 - i;
      want[i] = a[i] + b[i];
    }
  }
  std::ofstream(dir + "/a.bin", std::ios::binary).write(reinterpret_cast<const char*>(a.data()), n * 4);
  std::ofstream(dir + "/b.bin", std::ios::binary).write(reinterpret_cast<const char*>(b.data()), n * 4);
  const cli::Run r = cli::baresm("launch " + dir + "/vec_add.s --grid 2 --block 64 --arg buf:in=" + dir +
                                 "/a.bin --arg buf:in=" + dir + "/b.bin --arg buf:out=400 --arg u32:100 --out c=" +
                                 dir + "/c.bin" + port);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("on serial: COMPLETED"), std::string::npos) << r.out;
  EXPECT_EQ(cli::slurp(dir + "/c.bin"),
            std::string(reinterpret_cast<const char*>(want.data()), n * 4))
      << "c.bin holds a + b (" << (fpu ? "FADD, the model's binary32 bits" : "IADD") << ")";
  std::system(("rm -rf " + dir).c_str());
}
