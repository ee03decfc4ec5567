// Block tests of baresm_lsu (verilated) driven from C++ with the
// device-memory model on its memory port. Every result is compared with a
// C++ reference of docs/isa.md's memory semantics that runs the same
// instructions lane by lane; pass and request counts are compared with
// independently computed minima.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <type_traits>
#include <vector>

#include "Vlsu.h"
#include "isa/mem_poison.h"
#include "sim/harness/mem_model.h"
#include "verilated.h"

using baresm::sim::atomic_apply;
using baresm::sim::MemModel;
using baresm::sim::MemModelConfig;
using baresm::sim::MemOp;
using baresm::sim::MemRequest;

namespace {

constexpr uint32_t kBanks = LSU_NUM_BANKS;
constexpr uint32_t kShared = LSU_SHARED_BYTES;
constexpr uint32_t kLine = LSU_LINE_BYTES;
constexpr uint32_t kIds = 1u << LSU_ID_WIDTH;
constexpr uint32_t kWarps = LSU_NUM_WARPS;
#ifndef LSU_NUM_LANES
#define LSU_NUM_LANES 32
#endif
// Lanes the unit handles per cycle (its NumLanes): a warp goes through it in
// kBeats beats of kLanes lanes (docs/lsu.md, "Beats").
constexpr uint32_t kLanes = LSU_NUM_LANES;
constexpr uint32_t kBeats = 32 / kLanes;
constexpr uint32_t kGmemBytes = 64 * 1024;
#ifndef LSU_LOAD_SLOTS
#define LSU_LOAD_SLOTS 0
#endif
// Global loads that may wait for their responses outside stage A (the unit's
// LoadSlots): with any, such a load may complete after later instructions.
constexpr uint32_t kLoadSlots = LSU_LOAD_SLOTS;

// Opcodes and fault kinds (contract/opcodes.def, iss::FaultKind).
enum : uint8_t { LDG = 0x30, LDS = 0x31, LDC = 0x32, STG = 0x33, STS = 0x34, ATOMG = 0x35, ATOMS = 0x36 };
enum : uint8_t { K_OOW = 3, K_MIS = 4 };
enum : uint8_t { U8 = 0, S8 = 1, U16 = 2, S16 = 3, W32 = 4 };
enum : uint8_t { A_ADD = 0, A_MIN, A_MAX, A_EXCH, A_CAS, A_AND, A_OR, A_XOR };

struct Window {
  uint32_t base = 0, size = 0;
};
struct Ctx {
  uint32_t param_base = 0xE000, param_size = 256;
  std::array<Window, 4> win{{{0x1000, 0x4000}, {0x8000, 0x2000}, {0xC000, 0x100}, {0, 0}}};
  Window prot;  // the protected range: out of every window (size 0: none)
};

struct WarpOp {
  uint8_t op = LDS;
  uint8_t mod = W32;
  uint32_t mask = 0xFFFFFFFFu;
  uint8_t warp = 0;
  uint8_t rd = 1;
  std::array<uint32_t, 32> addr{}, data{}, swap{};
  uint32_t smem_base = 0, smem_size = kShared;
};

struct Completion {
  uint8_t warp = 0, rd = 0;
  uint32_t mask = 0;
  bool we = false, fault = false;
  uint8_t kind = 0, lane = 0;
  uint32_t faddr = 0;
  std::array<uint32_t, 32> data{};
};

bool is_load(uint8_t op) {
  return op == LDG || op == LDS || op == LDC;
}
bool is_atom(uint8_t op) {
  return op == ATOMG || op == ATOMS;
}
bool is_shared(uint8_t op) {
  return op == LDS || op == STS || op == ATOMS;
}
bool is_global_load(uint8_t op) {
  return op == LDG || op == LDC;
}
uint32_t width_of(const WarpOp& o) {
  if (is_atom(o.op)) return 4;
  return (o.mod & 4) ? 4 : (o.mod & 2) ? 2 : 1;
}

// ---- the reference: docs/isa.md, lane by lane ------------------------------
struct RefMachine {
  Ctx ctx;
  std::vector<uint8_t> gmem = std::vector<uint8_t>(kGmemBytes, 0);
  std::vector<uint8_t> smem = std::vector<uint8_t>(kShared, 0);

