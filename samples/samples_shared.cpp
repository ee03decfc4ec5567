// matmul_tiled, histogram, prefix_scan, transpose: the shared-memory samples.
#include <algorithm>
#include <cmath>

#include "samples/sample_list.h"

namespace baresm::samples {

namespace {
uint32_t ceil_div(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
std::string dims(uint32_t a, uint32_t b) {
  return std::to_string(a) + "x" + std::to_string(b);
}
}  // namespace

// ---- matmul_tiled -------------------------------------------------------------------
void run_matmul_tiled(SampleContext& c) {
  struct Case {
    uint32_t M, N, K;
  };
  // None of the larger sizes is a multiple of 16, so every edge of the tile
  // grid is partial; K = 16 checks the exact-fit path.
  const Case cases[] = {{1, 1, 1}, {17, 23, 9}, {45, 38, 70}, {20, 50, 16}};
  constexpr uint32_t T = 16;
  for (const Case& k : cases) {
    std::vector<float> A(k.M * k.K), B(k.K * k.N);
    for (auto& x : A) x = c.rng().unit_float();
    for (auto& x : B) x = c.rng().unit_float();
    // Same operations, same order as the kernel: k runs over whole tiles,
    // terms past K are fma(0, 0, acc).
    const uint32_t kpad = ceil_div(k.K, T) * T;
    std::vector<float> want(k.M * k.N);
    for (uint32_t i = 0; i < k.M; ++i)
      for (uint32_t j = 0; j < k.N; ++j) {
        float acc = 0.0f;
        for (uint32_t kk = 0; kk < kpad; ++kk) {
          const float a = kk < k.K ? A[i * k.K + kk] : 0.0f;
          const float b = kk < k.K ? B[kk * k.N + j] : 0.0f;
          acc = std::fma(a, b, acc);
        }
        want[i * k.N + j] = acc;
      }
    Buffer dA = c.upload(A), dB = c.upload(B), dC = c.upload(std::vector<float>(k.M * k.N, -1.0f));
    const std::string note =
        "M,N,K=" + std::to_string(k.M) + "," + std::to_string(k.N) + "," + std::to_string(k.K);
    const auto& r =
        c.launch("matmul_tiled", {ceil_div(k.N, T), ceil_div(k.M, T), 1}, {T, T, 1},
                 {Arg::ptr(dA), Arg::ptr(dB), Arg::ptr(dC), Arg::u32(k.M), Arg::u32(k.N), Arg::u32(k.K)},
                 {dA, dB, dC}, note);
    if (!c.completed(r)) return;
    const auto got = c.download<float>(dC, k.M * k.N);
    const long bad = first_mismatch(got, want);
    if (bad >= 0)
      return c.fail(note + ": C[" + std::to_string(bad / k.N) + "][" + std::to_string(bad % k.N) +
                    "] = " + hex32(f32_bits(got[bad])) + ", reference " + hex32(f32_bits(want[bad])));
  }
  c.pass("C matches the host reference (same fma order) bit for bit");
}

// ---- histogram ----------------------------------------------------------------------
void run_histogram(SampleContext& c) {
  struct Case {
    uint32_t n, block, grid;
  };
  // Fewer threads than elements in every case (grid-stride), and a block
  // of 100 that does not divide into warps.
  const Case cases[] = {{1, 32, 1}, {1000, 100, 3}, {12345, 256, 8}};
  constexpr uint32_t kBins = 64;
  for (const Case& k : cases) {
    // A quarter of the values hit bin 7: lanes of one warp contend for the
    // same shared word, which the atomics must get right.
    std::vector<uint32_t> data(k.n);
    for (auto& v : data) v = c.rng().below(4) == 0 ? 64 * c.rng().below(1000) + 7 : c.rng().u32();
    std::vector<uint32_t> want(kBins, 0);
    for (uint32_t v : data) ++want[v & (kBins - 1)];
    Buffer dd = c.upload(data), dh = c.upload(std::vector<uint32_t>(kBins, 0));
    const uint32_t block = std::min(k.block, c.max_block_threads());   // grid-stride: any block covers n
    const auto& r =
        c.launch("histogram", {k.grid, 1, 1}, {block, 1, 1}, {Arg::ptr(dd), Arg::ptr(dh), Arg::u32(k.n)},
                 {dd, dh}, "n=" + std::to_string(k.n));
    if (!c.completed(r)) return;
    const auto got = c.download<uint32_t>(dh, kBins);
    const long bad = first_mismatch(got, want);
    if (bad >= 0)
      return c.fail("n=" + std::to_string(k.n) + ": bin " + std::to_string(bad) + " = " +
                    std::to_string(got[bad]) + ", reference " + std::to_string(want[bad]));
    // Each case frees its buffers: the largest case alone must fit a small
    // device (the iCEBreaker's 64 KB), not the sum of all of them.
    c.release(dd);
    c.release(dh);
  }
  c.pass("every bin matches the host count");
}

// ---- prefix_scan --------------------------------------------------------------------
namespace {
// Inclusive scan of n words of `in` into `out` with CTAs of `block`
// threads: scan each CTA, scan the CTA totals (recursively), add them back.
bool scan_recursive(SampleContext& c, Buffer in, Buffer out, uint32_t n, uint32_t block, int level,
                    const std::string& note) {
  const uint32_t ctas = ceil_div(n, block);
  Buffer sums = c.alloc(ctas * 4);
  const std::string lv = note + ", level " + std::to_string(level) + ": " + std::to_string(n);
  const auto& r1 = c.launch("scan_block", {ctas, 1, 1}, {block, 1, 1},
                            {Arg::ptr(in), Arg::ptr(out), Arg::ptr(sums), Arg::u32(n)}, {in, out, sums}, lv);
  if (!c.completed(r1)) return false;
  if (ctas == 1) {
    c.release(sums);
    return true;
  }
  Buffer scanned = c.alloc(ctas * 4);
  if (!scan_recursive(c, sums, scanned, ctas, block, level + 1, note)) return false;
  const auto& r2 = c.launch("scan_add", {ctas, 1, 1}, {block, 1, 1},
                            {Arg::ptr(out), Arg::ptr(scanned), Arg::u32(n)}, {out, scanned}, lv + " add");
  if (!c.completed(r2)) return false;
  c.release(scanned);
  c.release(sums);
  return true;
}
}  // namespace

void run_prefix_scan(SampleContext& c) {
  struct Case {
    uint32_t n, block;
  };
  // 1100 with 32-thread CTAs needs three levels (1100 -> 35 -> 2 -> 1);
  // block 100 has a partial last warp.
  const Case cases[] = {{1, 32}, {100, 64}, {1100, 32}, {3000, 100}, {5000, 256}};
  for (const Case& k : cases) {
    std::vector<uint32_t> data(k.n);
    for (auto& v : data) v = c.rng().u32();
    std::vector<uint32_t> want(k.n);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < k.n; ++i) want[i] = acc += data[i];
    Buffer din = c.upload(data), dout = c.upload(std::vector<uint32_t>(k.n, 0xCCCCCCCCu));
    const uint32_t block = std::min(k.block, c.max_block_threads());
    const std::string note = "n=" + std::to_string(k.n) + " block " + std::to_string(block);
    if (!scan_recursive(c, din, dout, k.n, block, 1, note)) return;
    const auto got = c.download<uint32_t>(dout, k.n);
    const long bad = first_mismatch(got, want);
    if (bad >= 0)
      return c.fail(note + ": out[" + std::to_string(bad) + "] = " + hex32(got[bad]) + ", reference " +
                    hex32(want[bad]));
    c.release(din);   // as histogram: the largest case alone must fit
    c.release(dout);
  }
  c.pass("every prefix matches the host scan");
}

// ---- transpose ----------------------------------------------------------------------
void run_transpose(SampleContext& c) {
  struct Case {
    uint32_t rows, cols;
  };
  const Case cases[] = {{1, 1}, {33, 70}, {100, 37}, {64, 96}};
  for (const Case& k : cases) {
    std::vector<uint32_t> in(k.rows * k.cols);
    for (auto& v : in) v = c.rng().u32();
    std::vector<uint32_t> want(in.size());
    for (uint32_t r = 0; r < k.rows; ++r)
      for (uint32_t col = 0; col < k.cols; ++col) want[col * k.rows + r] = in[r * k.cols + col];
    Buffer din = c.upload(in), dout = c.upload(std::vector<uint32_t>(in.size(), 0xCCCCCCCCu));
    const auto& r = c.launch("transpose", {ceil_div(k.cols, 32), ceil_div(k.rows, 32), 1}, {32, 8, 1},
                             {Arg::ptr(din), Arg::ptr(dout), Arg::u32(k.rows), Arg::u32(k.cols)}, {din, dout},
                             dims(k.rows, k.cols));
    if (!c.completed(r)) return;
    const auto got = c.download<uint32_t>(dout, in.size());
    const long bad = first_mismatch(got, want);
    if (bad >= 0)
      return c.fail(dims(k.rows, k.cols) + ": out[" + std::to_string(bad / k.rows) + "][" +
                    std::to_string(bad % k.rows) + "] = " + hex32(got[bad]) + ", reference " +
                    hex32(want[bad]));
  }
  c.pass("out is exactly the transpose of in");
}

}  // namespace baresm::samples
