// vec_add, saxpy, reduce_sum, nested_divergence: host side and references.
#include <algorithm>
#include <cmath>

#include "samples/sample_list.h"

namespace baresm::samples {

namespace {
uint32_t ceil_div(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
std::string n_note(uint32_t n) {
  return "n=" + std::to_string(n);
}

std::vector<float> random_floats(Rng& rng, uint32_t n) {
  std::vector<float> v(n);
  for (auto& x : v) x = rng.unit_float() * 100.0f;
  return v;
}

std::vector<uint32_t> random_words(Rng& rng, uint32_t n) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng.u32();
  return v;
}

std::string float_mismatch(const char* what, long i, float got, float want) {
  return std::string(what) + "[" + std::to_string(i) + "] = " + hex32(f32_bits(got)) + " (" +
         std::to_string(got) + "), reference " + hex32(f32_bits(want)) + " (" + std::to_string(want) + ")";
}

std::string word_mismatch(const char* what, long i, uint32_t got, uint32_t want) {
  return std::string(what) + "[" + std::to_string(i) + "] = " + hex32(got) + ", reference " + hex32(want);
}
}  // namespace

// ---- vec_add ------------------------------------------------------------------------
void run_vec_add(SampleContext& c) {
  struct Case {
    uint32_t n, block;
    bool grid_2d;
  };
  // Block 100 leaves the last warp of every CTA with 4 live lanes; the 2D
  // case covers the CTAs with a 10 x 8 grid (one CTA more than needed): 79
  // CTAs of 64 threads, or of 32 on a device whose memory cannot hold its
  // three 20 KB arrays beside the rings and code (the 64 KB board).
  const bool small = c.device_mem_bytes() < 128 * 1024;
  const Case cases[] = {{1, 32, false}, {1000, 100, false}, {4099, 128, false}, {small ? 2500u : 5000u, small ? 32u : 64u, true}};
  for (const Case& k : cases) {
    std::vector<float> a = random_floats(c.rng(), k.n), b = random_floats(c.rng(), k.n);
    std::vector<float> want(k.n);
    for (uint32_t i = 0; i < k.n; ++i) want[i] = a[i] + b[i];
    Buffer da = c.upload(a), db = c.upload(b), dc = c.upload(std::vector<float>(k.n, -1.0f));
    const uint32_t ctas = ceil_div(k.n, k.block);
    drv::Dim3 grid{ctas, 1, 1};
    if (k.grid_2d) grid = drv::Dim3{10, ceil_div(ctas, 10), 1};
    const auto& r =
        c.launch("vec_add", grid, {k.block, 1, 1}, {Arg::ptr(da), Arg::ptr(db), Arg::ptr(dc), Arg::u32(k.n)},
                 {da, db, dc}, n_note(k.n) + (k.grid_2d ? ", 2D grid" : ""));
    if (!c.completed(r)) return;
    const auto got = c.download<float>(dc, k.n);
    const long bad = first_mismatch(got, want);
    if (bad >= 0) return c.fail(n_note(k.n) + ": " + float_mismatch("c", bad, got[bad], want[bad]));
    c.release(da);  // each case alone must fit a small device
    c.release(db);
    c.release(dc);
  }
  c.pass("every element of c matches the host reference bit for bit");
}

// ---- saxpy --------------------------------------------------------------------------
void run_saxpy(SampleContext& c) {
  struct Case {
    uint32_t n, block, grid;
  };
  // The last case launches fewer threads than elements: the grid-stride
  // loop runs 3 trips for some threads and 2 for others.
  const Case cases[] = {{33, 32, 2}, {1000, 96, 11}, {3001, 256, 4}};
  for (const Case& k : cases) {
    const float a = c.rng().unit_float() * 4.0f;
    std::vector<float> x = random_floats(c.rng(), k.n), y = random_floats(c.rng(), k.n);
    std::vector<float> want(k.n);
    for (uint32_t i = 0; i < k.n; ++i) want[i] = std::fma(a, x[i], y[i]);  // one rounding, as FFMA
    Buffer dx = c.upload(x), dy = c.upload(y);
    const uint32_t block = std::min(k.block, c.max_block_threads());  // grid-stride: any block covers n
    const auto& r = c.launch("saxpy", {k.grid, 1, 1}, {block, 1, 1},
                             {Arg::f32(a), Arg::ptr(dx), Arg::ptr(dy), Arg::u32(k.n)}, {dx, dy},
                             n_note(k.n) + ", a=" + std::to_string(a));
    if (!c.completed(r)) return;
    const auto got = c.download<float>(dy, k.n);
    const long bad = first_mismatch(got, want);
    if (bad >= 0) return c.fail(n_note(k.n) + ": " + float_mismatch("y", bad, got[bad], want[bad]));
    c.release(dx);
    c.release(dy);
  }
  c.pass("y matches std::fma(a, x, y) bit for bit");
}

// ---- reduce_sum ---------------------------------------------------------------------
void run_reduce_sum(SampleContext& c) {
  struct Case {
    uint32_t n, block;
  };
  // 20001 elements with 128 threads: 79 partials, then 1.
  const Case cases[] = {{1, 32}, {300, 64}, {5000, 256}, {20001, 128}};
  for (const Case& k : cases) {
    const std::vector<uint32_t> data = random_words(c.rng(), k.n);
    uint32_t want = 0;
    for (uint32_t v : data) want += v;  // wraps mod 2^32, like IADD
    Buffer in = c.upload(data);
    uint32_t count = k.n;
    int pass = 0;
    for (;;) {
      const uint32_t ctas = ceil_div(count, 2 * k.block);
      Buffer out = c.alloc(ctas * 4);
      const auto& r = c.launch("reduce_sum", {ctas, 1, 1}, {k.block, 1, 1},
                               {Arg::ptr(in), Arg::ptr(out), Arg::u32(count)}, {in, out},
                               n_note(k.n) + ", pass " + std::to_string(++pass) + ": " +
                                   std::to_string(count) + " -> " + std::to_string(ctas));
      if (!c.completed(r)) return;
      in = out;
      count = ctas;
      if (ctas == 1) break;
    }
    const uint32_t got = c.download<uint32_t>(in, 1)[0];
    if (got != want) return c.fail(n_note(k.n) + ": sum " + hex32(got) + ", reference " + hex32(want));
  }
  c.pass("every sum matches the host reference");
}

// ---- nested_divergence --------------------------------------------------------------
namespace {
// The C of the kernel's header comment; path = which leaf the lane took.
uint32_t nested_ref(uint32_t x, uint32_t i, int* path) {
  uint32_t r;
  if (x & 1) {
    if (x & 2) {
      r = x * 3, *path = 0;
    } else if (x & 4) {
      r = x ^ 0x5a5a, *path = 1;
    } else if (((x >> 8) & 3) == 0) {
      r = ~x, *path = 2;
    } else {
      r = x >> 3, *path = 3;
    }
  } else {
    r = x, *path = 4;
    for (uint32_t k = (x >> 4) & 15; k != 0; --k) {
      r = r * 5 + k;
      if (r & 0x100) r ^= 0x3c;
    }
  }
  return r + i;
}
}  // namespace

void run_nested_divergence(SampleContext& c) {
  struct Case {
    uint32_t n, block;
  };
  const Case cases[] = {{77, 64}, {1000, 96}, {2500, 128}};
  int paths_seen[5] = {};
  for (const Case& k : cases) {
    const std::vector<uint32_t> x = random_words(c.rng(), k.n);
    std::vector<uint32_t> want(k.n);
    for (uint32_t i = 0; i < k.n; ++i) {
      int path = 0;
      want[i] = nested_ref(x[i], i, &path);
      ++paths_seen[path];
    }
    Buffer din = c.upload(x), dout = c.upload(std::vector<uint32_t>(k.n, 0xCCCCCCCCu));
    const auto& r = c.launch("nested_divergence", {ceil_div(k.n, k.block), 1, 1}, {k.block, 1, 1},
                             {Arg::ptr(din), Arg::ptr(dout), Arg::u32(k.n)}, {din, dout}, n_note(k.n));
    if (!c.completed(r)) return;
    const auto got = c.download<uint32_t>(dout, k.n);
    const long bad = first_mismatch(got, want);
    if (bad >= 0)
      return c.fail(n_note(k.n) + ": " + word_mismatch("out", bad, got[bad], want[bad]) +
                    " for x = " + hex32(x[bad]));
    // A device that counts no instructions (tools/h200's real GPU) cannot say.
    if (r.report.stats.warp_instrs > 0 && r.report.stats.div_branches == 0)
      return c.fail(n_note(k.n) + ": no branch diverged");
  }
  for (int p = 0; p < 5; ++p)
    if (paths_seen[p] == 0) return c.fail("the inputs never took path " + std::to_string(p));
  c.pass("every lane's result matches the reference (all 5 paths taken, warps diverged)");
}

}  // namespace baresm::samples
