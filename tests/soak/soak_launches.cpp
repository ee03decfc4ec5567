// soak_launches: thousands of launches through the host driver under random
// faults, on the functional model or on the RTL (docs/reliability.md).
//
//   soak_launches --backend model|rtl [--launches N] [--seed S] [-v]
//
// Several contexts with two streams each submit good kernels (vec_add with
// random sizes, inputs freed right after the launch) mixed with every fault
// kind, tight watchdogs, poisoned memory lines (before and while launches
// run), poisoned ring slots, resets (the driver's, the register's and the
// pin's) at random moments, pauses with nobody consuming completions, and a
// device re-opened now and then with new ring sizes. Checked:
//   - every launch ends in exactly one completion report;
//   - a report is only what its launch allows (its own fault kind; a memory
//     error only while memory was poisoned; CONTEXT_LOST only across a
//     reset or a stopped device);
//   - every completed good launch's output is bit-exact;
//   - no context's memory changes under another's work (a canary buffer in
//     each context, checked every round);
//   - after every reset the device runs a good launch correctly.
// Prints the figures at the end; exit status 0 only with no mismatch.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cq_model/model_device.h"
#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "contract/regs.h"
#include "isa/mem_poison.h"
#include "tests/driver/driver_harness.h"
#ifdef BARESM_SOAK_RTL
#include "sim/systemc/sc_transport.h"
#endif

namespace baresm::soak {
namespace {

using drv::Status;
namespace f = regs::f;

// A device under soak and what the soak does to it behind the driver.
class Target {
 public:
  virtual ~Target() = default;
  virtual std::unique_ptr<drv::Transport> power_on(uint64_t seed) = 0;
  virtual iss::PoisonMap& poison() = 0;
  virtual void pin_reset() = 0;
  virtual drv::DeviceOptions timing() const = 0;  // timeouts in this device's time
  // The RTL simulates about 6,500 cycles a second: it gets smaller kernels
  // and shorter pauses than the model (the same kinds of everything).
  virtual uint32_t max_elements() const { return 512; }
  virtual uint64_t pause_unit_ns() const { return 1000; }
  // The memory itself fails requests at random (transient bus errors) in
  // this power-on: a memory error may then hit any launch.
  virtual bool transient_errors() const { return false; }
  virtual uint64_t transient_error_count() const { return 0; }
};

class ModelTarget : public Target {
 public:
  std::unique_ptr<drv::Transport> power_on(uint64_t) override {
    auto t = std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{});
    dev_ = &t->device();
    return t;
  }
  iss::PoisonMap& poison() override { return dev_->memory().poison(); }
  void pin_reset() override { dev_->pin_reset(); }
  drv::DeviceOptions timing() const override {
    drv::DeviceOptions o;
    o.sync_timeout_ns = 50'000'000;
    o.hang_window_ns = 20'000;
    return o;
  }

 private:
  cq::ModelDevice* dev_ = nullptr;
};

#ifdef BARESM_SOAK_RTL
class RtlTarget : public Target {
 public:
  std::unique_ptr<drv::Transport> power_on(uint64_t seed) override {
    cosim::RtlDeviceOptions o;
    o.mem.min_latency = 1;
    o.mem.max_latency = 12;
    o.mem.out_of_order = true;
    o.mem.ready_drop = 0.05;
    o.mem.seed = seed;
    // Every other power-on the memory also fails one request in 5,000 at
    // random (seeded): errors at random cycles and addresses, the command
    // processor's ring accesses included.
    transient_ = seed % 2 == 1;
    o.mem.error_rate = transient_ ? 2e-4 : 0.0;
    auto t = cosim::open_rtl_device(o);
    tb_ = &t->testbench();
    errors_before_ = tb_->mem_counters().errors;
    return t;
  }
  bool transient_errors() const override { return transient_; }
  uint64_t transient_error_count() const override { return tb_->mem_counters().errors - errors_before_; }
  iss::PoisonMap& poison() override { return tb_->memory_poison(); }
  void pin_reset() override { tb_->pin_reset(1 + unsigned(std::rand() % 4)); }
  drv::DeviceOptions timing() const override {
    drv::DeviceOptions o;
    o.sync_timeout_ns = 200'000'000;
    o.hang_window_ns = 60'000;
    return o;
  }
  uint32_t max_elements() const override { return 160; }
  uint64_t pause_unit_ns() const override { return 100; }

