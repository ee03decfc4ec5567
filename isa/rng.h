// splitmix64: a seeded generator that gives the same numbers on every
// platform (std:: distributions do not), shared by the random-program
// generator (isa/progen.cpp), the samples' inputs (samples/context.h) and
// the RTL block tests' stimulus (tests/rtl_sm/test_rtl_sm_blocks.cpp).
#pragma once

#include <cstdint>

namespace baresm {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return uint32_t(next() >> 32); }
  // Uniform in [0, n) (the bias of the modulo is irrelevant here); 0 for n = 0.
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
  // True with probability p.
  bool chance(double p) { return double(next() >> 11) * (1.0 / 9007199254740992.0) < p; }

 private:
  uint64_t s_;
};

}  // namespace baresm