  Completion exec(const WarpOp& o) {
    Completion c;
    c.warp = o.warp;
    c.rd = o.rd;
    c.mask = o.mask;
    const uint32_t w = width_of(o);
    for (int i = 0; i < 32; i++) {  // faults first, for every lane, nothing touched
      if (!((o.mask >> i) & 1)) continue;
      const uint32_t a = o.addr[i];
      uint8_t kind = 0;
      if (a % w) {
        kind = K_MIS;
      } else {
        const uint64_t end = uint64_t(a) + w;
        bool ok;
        if (is_shared(o.op)) {
          ok = end <= o.smem_size;
        } else if (o.op == LDC) {
          ok = end <= ctx.param_size;
        } else {
          ok = false;
          for (const Window& win : ctx.win) {
            if (a >= win.base && end <= uint64_t(win.base) + win.size) ok = true;
          }
          if (ctx.prot.size && a < uint64_t(ctx.prot.base) + ctx.prot.size && end > ctx.prot.base) ok = false;
        }
        if (!ok) kind = K_OOW;
      }
      if (kind) {
        c.fault = true;
        c.kind = kind;
        c.lane = uint8_t(i);
        c.faddr = a;
        return c;
      }
    }
    c.we = is_load(o.op) || is_atom(o.op);
    for (int i = 0; i < 32; i++) {
      if (!((o.mask >> i) & 1)) continue;
      uint8_t* base;
      uint32_t pa;
      if (is_shared(o.op)) {
        base = smem.data();
        pa = (o.smem_base + o.addr[i]) % kShared;
      } else {
        base = gmem.data();
        pa = o.addr[i] + (o.op == LDC ? ctx.param_base : 0);
      }
      uint32_t v = 0;
      std::memcpy(&v, base + pa, w);
      if (is_load(o.op)) {
        if (o.mod == S8) v = uint32_t(int32_t(int8_t(v)));
        if (o.mod == S16) v = uint32_t(int32_t(int16_t(v)));
        c.data[i] = v;
      } else if (is_atom(o.op)) {
        c.data[i] = v;
        const uint32_t nv = atomic_apply(o.mod & 0x1F, v, o.data[i], o.swap[i]);
        std::memcpy(base + pa, &nv, 4);
      } else {
        std::memcpy(base + pa, &o.data[i], w);
      }
    }
    return c;
  }
};

// Passes a conflict-free-as-possible bank schedule needs: per beat, the most
// distinct words any bank has (atomics: the most lanes any bank has); the
// beats' passes add up (one beat of 32 lanes when kLanes == 32).
uint32_t expected_passes(const WarpOp& o) {
  uint32_t total = 0;
  for (uint32_t beat = 0; beat < kBeats; beat++) {
    std::vector<std::set<uint32_t>> words(kBanks);
    std::vector<uint32_t> lanes(kBanks, 0);
    for (uint32_t i = beat * kLanes; i < (beat + 1) * kLanes; i++) {
      if (!((o.mask >> i) & 1)) continue;
      const uint32_t word = ((o.smem_base + o.addr[i]) % kShared) / 4;
      words[word % kBanks].insert(word);
      lanes[word % kBanks]++;
    }
    uint32_t p = 0;
    for (uint32_t b = 0; b < kBanks; b++) {
      p = std::max<uint32_t>(p, is_atom(o.op) ? lanes[b] : uint32_t(words[b].size()));
    }
    total += p;
  }
  return total;
}

// Beats with an active lane: the fault check takes one cycle each.
uint32_t active_beats(const WarpOp& o) {
  uint32_t n = 0;
  for (uint32_t beat = 0; beat < kBeats; beat++) n += ((o.mask >> (beat * kLanes)) & ((1ull << kLanes) - 1)) != 0;
  return n;
}

// Cycles the fault check adds before the first access: with one beat none
// (the access starts in the check's cycle), else one per active beat.
uint32_t check_cycles(const WarpOp& o) { return kBeats == 1 ? 0 : active_beats(o); }

// Requests of a global access: distinct lines (atomics: active lanes) with
// one beat; with several, the requests the unit forms (docs/lsu.md): a
// request starts at the lowest pending lane's line, takes that beat's lanes
// in the line, then each following beat's; it is sent when a beat has
// pending lanes outside the line, no lane of it is in the line, or nothing
// is left. That is the number of distinct lines when the lines of the warp
// come in lane order (unit stride, one line per lane, broadcasts, ...).
uint32_t expected_requests(const WarpOp& o, const Ctx& ctx) {
  uint32_t pend = o.mask, n = 0;
  auto line = [&](uint32_t i) { return (o.addr[i] + (o.op == LDC ? ctx.param_base : 0)) / kLine; };
  if (is_atom(o.op)) return uint32_t(__builtin_popcount(pend));
  bool forming = false;
  uint32_t form_line = 0;
  while (pend) {
    const uint32_t beat = uint32_t(__builtin_ctz(pend)) / kLanes;
    const uint32_t beat_mask = uint32_t(((1ull << kLanes) - 1) << (beat * kLanes));
    if (!forming) {
      form_line = line(uint32_t(__builtin_ctz(pend)));
      n++;
    }
    uint32_t match = 0;
    for (uint32_t i = beat * kLanes; i < (beat + 1) * kLanes; i++) {
      if (((pend >> i) & 1) && line(i) == form_line) match |= 1u << i;
    }
    if (forming && match == 0) {
      forming = false;  // sent as it is; the beat starts the next request
      continue;
    }
    pend &= ~match;
    forming = (pend & beat_mask) == 0 && pend != 0;
  }
  return n;
}

// ---- wide-signal helpers (VlWide or a plain integer, per configuration) ----
template <class T>
uint32_t get_word(const T& v, int w) {
  if constexpr (std::is_integral_v<T>) {
    return uint32_t(uint64_t(v) >> (32 * w));
  } else {
    return v[w];
  }
}
template <class T>
void set_word(T& v, int w, uint32_t x) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U m = U(0xFFFFFFFFull) << (32 * w);
    v = T((U(v) & ~m) | (U(x) << (32 * w)));
  } else {
    v[w] = x;
  }
}
template <class T>
bool get_bit(const T& v, int i) {
  return (get_word(v, i / 32) >> (i % 32)) & 1;
}

// ---- the bench -------------------------------------------------------------
struct BenchConfig {
  MemModelConfig mem;
  double cpl_ready = 1.0;  // probability cpl_ready_i is high in a cycle
  uint64_t seed = 1;
  Window prot;  // prot_base_i / prot_size_i
};

class Bench {
 public:
  explicit Bench(const BenchConfig& cfg = {}) : cfg_(cfg), rng_(cfg.seed * 7919 + 1) {
    ref_.ctx.prot = cfg.prot;
    ctx_ = ref_.ctx;
    MemModelConfig mc = cfg.mem;
    mc.line_bytes = kLine;
    gmem_ = ref_.gmem;
    mem_ = std::make_unique<MemModel>(gmem_, mc, &poison_);
    top_ = std::make_unique<Vlsu>(&vctx_);
    top_->clk_i = 0;
    top_->rst_ni = 0;
    drive_idle();
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }

  RefMachine& ref() { return ref_; }
  MemModel& mem() { return *mem_; }
  // Lines whose every request the memory answers with mem_rsp_err_i.
  baresm::iss::PoisonMap& poison() { return poison_; }
  const std::vector<uint8_t>& device_memory() const { return gmem_; }
  uint64_t cycles() const { return cycle_; }
  uint32_t passes() const { return top_->smem_passes_o; }
  uint32_t gmem_reqs() const { return top_->gmem_reqs_o; }
  uint64_t first_accept() const { return first_accept_; }
  uint64_t last_completion() const { return last_cpl_; }
  // Completions that came before an older instruction's (load slots).
  uint64_t out_of_order() const { return overtaken_; }

  // Fills device memory (design and reference) with a pattern.
  void fill_gmem(uint32_t seed) {
    for (uint32_t i = 0; i < kGmemBytes; i++) {
      gmem_[i] = ref_.gmem[i] = uint8_t((i * 131u + seed * 17u) ^ (i >> 8));
    }
  }
  // Fills the whole shared memory (design through STS, and reference).
  void fill_smem(uint32_t seed) {
    std::vector<WarpOp> ops;
    for (uint32_t off = 0; off < kShared; off += 128) {
      WarpOp o;
      o.op = STS;
      for (int i = 0; i < 32; i++) {
        o.addr[i] = off + 4 * i;
        o.data[i] = (off + 4 * i) * 2654435761u + seed;
      }
      ops.push_back(o);
    }
    run_checked(ops);
  }

