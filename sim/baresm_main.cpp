// `baresm`: the project's command line.
//
//   baresm asm IN.s [-o OUT.bsm]    assemble (every diagnostic printed, exit 1 on errors)
//   baresm ptx IN.ptx [-o OUT.bsm] [--emit-asm]   PTX front end (asm picks it for .ptx too)
//   baresm dis IN.bsm               disassemble (loader errors with their status name)
//   baresm run SAMPLE | --list | --all [-v] [--backend NAME] [--seed S] [--kernels DIR]
//              [--trace FILE.fst] [--trace-window START:END] [--mem-latency N] [--mem-seed S]
//              [--port PATH] [--baud N]           (--backend serial: an FPGA board)
//   baresm gen --seed S [--profile P] [-o OUT.s] [--run] | --list-profiles
//   baresm launch MODULE.bsm|KERNEL.s|KERNEL.ptx --grid X[,Y[,Z]] --block X[,Y[,Z]] [--kernel NAME]
//              [--shared BYTES] [--arg KIND:VALUE]... [--out PARAM=FILE]... [--backend NAME]
//              [--watchdog N] [--port PATH] [--baud N]  (sim/cmd_launch.cpp)
//   baresm info [--backend NAME] [--port PATH] [--baud N]  (sim/cmd_info.cpp)
//
// Exit status: 0 success; 1 the work failed (assembly errors, an unreadable
// module, a sample that did not match, a fault); 2 a bad command line.
// Devices come from the samples library's registry (samples/backend.h), each
// a host-driver transport opened from typed settings; other components add
// theirs through sim/CMakeLists.txt. `run` drives it through the driver for
// the samples (samples/driver_backend.h), `launch` and `info` themselves
// (sim/cli_device.h).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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
#include "isa/progen.h"
#include "isa/ptx.h"
#include "samples/backend.h"
#include "samples/driver_backend.h"
#include "samples/samples.h"
#include "sim/cli_commands.h"
#include "sim/cli_device.h"
#include "sim/cli_util.h"
#include "sim/harness/state_names.h"

namespace po = boost::program_options;
using namespace baresm;
using namespace baresm::cli;

// Generated from the BARESM_CLI_BACKEND_INITS property (sim/CMakeLists.txt).
void baresm_register_cli_backends();

