// The layout of the SM's ID/CONFIG words (config_o), from contract/sm_config.def
// (the table the RTL package baresm_smcfg_pkg is generated from): field
// positions for packing and decoding them on the C++ side.
#pragma once

#include <cstdint>

namespace baresm::sm_config {

enum Field {
#define BSM_SM_CONFIG(name, word, lsb, bits, param, desc) name,
#include "contract/sm_config.def"
#undef BSM_SM_CONFIG
  kNumFields
};

struct FieldInfo {
  const char* name;
  int word, lsb, bits;
  const char* param;  // the baresm_sm parameter it reports; "" when derived
  const char* desc;
};
inline constexpr FieldInfo kFields[] = {
#define BSM_SM_CONFIG(name, word, lsb, bits, param, desc) {#name, word, lsb, bits, param, desc},
#include "contract/sm_config.def"
#undef BSM_SM_CONFIG
};

constexpr int words() {
  int n = 0;
  for (const FieldInfo& f : kFields) n = f.word + 1 > n ? f.word + 1 : n;
  return n;
}
// config_o is kWords 32-bit words.
inline constexpr int kWords = words();

constexpr uint32_t mask(Field f) {
  return kFields[f].bits >= 32 ? 0xFFFFFFFFu : (1u << kFields[f].bits) - 1;
}
// Field f of the words.
constexpr uint32_t get(const uint32_t* w, Field f) {
  return (w[kFields[f].word] >> kFields[f].lsb) & mask(f);
}
// Writes v (truncated to the field's width, as the RTL does) into field f.
constexpr void put(uint32_t* w, Field f, uint32_t v) {
  uint32_t& x = w[kFields[f].word];
  x = (x & ~(mask(f) << kFields[f].lsb)) | ((v & mask(f)) << kFields[f].lsb);
}

}  // namespace baresm::sm_config
