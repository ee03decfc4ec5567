// baresm's CUDA runtime: libcudart.so.13 over the host driver (drv::Device).
//
// An unmodified program built with `nvcc -cudart shared` calls these
// functions; the kernels come from the fatbinary nvcc embedded in it (its
// PTX, translated by isa/ptx.h and loaded as a module through the driver).
// docs/cuda-runtime.md lists every function with its status.
//
// One device (the functional model, or the verilated RTL: BARESM_BACKEND), one context (CUDA's
// primary context), one global lock. Device pointers are the driver's 32-bit
// device addresses, zero-extended. Kernel faults become the context's sticky
// error at the next synchronizing call, as on a GPU.
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cudart/fatbin.h"
#include "cudart/runtime.h"
#include "host_driver/devices.h"
#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "isa/module.h"
#include "isa/ptx.h"
#ifdef BARESM_CUDART_RTL
#include "sim/systemc/rtl_device.h"
#endif

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace baresm::cudart {
namespace {

void note(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "baresm cudart: %s\n", msg);
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

// "64M", "1G", "65536" -> bytes; false when malformed.
bool parse_bytes(const char* s, uint64_t* out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (end == s) return false;
  uint64_t mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1ull << 10, ++end;
  else if (*end == 'm' || *end == 'M') mul = 1ull << 20, ++end;
  else if (*end == 'g' || *end == 'G') mul = 1ull << 30, ++end;
  if (*end) return false;
  *out = v * mul;
  return true;
}

struct FatbinReg;

struct KernelReg {
  const void* host_fun = nullptr;
  std::string name;  // the PTX (mangled) name
  FatbinReg* fatbin = nullptr;
  drv::Function fn;
  const isa::KernelInfo* info = nullptr;  // in fatbin->module
  cudaError_t resolve_error = cudaSuccess;
  cudaFuncCache cache_config = cudaFuncCachePreferNone;  // recorded: baresm's shared memory is not carved from a cache
  // Per parameter of the translated kernel: 0 for the program's own, the
  // device address of a __device__/__constant__ variable for the hidden
  // ones (isa::kPtxVarParamPrefix) that follow them; user_params counts the former.
  std::vector<uint32_t> param_var_addr;
  size_t user_params = 0;
  // measured (BARESM_CUDART_STATS)
  uint64_t launches = 0, cycles = 0, warp_instrs = 0, thread_instrs = 0;
};

struct VarReg {
  const void* host_var = nullptr;
  std::string name;
  size_t size = 0;
  bool constant = false;
  FatbinReg* fatbin = nullptr;
};

// A __device__/__constant__ variable of a loaded module: its device memory.
struct VarMem {
  uint32_t addr = 0, size = 0;
};

struct FatbinReg {
  const void* wrapper = nullptr;
  std::vector<std::unique_ptr<KernelReg>> kernels;
  std::vector<std::unique_ptr<VarReg>> vars;
  std::map<std::string, VarMem> var_mem;  // by PTX name, while loaded
  bool load_tried = false;
  cudaError_t load_error = cudaSuccess;
  bool loaded = false;
  drv::Module mod;
  isa::Module module;
  uint32_t ptx_version = 0;  // 90 for PTX ISA 9.0
  uint32_t arch = 0;         // compute_XX of the PTX entry
};

struct StreamObj {
  drv::Stream s;
  bool non_blocking = false;  // cudaStreamNonBlocking: no implicit order with the default stream
};
struct EventObj {
  drv::Event e;
  bool timing = true;  // false: cudaEventDisableTiming
};

struct CallConfig {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
};

class Runtime {
 public:
  std::recursive_mutex mu;
  bool init_tried = false;
  cudaError_t init_error = cudaSuccess;
  std::string backend;
  std::unique_ptr<drv::Transport> transport;
  drv::Device dev;
  drv::Context ctx;
  cudaError_t sticky = cudaSuccess;
  std::vector<std::unique_ptr<FatbinReg>> fatbins;
  std::unordered_map<const void*, KernelReg*> by_host;
  std::map<uint32_t, uint32_t> allocs;  // device address -> bytes
  std::map<uint32_t, uint32_t> var_allocs;  // the modules' variables: device address -> bytes
  std::unordered_map<const void*, VarReg*> var_by_host;  // host shadow of a variable -> it
  std::set<StreamObj*> streams;
  std::set<EventObj*> events;
  std::set<std::string> unsupported_seen;
  std::unordered_map<uint64_t, KernelReg*> inflight;  // launch token -> kernel (stats)
  bool stats = false;
  unsigned device_flags = 0;
  cudaFuncCache cache_config = cudaFuncCachePreferNone;
};

Runtime& rt() {
  static Runtime* r = new Runtime;  // never destroyed: programs call us from atexit handlers
  return *r;
}

thread_local cudaError_t t_last_error = cudaSuccess;
thread_local std::vector<CallConfig> t_configs;

cudaError_t ret(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}

// ---- status mapping ------------------------------------------------------------------
cudaError_t map_status(drv::Status s) {
  using S = drv::Status;
  switch (s) {
    case S::OK: return cudaSuccess;
    case S::NOT_READY: return cudaErrorNotReady;
    case S::INVALID_VALUE: return cudaErrorInvalidValue;
    case S::INVALID_HANDLE: return cudaErrorInvalidResourceHandle;
    case S::NOT_INITIALIZED: return cudaErrorInitializationError;
    case S::OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case S::OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case S::TRANSPORT_ERROR: return cudaErrorUnknown;
    case S::UNSUPPORTED_DEVICE: return cudaErrorNoDevice;
    case S::DEVICE_ERROR: return cudaErrorUnknown;
    case S::INVALID_IMAGE: return cudaErrorInvalidKernelImage;
    case S::NO_BINARY_FOR_DEVICE: return cudaErrorNoKernelImageForDevice;
    case S::NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case S::INVALID_CONFIGURATION: return cudaErrorInvalidConfiguration;
    case S::LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case S::BAD_DESCRIPTOR: return cudaErrorLaunchFailure;
    case S::ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
    case S::INVALID_PC: return cudaErrorInvalidPc;
    case S::ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case S::MISALIGNED_ADDRESS: return cudaErrorMisalignedAddress;
    case S::TRAP: return cudaErrorLaunchFailure;  // __trap(): "unspecified launch failure" on a GPU
    case S::STACK_OVERFLOW: return cudaErrorHardwareStackError;
    case S::BARRIER_DEADLOCK: return cudaErrorLaunchFailure;
    case S::LAUNCH_TIMEOUT: return cudaErrorLaunchTimeout;
    case S::LAUNCH_FAILED: return cudaErrorLaunchFailure;
    case S::MEMORY_ERROR: return cudaErrorECCUncorrectable;
    case S::TIMEOUT: return cudaErrorLaunchTimeout;
    case S::CONTEXT_LOST: return cudaErrorLaunchFailure;
  }
  return cudaErrorUnknown;
}

bool is_fault(drv::Status s) {
  const drv::Layer l = drv::status_layer(s);
  return l == drv::Layer::EXECUTION || l == drv::Layer::CONTEXT_LOST;
}

// ---- the device ----------------------------------------------------------------------
void on_completion(void* user, const drv::LaunchReport& r) {
  Runtime& R = *static_cast<Runtime*>(user);
  auto it = R.inflight.find(r.token);
  if (it == R.inflight.end()) return;
  KernelReg* k = it->second;
  R.inflight.erase(it);
  k->launches++;
  k->cycles += r.stats.cycles;
  k->warp_instrs += r.stats.warp_instrs;
  k->thread_instrs += r.stats.thread_instrs;
}

// A whole number from the environment; false when malformed or out of [lo, hi].
bool parse_u64(const char* s, uint64_t lo, uint64_t hi, uint64_t* out) {
  if (!s || !*s || *s == '-' || *s == '+') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

// An output file named by the environment: refused unless it is (or can be
// created as) a regular file we can write; truncated now, so that a path
// that cannot be written costs no simulation.
bool check_output_file(const char* var, const char* path) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    note("%s=%s: not a regular file", var, path);
    return false;
  }
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    note("%s=%s: %s", var, path, std::strerror(errno));
    return false;
  }
  close(fd);
  return true;
}

