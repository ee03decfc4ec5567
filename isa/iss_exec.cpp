// The launch engine of the functional model: scheduling, the reconvergence
// stack, barriers, every opcode, faults and the retire stream.
//
// Layout for speed: registers are stored per warp as regs[reg][lane] so that
// an ALU instruction is a loop over 32 contiguous lanes; predicates are one
// 32-bit lane mask each. Instruction words are decoded once and cached per PC
// (the cache is invalidated by any global store that hits the code range, so
// fetch semantics stay "read the word from device memory").
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "isa/fp32.h"
#include "isa/iss.h"

namespace baresm::iss {

namespace {

using isa::Instr;
using isa::Op;

constexpr uint32_t kNoPc = 0xFFFFFFFFu;  // "no reconvergence point" (never a valid pc)
constexpr uint32_t kAllLanes = 0xFFFFFFFFu;
constexpr int kNumBarriers = 16;
constexpr uint32_t kMaxSharedBytes = 64u << 20;  // model sanity limit (host error beyond)

struct StackEntry {
  uint32_t pc, rpc, mask;
};

struct Warp {
  uint32_t regs[isa::kNumRegFields][isa::kWarpSize];  // [63] stays 0 (RZ)
  uint32_t preds[isa::kNumPreds];                     // [7] stays all-ones (PT)
  StackEntry* stack = nullptr;                        // D entries, owned by Engine
  uint32_t depth = 0;
  bool exited = false;
  bool waiting = false;
  uint8_t bar_id = 0;
  uint32_t bar_pc = 0;
};

struct Slot {
  enum : uint8_t { UNKNOWN, OK, ILLEGAL } state = UNKNOWN;
  Instr in;
};
// The decode cache is paged and allocated on first fetch, so a launch that
// declares a huge code range costs nothing for the code it never runs.
constexpr uint32_t kSlotPageBits = 12;
struct SlotPage {
  Slot s[1u << kSlotPageBits];
};

inline uint32_t lowest_lane(uint32_t mask) { return mask ? uint32_t(__builtin_ctz(mask)) : 0; }
inline int popcount(uint32_t v) { return __builtin_popcount(v); }

// The registers an instruction actually reads or writes (RZ excluded), for the
// regs_per_thread check. Fields an opcode ignores are not looked at.
int used_regs(const Instr& in, uint8_t out[4]) {
  const uint32_t f = isa::op_info(in.op).flags;
  int n = 0;
  auto add = [&](uint8_t r) {
    if (r != isa::kRegZero) out[n++] = r;
  };
  if (in.op == Op::VOTE) {
    if (in.mod == isa::VOTE_BALLOT) add(in.rd);
    return n;
  }
  if (f & (isa::F_WRD | isa::F_RRD)) add(in.rd);
  if (f & isa::F_RA) add(in.ra);
  if ((f & isa::F_RB) && !in.bimm) add(in.rb);
  if (f & isa::F_RC) {
    bool is_atom = in.op == Op::ATOMG || in.op == Op::ATOMS;
    if (!is_atom || (in.mod & 0xF) == isa::ATOM_CAS) add(in.rc);
  }
  return n;
}

class Engine {
 public:
  Engine(DeviceMemory& mem, const ModelConfig& cfg, const LaunchParams& p,
         const std::function<void(const RetireEvent&)>& cb)
      : mem_(mem), cfg_(cfg), p_(p), cb_(cb) {}

  LaunchResult run();

  // ---- the stepping interface (LockstepModel) ----
  std::string prepare();  // validates and sets up the launch; the error, or empty
  void start_cta(uint32_t linear, Dim3 c);
  bool step(uint32_t wi);  // false: the warp faulted (res_.fault)
  bool check_deadlock();   // false: every live warp waits at a barrier that cannot release
  const Warp& warp(uint32_t wi) const { return warps_[wi]; }
  Warp& warp(uint32_t wi) { return warps_[wi]; }
  uint32_t live() const { return live_; }
  const RetireEvent& last_event() const { return ev_; }
  const LaunchResult& result() const { return res_; }

 private:
  // ---- launch-level state ----
  DeviceMemory& mem_;
  const ModelConfig& cfg_;
  const LaunchParams& p_;
  const std::function<void(const RetireEvent&)>& cb_;
  uint8_t* mem8_ = nullptr;
  const PoisonMap* poison_ = nullptr;  // injected memory errors; null when there are none
  uint32_t code_lo_ = 0, code_end_ = 0;  // slots cover [code_lo_, code_end_), code_lo_ 8-aligned
  std::vector<std::unique_ptr<SlotPage>> pages_;
  std::vector<Warp> warps_;
  std::vector<StackEntry> stacks_;
  std::vector<uint8_t> shared_;
  LaunchResult res_;
  RetireEvent ev_;
  uint32_t smid_ = 0;
  size_t last_window_ = 0;

  // ---- per-CTA state ----
  Dim3 cta_;
  uint32_t cta_linear_ = 0;
  uint32_t nwarps_ = 0;
  uint32_t live_ = 0, waiting_ = 0;
  uint32_t bar_arrived_[kNumBarriers] = {};
  uint32_t bar_count_[kNumBarriers] = {};

  std::string validate() const;
  bool run_cta();
  const Slot* fetch(uint32_t wi, uint32_t pc, uint32_t mask);
  std::string decode_slot(Slot& s, uint32_t pc);
  Slot& slot(uint32_t index);
  void normalize(Warp& w);
  void on_warp_exit();
  void arrive(uint32_t wi, uint32_t pc, uint8_t id, uint32_t count);
  void check_release(int id);
  bool fault(FaultKind k, uint32_t wi, uint32_t lane, uint32_t pc, uint32_t addr, std::string detail);
  bool mem_fault(FaultKind k, uint32_t wi, uint32_t lane, uint32_t pc, uint32_t ad, const Instr& in,
                 uint32_t size);

