#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/harness/state_names.h"
#include "sim/systemc/driver_backend.h"
#include "sim/systemc/rtl_backend.h"

namespace baresm::cosim {

namespace {

bool env_u64(const char* name, uint64_t* v) {
  const char* s = std::getenv(name);
  if (!s || !*s) return false;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(s, &end, 0);
  if (end == s) return false;
  *v = x;
  return true;
}

// Everything from the launch's completion entry (docs/ring-formats.md).
void print_launch(const drv::LaunchReport& r) {
  if (r.marker || !r.from_device) return;
  const uint64_t cycles = r.stats.cycles;
  uint64_t total = 0;
  for (uint32_t x : r.stats.warp_state_cycles) total += x;
  std::printf("    [rtl] %llu cycles, %u warp-instrs, IPC %.3f, stall cycles %u, shared passes %u",
              (unsigned long long)cycles, r.warp_instrs,
              cycles ? double(r.warp_instrs) / double(cycles) : 0.0, r.stall_cycles, r.shared_passes);
  if (r.error != cq::ErrorCode::OK) std::printf(", %s", cq::error_code_name(r.error));
  std::printf("\n    [rtl] warp-cycles:");
  for (int s = 1; s < 7; ++s) {
    std::printf(" %s %.1f%%", sim::kWarpStateNames[s],
                total ? 100.0 * double(r.stats.warp_state_cycles[s]) / double(total) : 0.0);
  }
  std::printf(" (idle slots %.1f%%)\n", total ? 100.0 * double(r.stats.warp_state_cycles[0]) / double(total) : 0.0);
}

}  // namespace

RtlDeviceOptions default_rtl_device_options() {
  RtlDeviceOptions o;
  o.mem.min_latency = 1;
  o.mem.max_latency = 20;
  o.mem.seed = 1;
  return o;
}

RtlBackendOptions rtl_backend_options_from_env() {
  RtlBackendOptions o;
  o.device = default_rtl_device_options();
  uint64_t v = 0;
  if (env_u64("BARESM_MEM_LATENCY", &v)) o.device.mem.min_latency = o.device.mem.max_latency = uint32_t(v);
  if (env_u64("BARESM_MEM_SEED", &v)) o.device.mem.seed = v;
  if (const char* t = std::getenv("BARESM_TRACE")) o.device.trace.path = t;
  if (const char* w = std::getenv("BARESM_TRACE_WINDOW")) {
    const std::string s = w;
    const size_t colon = s.find(':');
    const std::string a = s.substr(0, colon), b = colon == std::string::npos ? "" : s.substr(colon + 1);
    if (!a.empty()) o.device.trace.start_cycle = std::strtoull(a.c_str(), nullptr, 0);
    if (!b.empty()) o.device.trace.end_cycle = std::strtoull(b.c_str(), nullptr, 0);
  }
  if (const char* t = std::getenv("BARESM_TIMELINE")) o.device.timeline = t;
  if (env_u64("BARESM_RTL_QUIET", &v) && v) o.verbose = false;
  return o;
}

std::unique_ptr<samples::Backend> make_rtl_backend(const RtlBackendOptions& o) {
  std::unique_ptr<ScTransport> t = open_rtl_device(o.device);
  DriverBackendOptions bo;
  bo.name = "rtl";
  bo.default_watchdog = o.default_watchdog;
  bo.device.sync_timeout_ns = 10'000'000'000ull;  // 1e9 cycles; the watchdog ends a hung kernel first
  const bool verbose = o.verbose;
  bo.on_launch = [verbose](const drv::LaunchReport& r, samples::LaunchReport* rep) {
    // The counters the generic driver backend does not copy, from the
    // launch's completion entry.
    rep->stats.thread_instrs = r.stats.thread_instrs;
    rep->stats.divergent_branches = r.stats.div_branches;
    rep->stats.barriers = r.stats.bar_releases;
    if (verbose) print_launch(r);
  };
  auto be = std::make_unique<DriverBackend>(std::move(t), bo);
  if (!be->ok()) {
    std::fprintf(stderr, "rtl backend: %s\n", be->last_error().c_str());
    return nullptr;
  }
  return be;
}

void register_rtl_backend() {
  samples::register_backend(
      {"rtl", "verilated baresm_top (command processor + SM) under SystemC, through the host driver",
       [] { return make_rtl_backend(rtl_backend_options_from_env()); },
       // For `baresm launch` / `info`: the bare device at power-on (with the
       // variables' settings), which the caller opens with drv::Device itself.
       [] { return std::unique_ptr<drv::Transport>(open_rtl_device(rtl_backend_options_from_env().device)); }});
}

}  // namespace baresm::cosim