// The options of `baresm run` that describe the device, from the
// environment (docs/cuda-runtime.md): BARESM_TRACE (--trace),
// BARESM_TRACE_WINDOW (--trace-window), BARESM_TIMELINE (--timeline),
// BARESM_MEM_LATENCY (--mem-latency), BARESM_MEM_SEED (--mem-seed). Each is
// the verilated device's; *rtl_only names those that are set. False (with a
// line naming the variable) when one is malformed.
bool device_settings_from_env(drv::DeviceSettings* s, std::string* rtl_only) {
  auto seen = [&](const char* var) {
    const char* v = std::getenv(var);
    if (v && *v) *rtl_only += std::string(rtl_only->empty() ? "" : ", ") + var;
    return v && *v ? v : nullptr;
  };
  const char* trace = seen("BARESM_TRACE");
  const char* window = seen("BARESM_TRACE_WINDOW");
  const char* timeline = seen("BARESM_TIMELINE");
  const char* latency = seen("BARESM_MEM_LATENCY");
  const char* seed = seen("BARESM_MEM_SEED");
  if (latency) {
    uint64_t v = 0;
    if (!parse_u64(latency, 1, 1000, &v)) {
      note("BARESM_MEM_LATENCY=%s: expected a fixed device-memory latency of 1 to 1000 cycles", latency);
      return false;
    }
    s->mem_latency = uint32_t(v);
  }
  if (seed && !parse_u64(seed, 0, UINT64_MAX, &s->mem_seed)) {
    note("BARESM_MEM_SEED=%s: expected a whole number (the device-memory model's seed)", seed);
    return false;
  }
  if (window) {
    const std::string w = window;
    const size_t colon = w.find(':');
    const std::string a = colon == std::string::npos ? "" : w.substr(0, colon);
    const std::string b = colon == std::string::npos ? "" : w.substr(colon + 1);
    if (colon == std::string::npos || b.find(':') != std::string::npos ||
        (!a.empty() && !parse_u64(a.c_str(), 0, UINT64_MAX, &s->trace_start)) ||
        (!b.empty() && !parse_u64(b.c_str(), 0, UINT64_MAX, &s->trace_end)) || s->trace_start > s->trace_end) {
      note("BARESM_TRACE_WINDOW=%s: expected START:END in cycles, START <= END (either side may be empty)", window);
      return false;
    }
    if (!trace) {
      note("BARESM_TRACE_WINDOW=%s: the window of a trace: set BARESM_TRACE=FILE.fst too", window);
      return false;
    }
  }
  if (trace) {
    if (!check_output_file("BARESM_TRACE", trace)) return false;
    s->trace_file = trace;
  }
  if (timeline) {
    if (!check_output_file("BARESM_TIMELINE", timeline)) return false;
    s->timeline_file = timeline;
  }
  return true;
}

// The backends this library has: the functional model always, the
// verilated device when the build had Verilator and SystemC.
std::string backend_names() {
#ifdef BARESM_CUDART_RTL
  return "'model' or 'rtl'";
#else
  return "'model'; 'rtl' is not built into this library (Verilator and SystemC were not found)";
#endif
}

cudaError_t ensure_device() {
  Runtime& R = rt();
  if (R.init_tried) return R.init_error;
  R.init_tried = true;
  const char* b = std::getenv("BARESM_BACKEND");
  R.backend = b && *b ? b : "model";
#ifdef BARESM_CUDART_RTL
  static const bool rtl_registered = (cosim::register_rtl_device(), true);
  (void)rtl_registered;
#endif
  const drv::DeviceEntry* entry = R.backend == "model" || R.backend == "rtl" ? drv::find_device(R.backend) : nullptr;
  if (!entry) {
    note("BARESM_BACKEND=%s: no such backend in this library (expected %s)", R.backend.c_str(),
         backend_names().c_str());
    return R.init_error = cudaErrorNoDevice;
  }
  drv::DeviceSettings settings;
  std::string rtl_only;
  if (!device_settings_from_env(&settings, &rtl_only)) return R.init_error = cudaErrorInvalidValue;
  if (R.backend != "rtl" && !rtl_only.empty()) {
    note("%s: the verilated device's settings (BARESM_BACKEND=rtl); the %s backend has no clock cycles or "
         "memory model to set",
         rtl_only.c_str(), R.backend.c_str());
    return R.init_error = cudaErrorInvalidValue;
  }
  cq::ModelDeviceConfig cfg;
  cfg.mem_bytes = 16u << 20;
  if (const char* m = std::getenv("BARESM_MEM_BYTES")) {
    uint64_t v = 0;
    if (R.backend == "rtl") {
      note("BARESM_MEM_BYTES=%s: the verilated device's memory is fixed when it is verilated "
           "(baresm_top's MemBytes); only the model's is set at run time",
           m);
      return R.init_error = cudaErrorInvalidValue;
    }
    if (!parse_bytes(m, &v) || v < (1u << 20) || v > (1ull << 31)) {
      note("BARESM_MEM_BYTES=%s: expected a size from 1M to 2G (e.g. 64M)", m);
      return R.init_error = cudaErrorInvalidValue;
    }
    cfg.mem_bytes = uint32_t(v);
  }
  // The registry's options for the device (the RTL's synchronize timeout is
  // device time), but no watchdog unless asked: a GPU without a display has none.
  drv::DeviceOptions opt = entry->options;
  opt.watchdog = 0;
  if (const char* w = std::getenv("BARESM_WATCHDOG")) {
    uint64_t v = 0;
    if (!parse_bytes(w, &v) || v > 0xFFFFFFFFu) {
      note("BARESM_WATCHDOG=%s: expected a budget per launch from 0 (none) to 4G", w);
      return R.init_error = cudaErrorInvalidValue;
    }
    opt.watchdog = uint32_t(v);
  }
  std::string why;
  try {
    if (R.backend == "model")
      R.transport = std::make_unique<drv::ModelTransport>(cfg);
    else
      R.transport = entry->open_transport(settings, &why);
  } catch (const std::exception& ex) {
    why = ex.what();
  }
  if (!R.transport) {
    note("cannot start the %s device: %s", R.backend.c_str(), why.empty() ? "no reason given" : why.c_str());
    return R.init_error = cudaErrorNoDevice;
  }
  drv::Status s = R.dev.open(R.transport.get(), opt);
  if (s == drv::Status::OK) s = R.dev.ctx_create(&R.ctx);
  if (s != drv::Status::OK) {
    note("cannot open the %s device: %s: %s", R.backend.c_str(), drv::status_name(s), R.dev.last_error().detail);
    return R.init_error = cudaErrorNoDevice;
  }
  R.stats = env_flag("BARESM_CUDART_STATS");
  R.dev.set_completion_hook(on_completion, &R);
  if (env_flag("BARESM_CUDART_VERBOSE"))
    note("baresm %s backend: %u lanes, %u warps, %u KiB shared, %u MiB device memory", R.backend.c_str(),
         R.dev.props().num_lanes, R.dev.props().num_warps, R.dev.props().shared_bytes >> 10,
         R.dev.props().mem_bytes >> 20);
  return cudaSuccess;
}

