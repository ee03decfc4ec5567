// The baresm host driver: firmware-style, in the spirit of the CUDA driver
// API. Every device action is a register access or a device-memory copy
// through a Transport; state is fixed-size tables (the allocator's grow with
// device memory); every call returns a Status (no exceptions).
// docs/driver.md describes the layers, the status codes and the recovery
// sequence.
//
//   Device     open over a transport; properties come from ID/VERSION/CONFIG*
//   Context    owns allocations, modules, streams, events and a sticky error
//   Module     a .bsm image checked against the device, its code copied into device memory
//   Function   a kernel of a module
//   Stream     an in-order queue of launches, mapped onto a hardware queue pair
//   Event      a marker in a stream (a fence token): query, synchronize, elapsed time
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "contract/rings.h"
#include "host_driver/allocator.h"
#include "host_driver/handle_table.h"
#include "host_driver/ring_io.h"
#include "host_driver/status.h"
#include "host_driver/transport.h"
#include "isa/iss.h"
#include "isa/params.h"

namespace baresm::drv {

// ---- handles (0 is never valid) ------------------------------------------------
struct Context {
  uint32_t id = 0;
};
struct Stream {
  uint32_t id = 0;
};  // Stream{} = the default stream of the context
struct Event {
  uint32_t id = 0;
};
struct Module {
  uint32_t id = 0;
};
struct Function {
  uint32_t id = 0;
};
using DevPtr = uint32_t;  // device address; 0 is never allocated

// Grid and block sizes: the ISS's Dim3, one type from the kernel to the driver.
using Dim3 = iss::Dim3;

// Timeouts are in nanoseconds of device time; kWaitDefault means
// DeviceOptions::sync_timeout_ns.
constexpr uint64_t kWaitDefault = ~0ull;

// ---- fixed limits of the driver's tables --------------------------------------------
constexpr int kMaxContexts = 8;
constexpr int kMaxStreams = 32;
constexpr int kMaxEvents = 64;
constexpr int kMaxModules = 16;
constexpr int kMaxKernels = 16;  // per module
constexpr int kMaxParams = 32;   // per kernel
constexpr int kMaxNameLen = 48;
constexpr int kMaxQueues = 8;
constexpr int kMaxSqEntries = 256;
constexpr uint32_t kMaxCqEntries = 65536;  // the device's ring-size limit (QSTATUS.CONFIG_ERROR beyond)
constexpr int kMaxLaunchWindows = 16;
// kGenRetired (handle generations are 24 bits): host_driver/handle_table.h.

// Device::open checks every field against the range written beside it and
// refuses a value outside it with INVALID_VALUE, and options whose rings,
// slots and code pool together do not fit device memory with OUT_OF_MEMORY;
// the message names the option and the numbers.
struct DeviceOptions {
  uint32_t queues = 0;       // queue pairs to use: 0 = every one the device has, else 1..min(device, kMaxQueues)
  // Ring entries: a power of two, 1..kMaxSqEntries / 1..kMaxCqEntries; 0 =
  // 64, or the largest power of two below it with which the rings and the
  // code pool fit device memory (Device::options() tells the sizes taken).
  uint32_t sq_entries = 0;   // submission ring
  uint32_t cq_entries = 0;   // completion ring
  // Parameter buffer per launch slot: 0..isa::kMaxParamBytes, rounded up to 8.
  uint32_t max_param_bytes = 448;
  // Device memory for module code, inside the protected range; 0 = an
  // eighth of device memory, at least 64 KiB or a quarter of it (a small
  // board), else rounded up to 256.
  uint32_t code_pool_bytes = 0;
  bool use_irq = true;                       // false: poll the rings every poll_interval_ns
  uint64_t sync_timeout_ns = 1000000000ull;  // default wait timeout (1 s of device time): at least 1
  uint64_t hang_window_ns = 100000;          // PROGRESS must move within this window, else hung: 1..sync_timeout_ns
  uint64_t poll_interval_ns = 2000;          // at least 1
  uint32_t watchdog = 0;  // WATCHDOG register (default budget; 0 = none): any value
};

// What the device reports in ID/VERSION/CONFIG*, plus what follows from it.
struct DeviceProps {
  uint32_t arch_id = 0;
  uint32_t version_major = 0, version_minor = 0, ring_version = 0;
  uint32_t num_lanes = 0, num_warps = 0, cta_slots = 0, num_banks = 0;
  uint32_t max_regs_per_thread = 0, stack_depth = 0, num_queues = 0, max_windows = 0;
  uint32_t shared_bytes = 0;  // per SM, also the per-CTA maximum
  uint32_t regfile_regs = 0;
  uint32_t mem_bytes = 0;
  uint32_t clock_khz = 0;
  bool has_fpu = true;  // CONFIG6.HAS_FPU: modules whose kernels use the FPU load only with it
  // The protected range the driver programs (PROT_BASE/PROT_SIZE): its rings,
  // descriptors, parameter buffers and module code; no kernel can reach it.
  uint32_t protected_base = 0, protected_bytes = 0;
  // derived
  uint32_t warp_size = 32;
  uint32_t max_threads_per_block = 0;  // min(1024, num_warps * 32)
  Dim3 max_block{1024, 1024, 64};
  Dim3 max_grid{0x7FFFFFFFu, 65535, 65535};
};

struct FunctionAttrs {
  uint32_t regs = 0;          // registers per thread the kernel declares
  uint32_t shared_bytes = 0;  // static shared memory
  uint32_t param_bytes = 0;
  uint32_t num_params = 0;
  uint32_t code_bytes = 0;
  uint32_t max_threads_per_block = 0;  // the most this device can run for it
  uint32_t local_bytes = 0;            // local memory per thread (spills, .local arrays)
};

struct Window {
  uint32_t base = 0, size = 0;
};

struct LaunchConfig {
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;  // added to the kernel's static shared memory
  uint32_t regs = 0;            // registers per thread; 0 = what the kernel declares
  Stream stream;                // Stream{} = the context's default stream
  uint32_t watchdog = 0;        // budget for this launch; 0 = the WATCHDOG register's
  // Windows the kernel may touch; when num_windows is 0 the driver grants
  // the context's data allocations (merged where adjacent).
  const Window* windows = nullptr;
  uint32_t num_windows = 0;
};

// One kernel argument: its bytes, in parameter-table order. The packer's own
// type (isa/params.h: isa::pack_params, the one parameter packer).
using LaunchArg = isa::ParamArg;

// Every counter the device reports for one launch, from its completion entry
// (contract/rings.def, docs/ring-formats.md: which ones the functional model
// leaves 0). All zero for markers, bad descriptors and launches the driver
// reported lost.
struct LaunchStats {
  static constexpr int kWarpStates = cq::CompletionEntry::kWarpStates;  // contract/states.def
  uint64_t cycles = 0;                   // end_cycle - start_cycle (the device's CYCLES)
  uint32_t sm_cycles = 0;                // the SM's own count of the launch's cycles
  uint32_t warp_instrs = 0, thread_instrs = 0, stall_cycles = 0, shared_passes = 0, ctas_done = 0;
  uint32_t div_branches = 0, bar_releases = 0, gmem_requests = 0, ifetch_fills = 0;
  uint32_t warp_state_cycles[kWarpStates] = {};  // warp-cycles per state, summed over warp slots
  double ipc() const { return cycles ? double(warp_instrs) / double(cycles) : 0.0; }
};
// The counters of a completion entry.
LaunchStats launch_stats(const cq::CompletionEntry& e);

// The outcome of one submitted launch or marker, as the driver learned it.
struct LaunchReport {
  uint64_t token = 0;
  Context ctx;
  Stream stream;
  uint32_t queue = 0;
  bool marker = false;       // an event record, not a kernel
  Dim3 grid{0, 0, 0};        // the launch's grid (0 for markers)
  bool from_device = false;  // false: the driver reported it (CONTEXT_LOST after a reset)
  cq::CplStatus cpl_status = cq::CplStatus::PENDING;
  cq::ErrorCode error = cq::ErrorCode::OK;
  Status status = Status::OK;  // the driver status for error
  uint32_t fault_pc = 0, fault_addr = 0, fault_warp = 0, fault_lane = 0;
  uint32_t fault_cta = 0;  // linear
  Dim3 fault_cta_xyz{0, 0, 0};
  uint64_t start_cycle = 0, end_cycle = 0;
  LaunchStats stats;  // every counter of the completion entry, once
  const cq::CompletionEntry* raw = nullptr;  // the device's entry (valid during the hook only)
};

// Called once for every launch and marker: when its completion entry is
// consumed, or when a reset makes the driver report it lost.
using CompletionHook = void (*)(void* user, const LaunchReport& report);

// The last failure of a call, with the layer where it happened and why.
struct ErrorInfo {
  Status status = Status::OK;
  Layer layer = Layer::NONE;
  char detail[256] = {};
};

struct DeviceCounters {
  uint64_t cycles = 0, warp_instrs = 0;
  uint32_t launches = 0, failed = 0, progress = 0;
};

// Driver-side statistics, for tests and benchmarks.
struct DriverStats {
  uint64_t submitted = 0;  // descriptors written (launches + markers)
  uint64_t completed = 0;  // entries consumed from the device
  uint64_t lost = 0;       // reported CONTEXT_LOST by the driver
  uint64_t resets = 0;
  uint64_t hang_checks = 0;
  uint64_t irq_wakeups = 0;
};

class Device {
 public:
  Device();
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // ---- device ----
  // Resets the device, reads and checks ID/VERSION/CONFIG, sets up the rings.
  Status open(Transport* transport, const DeviceOptions& options = {});
  Status close();
  bool is_open() const { return transport_ != nullptr; }
  const DeviceProps& props() const { return props_; }
  const DeviceOptions& options() const { return opt_; }
  Transport* transport() const { return transport_; }
  const ErrorInfo& last_error() const { return err_; }
  const DriverStats& stats() const { return stats_; }
  void set_completion_hook(CompletionHook hook, void* user) {
    hook_ = hook;
    hook_user_ = user;
  }
  // Processes whatever completions the device has written, without waiting.
  Status poll();
  // Waits for every pending launch of every context.
  Status synchronize(uint64_t timeout_ns = kWaitDefault);
  // Soft-resets the device; every pending launch is reported CONTEXT_LOST and
  // its context becomes lost. Contexts with nothing pending survive.
  Status reset();
  // Reads PROGRESS twice, hang_window_ns apart (completions are processed meanwhile).
  Status check_progress(bool* progressing);
  Status read_counters(DeviceCounters* out);
  // Launches submitted and not yet reported.
  uint32_t pending() const;

