#include "sim/timeline/render.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "sim/harness/state_names.h"

namespace baresm::timeline {

namespace {

// One colour per baresm_sm_pkg::WS_* (the names come from kWarpStateNames).
constexpr std::array<const char*, sim::kNumWarpStates> kColours = {
    "#e6e6e6", "#f2c94c", "#27ae60", "#2f80ed", "#f2994a", "#9b51e0", "#6b6b6b"};

int state_index(const std::string& name) {
  for (int k = 0; k < sim::kNumWarpStates; ++k)
    if (name == sim::kWarpStateNames[k]) return k;
  return 0;
}

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

void rect(std::string* o, double x, double y, double w, double h, const char* fill) {
  char b[160];
  std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", x, y, w,
                h, fill);
  *o += b;
}

void text(std::string* o, double x, double y, const std::string& s, const char* anchor = "start") {
  char b[96];
  std::snprintf(b, sizeof b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
  *o += b + esc(s) + "</text>\n";
}

// A round step for about `n` ticks over `range` cycles: 1, 2 or 5 x 10^k.
uint64_t tick_step(uint64_t range, int n) {
  uint64_t step = 1;
  for (;;) {
    for (uint64_t m : {1, 2, 5})
      if (range / (step * m) <= uint64_t(n)) return step * m;
    step *= 10;
  }
}

}  // namespace

std::string render_svg(const TimelineData& d, const std::string& title, int width) {
  uint64_t t0 = ~0ull, t1 = 0;
  for (const Span& l : d.sm_launches) {
    t0 = std::min(t0, l.start);
    t1 = std::max(t1, l.start + l.dur);
  }
  if (t1 <= t0) t0 = 0, t1 = 1;
  const double left = 90, right = 20, top = 44, row = 14, bar = 11;
  const double plot_w = width - left - right;
  const int cols = int(plot_w);
  const double span = double(t1 - t0);
  auto x_of = [&](uint64_t c) { return left + double(c - t0) * plot_w / span; };
  const double rows_end = top + row * d.slots;
  const double axis_y = rows_end + 6, mem_top = axis_y + 34, mem_h = 70;
  const double legend_y = mem_top + mem_h + 30;
  const double height = legend_y + 20;

  std::string o;
  char b[256];
  std::snprintf(b, sizeof b,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
                "font-family=\"sans-serif\" font-size=\"11\">\n",
                width, height);
  o += b;
  rect(&o, 0, 0, width, height, "#ffffff");
  text(&o, left, 18, title);
  std::snprintf(b, sizeof b, "cycles %llu..%llu, %zu SM launch%s, %zu barrier releases",
                (unsigned long long)t0, (unsigned long long)t1, d.sm_launches.size(),
                d.sm_launches.size() == 1 ? "" : "es", d.barrier_releases.size());
  text(&o, left, 32, b);

  // Warp slots: per pixel column, the state that held the most cycles.
  for (uint32_t w = 0; w < d.slots; ++w) {
    std::vector<std::array<double, sim::kNumWarpStates>> weight(size_t(cols), std::array<double, sim::kNumWarpStates>{});
    for (const Span& s : d.states[w]) {
      const int k = state_index(s.name);
      const double a = double(s.start - t0) * cols / span, e = double(s.start + s.dur - t0) * cols / span;
      for (int c = std::max(0, int(a)); c < cols && c < e; ++c)
        weight[size_t(c)][size_t(k)] += std::min(e, double(c + 1)) - std::max(a, double(c));
    }
    const double y = top + row * w;
    std::snprintf(b, sizeof b, "warp slot %u", w);
    text(&o, left - 6, y + bar - 1, b, "end");
    int run_start = 0, run_state = -1;
    for (int c = 0; c <= cols; ++c) {
      int best = -1;
      if (c < cols) {
        double most = 0;
        for (int k = 0; k < sim::kNumWarpStates; ++k)
          if (weight[size_t(c)][size_t(k)] > most) most = weight[size_t(c)][size_t(k)], best = k;
      }
      if (best == run_state) continue;
      if (run_state >= 0) rect(&o, left + run_start, y, c - run_start, bar, kColours[size_t(run_state)]);
      run_start = c;
      run_state = best;
    }
  }
  for (uint64_t t : d.barrier_releases)
    if (t >= t0 && t < t1) rect(&o, x_of(t) - 0.5, top - 6, 1.5, 5, "#d0021b");
  text(&o, left - 6, top - 1, "barrier", "end");

  // Time axis.
  rect(&o, left, axis_y, plot_w, 1, "#000000");
  const uint64_t step = tick_step(t1 - t0, 10);
  for (uint64_t t = (t0 + step - 1) / step * step; t <= t1; t += step) {
    rect(&o, x_of(t), axis_y, 1, 5, "#000000");
    text(&o, x_of(t), axis_y + 16, std::to_string(t), "middle");
  }
  text(&o, left + plot_w, axis_y + 28, "cycle", "end");

  // Memory requests in flight: the most during each pixel column.
  int64_t peak = 1;
  for (const auto& m : d.mem) peak = std::max(peak, m.second);
  std::vector<int64_t> most(size_t(cols), 0);
  for (size_t i = 0; i < d.mem.size(); ++i) {
    const uint64_t a = std::max(d.mem[i].first, t0);
    const uint64_t e = i + 1 < d.mem.size() ? std::min(d.mem[i + 1].first, t1) : t1;
    if (a >= e) continue;
    for (int c = int(double(a - t0) * cols / span); c < cols && c <= int(double(e - 1 - t0) * cols / span); ++c)
      most[size_t(c)] = std::max(most[size_t(c)], d.mem[i].second);
  }
  rect(&o, left, mem_top + mem_h, plot_w, 1, "#000000");
  for (int c = 0; c < cols; ++c) {
    if (!most[size_t(c)]) continue;
    const double h = mem_h * double(most[size_t(c)]) / double(peak);
    rect(&o, left + c, mem_top + mem_h - h, 1, h, "#2f80ed");
  }
  text(&o, left - 6, mem_top + 10, "memory", "end");
  text(&o, left - 6, mem_top + 23, "in flight", "end");
  std::snprintf(b, sizeof b, "peak %lld", (long long)peak);
  text(&o, left - 6, mem_top + mem_h, b, "end");

  // Legend.
  double x = left;
  for (int k = 0; k < sim::kNumWarpStates; ++k) {
    rect(&o, x, legend_y - 9, 10, 10, kColours[size_t(k)]);
    text(&o, x + 14, legend_y, sim::kWarpStateNames[k]);
    x += 24 + 7.0 * double(std::string(sim::kWarpStateNames[k]).size());
  }
  rect(&o, x, legend_y - 9, 2, 10, "#d0021b");
  text(&o, x + 6, legend_y, "barrier release");
  o += "</svg>\n";
  return o;
}

}  // namespace baresm::timeline