  // instruction groups; each returns false when it faulted (nothing changed)
  void exec_alu(Warp& w, const Instr& in, uint32_t exec, uint32_t pc);
  bool exec_mem(uint32_t wi, const Instr& in, uint32_t exec, uint32_t pc);
  bool exec_atom(uint32_t wi, const Instr& in, uint32_t exec, uint32_t pc);
  bool exec_bra(uint32_t wi, const Instr& in, uint32_t exec, uint32_t pc);

  void write_rd(Warp& w, uint8_t rd, uint32_t exec, const uint32_t* val);
  void write_pd(Warp& w, uint8_t pd, uint32_t exec, uint32_t bits);
  bool global_ok(uint32_t addr, uint32_t len);
  void invalidate_code(uint32_t addr, uint32_t len);
  uint32_t sreg(uint8_t id, uint32_t wi, uint32_t lane) const;
};

// ---------------------------------------------------------------------------
std::string Engine::validate() const {
  const uint64_t msize = mem_.size();
  const Dim3& b = p_.block;
  const Dim3& g = p_.grid;
  char buf[200];
  if (b.x == 0 || b.y == 0 || b.z == 0) return "block dimensions must be non-zero";
  if (b.count() > 1024) {
    std::snprintf(buf, sizeof buf, "block of %llu threads exceeds 1024",
                  (unsigned long long)b.count());
    return buf;
  }
  if (g.x == 0 || g.y == 0 || g.z == 0) return "grid dimensions must be non-zero";
  if (g.count() > 0xFFFFFFFFull) return "grid has more than 2^32-1 CTAs";
  if (p_.regs_per_thread < 1 || p_.regs_per_thread > uint32_t(isa::kMaxRegsPerThread)) {
    std::snprintf(buf, sizeof buf, "regs_per_thread %u outside 1..%d", p_.regs_per_thread,
                  isa::kMaxRegsPerThread);
    return buf;
  }
  if (p_.code_size == 0) return "empty code range";
  if (uint64_t(p_.code_base) + p_.code_size > msize) {
    std::snprintf(buf, sizeof buf, "code range [0x%08x, +%u) outside device memory (%llu bytes)",
                  p_.code_base, p_.code_size, (unsigned long long)msize);
    return buf;
  }
  if (uint64_t(p_.param_addr) + p_.param_size > msize) {
    std::snprintf(buf, sizeof buf, "parameter range [0x%08x, +%u) outside device memory (%llu bytes)",
                  p_.param_addr, p_.param_size, (unsigned long long)msize);
    return buf;
  }
  for (size_t i = 0; i < p_.windows.size(); ++i) {
    const Window& w = p_.windows[i];
    if (uint64_t(w.base) + w.size > msize) {
      std::snprintf(buf, sizeof buf, "window %zu [0x%08x, +%u) outside device memory (%llu bytes)",
                    i, w.base, w.size, (unsigned long long)msize);
      return buf;
    }
  }
  if (p_.shared_bytes > kMaxSharedBytes) {
    std::snprintf(buf, sizeof buf, "shared_bytes %u exceeds the model's limit of %u",
                  p_.shared_bytes, kMaxSharedBytes);
    return buf;
  }
  if (cfg_.stack_depth < 1) return "ModelConfig::stack_depth must be at least 1";
  return {};
}

LaunchResult Engine::run() {
  std::string err = prepare();
  if (!err.empty()) {
    res_.launch_error = true;
    res_.launch_error_message = err;
    return res_;
  }
  uint32_t linear = 0;
  for (uint32_t z = 0; z < p_.grid.z; ++z)
    for (uint32_t y = 0; y < p_.grid.y; ++y)
      for (uint32_t x = 0; x < p_.grid.x; ++x, ++linear) {
        start_cta(linear, Dim3{x, y, z});
        res_.stats.ctas++;
        if (!run_cta()) return res_;
      }
  return res_;
}

std::string Engine::prepare() {
  std::string err = validate();
  if (!err.empty()) return err;
  mem8_ = mem_.bytes().data();
  poison_ = mem_.poison().empty() ? nullptr : &mem_.poison();
  smid_ = p_.smid ? p_.smid : cfg_.smid;
  code_lo_ = p_.code_base & ~7u;
  code_end_ = p_.code_base + p_.code_size;  // fits: validated against memory size
  pages_.clear();
  pages_.resize(size_t(((uint64_t(code_end_) - code_lo_ + 7) / 8 >> kSlotPageBits) + 1));
  const uint32_t threads = uint32_t(p_.block.count());
  nwarps_ = (threads + 31) / 32;
  warps_.assign(nwarps_, Warp{});
  stacks_.assign(size_t(nwarps_) * cfg_.stack_depth, StackEntry{});
  for (uint32_t i = 0; i < nwarps_; ++i) warps_[i].stack = &stacks_[size_t(i) * cfg_.stack_depth];
  shared_.assign(p_.shared_bytes, 0);
  return {};
}

void Engine::start_cta(uint32_t linear, Dim3 c) {
  cta_ = c;
  cta_linear_ = linear;
  const uint32_t threads = uint32_t(p_.block.count());
  for (uint32_t i = 0; i < nwarps_; ++i) {
    Warp& w = warps_[i];
    std::memset(w.regs, 0, sizeof w.regs);
    std::memset(w.preds, 0, sizeof w.preds);
    w.preds[isa::kPredTrue] = kAllLanes;
    uint32_t lanes = std::min<uint32_t>(32, threads - i * 32);
    w.stack[0] = StackEntry{p_.entry_pc, kNoPc, lanes == 32 ? kAllLanes : ((1u << lanes) - 1)};
    w.depth = 1;
    w.exited = false;
    w.waiting = false;
  }
  std::fill(shared_.begin(), shared_.end(), 0);
  std::memset(bar_arrived_, 0, sizeof bar_arrived_);
  std::memset(bar_count_, 0, sizeof bar_count_);
  live_ = nwarps_;
  waiting_ = 0;
}

// Round-robin: each round visits the warps in order and lets every warp that
// is runnable at its turn execute one instruction.
bool Engine::run_cta() {
  while (live_ > 0) {
    for (uint32_t wi = 0; wi < nwarps_; ++wi) {
      Warp& w = warps_[wi];
      if (w.exited || w.waiting) continue;
      if (!step(wi)) return false;
      if (!check_deadlock()) return false;
      if (live_ == 0) break;
    }
  }
  return true;
}

bool Engine::fault(FaultKind k, uint32_t wi, uint32_t lane, uint32_t pc, uint32_t addr,
                   std::string detail) {
  FaultInfo& f = res_.fault;
  f.kind = k;
  f.cta = cta_;
  f.warp = wi;
  f.lane = lane;
  f.pc = pc;
  f.addr = addr;
  f.detail = std::move(detail);
  return false;
}

// Pops finished entries; an empty stack means the warp has exited.
void Engine::normalize(Warp& w) {
  while (w.depth > 0) {
    const StackEntry& t = w.stack[w.depth - 1];
    if (t.mask != 0 && t.pc != t.rpc) break;
    --w.depth;
  }
  if (w.depth == 0 && !w.exited) {
    w.exited = true;
    on_warp_exit();
  }
}

void Engine::on_warp_exit() {
  --live_;
  // A whole-CTA barrier now expects one warp fewer.
  for (int id = 0; id < kNumBarriers; ++id)
    if (bar_arrived_[id]) check_release(id);
}

void Engine::arrive(uint32_t wi, uint32_t pc, uint8_t id, uint32_t count) {
  Warp& w = warps_[wi];
  w.waiting = true;
  w.bar_id = id;
  w.bar_pc = pc;
  ++waiting_;
  if (bar_arrived_[id]++ == 0) bar_count_[id] = count;  // the first arrival sets the count
  check_release(id);
}

void Engine::check_release(int id) {
  const uint32_t c = bar_count_[id];
  const uint32_t expected = c == 0 ? live_ : (c + 31) / 32;
  if (bar_arrived_[id] < expected) return;
  for (uint32_t i = 0; i < nwarps_; ++i) {
    Warp& w = warps_[i];
    if (w.waiting && w.bar_id == id) {
      w.waiting = false;
      --waiting_;
    }
  }
  bar_arrived_[id] = 0;
  res_.stats.barriers++;
}

bool Engine::check_deadlock() {
  if (live_ == 0 || waiting_ < live_) return true;
  uint64_t mask = 0;
  std::string detail;
  uint32_t first = nwarps_;
  for (uint32_t i = 0; i < nwarps_; ++i) {
    const Warp& w = warps_[i];
    if (!w.waiting) continue;
    mask |= uint64_t(1) << i;
    if (first == nwarps_) first = i;
    if (!detail.empty()) detail += ", ";
    detail += "warp " + std::to_string(i) + " at bar " + std::to_string(w.bar_id);
  }
  detail += " (" + std::to_string(live_) + " live warp" + (live_ == 1 ? "" : "s") + ")";
  fault(FaultKind::BARRIER_DEADLOCK, first, 0, warps_[first].bar_pc, 0, detail);
  res_.fault.waiting_warps = mask;
  return false;
}

// ---------------------------------------------------------------------------
// Decodes the word at pc into s; returns why it is illegal (empty when legal).
std::string Engine::decode_slot(Slot& s, uint32_t pc) {
  const uint8_t* b = mem8_ + pc;
  uint64_t word = 0;
  for (int i = 7; i >= 0; --i) word = word << 8 | b[i];
  auto d = isa::decode(word);
  s.state = Slot::ILLEGAL;
  if (!d) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "word 0x%016llx does not decode", (unsigned long long)word);
    return buf;
  }
  if (!cfg_.has_fpu && isa::op_info(d->op).unit == isa::UNIT_FPU)
    return isa::mnemonic_text(*d) + " needs the FPU, and this device has none";
  uint8_t regs[4];
  int n = used_regs(*d, regs);
  for (int i = 0; i < n; ++i) {
    if (regs[i] >= p_.regs_per_thread)
      return "R" + std::to_string(regs[i]) + " used but the launch has " +
             std::to_string(p_.regs_per_thread) + " registers per thread";
  }
  s.state = Slot::OK;
  s.in = *d;
  return {};
}