  // ---- contexts ----
  Status ctx_create(Context* out);
  Status ctx_destroy(Context c);
  // The context's sticky error: OK, an EXECUTION status, or CONTEXT_LOST.
  Status ctx_get_error(Context c) const;
  // The launch that made the context's error sticky.
  Status ctx_last_failure(Context c, LaunchReport* out) const;
  Status ctx_synchronize(Context c, uint64_t timeout_ns = kWaitDefault);
  Status ctx_default_stream(Context c, Stream* out) const;

  // ---- memory ----
  Status mem_alloc(Context c, uint32_t bytes, DevPtr* out);
  // Safe while launches that use p are queued (as cudaFree is): p stops
  // belonging to c at once, but its memory becomes allocatable again only
  // when every launch c had queued at the time has completed (or was
  // reported lost by a reset). Module code is released the same way.
  Status mem_free(Context c, DevPtr p);
  // free_bytes: allocatable now (memory waiting on queued launches is not).
  Status mem_get_info(uint32_t* free_bytes, uint32_t* total_bytes) const;
  // Bytes freed but still held for queued launches.
  uint32_t mem_pending_free_bytes() const;
  // Synchronous copies; the range must lie inside one allocation of c.
  Status memcpy_htod(Context c, DevPtr dst, const void* src, uint32_t bytes);
  Status memcpy_dtoh(Context c, void* dst, DevPtr src, uint32_t bytes);
  Status memset_d8(Context c, DevPtr dst, uint8_t value, uint32_t bytes);