 private:
  cosim::Testbench* tb_ = nullptr;
  bool transient_ = false;
  uint64_t errors_before_ = 0;
};
#endif

enum class Kind { GOOD, FAULT, POISONED, TIGHT_WATCHDOG };

struct FaultKernel {
  const char* name;
  cq::ErrorCode error;
  uint32_t watchdog;
};
const FaultKernel kFaults[] = {
    {"fault_illegal_opcode", cq::ErrorCode::ILLEGAL_INSTR, 0},
    {"fault_out_of_window", cq::ErrorCode::OUT_OF_WINDOW, 0},
    {"fault_misaligned", cq::ErrorCode::MISALIGNED, 0},
    {"fault_trap", cq::ErrorCode::TRAP, 0},
    {"fault_barrier_deadlock", cq::ErrorCode::BARRIER_DEADLOCK, 0},
    {"fault_endless_loop", cq::ErrorCode::WATCHDOG_TIMEOUT, 1500},
};

struct Launch {
  uint64_t token = 0;
  int ctx = 0;
  Kind kind = Kind::GOOD;
  const FaultKernel* fault = nullptr;
  drv::DevPtr c = 0, scratch = 0;  // output (GOOD/POISONED/TIGHT), or the fault kernel's buffer
  std::vector<uint32_t> want;      // expected output words
  uint64_t resets_at_submit = 0;   // the driver's reset count when it was submitted
  int reports = 0;
  drv::LaunchReport report;
};

struct Ctx {
  drv::Context h;
  drv::Stream s[2];
  drv::Function vec_add;
  drv::Module vec_add_mod;
  drv::DevPtr canary = 0;
  std::vector<uint8_t> canary_bytes;
};

struct Figures {
  uint64_t launches = 0, completed = 0, failed = 0, lost = 0, reports = 0;
  uint64_t faults_planted = 0, poisoned_launches = 0, poison_in_flight = 0, ring_poisons = 0;
  uint64_t tight_watchdogs = 0, resets_driver = 0, resets_register = 0, resets_pin = 0;
  uint64_t pauses = 0, reopens = 0, contexts = 0, canary_checks = 0, after_reset_checks = 0;
  uint64_t refused = 0;          // launches into a context already in error
  uint64_t error_responses = 0;  // requests the RTL's memory answered with an error
  uint64_t mismatches = 0;
  std::map<std::string, uint64_t> by_error;
};

class Soak {
 public:
  Soak(Target& t, uint64_t seed, bool verbose) : t_(t), rng_(uint32_t(seed)), seed_(seed), verbose_(verbose) {}

  int run(uint64_t launches) {
    std::srand(unsigned(seed_));
    if (!reopen()) return 1;
    uint64_t round = 0;
    while (fig_.launches < launches) {
      if (round > 0 && round % 150 == 0 && !reopen()) return report();
      if (!one_round(round++)) return report();
    }
    return report();
  }

 private:
  Target& t_;
  std::mt19937 rng_;
  uint64_t seed_;
  bool verbose_;
  std::unique_ptr<drv::Transport> transport_;
  drv::Device dev_;
  std::vector<Ctx> ctxs_;
  std::map<uint64_t, Launch> launches_;  // this round's
  std::vector<uint64_t> orphan_tokens_;  // reports for tokens the soak never submitted
  Figures fig_;
  bool poisoned_since_round_start_ = false;

  uint32_t below(uint32_t n) { return uint32_t(rng_() % n); }
  bool chance(uint32_t percent) { return below(100) < percent; }

  void mismatch(const std::string& what) {
    ++fig_.mismatches;
    if (fig_.mismatches <= 20) std::fprintf(stderr, "soak: MISMATCH: %s\n", what.c_str());
  }
  std::string err() const { return dev_.last_error().detail; }