// The fault that made the context's error sticky, as the seed's layer-6
// table has it: layer, status, kernel and code offset, address, warp, lane, CTA.
void report_fault(drv::Status s) {
  Runtime& R = rt();
  drv::LaunchReport r;
  if (R.dev.ctx_last_failure(R.ctx, &r) != drv::Status::OK) {
    note("device fault: %s (%s), layer %s", drv::status_name(s), drv::status_message(s),
         drv::layer_name(drv::status_layer(s)));
    return;
  }
  std::string where = "pc 0x" + [&] {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", r.fault_pc);
    return std::string(b);
  }();
  for (const auto& fb : R.fatbins) {
    if (!fb->loaded) continue;
    drv::DevPtr base = 0;
    uint32_t bytes = 0;
    if (R.dev.module_code_range(fb->mod, &base, &bytes) != drv::Status::OK) continue;
    if (r.fault_pc < base || r.fault_pc >= base + bytes) continue;
    const uint32_t off = r.fault_pc - base;
    where = fb->module.offset_name(off) + " (" + where + ")";
    if (const isa::LineEntry* le = fb->module.line_for(off))
      where += ", PTX line " + std::to_string(le->line) + ":" + std::to_string(le->column);
  }
  note("kernel fault: %s (%s), layer %s: %s, address 0x%08x, warp %u, lane %u, CTA (%u,%u,%u)",
       drv::status_name(r.status), drv::status_message(r.status), drv::layer_name(drv::status_layer(r.status)),
       where.c_str(), r.fault_addr, r.fault_warp, r.fault_lane, r.fault_cta_xyz.x, r.fault_cta_xyz.y,
       r.fault_cta_xyz.z);
}

// A driver failure seen by a call: faults become sticky (reported once).
cudaError_t fail_with(drv::Status s) {
  Runtime& R = rt();
  if (is_fault(s)) {
    if (R.sticky == cudaSuccess) {
      R.sticky = map_status(s);
      report_fault(s);
    }
    return R.sticky;
  }
  return map_status(s);
}

// Waits, without a limit, while the device makes progress (a GPU waits forever).
template <class Wait>
drv::Status wait_done(Wait w) {
  drv::Status s;
  do s = w();
  while (s == drv::Status::TIMEOUT);
  return s;
}

cudaError_t sync_context() {
  Runtime& R = rt();
  const drv::Status s = wait_done([&] { return R.dev.ctx_synchronize(R.ctx); });
  if (s != drv::Status::OK) return fail_with(s);
  const drv::Status st = R.dev.ctx_get_error(R.ctx);
  return st == drv::Status::OK ? cudaSuccess : fail_with(st);
}

// The common entry of every call that needs the device: lock, open, sticky.
#define ENTER()                                            \
  Runtime& R = rt();                                       \
  std::lock_guard<std::recursive_mutex> lock_(R.mu);       \
  if (cudaError_t e_ = ensure_device(); e_ != cudaSuccess) \
    return ret(e_);                                        \
  if (R.sticky != cudaSuccess) return ret(R.sticky)

bool to_dev(const void* p, drv::DevPtr* out) {
  const uintptr_t v = reinterpret_cast<uintptr_t>(p);
  if (v > 0xFFFFFFFFu) return false;
  *out = drv::DevPtr(v);
  return true;
}

// The allocation holding p (nullptr when none).
bool find_alloc(const void* p, uint32_t* base, uint32_t* bytes) {
  drv::DevPtr d;
  if (!to_dev(p, &d) || d == 0) return false;
  Runtime& R = rt();
  for (const auto* m : {&R.allocs, &R.var_allocs}) {
    auto it = m->upper_bound(d);
    if (it == m->begin()) continue;
    --it;
    if (d >= it->first + uint64_t(it->second)) continue;
    *base = it->first;
    *bytes = it->second;
    return true;
  }
  return false;
}

// Device memory is handed out in whole 256-byte granules (cudaMalloc's
// alignment): the driver is asked for the rounded size, so that allocations
// made one after the other are adjacent and their memory windows merge into
// one (a launch gets at most CONFIG1.MAX_WINDOWS ranges, 4 on the RTL). A
// kernel's access in the padding does not fault, as on a GPU, whose
// allocations are as coarse; the copies are checked against the size asked for.
constexpr uint32_t kAllocGranule = 256;
uint32_t granules(uint64_t bytes) {
  return uint32_t((bytes + kAllocGranule - 1) / kAllocGranule * kAllocGranule);
}

// A device range [p, p + count) must lie in one allocation (or variable)
// when p is in one; false when it runs past its end.
bool within_alloc(const void* p, size_t count) {
  uint32_t base = 0, bytes = 0;
  if (!find_alloc(p, &base, &bytes)) return true;  // not ours: the driver checks it
  return uint64_t(reinterpret_cast<uintptr_t>(p)) + count <= uint64_t(base) + bytes;
}

bool resolve_stream(cudaStream_t s, drv::Stream* out) {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) {
    *out = drv::Stream{};
    return true;
  }
  auto* o = reinterpret_cast<StreamObj*>(s);
  if (!rt().streams.count(o)) return false;
  *out = o->s;
  return true;
}

// The legacy default stream's implicit order: work queued on it starts after
// everything queued before on the blocking streams, and work queued on a
// blocking stream after everything queued before on it. The driver's streams
// are independent queues, so the host waits for the other side first.
cudaError_t order_with_default_stream(drv::Stream target) {
  Runtime& R = rt();
  drv::Status st = drv::Status::OK;
  if (target.id == 0) {
    for (StreamObj* o : R.streams)
      if (!o->non_blocking && st == drv::Status::OK) st = wait_done([&] { return R.dev.stream_synchronize(o->s); });
  } else {
    for (StreamObj* o : R.streams)
      if (o->s.id == target.id && o->non_blocking) return cudaSuccess;
    drv::Stream d;
    st = R.dev.ctx_default_stream(R.ctx, &d);
    if (st == drv::Status::OK) st = wait_done([&] { return R.dev.stream_synchronize(d); });
  }
  return st == drv::Status::OK ? cudaSuccess : fail_with(st);
}

