// `baresm run`: the samples (samples/) on a device of the registry, each
// result checked; one line per sample, or every launch with -v.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "host_driver/devices.h"
#include "samples/samples.h"
#include "sim/cli_commands.h"
#include "sim/cli_device.h"
#include "sim/cli_util.h"
#include "sim/harness/state_names.h"

namespace baresm::cli {

namespace {

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
int open_trace_output(const std::string& path, drv::DeviceSettings* settings) {
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
    const drv::LaunchStats& st = l.report.stats;
    std::printf("  %-18s grid %-6s block %-6s warp-instrs %8u  thread-instrs %9u  %s%s\n", l.kernel.c_str(),
                dim_text(l.grid).c_str(), dim_text(l.block).c_str(), st.warp_instrs, st.thread_instrs,
                l.note.c_str(), l.fault.ok() ? "" : "  -> FAULT");
    std::printf("    [%s] %llu cycles, %u warp-instrs, IPC %.3f, stall cycles %u, shared passes %u",
                device.c_str(), (unsigned long long)st.cycles, st.warp_instrs, st.ipc(), st.stall_cycles,
                st.shared_passes);
    if (!l.fault.ok()) std::printf(", %s", iss::fault_kind_name(l.fault.kind));
    std::printf("\n");
    uint64_t total = 0;
    for (uint32_t x : st.warp_state_cycles) total += x;
    if (total == 0) continue;  // a device without warp-state counters (the model)
    const auto pct = [total](uint64_t x) { return total ? 100.0 * double(x) / double(total) : 0.0; };
    std::printf("    [%s] warp-cycles:", device.c_str());
    for (int ws = 1; ws < sim::kNumWarpStates; ++ws)
      std::printf(" %s %.1f%%", sim::kWarpStateNames[ws], pct(st.warp_state_cycles[ws]));
    std::printf(" (idle slots %.1f%%)\n", pct(st.warp_state_cycles[0]));
  }
}

uint64_t device_cycles(const samples::SampleResult& r) {
  uint64_t n = 0;
  for (const auto& l : r.launches) n += l.report.stats.cycles;
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
int run_one(const samples::Sample& s, drv::OpenDevice& d, const samples::RunOptions& o) {
  std::printf("sample %s: %s\n  kernel %s, backend %s, seed %llu\n", s.name.c_str(), s.description.c_str(),
              samples::kernel_file_for(s, o.source).c_str(), d.name.c_str(), (unsigned long long)o.seed);
  std::fflush(stdout);
  const samples::SampleResult r = samples::run_sample(s, d.device, o);
  print_launches(r, d.name);
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
int run_all(drv::OpenDevice& d, const samples::RunOptions& o, bool verbose) {
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
    Row row{&s, samples::run_sample(s, d.device, o)};
    const double secs = seconds_since(t0);
    if (verbose) {
      print_launches(row.r, d.name);
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
      std::printf("%-24s %-9s %8zu %12llu %14llu  0x%016llx\n", row.s->name.c_str(), verdict(*row.s, row.r),
                  row.r.launches.size(), (unsigned long long)row.r.warp_instrs(),
                  (unsigned long long)row.r.thread_instrs(), (unsigned long long)row.r.checksum);
    }
    std::printf("\n");
  }
  std::printf("%zu samples on %s: %d passed, %d produced their expected fault, %d failed (%.1f s): %s\n",
              rows.size(), d.name.c_str(), passed, faults_ok, failed, seconds_since(t_all),
              failed ? "FAILED" : "ALL OK");
  return failed ? kExitFail : kExitOk;
}

}  // namespace

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
    for (const auto& b : drv::devices())
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
  const drv::DeviceEntry* be_entry = drv::find_device(backend);
  if (!be_entry)
    return usage_error("run", "unknown backend '" + backend + "' (available: " + drv::device_names() + ")");
  samples::RunOptions o;
  if (!number_option("run", vm, "seed", 0, UINT64_MAX, &o.seed, &rc)) return rc;
  // The device's settings, typed, for the backend to open its device with.
  drv::DeviceSettings settings;
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
  std::unique_ptr<drv::OpenDevice> d = open_device("run", *be_entry, settings, be_entry->options);
  if (!d) return kExitFail;
  const int run_rc = s ? run_one(*s, *d, o) : run_all(*d, o, vm.count("verbose") > 0);
  // The results reach standard output before the backend closes a trace (its
  // writer can still fail then, see on_trace_sigbus).
  return finish_stdout("run", run_rc);
}

}  // namespace baresm::cli