  static void hook(void* self, const drv::LaunchReport& r) { static_cast<Soak*>(self)->on_report(r); }
  void on_report(const drv::LaunchReport& r) {
    ++fig_.reports;
    auto it = launches_.find(r.token);
    if (it == launches_.end()) {
      orphan_tokens_.push_back(r.token);
      return;
    }
    it->second.reports++;
    it->second.report = r;
    it->second.report.raw = nullptr;
  }

  // A new device (power-on) with random ring sizes, and fresh contexts.
  bool reopen() {
    launches_.clear();
    ctxs_.clear();
    if (dev_.is_open()) {
      fig_.error_responses += t_.transient_error_count();
      dev_.close();
    }
    transport_ = t_.power_on(seed_ + fig_.reopens);
    drv::DeviceOptions o = t_.timing();
    o.sq_entries = 2u << below(6);  // 2 .. 64
    o.cq_entries = 2u << below(6);
    o.use_irq = chance(80);
    if (!drv::ok(dev_.open(transport_.get(), o))) {
      mismatch("device open: " + err());
      return false;
    }
    dev_.set_completion_hook(&Soak::hook, this);
    ++fig_.reopens;
    if (verbose_)
      std::printf("soak: device opened: SQ %u, CQ %u entries, %s\n", o.sq_entries, o.cq_entries,
                  o.use_irq ? "interrupts" : "polling");
    for (int i = 0; i < 3; ++i)
      if (!new_ctx()) return false;
    return true;
  }

  bool new_ctx() {
    Ctx c;
    if (!drv::ok(dev_.ctx_create(&c.h)) || !drv::ok(dev_.stream_create(c.h, &c.s[0])) ||
        !drv::ok(dev_.stream_create(c.h, &c.s[1]))) {
      mismatch("context create: " + err());
      return false;
    }
    if (!load(c, "vec_add", &c.vec_add, &c.vec_add_mod)) return false;
    c.canary_bytes.resize(4096);
    for (auto& b : c.canary_bytes) b = uint8_t(rng_());
    if (!drv::ok(dev_.mem_alloc(c.h, 4096, &c.canary)) ||
        !drv::ok(dev_.memcpy_htod(c.h, c.canary, c.canary_bytes.data(), 4096))) {
      mismatch("canary: " + err());
      return false;
    }
    ++fig_.contexts;
    ctxs_.push_back(std::move(c));
    return true;
  }

  bool load(Ctx& c, const char* kernel, drv::Function* fn, drv::Module* mod) {
    const auto& img = drvtest::kernel_image(kernel);
    drv::Module m;
    if (mod) *mod = m;
    if (!drv::ok(dev_.module_load_data(c.h, img.data(), img.size(), &m)) ||
        !drv::ok(dev_.module_get_function(m, kernel, fn))) {
      mismatch(std::string("load ") + kernel + ": " + err());
      return false;
    }
    if (mod) *mod = m;
    return true;
  }

  // A launch into a context whose error is already sticky (an earlier launch
  // of this round failed) is refused, as CUDA refuses it: nothing to report.
  bool refused(Ctx& C, Status launch_status) {
    if (launch_status == Status::OK || launch_status != dev_.ctx_get_error(C.h)) return false;
    ++fig_.refused;
    return true;
  }

