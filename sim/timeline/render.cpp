#include "sim/timeline/render.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "sim/harness/state_names.h"
#include "sim/timeline/png.h"

namespace baresm::timeline {

namespace {

// One colour per baresm_state_pkg::WS_* (the names come from kWarpStateNames).
constexpr std::array<uint32_t, sim::kNumWarpStates> kColours = {0xe6e6e6, 0xf2c94c, 0x27ae60, 0x2f80ed,
                                                                0xf2994a, 0x9b51e0, 0x6b6b6b};
constexpr uint32_t kBlack = 0x000000, kWhite = 0xffffff, kBarrier = 0xd0021b, kMem = 0x2f80ed;

int state_index(const std::string& name) {
  for (int k = 0; k < sim::kNumWarpStates; ++k)
    if (name == sim::kWarpStateNames[k]) return k;
  return 0;
}

enum Anchor { START, MIDDLE, END };

// What the layout below draws on: rectangles and one line of text (y is
// the baseline).
class Canvas {
 public:
  virtual ~Canvas() = default;
  virtual void rect(double x, double y, double w, double h, uint32_t rgb) = 0;
  virtual void text(double x, double y, const std::string& s, Anchor a = START) = 0;
};

class SvgCanvas : public Canvas {
 public:
  SvgCanvas(int w, int h) {
    char b[200];
    std::snprintf(b, sizeof b,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "font-family=\"sans-serif\" font-size=\"11\">\n",
                  w, h);
    out = b;
  }
  void rect(double x, double y, double w, double h, uint32_t rgb) override {
    char b[160];
    std::snprintf(b, sizeof b,
                  "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%06x\"/>\n", x, y, w, h,
                  rgb);
    out += b;
  }
  void text(double x, double y, const std::string& s, Anchor a) override {
    static const char* const kAnchor[] = {"start", "middle", "end"};
    char b[96];
    std::snprintf(b, sizeof b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, kAnchor[a]);
    out += b;
    for (char c : s) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    out += "</text>\n";
  }
  std::string finish() { return out + "</svg>\n"; }

 private:
  std::string out;
};

class RasterCanvas : public Canvas {
 public:
  RasterCanvas(int w, int h) : w_(w), h_(h), px_(size_t(w) * size_t(h) * 3, 0xff) {}
  void rect(double x, double y, double w, double h, uint32_t rgb) override {
    const int x0 = int(x + 0.5), y0 = int(y + 0.5);
    const int x1 = std::max(x0 + (w > 0), int(x + w + 0.5)), y1 = std::max(y0 + (h > 0), int(y + h + 0.5));
    for (int yy = std::max(0, y0); yy < std::min(h_, y1); ++yy)
      for (int xx = std::max(0, x0); xx < std::min(w_, x1); ++xx) put(xx, yy, rgb);
  }
  void text(double x, double y, const std::string& s, Anchor a) override {
    const int width = 6 * int(s.size()) - 1;
    int left = int(x + 0.5) - (a == END ? width : a == MIDDLE ? width / 2 : 0);
    const int top = int(y + 0.5) - 7;
    for (char c : s) {
      const uint8_t* g = glyph(c);
      for (int r = 0; r < 7; ++r)
        for (int b = 0; b < 5; ++b)
          if (g[r] >> (4 - b) & 1) put(left + b, top + r, kBlack);
      left += 6;
    }
  }
  std::string finish() const { return encode_png(w_, h_, px_); }

