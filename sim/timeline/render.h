// The picture of a timeline (`baresm timeline FILE.json -o FILE.png|FILE.svg`): one
// row per warp slot coloured by state, the barrier releases above them, a
// time axis in cycles, the memory requests in flight under it, a legend;
// as SVG or as PNG (sim/timeline/png.h).
#pragma once

#include <cstdint>
#include <string>

#include "sim/timeline/trace_json.h"

namespace baresm::timeline {

// The picture of `d` (from check_timeline), headed by `title`: a PNG file's
// bytes when png, else an SVG document. Each pixel column shows the state
// that held most of its cycles, so the picture's size does not grow with
// the run's. Cycles [from, to); ~0 on either side: where the SM launches
// begin / end.
std::string render_picture(const TimelineData& d, const std::string& title, bool png, uint64_t from = ~0ull,
                           uint64_t to = ~0ull, int width = 1200);

}  // namespace baresm::timeline