// ---- modules -------------------------------------------------------------------------
cudaError_t load_fatbin(FatbinReg& fb) {
  if (fb.load_tried) return fb.load_error;
  fb.load_tried = true;
  Runtime& R = rt();
  auto refuse = [&](cudaError_t e, const std::string& why) {
    note("%s", why.c_str());
    return fb.load_error = e;
  };
  std::string err;
  const uint8_t* data = nullptr;
  Fatbin parsed;
  if (!unwrap_fatbin(fb.wrapper, &data, &err) || !parse_fatbin(data, SIZE_MAX, &parsed, &err))
    return refuse(cudaErrorInvalidKernelImage, err);
  const FatbinEntry* e = best_ptx_entry(parsed);
  if (!e)
    return refuse(cudaErrorNoKernelImageForDevice,
                  "the fatbinary holds no PTX (only SASS for real GPUs): build with -arch=sm_XX, which embeds "
                  "compute_XX PTX, or add -gencode arch=compute_XX,code=compute_XX");
  std::string ptx;
  if (!entry_ptx(parsed, *e, &ptx, &err)) return refuse(cudaErrorInvalidKernelImage, err);
  fb.ptx_version = e->version_major * 10 + e->version_minor;
  fb.arch = e->arch;
  const std::string name = "compute_" + std::to_string(e->arch) + ".ptx";
  if (const char* dir = std::getenv("BARESM_CUDART_DUMP_PTX")) {
    const std::string path = std::string(dir) + "/" + name;
    std::ofstream(path, std::ios::binary) << ptx;
    note("PTX written to %s", path.c_str());
  }
  const auto t0 = std::chrono::steady_clock::now();
  isa::PtxResult r;
  try {
    r = isa::translate_ptx(ptx, name);
  } catch (const std::exception& ex) {
    return refuse(cudaErrorInvalidPtx, std::string("PTX translation failed: ") + ex.what());
  }
  if (!r.ok())
    return refuse(cudaErrorInvalidPtx, "the PTX front end refused the program's " + name + ":\n" + r.format_errors());
  fb.module = std::move(r.module);
  // The module's __device__/__constant__ variables: one allocation holds
  // them all, each at its alignment with the PTX's initialiser (the rest
  // zero), as loading a module does on a GPU. One allocation is one memory
  // window of the launches (the RTL has 4).
  if (!r.variables.empty()) {
    uint64_t end = 0;
    std::vector<uint32_t> at;
    for (const isa::PtxVariable& v : r.variables) {
      if (v.align > 256) return refuse(cudaErrorInvalidKernelImage, "variable " + v.name + ": alignment above 256");
      end = (end + v.align - 1) / v.align * v.align;
      at.push_back(uint32_t(end));
      end += std::max<uint32_t>(v.size, 1);
    }
    if (end > 0xFFFFFFFFu) return refuse(cudaErrorMemoryAllocation, "the module's variables exceed 4 GiB");
    std::vector<uint8_t> data(end, 0);
    for (size_t i = 0; i < r.variables.size(); ++i)
      std::copy(r.variables[i].init.begin(), r.variables[i].init.end(), data.begin() + at[i]);
    drv::DevPtr d = 0;
    drv::Status s = end > 0xFFFFFFFFu - (kAllocGranule - 1) ? drv::Status::OUT_OF_MEMORY
                                                              : R.dev.mem_alloc(R.ctx, granules(end), &d);
    if (s == drv::Status::OK) s = R.dev.memcpy_htod(R.ctx, d, data.data(), uint32_t(end));
    if (s != drv::Status::OK)
      return refuse(s == drv::Status::INVALID_VALUE || s == drv::Status::OUT_OF_MEMORY ? cudaErrorMemoryAllocation
                                                                                         : map_status(s),
                    "the module's " + std::to_string(r.variables.size()) + " variables (" + std::to_string(end) +
                        " bytes): " + drv::status_name(s) + ": " + R.dev.last_error().detail);
    for (size_t i = 0; i < r.variables.size(); ++i) {
      fb.var_mem[r.variables[i].name] = {d + at[i], r.variables[i].size};
      R.var_allocs[d + at[i]] = r.variables[i].size;
    }
  }
  const std::vector<uint8_t> image = isa::write_module(fb.module);
  const drv::Status s = R.dev.module_load_data(R.ctx, image.data(), image.size(), &fb.mod);
  if (s != drv::Status::OK)
    return refuse(map_status(s), std::string("module load: ") + drv::status_name(s) + ": " + R.dev.last_error().detail);
  fb.loaded = true;
  if (env_flag("BARESM_CUDART_VERBOSE")) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    note("%s (PTX ISA %u.%u, %zu bytes): translated and loaded in %.1f ms", name.c_str(), e->version_major,
         e->version_minor, ptx.size(), ms);
    for (const isa::PtxKernelInfo& ki : r.kernels) note("%s", ki.info_line().c_str());
  }
  for (auto& k : fb.kernels) {
    k->info = fb.module.find_kernel(k->name);
    const drv::Status fs = R.dev.module_get_function(fb.mod, k->name.c_str(), &k->fn);
    if (!k->info || fs != drv::Status::OK) {
      k->resolve_error = cudaErrorInvalidDeviceFunction;
      note("kernel %s: not found in the translated module (%s)", k->name.c_str(),
           fs != drv::Status::OK ? R.dev.last_error().detail : "no such kernel");
      continue;
    }
    k->param_var_addr.assign(k->info->params.size(), 0);
    k->user_params = 0;
    const std::string prefix = isa::kPtxVarParamPrefix;
    for (size_t i = 0; i < k->info->params.size(); ++i) {
      const std::string& pn = k->info->params[i].name;
      if (pn.compare(0, prefix.size(), prefix) != 0) {
        k->user_params = i + 1;
        continue;
      }
      k->param_var_addr[i] = fb.var_mem.at(pn.substr(prefix.size())).addr;
    }
  }
  return cudaSuccess;
}

cudaError_t ready_kernel(KernelReg* k) {
  if (!k) return cudaErrorInvalidDeviceFunction;
  if (cudaError_t e = load_fatbin(*k->fatbin); e != cudaSuccess) return e;
  return k->resolve_error;
}

KernelReg* kernel_by_host(const void* fun) {
  auto it = rt().by_host.find(fun);
  return it == rt().by_host.end() ? nullptr : it->second;
}

cudaError_t launch(KernelReg* k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
  ENTER();
  if (cudaError_t e = ready_kernel(k); e != cudaSuccess) return ret(e);
  drv::LaunchConfig cfg;
  cfg.grid = {grid.x, grid.y, grid.z};
  cfg.block = {block.x, block.y, block.z};
  if (shared > 0xFFFFFFFFu) return ret(cudaErrorInvalidValue);
  cfg.dynamic_shared = uint32_t(shared);
  if (!resolve_stream(stream, &cfg.stream)) return ret(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = order_with_default_stream(cfg.stream); e != cudaSuccess) return ret(e);
  const isa::KernelInfo& ki = *k->info;
  std::vector<drv::LaunchArg> la(ki.params.size());
  if (k->user_params && !args) return ret(cudaErrorInvalidValue);
  // The program's arguments, then the addresses of the variables the kernel uses.
  for (size_t i = 0; i < ki.params.size(); ++i)
    la[i] = {i < k->user_params ? args[i] : &k->param_var_addr[i], ki.params[i].size};
  uint64_t token = 0;
  const drv::Status s = R.dev.launch(k->fn, cfg, la.data(), uint32_t(la.size()), &token);
  if (s != drv::Status::OK) {
    if (env_flag("BARESM_CUDART_VERBOSE"))
      note("launch of %s refused: %s: %s", k->name.c_str(), drv::status_name(s), R.dev.last_error().detail);
    return ret(fail_with(s));
  }
  if (R.stats) R.inflight[token] = k;
  return cudaSuccess;
}

cudaError_t memcpy_impl(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  ENTER();
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return ret(cudaErrorInvalidValue);
  if (kind == cudaMemcpyDefault) {
    uint32_t b, n;
    const bool dd = find_alloc(dst, &b, &n), sd = find_alloc(src, &b, &n);
    kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
              : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  }
  if (kind == cudaMemcpyHostToHost) {
    std::memmove(dst, src, count);
    return cudaSuccess;
  }
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice)
    return ret(cudaErrorInvalidMemcpyDirection);
  if (count > 0xFFFFFFFFu) return ret(cudaErrorInvalidValue);
  if ((kind != cudaMemcpyHostToDevice && !within_alloc(src, count)) ||
      (kind != cudaMemcpyDeviceToHost && !within_alloc(dst, count)))
    return ret(cudaErrorInvalidValue);
  // cudaMemcpy waits for the work queued before it (the legacy default stream).
  if (cudaError_t e = sync_context(); e != cudaSuccess) return ret(e);
  drv::DevPtr d = 0, s = 0;
  drv::Status st;
  const uint32_t n = uint32_t(count);
  if (kind == cudaMemcpyHostToDevice) {
    if (!to_dev(dst, &d)) return ret(cudaErrorInvalidValue);
    st = R.dev.memcpy_htod(R.ctx, d, src, n);
  } else if (kind == cudaMemcpyDeviceToHost) {
    if (!to_dev(src, &s)) return ret(cudaErrorInvalidValue);
    st = R.dev.memcpy_dtoh(R.ctx, dst, s, n);
  } else {
    if (!to_dev(dst, &d) || !to_dev(src, &s)) return ret(cudaErrorInvalidValue);
    std::vector<uint8_t> tmp(n);  // the driver has no device-to-device copy: through the host
    st = R.dev.memcpy_dtoh(R.ctx, tmp.data(), s, n);
    if (st == drv::Status::OK) st = R.dev.memcpy_htod(R.ctx, d, tmp.data(), n);
  }
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

