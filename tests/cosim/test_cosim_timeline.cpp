// The warp timeline (docs/timeline.md) of the co-simulated device where it
// is hardest to keep: launches on two streams cut by pin and soft resets at
// random cycles and in every state of the command processor. Every launch
// the SM starts must end (completed, faulted or aborted by the reset), every
// cycle of every warp slot must still be in exactly one state, and the
// memory counter must drop to 0 with the requests the reset pin throws away.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>

#include "contract/regs.h"
#include "sim/timeline/trace_json.h"
#include "tests/cosim/cosim_util.h"
#include "tests/driver/driver_harness.h"

namespace baresm {
namespace {

using drv::Status;
namespace f = regs::f;

TEST(CosimTimeline, ResetsAtRandomCyclesKeepTheTimelineValid) {
  drvtest::Harness h;
  drv::DeviceOptions o;
  o.sync_timeout_ns = 100'000'000;
  o.hang_window_ns = 60'000;
  o.queues = 2;
  ASSERT_EQ(h.open(cosimtest::rtl_device(5), o), Status::OK) << h.last_error_text();
  drv::Device& d = h.dev;
  cosim::Testbench& tb = static_cast<cosim::ScTransport*>(h.transport.get())->testbench();
  tb.start_timeline();
  std::mt19937 rng(99);
  drv::Context c{};
  drv::Stream s[2];
  drvtest::VecAdd va;
  auto fresh_context = [&] {
    if (c.id) d.ctx_destroy(c);
    ASSERT_EQ(d.ctx_create(&c), Status::OK);
    ASSERT_EQ(d.ctx_default_stream(c, &s[0]), Status::OK);
    ASSERT_EQ(d.stream_create(c, &s[1]), Status::OK);
    va = drvtest::VecAdd{};
    ASSERT_EQ(va.setup(d, c, 300, uint32_t(rng())), Status::OK) << h.last_error_text();
  };
  fresh_context();
  int pin = 0, soft = 0;
  for (int it = 0; it < 24; ++it) {
    for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
      uint64_t tok = 0;
      ASSERT_EQ(va.launch(d, s[rng() % 2], &tok, 64), Status::OK) << h.last_error_text();
    }
    if (rng() % 2) {
      tb.run_cycles(rng() % 1500);
    } else {
      tb.run_until_cp_state(1 + rng() % 8, 3000);  // E_FETCH .. E_WPHASE
    }
    switch (rng() % 3) {
      case 0:
        tb.pin_reset(1 + rng() % 4);
        ++pin;
        break;
      case 1:
        tb.mmio_write(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1));
        ++soft;
        break;
      default:
        ASSERT_EQ(d.ctx_synchronize(c), Status::OK) << "iteration " << it << ": " << h.last_error_text();
    }
    ASSERT_EQ(d.reset(), Status::OK) << "iteration " << it << ": " << h.last_error_text();
    if (d.ctx_get_error(c) != Status::OK) fresh_context();
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(pin, 0);
  EXPECT_GT(soft, 0);

  const std::string path = ::testing::TempDir() + "/cosim_timeline_" + std::to_string(getpid()) + ".json";
  ASSERT_EQ(tb.write_timeline(path), "");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  timeline::Json root;
  std::string error;
  ASSERT_TRUE(timeline::parse_json(text.str(), &root, &error)) << error;
  timeline::TimelineData data;
  const std::vector<std::string> problems = timeline::check_timeline(root, &data);
  std::string all;
  for (const std::string& p : problems) all += p + "\n";
  EXPECT_TRUE(problems.empty()) << all;
  // Launches that ran to their end and launches the resets cut short.
  size_t aborted = 0, complete = 0;
  for (const timeline::Json* a : data.sm_launch_args) {
    const timeline::Json* ab = a ? a->get("aborted") : nullptr;
    ASSERT_TRUE(ab && ab->kind == timeline::Json::BOOL);
    (ab->b ? aborted : complete) += 1;
  }
  EXPECT_GT(complete, 0u);
  EXPECT_GT(aborted, 0u);
  std::printf("[info] %d pin and %d soft resets: %zu SM launches complete, %zu aborted, %zu events\n", pin, soft,
              complete, aborted, root.get("traceEvents")->arr.size());
}

}  // namespace
}  // namespace baresm