inline Slot& Engine::slot(uint32_t index) {
  auto& page = pages_[index >> kSlotPageBits];
  if (!page) page = std::make_unique<SlotPage>();
  return page->s[index & ((1u << kSlotPageBits) - 1)];
}

const Slot* Engine::fetch(uint32_t wi, uint32_t pc, uint32_t mask) {
  if ((pc & 7) || pc < p_.code_base || uint64_t(pc) + 8 > code_end_) {
    char buf[120];
    if (pc & 7)
      std::snprintf(buf, sizeof buf, "pc not 8-byte aligned");
    else
      std::snprintf(buf, sizeof buf, "pc outside the code [0x%08x, 0x%08x)", p_.code_base,
                    code_end_);
    fault(FaultKind::INVALID_PC, wi, lowest_lane(mask), pc, 0, buf);
    return nullptr;
  }
  if (poison_ && poison_->hit(pc, 8)) {
    fault(FaultKind::FETCH_ERROR, wi, lowest_lane(mask), pc, pc, "instruction fetch got a memory error");
    return nullptr;
  }
  Slot& s = slot((pc - code_lo_) >> 3);
  if (s.state != Slot::OK) {
    // ILLEGAL is not cached: the word is decoded again to say why.
    std::string why = decode_slot(s, pc);
    if (!why.empty()) {
      fault(FaultKind::ILLEGAL_INSTR, wi, lowest_lane(mask), pc, 0, why);
      return nullptr;
    }
  }
  return &s;
}