cudaError_t memset_impl(void* p, int value, size_t count) {
  ENTER();
  if (count == 0) return cudaSuccess;
  drv::DevPtr d;
  if (!to_dev(p, &d) || count > 0xFFFFFFFFu || !within_alloc(p, count)) return ret(cudaErrorInvalidValue);
  if (cudaError_t e = sync_context(); e != cudaSuccess) return ret(e);
  const drv::Status st = R.dev.memset_d8(R.ctx, d, uint8_t(value), uint32_t(count));
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

void print_stats() {
  Runtime& R = rt();
  for (const auto& fb : R.fatbins)
    for (const auto& k : fb->kernels)
      if (k->launches)
        std::fprintf(stderr,
                     "baresm cudart: kernel %s: %llu launches, %llu device cycles, %llu warp-instructions, %llu "
                     "thread-instructions\n",
                     k->name.c_str(), (unsigned long long)k->launches, (unsigned long long)k->cycles,
                     (unsigned long long)k->warp_instrs, (unsigned long long)k->thread_instrs);
}

// ---- error names ---------------------------------------------------------------------
#define BARESM_CUDART_ERRORS(X)                                                                      \
  X(cudaSuccess, "no error")                                                                         \
  X(cudaErrorInvalidValue, "invalid argument")                                                       \
  X(cudaErrorMemoryAllocation, "out of memory")                                                      \
  X(cudaErrorInitializationError, "initialization error")                                            \
  X(cudaErrorCudartUnloading, "driver shutting down")                                                \
  X(cudaErrorMissingConfiguration, "__global__ function call is not configured")                     \
  X(cudaErrorInvalidPitchValue, "invalid pitch argument")                                            \
  X(cudaErrorInvalidSymbol, "invalid device symbol")                                                 \
  X(cudaErrorInvalidHostPointer, "invalid host pointer")                                             \
  X(cudaErrorInvalidDevicePointer, "invalid device pointer")                                         \
  X(cudaErrorInvalidTexture, "invalid texture reference")                                            \
  X(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                            \
  X(cudaErrorInvalidConfiguration, "invalid configuration argument")                                 \
  X(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version")     \
  X(cudaErrorNoDevice, "no CUDA-capable device is detected")                                         \
  X(cudaErrorInvalidDevice, "invalid device ordinal")                                                \
  X(cudaErrorStartupFailure, "device init failed")                                                   \
  X(cudaErrorInvalidKernelImage, "device kernel image is invalid")                                   \
  X(cudaErrorDeviceUninitialized, "invalid device context")                                          \
  X(cudaErrorECCUncorrectable, "uncorrectable ECC error encountered")                                \
  X(cudaErrorUnsupportedPtxVersion, "the provided PTX was compiled with an unsupported toolchain.")   \
  X(cudaErrorInvalidPtx, "a PTX JIT compilation failed")                                             \
  X(cudaErrorInvalidSource, "device kernel image is invalid")                                        \
  X(cudaErrorSymbolNotFound, "named symbol not found")                                               \
  X(cudaErrorNotReady, "device not ready")                                                           \
  X(cudaErrorIllegalAddress, "an illegal memory access was encountered")                             \
  X(cudaErrorLaunchOutOfResources, "too many resources requested for launch")                        \
  X(cudaErrorLaunchTimeout, "the launch timed out and was terminated")                               \
  X(cudaErrorInvalidResourceHandle, "invalid resource handle")                                       \
  X(cudaErrorAssert, "device-side assert triggered")                                                 \
  X(cudaErrorHardwareStackError, "hardware stack error")                                             \
  X(cudaErrorIllegalInstruction, "an illegal instruction was encountered")                           \
  X(cudaErrorMisalignedAddress, "misaligned address")                                                \
  X(cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space")          \
  X(cudaErrorInvalidPc, "invalid program counter")                                                   \
  X(cudaErrorLaunchFailure, "unspecified launch failure")                                            \
  X(cudaErrorNotSupported, "operation not supported")                                                \
  X(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device")     \
  X(cudaErrorInvalidDeviceFunction, "invalid device function")                                       \
  X(cudaErrorDevicesUnavailable, "CUDA-capable device(s) is/are busy or unavailable")                \
  X(cudaErrorUnknown, "unknown error")

}  // namespace

int unsupported(const char* name) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  if (R.unsupported_seen.insert(name).second)
    note("%s is not implemented by baresm's CUDA runtime (cudaErrorNotSupported)", name);
  t_last_error = cudaErrorNotSupported;
  return int(cudaErrorNotSupported);
}

}  // namespace baresm::cudart

using namespace baresm;
using namespace baresm::cudart;

extern "C" {

// ---- what nvcc's generated host code calls -------------------------------------------------
void** __cudaRegisterFatBinary(void* fatCubin) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  auto fb = std::make_unique<FatbinReg>();
  fb->wrapper = fatCubin;
  void** handle = reinterpret_cast<void**>(fb.get());
  R.fatbins.push_back(std::move(fb));
  return handle;
}

void __cudaRegisterFatBinaryEnd(void** fatCubinHandle) {
  // Modules load at the first use of one of their kernels, as CUDA's lazy loading does.
}

void __cudaUnregisterFatBinary(void** fatCubinHandle) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  auto* fb = reinterpret_cast<FatbinReg*>(fatCubinHandle);
  if (R.stats && fb == R.fatbins.front().get()) {
    if (R.init_error == cudaSuccess && R.init_tried && R.sticky == cudaSuccess) R.dev.ctx_synchronize(R.ctx);
    print_stats();
  }
  if (fb->loaded && R.sticky == cudaSuccess) {
    R.dev.ctx_synchronize(R.ctx);
    R.dev.module_unload(fb->mod);
  }
  fb->loaded = false;
  for (auto& k : fb->kernels) R.by_host.erase(k->host_fun);
  for (auto& v : fb->vars) R.var_by_host.erase(v->host_var);
}

void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun, const char* deviceName,
                            int thread_limit, uint3* tid, uint3* bid, dim3* bDim, dim3* gDim, int* wSize) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  auto* fb = reinterpret_cast<FatbinReg*>(fatCubinHandle);
  auto k = std::make_unique<KernelReg>();
  k->host_fun = hostFun;
  k->name = deviceName ? deviceName : deviceFun;
  k->fatbin = fb;
  R.by_host[hostFun] = k.get();
  fb->kernels.push_back(std::move(k));
}

void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress, const char* deviceName, int ext,
                       size_t size, int constant, int global) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  auto* fb = reinterpret_cast<FatbinReg*>(fatCubinHandle);
  auto v = std::make_unique<VarReg>();
  v->host_var = hostVar;
  v->name = deviceName ? deviceName : "";
  v->size = size;
  v->constant = constant != 0;
  v->fatbin = fb;
  R.var_by_host[hostVar] = v.get();
  fb->vars.push_back(std::move(v));
}

char __cudaInitModule(void** fatCubinHandle) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  if (ensure_device() != cudaSuccess) return 0;
  return load_fatbin(*reinterpret_cast<FatbinReg*>(fatCubinHandle)) == cudaSuccess;
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st* stream) {
  t_configs.push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  if (t_configs.empty()) return ret(cudaErrorMissingConfiguration);
  const CallConfig c = t_configs.back();
  t_configs.pop_back();
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.shared;
  *static_cast<cudaStream_t*>(stream) = c.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  KernelReg* k = kernel_by_host(func);
  if (!kernel) return ret(cudaErrorInvalidValue);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(k);
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                               cudaStream_t stream) {
  return launch(reinterpret_cast<KernelReg*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t stream) {
  KernelReg* k;
  {
    std::lock_guard<std::recursive_mutex> lock(rt().mu);
    k = kernel_by_host(func);
  }
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  return launch(k, gridDim, blockDim, args, sharedMem, stream);
}

// ---- errors ----------------------------------------------------------------------------
cudaError_t cudaGetLastError(void) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  if (R.sticky != cudaSuccess) return R.sticky;  // a sticky error cannot be cleared
  const cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError(void) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  return R.sticky != cudaSuccess ? R.sticky : t_last_error;
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define BARESM_CUDART_NAME(name, msg) \
  case name:                          \
    return #name;
    BARESM_CUDART_ERRORS(BARESM_CUDART_NAME)
#undef BARESM_CUDART_NAME
    default: return "unrecognized error code";
  }
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define BARESM_CUDART_MSG(name, msg) \
  case name:                         \
    return msg;
    BARESM_CUDART_ERRORS(BARESM_CUDART_MSG)