  // Issues the instructions back to back and returns their completions, in
  // instruction order. Each instruction's req_pc_i is 8 x its index; its
  // completion is found by cpl_pc_o. The order they complete in is checked:
  // issue order, except that with load slots a global load may complete
  // after later instructions (never after a fault: a fault completes only
  // when everything before it has).
  std::vector<Completion> run(const std::vector<WarpOp>& ops, uint64_t limit = 2000000) {
    std::vector<Completion> out(ops.size());
    std::vector<bool> done(ops.size(), false);
    size_t ndone = 0;
    size_t next = 0;
    first_accept_ = ~0ull;
    // Request accounting: instructions send their requests in order, so each
    // accepted request belongs to the first instruction still short of its
    // minimum; every one must be answered before that instruction completes.
    std::vector<uint32_t> want_req(ops.size(), 0), issued(ops.size(), 0), open(ops.size(), 0);
    for (size_t k = 0; k < ops.size(); k++) {
      RefMachine probe;  // faults depend on addresses only
      probe.ctx = ctx_;
      if (!is_shared(ops[k].op) && !probe.exec(ops[k]).fault) want_req[k] = expected_requests(ops[k], ctx_);
    }
    std::map<uint32_t, size_t> id_owner;
    size_t owner = 0;
    const uint64_t start = cycle_;
    bool prev_mreq = false, prev_cpl = false;
    MemRequest prev_req;
    Completion prev_c;
    while (ndone < ops.size()) {
      if (cycle_ - start > limit) {
        ADD_FAILURE() << "timeout: " << ndone << "/" << ops.size() << " completed";
        break;
      }
      // Drive this cycle's inputs.
      const bool valid = next < ops.size();
      if (valid)
        drive_op(ops[next], uint32_t(next) * 8);
      else
        drive_idle();
      top_->req_valid_i = valid;
      drive_ctx();
      top_->mem_req_ready_i = mem_->req_ready();
      top_->mem_rsp_valid_i = mem_->rsp_valid();
      if (mem_->rsp_valid()) {
        top_->mem_rsp_id_i = mem_->rsp().id;
        top_->mem_rsp_err_i = mem_->rsp().error;
        for (uint32_t w = 0; w < kLine / 4; w++) {
          uint32_t x;
          std::memcpy(&x, &mem_->rsp().rdata[4 * w], 4);
          set_word(top_->mem_rsp_rdata_i, int(w), x);
        }
      } else {
        // Garbage on an invalid response must not matter.
        top_->mem_rsp_id_i = uint32_t(rnd()) & (kIds - 1);
        top_->mem_rsp_err_i = rnd() & 1;
        for (uint32_t w = 0; w < kLine / 4; w++) set_word(top_->mem_rsp_rdata_i, int(w), uint32_t(rnd()));
      }
      const bool cpl_ready = chance(cfg_.cpl_ready);
      top_->cpl_ready_i = cpl_ready;
      top_->eval();

      // Sample the design's outputs before the edge.
      const bool accept = valid && top_->req_ready_o;
      if (accept && first_accept_ == ~0ull) first_accept_ = cycle_;
      const bool mreq = top_->mem_req_valid_o;
      MemRequest req;
      if (mreq) req = capture_req();
      if (prev_mreq) {  // a request must hold until accepted
        EXPECT_TRUE(mreq) << "request withdrawn at cycle " << cycle_;
        if (mreq) {
          EXPECT_EQ(req.id, prev_req.id);
          EXPECT_EQ(req.addr, prev_req.addr);
          EXPECT_EQ(req.wdata, prev_req.wdata);
          EXPECT_EQ(req.wstrb, prev_req.wstrb);
        }
      }
      prev_mreq = mreq && !mem_->req_ready();
      prev_req = req;
      if (mreq) check_request(req);
      const bool rsp_ready = top_->mem_rsp_ready_o;
      if (mreq && mem_->req_ready()) {
        while (owner < ops.size() && issued[owner] == want_req[owner]) owner++;
        if (owner < ops.size()) {
          EXPECT_EQ(id_owner.count(req.id), 0u) << "id " << req.id << " reused while in flight";
          issued[owner]++;
          open[owner]++;
          id_owner[req.id] = owner;
        } else {
          ADD_FAILURE() << "more requests than the minimum at cycle " << cycle_;
        }
      }
      if (mem_->rsp_valid() && rsp_ready) {
        auto it = id_owner.find(mem_->rsp().id);
        if (it != id_owner.end()) {
          open[it->second]--;
          id_owner.erase(it);
        }
      }
      if (top_->cpl_valid_o) {
        const Completion c = capture_cpl();
        if (prev_cpl) {  // a completion must hold until taken
          EXPECT_EQ(c.fault, prev_c.fault);
          EXPECT_EQ(c.mask, prev_c.mask);
          EXPECT_EQ(c.data, prev_c.data);
        }
        prev_cpl = !cpl_ready;
        prev_c = c;
        if (cpl_ready) {
          const size_t k = top_->cpl_pc_o / 8;
          if (top_->cpl_pc_o % 8 != 0 || k >= next || done[k]) {
            ADD_FAILURE() << "completion with pc 0x" << std::hex << top_->cpl_pc_o << std::dec
                          << " names no instruction in flight (" << next << " accepted) at cycle " << cycle_;
            break;
          }
          for (size_t j = 0; j < k; j++) {
            if (done[j]) continue;
            EXPECT_TRUE(kLoadSlots > 0 && is_global_load(ops[j].op) && !c.fault)
                << "instruction " << k << (c.fault ? " (a fault)" : "") << " completed before instruction " << j
                << " (op 0x" << std::hex << int(ops[j].op) << ")";
          }
          EXPECT_EQ(issued[k], want_req[k]) << "instruction " << k << " completed short of requests";
          EXPECT_EQ(open[k], 0u) << "instruction " << k << " completed before all its responses";
          if (k != ndone) overtaken_++;
          out[k] = c;
          done[k] = true;
          ndone++;
          last_cpl_ = cycle_;
        }
      } else {
        EXPECT_FALSE(prev_cpl) << "completion withdrawn at cycle " << cycle_;
        prev_cpl = false;
      }

      // The clock edge.
      top_->clk_i = 1;
      top_->eval();
      mem_->tick(mreq, req, rsp_ready);
      top_->clk_i = 0;
      top_->eval();
      cycle_++;
      if (accept) next++;
    }
    EXPECT_EQ(mem_->counters().bad_requests, 0u);
    return out;
  }

  // Runs on the design and the reference; compares every completion.
  void run_checked(const std::vector<WarpOp>& ops, const char* what = "") {
    std::vector<Completion> expect;
    for (const WarpOp& o : ops) expect.push_back(ref_.exec(o));
    const std::vector<Completion> got = run(ops);
    ASSERT_EQ(got.size(), expect.size());
    for (size_t k = 0; k < got.size(); k++) {
      SCOPED_TRACE(testing::Message() << what << " instruction " << k << " op 0x" << std::hex
                                      << int(ops[k].op) << " mod " << int(ops[k].mod));
      compare(got[k], expect[k]);
    }
  }

  static void compare(const Completion& got, const Completion& exp) {
    EXPECT_EQ(got.warp, exp.warp);
    EXPECT_EQ(got.rd, exp.rd);
    EXPECT_EQ(got.mask, exp.mask);
    ASSERT_EQ(got.fault, exp.fault);
    if (exp.fault) {
      EXPECT_EQ(got.kind, exp.kind);
      EXPECT_EQ(got.lane, exp.lane);
      EXPECT_EQ(got.faddr, exp.faddr);
      EXPECT_FALSE(got.we);
      return;
    }
    ASSERT_EQ(got.we, exp.we);
    if (!exp.we) return;
    for (int i = 0; i < 32; i++) {
      if ((exp.mask >> i) & 1) {
        EXPECT_EQ(got.data[i], exp.data[i]) << "lane " << i;
      }
    }
  }

  // Device memory of the design vs the reference.
  void expect_gmem_matches() {
    size_t bad = 0;
    for (uint32_t i = 0; i < kGmemBytes && bad < 10; i++) {
      if (gmem_[i] != ref_.gmem[i]) {
        ADD_FAILURE() << "gmem[0x" << std::hex << i << "] = 0x" << int(gmem_[i]) << ", expected 0x"
                      << int(ref_.gmem[i]);
        bad++;
      }
    }
  }
  // Shared memory of the design (read back through LDS) vs the reference.
  void expect_smem_matches() {
    std::vector<WarpOp> ops;
    for (uint32_t off = 0; off < kShared; off += 128) {
      WarpOp o;
      o.op = LDS;
      for (int i = 0; i < 32; i++) o.addr[i] = off + 4 * i;
      ops.push_back(o);
    }
    run_checked(ops, "shared-memory readback");
  }

