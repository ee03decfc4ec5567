// `baresm launch`: one kernel of a module, launched the way a CUDA host
// program launches it, through the host driver (drv::Device): allocate and
// upload the buffers, pack the arguments at the offsets of the kernel's
// parameter table, launch, synchronize, download the outputs, report.
//
// The command line is checked completely -- module, kernel, every argument
// against its parameter, every output -- before a device is started, so a
// bad one costs no simulation time and changes nothing on disk.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "isa/assembler.h"
#include "isa/disasm.h"
#include "isa/file_io.h"
#include "isa/module.h"
#include "isa/ptx.h"
#include "samples/checksum.h"
#include "sim/cli_commands.h"
#include "sim/cli_device.h"
#include "sim/cli_util.h"
#include "sim/launch_fault.h"

namespace baresm::cli {

namespace {

const char* const kCmd = "launch";

// The budget DeviceOptions::watchdog gets unless --watchdog says otherwise:
// what `baresm run --backend rtl` gives a sample (host_driver/devices.h).
constexpr uint32_t kDefaultWatchdog = drv::kDefaultWatchdogCycles;

enum class Kind { U32, S32, U64, S64, F32, BUF_IN, BUF_OUT, BUF_INOUT };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::U32:
      return "u32";
    case Kind::S32:
      return "s32";
    case Kind::U64:
      return "u64";
    case Kind::S64:
      return "s64";
    case Kind::F32:
      return "f32";
    case Kind::BUF_IN:
      return "buf:in";
    case Kind::BUF_OUT:
      return "buf:out";
    case Kind::BUF_INOUT:
      return "buf:inout";
  }
  return "?";
}

// One --arg, in parameter order.
struct Arg {
  std::string text;  // as given, for messages
  Kind kind = Kind::U32;
  std::vector<uint8_t> value;  // scalars: the little-endian bytes
  std::vector<uint8_t> data;   // buf:in / buf:inout: the file's bytes
  uint32_t size = 0;           // buffers: bytes
  std::string out_file;        // --out
  drv::DevPtr addr = 0;
  bool is_buffer() const { return kind == Kind::BUF_IN || kind == Kind::BUF_OUT || kind == Kind::BUF_INOUT; }
  bool is_output() const { return kind == Kind::BUF_OUT || kind == Kind::BUF_INOUT; }
};

std::vector<uint8_t> le_bytes(uint64_t v, int n) {
  std::vector<uint8_t> b(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) b[size_t(i)] = uint8_t(v >> (8 * i));
  return b;
}

// A whole number with an optional '-' in [-neg_max, pos_max].
bool parse_signed(const std::string& t, uint64_t neg_max, uint64_t pos_max, uint64_t* out) {
  const bool neg = !t.empty() && t[0] == '-';
  uint64_t mag = 0;
  if (!parse_number(neg ? t.substr(1) : t, 0, neg ? neg_max : pos_max, &mag)) return false;
  *out = neg ? ~mag + 1 : mag;
  return true;
}

const char* const kKinds = "u32:N, s32:N, u64:N, s64:N, f32:X, buf:in=FILE, buf:out=BYTES, buf:inout=FILE";

// Reads an input file named on the command line; kExitUsage when it cannot.
bool read_input(const std::string& opt, const std::string& text, const std::string& path, uint64_t limit,
                std::string* data, int* rc) {
  std::string error;
  if (isa::read_file(path, limit, data, &error)) return true;
  *rc = bad_value(kCmd, opt, text, path + ": " + error);
  return false;
}

