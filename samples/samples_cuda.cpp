// The samples that exist only in CUDA (kernels/cuda/NAME.cu, run from nvcc's
// PTX with --source cuda): they exercise what the hand-written kernels do
// not. Host side and references.
#include "samples/sample_list.h"

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

}  // namespace baresm::samples