  uint64_t rnd() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }
  bool chance(double p) { return p >= 1.0 || double(rnd() % 1000000) < p * 1e6; }

 private:
  void drive_idle() {
    top_->req_valid_i = 0;
    top_->req_op_i = 0;
    top_->req_mask_i = 0;
    top_->mem_req_ready_i = 0;
    top_->mem_rsp_valid_i = 0;
    top_->cpl_ready_i = 0;
  }
  void drive_ctx() {
    top_->param_base_i = ctx_.param_base;
    top_->param_size_i = ctx_.param_size;
    for (int w = 0; w < 4; w++) {
      set_word(top_->win_base_i, w, ctx_.win[w].base);
      set_word(top_->win_size_i, w, ctx_.win[w].size);
    }
    top_->prot_base_i = ctx_.prot.base;
    top_->prot_size_i = ctx_.prot.size;
  }
  void drive_op(const WarpOp& o, uint32_t pc) {
    top_->req_pc_i = pc;
    top_->req_op_i = o.op;
    top_->req_mod_i = o.mod;
    top_->req_warp_i = o.warp;
    top_->req_rd_i = o.rd;
    top_->req_mask_i = o.mask;
    for (int i = 0; i < 32; i++) {
      set_word(top_->req_addr_i, i, o.addr[i]);
      set_word(top_->req_data_i, i, o.data[i]);
      set_word(top_->req_swap_i, i, o.swap[i]);
    }
    top_->req_smem_base_i = o.smem_base;
    top_->req_smem_size_i = o.smem_size;
  }
  MemRequest capture_req() {
    MemRequest r;
    r.id = top_->mem_req_id_o;
    r.addr = top_->mem_req_addr_o;
    r.op = MemOp(top_->mem_req_op_o);
    r.amo = top_->mem_req_amo_o;
    r.wdata.resize(kLine);
    r.wstrb.resize(kLine);
    for (uint32_t w = 0; w < kLine / 4; w++) {
      const uint32_t x = get_word(top_->mem_req_wdata_o, int(w));
      std::memcpy(&r.wdata[4 * w], &x, 4);
    }
    for (uint32_t i = 0; i < kLine; i++) r.wstrb[i] = get_bit(top_->mem_req_wstrb_o, int(i));
    return r;
  }
  void check_request(const MemRequest& r) {
    if (r.op == MemOp::ATOMIC) {
      EXPECT_EQ(r.addr % 4, 0u);
    } else {
      EXPECT_EQ(r.addr % kLine, 0u) << "line request not line-aligned";
    }
    EXPECT_LT(r.id, kIds);
  }
  Completion capture_cpl() {
    Completion c;
    c.warp = top_->cpl_warp_o;
    c.rd = top_->cpl_rd_o;
    c.mask = top_->cpl_mask_o;
    c.we = top_->cpl_we_o;
    c.fault = top_->cpl_fault_o;
    c.kind = top_->cpl_fault_kind_o;
    c.lane = top_->cpl_fault_lane_o;
    c.faddr = top_->cpl_fault_addr_o;
    for (int i = 0; i < 32; i++) c.data[i] = get_word(top_->cpl_data_o, i);
    return c;
  }

  BenchConfig cfg_;
  uint64_t rng_;
  RefMachine ref_;
  Ctx ctx_;
  std::vector<uint8_t> gmem_;
  baresm::iss::PoisonMap poison_;
  std::unique_ptr<MemModel> mem_;
  VerilatedContext vctx_;
  std::unique_ptr<Vlsu> top_;
  uint64_t cycle_ = 0;
  uint64_t first_accept_ = 0, last_cpl_ = 0;
  uint64_t overtaken_ = 0;
};

WarpOp strided(uint8_t op, uint32_t base, uint32_t stride_bytes, uint8_t mod = W32) {
  WarpOp o;
  o.op = op;
  o.mod = mod;
  for (int i = 0; i < 32; i++) {
    o.addr[i] = base + uint32_t(i) * stride_bytes;
    o.data[i] = 0xA5000000u + uint32_t(i) * 0x10203u;
    o.swap[i] = 0x5A000000u + uint32_t(i);
  }
  return o;
}

// ============================================================================
// Shared memory
// ============================================================================

// A k-way conflict takes exactly k passes: strides 1..32 words on 32 banks.
TEST(LsuShared, ConflictDegreeIsPassCount) {
  Bench b;
  b.fill_smem(1);
  for (uint32_t stride : {1u, 2u, 4u, 8u, 16u, 32u}) {
    for (uint8_t op : {LDS, STS}) {
      WarpOp o = strided(op, 0, 4 * stride);
      const uint32_t want = expected_passes(o);
      if (kBanks == 32 && kLanes == 32) {
        EXPECT_EQ(want, stride);  // the H200 shape: k-way conflict = k passes
      }
      const uint32_t p0 = b.passes();
      b.run_checked({o});
      EXPECT_EQ(b.passes() - p0, want) << "stride " << stride << " op " << int(op);
    }
  }
  b.expect_smem_matches();
}

// Every lane on the same word is one pass (broadcast), also for bytes and
// halves of one word, and for a region that does not start at 0.
TEST(LsuShared, BroadcastIsOnePass) {
  Bench b;
  b.fill_smem(2);
  struct Case {
    uint8_t mod;
    uint32_t stride;
  };
  for (Case c : {Case{W32, 0}, Case{U8, 1}, Case{S8, 0}, Case{U16, 2}, Case{S16, 0}}) {
    for (uint32_t base : {0u, 256u, 4096u + 64u}) {
      WarpOp o;
      o.op = LDS;
      o.mod = c.mod;
      o.smem_base = base;
      o.smem_size = 1024;
      for (int i = 0; i < 32; i++) o.addr[i] = 100 + (c.stride ? (uint32_t(i) * c.stride) % 4 : 0);
      const uint32_t p0 = b.passes();
      b.run_checked({o});
      EXPECT_EQ(b.passes() - p0, kBeats) << "mod " << int(c.mod) << " base " << base;  // 1 per beat
    }
  }
}

// Random shared loads and stores of every width, random masks, random
// regions; results, final contents and pass counts match.
TEST(LsuShared, RandomLoadsStoresAllWidths) {
  BenchConfig bc;
  bc.cpl_ready = 0.7;
  bc.seed = 3;
  Bench b(bc);
  b.fill_smem(3);
  const uint8_t ld_mods[] = {U8, S8, U16, S16, W32};
  const uint8_t st_mods[] = {0, 2, 4};
  uint32_t want_passes = 0;
  std::vector<WarpOp> ops;
  for (int n = 0; n < 400; n++) {
    WarpOp o;
    o.op = (b.rnd() % 2) ? LDS : STS;
    o.mod = o.op == LDS ? ld_mods[b.rnd() % 5] : st_mods[b.rnd() % 3];
    o.mask = (b.rnd() % 4 == 0) ? uint32_t(b.rnd()) : 0xFFFFFFFFu;
    o.warp = uint8_t(b.rnd() % kWarps);
    o.rd = uint8_t(b.rnd() % 63);
    o.smem_base = uint32_t(b.rnd() % 4) * 4096;
    o.smem_size = 4096;
    const uint32_t w = width_of(o);
    const int pattern = int(b.rnd() % 4);
    const uint32_t base = uint32_t(b.rnd() % 1024) * 4;
    for (int i = 0; i < 32; i++) {
      uint32_t a;
      if (pattern == 0)
        a = uint32_t(b.rnd() % (4096 / w)) * w;  // scattered
      else if (pattern == 1)
        a = (base + uint32_t(i) * w) % 4096;  // consecutive
      else if (pattern == 2)
        a = (base + uint32_t(i) * 4 * uint32_t(1 + b.rnd() % 3) * 32) % 4096;  // same bank
      else
        a = (base + uint32_t(b.rnd() % 4) * w) % 4096;  // few words
      o.addr[i] = a;
      o.data[i] = uint32_t(b.rnd());
    }
    want_passes += expected_passes(o);
    ops.push_back(o);
  }
  const uint32_t p0 = b.passes();
  b.run_checked(ops, "random shared");
  EXPECT_EQ(b.passes() - p0, want_passes);
  b.expect_smem_matches();
}