#undef BARESM_CUDART_MSG
    default: return "unrecognized error code";
  }
}

// ---- device ----------------------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int* count) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  if (!count) return ret(cudaErrorInvalidValue);
  const cudaError_t e = ensure_device();
  *count = e == cudaSuccess ? 1 : 0;
  return ret(e);
}

cudaError_t cudaSetDevice(int device) {
  ENTER();
  return device == 0 ? cudaSuccess : ret(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int* device) {
  ENTER();
  if (!device) return ret(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  ENTER();
  return ret(sync_context());
}

cudaError_t cudaDeviceReset(void) {
  Runtime& R = rt();
  std::lock_guard<std::recursive_mutex> lock(R.mu);
  if (cudaError_t e = ensure_device(); e != cudaSuccess) return ret(e);
  // Everything of the primary context goes: its memory, modules, streams
  // and events, and a sticky error with it (the device is reset when one
  // was). The next call creates a new context; modules load again on use.
  const bool faulted = R.sticky != cudaSuccess;
  if (faulted) R.dev.reset();
  R.dev.ctx_destroy(R.ctx);
  for (StreamObj* s : R.streams) delete s;
  for (EventObj* e : R.events) delete e;
  R.streams.clear();
  R.events.clear();
  R.allocs.clear();
  R.var_allocs.clear();
  R.inflight.clear();
  for (auto& fb : R.fatbins) {
    fb->var_mem.clear();
    fb->load_tried = fb->loaded = false;
    fb->load_error = cudaSuccess;
    for (auto& k : fb->kernels) k->resolve_error = cudaSuccess, k->info = nullptr;
  }
  R.sticky = cudaSuccess;
  t_last_error = cudaSuccess;
  const drv::Status s = R.dev.ctx_create(&R.ctx);
  if (s != drv::Status::OK) {
    note("cudaDeviceReset: cannot create a new context: %s: %s", drv::status_name(s), R.dev.last_error().detail);
    return ret(cudaErrorUnknown);
  }
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  ENTER();
  if (!prop) return ret(cudaErrorInvalidValue);
  if (device != 0) return ret(cudaErrorInvalidDevice);
  const drv::DeviceProps& p = R.dev.props();
  uint32_t free_b = 0, total_b = 0;
  R.dev.mem_get_info(&free_b, &total_b);
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "baresm SM (%s, %u lanes x %u warps)", R.backend.c_str(), p.num_lanes,
                p.num_warps);
  prop->totalGlobalMem = total_b;
  prop->sharedMemPerBlock = p.shared_bytes;
  prop->regsPerBlock = int(p.regfile_regs);
  prop->warpSize = int(p.warp_size);
  prop->memPitch = 0xFFFFFFFFu;
  prop->maxThreadsPerBlock = int(p.max_threads_per_block);
  prop->maxThreadsDim[0] = int(p.max_block.x);
  prop->maxThreadsDim[1] = int(p.max_block.y);
  prop->maxThreadsDim[2] = int(p.max_block.z);
  prop->maxGridSize[0] = int(p.max_grid.x);
  prop->maxGridSize[1] = int(p.max_grid.y);
  prop->maxGridSize[2] = int(p.max_grid.z);
  // __constant__ variables live in device memory (no constant bank): CUDA's
  // 64 KiB, which ptxas holds programs to, is what a program may assume.
  prop->totalConstMem = 65536;
  // The PTX the library runs is nvcc's compute_90: programs that check the
  // compute capability see the architecture their PTX was written for.
  prop->major = 9;
  prop->minor = 0;
  prop->textureAlignment = 256;
  prop->multiProcessorCount = 1;
  prop->concurrentKernels = p.num_queues > 1;
  prop->maxThreadsPerMultiProcessor = int(p.num_warps * p.warp_size);
  prop->sharedMemPerMultiprocessor = p.shared_bytes;
  prop->regsPerMultiprocessor = int(p.regfile_regs);
  prop->sharedMemPerBlockOptin = p.shared_bytes;
  prop->maxBlocksPerMultiProcessor = int(p.cta_slots);
  prop->memoryBusWidth = 32;
  prop->unifiedAddressing = 0;
  prop->deviceNumaId = -1;
  prop->hostNumaId = -1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device) {
  ENTER();
  if (!value) return ret(cudaErrorInvalidValue);
  if (device != 0) return ret(cudaErrorInvalidDevice);
  const drv::DeviceProps& p = R.dev.props();
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = int(p.max_threads_per_block); break;
    case cudaDevAttrMaxBlockDimX: *value = int(p.max_block.x); break;
    case cudaDevAttrMaxBlockDimY: *value = int(p.max_block.y); break;
    case cudaDevAttrMaxBlockDimZ: *value = int(p.max_block.z); break;
    case cudaDevAttrMaxGridDimX: *value = int(p.max_grid.x); break;
    case cudaDevAttrMaxGridDimY: *value = int(p.max_grid.y); break;
    case cudaDevAttrMaxGridDimZ: *value = int(p.max_grid.z); break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.shared_bytes); break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = int(p.shared_bytes); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.shared_bytes); break;
    case cudaDevAttrWarpSize: *value = int(p.warp_size); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = int(p.regfile_regs); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = int(p.regfile_regs); break;
    case cudaDevAttrClockRate: *value = int(p.clock_khz); break;
    case cudaDevAttrMultiProcessorCount: *value = 1; break;
    case cudaDevAttrComputeCapabilityMajor: *value = 9; break;
    case cudaDevAttrComputeCapabilityMinor: *value = 0; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = int(p.num_warps * p.warp_size); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = int(p.cta_slots); break;
    case cudaDevAttrConcurrentKernels: *value = p.num_queues > 1; break;
    case cudaDevAttrTotalConstantMemory: *value = 65536; break;
    case cudaDevAttrUnifiedAddressing: *value = 0; break;
    case cudaDevAttrManagedMemory: *value = 0; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrCanMapHostMemory: *value = 0; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = 32; break;
    // Any host thread may use the device (one process-wide lock orders them).
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    default:
      note("cudaDeviceGetAttribute: attribute %d is not reported by baresm (cudaErrorNotSupported)", int(attr));
      return ret(cudaErrorNotSupported);
  }
  return cudaSuccess;
}

// No profiler attaches to baresm: as NVIDIA's runtime with none attached,
// both succeed and record nothing.
cudaError_t cudaProfilerStart(void) {
  ENTER();
  return cudaSuccess;
}