  // vec_add of n random floats; the inputs are freed at once (the driver
  // defers it past the launch).
  bool submit_vec_add(int ci, Kind kind, bool poison_input) {
    Ctx& C = ctxs_[size_t(ci)];
    if (refused(C, dev_.ctx_get_error(C.h))) return true;
    const uint32_t n = 32 + below(t_.max_elements() - 31);
    std::vector<float> a(n), b(n);
    std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
    for (uint32_t i = 0; i < n; ++i) a[i] = dist(rng_), b[i] = dist(rng_);
    drv::DevPtr da = 0, db = 0, dc = 0;
    if (!drv::ok(dev_.mem_alloc(C.h, n * 4, &da)) || !drv::ok(dev_.mem_alloc(C.h, n * 4, &db)) ||
        !drv::ok(dev_.mem_alloc(C.h, n * 4, &dc)) || !drv::ok(dev_.memcpy_htod(C.h, da, a.data(), n * 4)) ||
        !drv::ok(dev_.memcpy_htod(C.h, db, b.data(), n * 4)) || !drv::ok(dev_.memset_d8(C.h, dc, 0xFF, n * 4))) {
      mismatch("vec_add buffers: " + err());
      return false;
    }
    Launch L;
    L.ctx = ci;
    L.kind = kind;
    L.c = dc;
    L.want.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      const float s = a[i] + b[i];
      std::memcpy(&L.want[i], &s, 4);
    }
    if (poison_input) {
      drv::DevPtr code = 0;
      uint32_t bytes = 0;
      if (chance(25) && drv::ok(dev_.module_code_range(C.vec_add_mod, &code, &bytes)) && bytes) {
        t_.poison().poison(code + 8 * below(bytes / 8), 8);  // one of its instructions
      } else {
        const drv::DevPtr target = chance(50) ? da : chance(50) ? db : dc;
        t_.poison().poison(target + 4 * below(n), 4);
      }
      poisoned_since_round_start_ = true;
    }
    drv::LaunchConfig cfg;
    const uint32_t block = 32u << below(3);
    cfg.block = drv::Dim3{block, 1, 1};
    cfg.grid = drv::Dim3{(n + block - 1) / block, 1, 1};
    cfg.stream = C.s[below(2)];
    if (kind == Kind::TIGHT_WATCHDOG) cfg.watchdog = 1 + below(80);
    // Exactly its own three buffers (a context holds more allocations than
    // the device has windows; the canary is never granted).
    const drv::Window wins[3] = {{da, n * 4}, {db, n * 4}, {dc, n * 4}};
    cfg.windows = wins;
    cfg.num_windows = 3;
    drv::LaunchArg args[4] = {{&da, 4}, {&db, 4}, {&dc, 4}, {&n, 4}};
    L.resets_at_submit = dev_.stats().resets;
    const Status ls = dev_.launch(C.vec_add, cfg, args, 4, &L.token);
    if (refused(C, ls)) {
      for (drv::DevPtr p : {da, db, dc}) dev_.mem_free(C.h, p);
      return true;
    }
    if (!drv::ok(ls)) {
      mismatch("vec_add launch: " + err());
      return false;
    }
    dev_.mem_free(C.h, da);
    dev_.mem_free(C.h, db);
    launches_[L.token] = L;
    ++fig_.launches;
    return true;
  }

  bool submit_fault(int ci) {
    Ctx& C = ctxs_[size_t(ci)];
    if (refused(C, dev_.ctx_get_error(C.h))) return true;
    const FaultKernel& fk = kFaults[below(sizeof kFaults / sizeof kFaults[0])];
    Launch L;
    L.ctx = ci;
    L.kind = Kind::FAULT;
    L.fault = &fk;
    const uint32_t nwords = 100;
    if (!drv::ok(dev_.mem_alloc(C.h, nwords * 4, &L.scratch))) {
      mismatch("fault buffer: " + err());
      return false;
    }
    std::vector<uint32_t> pv = drvtest::fault_kernel_params(fk.name, L.scratch, nwords, below(4), below(64));
    std::vector<drv::LaunchArg> args;
    for (auto& v : pv) args.push_back(drv::LaunchArg{&v, 4});
    drv::LaunchConfig cfg;
    cfg.grid = drv::Dim3{4, 1, 1};
    cfg.block = drv::Dim3{64, 1, 1};
    cfg.watchdog = fk.watchdog;
    cfg.stream = C.s[below(2)];
    const drv::Window win = {L.scratch, nwords * 4};
    cfg.windows = &win;
    cfg.num_windows = 1;
    // Loaded for this launch and unloaded at once: the driver keeps the
    // code until the launch is done.
    drv::Function fn;
    drv::Module mod;
    if (!load(C, fk.name, &fn, &mod)) return false;
    L.resets_at_submit = dev_.stats().resets;
    const Status ls = dev_.launch(fn, cfg, args.data(), uint32_t(args.size()), &L.token);
    if (refused(C, ls)) {
      dev_.module_unload(mod);
      dev_.mem_free(C.h, L.scratch);
      return true;
    }
    if (!drv::ok(ls)) {
      mismatch("fault launch: " + err());
      return false;
    }
    if (!drv::ok(dev_.module_unload(mod))) mismatch("module_unload: " + err());
    launches_[L.token] = L;
    ++fig_.launches;
    ++fig_.faults_planted;
    return true;
  }