  // ---- modules ----
  Status module_load_data(Context c, const void* image, size_t size, Module* out);
  Status module_load_file(Context c, const char* path, Module* out);
  Status module_unload(Module m);
  Status module_get_function(Module m, const char* name, Function* out);
  // Where the module's code lives in device memory (fault pc -> code offset -> source line).
  Status module_code_range(Module m, DevPtr* base, uint32_t* bytes) const;
  Status func_get_attributes(Function f, FunctionAttrs* out) const;
  // CTAs of this kernel that fit on the SM at once (0: the launch cannot run).
  Status occupancy(Function f, Dim3 block, uint32_t dynamic_shared, uint32_t regs, uint32_t* ctas) const;

  // ---- launch ----
  // Checks the configuration against the device's limits before anything is
  // queued, packs the arguments at the kernel's parameter offsets, writes the
  // window table and the descriptor, rings the doorbell.
  Status launch(Function f, const LaunchConfig& cfg, const LaunchArg* args, uint32_t num_args,
                uint64_t* token = nullptr);
  // The same with an already packed parameter buffer (its size must match).
  Status launch_packed(Function f, const LaunchConfig& cfg, const void* params, uint32_t param_bytes,
                       uint64_t* token = nullptr);
  // The report of a finished launch, by token (NOT_READY while pending;
  // INVALID_VALUE when the token is too old to be remembered).
  Status launch_result(uint64_t token, LaunchReport* out) const;