namespace {

const char* const kToolHelp =
    "baresm: the baresm toolchain and sample runner\n"
    "\n"
    "usage: baresm <command> [options]\n"
    "\n"
    "commands:\n"
    "  asm IN.s [-o OUT.bsm]   assemble kernel source into a .bsm module\n"
    "  ptx IN.ptx [-o OUT.bsm] translate nvcc's PTX into a .bsm module (also: asm IN.ptx)\n"
    "  dis IN.bsm              disassemble a module (text that re-assembles byte-identically)\n"
    "  run SAMPLE              run one sample and check it against its C++ reference\n"
    "  run --list              list the samples\n"
    "  run --all               run every sample, then every fault sample; summary table\n"
    "  gen --seed S            write a constrained-random kernel (docs/progen.md)\n"
    "  launch KERNEL.s ...     launch one kernel through the host driver: buffers, arguments, outputs\n"
    "  info                    the device's properties, as the driver reads them\n"
    "  timeline FILE.json      check a warp timeline (run/launch --timeline) and draw it (-o FILE.png|.svg)\n"
    "\n"
    "`baresm <command> --help` describes a command's options.\n"
    "exit status: 0 success, 1 failure (errors, mismatch, fault), 2 bad command line\n";

// ---- asm ----------------------------------------------------------------------------
// `asm` and `ptx` share everything but the front end: `asm` picks PTX by the
// input's .ptx extension, `ptx` always reads PTX and can show the assembly it
// generates.
int cmd_asm(const std::string& cmd, const std::vector<std::string>& args) {
  const bool ptx_cmd = cmd == "ptx";
  po::options_description desc(
      ptx_cmd ? "usage: baresm ptx IN.ptx [-o OUT.bsm] [--name NAME] [--emit-asm]\n"
                "Translates PTX as nvcc writes it (docs/ptx.md) into a .bsm module and prints a\n"
                "ptxas -v style line per kernel (registers, local, shared and parameter bytes).\n"
                "Every error, an unsupported instruction or directive included, is printed as\n"
                "file:line:col of the PTX; nothing is written when there is one.\n\noptions"
              : "usage: baresm asm IN.s [-o OUT.bsm] [--name NAME]\n"
                "Assembles kernel source (docs/isa.md) into a .bsm module; a file ending in\n"
                ".ptx goes through the PTX front end instead (as `baresm ptx`). Every error is\n"
                "printed as file:line:col with the source line and a caret; nothing is\n"
                "written when there is one.\n\noptions");
  desc.add_options()("help,h", "show this help")(
      "output,o", po::value<std::string>(), "output file (default: IN with .bsm instead of its extension)")(
      "name", po::value<std::string>(),
      "file name recorded in the module and shown in diagnostics (default: IN as given); "
      "re-assembling a disassembly with the original name gives identical bytes");
  if (ptx_cmd)
    desc.add_options()("emit-asm",
                       "write the generated baresm assembly to standard output instead of a module");
  po::variables_map vm;
  int rc = 0;
  if (!parse(cmd, args, desc, "input", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (!vm.count("input")) return usage_error(cmd, "missing input file");
  const std::string in = vm["input"].as<std::string>();
  const bool is_ptx = ptx_cmd || isa::is_ptx_path(in);
  const bool emit_asm = ptx_cmd && vm.count("emit-asm");
  if (emit_asm && vm.count("output"))
    return usage_error(cmd, "--emit-asm writes to standard output; drop -o");
  std::string out;
  if (vm.count("output")) {
    out = vm["output"].as<std::string>();
  } else {
    const size_t dot = in.rfind('.');
    const size_t slash = in.rfind('/');
    out = (dot != std::string::npos && (slash == std::string::npos || dot > slash) ? in.substr(0, dot) : in) +
          ".bsm";
  }
  std::string source, error;
  if (!isa::read_file(in, isa::kMaxSourceBytes, &source, &error)) {
    std::cerr << "baresm " << cmd << ": " << in << ": " << error << "\n";
    return kExitFail;
  }
  // The same file under any name (a link, another spelling): never overwrite the source.
  struct stat si, so;
  if (!emit_asm && stat(in.c_str(), &si) == 0 && stat(out.c_str(), &so) == 0 && si.st_dev == so.st_dev &&
      si.st_ino == so.st_ino) {
    std::cerr << "baresm " << cmd << ": " << out
              << ": the output is the input file; refusing to overwrite it\n";
    return kExitUsage;
  }
  const std::string name = vm.count("name") ? vm["name"].as<std::string>() : in;
  isa::Module module;
  std::vector<isa::Diagnostic> diagnostics;
  std::string info;
  if (is_ptx) {
    isa::PtxResult r = isa::translate_ptx(source, name);
    diagnostics = std::move(r.diagnostics);
    if (emit_asm && diagnostics.empty()) {
      std::cout << r.assembly;
      return kExitOk;
    }
    for (const auto& k : r.kernels) info += k.info_line() + "\n";
    module = std::move(r.module);
  } else {
    isa::AsmResult r = isa::assemble(source, name);
    diagnostics = std::move(r.diagnostics);
    module = std::move(r.module);
  }
  if (!diagnostics.empty()) {
    for (const auto& d : diagnostics) std::cerr << d.format() << "\n";
    std::cerr << diagnostics.size() << " error" << (diagnostics.size() == 1 ? "" : "s") << "\n";
    return kExitFail;
  }
  const std::vector<uint8_t> bytes = isa::write_module(module);
  const std::string werr = write_whole_file(out, bytes.data(), bytes.size());
  if (!werr.empty()) {
    std::cerr << "baresm " << cmd << ": cannot write '" << out << "': " << werr << "\n";
    return kExitFail;
  }
  std::cout << info;
  return kExitOk;
}

// ---- dis ----------------------------------------------------------------------------
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

// ---- run ----------------------------------------------------------------------------
// --trace PATH. The FST writer (Verilator's fstapi) unlinks the path it is
// given before creating it, and creates and removes PATH.hier beside it: on a
// device node or a symlink it would replace what is there. So the backend
// traces into a private directory, and at exit, once the backend has closed
// the trace, it is copied into PATH, opened before the run the way any tool
// opens its output (create or truncate, following symlinks) and required to
// be a regular file. Nothing at or beside PATH is ever removed.
struct TraceOutput {
  int fd = -1;
  std::string path, dir, file;
};
TraceOutput g_trace;

void remove_trace_dir() {
  unlink(g_trace.file.c_str());
  unlink((g_trace.file + ".hier").c_str());
  rmdir(g_trace.dir.c_str());
}

// atexit; registered before the backend starts, so it runs after the
// backend's own handler has closed the trace.
void copy_trace_out() {
  std::string error;
  const int in = open(g_trace.file.c_str(), O_RDONLY | O_CLOEXEC);
  if (in >= 0) {
    char buf[65536];
    ssize_t n;
    while (error.empty() && (n = read(in, buf, sizeof buf)) != 0) {
      if (n < 0) {
        if (errno != EINTR) error = std::string("reading the trace failed: ") + std::strerror(errno);
        continue;
      }
      for (ssize_t done = 0; error.empty() && done < n;) {
        const ssize_t w = write(g_trace.fd, buf + done, size_t(n - done));
        if (w < 0 && errno != EINTR) error = std::string("write failed: ") + std::strerror(errno);
        if (w > 0) done += w;
      }
    }
    close(in);
  } else {
    error = std::string("the backend wrote no trace: ") + std::strerror(errno);
  }
  if (close(g_trace.fd) != 0 && error.empty()) error = std::string("write failed: ") + std::strerror(errno);
  remove_trace_dir();
  if (error.empty()) return;
  std::cerr << "baresm run: --trace " << g_trace.path << ": " << error << "\n";
  std::fflush(nullptr);
  std::cout.flush();
  _exit(kExitFail);  // the only way to fail once exit() has begun
}

// fstapi (Verilator's FST writer) ignores its write errors and then maps the
// short files it wrote: with its file system full, touching the missing pages
// raises SIGBUS, inside the writer, where no error can be returned. The signal
// is the only report there is, so say what happened, clear the scratch files
// and fail (async-signal-safe calls only; the results were flushed already).
char g_sigbus_msg[4096];
size_t g_sigbus_len = 0;
extern "C" void on_trace_sigbus(int) {
  if (write(2, g_sigbus_msg, g_sigbus_len) < 0) {
    // nothing more can be done
  }
  remove_trace_dir();
  _exit(kExitFail);
}

// Opens PATH for --trace and points the device's settings at the private
// copy; exit code on failure.
int open_trace_output(const std::string& path, samples::DeviceSettings* settings) {
  const auto not_regular = [&](mode_t m) {
    const char* what = S_ISDIR(m)    ? "a directory"
                       : S_ISCHR(m)  ? "a character device"
                       : S_ISBLK(m)  ? "a block device"
                       : S_ISFIFO(m) ? "a FIFO"
                       : S_ISSOCK(m) ? "a socket"
                                     : "not a plain file";
    std::cerr << "baresm run: --trace " << path << ": not a regular file (" << what << ")\n";
    return kExitUsage;
  };
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return not_regular(st.st_mode);
  // O_NONBLOCK: should a FIFO appear after the check, opening it must not hang.
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) {
    std::cerr << "baresm run: --trace " << path << ": " << std::strerror(errno) << "\n";
    return kExitFail;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return not_regular(st.st_mode);
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const char* tmpdir = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/baresm-trace-XXXXXX";
  if (!mkdtemp(tmpl.data())) {
    std::cerr << "baresm run: --trace " << path << ": cannot create a scratch directory in "
              << (tmpdir && *tmpdir ? tmpdir : "/tmp") << ": " << std::strerror(errno) << "\n";
    close(fd);
    return kExitFail;
  }
  g_trace = TraceOutput{fd, path, tmpl, tmpl + "/trace.fst"};
  std::atexit(copy_trace_out);
  g_sigbus_len =
      size_t(std::snprintf(g_sigbus_msg, sizeof g_sigbus_msg,
                           "baresm run: --trace %s: the FST writer crashed (SIGBUS): its files in %s "
                           "or /tmp could not be written (file system full?); no trace\n",
                           path.c_str(), tmpl.c_str()));
  g_sigbus_len = std::min(g_sigbus_len, sizeof g_sigbus_msg - 1);
  struct sigaction sa = {};
  sa.sa_handler = on_trace_sigbus;
  sigaction(SIGBUS, &sa, nullptr);
  settings->trace_file = g_trace.file;
  return kExitOk;
}

// The per-launch details: what each launch was, then the device's report of
// it (completion entry: cycles, IPC, stall cycles, shared passes; the SM's
// warp-state breakdown where the device has its counters).
void print_launches(const samples::SampleResult& r, const std::string& device) {
  for (const auto& l : r.launches) {
    const samples::LaunchReport& rep = l.report;
    std::printf("  %-18s grid %-6s block %-6s warp-instrs %8llu  thread-instrs %9s  %s%s\n", l.kernel.c_str(),
                dim_text(l.grid).c_str(), dim_text(l.block).c_str(), (unsigned long long)rep.stats.warp_instrs,
                rep.sm_counters ? std::to_string(rep.stats.thread_instrs).c_str() : "-", l.note.c_str(),
                rep.fault.ok() ? "" : "  -> FAULT");
    std::printf("    [%s] %llu cycles, %llu warp-instrs, IPC %.3f, stall cycles %llu, shared passes %llu",
                device.c_str(), (unsigned long long)rep.cycles, (unsigned long long)rep.stats.warp_instrs,
                rep.cycles ? double(rep.stats.warp_instrs) / double(rep.cycles) : 0.0,
                (unsigned long long)rep.stall_cycles, (unsigned long long)rep.shared_passes);
    if (!rep.fault.ok()) std::printf(", %s", iss::fault_kind_name(rep.fault.kind));
    std::printf("\n");
    if (!rep.sm_counters) continue;
    uint64_t total = 0;
    for (uint64_t x : rep.state_cycles) total += x;
    if (total == 0) continue;  // a device without warp-state counters (the model)
    const auto pct = [total](uint64_t x) { return total ? 100.0 * double(x) / double(total) : 0.0; };
    std::printf("    [%s] warp-cycles:", device.c_str());
    for (int st = 1; st < sim::kNumWarpStates; ++st)
      std::printf(" %s %.1f%%", sim::kWarpStateNames[st], pct(rep.state_cycles[size_t(st)]));
    std::printf(" (idle slots %.1f%%)\n", pct(rep.state_cycles[0]));
  }
}

uint64_t device_cycles(const samples::SampleResult& r) {
  uint64_t n = 0;
  for (const auto& l : r.launches) n += l.report.cycles;
  return n;
}

std::string thousands(uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
  return s;
}

const char* verdict(const samples::Sample& s, const samples::SampleResult& r) {
  return s.is_fault ? (r.passed ? "FAULT OK" : "FAIL") : (r.passed ? "PASS" : "FAIL");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One sample, verbose. Exit 0 only for a normal sample that matched.
int run_one(const samples::Sample& s, samples::Backend& be, const samples::RunOptions& o) {
  std::printf("sample %s: %s\n  kernel %s, backend %s, seed %llu\n", s.name.c_str(), s.description.c_str(),
              samples::kernel_file_for(s, o.source).c_str(), be.name().c_str(), (unsigned long long)o.seed);
  std::fflush(stdout);
  const samples::SampleResult r = samples::run_sample(s, be, o);
  print_launches(r, be.name());
  std::printf("  total: %zu launch%s, %llu warp-instructions, %llu device cycles\n", r.launches.size(),
              r.launches.size() == 1 ? "" : "es", (unsigned long long)r.warp_instrs(),
              (unsigned long long)device_cycles(r));
  // fnv1a64 over the buffers read back (samples/checksum.h); tools/h200 prints the H200's.
  std::printf("  checksum: fnv1a64 0x%016llx over %llu bytes read back\n", (unsigned long long)r.checksum,
              (unsigned long long)r.checksum_bytes);
  if (r.faulted) std::printf("%s", r.fault_report.c_str());
  if (s.is_fault) {
    if (r.passed) {
      std::printf("%s\n", r.message.c_str());  // "expected fault observed: ..."
    } else {
      std::printf("FAIL %s: %s\n", s.name.c_str(), r.message.c_str());
    }
    return kExitFail;  // a fault is never a success, expected or not
  }
  std::printf("%s %s: %s\n", r.passed ? "PASS" : "FAIL", s.name.c_str(), r.message.c_str());
  return r.passed ? kExitOk : kExitFail;
}

// Every sample: one line each (verdict, name, launches, device cycles, wall
// time; a failure's reason below it) and a summary line. With verbose, each
// sample's launches and the device's report of each first, and the table of
// instruction counts and checksums before the summary.
int run_all(samples::Backend& be, const samples::RunOptions& o, bool verbose) {
  struct Row {
    const samples::Sample* s;
    samples::SampleResult r;
  };
  std::vector<Row> rows;
  // Normal samples first, then the fault samples (all_samples() is ordered
  // so); from CUDA, the samples that have a CUDA version, then the CUDA-only ones.
  std::vector<const samples::Sample*> list;
  for (const auto& s : samples::all_samples())
    if (!samples::kernel_file_for(s, o.source).empty()) list.push_back(&s);
  if (o.source == samples::KernelSource::CUDA)
    for (const auto& s : samples::cuda_only_samples()) list.push_back(&s);
  const auto t_all = std::chrono::steady_clock::now();
  for (const samples::Sample* sp : list) {
    const samples::Sample& s = *sp;
    if (verbose) {
      std::printf("sample %s: %s\n", s.name.c_str(), s.description.c_str());
      std::fflush(stdout);
    }
    const auto t0 = std::chrono::steady_clock::now();
    Row row{&s, samples::run_sample(s, be, o)};
    const double secs = seconds_since(t0);
    if (verbose) {
      print_launches(row.r, be.name());
      if (row.r.faulted) std::printf("%s", row.r.fault_report.c_str());
    }
    const size_t n = row.r.launches.size();
    std::printf("%-8s  %-22s %3zu launch%s %14s cycles %7.2f s", verdict(s, row.r), s.name.c_str(), n,
                n == 1 ? " " : "es", thousands(device_cycles(row.r)).c_str(), secs);
    if (s.is_fault && row.r.faulted) std::printf("  %s", iss::fault_kind_name(row.r.fault.kind));
    std::printf("\n");
    if (!row.r.passed || verbose) std::printf("          %s\n", row.r.message.c_str());
    std::fflush(stdout);
    rows.push_back(std::move(row));
  }
  int passed = 0, faults_ok = 0, failed = 0;
  for (const auto& row : rows) (row.r.passed ? (row.s->is_fault ? faults_ok : passed) : failed)++;
  if (verbose) {
    std::printf("\n%-24s %-9s %8s %12s %14s  %s\n", "sample", "result", "launches", "warp-instrs",
                "thread-instrs", "checksum");
    for (const auto& row : rows) {
      bool counted = true;
      for (const auto& l : row.r.launches) counted &= l.report.sm_counters;
      std::printf("%-24s %-9s %8zu %12llu %14s  0x%016llx\n", row.s->name.c_str(), verdict(*row.s, row.r),
                  row.r.launches.size(), (unsigned long long)row.r.warp_instrs(),
                  counted ? std::to_string(row.r.thread_instrs()).c_str() : "-",
                  (unsigned long long)row.r.checksum);
    }
    std::printf("\n");
  }
  std::printf("%zu samples on %s: %d passed, %d produced their expected fault, %d failed (%.1f s): %s\n",
              rows.size(), be.name().c_str(), passed, faults_ok, failed, seconds_since(t_all),
              failed ? "FAILED" : "ALL OK");
  return failed ? kExitFail : kExitOk;
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm run SAMPLE [options]\n"
      "       baresm run --list\n"
      "       baresm run --all [-v] [options]\n"
      "Runs sample kernels on a device, through the host driver, and checks each\n"
      "result against its C++ reference. A fault sample prints its fault report and\n"
      "exits non-zero even when the fault is the expected one. --all prints one line\n"
      "per sample and a summary, and exits 0 when every sample passed and every fault\n"
      "sample produced its expected fault.\n\noptions");
  desc.add_options()("help,h", "show this help")("list", "list the samples (name, then description)")(
      "all", "run every sample, then every fault sample, and print a summary")(
      "verbose,v", "--all: also every launch of every sample with the device's report of it")(
      "backend", po::value<std::string>()->default_value("model"), "where to run (see the list below)")(
      "seed", po::value<std::string>()->default_value("1"), "seed of the generated inputs")(
      "kernels", po::value<std::string>(),
      "directory of the kernel sources (default: the source tree's kernels/)")(
      "source", po::value<std::string>()->default_value("asm"),
      "asm: the hand-written kernels/NAME.s; cuda: the PTX nvcc made from kernels/cuda/NAME.cu, "
      "through the PTX front end (--all: the samples that have one)")(
      "trace", po::value<std::string>(), "rtl: write an FST waveform of the device to FILE (a regular file)")(
      "trace-window", po::value<std::string>(),
      "rtl: trace only cycles START:END, START <= END (either side may be empty)")(
      "mem-latency", po::value<std::string>(),
      "rtl: fixed device-memory latency in cycles, 1..1000 (default random 1..20)")(
      "mem-seed", po::value<std::string>(), "rtl: seed of the device-memory model (stalls, reordering)")(
      "timeline", po::value<std::string>(),
      "rtl: write a warp timeline (Chrome/Perfetto trace-event JSON) of the run to FILE (docs/timeline.md)");
  add_serial_options(&desc);
  po::variables_map vm;
  int rc = 0;
  if (!parse("run", args, desc, "sample", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\nbackends:\n";
    for (const auto& b : samples::backends())
      std::printf("  %-10s %s\n", b.name.c_str(), b.description.c_str());
    return kExitOk;
  }
  const int modes = int(vm.count("list")) + int(vm.count("all")) + int(vm.count("sample"));
  if (modes == 0) return usage_error("run", "name a sample, or use --list or --all");
  if (modes > 1) return usage_error("run", "give only one of SAMPLE, --list and --all");
  if (vm.count("list")) {
    for (const auto& s : samples::all_samples())
      std::printf("%-24s %s\n", s.name.c_str(), s.description.c_str());
    for (const auto& s : samples::cuda_only_samples())  // their descriptions say "CUDA only"
      std::printf("%-24s %s\n", s.name.c_str(), s.description.c_str());
    return kExitOk;
  }
  const std::string backend = vm["backend"].as<std::string>();
  const samples::BackendEntry* be_entry = samples::find_backend(backend);
  if (!be_entry)
    return usage_error("run",
                       "unknown backend '" + backend + "' (available: " + samples::backend_names() + ")");
  samples::RunOptions o;
  if (!number_option("run", vm, "seed", 0, UINT64_MAX, &o.seed, &rc)) return rc;
  // The device's settings, typed, for the backend to open its device with.
  samples::DeviceSettings settings;
  uint64_t mem_latency = 0;
  // Above 1000 cycles a sample runs for many minutes without a word.
  if (vm.count("mem-latency") && !number_option("run", vm, "mem-latency", 1, 1000, &mem_latency, &rc))
    return rc;
  settings.mem_latency = uint32_t(mem_latency);
  if (vm.count("mem-seed") && !number_option("run", vm, "mem-seed", 0, UINT64_MAX, &settings.mem_seed, &rc))
    return rc;
  if (vm.count("trace-window")) {
    const std::string w = vm["trace-window"].as<std::string>();
    const size_t colon = w.find(':');
    if (colon == std::string::npos || w.find(':', colon + 1) != std::string::npos)
      return bad_value("run", "--trace-window", w, "expected START:END (one ':', either side may be empty)");
    const std::string a = w.substr(0, colon), b = w.substr(colon + 1);
    if ((!a.empty() && !parse_number(a, 0, UINT64_MAX, &settings.trace_start)) ||
        (!b.empty() && !parse_number(b, 0, UINT64_MAX, &settings.trace_end)))
      return bad_value("run", "--trace-window", w, "START and END must be whole numbers of cycles");
    if (settings.trace_start > settings.trace_end)
      return bad_value("run", "--trace-window", w, "START is after END");
  }
  if (backend != "rtl" &&
      (vm.count("trace") || vm.count("trace-window") || vm.count("mem-latency") || vm.count("mem-seed")))
    return usage_error("run", "--trace, --trace-window, --mem-latency and --mem-seed need --backend rtl");
  if ((rc = read_serial_options("run", vm, backend, &settings)) != kExitOk) return rc;
  if (vm.count("verbose") && !vm.count("all"))
    return usage_error("run", "-v goes with --all (one sample always prints every launch)");
  if (vm.count("kernels")) o.kernels_dir = vm["kernels"].as<std::string>();
  const std::string source = vm["source"].as<std::string>();
  if (source != "asm" && source != "cuda")
    return bad_value("run", "--source", source, "expected asm or cuda");
  o.source = source == "cuda" ? samples::KernelSource::CUDA : samples::KernelSource::ASM;
  const samples::Sample* s = nullptr;
  if (vm.count("sample")) {
    s = samples::find_sample(vm["sample"].as<std::string>());
    if (!s)
      return usage_error(
          "run", "unknown sample '" + vm["sample"].as<std::string>() + "' ('baresm run --list' lists them)");
    if (samples::kernel_file_for(*s, o.source).empty())
      return usage_error("run", o.source == samples::KernelSource::CUDA
                                    ? "sample '" + s->name + "' has no CUDA version (kernels/cuda/" + s->name + ".cu)"
                                    : "sample '" + s->name + "' exists only in CUDA: add --source cuda");
  }
  if (vm.count("trace") && (rc = open_trace_output(vm["trace"].as<std::string>(), &settings)) != kExitOk) return rc;
  if ((rc = check_timeline_backend("run", vm, backend)) != kExitOk ||
      (rc = open_timeline_output("run", vm, &settings)) != kExitOk)
    return rc;
  std::string error;
  std::unique_ptr<samples::Backend> be = samples::make_device_backend(*be_entry, settings, &error);
  if (!be) {
    std::cerr << "baresm run: " << error << "\n";
    return kExitFail;
  }
  const int run_rc = s ? run_one(*s, *be, o) : run_all(*be, o, vm.count("verbose") > 0);
  // The results reach standard output before the backend closes a trace (its
  // writer can still fail then, see on_trace_sigbus).
  return finish_stdout("run", run_rc);
}

// ---- gen ----------------------------------------------------------------------------
int cmd_gen(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm gen --seed S [--profile P] [-o OUT.s] [--run] [limits]\n"
      "       baresm gen --list-profiles\n"
      "Writes one constrained-random kernel (docs/progen.md) to OUT.s, or to\n"
      "standard output. Its header comment carries the seed, profile, grid,\n"
      "block, shared bytes and buffer layout; the same seed, profile and limits\n"
      "always give the same text. --run also runs it on the functional model and\n"
      "prints the result (without -o, only the result is printed); the exit status\n"
      "is then 0 when the run ended as the profile expects (no fault, or the\n"
      "fault-KIND profile's fault).\n\noptions");
  progen::ProgenLimits lim;
  desc.add_options()("help,h", "show this help")("list-profiles", "list the profiles")(
      "seed", po::value<std::string>(), "seed of the program")(
      "profile", po::value<std::string>()->default_value("mixed"), "what the program stresses (--list-profiles)")(
      "output,o", po::value<std::string>(), "output file (default: standard output)")(
      "run", "run it on the functional model and print the fault/result summary")(
      "stack-depth", po::value<std::string>()->default_value(std::to_string(lim.stack_depth)),
      "reconvergence-stack entries of the target, 1..1024 (also used for --run)")(
      "max-threads", po::value<std::string>()->default_value(std::to_string(lim.max_threads_per_block)),
      "threads per block at most, 1..1024")(
      "max-shared", po::value<std::string>()->default_value(std::to_string(lim.max_shared_bytes)),
      "shared bytes per CTA at most, 0..16777216")(
      "max-warps", po::value<std::string>()->default_value(std::to_string(lim.max_warps_per_cta)),
      "warps per CTA at most (the target's warp slots), 1..32")(
      "max-regs", po::value<std::string>()->default_value(std::to_string(lim.max_regs_per_thread)),
      "registers per thread at most (the target's), 16..63")(
      "max-windows", po::value<std::string>()->default_value(std::to_string(lim.max_windows)),
      "memory windows per launch at most (the target's), 3..8")(
      "no-fpu", "no FPU instruction (a target without the FPU)")(
      "no-smid", "never read SR_SMID");
  po::variables_map vm;
  int rc = 0;
  if (!parse("gen", args, desc, "extra", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (vm.count("list-profiles")) {
    for (const auto& p : progen::profiles()) std::printf("%s\n", p.c_str());
    return kExitOk;
  }
  if (vm.count("extra")) return usage_error("gen", "unexpected argument '" + vm["extra"].as<std::string>() + "'");
  if (!vm.count("seed")) return usage_error("gen", "missing --seed");
  const std::string profile = vm["profile"].as<std::string>();
  if (!progen::is_profile(profile)) {
    std::string all;
    for (const auto& p : progen::profiles()) all += (all.empty() ? "" : ", ") + p;
    std::cerr << "baresm gen: unknown profile '" << profile << "' (profiles: " << all << ")\n";
    return kExitUsage;
  }
  uint64_t seed = 0, depth = 0, threads = 0, shared = 0, warps = 0, regs = 0, windows = 0;
  if (!number_option("gen", vm, "seed", 0, UINT64_MAX, &seed, &rc) ||
      !number_option("gen", vm, "stack-depth", 1, 1024, &depth, &rc) ||
      !number_option("gen", vm, "max-threads", 1, 1024, &threads, &rc) ||
      !number_option("gen", vm, "max-shared", 0, 16u << 20, &shared, &rc) ||
      !number_option("gen", vm, "max-warps", 1, 32, &warps, &rc) ||
      !number_option("gen", vm, "max-regs", 16, 63, &regs, &rc) ||
      !number_option("gen", vm, "max-windows", 3, 8, &windows, &rc))
    return rc;
  lim.stack_depth = uint32_t(depth);
  lim.max_threads_per_block = uint32_t(threads);
  lim.max_shared_bytes = uint32_t(shared);
  lim.max_warps_per_cta = uint32_t(warps);
  lim.max_regs_per_thread = uint32_t(regs);
  lim.max_windows = uint32_t(windows);
  lim.has_fpu = !vm.count("no-fpu");
  lim.use_smid = !vm.count("no-smid");
  progen::GeneratedProgram p;
  try {
    p = progen::generate(seed, profile, lim);
  } catch (const std::invalid_argument& e) {
    std::cerr << "baresm gen: " << e.what() << "\n";
    return kExitUsage;
  }
  if (vm.count("output")) {
    const std::string out = vm["output"].as<std::string>();
    const std::string error = write_whole_file(out, p.source.data(), p.source.size());
    if (!error.empty()) {
      std::cerr << "baresm gen: cannot write '" << out << "': " << error << "\n";
      return kExitFail;
    }
  } else if (!vm.count("run")) {
    std::cout << p.source;
  }
  if (!vm.count("run")) return kExitOk;
  const progen::ModelRun r = progen::run_on_model(p);
  if (!r.assembled) {
    std::cerr << r.errors;
    return kExitFail;
  }
  std::printf("progen seed %llu profile %s: grid %s block %s, %zu instructions, expected %s\n",
              (unsigned long long)p.seed, p.profile.c_str(), dim_text(p.grid).c_str(), dim_text(p.block).c_str(),
              r.module.code.size(), iss::fault_kind_name(p.expected_fault));
  if (r.result.launch_error) {
    std::printf("launch error: %s\n", r.result.launch_error_message.c_str());
    return kExitFail;
  }
  const auto& st = r.result.stats;
  std::printf("  warp-instrs %llu (budget %llu), thread-instrs %llu, divergent branches %llu, barriers %llu\n",
              (unsigned long long)st.warp_instrs, (unsigned long long)p.instr_budget,
              (unsigned long long)st.thread_instrs, (unsigned long long)st.divergent_branches,
              (unsigned long long)st.barriers);
  std::printf("  %s\n", r.result.fault.ok() ? "completed without fault" : r.result.fault.describe().c_str());
  const bool as_expected = r.result.fault.kind == p.expected_fault;
  std::printf("%s\n", as_expected ? "AS EXPECTED" : "UNEXPECTED");
  return as_expected ? kExitOk : kExitFail;
}

}  // namespace

int main(int argc, char** argv) {
  baresm_register_cli_backends();
  if (argc < 2) {
    std::cerr << kToolHelp;
    return kExitUsage;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::cout << kToolHelp;
      return kExitOk;
    }
    if (cmd == "asm" || cmd == "ptx") return finish_stdout(cmd, cmd_asm(cmd, rest));
    if (cmd == "dis") return finish_stdout(cmd, cmd_dis(rest));
    if (cmd == "run") return finish_stdout(cmd, cmd_run(rest));
    if (cmd == "gen") return finish_stdout(cmd, cmd_gen(rest));
    if (cmd == "launch") return finish_stdout(cmd, cmd_launch(rest));
    if (cmd == "info") return finish_stdout(cmd, cmd_info(rest));
    if (cmd == "timeline") return finish_stdout(cmd, cmd_timeline(rest));
  } catch (const std::exception& e) {
    std::cerr << "baresm " << cmd << ": " << e.what() << "\n";
    return kExitFail;
  }
  if (!cmd.empty() && cmd[0] == '-') return usage_error("", "unknown option '" + cmd + "'");
  return usage_error("", "unknown command '" + cmd + "' (commands: asm, ptx, dis, run, gen, launch, info, timeline)");
}
