// The warp timeline's recorder, checker and picture without a device: a
// small made-up run goes through TimelineBuilder, its JSON through the
// checker, and each planted bug (an interval dropped, doubled, renamed, a
// CTA lost, a memory response lost, a broken event) must be reported.
#include <gtest/gtest.h>
#include <zlib.h>

#include <sstream>

#include "sim/harness/state_names.h"
#include "sim/timeline/png.h"
#include "sim/timeline/render.h"
#include "sim/timeline/timeline.h"
#include "sim/timeline/trace_json.h"

namespace baresm::timeline {
namespace {

constexpr uint8_t IDLE = 0, READY = 1, ISSUED = 2, WAIT_MEM = 3, WAIT_BAR = 5, EXITED = 6;

// Two warp slots, a grid of 3 one-warp CTAs: CTAs 0 and 1 start together,
// meet at a barrier (one release), CTA 2 takes slot 0 after CTA 0 retires.
// One memory request of the SM and one of the command processor. The
// SM's state counters are summed from the same states, as the RTL's are.
std::string made_up_run() {
  TimelineBuilder b(2, 1, 100000);
  const std::vector<std::array<uint8_t, 2>> states = {
      {IDLE, IDLE},         {READY, IDLE},    {ISSUED, READY}, {WAIT_MEM, ISSUED}, {WAIT_MEM, WAIT_BAR},
      {WAIT_BAR, WAIT_BAR}, {READY, READY},   {ISSUED, READY}, {EXITED, ISSUED},   {IDLE, EXITED},
      {READY, EXITED},      {ISSUED, EXITED}, {EXITED, IDLE},  {IDLE, IDLE}};
  const uint64_t start = 10;
  CycleSample s;
  std::array<uint64_t, sim::kNumWarpStates> counts{};
  uint64_t bars = 0, ctas = 0;
  uint32_t next_cta[2] = {0, 1};
  for (uint64_t c = 0; c < start + states.size() + 5; ++c) {
    s = CycleSample{};
    s.cycle = c;
    s.warp_state = {IDLE, IDLE};
    s.cp_state =
        c >= 2 && c < start ? 1 : (c >= start && c < start + states.size() + 2 ? 5 : 0);  // FETCH, RUN
    s.doorbell_queue = c == 1 ? 0 : -1;
    s.mem_req = c == 3;  // the descriptor fetch
    s.mem_req_cp = true;
    s.mem_rsp = c == 6;
    s.mem_rsp_cp = true;
    if (c == start - 1) {
      s.launch_accepted = true;
      s.grid = {3, 1, 1};
      s.block = {32, 1, 1};
    }
    if (c >= start && c < start + states.size()) {
      const auto& st = states[c - start];
      s.sm_busy = true;
      s.warp_state = {st[0], st[1]};
      for (uint32_t w = 0; w < 2; ++w) {
        counts[st[w]]++;
        if (st[w] == ISSUED) {
          s.issue = true;
          s.issue_slot = w;
          s.issue_cta = {next_cta[w], 0, 0};
        }
      }
      if (c - start == 6) bars = 1;  // both left the barrier
      if (c - start == 9) ctas = 1;
      if (c - start == 12) ctas = 2;
      if (c - start == 13) ctas = 3;
      if (st[0] == IDLE && c - start == 9) next_cta[0] = 2;
      if (c - start == 3) {  // a load of slot 0
        s.mem_req = true;
        s.mem_req_cp = false;
      }
      if (c - start == 5) {
        s.mem_rsp = true;
        s.mem_rsp_cp = false;
      }
    }
    s.barrier_releases = bars;
    s.ctas_retired = ctas;
    s.state_cycles = counts;
    b.sample(s);
  }
  b.finish(start + states.size() + 5);
  std::ostringstream o;
  b.write_json(o);
  return o.str();
}

Json parsed(const std::string& text) {
  Json j;
  std::string err;
  EXPECT_TRUE(parse_json(text, &j, &err)) << err;
  return j;
}

bool reports(const std::vector<std::string>& problems, const std::string& part) {
  for (const std::string& p : problems)
    if (p.find(part) != std::string::npos) return true;
  return false;
}

std::string all(const std::vector<std::string>& problems) {
  std::string s;
  for (const std::string& p : problems) s += p + "\n";
  return s;
}

// The index of the first event with this cat and name (and tid, >= 0).
size_t find(const Json& j, const std::string& cat, const std::string& name, int tid = -1) {
  const auto& ev = j.get("traceEvents")->arr;
  for (size_t i = 0; i < ev.size(); ++i) {
    const Json *c = ev[i].get("cat"), *n = ev[i].get("name"), *t = ev[i].get("tid");
    if (c && c->str == cat && n && n->str == name && (tid < 0 || t->num == tid)) return i;
  }
  ADD_FAILURE() << "no " << cat << " event " << name;
  return 0;
}

void erase(Json* j, size_t i) {
  auto& ev = j->obj["traceEvents"].arr;
  ev.erase(ev.begin() + long(i));
}

TEST(Timeline, AMadeUpRunIsValid) {
  const Json j = parsed(made_up_run());
  TimelineData d;
  const auto problems = check_timeline(j, &d);
  EXPECT_TRUE(problems.empty()) << all(problems);
  ASSERT_EQ(d.slots, 2u);
  ASSERT_EQ(d.sm_launches.size(), 1u);
  EXPECT_EQ(d.sm_launches[0].start, 10u);
  EXPECT_EQ(d.sm_launches[0].dur, 14u);
  // Merged runs: slot 0 is idle, ready, issued, wait_mem (2 cycles), ...
  ASSERT_GE(d.states[0].size(), 4u);
  EXPECT_EQ(d.states[0][3].name, "wait_mem");
  EXPECT_EQ(d.states[0][3].dur, 2u);
  EXPECT_EQ(d.barrier_releases.size(), 1u);
  ASSERT_EQ(d.ctas[0].size(), 2u);  // CTA 0, then CTA 2
  EXPECT_EQ(d.ctas[0][1].name, "CTA (2,0,0)");
  EXPECT_EQ(d.mem.back().second, 0);
}

TEST(Timeline, ADroppedIntervalIsAGap) {
  Json j = parsed(made_up_run());
  erase(&j, find(j, "state", "wait_mem", 0));
  const auto p = check_timeline(j);
  EXPECT_TRUE(reports(p, "warp slot 0: cycles 13..14 have no state (gap)")) << all(p);
  EXPECT_TRUE(reports(p, "the tracks hold 0 warp-cycles wait_mem, the SM counted 2")) << all(p);
}

TEST(Timeline, ADoubledIntervalIsAnOverlap) {
  Json j = parsed(made_up_run());
  auto& ev = j.obj["traceEvents"].arr;
  ev.push_back(ev[find(j, "state", "wait_mem", 0)]);
  EXPECT_TRUE(reports(check_timeline(j), "have two states (overlap)"));
}

TEST(Timeline, AStateOfAnotherNameIsCaught) {
  Json j = parsed(made_up_run());
  auto& ev = j.obj["traceEvents"].arr;
  ev[find(j, "state", "wait_mem", 0)].obj["name"].str = "running";
  EXPECT_TRUE(reports(check_timeline(j), "state 'running' is not in the warp-state table"));
  // A known name in the wrong place tiles fine but disagrees with the SM's counters.
  Json k = parsed(made_up_run());
  k.obj["traceEvents"].arr[find(k, "state", "wait_mem", 0)].obj["name"].str = "ready";
  EXPECT_TRUE(reports(check_timeline(k), "warp-cycles wait_mem, the SM counted 2"));
}

TEST(Timeline, ALostCtaIsCounted) {
  Json j = parsed(made_up_run());
  erase(&j, find(j, "cta", "CTA (2,0,0)", 0));
  erase(&j, find(j, "cta", "place CTA (2,0,0)"));
  const auto p = check_timeline(j);
  EXPECT_TRUE(reports(p, "2 CTAs held warp slots, the grid has 3")) << all(p);
  EXPECT_TRUE(reports(p, "2 CTA placements, the grid has 3")) << all(p);
}

TEST(Timeline, MemoryLeftInFlightIsCaught) {
  Json j = parsed(made_up_run());
  auto& ev = j.obj["traceEvents"].arr;
  size_t last = 0;
  for (size_t i = 0; i < ev.size(); ++i)
    if (ev[i].get("name")->str == kMemCounter) last = i;
  erase(&j, last);
  EXPECT_TRUE(reports(check_timeline(j), "memory in flight ends at 1, not 0"));
}

TEST(Timeline, BrokenEventsAreCaught) {
  Json j = parsed(made_up_run());
  auto& ev = j.obj["traceEvents"].arr;
  const size_t a = find(j, "state", "ready", 1), b = find(j, "state", "exited", 1);
  ev[a].obj["dur"].num = 0;
  ev[b].obj.erase("pid");
  const auto p = check_timeline(j);
  EXPECT_TRUE(reports(p, "(ready): a complete event needs dur >= 1")) << all(p);
  EXPECT_TRUE(reports(p, "needs ph (a string) and ts, pid, tid")) << all(p);
  std::string err;
  Json bad;
  EXPECT_FALSE(parse_json("{\"traceEvents\":[1,]}", &bad, &err));
  EXPECT_EQ(err.rfind("line 1: ", 0), 0u) << err;
}

TEST(Timeline, Checksums) {
  const std::string s = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t*>(s.data()), s.size()), 0xCBF43926u);
  const std::string w = "Wikipedia";
  EXPECT_EQ(adler32(reinterpret_cast<const uint8_t*>(w.data()), w.size()), 0x11E60398u);
}