  // ---- streams ----
  Status stream_create(Context c, Stream* out);
  Status stream_destroy(Stream s);
  Status stream_query(Stream s);
  Status stream_synchronize(Stream s, uint64_t timeout_ns = kWaitDefault);
  Status stream_queue(Stream s, uint32_t* queue) const;

  // ---- events ----
  Status event_create(Context c, Event* out);
  Status event_destroy(Event e);
  Status event_record(Event e, Stream s);
  Status event_query(Event e);
  Status event_synchronize(Event e, uint64_t timeout_ns = kWaitDefault);
  // Device time between two completed events, from their completion timestamps.
  Status event_elapsed_ms(Event start, Event end, float* ms) const;
  Status event_timestamp(Event e, uint64_t* cycle) const;

 private:
  using ParamRec = isa::ParamSlot;  // what isa::pack_params packs against
  struct KernelRec {
    char name[kMaxNameLen];
    uint32_t entry, code_bytes, regs, shared_bytes, param_bytes, num_params;
    uint32_t local_bytes;  // per thread; nonzero: the launch passes the local buffer (hidden parameter)
    ParamRec params[kMaxParams];
  };
  struct ModuleRec {
    bool used = false;
    uint32_t gen = 0;
    uint8_t ctx = 0;
    DevPtr code = 0;
    uint32_t code_bytes = 0;
    uint32_t num_kernels = 0;
    KernelRec kernels[kMaxKernels];
  };
  struct ContextRec {
    bool used = false;
    uint32_t gen = 0;
    Status sticky = Status::OK;
    uint32_t pending = 0;
    uint8_t default_stream = 0;
    bool has_failure = false;
    LaunchReport failure;
    // The context's local-memory buffer (spills, .local): grown to what the
    // largest launch so far needed, released with the context.
    DevPtr lmem = 0;
    uint32_t lmem_bytes = 0;
  };
  struct StreamRec {
    bool used = false;
    uint32_t gen = 0;
    uint8_t ctx = 0;
    uint8_t queue = 0;
    uint32_t pending = 0;
  };
  struct EventRec {
    bool used = false;
    uint32_t gen = 0;
    uint8_t ctx = 0;
    enum State : uint8_t { NONE, PENDING, DONE } state = NONE;
    uint64_t token = 0;  // of the marker
    Status result = Status::OK;
    uint64_t timestamp = 0;
    uint64_t epoch = 0;  // resets seen when it completed
  };
  struct Inflight {
    uint64_t token = 0;
    uint8_t ctx = 0, stream = 0, event = 0xFF;
    uint32_t ctx_gen = 0, stream_gen = 0, event_gen = 0;
    bool marker = false;
    Dim3 grid;
  };
  struct QueueState {
    QueuePairHost host;  // over transport_
    uint32_t slot_base = 0;  // per-slot parameter buffer + window table area
    Inflight inflight[kMaxSqEntries];
  };
  // A freed block that launches still queued may use: reserved (tagged as
  // freeing) until queue q's host completion head reaches fence[q] for
  // every q in `queues`, i.e. until the launches its context had queued
  // when it was freed have all been consumed.
  struct PendingFree {
    DevPtr addr = 0;
    uint32_t bytes = 0;
    bool priv = false;  // a block of the protected range (module code)
    uint8_t queues = 0;
    uint32_t fence[kMaxQueues] = {};
  };
  // Recent results by token, for launch_result().
  static constexpr int kResultHistory = 256;
  struct ResultRec {
    uint64_t token = 0;
    LaunchReport report;
  };

