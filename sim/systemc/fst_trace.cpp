#include "sim/systemc/fst_trace.h"

#include <utility>

namespace baresm::cosim {

FstTrace::FstTrace(std::function<uint64_t()> cycle, uint64_t start, uint64_t end)
    : cycle_(std::move(cycle)), start_(start), end_(end) {
  sc_core::sc_get_curr_simcontext()->add_trace_file(this);
  // Times in the file are the kernel's (picoseconds by default).
  spTrace()->set_time_unit(sc_core::sc_get_time_resolution().to_string());
  spTrace()->set_time_resolution(sc_core::sc_get_time_resolution().to_string());
}

void FstTrace::cycle(bool delta_cycle) {
  if (delta_cycle || !isOpen()) return;
  const uint64_t c = cycle_();
  if (c < start_ || c > end_) return;
  dump(uint64_t(sc_core::sc_time_stamp().value()));
  ++dumps_;
}

}  // namespace baresm::cosim
