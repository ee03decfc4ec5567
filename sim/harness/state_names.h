// The names of the device's state encodings, from their one table
// (contract/states.def), used by every tool that shows a state by name: the
// GTKWave translate filters (tools/gen_states), the coverage bins, the CLI's
// warp-state breakdown and the timeline (sim/timeline). Header-only so that
// tools which do not link the SM harness read the same table.
#pragma once

#include <cstdint>

namespace baresm::sim {

// Warp states, encoded as baresm_state_pkg::WS_* (table order from 0).
enum WarpState : uint8_t {
#define BSM_WARP_STATE(name, str, desc) WS_##name,
#define BSM_CP_STATE(name, desc)
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
  kNumWarpStatesEnum
};
constexpr int kNumWarpStates = kNumWarpStatesEnum;
inline constexpr const char* kWarpStateNames[kNumWarpStates] = {
#define BSM_WARP_STATE(name, str, desc) str,
#define BSM_CP_STATE(name, desc)
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
};

// Command-processor engine states, encoded as the CP's E_* (baresm_state_pkg::CP_*).
enum CpState : uint8_t {
#define BSM_WARP_STATE(name, str, desc)
#define BSM_CP_STATE(name, desc) CP_##name,
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
  kNumCpStatesEnum
};
constexpr int kNumCpStates = kNumCpStatesEnum;
inline constexpr const char* kCpStateNames[kNumCpStates] = {
#define BSM_WARP_STATE(name, str, desc)
#define BSM_CP_STATE(name, desc) #name,
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
};

}  // namespace baresm::sim
