// IEEE-754 binary32 arithmetic done in integer code, so the functional model
// is exact and portable: round to nearest even, subnormals kept (no FTZ), FFMA
// with a single rounding. Any NaN result is the canonical 0x7FFFFFFF.
// Non-NaN results are bit-identical to the host's float / std::fma.
#pragma once

#include <stdint.h>  // C headers: fw/sm builds this file for the control core (freestanding, no C++ library)

namespace baresm::fp32 {

constexpr uint32_t kCanonicalNaN = 0x7FFFFFFFu;

// The bits of a host float, and back.
inline uint32_t bits(float f) {
  uint32_t b;
  __builtin_memcpy(&b, &f, 4);
  return b;
}
inline float from_bits(uint32_t b) {
  float f;
  __builtin_memcpy(&f, &b, 4);
  return f;
}

uint32_t add(uint32_t a, uint32_t b);
uint32_t sub(uint32_t a, uint32_t b);
uint32_t mul(uint32_t a, uint32_t b);
uint32_t fma(uint32_t a, uint32_t b, uint32_t c);  // a*b + c, one rounding
uint32_t min(uint32_t a, uint32_t b);              // NaN loses; -0 < +0
uint32_t max(uint32_t a, uint32_t b);
inline uint32_t neg(uint32_t a) { return a ^ 0x80000000u; }
inline uint32_t abs(uint32_t a) { return a & 0x7FFFFFFFu; }
// cmp is the FSETP code (docs/isa.md): 0..5 ordered, 6 NUM, 7 NAN, 8..13 unordered.
bool compare(uint8_t cmp, uint32_t a, uint32_t b);
uint32_t from_i32(int32_t v);
uint32_t from_u32(uint32_t v);
int32_t to_i32(uint32_t a);    // toward zero, saturating, NaN -> 0
uint32_t to_u32(uint32_t a);   // toward zero, saturating (negative -> 0), NaN -> 0
inline bool is_nan(uint32_t a) { return (a & 0x7F800000u) == 0x7F800000u && (a & 0x007FFFFFu); }
// A host result as the device writes it: any NaN is the canonical one.
inline uint32_t canonical(float f) { return is_nan(bits(f)) ? kCanonicalNaN : bits(f); }

}  // namespace baresm::fp32
