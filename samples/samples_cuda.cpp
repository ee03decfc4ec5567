// The samples that exist only in CUDA (kernels/cuda/NAME.cu, run from nvcc's
// PTX with --source cuda): they exercise what the hand-written kernels do
// not. Host side and references.
#include "samples/sample_list.h"

#include <algorithm>

namespace baresm::samples {

// ---- warp_stats ---------------------------------------------------------------------
void run_warp_stats(SampleContext& c) {
  struct Case {
    uint32_t n, block;
  };
  // n = 1: one live lane in the only warp; the others read nothing and add 0.
  const Case cases[] = {{1, 32}, {1000, 64}, {4096, 128}, {5003, 256}};
  for (const Case& k : cases) {
    std::vector<uint8_t> bytes(k.n);
    for (auto& b : bytes) b = uint8_t(c.rng().u32());
    const uint32_t ctas = (k.n + k.block - 1) / k.block, warps = ctas * (k.block / 32);
    std::vector<uint32_t> want_sum(warps, 0), want_odd(warps, 0);
    for (uint32_t i = 0; i < k.n; ++i) {
      want_sum[i / 32] += bytes[i];
      want_odd[i / 32] += bytes[i] & 1;
    }
    Buffer in = c.upload(bytes);
    Buffer sums = c.upload(std::vector<uint32_t>(warps, 0xCCCCCCCCu));
    Buffer odd = c.upload(std::vector<uint32_t>(warps, 0xCCCCCCCCu));
    const std::string note = "n=" + std::to_string(k.n) + ", block " + std::to_string(k.block);
    const auto& r =
        c.launch("warp_stats", {ctas, 1, 1}, {k.block, 1, 1},
                 {Arg::ptr(in), Arg::ptr(sums), Arg::ptr(odd), Arg::u32(k.n)}, {in, sums, odd}, note);
    if (!c.completed(r)) return;
    const auto got_sum = c.download<uint32_t>(sums, warps), got_odd = c.download<uint32_t>(odd, warps);
    long bad = first_mismatch(got_sum, want_sum);
    if (bad >= 0)
      return c.fail(note + ": sums[" + std::to_string(bad) + "] = " + std::to_string(got_sum[bad]) +
                    ", reference " + std::to_string(want_sum[bad]));
    bad = first_mismatch(got_odd, want_odd);
    if (bad >= 0)
      return c.fail(note + ": odd[" + std::to_string(bad) + "] = " + std::to_string(got_odd[bad]) +
                    ", reference " + std::to_string(want_odd[bad]));
  }
  c.pass("every warp's byte sum (shuffle reduction) and odd count (ballot) match the host");
}

// ---- local_sort ---------------------------------------------------------------------
// Per thread, 16 words insertion-sorted in a local array with run-time
// indices (local memory: the driver's per-launch frames), hashed; then
// live_hash, whose 72 live values spill to the same frames.
void run_local_sort(SampleContext& c) {
  struct Case {
    uint32_t n, block;
  };
  // One thread; a partial warp; several CTAs of several warps (frames of
  // every warp of the grid apart).
  const Case cases[] = {{1, 32}, {100, 64}, {3001, 128}};
  // One launch of kernel(in, out, n) over k.n threads, out checked against want.
  const auto run = [&c](const char* kernel, const std::string& what, const Case& k,
                        const std::vector<uint32_t>& in, const std::vector<uint32_t>& want) {
    Buffer bin = c.upload(in);
    Buffer bout = c.upload(std::vector<uint32_t>(k.n, 0xCCCCCCCCu));
    const std::string note = what + std::to_string(k.n) + ", block " + std::to_string(k.block);
    const uint32_t ctas = (k.n + k.block - 1) / k.block;
    const auto& r = c.launch(kernel, {ctas, 1, 1}, {k.block, 1, 1},
                             {Arg::ptr(bin), Arg::ptr(bout), Arg::u32(k.n)}, {bin, bout}, note);
    if (!c.completed(r)) return false;
    const auto got = c.download<uint32_t>(bout, k.n);
    const long bad = first_mismatch(got, want);
    if (bad < 0) return true;
    c.fail(note + ": out[" + std::to_string(bad) + "] = " + std::to_string(got[bad]) + ", reference " +
           std::to_string(want[bad]));
    return false;
  };
  constexpr uint32_t K = 16;
  for (const Case& k : cases) {
    std::vector<uint32_t> in(size_t(k.n) * K);
    // Small values repeat, so the sort meets equal keys too.
    for (size_t i = 0; i < in.size(); ++i) in[i] = i % 3 ? c.rng().u32() : c.rng().u32() % 8;
    std::vector<uint32_t> want(k.n);
    for (uint32_t i = 0; i < k.n; ++i) {
      std::vector<uint32_t> v(in.begin() + long(i) * K, in.begin() + long(i + 1) * K);
      std::sort(v.begin(), v.end());
      uint32_t h = 0;
      for (uint32_t x : v) h = h * 31 + x;
      want[i] = h ^ v[v[0] % K];
    }
    if (!run("local_sort", "n=", k, in, want)) return;
  }
  // live_hash: 72 values live across a loop, more than the registers: spilled.
  constexpr uint32_t L = 72;
  for (const Case& k : {Case{1, 32}, Case{100, 64}, Case{1000, 128}}) {
    std::vector<uint32_t> in(size_t(k.n) * L);
    for (uint32_t& x : in) x = c.rng().u32();
    std::vector<uint32_t> want(k.n);
    for (uint32_t i = 0; i < k.n; ++i) {
      uint32_t h = 0;
      for (uint32_t r = 0; r < 3; ++r)
        for (uint32_t j = 0; j < L; ++j) h = h * 31 + ((in[size_t(i) * L + j] ^ (i * (j + 1))) >> r);
      want[i] = h;
    }
    if (!run("live_hash", "live_hash n=", k, in, want)) return;
  }
  c.pass("every thread's sorted 16-word run (a local array with run-time indices) and its hash of 72 live "
         "values (spilled registers) match the host");
}

}  // namespace baresm::samples