// ATOMS.ADD from all 32 lanes to one word: the exact sum, and each lane sees
// the value left by the lanes before it (lane order).
TEST(LsuShared, AtomicsFullConflictExactSums) {
  Bench b;
  b.fill_smem(4);
  WarpOp init;
  init.op = STS;
  init.mask = 1;
  init.addr[0] = 512;
  init.data[0] = 1000;
  b.run_checked({init});

  WarpOp o;
  o.op = ATOMS;
  o.mod = A_ADD;
  for (int i = 0; i < 32; i++) {
    o.addr[i] = 512;
    o.data[i] = uint32_t(i + 1);
  }
  const uint32_t p0 = b.passes();
  const std::vector<Completion> got = b.run({o});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(b.passes() - p0, 32u);
  uint32_t sum = 1000;
  for (int i = 0; i < 32; i++) {
    EXPECT_EQ(got[0].data[i], sum) << "lane " << i;
    sum += uint32_t(i + 1);
  }
  b.ref().exec(o);
  WarpOp rd;
  rd.op = LDS;
  rd.mask = 1;
  rd.addr[0] = 512;
  const std::vector<Completion> r = b.run({rd});
  EXPECT_EQ(r[0].data[0], 1000u + 528u);
  b.expect_smem_matches();
}

// Every atomic op under random conflicts (few words, shared banks).
TEST(LsuShared, AtomicsEveryOpUnderConflicts) {
  BenchConfig bc;
  bc.cpl_ready = 0.6;
  bc.seed = 5;
  Bench b(bc);
  b.fill_smem(5);
  std::vector<WarpOp> ops;
  uint32_t want_passes = 0;
  for (int n = 0; n < 160; n++) {
    WarpOp o;
    o.op = ATOMS;
    o.mod = uint8_t(n % 8) | ((n / 8) % 2 ? 0x10 : 0);
    if ((o.mod & 0xF) != A_MIN && (o.mod & 0xF) != A_MAX) o.mod &= 0xF;
    o.mask = (n % 3 == 0) ? uint32_t(b.rnd()) : 0xFFFFFFFFu;
    for (int i = 0; i < 32; i++) {
      o.addr[i] = 4 * uint32_t((b.rnd() % 3) * 32 + b.rnd() % 3);  // 9 words, 3 banks
      o.data[i] = (b.rnd() % 4 == 0) ? 0 : uint32_t(b.rnd());
      o.swap[i] = uint32_t(b.rnd());
    }
    if ((o.mod & 0xF) == A_CAS) {  // make some compares succeed
      for (int i = 0; i < 32; i += 3) o.data[i] = 0;
    }
    want_passes += expected_passes(o);
    ops.push_back(o);
    // Interleave a few stores so CAS sees matching values.
    WarpOp s = strided(STS, 0, 4);
    s.mask = uint32_t(b.rnd()) & 0x7;
    for (int i = 0; i < 32; i++) s.data[i] = 0;
    want_passes += expected_passes(s);
    ops.push_back(s);
  }
  const uint32_t p0 = b.passes();
  b.run_checked(ops, "random atomics");
  EXPECT_EQ(b.passes() - p0, want_passes);
  b.expect_smem_matches();
}

// Back-to-back loads: one pass per cycle, a k-way conflict costs exactly k
// cycles per instruction (measured numbers are printed for docs/lsu.md).
TEST(LsuShared, ThroughputOnePassPerCycle) {
  Bench b;
  b.fill_smem(6);
  const int n = 64;
  uint64_t base_cycles = 0;
  for (uint32_t stride : {1u, 2u, 4u, 8u, 16u, 32u, 0u}) {
    std::vector<WarpOp> ops(n, strided(LDS, 0, 4 * stride));
    b.run_checked(ops);
    const uint64_t span = b.last_completion() - b.first_accept() + 1;
    // With several beats the fault check adds a cycle per active beat (it
    // shares the address beat port with the passes, which start after it).
    const uint32_t k = expected_passes(ops[0]) + check_cycles(ops[0]);
    if (kBanks == 32 && kLanes == 32) {
      EXPECT_EQ(k, stride ? stride : 1);
    }
    std::printf("[ measured ] LDS stride %2u words: %d instructions in %llu cycles (%.2f cycles each)\n",
                stride, n, (unsigned long long)span, double(span) / n);
    if (stride == 1) base_cycles = span - uint64_t(n) * k;
    EXPECT_EQ(span, uint64_t(n) * k + base_cycles) << "stride " << stride;
  }
  // Latency of one instruction alone: accept to completion.
  for (uint32_t stride : {0u, 1u, 32u}) {
    const WarpOp o = strided(LDS, 0, 4 * stride);
    b.run_checked({o});
    const uint64_t lat = b.last_completion() - b.first_accept();
    std::printf(
        "[ measured ] LDS latency, stride %2u words (%2u passes): %llu cycles from accept to completion\n",
        stride, expected_passes(o), (unsigned long long)lat);
    EXPECT_EQ(lat, expected_passes(o) + check_cycles(o) + 1);
  }
}

// ============================================================================
// Global memory
// ============================================================================

// The coalescer sends the fewest line requests: one per distinct line for
// loads and stores, one per active lane for atomics.
TEST(LsuGlobal, CoalescerIssuesMinimalRequests) {
  Bench b;
  b.fill_gmem(7);
  struct Case {
    const char* name;
    WarpOp op;
    uint32_t want;
  };
  std::vector<Case> cases;
  const uint32_t g = 0x2000;  // line-aligned, inside window 0
  // Expected counts written out for 128-byte lines (checked when kLine is 128).
  cases.push_back({"coalesced 32-bit", strided(LDG, g, 4), 1});
  cases.push_back({"coalesced, half-line offset", strided(LDG, g + 64, 4), 2});
  cases.push_back({"stride 2 words", strided(LDG, g, 8), 2});
  cases.push_back({"stride 1 line", strided(LDG, g, kLine), 32});
  cases.push_back({"bytes", strided(LDG, g, 1, U8), 1});
  cases.push_back({"halves", strided(LDG, g, 2, S16), 1});
  cases.push_back({"same word", strided(LDG, g + 12, 0), 1});
  cases.push_back({"stores coalesced", strided(STG, g + 0x400, 4), 1});
  cases.push_back({"stores stride 4 words", strided(STG, g + 0x600, 16), 4});
  cases.push_back({"byte stores", strided(STG, g + 0x800, 1, 0), 1});
  cases.push_back({"atomics same word", strided(ATOMG, g + 0x40, 0, A_ADD), 32});
  WarpOp half = strided(LDG, g, 4);
  half.mask = 0x0000FFFF;
  cases.push_back({"half mask", half, 1});
  WarpOp scat = strided(LDG, g, 4);
  for (int i = 0; i < 32; i++) scat.addr[i] = 0x1000 + uint32_t(b.rnd() % 0x1000) * 4;
  cases.push_back({"scattered", scat, 0});
  WarpOp ldc = strided(LDC, 0, 4);
  cases.push_back({"param buffer", ldc, 1});  // param_base 0xE000 is line-aligned
  WarpOp amask = strided(ATOMG, g + 0x40, 4, A_XOR);
  amask.mask = 0x80008001u;
  cases.push_back({"atomics masked", amask, 3});
  for (Case& c : cases) {
    const uint32_t want = expected_requests(c.op, b.ref().ctx);
    if (c.want && (kLine == 128 || c.want == 32 || c.want == 3 || c.name == std::string("same word"))) {
      EXPECT_EQ(want, c.want) << c.name;  // the test's own expectation
    }
    const uint32_t r0 = b.gmem_reqs();
    const uint64_t m0 = b.mem().counters().requests;
    b.run_checked({c.op}, c.name);
    EXPECT_EQ(b.gmem_reqs() - r0, want) << c.name;
    EXPECT_EQ(b.mem().counters().requests - m0, want) << c.name;
  }
  b.expect_gmem_matches();
}

