// The committed GTKWave layout (sim/gtkw/baresm.gtkw) names only signals
// that exist: a fresh FST trace of the device (vec_add through the driver)
// is converted with fst2vcd, and every signal line of the layout must be a
// variable of that trace, with the same bit range. Every translate filter it
// names exists and translates: the filter files (sim/gtkw/filters/, made by
// tools/gen_gtkw_filters) map sample values to the names of the project's
// tables, and the instruction-word filter process disassembles words.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "isa/disasm.h"
#include "isa/isa.h"
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

// A fresh FST trace of the device running vec_add through the driver, made
// once per process (SystemC elaborates once) and removed at exit.
const std::string& fresh_trace() {
  struct Trace {
    std::string path = ::testing::TempDir() + "baresm_layout_" + std::to_string(getpid()) + ".fst";
    ~Trace() { std::remove(path.c_str()); }
  };
  static Trace t;
  static bool made = false;
  if (made) return t.path;
  made = true;
  cosim::RtlDeviceOptions o;
  o.mem = cosimtest::test_memory(1);
  o.trace.path = t.path;
  o.trace.start_cycle = 0;
  o.trace.end_cycle = 20000;
  {
    drvtest::Harness h;
    EXPECT_EQ(h.open(cosim::open_rtl_device(o), drv::DeviceOptions{}), drv::Status::OK) << h.last_error_text();
    drv::Context c;
    EXPECT_EQ(h.dev.ctx_create(&c), drv::Status::OK);
    drvtest::VecAdd va;
    EXPECT_EQ(va.setup(h.dev, c, 300, 1), drv::Status::OK);
    EXPECT_EQ(va.launch(h.dev, drv::Stream{}, nullptr, 64), drv::Status::OK);
    EXPECT_EQ(h.dev.ctx_synchronize(c), drv::Status::OK) << h.last_error_text();
    EXPECT_TRUE(va.check(h.dev, c));
    EXPECT_TRUE(cosim::Testbench::get().tracing());
  }
  cosim::Testbench::get().close_trace();
  return t.path;
}

TEST(GtkwLayout, EverySignalItNamesExistsInAFreshTrace) {
  const std::string fst = fresh_trace();
  ASSERT_FALSE(::testing::Test::HasFailure()) << "making the trace failed";
  const std::string vcd = run_and_read(std::string(FST2VCD) + " " + fst + " 2>/dev/null");
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
    if (line.empty() || line[0] == '@' || line[0] == '[' || line[0] == '*' || line[0] == '^') continue;
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

// ---- translate filters ----------------------------------------------------------------
struct FilterUse {
  std::string path;                  // as the layout names it (repository-relative)
  bool process = false;              // ^>N: a filter process; ^N: a filter file
  std::vector<std::string> signals;  // the signals it is applied to
};

// "^N path" / "^>N path" sets the filter for the signals after it whose
// flags (@...) carry TR_FTRANSLATED (0x2000) / TR_PTRANSLATED (0x4000).
std::map<std::string, FilterUse> layout_filters() {
  std::map<std::string, FilterUse> out;
  std::ifstream g(GTKW_LAYOUT);
  std::string line, file_filter, proc_filter;
  unsigned long flags = 0;
  while (std::getline(g, line)) {
    if (line.empty() || line[0] == '[' || line[0] == '*' || line[0] == '-') continue;
    if (line[0] == '@') {
      flags = std::stoul(line.substr(1), nullptr, 16);
    } else if (line[0] == '^') {
      const bool proc = line.size() > 1 && line[1] == '>';
      const std::string path = line.substr(line.find(' ') + 1);
      (proc ? proc_filter : file_filter) = path;
      out[path].path = path;
      out[path].process = proc;
    } else if (flags & 0x2000) {
      out[file_filter].signals.push_back(line);
    } else if (flags & 0x4000) {
      out[proc_filter].signals.push_back(line);
    }
  }
  return out;
}

unsigned signal_width(const std::string& sig) {  // "a.b[63:0]" -> 64
  const auto lb = sig.rfind('['), colon = sig.rfind(':');
  if (lb == std::string::npos || colon == std::string::npos || colon < lb) return 1;
  return unsigned(std::stoul(sig.substr(lb + 1)) - std::stoul(sig.substr(colon + 1)) + 1);
}

// value (upper case) -> name; GTKWave compares without case.
std::map<std::string, std::string> read_filter_file(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream l(line);
    std::string value, name;
    if (!(l >> value) || value[0] == '#') continue;
    std::getline(l >> std::ws, name);
    for (char& c : value) c = char(std::toupper(static_cast<unsigned char>(c)));
    out[value] = name;
  }
  return out;
}

std::string run_output(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  return pclose(p) == 0 ? out : out + "<exit status not 0>";
}

