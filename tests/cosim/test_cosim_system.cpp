// System tests of the whole device through the host driver on the RTL:
// hangs and recovery, the watchdog, barrier deadlock reports, resets
// injected at random cycles (and in every state of the command processor)
// with every launch accounted for, two streams with events, and a
// completion ring wrapping many times under a slow consumer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "host_driver/ring_io.h"
#include "cq_model/scoreboard.h"
#include "host_driver/model_transport.h"
#include "contract/regs.h"
#include "tests/cosim/cosim_util.h"
#include "tests/driver/driver_harness.h"

namespace baresm {
namespace {

using cosim::Testbench;
using drv::Status;
using drvtest::Harness;
using drvtest::kernel_module;
using drvtest::VecAdd;
namespace f = regs::f;

drv::DeviceOptions fast_options() {
  drv::DeviceOptions o;
  o.sync_timeout_ns = 100'000'000;  // 10M cycles
  o.hang_window_ns = 60'000;        // 6k cycles
  return o;
}

Testbench& tb_of(Harness& h) {
  return static_cast<cosim::ScTransport*>(h.transport.get())->testbench();
}

drv::Function load(Harness& h, drv::Context c, const char* kernel, drv::Module* m = nullptr) {
  const auto& img = drvtest::kernel_image(kernel);
  drv::Module mod;
  drv::Function fn;
  EXPECT_EQ(h.dev.module_load_data(c, img.data(), img.size(), &mod), Status::OK) << h.last_error_text();
  EXPECT_EQ(h.dev.module_get_function(mod, kernel, &fn), Status::OK) << h.last_error_text();
  if (m) *m = mod;
  return fn;
}

// ---- hang and watchdog -----------------------------------------------------------------
TEST(CosimSystem, EndlessLoopTimesOutThenResetLosesQueuedWorkThenVecAddRuns) {
  Harness h;
  ASSERT_EQ(h.open(cosimtest::rtl_device(), fast_options()), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  drv::Context c;
  ASSERT_EQ(d.ctx_create(&c), Status::OK);
  drv::Function spin = load(h, c, "fault_endless_loop");
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 200, 3), Status::OK);
  uint32_t p[2] = {1, 40};  // CTA 1, thread 40 spins
  drv::LaunchArg args[2] = {{&p[0], 4}, {&p[1], 4}};
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{3, 1, 1};
  cfg.block = drv::Dim3{64, 1, 1};
  uint64_t spin_tok = 0;
  ASSERT_EQ(d.launch(spin, cfg, args, 2, &spin_tok), Status::OK);
  std::vector<uint64_t> queued;
  for (int i = 0; i < 4; ++i) {
    uint64_t t = 0;
    ASSERT_EQ(va.launch(d, drv::Stream{}, &t, 64), Status::OK);
    queued.push_back(t);
  }
  // The wait times out, PROGRESS does not move (a spinning kernel retires no CTA), reset.
  EXPECT_EQ(d.ctx_synchronize(c, 200'000), Status::CONTEXT_LOST) << h.last_error_text();
  EXPECT_EQ(d.stats().resets, 1u);
  EXPECT_EQ(d.stats().hang_checks, 1u);
  ASSERT_NE(h.report_for(spin_tok), nullptr);
  EXPECT_EQ(h.report_for(spin_tok)->error, cq::ErrorCode::CONTEXT_LOST);
  for (uint64_t t : queued) {
    ASSERT_EQ(h.times_reported[t], 1) << t;
    EXPECT_EQ(h.report_for(t)->error, cq::ErrorCode::CONTEXT_LOST);
    EXPECT_FALSE(h.report_for(t)->from_device);
  }
  const uint32_t st = h.reg(regs::STATUS);
  EXPECT_EQ(f::STATUS_IDLE.get(st), 1u);
  EXPECT_EQ(f::STATUS_FAULT.get(st), 0u);
  EXPECT_EQ(tb_of(h).mem_outstanding(), 0u);
  // A new context runs vec_add.
  ASSERT_EQ(d.ctx_destroy(c), Status::OK);
  drv::Context c2;
  ASSERT_EQ(d.ctx_create(&c2), Status::OK);
  EXPECT_TRUE(drvtest::vec_add_runs(h, c2, 777, 4));
}

TEST(CosimSystem, WatchdogEndsTheEndlessKernelWithItsLocation) {
  Harness h;
  ASSERT_EQ(h.open(cosimtest::rtl_device(), fast_options()), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  drv::Context c;
  ASSERT_EQ(d.ctx_create(&c), Status::OK);
  drv::Module mod;
  drv::Function spin = load(h, c, "fault_endless_loop", &mod);
  uint32_t p[2] = {2, 37};
  drv::LaunchArg args[2] = {{&p[0], 4}, {&p[1], 4}};
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{4, 1, 1};
  cfg.block = drv::Dim3{64, 1, 1};
  cfg.watchdog = 8000;  // cycles
  uint64_t tok = 0;
  ASSERT_EQ(d.launch(spin, cfg, args, 2, &tok), Status::OK);
  EXPECT_EQ(d.ctx_synchronize(c), Status::LAUNCH_TIMEOUT) << h.last_error_text();
  drv::LaunchReport r;
  ASSERT_EQ(d.ctx_last_failure(c, &r), Status::OK);
  EXPECT_EQ(r.error, cq::ErrorCode::WATCHDOG_TIMEOUT);
  EXPECT_EQ(r.fault_cta, 2u);
  EXPECT_EQ(r.fault_warp, 1u);
  EXPECT_EQ(r.fault_lane, 5u);
  EXPECT_GE(r.end_cycle - r.start_cycle, 8000u);
  EXPECT_LT(r.end_cycle - r.start_cycle, 8000u + 2000u);
  drv::DevPtr code = 0;
  ASSERT_EQ(d.module_code_range(mod, &code, nullptr), Status::OK);
  const isa::Module& m = kernel_module("fault_endless_loop");
  EXPECT_GE(r.fault_pc, code);
  EXPECT_LT(r.fault_pc, code + uint32_t(m.code.size() * 8));
  EXPECT_EQ(d.stats().resets, 0u) << "the watchdog needs no reset";
  EXPECT_EQ(f::STATUS_FAULT.get(h.reg(regs::STATUS)), 1u);
}

// The SM's watchdog fires while the memory is stalled, so the SM cannot
// drain its requests and end the launch: the command processor's backstop
// (4096 cycles past the budget) aborts it, holds the SM in reset until the
// memory has answered, and completes the launch with WATCHDOG_TIMEOUT.
TEST(CosimSystem, BackstopAbortsALaunchTheSmCannotEnd) {
  Harness h;
  ASSERT_EQ(h.open(cosimtest::rtl_device(3), fast_options()), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  Testbench& tb = tb_of(h);
  drv::Context c;
  ASSERT_EQ(d.ctx_create(&c), Status::OK);
  VecAdd va;
  ASSERT_EQ(va.setup(d, c, 8192, 5), Status::OK);
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{64, 1, 1};
  cfg.block = drv::Dim3{128, 1, 1};
  cfg.watchdog = 600;
  drv::LaunchArg args[4] = {{&va.a, 4}, {&va.b, 4}, {&va.c, 4}, {&va.n, 4}};
  uint64_t tok = 0;
  ASSERT_EQ(d.launch(va.fn, cfg, args, 4, &tok), Status::OK);
  ASSERT_TRUE(tb.run_until_cp_state(5, 5000));  // E_RUN
  tb.run_cycles(300);
  ASSERT_GT(tb.mem_outstanding(), 0u);
  tb.freeze_memory(9000);
  EXPECT_EQ(d.ctx_synchronize(c), Status::LAUNCH_TIMEOUT) << h.last_error_text();
  drv::LaunchReport r;
  ASSERT_EQ(d.ctx_last_failure(c, &r), Status::OK);
  EXPECT_EQ(r.token, tok);
  EXPECT_EQ(r.error, cq::ErrorCode::WATCHDOG_TIMEOUT);
  EXPECT_GE(r.end_cycle - r.start_cycle, 600u + 4096u) << "ended by the backstop, not by the SM";
  EXPECT_EQ(tb.mem_outstanding(), 0u);
  // The device is stopped (sticky), a new context resets it and runs.
  ASSERT_EQ(d.ctx_destroy(c), Status::OK);
  drv::Context c2;
  ASSERT_EQ(d.ctx_create(&c2), Status::OK);
  EXPECT_TRUE(drvtest::vec_add_runs(h, c2, 500, 6));
}

// ---- barrier deadlock ------------------------------------------------------------------
TEST(CosimSystem, BarrierDeadlockIsReportedWithTheWaitingWarps) {
  Harness h;
  ASSERT_EQ(h.open(cosimtest::rtl_device(), fast_options()), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  drv::Context c;
  ASSERT_EQ(d.ctx_create(&c), Status::OK);
  drv::Module mod;
  drv::Function fn = load(h, c, "fault_barrier_deadlock", &mod);
  uint32_t target = 1;
  drv::LaunchArg args[1] = {{&target, 4}};
  drv::LaunchConfig cfg;
  cfg.grid = drv::Dim3{3, 1, 1};
  cfg.block = drv::Dim3{64, 1, 1};
  ASSERT_EQ(d.launch(fn, cfg, args, 1), Status::OK);
  EXPECT_EQ(d.ctx_synchronize(c), Status::BARRIER_DEADLOCK) << h.last_error_text();
  drv::LaunchReport r;
  ASSERT_EQ(d.ctx_last_failure(c, &r), Status::OK);
  EXPECT_EQ(r.error, cq::ErrorCode::BARRIER_DEADLOCK);
  EXPECT_EQ(r.fault_cta, 1u);
  EXPECT_LE(r.fault_warp, 1u);
  EXPECT_EQ(r.fault_addr, 0x3u) << "warps 0 and 1 of the CTA wait (the mask is in fault_addr)";
  // The pc is one of the kernel's BAR instructions.
  drv::DevPtr code = 0;
  ASSERT_EQ(d.module_code_range(mod, &code, nullptr), Status::OK);
  const isa::Module& m = kernel_module("fault_barrier_deadlock");
  const uint32_t off = r.fault_pc - code;
  ASSERT_LT(off / 8, m.code.size());
  EXPECT_EQ(m.code[off / 8] & 0x7F, uint64_t(isa::Op::BAR));
  EXPECT_EQ(h.reg(regs::FAULT_ADDR), 0x3u);
  // A reset (the driver's: a soft reset, then the rings programmed again)
  // clears every fault register (mutation testing found FAULT_ADDR's clear
  // could be dropped unnoticed).
  ASSERT_EQ(d.reset(), Status::OK) << h.last_error_text();
  for (uint32_t off : {regs::FAULT_INFO, regs::FAULT_PC, regs::FAULT_ADDR, regs::FAULT_CTA,
                       regs::FAULT_TOKEN_LO, regs::FAULT_TOKEN_HI})
    EXPECT_EQ(h.reg(off), 0u) << "offset 0x" << std::hex << off;
  // The functional device model reports the same.
  Harness hm;
  ASSERT_EQ(hm.open(std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{}), fast_options()),
            Status::OK);
  drv::Context cm;
  ASSERT_EQ(hm.dev.ctx_create(&cm), Status::OK);
  drv::Function fm = load(hm, cm, "fault_barrier_deadlock");
  ASSERT_EQ(hm.dev.launch(fm, cfg, args, 1), Status::OK);
  EXPECT_EQ(hm.dev.ctx_synchronize(cm), Status::BARRIER_DEADLOCK);
  drv::LaunchReport rm;
  ASSERT_EQ(hm.dev.ctx_last_failure(cm, &rm), Status::OK);
  EXPECT_EQ(rm.fault_addr, r.fault_addr);
  EXPECT_EQ(rm.fault_cta, r.fault_cta);
  EXPECT_EQ(rm.stats.ctas_done, r.stats.ctas_done);
}

// ---- resets at random cycles -------------------------------------------------------------
// Launches and resets, seeded: the reset pin, a soft reset written at once,
// or the driver's own reset (the driver's reset brings the device back in
// every case), at a random cycle or right after a chosen state of the
// command processor (fetch, check, window
// table, launch, run, build, completion body, phase word, abort). After
// every reset the device works, and every launch was reported exactly once:
// completed by the device (checked by the scoreboard) or lost.
TEST(CosimSystem, ResetsAtRandomCyclesLeaveAWorkingDeviceAndEveryLaunchAccountedFor) {
  Harness h;
  cq::Scoreboard sb;
  drv::DeviceOptions o = fast_options();
  o.queues = 2;
  o.cq_entries = 4;
  o.sq_entries = 8;
  ASSERT_EQ(h.open(cosimtest::rtl_device(31), o), Status::OK) << h.last_error_text();
  sb.set_cq_size(0, 4);
  sb.set_cq_size(1, 4);
  h.scoreboard = &sb;
  drv::Device& d = h.dev;
  Testbench& tb = tb_of(h);
  std::mt19937 rng(4242);

  drv::Context c{};
  drv::Stream s[2];
  VecAdd va;
  auto fresh_context = [&] {
    if (c.id) d.ctx_destroy(c);
    ASSERT_EQ(d.ctx_create(&c), Status::OK);
    ASSERT_EQ(d.ctx_default_stream(c, &s[0]), Status::OK);
    ASSERT_EQ(d.stream_create(c, &s[1]), Status::OK);
    va = VecAdd{};
    ASSERT_EQ(va.setup(d, c, 96, uint32_t(rng())), Status::OK) << h.last_error_text();
  };
  fresh_context();

  // The completion rings the driver programmed: the only memory the command
  // processor may write.
  std::vector<std::pair<uint32_t, uint32_t>> rings;
  auto note_rings = [&] {
    for (uint32_t q = 0; q < 2; ++q) {
      const uint32_t base = h.reg(regs::qp(q, regs::QpReg::CQ_BASE));
      const uint32_t size = h.reg(regs::qp(q, regs::QpReg::CQ_SIZE));
      rings.push_back({base, base + size * cq::kCPL_BYTES - 1});
    }
  };
  note_rings();
  tb.clear_cp_writes();

  std::vector<uint64_t> tokens;
  const int kIterations = 240;
  int state_hits[16] = {};
  int pin_resets = 0, soft_resets = 0;
  uint64_t completed = 0, lost = 0;
  for (int it = 0; it < kIterations; ++it) {
    const int n = 1 + int(rng() % 4);
    for (int k = 0; k < n; ++k) {
      uint64_t tok = 0;
      const drv::Stream st = s[rng() % 2];
      const Status ls = va.launch(d, st, &tok, 32);
      ASSERT_EQ(ls, Status::OK) << "iteration " << it << ": " << h.last_error_text();
      h.expect(st, c, tok);
      tokens.push_back(tok);
    }
    // When: a random cycle, or the moment the engine is in a chosen state.
    if (rng() % 2) {
      tb.run_cycles(rng() % 1500);
    } else {
      const uint32_t want = 1 + rng() % 8;  // E_FETCH .. E_WPHASE
      if (tb.run_until_cp_state(want, 3000)) ++state_hits[want];
    }
    const uint32_t how = rng() % 3;
    if (how == 0) {
      tb.pin_reset(1 + rng() % 4);  // the pin, at this very edge
      ++pin_resets;
    } else if (how == 1) {
      tb.mmio_write(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1));  // a soft reset, now
      ++soft_resets;
    } else {
      ++soft_resets;  // the driver's own reset, after it consumed what completed
    }
    ASSERT_EQ(d.reset(), Status::OK) << "iteration " << it << ": " << h.last_error_text();
    ASSERT_EQ(d.pending(), 0u);
    ASSERT_TRUE(sb.ok()) << "iteration " << it << ": " << sb.report();
    h.scoreboard_reset();
    EXPECT_EQ(tb.mem_outstanding(), 0u);
    note_rings();
    if (d.ctx_get_error(c) != Status::OK) fresh_context();
    // Every few resets: the device still computes correctly.
    if (it % 12 == 11) {
      uint64_t tok = 0;
      ASSERT_EQ(va.launch(d, s[it % 2], &tok, 64), Status::OK);
      h.expect(s[it % 2], c, tok, cq::CplStatus::COMPLETED);
      tokens.push_back(tok);
      ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << "iteration " << it << ": " << h.last_error_text();
      ASSERT_TRUE(va.check(d, c)) << "iteration " << it;
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (uint64_t t : tokens) {
    ASSERT_EQ(h.times_reported[t], 1) << "token " << t;
    if (h.report_for(t)->from_device) {
      ++completed;
    } else {
      ++lost;
    }
  }
  EXPECT_TRUE(sb.ok()) << sb.report();
  uint64_t outside = 0;
  for (const auto& w : tb.cp_writes()) {
    bool in = false;
    for (const auto& r : rings) in = in || (w.first >= r.first && w.second <= r.second);
    if (!in) ++outside;
  }
  EXPECT_GT(tb.cp_writes().size(), 0u);
  EXPECT_EQ(outside, 0u) << "the command processor wrote outside the completion rings";
  std::printf(
      "[info] %d resets (%d pin, %d soft), %zu launches: %llu completed, %llu lost; "
      "resets in engine states fetch..phase:",
      kIterations, pin_resets, soft_resets, tokens.size(), (unsigned long long)completed,
      (unsigned long long)lost);
  for (int st = 1; st <= 8; ++st) std::printf(" %d", state_hits[st]);
  std::printf("\n");
  for (int st = 1; st <= 8; ++st) EXPECT_GT(state_hits[st], 0) << "no reset in engine state " << st;
  EXPECT_GT(completed, 0u);
  EXPECT_GT(lost, 0u);
}

// ---- two streams -------------------------------------------------------------------------
TEST(CosimSystem, TwoStreamsRunConcurrentlyWithEventsInOrder) {
  Harness h;
  ASSERT_EQ(h.open(cosimtest::rtl_device(17), fast_options()), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  drv::Context c;
  ASSERT_EQ(d.ctx_create(&c), Status::OK);
  drv::Stream s[2];
  ASSERT_EQ(d.stream_create(c, &s[0]), Status::OK);
  ASSERT_EQ(d.stream_create(c, &s[1]), Status::OK);
  uint32_t q0 = 0, q1 = 0;
  ASSERT_EQ(d.stream_queue(s[0], &q0), Status::OK);
  ASSERT_EQ(d.stream_queue(s[1], &q1), Status::OK);
  ASSERT_NE(q0, q1);
  // Sizes in whole 256-byte granules: the six buffers are adjacent and the
  // driver grants them as one window (the device takes at most four).
  VecAdd v[2];
  ASSERT_EQ(v[0].setup(d, c, 1536, 1), Status::OK);
  ASSERT_EQ(v[1].setup(d, c, 1536, 2), Status::OK);
  const int kLaunches = 5;
  drv::Event ev[2][kLaunches + 1];
  std::vector<uint64_t> tok[2];
  for (int i = 0; i <= kLaunches; ++i)
    for (int k = 0; k < 2; ++k) ASSERT_EQ(d.event_create(c, &ev[k][i]), Status::OK);
  for (int k = 0; k < 2; ++k) ASSERT_EQ(d.event_record(ev[k][0], s[k]), Status::OK);
  for (int i = 0; i < kLaunches; ++i) {
    for (int k = 0; k < 2; ++k) {
      uint64_t t = 0;
      ASSERT_EQ(v[k].launch(d, s[k], &t, 96), Status::OK);
      tok[k].push_back(t);
      ASSERT_EQ(d.event_record(ev[k][i + 1], s[k]), Status::OK);
    }
  }
  ASSERT_EQ(d.synchronize(), Status::OK) << h.last_error_text();
  EXPECT_TRUE(v[0].check(d, c));
  EXPECT_TRUE(v[1].check(d, c));
  for (int k = 0; k < 2; ++k) {
    uint64_t prev = 0;
    for (int i = 0; i <= kLaunches; ++i) {
      uint64_t ts = 0;
      ASSERT_EQ(d.event_timestamp(ev[k][i], &ts), Status::OK);
      EXPECT_GE(ts, prev) << "stream " << k << " event " << i;
      prev = ts;
      if (i < kLaunches) {
        const drv::LaunchReport* r = h.report_for(tok[k][size_t(i)]);
        ASSERT_NE(r, nullptr);
        EXPECT_GE(r->start_cycle, ts) << "launch " << i << " started before the event recorded ahead of it";
        uint64_t next = 0;
        ASSERT_EQ(d.event_timestamp(ev[k][i + 1], &next), Status::OK);
        EXPECT_LE(r->end_cycle, next) << "the event behind launch " << i << " completed before it";
      }
    }
  }
  // The two queues were served in turn: their launches interleave in time.
  const drv::LaunchReport* a_last = h.report_for(tok[0].back());
  const drv::LaunchReport* b_first = h.report_for(tok[1].front());
  const drv::LaunchReport* a_first = h.report_for(tok[0].front());
  const drv::LaunchReport* b_last = h.report_for(tok[1].back());
  EXPECT_LT(b_first->start_cycle, a_last->end_cycle);
  EXPECT_LT(a_first->start_cycle, b_last->end_cycle);
  float ms = 0;
  ASSERT_EQ(d.event_elapsed_ms(ev[0][0], ev[0][kLaunches], &ms), Status::OK);
  EXPECT_GT(ms, 0.f);
  for (const auto& kv : h.times_reported) EXPECT_EQ(kv.second, 1) << "token " << kv.first;
  EXPECT_EQ(h.reports.size(), size_t(2 * (2 * kLaunches + 1)));
}

// ---- windows ----------------------------------------------------------------------------
// The device's SM checks CONFIG1.MAX_WINDOWS windows (baresm_top's NumWindows,
// 4 here). On the RTL and on the functional device model configured alike:
// the driver refuses an 8-window launch (INVALID_VALUE, the same message,
// nothing submitted); a raw descriptor with window_count 8 fails at the
// command processor's descriptor check (BAD_DESCRIPTOR, WINDOW_COUNT);
// a launch with MAX_WINDOWS windows runs.
TEST(CosimSystem, ALaunchWithMoreWindowsThanTheDeviceIsRefusedOnRtlAndModelAlike) {
  constexpr uint32_t kWindows = cosim::TopParams::kNumWindows;
  static_assert(kWindows < 8, "the test needs a device with fewer than 8 windows");
  std::string refusal[2];
  for (int rtl = 0; rtl < 2; ++rtl) {
    SCOPED_TRACE(rtl ? "rtl" : "model");
    std::unique_ptr<drv::Transport> t;
    if (rtl) {
      t = cosimtest::rtl_device();
    } else {
      cq::ModelDeviceConfig mc;
      mc.max_windows = kWindows;
      t = std::make_unique<drv::ModelTransport>(mc);
    }
    Harness h;
    drv::DeviceOptions o = fast_options();
    o.queues = 1;  // queue 1 is the raw one below
    ASSERT_EQ(h.open(std::move(t), o), Status::OK) << h.last_error_text();
    drv::Device& d = h.dev;
    EXPECT_EQ(d.props().max_windows, kWindows);
    drv::Context c;
    ASSERT_EQ(d.ctx_create(&c), Status::OK);
    drvtest::TransportBus bus(h.transport.get());
    drvtest::RawVecAddQueue raw;
    ASSERT_TRUE(raw.setup(d, c, &bus, 1, 8, 8, 256, 9));
    VecAdd& va = raw.va;
    drv::LaunchArg args[4] = {{&va.a, 4}, {&va.b, 4}, {&va.c, 4}, {&va.n, 4}};
    drv::LaunchConfig cfg;
    cfg.grid = drv::Dim3{va.n / 64, 1, 1};
    cfg.block = drv::Dim3{64, 1, 1};
    // 8 windows, each inside the context's own allocations.
    drv::Window w8[8];
    for (uint32_t i = 0; i < 8; ++i) w8[i] = drv::Window{va.a + 4 * i, 4};
    cfg.windows = w8;
    cfg.num_windows = 8;
    const uint64_t submitted0 = d.stats().submitted;
    EXPECT_EQ(d.launch(va.fn, cfg, args, 4, nullptr), Status::INVALID_VALUE);
    EXPECT_EQ(d.last_error().layer, drv::Layer::LAUNCH_CONFIG);
    refusal[rtl] = h.last_error_text();
    EXPECT_NE(refusal[rtl].find("8 windows, the device takes " + std::to_string(kWindows)), std::string::npos)
        << refusal[rtl];
    EXPECT_EQ(d.stats().submitted, submitted0);
    // MAX_WINDOWS windows: a, b and c, then more of a.
    drv::Window wm[8];
    wm[0] = drv::Window{va.a, va.n * 4};
    wm[1] = drv::Window{va.b, va.n * 4};
    wm[2] = drv::Window{va.c, va.n * 4};
    for (uint32_t i = 3; i < kWindows; ++i) wm[i] = drv::Window{va.a, 4};
    cfg.num_windows = kWindows;
    cfg.windows = wm;
    ASSERT_EQ(d.launch(va.fn, cfg, args, 4, nullptr), Status::OK) << h.last_error_text();
    ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << h.last_error_text();
    EXPECT_TRUE(va.check(d, c));
    // The same refusal from the device itself, for a descriptor the driver did not write.
    cq::LaunchDescriptor x = raw.desc;
    x.token = 0x77;
    x.window_count = 8;
    uint32_t idx = 0;
    ASSERT_TRUE(raw.qp.write_descriptor(x, &idx));
    ASSERT_TRUE(raw.qp.ring_doorbell());
    cq::CompletionEntry e;
    int r = 0;
    for (int guard = 0; guard < 1000 && (r = raw.qp.peek(&e)) == 0; ++guard)
      ASSERT_EQ(h.transport->delay(10'000), Status::OK);
    ASSERT_EQ(r, 1);
    EXPECT_EQ(e.token, 0x77u);
    EXPECT_EQ(e.cpl_status(), cq::CplStatus::FAILED);
    EXPECT_EQ(e.error_code(), cq::ErrorCode::BAD_DESCRIPTOR);
    EXPECT_EQ(cq::DescCheck(e.fault_addr), cq::DescCheck::WINDOW_COUNT)
        << cq::desc_check_name(cq::DescCheck(e.fault_addr));
    raw.qp.pop();
    ASSERT_TRUE(raw.qp.commit_head());
  }
  EXPECT_EQ(refusal[0], refusal[1]);
  std::printf("model: %s\nrtl:   %s\n", refusal[0].c_str(), refusal[1].c_str());
}

// ---- completion ring wrap, raw protocol ----------------------------------------------------
// A 2-entry completion ring, 160 descriptors (launches, markers and bad
// descriptors), and a consumer that takes one entry every 700 cycles: the
// device waits for the host most of the time, the ring wraps 80 times, and
// the scoreboard sees every entry once, in order, with the right phase.
TEST(CosimSystem, CompletionRingWrapsManyTimesUnderASlowConsumer) {
  Harness h;
  drv::DeviceOptions o = fast_options();
  o.queues = 1;  // the driver keeps queue 0; the test drives queue 2 itself
  ASSERT_EQ(h.open(cosimtest::rtl_device(23), o), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  Testbench& tb = tb_of(h);
  drv::Context c;
  ASSERT_EQ(d.ctx_create(&c), Status::OK);
  drvtest::TransportBus bus(h.transport.get());
  drvtest::RawVecAddQueue raw;
  ASSERT_TRUE(raw.setup(d, c, &bus, 2, 8, 2, 64, 8));
  drv::QueuePairHost& qp = raw.qp;
  cq::Scoreboard sb;
  sb.set_cq_size(2, 2);
  const uint32_t kTotal = 160;
  // The consumer takes at most one entry every kPeriod cycles, so the run
  // needs about kTotal * kPeriod cycles. Every wait is bounded: each entry
  // must arrive within kStall cycles of the previous one, and the whole run
  // within twice its expected length; either bound fails at once, saying
  // which entry it waited for (a device that stops, or that overwrites an
  // entry not yet consumed, would otherwise keep this loop polling).
  const uint64_t kPeriod = 700;
  const uint64_t kStall = 30 * kPeriod;
  const uint64_t start = tb.cycle();
  const uint64_t deadline = start + 2 * uint64_t(kTotal) * kPeriod;
  uint32_t submitted = 0;
  uint64_t next_consume = start + kPeriod;
  uint64_t last_progress = start;
  std::mt19937 rng(5);
  while (qp.cq_head() < kTotal) {
    // Keep the submission ring full.
    uint32_t free_slots = 0;
    ASSERT_TRUE(qp.sq_free(&free_slots));
    bool rang = false;
    while (free_slots-- > 0 && submitted < kTotal) {
      const uint32_t kind = rng() % 3;
      cq::LaunchDescriptor ds = kind == 0 ? cq::LaunchDescriptor{} : raw.desc;
      ds.token = 0x7000 + submitted;
      cq::Expectation e{ds.token, cq::CplStatus::COMPLETED};
      if (kind == 0) {
        ds.flags = cq::kDESC_FLAG_MARKER;
      } else {
        if (kind == 2 && submitted % 2) {
          ds.version = 9;
          e.status = cq::CplStatus::FAILED;
          e.check_error = true;
          e.error = cq::ErrorCode::BAD_DESCRIPTOR;
        }
      }
      uint32_t idx = 0;
      ASSERT_TRUE(qp.write_descriptor(ds, &idx));
      sb.expect(2, idx, e);
      ++submitted;
      rang = true;
    }
    if (rang) {
      ASSERT_TRUE(qp.ring_doorbell());
    }
    tb.run_cycles(next_consume - std::min(next_consume, tb.cycle()) + 1);
    next_consume += kPeriod;
    cq::CompletionEntry e;
    const int r = qp.peek(&e);
    ASSERT_GE(r, 0) << "bus error reading completion entry " << qp.cq_head();
    if (r == 1) {
      sb.observe(2, qp.cq_head(), e);
      ASSERT_TRUE(sb.ok()) << "completion entry " << qp.cq_head() << ": " << sb.report();
      qp.pop();
      ASSERT_TRUE(qp.commit_head());
      last_progress = tb.cycle();
    }
    ASSERT_LT(tb.cycle() - last_progress, kStall)
        << "expected completion entry " << qp.cq_head() << " of " << kTotal << " (" << submitted
        << " submitted) within " << kStall << " cycles of the previous one; none came (cycle "
        << tb.cycle() << ", CP state " << tb.cp_state() << ", STATUS 0x" << std::hex << tb.status() << ")";
    ASSERT_LT(tb.cycle(), deadline) << "expected all " << kTotal << " completions within "
                                    << deadline - start << " cycles; got " << qp.cq_head();
  }
  EXPECT_TRUE(sb.ok()) << sb.report();
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_EQ(sb.observed(), uint64_t(kTotal));
  EXPECT_GE(sb.wraps(2), uint64_t(kTotal / 2 - 1));
  EXPECT_TRUE(raw.va.check(d, c));
  EXPECT_EQ(f::STATUS_FAULT.get(h.reg(regs::STATUS)), 0u);
}

}  // namespace
}  // namespace baresm