void Engine::invalidate_code(uint32_t addr, uint32_t len) {
  if (uint64_t(addr) + len <= code_lo_ || addr >= code_end_) return;
  uint32_t lo = std::max(addr, code_lo_), hi = uint32_t(std::min<uint64_t>(uint64_t(addr) + len, code_end_));
  for (uint32_t i = (lo - code_lo_) >> 3; i <= (hi - 1 - code_lo_) >> 3; ++i) {
    auto& page = pages_[i >> kSlotPageBits];
    if (page) page->s[i & ((1u << kSlotPageBits) - 1)].state = Slot::UNKNOWN;
  }
}

bool Engine::global_ok(uint32_t addr, uint32_t len) {
  const Window& pr = p_.protect;
  if (pr.size != 0 && uint64_t(addr) < uint64_t(pr.base) + pr.size && uint64_t(addr) + len > pr.base)
    return false;
  const auto& ws = p_.windows;
  auto in = [&](const Window& w) {
    return w.size != 0 && addr >= w.base && uint64_t(addr) + len <= uint64_t(w.base) + w.size;
  };
  if (last_window_ < ws.size() && in(ws[last_window_])) return true;
  for (size_t i = 0; i < ws.size(); ++i)
    if (in(ws[i])) {
      last_window_ = i;
      return true;
    }
  return false;
}

uint32_t Engine::sreg(uint8_t id, uint32_t wi, uint32_t lane) const {
  const uint32_t t = wi * 32 + lane;
  const Dim3& b = p_.block;
  switch (id) {
    case isa::SR_TID_X: return t % b.x;
    case isa::SR_TID_Y: return (t / b.x) % b.y;
    case isa::SR_TID_Z: return t / (b.x * b.y);
    case isa::SR_NTID_X: return b.x;
    case isa::SR_NTID_Y: return b.y;
    case isa::SR_NTID_Z: return b.z;
    case isa::SR_CTAID_X: return cta_.x;
    case isa::SR_CTAID_Y: return cta_.y;
    case isa::SR_CTAID_Z: return cta_.z;
    case isa::SR_NCTAID_X: return p_.grid.x;
    case isa::SR_NCTAID_Y: return p_.grid.y;
    case isa::SR_NCTAID_Z: return p_.grid.z;
    case isa::SR_LANEID: return lane;
    case isa::SR_WARPID: return wi;
    case isa::SR_SMID: return smid_;
    case isa::SR_CLOCK: return uint32_t(res_.stats.warp_instrs);
    case isa::SR_CLOCKHI: return uint32_t(res_.stats.warp_instrs >> 32);
  }
  return 0;
}

inline void Engine::write_rd(Warp& w, uint8_t rd, uint32_t exec, const uint32_t* val) {
  if (rd == isa::kRegZero || exec == 0) return;
  uint32_t* r = w.regs[rd];
  if (exec == kAllLanes) {
    std::memcpy(r, val, sizeof w.regs[0]);
  } else {
    for (uint32_t m = exec; m; m &= m - 1) {  // only lanes whose val[] was computed
      const int i = __builtin_ctz(m);
      r[i] = val[i];
    }
  }
  if (cb_) {
    ev_.wrote_reg = true;
    ev_.rd = rd;
  }
}

inline void Engine::write_pd(Warp& w, uint8_t pd, uint32_t exec, uint32_t bits) {
  if (pd == isa::kPredTrue || exec == 0) return;
  w.preds[pd] = (w.preds[pd] & ~exec) | (bits & exec);
  if (cb_) {
    ev_.wrote_pred = true;
    ev_.pd = pd;
  }
}

// ---------------------------------------------------------------------------
bool Engine::step(uint32_t wi) {
  Warp& w = warps_[wi];
  StackEntry& e = w.stack[w.depth - 1];
  const uint32_t pc = e.pc;
  const uint32_t wmask = e.mask;
  if (p_.instr_budget && res_.stats.warp_instrs >= p_.instr_budget)
    return fault(FaultKind::WATCHDOG, wi, lowest_lane(wmask), pc, 0,
                 "instruction budget of " + std::to_string(p_.instr_budget) +
                     " warp-instructions exhausted");
  const Slot* s = fetch(wi, pc, wmask);
  if (!s) return false;
  const Instr& in = s->in;
  const uint32_t pv = w.preds[in.pg];
  const uint32_t exec = wmask & (in.pg_neg ? ~pv : pv);
  if (cb_) {
    ev_.cta_linear = cta_linear_;
    ev_.warp = wi;
    ev_.pc = pc;
    ev_.instr = in;
    ev_.warp_mask = wmask;
    ev_.exec_mask = exec;
    ev_.wrote_reg = false;
    ev_.rd = 0;
    ev_.wrote_pred = false;
    ev_.pd = 0;
    ev_.pred_values = 0;
    ev_.stores.clear();
  }

  switch (in.op) {
    case Op::LDG: case Op::LDS: case Op::LDC: case Op::STG: case Op::STS:
      if (!exec_mem(wi, in, exec, pc)) return false;
      e.pc += 8;
      break;
    case Op::ATOMG: case Op::ATOMS:
      if (!exec_atom(wi, in, exec, pc)) return false;
      e.pc += 8;
      break;
    case Op::BRA:
      if (!exec_bra(wi, in, exec, pc)) return false;
      break;
    case Op::EXIT:
      if (exec) {
        for (uint32_t i = 0; i < w.depth; ++i) w.stack[i].mask &= ~exec;
      }
      if (e.mask) e.pc += 8;
      break;
    case Op::BAR:
      e.pc += 8;
      if (exec) arrive(wi, pc, in.bar_id(), in.bar_count());
      break;
    case Op::TRAP:
      if (exec) return fault(FaultKind::TRAP, wi, lowest_lane(exec), pc, 0, "TRAP executed");
      e.pc += 8;
      break;
    default:
      exec_alu(w, in, exec, pc);
      e.pc += 8;
      break;
  }

  res_.stats.warp_instrs++;
  res_.stats.thread_instrs += popcount(exec);
  if (cb_) {
    if (ev_.wrote_reg) std::memcpy(ev_.reg_values.data(), w.regs[ev_.rd], sizeof w.regs[0]);
    if (ev_.wrote_pred) ev_.pred_values = w.preds[ev_.pd];
    cb_(ev_);
  }
  normalize(w);
  return true;
}