TEST(GtkwLayout, EveryFilterItNamesExistsAndTranslates) {
  const std::map<std::string, FilterUse> uses = layout_filters();
  // A sample value per filter file, in hex as GTKWave shows it, and its name.
  const std::map<std::string, std::pair<std::string, std::string>> samples = {
      {"sim/gtkw/filters/cp_state.txt", {"B", "HALT"}},        // E_HALT = 11
      {"sim/gtkw/filters/warp_state.txt", {"6", "exited"}},    // WS_EXITED
      {"sim/gtkw/filters/fault_kind.txt", {"8", "WATCHDOG"}},  // iss::FaultKind::WATCHDOG
      {"sim/gtkw/filters/error_code.txt", {"0E", "RING_ERROR"}},
      {"sim/gtkw/filters/opcode.txt", {"41", "EXIT"}},
  };
  for (const auto& [path, s] : samples) EXPECT_TRUE(uses.count(path)) << "the layout does not use " << path;
  bool any_process = false;
  for (const auto& [path, use] : uses) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(use.signals.empty()) << "a filter applied to no signal";
    const std::string full = std::string(BARESM_SOURCE_DIR) + "/" + path;
    if (use.process) {
      any_process = true;
      for (const auto& sig : use.signals)
        EXPECT_EQ(signal_width(sig), 64u) << sig << ": not an instruction word";
      // A word that decodes and one whose opcode is not in the table.
      isa::Instr in;
      in.op = isa::Op::IADD;
      in.rd = 1;
      in.ra = 2;
      in.bimm = true;
      in.imm = 0x10;
      const uint64_t good = isa::encode(in);
      uint8_t bad_op = 0;
      while (isa::op_info(bad_op)) ++bad_op;
      char words[64];
      std::snprintf(words, sizeof words, "%016llX\\n%016llx\\n", (unsigned long long)good,
                    (unsigned long long)bad_op);
      const std::string out =
          run_output("printf '" + std::string(words) + "' | BARESM=" BARESM_CLI " " + full + " 2>&1");
      char bad_text[32];
      std::snprintf(bad_text, sizeof bad_text, "?? 0x%016llx", (unsigned long long)bad_op);
      EXPECT_EQ(out, isa::disassemble_instr(in, 0) + "\n" + bad_text + "\n");
      EXPECT_EQ(out.rfind("IADD", 0), 0u) << out;
      continue;
    }
    const std::map<std::string, std::string> table = read_filter_file(full);
    ASSERT_FALSE(table.empty()) << "missing or empty";
    // GTKWave matches the text it would print: hex padded to the signal's width.
    for (const auto& sig : use.signals)
      for (const auto& [value, name] : table)
        EXPECT_EQ(value.size(), (signal_width(sig) + 3) / 4) << sig << " shows '" << value << "' otherwise";
    const auto it = samples.find(path);
    ASSERT_NE(it, samples.end()) << "a filter without a sample value here";
    EXPECT_EQ(table.count(it->second.first) ? table.at(it->second.first) : "<none>", it->second.second);
  }
  EXPECT_TRUE(any_process) << "no instruction-word filter";
}


// ---- what the real viewer shows ------------------------------------------------------
// GTKWave itself, under Xvfb, opens a fresh trace with the layout through
// scripts/view-wave.sh and runs sim/gtkw/probe-filters.tcl, which reads back
// the value the viewer displays for every translated trace at 200 marker
// times next to the same signal added untranslated. Each displayed value
// must be what the trace's filter makes of the raw one: a filter the viewer
// does not apply (a wrong file, a signal it will not translate) fails here.
bool have(const char* tool) {
  return std::system(("command -v " + std::string(tool) + " >/dev/null 2>&1").c_str()) == 0;
}

