// How Verilator's SystemC wrapper types a port of W bits (bool, uint32_t,
// uint64_t, sc_bv<W>), and conversions between those and byte arrays, so
// the testbench's modules follow the verilated configuration's widths.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace baresm::cosim {

template <int W>
using vl_t = std::conditional_t<
    (W == 1), bool,
    std::conditional_t<(W <= 32), uint32_t, std::conditional_t<(W <= 64), uint64_t, sc_dt::sc_bv<W>>>>;

// Little-endian bytes <-> a port value of nbytes bytes.
inline void to_bytes(uint32_t v, uint8_t* out, size_t nbytes) {
  for (size_t i = 0; i < nbytes && i < 4; ++i) out[i] = uint8_t(v >> (8 * i));
}
inline void to_bytes(uint64_t v, uint8_t* out, size_t nbytes) {
  for (size_t i = 0; i < nbytes && i < 8; ++i) out[i] = uint8_t(v >> (8 * i));
}
template <int W>
void to_bytes(const sc_dt::sc_bv<W>& v, uint8_t* out, size_t nbytes) {
  for (int w = 0; w * 4 < int(nbytes); ++w) {
    const uint32_t x = v.get_word(w);
    for (int b = 0; b < 4 && w * 4 + b < int(nbytes); ++b) out[w * 4 + b] = uint8_t(x >> (8 * b));
  }
}

inline void from_bytes(const uint8_t* in, size_t nbytes, uint32_t* v) {
  uint32_t x = 0;
  for (size_t i = 0; i < nbytes && i < 4; ++i) x |= uint32_t(in[i]) << (8 * i);
  *v = x;
}
inline void from_bytes(const uint8_t* in, size_t nbytes, uint64_t* v) {
  uint64_t x = 0;
  for (size_t i = 0; i < nbytes && i < 8; ++i) x |= uint64_t(in[i]) << (8 * i);
  *v = x;
}
template <int W>
void from_bytes(const uint8_t* in, size_t nbytes, sc_dt::sc_bv<W>* v) {
  for (int w = 0; w * 32 < W; ++w) {
    uint32_t x = 0;
    for (int b = 0; b < 4; ++b) {
      const size_t i = size_t(w) * 4 + size_t(b);
      if (i < nbytes) x |= uint32_t(in[i]) << (8 * b);
    }
    v->set_word(w, x);
  }
}

// Bit i of a port value (strobes).
inline bool bit_of(uint32_t v, int i) {
  return (v >> i) & 1u;
}
inline bool bit_of(uint64_t v, int i) {
  return (v >> i) & 1u;
}
template <int W>
bool bit_of(const sc_dt::sc_bv<W>& v, int i) {
  return (v.get_word(i / 32) >> (i % 32)) & 1u;
}

}  // namespace baresm::cosim