// ---------------------------------------------------------------------------
template <class F>
inline void map2(const uint32_t* a, const uint32_t* b, uint32_t* out, F f) {
  for (int i = 0; i < 32; ++i) out[i] = f(a[i], b[i]);
}
template <class F>
inline void map1(const uint32_t* a, uint32_t* out, F f) {
  for (int i = 0; i < 32; ++i) out[i] = f(a[i]);
}
// FP ops are costly: evaluate only the executing lanes.
template <class F>
inline void fmap2(uint32_t exec, const uint32_t* a, const uint32_t* b, uint32_t* out, F f) {
  for (uint32_t m = exec; m; m &= m - 1) {
    int i = __builtin_ctz(m);
    out[i] = f(a[i], b[i]);
  }
}

inline bool cmp_int(uint8_t c, uint32_t a, uint32_t b, bool uns) {
  const bool lt = uns ? a < b : int32_t(a) < int32_t(b);
  switch (c) {
    case isa::CMP_EQ: return a == b;
    case isa::CMP_NE: return a != b;
    case isa::CMP_LT: return lt;
    case isa::CMP_LE: return lt || a == b;
    case isa::CMP_GT: return !lt && a != b;
    case isa::CMP_GE: return !lt;
  }
  return false;
}

inline uint32_t combine(uint8_t comb, uint32_t r, uint32_t pc) {
  switch (comb) {
    case isa::COMB_AND: return r & pc;
    case isa::COMB_OR: return r | pc;
    default: return r ^ pc;
  }
}

void Engine::exec_alu(Warp& w, const Instr& in, uint32_t exec, uint32_t pc) {
  if (exec == 0 && in.op != Op::NOP) return;  // guard false everywhere: no effect
  uint32_t bbuf[32];
  const uint32_t* a = w.regs[in.ra];
  const uint32_t* b;
  if (in.bimm) {
    for (int i = 0; i < 32; ++i) bbuf[i] = in.imm;
    b = bbuf;
  } else {
    b = w.regs[in.rb];
  }
  const uint32_t* c = w.regs[in.rc];
  uint32_t out[32];
  const bool uns = in.mod & 1;
  switch (in.op) {
    case Op::NOP: return;
    case Op::MOV: map1(b, out, [](uint32_t x) { return x; }); break;
    case Op::IADD: map2(a, b, out, [](uint32_t x, uint32_t y) { return x + y; }); break;
    case Op::ISUB: map2(a, b, out, [](uint32_t x, uint32_t y) { return x - y; }); break;
    case Op::IMUL: map2(a, b, out, [](uint32_t x, uint32_t y) { return x * y; }); break;
    case Op::IMULHI:
      if (uns)
        map2(a, b, out, [](uint32_t x, uint32_t y) { return uint32_t((uint64_t(x) * y) >> 32); });
      else
        map2(a, b, out, [](uint32_t x, uint32_t y) {
          return uint32_t(uint64_t(int64_t(int32_t(x)) * int64_t(int32_t(y))) >> 32);
        });
      break;
    case Op::IMAD:
      for (int i = 0; i < 32; ++i) out[i] = a[i] * b[i] + c[i];
      break;
    case Op::IMIN:
      if (uns) map2(a, b, out, [](uint32_t x, uint32_t y) { return x < y ? x : y; });
      else map2(a, b, out, [](uint32_t x, uint32_t y) { return int32_t(x) < int32_t(y) ? x : y; });
      break;
    case Op::IMAX:
      if (uns) map2(a, b, out, [](uint32_t x, uint32_t y) { return x > y ? x : y; });
      else map2(a, b, out, [](uint32_t x, uint32_t y) { return int32_t(x) > int32_t(y) ? x : y; });
      break;
    case Op::IABS:
      map1(a, out, [](uint32_t x) { return int32_t(x) < 0 ? 0u - x : x; });
      break;
    case Op::AND: map2(a, b, out, [](uint32_t x, uint32_t y) { return x & y; }); break;
    case Op::OR: map2(a, b, out, [](uint32_t x, uint32_t y) { return x | y; }); break;
    case Op::XOR: map2(a, b, out, [](uint32_t x, uint32_t y) { return x ^ y; }); break;
    case Op::NOT: map1(a, out, [](uint32_t x) { return ~x; }); break;
    case Op::SHL: map2(a, b, out, [](uint32_t x, uint32_t y) { return y >= 32 ? 0u : x << y; }); break;
    case Op::SHR: map2(a, b, out, [](uint32_t x, uint32_t y) { return y >= 32 ? 0u : x >> y; }); break;
    case Op::SHRA:
      map2(a, b, out, [](uint32_t x, uint32_t y) { return uint32_t(int32_t(x) >> (y >= 32 ? 31 : y)); });
      break;
    case Op::POPC: map1(a, out, [](uint32_t x) { return uint32_t(__builtin_popcount(x)); }); break;
    case Op::CLZ: map1(a, out, [](uint32_t x) { return x ? uint32_t(__builtin_clz(x)) : 32u; }); break;
    case Op::ISETP: {
      uint32_t bits = 0;
      const uint8_t cmp = in.mod & 7;
      const bool u = in.mod & isa::kCmpUnsigned;
      for (int i = 0; i < 32; ++i) bits |= uint32_t(cmp_int(cmp, a[i], b[i], u)) << i;
      uint32_t pcv = w.preds[in.setp_pc()];
      if (in.setp_pc_neg()) pcv = ~pcv;
      write_pd(w, in.setp_pd(), exec, combine(in.setp_comb(), bits, pcv));
      return;
    }
    case Op::FSETP: {
      uint32_t bits = 0;
      for (uint32_t m = exec; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        bits |= uint32_t(fp32::compare(in.setp_cmp(), a[i], b[i])) << i;
      }
      uint32_t pcv = w.preds[in.setp_pc()];
      if (in.setp_pc_neg()) pcv = ~pcv;
      write_pd(w, in.setp_pd(), exec, combine(in.setp_comb(), bits, pcv));
      return;
    }
    case Op::SEL: {
      uint32_t s = w.preds[in.sel_pc()];
      if (in.sel_pc_neg()) s = ~s;
      for (int i = 0; i < 32; ++i) out[i] = (s >> i) & 1 ? a[i] : b[i];
      break;
    }
    case Op::S2R:
      for (uint32_t m = exec; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        out[i] = sreg(in.mod, uint32_t(&w - warps_.data()), uint32_t(i));
      }
      break;
    case Op::FADD: fmap2(exec, a, b, out, fp32::add); break;
    case Op::FSUB: fmap2(exec, a, b, out, fp32::sub); break;
    case Op::FMUL: fmap2(exec, a, b, out, fp32::mul); break;
    case Op::FFMA:
      for (uint32_t m = exec; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        out[i] = fp32::fma(a[i], b[i], c[i]);
      }
      break;
    case Op::FMIN: fmap2(exec, a, b, out, fp32::min); break;
    case Op::FMAX: fmap2(exec, a, b, out, fp32::max); break;
    case Op::FNEG: map1(a, out, [](uint32_t x) { return fp32::neg(x); }); break;
    case Op::FABS: map1(a, out, [](uint32_t x) { return fp32::abs(x); }); break;
    case Op::I2F:
      for (uint32_t m = exec; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        out[i] = uns ? fp32::from_u32(a[i]) : fp32::from_i32(int32_t(a[i]));
      }
      break;
    case Op::F2I:
      for (uint32_t m = exec; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        out[i] = uns ? fp32::to_u32(a[i]) : uint32_t(fp32::to_i32(a[i]));
      }
      break;
    case Op::VOTE: {
      uint32_t pa = w.preds[in.vote_pa()];
      if (in.vote_pa_neg()) pa = ~pa;
      const uint32_t yes = exec & pa;  // participants: the guard-true lanes
      if (in.mod == isa::VOTE_BALLOT) {
        for (int i = 0; i < 32; ++i) out[i] = yes;
        write_rd(w, in.rd, exec, out);
      } else {
        const bool r = in.mod == isa::VOTE_ANY ? yes != 0 : yes == exec;
        write_pd(w, in.rd & 7, exec, r ? kAllLanes : 0);
      }
      return;
    }
    case Op::SHFL: {
      const uint32_t width = in.shfl_width();
      const uint8_t mode = in.shfl_mode();
      for (uint32_t m = exec; m; m &= m - 1) {
        const uint32_t lane = uint32_t(__builtin_ctz(m));
        const uint32_t base = lane & ~(width - 1);
        const uint32_t bv = b[lane];
        uint32_t src = lane;
        switch (mode) {
          case isa::SHFL_IDX: src = base + (bv & (width - 1)); break;
          case isa::SHFL_UP: src = uint64_t(bv) > lane - base ? lane : lane - bv; break;
          case isa::SHFL_DOWN: src = uint64_t(lane) + bv >= base + width ? lane : lane + bv; break;
          default: src = lane ^ (bv & (width - 1)); break;
        }
        out[lane] = a[src];  // an inactive source lane still has its register value
      }
      break;
    }
    default:
      return;  // not reached: every other opcode is handled by step()
  }
  write_rd(w, in.rd, exec, out);
}