  // The slot the next descriptor (or completion) of every queue pair uses.
  void poison_ring_slots() {
    const bool cq = chance(50);
    const uint32_t nq = dev_.options().queues ? dev_.options().queues : dev_.props().num_queues;
    for (uint32_t q = 0; q < nq; ++q)
      if (const uint32_t slot = drvtest::next_ring_slot(transport_.get(), q, cq)) t_.poison().poison(slot, 64);
    poisoned_since_round_start_ = true;
    ++fig_.ring_poisons;
  }

  bool one_round(uint64_t round) {
    launches_.clear();
    orphan_tokens_.clear();
    poisoned_since_round_start_ = false;
    // ---- submit ----
    const uint32_t batch = 1 + below(6);
    for (uint32_t i = 0; i < batch; ++i) {
      const int ci = int(below(uint32_t(ctxs_.size())));
      const uint32_t r = below(100);
      bool ok;
      if (r < 65) {
        ok = submit_vec_add(ci, Kind::GOOD, false);
      } else if (r < 80) {
        ok = submit_fault(ci);
      } else if (r < 90) {
        ok = submit_vec_add(ci, Kind::POISONED, true);
        ++fig_.poisoned_launches;
      } else if (r < 95) {
        ok = submit_vec_add(ci, Kind::TIGHT_WATCHDOG, false);
        ++fig_.tight_watchdogs;
      } else {
        poison_ring_slots();
        ok = submit_vec_add(ci, Kind::GOOD, false);
      }
      if (!ok) return false;
    }
    // ---- something happens while they run ----
    bool reset = false;
    const uint32_t r = below(100);
    if (r < 15) {
      transport_->delay(t_.pause_unit_ns() * (1 + below(200)));  // nobody consumes meanwhile
      ++fig_.pauses;
    } else if (r < 25) {
      transport_->delay(10 * below(3000));
      // Poison a line of a launch that may be running right now: its output,
      // or its context's vec_add code (instruction fetch).
      for (auto& kv : launches_)
        if (kv.second.c && chance(30)) {
          drv::DevPtr code = 0;
          uint32_t bytes = 0;
          if (drv::ok(dev_.module_code_range(ctxs_[size_t(kv.second.ctx)].vec_add_mod, &code, &bytes)) && bytes) {
            t_.poison().poison(code + 8 * below(bytes / 8), 8);
            poisoned_since_round_start_ = true;
            ++fig_.poison_in_flight;
          }
          break;
        } else if (kv.second.c && chance(50)) {
          t_.poison().poison(kv.second.c + 4 * below(uint32_t(kv.second.want.size())), 4);
          poisoned_since_round_start_ = true;
          ++fig_.poison_in_flight;
          break;
        }
    } else if (r < 33) {
      transport_->delay(10 * below(3000));
      if (!drv::ok(dev_.reset())) return mismatch("reset: " + err()), false;
      ++fig_.resets_driver;
      reset = true;
    } else if (r < 39) {
      transport_->delay(10 * below(3000));
      transport_->mmio_write32(regs::CONTROL, f::CONTROL_SOFT_RESET.put(1));
      if (!drv::ok(dev_.reset())) return mismatch("reset after a register reset: " + err()), false;
      ++fig_.resets_register;
      reset = true;
    } else if (r < 45) {
      transport_->delay(10 * below(3000));
      t_.pin_reset();
      if (!drv::ok(dev_.reset())) return mismatch("reset after a pin reset: " + err()), false;
      ++fig_.resets_pin;
      reset = true;
    }
    // ---- wait for everything ----
    // (A context with a sticky error returns from ctx_synchronize at once;
    // the device-wide wait returns when nothing is pending anywhere.)
    for (size_t ci = 0; ci < ctxs_.size(); ++ci) dev_.ctx_synchronize(ctxs_[ci].h);
    dev_.synchronize();
    if (dev_.pending() != 0) mismatch("round " + std::to_string(round) + ": launches still pending");
    // ---- check ----
    for (auto& kv : launches_) check(kv.second);
    if (!orphan_tokens_.empty()) mismatch(std::to_string(orphan_tokens_.size()) + " reports for unknown tokens");
    for (Ctx& C : ctxs_) {
      std::vector<uint8_t> now(4096);
      if (!drv::ok(dev_.memcpy_dtoh(C.h, now.data(), C.canary, 4096)) || now != C.canary_bytes)
        mismatch("round " + std::to_string(round) + ": a context's canary changed");
      ++fig_.canary_checks;
    }
    t_.poison().clear();
    for (auto& kv : launches_) {
      if (kv.second.c) dev_.mem_free(ctxs_[size_t(kv.second.ctx)].h, kv.second.c);
      if (kv.second.scratch) dev_.mem_free(ctxs_[size_t(kv.second.ctx)].h, kv.second.scratch);
    }
    // A context with a sticky error is replaced, as a CUDA program would.
    for (size_t ci = 0; ci < ctxs_.size(); ++ci) {
      if (dev_.ctx_get_error(ctxs_[ci].h) == Status::OK) continue;
      dev_.ctx_destroy(ctxs_[ci].h);
      if (!new_ctx()) return false;
      ctxs_[ci] = std::move(ctxs_.back());
      ctxs_.pop_back();
    }
    if (reset) return after_reset(round);
    return true;
  }

