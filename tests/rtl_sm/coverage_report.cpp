// coverage_report DIR OUT [VERILATOR_COVERAGE]: merges the functional-coverage counts every test
// process wrote to DIR (sim/harness/coverage.h) against the full list of
// bins, writes the report to OUT (per group: bins hit of bins; then every
// bin never hit) and prints one summary line. Exit status 1 when DIR holds
// no counts at all (the recording is broken), 0 otherwise: which bins a run
// reaches depends on which tests it ran. With the verilator_coverage tool,
// the line and toggle coverage in DIR/rtl.*.dat (the c1w8cov SM) is merged,
// annotated into DIR/annotated/ (points below 10 hits marked) and
// DIR/annotated-unhit/ (points never hit), and both totals added to the report.
#include <dirent.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "sim/harness/coverage.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: coverage_report DIR OUT [VERILATOR_COVERAGE]\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::map<std::string, uint64_t> counts;
  size_t files = 0;
  std::string dats;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind("rtl.", 0) == 0) dats += " '" + dir + "/" + name + "'";
      if (name.rfind("cov.", 0) != 0) continue;
      files++;
      std::ifstream f(dir + "/" + name);
      uint64_t n;
      std::string bin;
      while (f >> n >> bin) counts[bin] += n;
    }
    closedir(d);
  }
  if (counts.empty()) {
    std::fprintf(stderr, "coverage_report: no coverage counts in %s\n", dir.c_str());
    return 1;
  }
  const auto universe = baresm::sim::Coverage::universe();
  const std::set<std::string> known(universe.begin(), universe.end());
  std::map<std::string, std::pair<size_t, size_t>> groups;  // group -> (hit, total)
  std::vector<std::string> missed;
  size_t hit = 0;
  for (const auto& b : universe) {
    const std::string g = b.substr(0, b.find('/'));
    auto& gr = groups[g];
    gr.second++;
    if (counts.count(b)) {
      gr.first++;
      hit++;
    } else {
      missed.push_back(b);
    }
  }
  std::ostringstream out;
  char line[200];
  // Verilator's line + toggle coverage, when there is some: the share of
  // points hit at least once, then of those hit at least 10 times (Verilator's
  // default threshold, below which the annotated sources mark a point).
  std::string rtl_line = "RTL line+toggle coverage: not measured (no rtl.*.dat)";
  auto rtl_total = [&](const std::string& min_arg, const std::string& annotate_dir) {
    const std::string cmd =
        std::string("'") + argv[3] + "' " + min_arg + " --annotate '" + annotate_dir + "'" + dats + " 2>&1";
    std::string total;
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[512];
      while (std::fgets(buf, sizeof buf, p)) {
        const std::string l(buf);
        const auto at = l.find("Total coverage (");
        if (at != std::string::npos) total = l.substr(at + 15, l.find_last_not_of("\n") - at - 14);
      }
      pclose(p);
    }
    return total;
  };
  if (argc == 4 && *argv[3] && !dats.empty()) {
    const std::string once = rtl_total("--annotate-min 1", dir + "/annotated-unhit");
    const std::string ten = rtl_total("", dir + "/annotated");
    if (!once.empty() && !ten.empty())
      rtl_line = "RTL line+toggle coverage (Verilator, c1w8cov; toggles of signals up to 8 bits): " + once +
                 " hit at least once, " + ten + " at least 10 times";
  }
  std::snprintf(line, sizeof line, "functional coverage: %zu of %zu bins hit (%.1f%%), from %zu test processes\n", hit,
                universe.size(), 100.0 * double(hit) / double(universe.size()), files);
  out << line << rtl_line << " (annotated sources: " << dir << "/annotated, " << dir << "/annotated-unhit)\n\nby group (hit / bins):\n";
  for (const auto& [g, hn] : groups) {
    std::snprintf(line, sizeof line, "  %-12s %5zu / %zu\n", g.c_str(), hn.first, hn.second);
    out << line;
  }
  out << "\nbins never hit (" << missed.size() << "):\n";
  for (const auto& b : missed) out << "  " << b << "\n";
  out << "\nbins hit outside the list (guards of !PT and the like):\n";
  for (const auto& [b, n] : counts)
    if (!known.count(b)) out << "  " << b << " " << n << "\n";
  std::ofstream(argv[2]) << out.str();
  std::printf("%s%s\n(report: %s)\n", out.str().substr(0, out.str().find('\n') + 1).c_str(), rtl_line.c_str(), argv[2]);
  return 0;
}