bool parse_arg(const std::string& text, Arg* a, int* rc) {
  a->text = text;
  const auto bad = [&](const std::string& why) {
    *rc = bad_value(kCmd, "--arg", text, why);
    return false;
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos) return bad(std::string("expected KIND:VALUE (kinds: ") + kKinds + ")");
  const std::string kind = text.substr(0, colon), v = text.substr(colon + 1);
  uint64_t n = 0;
  if (kind == "u32" || kind == "s32" || kind == "u64" || kind == "s64") {
    const bool wide = kind[1] == '6', sign = kind[0] == 's';
    const uint64_t pos_max = wide ? (sign ? INT64_MAX : UINT64_MAX) : (sign ? INT32_MAX : UINT32_MAX);
    const uint64_t neg_max = sign ? pos_max + 1 : 0;
    if (!(sign ? parse_signed(v, neg_max, pos_max, &n) : parse_number(v, 0, pos_max, &n)))
      return bad("not a whole number in " + (sign ? "-" + std::to_string(neg_max) : std::string("0")) + ".." +
                 std::to_string(pos_max));
    a->kind = wide ? (sign ? Kind::S64 : Kind::U64) : (sign ? Kind::S32 : Kind::U32);
    a->value = le_bytes(n, wide ? 8 : 4);
    return true;
  }
  if (kind == "f32") {
    errno = 0;
    char* end = nullptr;
    const float f = v.empty() || std::isspace(uint8_t(v[0])) ? 0.0f : std::strtof(v.c_str(), &end);
    if (!end || *end != '\0') return bad("not a number (e.g. 1.5, -2e-3, 0x1p-4, inf)");
    if (errno == ERANGE && std::isinf(f)) return bad("outside the f32 range");
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    a->kind = Kind::F32;
    a->value = le_bytes(bits, 4);
    return true;
  }
  if (kind == "buf") {
    const size_t eq = v.find('=');
    const std::string dir = v.substr(0, eq), rest = eq == std::string::npos ? "" : v.substr(eq + 1);
    if (eq == std::string::npos || (dir != "in" && dir != "out" && dir != "inout"))
      return bad("expected buf:in=FILE, buf:out=BYTES or buf:inout=FILE");
    if (dir == "out") {
      if (!parse_number(rest, 1, UINT32_MAX, &n))
        return bad("the size is not a whole number of bytes in 1..4294967295");
      a->kind = Kind::BUF_OUT;
      a->size = uint32_t(n);
      return true;
    }
    if (rest.empty()) return bad("no file name after '='");
    std::string data;
    if (!read_input("--arg", text, rest, isa::kMaxSourceBytes, &data, rc)) return false;
    if (data.empty()) return bad(rest + ": the file is empty (a buffer has at least one byte)");
    a->kind = dir == "in" ? Kind::BUF_IN : Kind::BUF_INOUT;
    a->data.assign(data.begin(), data.end());
    a->size = uint32_t(data.size());
    return true;
  }
  return bad("unknown kind '" + kind + "' (kinds: " + kKinds + ")");
}