// Timing with a fixed-latency, always-ready memory: requests leave one per
// cycle while ids last; the numbers are printed for docs/lsu.md.
TEST(LsuGlobal, TimingFixedLatency) {
  for (uint32_t lat : {1u, 20u, 100u}) {
    BenchConfig bc;
    bc.mem.min_latency = bc.mem.max_latency = lat;
    bc.mem.max_outstanding = 1000;
    Bench b(bc);
    b.fill_gmem(lat);
    struct Case {
      const char* name;
      WarpOp op;
    };
    const Case cases[] = {{"LDG 1 line", strided(LDG, 0x1000, 4)},
                          {"LDG 32 lines", strided(LDG, 0x1000, kLine)},
                          {"STG 1 line", strided(STG, 0x1000, 4)},
                          {"STG 32 lines", strided(STG, 0x1000, kLine)},
                          {"ATOMG 32 lanes", strided(ATOMG, 0x1000, 4, A_ADD)}};
    for (const Case& c : cases) {
      b.run_checked({c.op}, c.name);
      const uint64_t cyc = b.last_completion() - b.first_accept();
      const uint32_t n = expected_requests(c.op, b.ref().ctx);
      std::printf("[ measured ] latency %3u: %-15s %2u requests, %4llu cycles accept to completion\n", lat,
                  c.name, n, (unsigned long long)cyc);
      // Issue takes 2 cycles, completion 2; the requests go out one per
      // cycle, at most kIds in flight, each waiting lat cycles.
      // With several beats: the check's beats, a cycle per beat a request
      // is formed over, and a response's beats.
      const uint64_t rounds = (n + kIds - 1) / kIds;
      const uint64_t beats = kBeats > 1 ? (kBeats - 1) + 2 * 32 + 2 * uint64_t(n) : 0;
      EXPECT_LE(cyc, 5 + uint64_t(n) + rounds * lat + beats) << c.name;
      EXPECT_GE(cyc, lat + n) << c.name;
    }
    b.expect_gmem_matches();
  }
}

// Lanes storing to the same bytes: the highest active lane wins.
TEST(LsuGlobal, StoreMergeLaterLaneWins) {
  Bench b;
  b.fill_gmem(8);
  for (uint8_t mod : {uint8_t(0), uint8_t(2), uint8_t(4)}) {
    WarpOp o = strided(STG, 0x3000 + mod * 16, 0, mod);
    for (int i = 0; i < 32; i++) o.data[i] = 0x01010101u * uint32_t(i + 1);
    o.mask = 0x7FFF00FFu;  // highest active lane is 30
    b.run_checked({o});
    uint32_t v = 0;
    std::memcpy(&v, &b.ref().gmem[0x3000 + mod * 16], 4);
    EXPECT_EQ(v & 0xFF, 31u);
  }
  // Lanes 2i and 2i+1 write the two bytes of a halfword, interleaved with
  // lanes that overwrite a neighbour's byte.
  WarpOp o = strided(STG, 0x3100, 1, 0);
  for (int i = 0; i < 32; i++) {
    o.addr[i] = 0x3100 + uint32_t(i % 12);
    o.data[i] = uint32_t(i * 5);
  }
  b.run_checked({o});
  b.expect_gmem_matches();
}

struct MemCase {
  const char* name;
  uint32_t min_lat, max_lat;
  bool ooo;
  double ready_drop;
  double stall_start;
  uint32_t interval;
  double cpl_ready;
  uint64_t seed;
};

void PrintTo(const MemCase& c, std::ostream* os) {
  *os << c.name;
}

class LsuGlobalRandom : public testing::TestWithParam<MemCase> {};

// Random global loads, stores, atomics and param loads (some faulting),
// under latencies up to 200 cycles, back-pressure, stalls and reordering.
TEST_P(LsuGlobalRandom, MatchesReference) {
  const MemCase mc = GetParam();
  BenchConfig bc;
  bc.mem.min_latency = mc.min_lat;
  bc.mem.max_latency = mc.max_lat;
  bc.mem.out_of_order = mc.ooo;
  bc.mem.ready_drop = mc.ready_drop;
  bc.mem.stall_start = mc.stall_start;
  bc.mem.stall_min = 5;
  bc.mem.stall_max = 60;
  bc.mem.accept_interval = mc.interval;
  bc.mem.seed = mc.seed;
  bc.cpl_ready = mc.cpl_ready;
  bc.seed = mc.seed;
  Bench b(bc);
  b.fill_gmem(uint32_t(mc.seed));
  b.fill_smem(uint32_t(mc.seed));
  const uint8_t ld_mods[] = {U8, S8, U16, S16, W32};
  const uint8_t st_mods[] = {0, 2, 4};
  std::vector<WarpOp> ops;
  uint32_t want_reqs = 0;
  for (int n = 0; n < 120; n++) {
    WarpOp o;
    const int kind = int(b.rnd() % 10);
    o.op = kind < 3 ? LDG : kind < 6 ? STG : kind < 8 ? ATOMG : kind < 9 ? LDC : LDS;
    o.mod = is_load(o.op) ? ld_mods[b.rnd() % 5] : o.op == STG ? st_mods[b.rnd() % 3] : uint8_t(b.rnd() % 8);
    if (o.op == ATOMG && (o.mod == A_MIN || o.mod == A_MAX) && b.rnd() % 2) o.mod |= 0x10;
    o.mask = (b.rnd() % 3 == 0) ? uint32_t(b.rnd()) : 0xFFFFFFFFu;
    o.warp = uint8_t(b.rnd() % kWarps);
    o.rd = uint8_t(b.rnd() % 63);
    const uint32_t w = width_of(o);
    const Window win = b.ref().ctx.win[b.rnd() % 3];
    const uint32_t span = (o.op == LDC) ? b.ref().ctx.param_size : (o.op == LDS) ? kShared : win.size;
    const uint32_t origin = (o.op == LDC || o.op == LDS) ? 0 : win.base;
    const int pattern = int(b.rnd() % 4);
    const uint32_t start = uint32_t(b.rnd() % (span / 4)) * 4;
    const uint32_t stride = w * uint32_t(1 + b.rnd() % 8);
    for (int i = 0; i < 32; i++) {
      uint32_t off;
      if (pattern == 0)
        off = uint32_t(b.rnd() % (span / w)) * w;
      else if (pattern == 1)
        off = (start + uint32_t(i) * w) % span;
      else if (pattern == 2)
        off = (start + uint32_t(i) * stride) % span;
      else
        off = (start + uint32_t(b.rnd() % 3) * w) % span;
      o.addr[i] = origin + off;
      o.data[i] = uint32_t(b.rnd());
      o.swap[i] = uint32_t(b.rnd());
    }
    if (b.rnd() % 12 == 0) {  // a fault in a random lane: out of window or misaligned
      const int lane = int(b.rnd() % 32);
      o.mask |= 1u << lane;
      if (w > 1 && b.rnd() % 2)
        o.addr[lane] += 1;
      else
        o.addr[lane] = origin + span + uint32_t(b.rnd() % 64) * w;
    }
    RefMachine probe;  // faults depend on addresses only, not on memory contents
    if (o.op != LDS && !probe.exec(o).fault) want_reqs += expected_requests(o, b.ref().ctx);
    ops.push_back(o);
  }
  const uint32_t r0 = b.gmem_reqs();
  b.run_checked(ops, mc.name);
  EXPECT_EQ(b.gmem_reqs() - r0, want_reqs);
  b.expect_gmem_matches();
  // Without slots everything completes in order (run() fails otherwise);
  // with them, under latencies that differ, later instructions overtake.
  if (kLoadSlots > 0 && mc.max_lat > mc.min_lat) {
    EXPECT_GT(b.out_of_order(), 0u);
  }
  std::printf(
      "[ measured ] %s: %zu instructions, %llu cycles, %llu out of order, %llu requests, %llu stall cycles, "
      "%llu back-pressure cycles, %llu max in flight\n",
      mc.name, ops.size(), (unsigned long long)b.cycles(), (unsigned long long)b.out_of_order(),
      (unsigned long long)b.mem().counters().requests,
      (unsigned long long)b.mem().counters().stall_cycles,
      (unsigned long long)b.mem().counters().backpressure_cycles,
      (unsigned long long)b.mem().counters().max_in_flight);
}

