// `baresm timeline FILE.json [--check] [-o FILE.png|FILE.svg]`: checks a warp
// timeline written by `run`/`launch --timeline` and draws it
// (docs/timeline.md); and the --timeline option those two commands share.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli_commands.h"
#include "sim/cli_util.h"
#include "sim/timeline/render.h"
#include "sim/timeline/trace_json.h"

namespace baresm::cli {

int check_timeline_backend(const std::string& cmd, const po::variables_map& vm, const std::string& backend) {
  if (!vm.count("timeline") || backend == "rtl") return kExitOk;
  return bad_value(
      cmd, "--timeline", vm["timeline"].as<std::string>(),
      "needs --backend rtl: the " + backend + " backend has no clock cycles to put on a timeline");
}

int open_timeline_output(const std::string& cmd, const po::variables_map& vm, drv::DeviceSettings* settings) {
  if (!vm.count("timeline")) return kExitOk;
  const std::string path = vm["timeline"].as<std::string>();
  // Opened before the run, so that a path that cannot be written costs no
  // simulation; the backend writes it when the program ends.
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return bad_value(cmd, "--timeline", path, "not a regular file");
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    std::cerr << "baresm " << cmd << ": --timeline " << path << ": " << std::strerror(errno) << "\n";
    return kExitFail;
  }
  close(fd);
  settings->timeline_file = path;
  return kExitOk;
}

int cmd_timeline(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm timeline FILE.json [--check] [-o FILE.png|FILE.svg [--cycles START:END]]\n"
      "Reads a warp timeline (run/launch --backend rtl --timeline FILE.json), checks it\n"
      "(trace-event format; every cycle of every warp slot in exactly one state during\n"
      "each SM launch; the SM's own state counters; one placement per CTA of the grid;\n"
      "memory in flight back to 0) and with -o draws it (PNG or SVG). Exit status 1 when a\n"
      "check fails (the picture is still written).\n\noptions");
  desc.add_options()("help,h", "show this help")("check", "print the checks' verdict")(
      "output,o", po::value<std::string>(), "write the picture to FILE.png or FILE.svg")(
      "cycles", po::value<std::string>(), "draw only cycles START:END (either side may be empty)");
  po::variables_map vm;
  int rc = 0;
  if (!parse("timeline", args, desc, "file", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (!vm.count("file")) return usage_error("timeline", "missing FILE.json");
  if (!vm.count("check") && !vm.count("output"))
    return usage_error("timeline", "give --check, -o FILE.png|FILE.svg or both");
  const std::string path = vm["file"].as<std::string>();
  std::string out;
  bool png = false;
  if (vm.count("output")) {
    out = vm["output"].as<std::string>();
    const std::string ext = out.size() > 4 ? out.substr(out.size() - 4) : "";
    if (ext != ".png" && ext != ".svg")
      return bad_value("timeline", "--output", out,
                       "the picture is a PNG or an SVG: name it FILE.png or FILE.svg");
    png = ext == ".png";
  }
  uint64_t from = ~0ull, to = ~0ull;
  if (vm.count("cycles")) {
    const std::string w = vm["cycles"].as<std::string>();
    const size_t colon = w.find(':');
    const std::string a = colon == std::string::npos ? "" : w.substr(0, colon);
    const std::string b = colon == std::string::npos ? "" : w.substr(colon + 1);
    if (colon == std::string::npos || (!a.empty() && !parse_number(a, 0, UINT64_MAX - 1, &from)) ||
        (!b.empty() && !parse_number(b, 0, UINT64_MAX - 1, &to)))
      return bad_value("timeline", "--cycles", w, "expected START:END, whole numbers of cycles");
    if (from != ~0ull && to != ~0ull && from >= to)
      return bad_value("timeline", "--cycles", w, "START is not before END");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::cerr << "baresm timeline: " << path << ": " << std::strerror(errno) << "\n";
    return kExitUsage;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  timeline::Json root;
  std::string error;
  if (!timeline::parse_json(ss.str(), &root, &error)) {
    std::cerr << "baresm timeline: " << path << ": not JSON: " << error << "\n";
    return kExitFail;
  }
  timeline::TimelineData data;
  const std::vector<std::string> problems = timeline::check_timeline(root, &data);
  for (const std::string& p : problems) std::cerr << "baresm timeline: " << path << ": " << p << "\n";
  if (vm.count("check") && problems.empty()) {
    uint64_t spans = 0;
    for (const auto& s : data.states) spans += s.size();
    std::printf("%s: valid timeline: %zu events, %u warp slots, %zu SM launches, %llu state intervals\n",
                path.c_str(), root.get("traceEvents")->arr.size(), data.slots, data.sm_launches.size(),
                (unsigned long long)spans);
  }
  if (!out.empty()) {
    const std::string name =
        path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const std::string pic = timeline::render_picture(data, "baresm warp timeline: " + name, png, from, to);
    const std::string err = write_whole_file(out, pic.data(), pic.size());
    if (!err.empty()) {
      std::cerr << "baresm timeline: cannot write '" << out << "': " << err << "\n";
      return kExitFail;
    }
  }
  return problems.empty() ? kExitOk : kExitFail;
}

}  // namespace baresm::cli