// The PNG's pixels come back through zlib's own inflate.
TEST(Timeline, PngRoundTripsThroughZlib) {
  const Json j = parsed(made_up_run());
  TimelineData d;
  check_timeline(j, &d);
  const std::string png = render_picture(d, "test", true, ~0ull, ~0ull, 300);
  ASSERT_GT(png.size(), 33u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const auto be32 = [&](size_t at) {
    return uint32_t(uint8_t(png[at])) << 24 | uint32_t(uint8_t(png[at + 1])) << 16 |
           uint32_t(uint8_t(png[at + 2])) << 8 | uint32_t(uint8_t(png[at + 3]));
  };
  const uint32_t w = be32(16), h = be32(20);
  EXPECT_EQ(w, 300u);
  size_t at = 8;
  std::string idat;
  while (at + 12 <= png.size()) {
    const uint32_t len = be32(at);
    const std::string type = png.substr(at + 4, 4);
    const auto* p = reinterpret_cast<const uint8_t*>(png.data() + at + 4);
    EXPECT_EQ(crc32(p, len + 4), be32(at + 8 + len)) << type;
    if (type == "IDAT") idat += png.substr(at + 8, len);
    at += 12 + len;
  }
  EXPECT_EQ(at, png.size());
  std::vector<uint8_t> raw(size_t(h) * (1 + 3 * w));
  uLongf n = raw.size();
  ASSERT_EQ(uncompress(raw.data(), &n, reinterpret_cast<const Bytef*>(idat.data()), idat.size()), Z_OK);
  EXPECT_EQ(n, raw.size());
  // The top-left pixel is the white background; the first slot row holds
  // the colour of "idle" somewhere.
  EXPECT_EQ(raw[0], 0);
  EXPECT_EQ(raw[1], 0xff);
  bool idle_seen = false;
  const size_t row = size_t(44 + 5) * (1 + 3 * w);
  for (uint32_t x = 0; x < w; ++x)
    idle_seen |= raw[row + 1 + 3 * x] == 0xe6 && raw[row + 2 + 3 * x] == 0xe6 && raw[row + 3 + 3 * x] == 0xe6;
  EXPECT_TRUE(idle_seen);
  const std::string svg = render_picture(d, "test", false);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find(">wait_mem</text>"), std::string::npos);
}

}  // namespace
}  // namespace baresm::timeline