// Raw value as GTKWave's default format shows it -> upper-case hex padded to
// the width ("" when it is not a plain number).
std::string raw_hex(const std::string& raw, unsigned width) {
  const size_t digits = (width + 3) / 4;
  std::string out;
  if (raw.size() == width && width > digits && raw.find_first_not_of("01") == std::string::npos) {
    const unsigned long long v = std::stoull(raw, nullptr, 2);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*llX", int(digits), v);
    return buf;
  }
  if (raw.size() != digits || raw.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return "";
  for (char c : raw) out += char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

TEST(GtkwLayout, TheViewerShowsEveryFilteredSignalByName) {
  if (!have("gtkwave") || !have("xvfb-run"))
    GTEST_SKIP() << "GTKWave or Xvfb (xvfb-run) is not installed: the layout is not checked in the real viewer "
                    "(scripts/install-deps.sh installs both)";
  const std::string fst = fresh_trace();
  ASSERT_FALSE(::testing::Test::HasFailure()) << "making the trace failed";
  const std::string out = ::testing::TempDir() + "baresm_probe_" + std::to_string(getpid()) + ".txt";
  const std::string src = BARESM_SOURCE_DIR;
  const std::string cmd = "BARESM_PROBE_OUT=" + out + " BARESM_PROBE_SAMPLES=200 BARESM=" BARESM_CLI
                          " BARESM_GTKW=" GTKW_LAYOUT " timeout 300 xvfb-run -a " + src +
                          "/scripts/view-wave.sh " + fst + " --script=" + src +
                          "/sim/gtkw/probe-filters.tcl >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(out);
  ASSERT_TRUE(in.good()) << "GTKWave wrote no probe output (exit status " << rc << "): " << cmd;

  // The layout's translated signals, by the short name GTKWave gives them.
  std::map<std::string, const FilterUse*> filter_of;
  const std::map<std::string, FilterUse> uses = layout_filters();
  size_t layout_translated = 0;
  for (const auto& [path, use] : uses)
    for (const auto& sig : use.signals) {
      filter_of[sig.substr(sig.rfind('.', sig.find('[')) + 1)] = &use;
      ++layout_translated;
    }
  std::map<std::string, std::map<std::string, std::string>> tables;
  for (const auto& [path, use] : uses)
    if (!use.process) tables[path] = read_filter_file(src + "/" + path);

  struct Sample {
    std::string name, shown, raw;
  };
  std::vector<Sample> samples;
  size_t probed = 0;
  bool ended = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string tag;
    l >> tag;
    if (tag == "probe-traces") {
      size_t total = 0;
      l >> total >> probed;
    } else if (tag == "probe-end") {
      ended = true;
    } else if (tag == "probe") {
      std::string t, flags, name;
      l >> t >> flags >> name;
      const auto a = line.find('|'), b = line.find('|', a + 1), c = line.find('|', b + 1);
      ASSERT_NE(c, std::string::npos) << line;
      samples.push_back({name, line.substr(a + 1, b - a - 1), line.substr(b + 1, c - b - 1)});
    }
  }
  std::remove(out.c_str());
  ASSERT_TRUE(ended) << "the probe script did not finish";
  EXPECT_EQ(probed, layout_translated) << "GTKWave translates a different number of traces than the layout names";
  ASSERT_FALSE(samples.empty());

  // The instruction-word filter's answer for every raw word seen.
  std::map<std::string, std::string> dis;
  const FilterUse* proc = nullptr;
  for (const auto& [path, use] : uses)
    if (use.process) proc = &use;
  if (proc) {
    std::string words;
    std::vector<std::string> order;
    for (const auto& smp : samples)
      if (filter_of.count(smp.name) && filter_of[smp.name]->process && !raw_hex(smp.raw, 64).empty() &&
          !dis.count(smp.raw)) {
        dis[smp.raw] = "";
        order.push_back(smp.raw);
        words += raw_hex(smp.raw, 64) + "\\n";
      }
    const std::string text = run_output("printf '" + words + "' | BARESM=" BARESM_CLI " " + src + "/" + proc->path);
    std::istringstream lines(text);
    for (const auto& word : order) std::getline(lines, dis[word]);
  }

  std::map<std::string, int> named;  // samples per trace shown by a name of its filter
  for (const auto& smp : samples) {
    SCOPED_TRACE(smp.name);
    ASSERT_TRUE(filter_of.count(smp.name)) << "GTKWave translates a trace the layout does not filter";
    const FilterUse& use = *filter_of[smp.name];
    unsigned width = 0;
    for (const auto& sig : use.signals)
      if (sig.size() >= smp.name.size() && sig.compare(sig.size() - smp.name.size(), smp.name.size(), smp.name) == 0)
        width = signal_width(sig);
    const std::string hex = raw_hex(smp.raw, width);
    if (hex.empty()) {
      // Untranslated, GTKWave shows something else than a number (its own
      // enum names from the trace): the translated trace must not show one.
      EXPECT_TRUE(raw_hex(smp.shown, width).empty())
          << "GTKWave shows the number '" << smp.shown << "' (untranslated: '" << smp.raw << "'): it does not apply "
          << use.path;
      continue;
    }
    std::string want;
    if (use.process) {
      want = dis[smp.raw];
    } else {
      const auto& table = tables[use.path];
      want = table.count(hex) ? table.at(hex) : "";
    }
    if (want.empty()) continue;  // a value the filter does not name: GTKWave shows the number
    EXPECT_EQ(smp.shown, want) << "raw " << smp.raw << ": GTKWave does not apply " << use.path;
    ++named[smp.name];
  }
  for (const auto& [name, use] : filter_of)
    EXPECT_GT(named[name], 0) << name << ": never seen with a value its filter (" << use->path << ") names";
}

}  // namespace
}  // namespace baresm