// ---------------------------------------------------------------------------
inline uint32_t load_le(const uint8_t* p, uint32_t n) {
  uint32_t v = p[0];
  if (n >= 2) v |= uint32_t(p[1]) << 8;
  if (n == 4) v |= uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  return v;
}
inline void store_le(uint8_t* p, uint32_t n, uint32_t v) {
  p[0] = uint8_t(v);
  if (n >= 2) p[1] = uint8_t(v >> 8);
  if (n == 4) {
    p[2] = uint8_t(v >> 16);
    p[3] = uint8_t(v >> 24);
  }
}

// Detail text of a memory fault, e.g. "shared store of 2 bytes outside shared
// memory (1024 bytes)"; built only when the fault happens.
bool Engine::mem_fault(FaultKind k, uint32_t wi, uint32_t lane, uint32_t pc, uint32_t ad,
                       const Instr& in, uint32_t size) {
  const bool atom = in.op == Op::ATOMG || in.op == Op::ATOMS;
  const bool store = in.op == Op::STG || in.op == Op::STS;
  const bool global = in.op == Op::LDG || in.op == Op::STG || in.op == Op::ATOMG;
  const bool shared = in.op == Op::LDS || in.op == Op::STS || in.op == Op::ATOMS;
  std::string d = global ? "" : shared ? "shared " : "param ";
  d += atom ? "atomic" : store ? "store" : "load";
  d += " of " + std::to_string(size) + " bytes ";
  if (k == FaultKind::MISALIGNED)
    d += "not " + std::to_string(size) + "-byte aligned";
  else if (k == FaultKind::MEMORY_ERROR)
    d += "got a memory error";
  else if (global)
    d += "outside every window";
  else if (shared)
    d += "outside shared memory (" + std::to_string(p_.shared_bytes) + " bytes)";
  else
    d += "outside the parameter buffer (" + std::to_string(p_.param_size) + " bytes)";
  return fault(k, wi, lane, pc, ad, d);
}