  // helpers
  Status fail(Status s, Layer layer, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
  Status succeed() {
    err_ = ErrorInfo{};
    return Status::OK;
  }
  Status rd(uint32_t off, uint32_t* v);
  Status wr(uint32_t off, uint32_t v);
  ContextRec* ctx_rec(Context c);
  const ContextRec* ctx_rec(Context c) const;
  StreamRec* stream_rec(Stream s);
  const StreamRec* stream_rec(Stream s) const;
  EventRec* event_rec(Event e);
  const EventRec* event_rec(Event e) const;
  ModuleRec* module_rec(Module m);
  const KernelRec* kernel_rec(Function f, const ModuleRec** mod) const;
  Status check_options();  // opt_ against each field's range (open)
  uint32_t slot_bytes() const { return opt_.max_param_bytes + kMaxLaunchWindows * cq::kWIN_BYTES; }

  Status program_device();  // rings, watchdog, irq mask, enable (after a reset)
  Status soft_reset_device();
  Status process_completions();
  void deliver(uint32_t q, const Inflight& inf, LaunchReport& r);
  Status recover();  // soft reset + report every pending launch CONTEXT_LOST
  Status check_ring_halt();  // a completion the device could not write, reported from FAULT_*
  template <class Done>
  Status wait_until(Done done, uint64_t timeout_ns, int ctx_index);
  Status wait_step(uint64_t ns);
  Status submit(uint32_t q, const cq::LaunchDescriptor& d, const Inflight& inf, const void* params,
                uint32_t param_bytes, const Window* windows, uint32_t num_windows, uint64_t* token);
  // What check_launch found a valid launch to be.
  struct CheckedLaunch {
    const KernelRec* kernel = nullptr;
    const ModuleRec* module = nullptr;
    uint32_t regs = 0, shared = 0;  // per thread; per CTA, dynamic included
    uint32_t queue = 0;             // the stream's queue pair
    int stream = 0;                 // index into streams_
  };
  Status check_launch(Function f, const LaunchConfig& cfg, CheckedLaunch* out);
  Status do_launch(Function f, const LaunchConfig& cfg, const uint8_t* params, uint32_t param_bytes,
                   uint64_t* token);
  Status context_windows(int ctx, Window* out, uint32_t* n);
  Status check_window(int ctx, uint32_t index, const Window& w);
  void free_after_queued(int ctx, DevPtr p, bool priv);  // mem_free / module_unload
  // First fit in the data heap, waiting for memory freed behind queued launches.
  bool alloc_waiting(uint16_t owner, uint32_t bytes, uint8_t kind, uint32_t* addr);
  // The local-memory buffer of a launch of K (grows the context's).
  Status local_buffer(int ctx, const KernelRec& K, const LaunchConfig& cfg, Window* out);
  void reclaim_frees();                       // releases what no queued launch can use any more
  void release_all_frees();                   // after a reset: nothing is queued
  bool range_owned(int ctx, DevPtr p, uint32_t bytes) const;

  Transport* transport_ = nullptr;
  DeviceOptions opt_;
  DeviceProps props_;
  ErrorInfo err_;
  DriverStats stats_;
  CompletionHook hook_ = nullptr;
  void* hook_user_ = nullptr;
  Allocator alloc_;  // context data: [256, protected_base)
  Allocator priv_;   // the driver's own structures: the protected range
  uint32_t nq_ = 0;
  uint32_t next_queue_ = 0;
  uint64_t next_token_ = 1;
  uint64_t epoch_ = 0;        // resets done
  bool dev_faulted_ = false;  // the device stopped on a failed launch (STATUS.FAULT)
  bool fault_irq_ = false;    // IRQ_STATUS.FAULT was seen and not yet looked into
  HandleTable<ContextRec, kMaxContexts> ctxs_;
  HandleTable<StreamRec, kMaxStreams> streams_;
  HandleTable<EventRec, kMaxEvents> events_;
  HandleTable<ModuleRec, kMaxModules> modules_;
  QueueState queues_[kMaxQueues];
  ResultRec results_[kResultHistory];
  std::vector<PendingFree> frees_;  // the blocks of alloc_ and priv_ waiting on queued launches
  uint64_t pending_free_bytes_ = 0;   // of alloc_'s among them
};

}  // namespace baresm::drv