 private:
  void put(int x, int y, uint32_t rgb) {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
    uint8_t* p = &px_[(size_t(y) * size_t(w_) + size_t(x)) * 3];
    p[0] = uint8_t(rgb >> 16);
    p[1] = uint8_t(rgb >> 8);
    p[2] = uint8_t(rgb);
  }
  int w_, h_;
  std::vector<uint8_t> px_;
};

// A round step for about `n` ticks over `range` cycles: 1, 2 or 5 x 10^k.
uint64_t tick_step(uint64_t range, int n) {
  uint64_t step = 1;
  for (;;) {
    for (uint64_t m : {1, 2, 5})
      if (range / (step * m) <= uint64_t(n)) return step * m;
    step *= 10;
  }
}

struct Layout {
  double left = 90, right = 20, top = 44, row = 14, bar = 11;
  double rows_end, axis_y, mem_top, mem_h = 70, legend_y, height;
  explicit Layout(uint32_t slots) {
    rows_end = top + row * slots;
    axis_y = rows_end + 6;
    mem_top = axis_y + 34;
    legend_y = mem_top + mem_h + 30;
    height = legend_y + 20;
  }
};

void draw(Canvas& cv, const TimelineData& d, const std::string& title, int width, const Layout& L,
          uint64_t t0, uint64_t t1) {
  const double left = L.left, top = L.top, row = L.row, bar = L.bar;
  const double plot_w = width - L.left - L.right;
  const int cols = int(plot_w);
  const double span = double(t1 - t0);
  auto x_of = [&](uint64_t c) { return left + double(c - t0) * plot_w / span; };
  const double axis_y = L.axis_y, mem_top = L.mem_top, mem_h = L.mem_h, legend_y = L.legend_y;
  char b[256];
  cv.rect(0, 0, width, L.height, kWhite);
  cv.text(left, 18, title);
  std::snprintf(b, sizeof b, "cycles %llu..%llu, %zu SM launch%s, %zu barrier releases",
                (unsigned long long)t0, (unsigned long long)t1, d.sm_launches.size(),
                d.sm_launches.size() == 1 ? "" : "es", d.barrier_releases.size());
  cv.text(left, 32, b);

  // Warp slots: per pixel column, the state that held the most cycles.
  for (uint32_t w = 0; w < d.slots; ++w) {
    std::vector<std::array<double, sim::kNumWarpStates>> weight(size_t(cols),
                                                                std::array<double, sim::kNumWarpStates>{});
    for (const Span& s : d.states[w]) {
      const int k = state_index(s.name);
      const double a = (double(s.start) - double(t0)) * cols / span;
      const double e = (double(s.start + s.dur) - double(t0)) * cols / span;
      if (e <= 0 || a >= cols) continue;
      for (int c = std::max(0, int(a)); c < cols && c < e; ++c)
        weight[size_t(c)][size_t(k)] += std::min(e, double(c + 1)) - std::max(a, double(c));
    }
    const double y = top + row * w;
    std::snprintf(b, sizeof b, "warp slot %u", w);
    cv.text(left - 6, y + bar - 1, b, END);
    int run_start = 0, run_state = -1;
    for (int c = 0; c <= cols; ++c) {
      int best = -1;
      if (c < cols) {
        double most = 0;
        for (int k = 0; k < sim::kNumWarpStates; ++k)
          if (weight[size_t(c)][size_t(k)] > most) most = weight[size_t(c)][size_t(k)], best = k;
      }
      if (best == run_state) continue;
      if (run_state >= 0) cv.rect(left + run_start, y, c - run_start, bar, kColours[size_t(run_state)]);
      run_start = c;
      run_state = best;
    }
  }
  // A CTA's warp placed in a slot: a black tick at the row's left edge of it.
  for (uint32_t w = 0; w < d.slots; ++w)
    for (const Span& c : d.ctas[w])
      if (c.start >= t0 && c.start < t1) cv.rect(x_of(c.start), top + row * w - 1, 1, bar + 2, kBlack);
  for (uint64_t t : d.barrier_releases)
    if (t >= t0 && t < t1) cv.rect(x_of(t) - 0.5, top - 6, 1.5, 5, kBarrier);
  cv.text(left - 6, top - 1, "barrier", END);

  // Time axis.
  cv.rect(left, axis_y, plot_w, 1, kBlack);
  const uint64_t step = tick_step(t1 - t0, 10);
  for (uint64_t t = (t0 + step - 1) / step * step; t <= t1; t += step) {
    cv.rect(x_of(t), axis_y, 1, 5, kBlack);
    cv.text(x_of(t), axis_y + 16, std::to_string(t), MIDDLE);
  }
  cv.text(left + plot_w, axis_y + 28, "cycle", END);

  // Memory requests in flight: the most during each pixel column.
  int64_t peak = 1;
  for (const auto& m : d.mem) peak = std::max(peak, m.second);
  std::vector<int64_t> most(size_t(cols), 0);
  for (size_t i = 0; i < d.mem.size(); ++i) {
    const uint64_t a = std::max(d.mem[i].first, t0);
    const uint64_t e = i + 1 < d.mem.size() ? std::min(d.mem[i + 1].first, t1) : t1;
    if (a >= e) continue;
    for (int c = int(double(a - t0) * cols / span); c < cols && c <= int(double(e - 1 - t0) * cols / span);
         ++c)
      most[size_t(c)] = std::max(most[size_t(c)], d.mem[i].second);
  }
  cv.rect(left, mem_top + mem_h, plot_w, 1, kBlack);
  for (int c = 0; c < cols; ++c) {
    if (!most[size_t(c)]) continue;
    const double h = mem_h * double(most[size_t(c)]) / double(peak);
    cv.rect(left + c, mem_top + mem_h - h, 1, h, kMem);
  }
  cv.text(left - 6, mem_top + 10, "memory", END);
  cv.text(left - 6, mem_top + 23, "in flight", END);
  std::snprintf(b, sizeof b, "peak %lld", (long long)peak);
  cv.text(left - 6, mem_top + mem_h, b, END);

  // Legend.
  double x = left;
  for (int k = 0; k < sim::kNumWarpStates; ++k) {
    cv.rect(x, legend_y - 9, 10, 10, kColours[size_t(k)]);
    cv.text(x + 14, legend_y, sim::kWarpStateNames[k]);
    x += 24 + 7.0 * double(std::string(sim::kWarpStateNames[k]).size());
  }
  cv.rect(x, legend_y - 9, 2, 10, kBarrier);
  cv.text(x + 6, legend_y, "barrier release");
  x += 24 + 7.0 * 15;
  cv.rect(x, legend_y - 10, 1, 12, kBlack);
  cv.text(x + 6, legend_y, "CTA placed in the slot");
}

}  // namespace

std::string render_picture(const TimelineData& d, const std::string& title, bool png, uint64_t from,
                           uint64_t to, int width) {
  const Layout L(d.slots);
  // Default: from the first SM launch's start to the last one's end.
  uint64_t t0 = ~0ull, t1 = 0;
  for (const Span& l : d.sm_launches) {
    t0 = std::min(t0, l.start);
    t1 = std::max(t1, l.start + l.dur);
  }
  if (from != ~0ull) t0 = from;
  if (to != ~0ull) t1 = to;
  if (t1 <= t0) t0 = 0, t1 = 1;
  if (png) {
    RasterCanvas cv(width, int(L.height));
    draw(cv, d, title, width, L, t0, t1);
    return cv.finish();
  }
  SvgCanvas cv(width, int(L.height));
  draw(cv, d, title, width, L, t0, t1);
  return cv.finish();
}

}  // namespace baresm::timeline