INSTANTIATE_TEST_SUITE_P(
    MemoryShapes, LsuGlobalRandom,
    testing::Values(MemCase{"ideal", 1, 1, false, 0.0, 0.0, 1, 1.0, 11},
                    MemCase{"latency_1_200_in_order", 1, 200, false, 0.0, 0.0, 1, 1.0, 12},
                    MemCase{"latency_1_200_reordered", 1, 200, true, 0.0, 0.0, 1, 1.0, 13},
                    MemCase{"stalls_backpressure_reordered", 1, 200, true, 0.3, 0.02, 2, 0.5, 14},
                    MemCase{"narrow_bandwidth", 20, 60, true, 0.5, 0.05, 4, 0.8, 15}),
    [](const testing::TestParamInfo<MemCase>& info) { return std::string(info.param.name); });

// Global atomics from all lanes to one word under reordering: lane order.
TEST(LsuGlobal, AtomicsFullConflictLaneOrder) {
  BenchConfig bc;
  bc.mem.min_latency = 1;
  bc.mem.max_latency = 100;
  bc.mem.out_of_order = true;
  bc.mem.ready_drop = 0.3;
  bc.mem.seed = 21;
  Bench b(bc);
  b.fill_gmem(9);
  WarpOp o = strided(ATOMG, 0x1100, 0, A_ADD);
  for (int i = 0; i < 32; i++) o.data[i] = uint32_t(i + 1);
  b.run_checked({o});
  uint32_t v = 0;
  std::memcpy(&v, &b.ref().gmem[0x1100], 4);
  b.expect_gmem_matches();
  o.mod = A_CAS;  // only the first lane whose b matches swaps
  for (int i = 0; i < 32; i++) {
    o.data[i] = v + (i >= 7 ? 0 : 1);
    o.swap[i] = 0x1000u + uint32_t(i);
  }
  b.run_checked({o});
  std::memcpy(&v, &b.ref().gmem[0x1100], 4);
  EXPECT_EQ(v, 0x1007u);
  b.expect_gmem_matches();
}

// ============================================================================
// Faults: detected for all lanes before any access; no effect at all.
// ============================================================================
TEST(LsuFaults, KindLaneAddressAndNoEffect) {
  BenchConfig bc;
  bc.mem.max_latency = 20;
  Bench b(bc);
  b.fill_gmem(10);
  b.fill_smem(10);
  struct Case {
    const char* name;
    WarpOp op;
    uint8_t kind;
    uint8_t lane;
  };
  std::vector<Case> cases;
  {
    WarpOp o = strided(STG, 0x1000, 4);
    o.addr[9] = 0x5000;  // just past window 0
    cases.push_back({"STG out of window", o, K_OOW, 9});
  }
  {
    WarpOp o = strided(STG, 0x1000, 4);
    o.addr[12] = 0x1002;
    o.addr[20] = 0x9;
    cases.push_back({"STG misaligned, lowest lane", o, K_MIS, 12});
  }
  {
    // Lane 3 out of window, lane 5 misaligned: lane 3 (lowest) wins.
    WarpOp o = strided(LDG, 0x8000, 4);
    o.addr[3] = 0xA000;
    o.addr[5] = 0x8001;
    cases.push_back({"lowest lane wins over kind", o, K_OOW, 3});
  }
  {
    // Misaligned and out of window in the same lane: misaligned.
    WarpOp o = strided(LDG, 0x8000, 4);
    o.addr[4] = 0xF0000001u;
    cases.push_back({"misaligned checked first", o, K_MIS, 4});
  }
  {
    // An access straddling the end of a window.
    WarpOp o = strided(LDG, 0xC000, 4, U16);
    o.addr[6] = 0xC0FF;
    cases.push_back({"halfword misaligned", o, K_MIS, 6});
    WarpOp p = strided(LDG, 0xC000, 4);
    p.addr[31] = 0xC100;
    cases.push_back({"word just past small window", p, K_OOW, 31});
  }
  {
    WarpOp o = strided(ATOMG, 0x1200, 4, A_ADD);
    o.addr[30] = 0xFFFFFFFCu;  // wraps past 2^32
    cases.push_back({"ATOMG wraps", o, K_OOW, 30});
  }
  {
    WarpOp o = strided(ATOMG, 0x1200, 4, A_ADD);
    o.mask = 0xFFFF0000u;
    o.addr[3] = 0x7;  // inactive lane: ignored
    o.addr[17] = 0x1203;
    cases.push_back({"ATOMG misaligned, inactive lanes ignored", o, K_MIS, 17});
  }
  {
    WarpOp o = strided(STS, 0, 4);
    o.smem_base = 1024;
    o.smem_size = 100;  // lanes 25.. are outside
    cases.push_back({"STS outside shared_bytes", o, K_OOW, 25});
  }
  {
    WarpOp o = strided(ATOMS, 0, 0, A_EXCH);
    o.addr[2] = 2;
    cases.push_back({"ATOMS misaligned", o, K_MIS, 2});
  }
  {
    WarpOp o = strided(LDS, 0, 2, U16);
    o.addr[0] = 1;
    cases.push_back({"LDS.U16 lane 0 misaligned", o, K_MIS, 0});
  }
  {
    WarpOp o = strided(LDC, 0, 4);
    o.addr[31] = 256;  // param_size
    cases.push_back({"LDC past param_size", o, K_OOW, 31});
  }
  for (const Case& c : cases) {
    const uint64_t m0 = b.mem().counters().requests;
    const uint32_t p0 = b.passes();
    b.run_checked({c.op}, c.name);
    const Completion r = b.ref().exec(c.op);  // the reference agrees on the fault
    EXPECT_TRUE(r.fault) << c.name;
    EXPECT_EQ(r.kind, c.kind) << c.name;
    EXPECT_EQ(r.lane, c.lane) << c.name;
    EXPECT_EQ(b.mem().counters().requests, m0) << c.name << ": memory was accessed";
    EXPECT_EQ(b.passes(), p0) << c.name << ": shared memory was accessed";
  }
  b.expect_gmem_matches();
  b.expect_smem_matches();
}