bool Engine::exec_mem(uint32_t wi, const Instr& in, uint32_t exec, uint32_t pc) {
  Warp& w = warps_[wi];
  const bool store = in.op == Op::STG || in.op == Op::STS;
  const bool global = in.op == Op::LDG || in.op == Op::STG;
  const bool shared = in.op == Op::LDS || in.op == Op::STS;
  const uint32_t size = in.mod == isa::LDW_32 ? 4 : in.mod >= isa::LDW_U16 ? 2 : 1;
  const uint32_t* a = w.regs[in.ra];
  uint32_t addr[32];
  // Pass 1: every check, lane by lane, before any effect.
  for (uint32_t m = exec; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    const uint32_t ad = a[lane] + in.imm;
    addr[lane] = ad;
    if (ad & (size - 1)) return mem_fault(FaultKind::MISALIGNED, wi, lane, pc, ad, in, size);
    const bool ok = global ? global_ok(ad, size)
                    : shared ? uint64_t(ad) + size <= p_.shared_bytes
                             : uint64_t(ad) + size <= p_.param_size;
    if (!ok) return mem_fault(FaultKind::OUT_OF_WINDOW, wi, lane, pc, ad, in, size);
  }
  // Pass 2: memory errors, found only once the accesses reach memory (after
  // every window check passed, as on the SM).
  if (poison_ && !shared) {
    const uint32_t off = global ? 0 : p_.param_addr;
    for (uint32_t m = exec; m; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(m));
      if (poison_->hit(off + addr[lane], size))
        return mem_fault(FaultKind::MEMORY_ERROR, wi, lane, pc, addr[lane], in, size);
    }
  }
  if (cb_) std::memcpy(ev_.mem_addrs.data(), addr, sizeof addr);
  if (exec == 0) return true;
  if (store) {
    const uint32_t* d = w.regs[in.rd];
    const uint32_t vmask = size == 4 ? kAllLanes : (1u << (size * 8)) - 1;
    uint8_t* base = shared ? shared_.data() : mem8_;
    for (uint32_t m = exec; m; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(m));
      const uint32_t v = d[lane] & vmask;
      store_le(base + addr[lane], size, v);
      if (global) invalidate_code(addr[lane], size);
      if (cb_) ev_.stores.push_back(StoreRecord{shared, addr[lane], uint8_t(size), v, uint8_t(lane)});
    }
    return true;
  }
  const uint8_t* base = global ? mem8_ : shared ? shared_.data() : mem8_ + p_.param_addr;
  uint32_t out[32];
  for (uint32_t m = exec; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    uint32_t v = load_le(base + addr[lane], size);
    if (in.mod == isa::LDW_S8) v = uint32_t(int32_t(int8_t(v)));
    if (in.mod == isa::LDW_S16) v = uint32_t(int32_t(int16_t(v)));
    out[lane] = v;
  }
  write_rd(w, in.rd, exec, out);
  return true;
}

bool Engine::exec_atom(uint32_t wi, const Instr& in, uint32_t exec, uint32_t pc) {
  Warp& w = warps_[wi];
  const bool global = in.op == Op::ATOMG;
  const uint32_t* a = w.regs[in.ra];
  const uint32_t* b = w.regs[in.rb];
  const uint32_t* c = w.regs[in.rc];
  uint32_t addr[32];
  for (uint32_t m = exec; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    const uint32_t ad = a[lane] + in.imm;
    addr[lane] = ad;
    if (ad & 3) return mem_fault(FaultKind::MISALIGNED, wi, lane, pc, ad, in, 4);
    if (global ? !global_ok(ad, 4) : uint64_t(ad) + 4 > p_.shared_bytes)
      return mem_fault(FaultKind::OUT_OF_WINDOW, wi, lane, pc, ad, in, 4);
  }
  if (poison_ && global) {
    for (uint32_t m = exec; m; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(m));
      if (poison_->hit(addr[lane], 4)) return mem_fault(FaultKind::MEMORY_ERROR, wi, lane, pc, addr[lane], in, 4);
    }
  }
  if (cb_) std::memcpy(ev_.mem_addrs.data(), addr, sizeof addr);
  if (exec == 0) return true;
  uint8_t* base = global ? mem8_ : shared_.data();
  const uint8_t op = in.mod & 0xF;
  const bool uns = in.mod & isa::kAtomUnsigned;
  uint32_t out[32];
  // Lanes are applied one after another in lane order.
  for (uint32_t m = exec; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    uint8_t* p = base + addr[lane];
    const uint32_t old = load_le(p, 4), bv = b[lane];
    uint32_t nv = old;
    bool st = true;
    switch (op) {
      case isa::ATOM_ADD: nv = old + bv; break;
      case isa::ATOM_MIN: nv = uns ? std::min(old, bv) : uint32_t(std::min(int32_t(old), int32_t(bv))); break;
      case isa::ATOM_MAX: nv = uns ? std::max(old, bv) : uint32_t(std::max(int32_t(old), int32_t(bv))); break;
      case isa::ATOM_EXCH: nv = bv; break;
      case isa::ATOM_CAS:
        st = old == bv;
        nv = c[lane];
        break;
      case isa::ATOM_AND: nv = old & bv; break;
      case isa::ATOM_OR: nv = old | bv; break;
      default: nv = old ^ bv; break;
    }
    if (st) {
      store_le(p, 4, nv);
      if (global) invalidate_code(addr[lane], 4);
      if (cb_) ev_.stores.push_back(StoreRecord{!global, addr[lane], 4, nv, uint8_t(lane)});
    }
    out[lane] = old;
  }
  write_rd(w, in.rd, exec, out);
  return true;
}

