// The picture of a timeline (`baresm timeline FILE.json -o FILE.svg`): one
// row per warp slot coloured by state, the barrier releases above them, a
// time axis in cycles, the memory requests in flight under it, a legend.
#pragma once

#include <string>

#include "sim/timeline/trace_json.h"

namespace baresm::timeline {

// An SVG document of `d` (from check_timeline), headed by `title`. Each
// pixel column shows the state that held most of its cycles, so the
// picture's size does not grow with the run's.
std::string render_svg(const TimelineData& d, const std::string& title, int width = 1200);

}  // namespace baresm::timeline
