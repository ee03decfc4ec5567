// Width-generic access to verilated signals: Verilator gives a signal of up
// to 64 bits as an integer and a wider one as VlWide<N> (32-bit words); every
// configuration has other widths, so code that reads or drives them goes
// through these.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/harness/sm_dut.h"
#include "verilated.h"

namespace baresm::sim::vl {

// Bits [lsb, lsb+width) (width <= 64) of a port, scalar or VlWide.
template <class T>
uint64_t get_bits(const T& v, int lsb, int width) {
  const uint64_t x = uint64_t(v) >> lsb;
  return width >= 64 ? x : (x & ((uint64_t(1) << width) - 1));
}
template <std::size_t N>
uint64_t get_bits(const VlWide<N>& v, int lsb, int width) {
  // Up to three 32-bit words hold the field (callers read it every cycle:
  // the timeline's counters, the lockstep's trace fields).
  const std::size_t w = std::size_t(lsb / 32);
  const int s = lsb % 32;
  uint64_t x = uint64_t(v[w]) >> s;
  if (w + 1 < N) x |= uint64_t(v[w + 1]) << (32 - s);
  if (s != 0 && w + 2 < N) x |= uint64_t(v[w + 2]) << (64 - s);
  return width >= 64 ? x : (x & ((uint64_t(1) << width) - 1));
}
template <std::size_t N>
uint32_t get_word(const VlWide<N>& v, int idx) {
  return v[idx];
}
template <class T>
uint32_t get_word(const T& v, int idx) {
  return uint32_t(uint64_t(v) >> (32 * idx));
}

template <class T>
void bytes_out(const T& v, uint8_t* out, size_t n) {
  const uint64_t x = uint64_t(v);
  for (size_t i = 0; i < n; i++) out[i] = uint8_t(x >> (8 * i));
}
template <std::size_t N>
void bytes_out(const VlWide<N>& v, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = uint8_t(v[i / 4] >> (8 * (i % 4)));
}
// One bit per byte (strobes).
template <class T>
void bits_out(const T& v, uint8_t* out, size_t n) {
  const uint64_t x = uint64_t(v);
  for (size_t i = 0; i < n; i++) out[i] = uint8_t((x >> i) & 1);
}
template <std::size_t N>
void bits_out(const VlWide<N>& v, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = uint8_t((v[i / 32] >> (i % 32)) & 1);
}

template <class T>
void bytes_in(T& v, const uint8_t* in, size_t n) {
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) x |= uint64_t(in[i]) << (8 * i);
  v = T(x);
}
template <std::size_t N>
void bytes_in(VlWide<N>& v, const uint8_t* in, size_t n) {
  for (size_t w = 0; w < N; w++) v[w] = 0;
  for (size_t i = 0; i < n; i++) v[i / 4] |= uint32_t(in[i]) << (8 * (i % 4));
}

// One cycle of baresm_sm's trace port (trace_*_o, in port order), wherever
// the signals live: the bare SM's ports or the device top's wires.
template <class RfMask, class RfData, class PwMask>
void read_trace(SmTrace* t, int lanes, bool issue, bool issue_fault, uint32_t slot, uint32_t pc, uint32_t tmask,
                uint32_t exec, uint32_t cta_x, uint32_t cta_y, uint32_t cta_z, uint32_t wic, uint32_t rf_we,
                uint64_t rf_addr, const RfMask& rf_mask, const RfData& rf_data, uint32_t pw_valid, uint32_t pw_slot,
                uint32_t pw_pd, const PwMask& pw_mask, const PwMask& pw_bits) {
  t->issue = issue;
  t->issue_fault = issue_fault;
  t->slot = slot;
  t->pc = pc;
  t->tmask = tmask;
  t->exec = exec;
  t->cta[0] = cta_x;
  t->cta[1] = cta_y;
  t->cta[2] = cta_z;
  t->wic = wic;
  t->rf_writes = 0;
  for (int k = 0; k < 3; k++) {
    if (!((rf_we >> k) & 1)) continue;
    SmTrace::RfWrite& w = t->rf[size_t(t->rf_writes++)];
    w.entry = uint32_t((rf_addr >> (16 * k)) & 0xFFFF);
    w.lanes = uint32_t(get_bits(rf_mask, lanes * k, lanes));
    for (int l = 0; l < lanes; l++) w.data[size_t(l)] = get_word(rf_data, lanes * k + l);
  }
  t->pred_writes = 0;
  for (int k = 0; k < 2; k++) {
    if (!((pw_valid >> k) & 1)) continue;
    SmTrace::PredWrite& w = t->pw[size_t(t->pred_writes++)];
    w.slot = (pw_slot >> (8 * k)) & 0xFF;
    w.pd = (pw_pd >> (3 * k)) & 7;
    w.mask = get_word(pw_mask, k);
    w.bits = get_word(pw_bits, k);
  }
}

}  // namespace baresm::sim::vl