cudaError_t cudaProfilerStop(void) {
  ENTER();
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (!runtimeVersion) return ret(cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return ret(cudaErrorInvalidValue);
  *driverVersion = CUDART_VERSION;  // no NVIDIA driver: the runtime is its own driver
  return cudaSuccess;
}

// ---- memory ----------------------------------------------------------------------------
cudaError_t cudaMalloc(void** devPtr, size_t size) {
  ENTER();
  if (!devPtr) return ret(cudaErrorInvalidValue);
  *devPtr = nullptr;
  if (size == 0) return cudaSuccess;
  if (size > 0xFFFFFFFFu - (kAllocGranule - 1)) return ret(cudaErrorMemoryAllocation);
  drv::DevPtr d = 0;
  const drv::Status s = R.dev.mem_alloc(R.ctx, granules(size), &d);
  if (s != drv::Status::OK) return ret(s == drv::Status::INVALID_VALUE ? cudaErrorMemoryAllocation : fail_with(s));
  R.allocs[d] = uint32_t(size);
  *devPtr = reinterpret_cast<void*>(uintptr_t(d));
  return cudaSuccess;
}

cudaError_t cudaFree(void* devPtr) {
  ENTER();
  if (!devPtr) return cudaSuccess;
  drv::DevPtr d;
  if (!to_dev(devPtr, &d) || !R.allocs.count(d)) return ret(cudaErrorInvalidValue);
  const drv::Status s = R.dev.mem_free(R.ctx, d);
  if (s != drv::Status::OK) return ret(fail_with(s));
  R.allocs.erase(d);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  ENTER();
  uint32_t f = 0, t = 0;
  const drv::Status s = R.dev.mem_get_info(&f, &t);
  if (s != drv::Status::OK) return ret(fail_with(s));
  if (free) *free = f;
  if (total) *total = t;
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (!ptr) return ret(cudaErrorInvalidValue);
  *ptr = std::malloc(size ? size : 1);  // host memory the device never maps: ordinary memory
  return *ptr ? cudaSuccess : ret(cudaErrorMemoryAllocation);
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) { return cudaMallocHost(pHost, size); }

cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return memcpy_impl(dst, src, count, kind);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  {
    std::lock_guard<std::recursive_mutex> lock(rt().mu);
    drv::Stream s;
    if (!resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
  }
  // Ordered after everything queued (a stricter order than the stream's), done at once.
  return memcpy_impl(dst, src, count, kind);
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) { return memset_impl(devPtr, value, count); }

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  {
    std::lock_guard<std::recursive_mutex> lock(rt().mu);
    drv::Stream s;
    if (!resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
  }
  return memset_impl(devPtr, value, count);
}

// ---- streams ---------------------------------------------------------------------------
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  ENTER();
  if (!pStream) return ret(cudaErrorInvalidValue);
  if (flags & ~unsigned(cudaStreamNonBlocking)) return ret(cudaErrorInvalidValue);
  auto* o = new StreamObj;
  o->non_blocking = (flags & cudaStreamNonBlocking) != 0;
  const drv::Status s = R.dev.stream_create(R.ctx, &o->s);
  if (s != drv::Status::OK) {
    delete o;
    return ret(fail_with(s));
  }
  R.streams.insert(o);
  *pStream = reinterpret_cast<cudaStream_t>(o);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) { return cudaStreamCreateWithFlags(pStream, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  ENTER();
  auto* o = reinterpret_cast<StreamObj*>(stream);
  if (!R.streams.count(o)) return ret(cudaErrorInvalidResourceHandle);
  // The stream's queued work still runs (as in CUDA); the driver's handle goes once it has.
  const drv::Status w = wait_done([&] { return R.dev.stream_synchronize(o->s); });
  R.dev.stream_destroy(o->s);
  R.streams.erase(o);
  delete o;
  return w == drv::Status::OK ? cudaSuccess : ret(fail_with(w));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  ENTER();
  drv::Stream s;
  if (!resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
  if (s.id == 0) return ret(sync_context());  // the legacy default stream waits for every stream
  const drv::Status w = wait_done([&] { return R.dev.stream_synchronize(s); });
  return w == drv::Status::OK ? cudaSuccess : ret(fail_with(w));
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  ENTER();
  drv::Stream s;
  if (!resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
  if (s.id == 0) R.dev.ctx_default_stream(R.ctx, &s);
  const drv::Status q = R.dev.stream_query(s);
  if (q == drv::Status::NOT_READY) return cudaErrorNotReady;  // not an error: not recorded as the last one
  return q == drv::Status::OK ? cudaSuccess : ret(fail_with(q));
}

// ---- events ----------------------------------------------------------------------------
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  ENTER();
  if (!event) return ret(cudaErrorInvalidValue);
  if (flags & ~unsigned(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess))
    return ret(cudaErrorInvalidValue);
  if (flags & cudaEventInterprocess) {
    note("cudaEventCreateWithFlags: cudaEventInterprocess: no IPC (cudaErrorNotSupported)");
    return ret(cudaErrorNotSupported);
  }
  auto* o = new EventObj;
  o->timing = !(flags & cudaEventDisableTiming);
  const drv::Status s = R.dev.event_create(R.ctx, &o->e);
  if (s != drv::Status::OK) {
    delete o;
    return ret(fail_with(s));
  }
  R.events.insert(o);
  *event = reinterpret_cast<cudaEvent_t>(o);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

static EventObj* event_obj(cudaEvent_t e) {
  auto* o = reinterpret_cast<EventObj*>(e);
  return rt().events.count(o) ? o : nullptr;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  ENTER();
  EventObj* o = event_obj(event);
  if (!o) return ret(cudaErrorInvalidResourceHandle);
  R.dev.event_destroy(o->e);
  R.events.erase(o);
  delete o;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  ENTER();
  EventObj* o = event_obj(event);
  drv::Stream s;
  if (!o || !resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = order_with_default_stream(s); e != cudaSuccess) return ret(e);
  const drv::Status st = R.dev.event_record(o->e, s);
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  ENTER();
  EventObj* o = event_obj(event);
  if (!o) return ret(cudaErrorInvalidResourceHandle);
  const drv::Status st = wait_done([&] { return R.dev.event_synchronize(o->e); });
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  ENTER();
  EventObj* o = event_obj(event);
  if (!o) return ret(cudaErrorInvalidResourceHandle);
  R.dev.poll();
  const drv::Status st = R.dev.event_query(o->e);
  if (st == drv::Status::NOT_READY) return cudaErrorNotReady;
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  ENTER();
  EventObj* a = event_obj(start);
  EventObj* b = event_obj(end);
  if (!ms) return ret(cudaErrorInvalidValue);
  if (!a || !b || !a->timing || !b->timing) return ret(cudaErrorInvalidResourceHandle);
  const drv::Status st = R.dev.event_elapsed_ms(a->e, b->e, ms);
  if (st == drv::Status::NOT_READY) return ret(cudaErrorNotReady);
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

// ---- functions -------------------------------------------------------------------------
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func) {
  ENTER();
  if (!attr) return ret(cudaErrorInvalidValue);
  KernelReg* k = kernel_by_host(func);
  if (cudaError_t e = ready_kernel(k); e != cudaSuccess) return ret(e);
  drv::FunctionAttrs fa;
  const drv::Status s = R.dev.func_get_attributes(k->fn, &fa);
  if (s != drv::Status::OK) return ret(fail_with(s));
  std::memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = fa.shared_bytes;
  attr->constSizeBytes = 0;
  attr->localSizeBytes = fa.local_bytes;
  attr->maxThreadsPerBlock = int(fa.max_threads_per_block);
  attr->numRegs = int(fa.regs);
  attr->ptxVersion = int(k->fatbin->ptx_version);
  attr->binaryVersion = int(k->fatbin->arch);
  attr->maxDynamicSharedSizeBytes = int(R.dev.props().shared_bytes - fa.shared_bytes);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  ENTER();
  if (flags != cudaOccupancyDefault && flags != cudaOccupancyDisableCachingOverride) return ret(cudaErrorInvalidValue);
  if (!numBlocks || blockSize <= 0 || dynamicSMemSize > 0xFFFFFFFFu) return ret(cudaErrorInvalidValue);
  KernelReg* k = kernel_by_host(func);
  if (cudaError_t e = ready_kernel(k); e != cudaSuccess) return ret(e);
  uint32_t ctas = 0;
  const drv::Status s =
      R.dev.occupancy(k->fn, drv::Dim3{uint32_t(blockSize), 1, 1}, uint32_t(dynamicSMemSize), 0, &ctas);
  if (s != drv::Status::OK) return ret(fail_with(s));
  *numBlocks = int(ctas);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                cudaOccupancyDefault);
}

}  // extern "C"

// ---- the per-thread default stream (nvcc --default-stream per-thread) ----------------------
// The headers rename these calls to *_ptsz / *_ptds. Stream 0 then means the
// calling thread's default stream; the library runs it as the legacy default
// stream, whose order is stricter (it also waits for the other streams).
extern "C" {

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                    cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                  cudaStream_t stream) {
  return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream) {
  return cudaMemcpyAsync(dst, src, count, kind, stream);
}

cudaError_t cudaMemset_ptds(void* devPtr, int value, size_t count) { return cudaMemset(devPtr, value, count); }

cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return cudaMemsetAsync(devPtr, value, count, stream);
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { return cudaStreamQuery(stream); }

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecord(event, stream); }

