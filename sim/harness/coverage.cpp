#include "sim/harness/coverage.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "isa/iss.h"
#include "sim/harness/sm_dut.h"

namespace baresm::sim {

Coverage& Coverage::get() {
  static Coverage c;
  return c;
}

Coverage::~Coverage() {
  const char* dir = std::getenv("BARESM_COVERAGE_DIR");
  if (!dir || !*dir || counts_.empty()) return;
  write(std::string(dir) + "/cov." + std::to_string(getpid()) + ".txt");
}

void Coverage::hit(const std::string& bin, uint64_t n) { counts_[bin] += n; }

void Coverage::write(const std::string& path) const {
  std::ofstream f(path, std::ios::app);
  for (const auto& [bin, n] : counts_) f << n << ' ' << bin << '\n';
}

std::string Coverage::op_bin(const isa::Instr& in) {
  char b[16];
  std::snprintf(b, sizeof b, "%02x", in.mod);
  return std::string("op/") + isa::op_info(in.op).mnemonic + "/" + b;
}

std::string Coverage::guard_bin(const isa::Instr& in) {
  const char* g = in.pg == isa::kPredTrue ? (in.pg_neg ? "!PT" : "PT") : (in.pg_neg ? "!P" : "P");
  return std::string("guard/") + isa::op_info(in.op).mnemonic + "/" + g;
}

std::vector<std::string> Coverage::universe() {
  std::vector<std::string> u;
  for (const auto& o : isa::all_ops()) {
    for (int mod = 0; mod < 256; ++mod) {
      isa::Instr probe;
      probe.op = o.op;
      probe.mod = uint8_t(mod);
      if (!isa::decode(isa::encode(probe))) {
        probe.bimm = true;
        if (!isa::decode(isa::encode(probe))) continue;
      }
      u.push_back(op_bin(probe));
    }
    isa::Instr g;
    g.op = o.op;
    u.push_back(guard_bin(g));
    g.pg = 0;
    u.push_back(guard_bin(g));
    g.pg_neg = true;
    u.push_back(guard_bin(g));
  }
  for (int d = 1; d <= 16; d++) u.push_back("div_depth/" + std::to_string(d));
  for (int k = 1; k <= 32; k++) u.push_back("smem_passes/" + std::to_string(k));
  u.push_back("smem/broadcast");
  for (int n = 1; n <= 32; n++) u.push_back("gmem_lines/" + std::to_string(n));
  for (int i = 0; i < 16; i++) u.push_back("bar_id/" + std::to_string(i));
  u.push_back("bar/partial");
  u.push_back("bar/all");
  for (int k = 1; k <= int(iss::FaultKind::WATCHDOG); k++)
    u.push_back(std::string("fault/") + iss::fault_kind_name(iss::FaultKind(k)));
  for (int s = 0; s < kNumWarpStates; s++) u.push_back(std::string("warp_state/") + kWarpStateNames[s]);
  for (const char* s : kCpStateNames) u.push_back(std::string("cp_state/") + s);
  for (uint32_t q = 0; q < kCoveredCpQueues; q++) u.push_back("cp_queue/" + std::to_string(q));
  for (const char* e : {"sq_wrap", "cq_wrap", "cq_phase0", "sq_full", "cq_full"})
    u.push_back(std::string("cp_ring/") + e);
  return u;
}

}  // namespace baresm::sim