  // After every reset: a good launch completes with the right output. (With
  // transient memory errors on, a memory error may hit it: then again.)
  bool after_reset(uint64_t round) {
    for (int attempt = 0;; ++attempt) {
      launches_.clear();
      if (!submit_vec_add(int(below(uint32_t(ctxs_.size()))), Kind::GOOD, false)) return false;
      if (launches_.empty()) {  // refused: but every context in error was replaced
        mismatch("round " + std::to_string(round) + ": the launch after a reset was refused");
        return true;
      }
      Launch& L = launches_.begin()->second;
      const size_t ci = size_t(L.ctx);
      const drv::Context ch = ctxs_[ci].h;
      const Status st = dev_.ctx_synchronize(ch);
      const bool retry = st == Status::MEMORY_ERROR && t_.transient_errors() && attempt < 3;
      if (!retry && (st != Status::OK || L.reports != 1 || L.report.cpl_status != cq::CplStatus::COMPLETED))
        mismatch("round " + std::to_string(round) + ": no good launch after a reset: " + drv::status_name(st));
      else
        check(L);  // a retried one too: it was a launch, and a memory error is what it may report
      dev_.mem_free(ch, L.c);
      if (!retry) break;
      // The memory error made the context sticky: a fresh one tries again.
      dev_.ctx_destroy(ch);
      if (!new_ctx()) return false;
      ctxs_[ci] = std::move(ctxs_.back());
      ctxs_.pop_back();
    }
    ++fig_.after_reset_checks;
    return true;
  }

  void check(Launch& L) {
    const std::string who = "token " + std::to_string(L.token);
    if (L.reports != 1) {
      mismatch(who + ": " + std::to_string(L.reports) + " reports");
      return;
    }
    const drv::LaunchReport& r = L.report;
    const std::string e = cq::error_code_name(r.error);
    if (r.cpl_status == cq::CplStatus::COMPLETED) {
      ++fig_.completed;
      ++fig_.by_error["OK"];
      if (L.kind == Kind::FAULT) {
        mismatch(who + ": a fault kernel completed");
        return;
      }
      std::vector<uint32_t> got(L.want.size());
      if (!drv::ok(dev_.memcpy_dtoh(ctxs_[size_t(L.ctx)].h, got.data(), L.c, uint32_t(got.size() * 4))) ||
          got != L.want)
        mismatch(who + ": completed with a wrong output");
      return;
    }
    ++fig_.by_error[e];
    if (r.error == cq::ErrorCode::CONTEXT_LOST) {
      ++fig_.lost;
      // Only a reset (asked for, or forced by a stopped device) loses work.
      if (dev_.stats().resets == L.resets_at_submit) mismatch(who + ": CONTEXT_LOST without a reset");
      return;
    }
    ++fig_.failed;
    const bool memory = r.error == cq::ErrorCode::MEMORY_ERROR || r.error == cq::ErrorCode::FETCH_ERROR ||
                        r.error == cq::ErrorCode::RING_ERROR;
    if (memory) {
      if (!poisoned_since_round_start_ && !t_.transient_errors())
        mismatch(who + ": " + e + " with no memory poisoned");
      return;
    }
    if (L.kind == Kind::FAULT) {
      if (r.error != L.fault->error) mismatch(who + ": " + L.fault->name + " failed with " + e);
      return;
    }
    if (L.kind == Kind::TIGHT_WATCHDOG && r.error == cq::ErrorCode::WATCHDOG_TIMEOUT) return;
    mismatch(who + ": a good launch failed with " + e);
  }

