// `baresm dis`: a .bsm module disassembled (loader errors with their status
// name), and `--gtkwave-filter`, the instruction-word translate filter.
#include <signal.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/disasm.h"
#include "isa/file_io.h"
#include "isa/module.h"
#include "isa/ptx.h"
#include "sim/cli_commands.h"
#include "sim/cli_util.h"

namespace baresm::cli {

namespace {

// One value as GTKWave's "Translate Filter Process" sends it (the trace's
// value as the viewer prints it: hex digits, no prefix) -> one line of text.
// A value that is not a whole word (X/Z bits, another radix) comes back as
// it went in, so the viewer shows it unchanged rather than a wrong decode.
std::string gtkwave_filter_line(std::string v) {
  const auto b = v.find_first_not_of(" \t\r"), e = v.find_last_not_of(" \t\r");
  v = b == std::string::npos ? std::string() : v.substr(b, e - b + 1);
  std::string digits = v;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
    digits = digits.substr(2);
  // GTKWave pads to the signal's width: only the significant digits must fit 64 bits.
  const auto first = digits.find_first_not_of('0');
  if (first != std::string::npos && first > 0) digits = digits.substr(first);
  if (digits.empty() || digits.size() > 16 ||
      digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return v;
  const uint64_t word = std::stoull(digits, nullptr, 16);
  char raw[24];
  std::snprintf(raw, sizeof raw, "0x%016llx", (unsigned long long)word);
  const std::optional<isa::Instr> in = isa::decode(word);
  // pc 0: a trace value carries no pc, so a branch target reads as an offset
  // from the branch itself (L_0040: 0x40 bytes on).
  return in ? isa::disassemble_instr(*in, 0) : std::string("?? ") + raw;
}

// GTKWave writes a line and blocks until it reads one back: answer every
// line at once, flushed, until it closes the pipe.
int dis_gtkwave_filter() {
  for (std::string line; std::getline(std::cin, line);) {
    std::cout << gtkwave_filter_line(line) << '\n' << std::flush;
    if (!std::cout) return kExitFail;
  }
  return kExitOk;
}

}  // namespace

int cmd_dis(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm dis IN.bsm [--plain] [--source FILE]\n"
      "       baresm dis --gtkwave-filter\n"
      "Disassembles a .bsm module to standard output. The text re-assembles to a\n"
      "byte-identical module (it carries .loc directives for the line table).\n"
      "--gtkwave-filter: a GTKWave Translate Filter Process (sim/gtkw/baresm.gtkw):\n"
      "reads 64-bit instruction words in hex, one a line, and writes each one\n"
      "disassembled (\"?? 0x...\" when it does not decode), until end of input.\n\noptions");
  desc.add_options()("help,h", "show this help")("plain", "a listing for people: no .loc directives")(
      "source", po::value<std::string>(),
      "with --plain: the source the module was built from (its .s, or the .ptx of a module from the "
      "PTX front end); each instruction shows its source line")(
      "gtkwave-filter", "disassemble hex words from standard input, one a line (for GTKWave)");
  po::variables_map vm;
  int rc = 0;
  if (!parse("dis", args, desc, "input", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (vm.count("gtkwave-filter")) {
    if (vm.count("input") || vm.count("plain") || vm.count("source"))
      return usage_error("dis", "--gtkwave-filter reads standard input and takes no other argument");
    return dis_gtkwave_filter();
  }
  if (!vm.count("input")) return usage_error("dis", "missing input file");
  const std::string in = vm["input"].as<std::string>();
  const isa::LoadResult r = isa::read_module_file(in);
  if (r.status != isa::LoadStatus::OK) {
    std::cerr << "baresm dis: " << in << ": " << isa::load_status_name(r.status) << ": " << r.message << "\n";
    return kExitFail;
  }
  isa::DisasmOptions o;
  o.line_info = !vm.count("plain");
  std::vector<std::string> lines, origins;
  if (vm.count("source")) {
    if (o.line_info) return usage_error("dis", "--source needs --plain (a listing that does not re-assemble)");
    const std::string path = vm["source"].as<std::string>();
    std::string text, error;
    if (!isa::read_file(path, isa::kMaxSourceBytes, &text, &error)) {
      std::cerr << "baresm dis: " << path << ": " << error << "\n";
      return kExitFail;
    }
    std::istringstream ss(text);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
    o.source_lines = &lines;
    // PTX from nvcc -lineinfo: each PTX line's CUDA line too ("file.cu:7: ..."),
    // the .cu found as .file names it, else beside the .ptx.
    if (isa::is_ptx_path(path)) {
      const std::vector<isa::PtxSourceLoc> locs = isa::ptx_source_locations(text);
      std::map<std::string, std::vector<std::string>> cu;
      origins.resize(locs.size());
      for (size_t i = 1; i < locs.size(); ++i) {
        const isa::PtxSourceLoc& loc = locs[i];
        if (loc.file.empty() || loc.line <= 0) continue;
        auto it = cu.find(loc.file);
        if (it == cu.end()) {
          std::string t, e;
          const size_t slash = path.rfind('/');
          const std::string beside =
              (slash == std::string::npos ? "" : path.substr(0, slash + 1)) + loc.file.substr(loc.file.rfind('/') + 1);
          std::vector<std::string> ls;
          if (isa::read_file(loc.file, isa::kMaxSourceBytes, &t, &e) ||
              isa::read_file(beside, isa::kMaxSourceBytes, &t, &e)) {
            std::istringstream cs(t);
            for (std::string l; std::getline(cs, l);) ls.push_back(l);
          }
          it = cu.emplace(loc.file, std::move(ls)).first;
        }
        std::string shown = loc.file.substr(loc.file.rfind('/') + 1) + ":" + std::to_string(loc.line);
        if (size_t(loc.line) <= it->second.size()) {
          std::string t;  // runs of blanks as one space
          for (char c : it->second[size_t(loc.line) - 1])
            if (c != ' ' && c != '\t' && c != '\r')
              t += c;
            else if (!t.empty() && t.back() != ' ')
              t += ' ';
          while (!t.empty() && t.back() == ' ') t.pop_back();
          shown += ": " + t;
        }
        origins[i] = shown;
      }
      o.origin_lines = &origins;
    }
  }
  std::cout << isa::disassemble(r.module, o);
  return kExitOk;
}

}  // namespace baresm::cli