// The stream's later work must wait for the event: the host waits for it
// before anything more is queued (stricter than CUDA's order, never looser).
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  ENTER();
  drv::Stream s;
  EventObj* o = event_obj(event);
  if (!o || !resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
  if (flags != cudaEventWaitDefault) return ret(cudaErrorInvalidValue);
  const drv::Status st = wait_done([&] { return R.dev.event_synchronize(o->e); });
  return st == drv::Status::OK ? cudaSuccess : ret(fail_with(st));
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return cudaStreamWaitEvent(stream, event, flags);
}

}  // extern "C"

// ---- more of the API: pitched memory, host functions, pointers, preferences ---------------
namespace {

// Waits for the work queued on stream (the whole context for the default stream).
cudaError_t sync_stream(drv::Stream s) {
  Runtime& R = rt();
  if (s.id == 0) return sync_context();
  const drv::Status w = wait_done([&] { return R.dev.stream_synchronize(s); });
  return w == drv::Status::OK ? cudaSuccess : fail_with(w);
}

bool valid_cache(cudaFuncCache c) {
  return c == cudaFuncCachePreferNone || c == cudaFuncCachePreferShared || c == cudaFuncCachePreferL1 ||
         c == cudaFuncCachePreferEqual;
}

constexpr size_t kPitchAlign = 256;  // = cudaDeviceProp::textureAlignment

}  // namespace

extern "C" {

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  ENTER();
  const unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax | cudaDeviceSyncMemops;
  if (flags & ~known) return ret(cudaErrorInvalidValue);
  if (flags & cudaDeviceMapHost) {
    note("cudaSetDeviceFlags: cudaDeviceMapHost: the device cannot map host memory (cudaErrorNotSupported)");
    return ret(cudaErrorNotSupported);
  }
  // The scheduling policies all mean the same here: the host steps the device until the work is done.
  R.device_flags = flags;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  ENTER();
  if (!flags) return ret(cudaErrorInvalidValue);
  *flags = R.device_flags;
  return cudaSuccess;
}

// Cache preferences: recorded and checked; baresm's shared memory is its own
// SRAM, not carved from an L1, so there is nothing to reconfigure (as on a
// GPU whose L1 and shared memory do not share resources).
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
  ENTER();
  if (!valid_cache(cacheConfig)) return ret(cudaErrorInvalidValue);
  R.cache_config = cacheConfig;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache* pCacheConfig) {
  ENTER();
  if (!pCacheConfig) return ret(cudaErrorInvalidValue);
  *pCacheConfig = R.cache_config;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig) {
  ENTER();
  KernelReg* k = kernel_by_host(func);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  if (!valid_cache(cacheConfig)) return ret(cudaErrorInvalidValue);
  k->cache_config = cacheConfig;
  return cudaSuccess;
}

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (!devPtr || !pitch) return ret(cudaErrorInvalidValue);
  const size_t p = (width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
  if (height && p > SIZE_MAX / height) return ret(cudaErrorMemoryAllocation);
  const cudaError_t e = cudaMalloc(devPtr, p * height);
  if (e == cudaSuccess) *pitch = p;
  return e;
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return ret(cudaErrorInvalidPitchValue);
  for (size_t y = 0; y < height; ++y) {
    const cudaError_t e = memcpy_impl(static_cast<char*>(dst) + y * dpitch,
                                      static_cast<const char*>(src) + y * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch) return ret(cudaErrorInvalidPitchValue);
  for (size_t y = 0; y < height; ++y) {
    const cudaError_t e = memset_impl(static_cast<char*>(devPtr) + y * pitch, value, width);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

// A host function runs after the stream's queued work: the host waits for
// it, then calls fn (later work on the stream is queued after the call returns).
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  {
    ENTER();
    drv::Stream s;
    if (!fn) return ret(cudaErrorInvalidValue);
    if (!resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = sync_stream(s); e != cudaSuccess) return ret(e);
  }
  fn(userData);
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
  cudaError_t status;
  {
    Runtime& R = rt();
    std::lock_guard<std::recursive_mutex> lock(R.mu);
    if (cudaError_t e = ensure_device(); e != cudaSuccess) return ret(e);
    drv::Stream s;
    if (!callback || flags != 0) return ret(cudaErrorInvalidValue);
    if (!resolve_stream(stream, &s)) return ret(cudaErrorInvalidResourceHandle);
    status = R.sticky != cudaSuccess ? R.sticky : sync_stream(s);  // the callback gets the stream's error
  }
  callback(stream, status, userData);
  return cudaSuccess;
}

}  // extern "C"

// ---- __device__ and __constant__ variables ---------------------------------------------------
namespace {

// The device memory of the variable whose host shadow is `symbol` (what
// nvcc's registration gave __cudaRegisterVar); its module is loaded first.
cudaError_t symbol_memory(const void* symbol, VarMem* out) {
  Runtime& R = rt();
  auto it = R.var_by_host.find(symbol);
  if (it == R.var_by_host.end()) return cudaErrorInvalidSymbol;
  VarReg& v = *it->second;
  if (cudaError_t e = load_fatbin(*v.fatbin); e != cudaSuccess) return e;
  auto m = v.fatbin->var_mem.find(v.name);
  if (m == v.fatbin->var_mem.end()) {
    note("variable %s: registered by the program but not defined in its PTX", v.name.c_str());
    return cudaErrorInvalidSymbol;
  }
  *out = m->second;
  return cudaSuccess;
}

cudaError_t memcpy_symbol(bool to, void* other, const void* symbol, size_t count, size_t offset,
                          cudaMemcpyKind kind, const cudaStream_t* stream) {
  VarMem m;
  {
    ENTER();
    if (stream) {
      drv::Stream s;
      if (!resolve_stream(*stream, &s)) return ret(cudaErrorInvalidResourceHandle);
    }
    if (cudaError_t e = symbol_memory(symbol, &m); e != cudaSuccess) return ret(e);
    if (offset > m.size || count > m.size - offset) return ret(cudaErrorInvalidValue);
    if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
        kind != (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
      return ret(cudaErrorInvalidMemcpyDirection);
  }
  void* var = reinterpret_cast<void*>(uintptr_t(m.addr + offset));
  // Ordered after everything queued and done at once, as cudaMemcpy(Async).
  return to ? memcpy_impl(var, other, count, kind) : memcpy_impl(other, var, count, kind);
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind) {
  return memcpy_symbol(true, const_cast<void*>(src), symbol, count, offset, kind, nullptr);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind) {
  return memcpy_symbol(false, dst, symbol, count, offset, kind, nullptr);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream) {
  return memcpy_symbol(true, const_cast<void*>(src), symbol, count, offset, kind, &stream);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  return memcpy_symbol(false, dst, symbol, count, offset, kind, &stream);
}

cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, stream);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream);
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  ENTER();
  if (!devPtr) return ret(cudaErrorInvalidValue);
  VarMem m;
  if (cudaError_t e = symbol_memory(symbol, &m); e != cudaSuccess) return ret(e);
  *devPtr = reinterpret_cast<void*>(uintptr_t(m.addr));
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  ENTER();
  if (!size) return ret(cudaErrorInvalidValue);
  VarMem m;
  if (cudaError_t e = symbol_memory(symbol, &m); e != cudaSuccess) return ret(e);
  *size = m.size;
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr) {
  ENTER();
  if (!attributes) return ret(cudaErrorInvalidValue);
  std::memset(attributes, 0, sizeof *attributes);
  uint32_t base, bytes;
  if (find_alloc(ptr, &base, &bytes)) {
    attributes->type = cudaMemoryTypeDevice;
    attributes->device = 0;
    attributes->devicePointer = const_cast<void*>(ptr);
  } else {
    attributes->type = cudaMemoryTypeUnregistered;  // host memory (the device maps none)
    attributes->device = 0;
    attributes->hostPointer = const_cast<void*>(ptr);
  }
  return cudaSuccess;
}

}  // extern "C"