  int report() {
    fig_.error_responses += t_.transient_error_count();
    std::printf(
        "soak: %llu launches (%llu more refused: their context was in error), %llu reports: %llu completed, "
        "%llu failed, %llu lost; %llu mismatches\n",
        (unsigned long long)fig_.launches, (unsigned long long)fig_.refused, (unsigned long long)fig_.reports, (unsigned long long)fig_.completed,
        (unsigned long long)fig_.failed, (unsigned long long)fig_.lost, (unsigned long long)fig_.mismatches);
    std::printf(
        "soak: planted: %llu fault kernels, %llu tight watchdogs, %llu poisoned launches, %llu lines "
        "poisoned in flight, %llu ring slots poisoned\n",
        (unsigned long long)fig_.faults_planted, (unsigned long long)fig_.tight_watchdogs,
        (unsigned long long)fig_.poisoned_launches, (unsigned long long)fig_.poison_in_flight,
        (unsigned long long)fig_.ring_poisons);
    std::printf(
        "soak: resets: %llu driver, %llu register, %llu pin (each followed by a checked good launch); "
        "%llu pauses; %llu device power-ons; %llu contexts; %llu canary checks\n",
        (unsigned long long)fig_.resets_driver, (unsigned long long)fig_.resets_register,
        (unsigned long long)fig_.resets_pin, (unsigned long long)fig_.pauses, (unsigned long long)fig_.reopens,
        (unsigned long long)fig_.contexts, (unsigned long long)fig_.canary_checks);
    if (fig_.error_responses)
      std::printf("soak: the memory answered %llu requests with an error (poisoned lines, transient errors)\n",
                  (unsigned long long)fig_.error_responses);
    std::printf("soak: reports by error:");
    for (const auto& kv : fig_.by_error) std::printf(" %s %llu", kv.first.c_str(), (unsigned long long)kv.second);
    std::printf("\n");
    return fig_.mismatches == 0 ? 0 : 1;
  }
};

int usage(const char* msg) {
  std::fprintf(stderr, "soak_launches: %s\nusage: soak_launches --backend model|rtl [--launches N] [--seed S] [-v]\n",
               msg);
  return 2;
}

bool parse_u64(const char* s, uint64_t* out) {
  if (!s || !*s) return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (errno || *end || s[0] == '-') return false;
  *out = v;
  return true;
}

}  // namespace
}  // namespace baresm::soak

int main(int argc, char** argv) {
  using namespace baresm::soak;
  std::string backend;
  uint64_t launches = 1000, seed = 1;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) {
      backend = argv[++i];
    } else if (a == "--launches" && i + 1 < argc) {
      if (!parse_u64(argv[++i], &launches) || launches == 0) return usage("--launches wants a positive whole number");
    } else if (a == "--seed" && i + 1 < argc) {
      if (!parse_u64(argv[++i], &seed)) return usage("--seed wants a whole number");
    } else if (a == "-v") {
      verbose = true;
    } else {
      return usage(("unknown argument '" + a + "'").c_str());
    }
  }
  std::unique_ptr<Target> t;
  if (backend == "model") t = std::make_unique<ModelTarget>();
#ifdef BARESM_SOAK_RTL
  if (backend == "rtl") t = std::make_unique<RtlTarget>();
#endif
  if (!t) return usage(("unknown backend '" + backend + "'").c_str());
  Soak s(*t, seed, verbose);
  return s.run(launches);
}
