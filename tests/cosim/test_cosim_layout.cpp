// The committed GTKWave layout (sim/gtkw/baresm.gtkw) names only signals
// that exist: a fresh FST trace of the device (vec_add through the driver)
// is converted with fst2vcd, and every signal line of the layout must be a
// variable of that trace, with the same bit range.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cosim/cosim_util.h"
#include "tests/driver/driver_harness.h"

namespace baresm {
namespace {

// "$var wire 4 ! state_q [3:0] $end" inside nested $scope ... $upscope.
std::set<std::string> vcd_signals(const std::string& vcd_text) {
  std::set<std::string> out;
  std::istringstream in(vcd_text);
  std::vector<std::string> scope;
  std::string tok;
  while (in >> tok) {
    if (tok == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      if (!scope.empty()) scope.pop_back();
    } else if (tok == "$var") {
      std::string type, width, id, name, next;
      in >> type >> width >> id >> name >> next;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      full += name;
      if (next != "$end") {
        full += next;  // the range, e.g. [3:0]
        std::string rest;
        while (in >> rest && rest != "$end") {
        }
      }
      out.insert(full);
    } else if (tok == "$enddefinitions") {
      break;
    }
  }
  return out;
}

std::string run_and_read(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) {
    out.append(buf, n);
    if (out.find("$enddefinitions") != std::string::npos) break;
  }
  pclose(p);
  return out;
}

TEST(GtkwLayout, EverySignalItNamesExistsInAFreshTrace) {
  const std::string fst = ::testing::TempDir() + "baresm_layout_" + std::to_string(getpid()) + ".fst";
  cosim::RtlDeviceOptions o;
  o.mem = cosimtest::test_memory(1);
  o.trace.path = fst;
  o.trace.start_cycle = 0;
  o.trace.end_cycle = 20000;
  {
    drvtest::Harness h;
    ASSERT_EQ(h.open(cosim::open_rtl_device(o), drv::DeviceOptions{}), drv::Status::OK)
        << h.last_error_text();
    drv::Context c;
    ASSERT_EQ(h.dev.ctx_create(&c), drv::Status::OK);
    drvtest::VecAdd va;
    ASSERT_EQ(va.setup(h.dev, c, 300, 1), drv::Status::OK);
    ASSERT_EQ(va.launch(h.dev, drv::Stream{}, nullptr, 64), drv::Status::OK);
    ASSERT_EQ(h.dev.ctx_synchronize(c), drv::Status::OK) << h.last_error_text();
    EXPECT_TRUE(va.check(h.dev, c));
    ASSERT_TRUE(cosim::Testbench::get().tracing());
  }
  cosim::Testbench::get().close_trace();
  const std::string vcd = run_and_read(std::string(FST2VCD) + " " + fst + " 2>/dev/null");
  std::remove(fst.c_str());
  const std::set<std::string> sigs = vcd_signals(vcd);
  ASSERT_GT(sigs.size(), 100u) << "the trace has almost no signals";
  // BARESM_LAYOUT_SIGNALS=FILE writes every signal of the trace (editing the layout).
  if (const char* list = std::getenv("BARESM_LAYOUT_SIGNALS")) {
    std::ofstream out(list);
    for (const auto& sname : sigs) out << sname << "\n";
  }

  std::ifstream g(GTKW_LAYOUT);
  ASSERT_TRUE(g.good()) << GTKW_LAYOUT;
  std::string line;
  int named = 0, groups = 0;
  while (std::getline(g, line)) {
    if (line.empty() || line[0] == '@' || line[0] == '[' || line[0] == '*') continue;
    if (line[0] == '-') {
      ++groups;
      continue;
    }
    ++named;
    EXPECT_TRUE(sigs.count(line)) << "the layout names '" << line << "', which the trace does not have";
  }
  EXPECT_GE(named, 40) << "a layout of almost nothing";
  EXPECT_GE(groups, 6);
}

}  // namespace
}  // namespace baresm