// A memory error (mem_rsp_err_i): the instruction completes, after every
// response, as MEMORY_ERROR naming the lowest lane served by a failed request
// and its address, whatever order the responses come in; a load writes no
// register; a store's requests to other lines were carried out, the failed
// ones changed nothing.
TEST(LsuFaults, MemoryErrorNamesTheLowestLaneOfAFailedLine) {
  constexpr uint8_t K_MEM = 10;
  for (const uint8_t op : {LDG, STG}) {
    SCOPED_TRACE(op == LDG ? "LDG" : "STG");
    BenchConfig bc;
    bc.mem.max_latency = 30;
    bc.mem.out_of_order = true;  // the failed responses come back in any order
    bc.mem.seed = 3;
    Bench b(bc);
    b.fill_gmem(4);
    const std::vector<uint8_t> before = b.device_memory();
    // Lane i at 0x1000 + 16*i: lanes 16..23 lie in the poisoned 128-byte
    // line [0x1100, 0x1180), lanes 24..27 in the one [0x1180, 0x1200).
    b.poison().poison(0x1100, 1);
    b.poison().poison(0x1180, 1);
    const WarpOp o = strided(op, 0x1000, 16);
    const std::vector<Completion> got = b.run({o});
    ASSERT_EQ(got.size(), 1u);
    const Completion& c = got[0];
    EXPECT_TRUE(c.fault);
    EXPECT_FALSE(c.we);
    EXPECT_EQ(c.kind, K_MEM);
    EXPECT_EQ(c.lane, 16);
    EXPECT_EQ(c.faddr, 0x1100u);
    EXPECT_GT(b.mem().counters().errors, 0u);
    // Memory: a failed line unchanged; a store's other lanes written.
    for (int i = 0; i < 32; i++) {
      const uint32_t a = o.addr[size_t(i)];
      uint32_t now, was;
      std::memcpy(&now, &b.device_memory()[a], 4);
      std::memcpy(&was, &before[a], 4);
      const bool failed = a >= 0x1100 && a < 0x1200;
      EXPECT_EQ(now, (op == STG && !failed) ? o.data[size_t(i)] : was) << "lane " << i;
    }
  }
}

// The protected range (the CP's PROT_BASE/PROT_SIZE) inside window 0: a
// global access touching it faults OUT_OF_WINDOW at its lane and address
// and accesses nothing; the rest of the window, shared and parameter loads
// are unaffected.
TEST(LsuFaults, ProtectedRangeIsOutOfEveryWindow) {
  BenchConfig bc;
  bc.mem.max_latency = 20;
  bc.prot = Window{0x2000, 0x100};
  Bench b(bc);
  b.fill_gmem(11);
  b.fill_smem(11);
  struct Case {
    const char* name;
    WarpOp op;
    int lane;  // -1: no fault
  };
  std::vector<Case> cases;
  cases.push_back({"STG at the range's first byte", strided(STG, 0x2000, 4), 0});
  cases.push_back({"LDG running into the range", strided(LDG, 0x1FC0, 4), 16});
  {
    WarpOp o = strided(ATOMG, 0x1200, 4, A_ADD);
    o.addr[7] = 0x20FC;  // the range's last word
    cases.push_back({"ATOMG on the range's last word", o, 7});
  }
  {
    WarpOp o = strided(STG, 0x2100, 4, U8);
    o.addr[5] = 0x20FF;  // one byte, the range's last
    cases.push_back({"STG.U8 on the range's last byte", o, 5});
  }
  cases.push_back({"STG just past the range", strided(STG, 0x2100, 4), -1});
  cases.push_back({"LDG just below the range", strided(LDG, 0x1F80, 4), -1});
  // Shared offsets equal to the range's addresses are not global addresses.
  cases.push_back({"STS at shared offset 0x2000", strided(STS, 0x2000, 4), -1});
  cases.push_back({"LDS at shared offset 0x2000", strided(LDS, 0x2000, 4), -1});
  for (const Case& c : cases) {
    const uint64_t m0 = b.mem().counters().requests;
    b.run_checked({c.op}, c.name);
    const Completion r = b.ref().exec(c.op);
    EXPECT_EQ(r.fault, c.lane >= 0) << c.name;
    if (c.lane < 0) continue;
    EXPECT_EQ(r.kind, K_OOW) << c.name;
    EXPECT_EQ(r.lane, c.lane) << c.name;
    EXPECT_EQ(r.faddr, c.op.addr[size_t(c.lane)]) << c.name;
    EXPECT_EQ(b.mem().counters().requests, m0) << c.name << ": memory was accessed";
  }
  b.expect_gmem_matches();
  b.expect_smem_matches();
}

// An instruction whose mask is empty completes without touching anything.
TEST(LsuMisc, EmptyMaskCompletesAtOnce) {
  Bench b;
  for (uint8_t op : {LDG, LDS, LDC, STG, STS, ATOMG, ATOMS}) {
    WarpOp o = strided(op, 0xFFFFFFF1u, 3);  // would fault if any lane were active
    o.mask = 0;
    const uint64_t m0 = b.mem().counters().requests;
    const uint32_t p0 = b.passes();
    const std::vector<Completion> got = b.run({o});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_FALSE(got[0].fault);
    EXPECT_EQ(got[0].mask, 0u);
    EXPECT_EQ(b.mem().counters().requests, m0);
    EXPECT_EQ(b.passes(), p0);
  }
}

// Completions come out in issue order with the right warp and register,
// whatever mix of shared and global instructions is in flight.
TEST(LsuMisc, MixedStreamInOrder) {
  BenchConfig bc;
  bc.mem.max_latency = 50;
  bc.mem.out_of_order = true;
  bc.cpl_ready = 0.5;
  bc.seed = 31;
  Bench b(bc);
  b.fill_gmem(31);
  b.fill_smem(31);
  std::vector<WarpOp> ops;
  for (int n = 0; n < 60; n++) {
    WarpOp o = strided(n % 3 == 0   ? LDG
                       : n % 3 == 1 ? LDS
                                    : STS,
                       n % 3 == 0 ? 0x1000 : 0, 4 * uint32_t(1 + n % 5));
    o.warp = uint8_t(n % kWarps);
    o.rd = uint8_t(n % 60);
    ops.push_back(o);
  }
  b.run_checked(ops);
  b.expect_smem_matches();
}

}  // namespace
