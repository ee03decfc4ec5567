// The names of the device's state encodings, one table each, used by every
// tool that shows a state by name: the GTKWave translate filters
// (tools/gen_gtkw_filters), the coverage bins, the CLI's warp-state
// breakdown and the timeline (sim/timeline). Header-only so that tools which
// do not link the SM harness read the same table.
#pragma once

namespace baresm::sim {

constexpr int kNumWarpStates = 7;  // baresm_sm_pkg::WS_* in encoding order
inline constexpr const char* kWarpStateNames[kNumWarpStates] = {"idle",    "ready",    "issued", "wait_mem",
                                                                "wait_sb", "wait_bar", "exited"};

constexpr int kNumCpStates = 12;  // rtl/cp/baresm_cp.sv E_* in encoding order
inline constexpr const char* kCpStateNames[kNumCpStates] = {
    "IDLE", "FETCH", "CHECK", "WIN", "LAUNCH", "RUN", "BUILD", "WBODY", "WPHASE", "ABORT", "RESET", "HALT"};

}  // namespace baresm::sim