bool Engine::exec_bra(uint32_t wi, const Instr& in, uint32_t exec, uint32_t pc) {
  Warp& w = warps_[wi];
  const uint32_t top = w.depth - 1;
  StackEntry& e = w.stack[top];
  const uint32_t T = pc + uint32_t(in.bra_target_delta() * 8);
  const int32_t rd = in.bra_reconv_delta();
  const uint32_t R = rd == 0 ? kNoPc : pc + uint32_t(rd * 8);
  const uint32_t F = pc + 8;
  const uint32_t taken = exec, rest = e.mask & ~exec;
  if (rest == 0) {
    e.pc = T;
    return true;
  }
  if (taken == 0) {
    e.pc = F;
    return true;
  }
  // Divergence: compute the resulting depth first so an overflow changes nothing.
  const bool same_join = R == e.rpc;
  const uint32_t pushes = (same_join ? 0 : (F != R)) + (T != R);
  const uint32_t keep = same_join && F == R ? top : top + 1;  // entries left below the pushes
  const uint32_t need = keep + pushes;
  if (need > cfg_.stack_depth)
    return fault(FaultKind::STACK_OVERFLOW, wi, lowest_lane(e.mask), pc, 0,
                 "divergent branch needs " + std::to_string(need) + " stack entries, depth is " +
                     std::to_string(cfg_.stack_depth));
  uint32_t d = keep;
  if (same_join) {
    if (F != R) e = StackEntry{F, R, rest};
  } else {
    e.pc = R;
    if (F != R) w.stack[d++] = StackEntry{F, R, rest};
  }
  if (T != R) w.stack[d++] = StackEntry{T, R, taken};
  w.depth = d;
  res_.stats.divergent_branches++;
  return true;
}

}  // namespace

FunctionalModel::FunctionalModel(DeviceMemory& mem, ModelConfig cfg) : mem_(mem), cfg_(cfg) {}

LaunchResult FunctionalModel::run(const LaunchParams& p) {
  Engine e(mem_, cfg_, p, retire_cb_);
  return e.run();
}

// ---------------------------------------------------------------------------
// LockstepModel: one Engine per resident CTA over the shared device memory.
struct LockstepModel::Impl {
  Impl(DeviceMemory& mem, const ModelConfig& cfg, const LaunchParams& p)
      : cb([this](const RetireEvent& e) { last = e; }), engine(mem, cfg, p, cb) {}
  std::function<void(const RetireEvent&)> cb;
  Engine engine;
  RetireEvent last;
};

LockstepModel::LockstepModel(DeviceMemory& mem, const ModelConfig& cfg, const LaunchParams& p)
    : mem_(mem), cfg_(cfg), p_(p) {
  grid_ctas_ = p_.grid.count();
  // Validated once, by an engine that runs nothing.
  std::function<void(const RetireEvent&)> none;
  Engine probe(mem_, cfg_, p_, none);
  launch_error_ = probe.prepare();
}

LockstepModel::~LockstepModel() {
  for (auto& c : ctas_) delete c.second;
}

const std::string& LockstepModel::launch_error() const { return launch_error_; }

LockstepModel::Impl* LockstepModel::cta(uint32_t linear) {
  for (auto& c : ctas_)
    if (c.first == linear) return c.second;
  if (!launch_error_.empty() || linear >= grid_ctas_ || done_.count(linear)) return nullptr;
  auto* impl = new Impl(mem_, cfg_, p_);
  impl->engine.prepare();
  const uint32_t gx = p_.grid.x, gy = p_.grid.y;
  impl->engine.start_cta(linear, Dim3{linear % gx, (linear / gx) % gy, linear / (gx * gy)});
  ctas_.emplace_back(linear, impl);
  started_++;
  return impl;
}

LockstepModel::WarpView LockstepModel::warp(uint32_t cta_linear, uint32_t wi) {
  WarpView v;
  if (wi >= (p_.block.count() + 31) / 32) return v;
  if (done_.count(cta_linear)) {
    v.exists = v.exited = true;
    return v;
  }
  Impl* c = cta(cta_linear);
  if (!c) return v;
  const Warp& w = c->engine.warp(wi);
  v.exists = true;
  v.exited = w.exited;
  v.waiting = w.waiting;
  v.bar_id = w.bar_id;
  v.depth = w.depth;
  if (!w.exited) {
    v.pc = w.stack[w.depth - 1].pc;
    v.mask = w.stack[w.depth - 1].mask;
  }
  return v;
}

bool LockstepModel::step(uint32_t cta_linear, uint32_t wi, RetireEvent* ev) {
  if (faulted()) return false;
  Impl* c = cta(cta_linear);
  if (!c || wi >= (p_.block.count() + 31) / 32) {
    fault_.kind = FaultKind::ILLEGAL_INSTR;
    fault_.detail = "lockstep: no such CTA/warp";
    return false;
  }
  const Warp& w = c->engine.warp(wi);
  if (w.exited || w.waiting) {  // the caller's order is impossible
    fault_.kind = FaultKind::ILLEGAL_INSTR;
    fault_.detail = w.exited ? "lockstep: the warp has exited" : "lockstep: the warp waits at a barrier";
    return false;
  }
  steps_++;
  const bool stepped = c->engine.step(wi);
  const bool ok = stepped && c->engine.check_deadlock();
  // A faulting step retires nothing; its event still names the instruction
  // when the fault came after the fetch (TRAP, memory, stack overflow).
  if (ev) *ev = stepped ? c->last : c->engine.last_event();
  if (!ok) {
    fault_ = c->engine.result().fault;
    return false;
  }
  if (c->engine.live() == 0) {  // the CTA is over: its engine goes
    finished_++;
    done_.insert(cta_linear);
    for (auto it = ctas_.begin(); it != ctas_.end(); ++it)
      if (it->first == cta_linear) {
        delete it->second;
        ctas_.erase(it);
        break;
      }
  }
  return true;
}

void LockstepModel::set_reg(uint32_t cta_linear, uint32_t wi, uint8_t reg, uint32_t lane, uint32_t value) {
  Impl* c = cta(cta_linear);
  if (!c || wi >= (p_.block.count() + 31) / 32 || reg >= isa::kRegZero || lane >= 32) return;
  c->engine.warp(wi).regs[reg][lane] = value;
}

}  // namespace baresm::iss
