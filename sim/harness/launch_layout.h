// The launch descriptor's bit layout, from contract/launch.def (the table the RTL
// package baresm_launch_pkg is generated from): field offsets for packing
// and unpacking launch_i on the C++ side.
#pragma once

namespace baresm::launch_layout {

enum Field {
#define BSM_LAUNCH_FIELD(name, bits, count, desc) name,
#include "contract/launch.def"
#undef BSM_LAUNCH_FIELD
  kNumFields
};

struct FieldInfo {
  const char* name;
  int bits;
  int count;
  const char* desc;
};
inline constexpr FieldInfo kFields[] = {
#define BSM_LAUNCH_FIELD(name, bits, count, desc) {#name, bits, count, desc},
#include "contract/launch.def"
#undef BSM_LAUNCH_FIELD
};

// The lowest bit of field f (copy k at lsb(f) + k * kFields[f].bits).
constexpr int lsb(Field f) {
  int o = 0;
  for (int i = 0; i < int(f); ++i) o += kFields[i].bits * kFields[i].count;
  return o;
}
inline constexpr int kLaunchBits = lsb(kNumFields);
inline constexpr int kMaxWindows = kFields[WIN_BASE].count;
static_assert(kFields[WIN_SIZE].count == kMaxWindows, "contract/launch.def: WIN_BASE and WIN_SIZE counts differ");

}  // namespace baresm::launch_layout