// --grid / --block: X[,Y[,Z]], each 1..2^32-1 (the device checks its own limits).
bool parse_dim(const std::string& opt, const std::string& text, drv::Dim3* out, int* rc) {
  uint32_t d[3] = {1, 1, 1};
  size_t start = 0;
  for (int i = 0;; ++i) {
    const size_t comma = text.find(',', start);
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (i == 3) {
      *rc = bad_value(kCmd, opt, text, "expected X[,Y[,Z]]: at most 3 dimensions");
      return false;
    }
    uint64_t v = 0;
    if (!parse_number(part, 0, UINT32_MAX, &v)) {
      *rc = bad_value(kCmd, opt, text, "expected X[,Y[,Z]], each a whole number in 1..4294967295");
      return false;
    }
    if (v == 0) {
      *rc = bad_value(kCmd, opt, text, "a dimension is 0 (each must be at least 1)");
      return false;
    }
    d[i] = uint32_t(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  *out = drv::Dim3{d[0], d[1], d[2]};
  return true;
}

std::string param_list(const isa::KernelInfo& k) {
  std::string s;
  for (const auto& p : k.params) s += (s.empty() ? "" : ", ") + p.name;
  return s.empty() ? "none" : s;
}

std::string kernel_list(const isa::Module& m) {
  std::string s;
  for (const auto& k : m.kernels) s += (s.empty() ? "" : ", ") + k.name;
  return s;
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// The module named on the command line: a .s is assembled, a .ptx
// translated (both in memory), anything else read as a .bsm image. An
// unreadable path is a bad command line; a source with errors or a corrupt
// image a failed piece of work (as for `baresm asm` / `dis`).
bool load_module(const std::string& path, isa::Module* m, std::vector<uint8_t>* image,
                 std::vector<std::string>* source_lines, int* rc) {
  const bool ptx = isa::is_ptx_path(path), s = ends_with(path, ".s");
  std::string bytes, error;
  if (!isa::read_file(path, ptx || s ? isa::kMaxSourceBytes : isa::kMaxModuleBytes, &bytes, &error)) {
    std::cerr << "baresm launch: " << path << ": " << error << "\n";
    *rc = kExitUsage;
    return false;
  }
  if (ptx || s) {
    std::vector<isa::Diagnostic> diagnostics;
    if (ptx) {
      isa::PtxResult r = isa::translate_ptx(bytes, path);
      diagnostics = std::move(r.diagnostics);
      *m = std::move(r.module);
    } else {
      isa::AsmResult r = isa::assemble(bytes, path);
      diagnostics = std::move(r.diagnostics);
      *m = std::move(r.module);
    }
    if (!diagnostics.empty()) {
      for (const auto& d : diagnostics) std::cerr << d.format() << "\n";
      std::cerr << diagnostics.size() << " error" << (diagnostics.size() == 1 ? "" : "s") << "\n";
      *rc = kExitFail;
      return false;
    }
    *image = isa::write_module(*m);
    std::istringstream lines(bytes);
    for (std::string l; std::getline(lines, l);) source_lines->push_back(l);
    return true;
  }
  image->assign(bytes.begin(), bytes.end());
  isa::LoadResult r = isa::read_module(image->data(), image->size());
  if (r.status != isa::LoadStatus::OK) {
    std::cerr << "baresm launch: " << path << ": " << isa::load_status_name(r.status) << ": " << r.message
              << "\n";
    *rc = kExitFail;
    return false;
  }
  *m = std::move(r.module);
  return true;
}

// A driver call that failed: its status, layer and the driver's sentence.
int driver_failure(const drv::ErrorInfo& e, const std::string& what) {
  std::cerr << "baresm launch: " << what << ": " << drv::status_name(e.status) << " ("
            << drv::layer_name(e.layer) << "): " << e.detail << "\n";
  return kExitFail;
}
int driver_failure(const drv::Device& dev, const std::string& what) {
  return driver_failure(dev.last_error(), what);
}

}  // namespace

int cmd_launch(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm launch MODULE.bsm|KERNEL.s|KERNEL.ptx --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
      "                     [--kernel NAME] [--shared BYTES] [--arg KIND:VALUE]... [--out PARAM=FILE]...\n"
      "                     [--backend model|rtl|serial] [--port PATH] [--baud N] [--watchdog N]\n"
      "                     [--timeline FILE.json]\n"
      "Launches one kernel through the host driver, as a CUDA program would: the\n"
      "buffers are allocated and uploaded, the arguments packed at the offsets of\n"
      "the kernel's parameter table, the launch synchronized and the outputs\n"
      "downloaded. A .s is assembled and a .ptx translated in memory first.\n"
      "\n"
      "One --arg per kernel parameter, in the parameter order (`baresm dis` lists\n"
      "them as .param lines):\n"
      "  u32:N s32:N u64:N s64:N f32:X   a scalar (decimal or 0x hex; f32 as strtof reads it)\n"
      "  buf:in=FILE                     a buffer holding FILE's bytes\n"
      "  buf:out=BYTES                   a buffer of BYTES zero bytes\n"
      "  buf:inout=FILE                  a buffer holding FILE's bytes, read back afterwards\n"
      "A buffer passes its device address (zero-extended for an 8-byte parameter).\n"
      "--out PARAM=FILE writes a buf:out or buf:inout buffer to FILE after a\n"
      "completed launch; PARAM is the parameter's name or its position counting\n"
      "from 0 (`--out c=c.bin`, `--out 2=c.bin`).\n"
      "\n"
      "Exit status: 0 the launch completed (outputs written); 1 it failed (a fault,\n"
      "a launch the driver refused, a source with errors; nothing is written);\n"
      "2 a bad command line, an unreadable input file included.\n\noptions");
  desc.add_options()("help,h", "show this help")("kernel", po::value<std::string>(),
                                                 "the kernel to launch (default: the module's only one)")(
      "grid", po::value<std::string>(), "CTAs per dimension, X[,Y[,Z]]")(
      "block", po::value<std::string>(), "threads per CTA per dimension, X[,Y[,Z]]")(
      "shared", po::value<std::string>()->default_value("0"), "dynamic shared memory per CTA, bytes")(
      "arg", po::value<std::vector<std::string>>()->composing(), "one kernel argument, KIND:VALUE (above)")(
      "out", po::value<std::vector<std::string>>()->composing(), "write an output buffer, PARAM=FILE")(
      "backend", po::value<std::string>()->default_value("model"),
      "model (functional device model), rtl (verilated device under SystemC) or serial (an FPGA "
      "board over --port)")(
      "watchdog", po::value<std::string>()->default_value(std::to_string(kDefaultWatchdog)),
      "the launch's budget: cycles on the rtl, warp-instructions on the model; 0 = none")(
      "timeline", po::value<std::string>(),
      "rtl: write a warp timeline (Chrome/Perfetto trace-event JSON) to FILE (docs/timeline.md)");
  add_serial_options(&desc);
  po::variables_map vm;
  int rc = 0;
  if (!parse(kCmd, args, desc, "module", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (!vm.count("module")) return usage_error(kCmd, "missing MODULE (a .bsm, .s or .ptx file)");
  if (!vm.count("grid")) return usage_error(kCmd, "missing --grid");
  if (!vm.count("block")) return usage_error(kCmd, "missing --block");
  const drv::DeviceEntry* be = find_device_backend(kCmd, vm["backend"].as<std::string>(), &rc);
  if (!be) return rc;
  if ((rc = check_timeline_backend(kCmd, vm, be->name)) != kExitOk) return rc;
  drv::DeviceSettings settings;
  if ((rc = read_serial_options(kCmd, vm, be->name, &settings)) != kExitOk) return rc;
  drv::LaunchConfig cfg;
  uint64_t shared = 0, watchdog = 0;
  if (!parse_dim("--grid", vm["grid"].as<std::string>(), &cfg.grid, &rc) ||
      !parse_dim("--block", vm["block"].as<std::string>(), &cfg.block, &rc) ||
      !number_option(kCmd, vm, "shared", 0, UINT32_MAX, &shared, &rc) ||
      !number_option(kCmd, vm, "watchdog", 0, UINT32_MAX, &watchdog, &rc))
    return rc;
  cfg.dynamic_shared = uint32_t(shared);

  const std::string path = vm["module"].as<std::string>();
  isa::Module module;
  std::vector<uint8_t> image;
  std::vector<std::string> source_lines;
  if (!load_module(path, &module, &image, &source_lines, &rc)) return rc;
  const isa::KernelInfo* k = nullptr;
  if (vm.count("kernel")) {
    const std::string name = vm["kernel"].as<std::string>();
    k = module.find_kernel(name);
    if (!k)
      return bad_value(kCmd, "--kernel", name,
                       "no such kernel in " + path + " (kernels: " + kernel_list(module) + ")");
  } else if (module.kernels.size() == 1) {
    k = &module.kernels[0];
  } else {
    std::cerr << "baresm launch: " << path << " has " << module.kernels.size() << " kernels ("
              << kernel_list(module) << "): pick one with --kernel\n";
    return kExitUsage;
  }

  // The arguments, each against its parameter.
  const std::vector<std::string> texts =
      vm.count("arg") ? vm["arg"].as<std::vector<std::string>>() : std::vector<std::string>{};
  std::vector<Arg> argv(texts.size());
  for (size_t i = 0; i < texts.size(); ++i)
    if (!parse_arg(texts[i], &argv[i], &rc)) return rc;
  if (argv.size() != k->params.size()) {
    std::cerr << "baresm launch: --arg: kernel '" << k->name << "' takes " << k->params.size() << " parameter"
              << (k->params.size() == 1 ? "" : "s") << " (" << param_list(*k) << "), " << argv.size()
              << " given\n";
    return kExitUsage;
  }
  for (size_t i = 0; i < argv.size(); ++i) {
    const isa::ParamInfo& p = k->params[i];
    const Arg& a = argv[i];
    const std::string param = "parameter " + std::to_string(i) + " '" + p.name + "' of kernel '" + k->name +
                              "' is " + std::to_string(p.size) + " byte" + (p.size == 1 ? "" : "s");
    if (a.is_buffer() ? p.size != 4 && p.size != 8 : a.value.size() != p.size)
      return bad_value(kCmd, "--arg", a.text,
                       param + (a.is_buffer() ? "; a buffer passes a 4- or 8-byte device address"
                                              : std::string("; ") + kind_name(a.kind) + " is " +
                                                    std::to_string(a.value.size())));
    if (uint64_t(p.offset) + p.size > k->param_bytes)
      return bad_value(kCmd, "--arg", a.text, param + " and lies outside the parameter buffer");
  }
  // Outputs: by parameter name, or by position.
  const std::vector<std::string> outs =
      vm.count("out") ? vm["out"].as<std::vector<std::string>>() : std::vector<std::string>{};
  for (const std::string& o : outs) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == o.size())
      return bad_value(kCmd, "--out", o, "expected PARAM=FILE");
    const std::string name = o.substr(0, eq);
    size_t index = k->params.size();
    uint64_t pos = 0;
    const bool by_position = parse_number(name, 0, UINT32_MAX, &pos);
    if (by_position) {
      index = pos < k->params.size() ? size_t(pos) : k->params.size();
    } else {
      for (size_t i = 0; i < k->params.size(); ++i)
        if (k->params[i].name == name) index = i;
    }
    if (index == k->params.size())
      return bad_value(kCmd, "--out", o,
                       "kernel '" + k->name + "' has no parameter " + (by_position ? "at position " : "") +
                           name + " (parameters: " + param_list(*k) + ")");
    Arg& a = argv[index];
    if (!a.is_output())
      return bad_value(kCmd, "--out", o,
                       "parameter '" + k->params[index].name + "' is " + a.text +
                           ", not an output buffer (buf:out=BYTES or buf:inout=FILE)");
    if (!a.out_file.empty())
      return bad_value(kCmd, "--out", o,
                       "parameter '" + k->params[index].name + "' already goes to " + a.out_file);
    const std::string file = o.substr(eq + 1);
    for (size_t i = 0; i < argv.size(); ++i)
      if (argv[i].out_file == file)
        return bad_value(kCmd, "--out", o,
                         file + " is already the file of parameter '" + k->params[i].name + "'");
    a.out_file = file;
  }

  // The device, through the driver, with the registry's options for it.
  // The watchdog ends a kernel that does not finish well inside the
  // driver's synchronize timeout; with --watchdog 0 only that timeout does.
  drv::DeviceOptions dopt = be->options;
  dopt.watchdog = uint32_t(watchdog);
  if ((rc = open_timeline_output(kCmd, vm, &settings)) != kExitOk) return rc;
  std::unique_ptr<drv::OpenDevice> d = open_device(kCmd, *be, settings, dopt);
  if (!d) return kExitFail;
  drv::Device& dev = d->device;
  drv::Context ctx;
  if (dev.ctx_create(&ctx) != drv::Status::OK) return driver_failure(dev, "ctx_create");
  drv::Module mod;
  if (dev.module_load_data(ctx, image.data(), image.size(), &mod) != drv::Status::OK)
    return driver_failure(dev, "loading " + path);
  drv::Function fn;
  if (dev.module_get_function(mod, k->name.c_str(), &fn) != drv::Status::OK)
    return driver_failure(dev, "module_get_function " + k->name);
  // The driver packs the arguments (Device::launch) at the parameter table's offsets.
  std::vector<drv::LaunchArg> largs;
  for (size_t i = 0; i < argv.size(); ++i) {
    Arg& a = argv[i];
    const isa::ParamInfo& p = k->params[i];
    if (a.is_buffer()) {
      const std::string what = "parameter '" + p.name + "' (" + std::to_string(a.size) + " bytes)";
      if (dev.mem_alloc(ctx, a.size, &a.addr) != drv::Status::OK)
        return driver_failure(dev, "mem_alloc for " + what);
      const drv::Status s = a.kind == Kind::BUF_OUT ? dev.memset_d8(ctx, a.addr, 0, a.size)
                                                    : dev.memcpy_htod(ctx, a.addr, a.data.data(), a.size);
      if (s != drv::Status::OK) return driver_failure(dev, "uploading " + what);
      a.value = le_bytes(a.addr, int(p.size));  // zero-extended for a 64-bit pointer (CUDA's CUdeviceptr)
    }
    largs.push_back(drv::LaunchArg{a.value.data(), p.size});
  }
  // No explicit windows: the driver grants the context's allocations, i.e.
  // exactly these buffers, so an access past one of them faults.
  uint64_t token = 0;
  if (dev.launch(fn, cfg, largs.data(), uint32_t(largs.size()), &token) != drv::Status::OK)
    return driver_failure(dev, "launch refused");
  // A failed launch makes synchronize fail too; its result, below, says
  // how. Without a result the wait itself went wrong (a timeout, a device
  // that broke its contract): that is the error to show.
  dev.ctx_synchronize(ctx);
  const drv::ErrorInfo sync_error = dev.last_error();
  drv::LaunchReport r;
  if (dev.launch_result(token, &r) != drv::Status::OK)
    return driver_failure(sync_error, "waiting for the launch");
  drv::DevPtr code_base = 0;
  dev.module_code_range(mod, &code_base, nullptr);

  const bool done = r.from_device && r.cpl_status == cq::CplStatus::COMPLETED;
  std::printf("launch %s grid %s block %s shared %u on %s: %s\n", k->name.c_str(),
              dim_text(cfg.grid).c_str(), dim_text(cfg.block).c_str(), cfg.dynamic_shared,
              be->name.c_str(),
              done ? "COMPLETED"
                   : (std::string(r.from_device ? cq::cpl_status_name(r.cpl_status) : "LOST") + ": " +
                      drv::status_name(r.status) + " (" + drv::status_message(r.status) + ")")
                         .c_str());
  const uint64_t cycles = r.end_cycle - r.start_cycle;
  if (r.from_device) {
    std::printf("  cycles %llu (%llu..%llu), warp-instructions %u, IPC %.3f\n", (unsigned long long)cycles,
                (unsigned long long)r.start_cycle, (unsigned long long)r.end_cycle, r.stats.warp_instrs,
                cycles ? double(r.stats.warp_instrs) / double(cycles) : 0.0);
    std::printf("  CTAs done %u, stall cycles %u, shared-memory passes %u\n", r.stats.ctas_done,
                r.stats.stall_cycles, r.stats.shared_passes);
  }
  drv::DeviceCounters c;
  if (dev.read_counters(&c) == drv::Status::OK)
    std::printf("  device counters: cycles %llu, warp-instructions %llu, launches %u, failed %u\n",
                (unsigned long long)c.cycles, (unsigned long long)c.warp_instrs, c.launches, c.failed);
  if (!done) {
    if (r.from_device) std::fputs(format_fault(module, source_lines, r, code_base).c_str(), stdout);
    return kExitFail;
  }
  int result = kExitOk;
  for (size_t i = 0; i < argv.size(); ++i) {
    const Arg& a = argv[i];
    if (!a.is_output()) continue;
    std::vector<uint8_t> bytes(a.size);
    if (dev.memcpy_dtoh(ctx, bytes.data(), a.addr, a.size) != drv::Status::OK)
      return driver_failure(dev, "downloading parameter '" + k->params[i].name + "'");
    const uint64_t sum = samples::fnv1a64(samples::kFnv1a64Offset, bytes.data(), bytes.size());
    std::printf("  %s: %u bytes, fnv1a64 0x%016llx", k->params[i].name.c_str(), a.size,
                (unsigned long long)sum);
    if (a.out_file.empty()) {
      std::printf(" (no --out)\n");
      continue;
    }
    const std::string err = write_whole_file(a.out_file, bytes.data(), bytes.size());
    std::printf(" -> %s\n", a.out_file.c_str());
    if (!err.empty()) {
      std::fflush(stdout);
      std::cerr << "baresm launch: cannot write '" << a.out_file << "': " << err << "\n";
      result = kExitFail;
    }
  }
  return result;
}

}  // namespace baresm::cli
