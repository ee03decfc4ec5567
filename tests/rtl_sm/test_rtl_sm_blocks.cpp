// Block tests of the SM core, on tb_sm_blocks.sv (scheduler, barrier unit and
// one reconvergence stack), each against a C++ reference written from
// docs/isa.md and the functional model's rules:
//   - the scheduler: exact grants against a reference, plus the starvation
//     bound (a ready warp waits at most StarveLimit + NumWarps cycles);
//   - the barrier unit: directed cases (release exactly at the last arrival,
//     exits re-checked, counts, the first arrival's count, deadlock at once)
//     and a random run against a reference;
//   - the reconvergence stack: random branches/exits against the model's
//     exec_bra/EXIT/normalize, overflow included.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "Vtb_sm_blocks.h"
#include "isa/rng.h"
#include "verilated.h"

namespace {

constexpr int kWarps = 8, kCtas = 2, kStarve = 12, kDepth = 4;
constexpr uint32_t kNone = 0xFFFFFFFFu;

using Rng = baresm::SplitMix64;  // the same numbers on every platform

struct Tb {
  VerilatedContext ctx;
  Vtb_sm_blocks top{&ctx};
  Tb() {
    top.rst_ni = 0;
    idle();
    for (int i = 0; i < 3; i++) tick();
    top.rst_ni = 1;
    eval();
  }
  void idle() {
    top.s_clear_i = 0;
    top.s_gto_i = 0;
    top.s_start_i = 0;
    top.s_ready_i = 0;
    top.b_clear_i = 0;
    top.b_arrive_i = 0;
    top.b_arrive_warp_i = 0;
    top.b_arrive_id_i = 0;
    top.b_arrive_count_i = 0;
    top.b_arrive_pc_i = 0;
    top.b_warp_cta_i = 0;
    top.b_warp_live_i = 0;
    top.b_cta_run_i = 0;
    top.k_clear_i = 0;
    top.k_init_i = 0;
    top.k_op_valid_i = 0;
    top.k_op_kind_i = 0;
    top.k_op_guard_i = 0;
    top.k_op_target_i = 0;
    top.k_op_reconv_i = 0;
    top.k_init_pc_i = 0;
    top.k_init_mask_i = 0;
    top.r_clear_i = 0;
    top.r_init_i = 0;
    top.r_init_warp_i = 0;
    top.r_init_pc_i = 0;
    top.r_init_mask_i = 0;
    top.r_op_valid_i = 0;
    top.r_op_warp_i = 0;
    top.r_op_kind_i = 0;
    top.r_op_guard_i = 0;
    top.r_op_target_i = 0;
    top.r_op_reconv_i = 0;
  }
  void eval() {
    top.clk_i = 0;
    top.eval();
  }
  void tick() {
    top.clk_i = 0;
    top.eval();
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
  }
};

// ===========================================================================
// Scheduler
// ===========================================================================
struct SchedRef {
  int last = kWarps - 1;  // so that warp 0 is the first round-robin pick
  bool greedy = false;    // last was granted and its slot not restarted since
  bool older[kWarps][kWarps] = {};
  int wait[kWarps] = {};

  static int rr(uint32_t set, int last) {
    for (int k = 1; k <= kWarps; k++) {
      int i = (last + k) % kWarps;
      if ((set >> i) & 1) return i;
    }
    return -1;
  }
  int grant(uint32_t ready, bool gto) const {
    uint32_t starving = 0;
    for (int w = 0; w < kWarps; w++)
      if (((ready >> w) & 1) && wait[w] == kStarve) starving |= 1u << w;
    if (starving) return rr(starving, last);
    if (!gto) return rr(ready, last);
    if (greedy && ((ready >> last) & 1)) return last;
    for (int w = 0; w < kWarps; w++) {
      if (!((ready >> w) & 1)) continue;
      bool oldest = true;
      for (int v = 0; v < kWarps; v++)
        if (v != w && ((ready >> v) & 1) && !older[w][v]) oldest = false;
      if (oldest) return w;
    }
    return rr(ready, last);  // no total order among the ready warps
  }
  void update(uint32_t ready, uint32_t start, int g) {
    if (g >= 0) {
      last = g;
      greedy = true;
    } else if ((start >> last) & 1) {
      greedy = false;
    }
    for (int w = 0; w < kWarps; w++) {
      if (((start >> w) & 1) || g == w) wait[w] = 0;
      else if (((ready >> w) & 1) && wait[w] != kStarve) wait[w]++;
      if ((start >> w) & 1) {
        for (int v = 0; v < kWarps; v++) {
          older[w][v] = false;
          if (v != w) older[v][w] = true;
        }
      }
    }
  }
};

void sched_run(bool gto, uint64_t seed, double p_ready, int cycles) {
  Tb tb;
  SchedRef ref;
  Rng rng(seed);
  tb.top.s_gto_i = gto;
  // Place every warp once, in a random order (the dispatcher's start pulses).
  std::vector<int> order(kWarps);
  for (int i = 0; i < kWarps; i++) order[size_t(i)] = i;
  for (int i = kWarps - 1; i > 0; i--) std::swap(order[size_t(i)], order[rng.below(uint32_t(i + 1))]);
  for (int w : order) {
    tb.top.s_start_i = 1u << w;
    tb.top.s_ready_i = 0;
    tb.eval();
    ref.update(0, 1u << w, -1);
    tb.tick();
  }
  tb.top.s_start_i = 0;
  int since[kWarps] = {};  // ready-and-not-granted cycles since the last grant
  int worst = 0;
  uint32_t ready = 0;
  for (int c = 0; c < cycles; c++) {
    // Readiness persists (a warp stays ready until it issues), like the SM's.
    for (int w = 0; w < kWarps; w++)
      if (!((ready >> w) & 1) && rng.chance(p_ready)) ready |= 1u << w;
    tb.top.s_ready_i = ready;
    tb.eval();
    const int want = ready ? ref.grant(ready, gto) : -1;
    ASSERT_EQ(bool(tb.top.s_grant_valid_o), want >= 0) << "cycle " << c;
    if (want >= 0) {
      ASSERT_EQ(int(tb.top.s_grant_o), want) << "cycle " << c << " ready 0x" << std::hex << ready;
      ASSERT_TRUE((ready >> want) & 1);
    }
    for (int w = 0; w < kWarps; w++) {
      if (w == want) since[w] = 0;
      else if ((ready >> w) & 1) worst = std::max(worst, ++since[w]);
    }
    ref.update(ready, 0, want);
    if (want >= 0) ready &= ~(1u << want);
    tb.tick();
  }
  // Nobody starves: every ready warp issued within the bound.
  EXPECT_LE(worst, kStarve + kWarps) << "a ready warp waited " << worst << " cycles";
}

TEST(SmScheduler, RoundRobinMatchesReference) { sched_run(false, 1, 0.3, 20000); }
TEST(SmScheduler, RoundRobinAllReady) { sched_run(false, 2, 1.0, 2000); }
TEST(SmScheduler, GtoMatchesReference) { sched_run(true, 3, 0.3, 20000); }
// With every warp always ready, greedy alone would issue one warp forever:
// the starvation guard must still serve everyone.
TEST(SmScheduler, GtoNeverStarves) { sched_run(true, 4, 1.0, 5000); }

TEST(SmScheduler, GtoStaysGreedyThenOldest) {
  Tb tb;
  tb.top.s_gto_i = 1;
  for (int w : {5, 2, 7}) {  // ages: 5 oldest, then 2, then 7
    tb.top.s_start_i = 1u << w;
    tb.tick();
  }
  tb.top.s_start_i = 0;
  tb.top.s_ready_i = (1u << 2) | (1u << 7);
  tb.eval();
  ASSERT_TRUE(tb.top.s_grant_valid_o);
  EXPECT_EQ(int(tb.top.s_grant_o), 2);  // the oldest ready
  tb.tick();
  tb.top.s_ready_i = (1u << 2) | (1u << 5) | (1u << 7);
  tb.eval();
  EXPECT_EQ(int(tb.top.s_grant_o), 2);  // greedy: the last one again
  tb.tick();
  tb.top.s_ready_i = (1u << 5) | (1u << 7);
  tb.eval();
  EXPECT_EQ(int(tb.top.s_grant_o), 5);  // 2 stalled: the oldest
}

// ===========================================================================
// Barrier unit
// ===========================================================================
struct BarIn {
  uint32_t cta_of[kWarps] = {};
  uint32_t live = 0, run = 0;
  bool arrive = false;
  int warp = 0, id = 0;
  uint32_t count = 0, pc = 0;
};

void bar_apply(Tb& tb, const BarIn& in) {
  uint32_t ctas = 0;
  for (int w = 0; w < kWarps; w++) ctas |= in.cta_of[w] << w;  // CtaW = 1
  tb.top.b_warp_cta_i = ctas;
  tb.top.b_warp_live_i = in.live;
  tb.top.b_cta_run_i = in.run;
  tb.top.b_arrive_i = in.arrive;
  tb.top.b_arrive_warp_i = uint32_t(in.warp);
  tb.top.b_arrive_id_i = uint32_t(in.id);
  tb.top.b_arrive_count_i = in.count;
  tb.top.b_arrive_pc_i = in.pc;
  tb.eval();
}

struct BarRef {
  bool waiting[kWarps] = {};
  int id[kWarps] = {};
  uint32_t pc[kWarps] = {};
  uint32_t count[kCtas][16] = {};
  uint32_t rel = 0;
  bool dead = false;
  int dead_cta = 0;
  uint32_t dead_warps = 0;

  void eval(const BarIn& in) {
    rel = 0;
    for (int w = 0; w < kWarps; w++) {
      if (!waiting[w]) continue;
      uint32_t arrived = 0, live = 0;
      for (int v = 0; v < kWarps; v++) {
        if (in.cta_of[v] != in.cta_of[w]) continue;
        if (waiting[v] && id[v] == id[w]) arrived++;
        if ((in.live >> v) & 1) live++;
      }
      const uint32_t c = count[in.cta_of[w]][id[w]];
      const uint32_t need = c == 0 ? live : (c + 31) / 32;
      if (arrived >= need) rel |= 1u << w;
    }
    dead = false;
    for (int c = 0; c < kCtas && !dead; c++) {
      uint32_t mine = 0, wait = 0;
      for (int w = 0; w < kWarps; w++)
        if (int(in.cta_of[w]) == c) {
          mine |= 1u << w;
          if (waiting[w]) wait |= 1u << w;
        }
      const uint32_t live = in.live & mine;
      if (((in.run >> c) & 1) && live && (live & ~wait) == 0 && (rel & mine) == 0) {
        dead = true;
        dead_cta = c;
        dead_warps = wait;
      }
    }
  }
  void step(const BarIn& in) {
    if (in.arrive) {
      bool first = true;
      for (int v = 0; v < kWarps; v++)
        if (waiting[v] && !((rel >> v) & 1) && id[v] == in.id && in.cta_of[v] == in.cta_of[in.warp])
          first = false;
      if (first) count[in.cta_of[in.warp]][in.id] = in.count;
    }
    for (int w = 0; w < kWarps; w++)
      if ((rel >> w) & 1) waiting[w] = false;
    if (in.arrive) {
      waiting[in.warp] = true;
      id[in.warp] = in.id;
      pc[in.warp] = in.pc;
    }
  }
  uint32_t waiting_mask() const {
    uint32_t m = 0;
    for (int w = 0; w < kWarps; w++)
      if (waiting[w]) m |= 1u << w;
    return m;
  }
};

// One CTA of warps 0..3 in slot 0 (all live), the rest idle.
BarIn one_cta() {
  BarIn in;
  in.live = 0xF;
  in.run = 1;
  return in;
}

void arrive(Tb& tb, BarIn in, int warp, int id, uint32_t count) {
  in.arrive = true;
  in.warp = warp;
  in.id = id;
  in.count = count;
  in.pc = 0x100 + 8 * uint32_t(warp);
  bar_apply(tb, in);
  tb.tick();
  in.arrive = false;
  bar_apply(tb, in);
}

TEST(SmBarrier, ReleasesExactlyAtTheLastArrival) {
  Tb tb;
  BarIn in = one_cta();
  bar_apply(tb, in);
  for (int w = 0; w < 3; w++) {
    arrive(tb, in, w, 0, 0);
    EXPECT_EQ(tb.top.b_release_o, 0u) << "released after " << w + 1 << " of 4";
    EXPECT_EQ(tb.top.b_waiting_o, (2u << w) - 1);
    EXPECT_FALSE(tb.top.b_deadlock_o);
  }
  arrive(tb, in, 3, 0, 0);
  EXPECT_EQ(tb.top.b_release_o, 0xFu);
  EXPECT_FALSE(tb.top.b_deadlock_o);
  tb.tick();
  EXPECT_EQ(tb.top.b_waiting_o, 0u);
  EXPECT_EQ(tb.top.b_release_o, 0u);
}

TEST(SmBarrier, AnExitIsNoLongerWaitedFor) {
  Tb tb;
  BarIn in = one_cta();
  bar_apply(tb, in);
  for (int w = 0; w < 3; w++) arrive(tb, in, w, 0, 0);
  EXPECT_EQ(tb.top.b_release_o, 0u);
  in.live = 0x7;  // warp 3 exits
  bar_apply(tb, in);
  EXPECT_EQ(tb.top.b_release_o, 0x7u);
  EXPECT_FALSE(tb.top.b_deadlock_o);
}

TEST(SmBarrier, CountReleasesCeilCountOver32Warps) {
  Tb tb;
  BarIn in = one_cta();
  bar_apply(tb, in);
  arrive(tb, in, 2, 5, 33);  // ceil(33/32) = 2 warps
  EXPECT_EQ(tb.top.b_release_o, 0u);
  arrive(tb, in, 0, 5, 33);
  EXPECT_EQ(tb.top.b_release_o, 0x5u);
  tb.tick();
  // The next phase starts empty and takes its own count.
  arrive(tb, in, 1, 5, 0);
  EXPECT_EQ(tb.top.b_release_o, 0u);
  EXPECT_EQ(tb.top.b_waiting_o, 0x2u);
}

TEST(SmBarrier, TheFirstArrivalSetsTheCount) {
  Tb tb;
  BarIn in = one_cta();
  bar_apply(tb, in);
  arrive(tb, in, 0, 1, 64);  // 2 warps
  arrive(tb, in, 1, 1, 0);   // its 0 ("all") is ignored
  EXPECT_EQ(tb.top.b_release_o, 0x3u);
}

TEST(SmBarrier, DeadlockAtOnceWithTheWaitingWarps) {
  Tb tb;
  BarIn in = one_cta();
  in.live = 0x3;  // warps 2 and 3 exited
  bar_apply(tb, in);
  arrive(tb, in, 1, 2, 0);
  EXPECT_FALSE(tb.top.b_deadlock_o);
  arrive(tb, in, 0, 1, 0);
  EXPECT_TRUE(tb.top.b_deadlock_o);
  EXPECT_EQ(int(tb.top.b_deadlock_cta_o), 0);
  EXPECT_EQ(tb.top.b_deadlock_warps_o, 0x3u);
  EXPECT_EQ(tb.top.b_bar_pc_o[0], 0x100u);
  EXPECT_EQ(tb.top.b_bar_pc_o[1], 0x108u);
}

TEST(SmBarrier, CtasAreIndependent) {
  Tb tb;
  BarIn in;
  for (int w = 4; w < 8; w++) in.cta_of[w] = 1;
  in.live = 0xFF;
  in.run = 3;
  bar_apply(tb, in);
  for (int w : {0, 1, 2, 4, 5, 6, 7}) arrive(tb, in, w, 0, 0);
  EXPECT_EQ(tb.top.b_release_o, 0xF0u);  // CTA 1 complete, CTA 0 still waits for warp 3
  tb.tick();
  EXPECT_EQ(tb.top.b_waiting_o, 0x07u);
}

TEST(SmBarrier, RandomAgainstReference) {
  Tb tb;
  BarRef ref;
  Rng rng(99);
  BarIn in;
  auto fresh = [&]() {
    tb.top.b_clear_i = 1;
    tb.tick();
    tb.top.b_clear_i = 0;
    ref = BarRef{};
    for (int w = 0; w < kWarps; w++) in.cta_of[w] = rng.below(kCtas);
    in.live = 0xFF;
    in.run = 3;
  };
  fresh();
  int releases = 0, deadlocks = 0;
  for (int c = 0; c < 20000; c++) {
    in.arrive = false;
    // A live warp that is not waiting may arrive or (rarely) exit.
    const int w = int(rng.below(kWarps));
    if (((in.live >> w) & 1) && !ref.waiting[w]) {
      if (rng.chance(0.05)) {
        in.live &= ~(1u << w);
      } else if (rng.chance(0.5)) {
        in.arrive = true;
        in.warp = w;
        in.id = int(rng.below(2));
        const uint32_t counts[] = {0, 0, 32, 64, 65};
        in.count = counts[rng.below(5)];
        in.pc = rng.below(1000) * 8;
      }
    }
    bar_apply(tb, in);
    ref.eval(in);
    ASSERT_EQ(tb.top.b_waiting_o, ref.waiting_mask()) << "cycle " << c;
    ASSERT_EQ(tb.top.b_release_o, ref.rel) << "cycle " << c;
    ASSERT_EQ(bool(tb.top.b_deadlock_o), ref.dead) << "cycle " << c;
    if (ref.dead) {
      ASSERT_EQ(int(tb.top.b_deadlock_cta_o), ref.dead_cta);
      ASSERT_EQ(tb.top.b_deadlock_warps_o, ref.dead_warps);
      for (int v = 0; v < kWarps; v++) {
        if ((ref.dead_warps >> v) & 1) {
          ASSERT_EQ(tb.top.b_bar_pc_o[v], ref.pc[v]);
        }
      }
    }
    releases += ref.rel != 0;
    ref.step(in);
    tb.tick();
    if (ref.dead || in.live == 0 || rng.chance(0.002)) {
      deadlocks += ref.dead;
      fresh();
    }
  }
  // The run exercised both outcomes many times.
  EXPECT_GT(releases, 100);
  EXPECT_GT(deadlocks, 10);
}

// ===========================================================================
// Reconvergence stack
// ===========================================================================
struct StackRef {
  struct E {
    uint32_t pc, rpc, mask;
  };
  std::vector<E> s;
  bool settled() const { return !s.empty() && s.back().mask && s.back().pc != s.back().rpc; }
  void pop() {
    if (!s.empty() && !settled()) s.pop_back();
  }
  // docs/isa.md / iss exec_bra; returns false on overflow (nothing changes).
  bool bra(uint32_t guard, uint32_t T, uint32_t R, bool* diverged) {
    E& e = s.back();
    const uint32_t taken = e.mask & guard, rest = e.mask & ~guard, F = e.pc + 8;
    *diverged = taken && rest;
    if (!rest) {
      e.pc = T;
      return true;
    }
    if (!taken) {
      e.pc = F;
      return true;
    }
    const bool same = R == e.rpc;
    const size_t top = s.size() - 1;
    const size_t keep = same && F == R ? top : top + 1;
    const size_t need = keep + (same ? 0 : (F != R)) + (T != R);
    if (need > size_t(kDepth)) return false;
    std::vector<E> n(s.begin(), s.begin() + long(keep));
    if (same) {
      if (F != R) n.back() = E{F, R, rest};
    } else {
      n.back().pc = R;
      if (F != R) n.push_back(E{F, R, rest});
    }
    if (T != R) n.push_back(E{T, R, taken});
    s = n;
    return true;
  }
  void exit(uint32_t guard) {
    const uint32_t ex = s.back().mask & guard;
    for (auto& e : s) e.mask &= ~ex;
    if (s.back().mask) s.back().pc += 8;
  }
};

TEST(SmStack, RandomAgainstModel) {
  Tb tb;
  StackRef ref;
  Rng rng(5);
  int diverged = 0, overflows = 0, exits = 0, restarts = 0;
  auto pc_pick = [&]() { return 0x100 + 8 * rng.below(24); };
  for (int c = 0; c < 30000; c++) {
    tb.top.k_init_i = 0;
    tb.top.k_op_valid_i = 0;
    tb.top.k_op_kind_i = 0;
    tb.top.k_op_guard_i = uint32_t(rng.next());
    tb.top.k_op_target_i = pc_pick();
    tb.top.k_op_reconv_i = rng.chance(0.2) ? kNone : pc_pick();
    const bool restart = ref.s.empty() || rng.chance(0.001);
    bool do_op = false;
    int kind = 0;
    if (restart) {
      tb.top.k_init_i = 1;
      tb.top.k_init_pc_i = pc_pick();
      tb.top.k_init_mask_i = rng.chance(0.5) ? 0xFFFFFFFFu : uint32_t(rng.next()) | 1u;
    } else if (ref.settled() && rng.chance(0.7)) {
      do_op = true;
      const uint32_t r = rng.below(10);
      kind = r < 6 ? 1 : r < 7 ? 2 : 0;
      // Guards that split the warp often, that keep it whole sometimes.
      const uint32_t g = rng.below(4);
      if (g == 0) tb.top.k_op_guard_i = 0;
      if (g == 1) tb.top.k_op_guard_i = 0xFFFFFFFFu;
      if (kind == 2) tb.top.k_op_guard_i &= uint32_t(rng.next());  // EXIT fewer lanes
      tb.top.k_op_kind_i = uint32_t(kind);
    }
    tb.eval();
    // Outputs before the edge.
    if (!ref.s.empty()) {
      ASSERT_EQ(tb.top.k_top_pc_o, ref.s.back().pc) << "cycle " << c;
      ASSERT_EQ(tb.top.k_top_rpc_o, ref.s.back().rpc) << "cycle " << c;
      ASSERT_EQ(tb.top.k_top_mask_o, ref.s.back().mask) << "cycle " << c;
    }
    ASSERT_EQ(int(tb.top.k_depth_o), int(ref.s.size())) << "cycle " << c;
    ASSERT_EQ(bool(tb.top.k_empty_o), ref.s.empty());
    ASSERT_EQ(bool(tb.top.k_settled_o), ref.settled());
    if (restart) {
      ref.s = {StackRef::E{tb.top.k_init_pc_i, kNone, tb.top.k_init_mask_i}};
      restarts++;
    } else if (do_op) {
      if (kind == 1) {
        StackRef copy = ref;
        bool div = false;
        const bool ok = copy.bra(tb.top.k_op_guard_i, tb.top.k_op_target_i, tb.top.k_op_reconv_i, &div);
        ASSERT_EQ(bool(tb.top.k_bra_overflow_o), !ok) << "cycle " << c;
        ASSERT_EQ(bool(tb.top.k_bra_diverge_o), div) << "cycle " << c;
        if (ok) {
          ref = copy;
          tb.top.k_op_valid_i = 1;
          diverged += div;
        } else {
          overflows++;
          // The SM faults here; the test restarts the warp instead.
          tb.top.k_init_i = 1;
          tb.top.k_init_pc_i = pc_pick();
          tb.top.k_init_mask_i = 0xFFFFFFFFu;
          ref.s = {StackRef::E{tb.top.k_init_pc_i, kNone, 0xFFFFFFFFu}};
        }
      } else {
        tb.top.k_op_valid_i = 1;
        if (kind == 2) {
          ref.exit(tb.top.k_op_guard_i);
          exits++;
        } else {
          ref.s.back().pc += 8;
        }
      }
    } else {
      ref.pop();
    }
    tb.tick();
  }
  EXPECT_GT(diverged, 1000);
  EXPECT_GT(overflows, 50);
  EXPECT_GT(exits, 500);
  EXPECT_GT(restarts, 10);
}

// The RAM-backed stacks of the 1-lane SM (NumLanes = 1), two warp slots: a
// pop that leaves an entry reads it from the RAM (one warp per cycle) and a
// branch that writes two entries writes the second one a cycle later, so
// settled_o is held low for a cycle or two where the flip-flop version
// above is settled at once. Checked against the same model at every cycle a
// warp's stack is settled (top, depth) or empty; the model pops its finished
// tops at once. A warp that is neither must settle or empty within a bound.
TEST(SmStack, RamRandomAgainstModel) {
  Tb tb;
  StackRef ref[2];
  Rng rng(11);
  int diverged = 0, overflows = 0, exits = 0, restarts = 0, held = 0, both_ops = 0;
  int busy[2] = {0, 0};
  auto pc_pick = [&]() { return 0x100 + 8 * rng.below(24); };
  auto canon = [](StackRef& r) {
    while (!r.s.empty() && !r.settled()) r.s.pop_back();
  };
  auto field = [](uint64_t v, int w) { return uint32_t(v >> (32 * w)); };
  for (int c = 0; c < 40000; c++) {
    tb.idle();
    tb.top.r_op_guard_i = uint32_t(rng.next());
    tb.top.r_op_target_i = pc_pick();
    tb.top.r_op_reconv_i = rng.chance(0.2) ? kNone : pc_pick();
    tb.eval();
    // Outputs before the edge: every settled stack equals the model's.
    bool settled[2];
    for (int w = 0; w < 2; w++) {
      canon(ref[w]);
      settled[w] = (tb.top.r_settled_o >> w) & 1;
      const bool empty = (tb.top.r_empty_o >> w) & 1;
      const int depth = int((tb.top.r_depth_o >> (w * 3)) & 7);
      if (settled[w]) {
        ASSERT_TRUE(ref[w].settled()) << "cycle " << c << " warp " << w;
        ASSERT_EQ(field(tb.top.r_top_pc_o, w), ref[w].s.back().pc) << "cycle " << c << " warp " << w;
        ASSERT_EQ(field(tb.top.r_top_rpc_o, w), ref[w].s.back().rpc) << "cycle " << c << " warp " << w;
        ASSERT_EQ(field(tb.top.r_top_mask_o, w), ref[w].s.back().mask) << "cycle " << c << " warp " << w;
        ASSERT_EQ(depth, int(ref[w].s.size())) << "cycle " << c << " warp " << w;
        busy[w] = 0;
      } else if (empty) {
        ASSERT_TRUE(ref[w].s.empty()) << "cycle " << c << " warp " << w;
        ASSERT_EQ(depth, 0);
        busy[w] = 0;
      } else {
        held++;
        // At most one pop per entry, each waiting behind the other warp's.
        ASSERT_LT(++busy[w], 4 * kDepth + 4) << "cycle " << c << " warp " << w << " never settles";
      }
    }
    // One op (a settled warp) and one init (the other warp, when its model
    // stack is empty or, rarely, anyway) per cycle.
    const int wo = int(rng.below(2));
    bool op_done = false, overflow = false;
    if (settled[wo] && rng.chance(0.7)) {
      const uint32_t r = rng.below(10);
      const int kind = r < 6 ? 1 : r < 7 ? 2 : 0;
      const uint32_t g = rng.below(4);
      if (g == 0) tb.top.r_op_guard_i = 0;
      if (g == 1) tb.top.r_op_guard_i = 0xFFFFFFFFu;
      if (kind == 2) tb.top.r_op_guard_i &= uint32_t(rng.next());
      tb.top.r_op_kind_i = uint32_t(kind);
      tb.top.r_op_warp_i = uint32_t(wo);
      tb.eval();
      if (kind == 1) {
        StackRef copy = ref[wo];
        bool div = false;
        const bool ok = copy.bra(tb.top.r_op_guard_i, tb.top.r_op_target_i, tb.top.r_op_reconv_i, &div);
        ASSERT_EQ(bool(tb.top.r_bra_overflow_o), !ok) << "cycle " << c;
        ASSERT_EQ(bool(tb.top.r_bra_diverge_o), div) << "cycle " << c;
        if (ok) {
          ref[wo] = copy;
          tb.top.r_op_valid_i = 1;
          diverged += div;
          op_done = true;
        } else {
          overflows++;  // the SM faults; the test restarts the warp below
          overflow = true;
        }
      } else {
        tb.top.r_op_valid_i = 1;
        op_done = true;
        if (kind == 2) {
          ref[wo].exit(tb.top.r_op_guard_i);
          exits++;
        } else {
          ref[wo].s.back().pc += 8;
        }
      }
    }
    // The init: a warp that is not the op's, whose model stack is empty
    // (its RAM stack may still be popping) or, now and then, one that is
    // not (more often beside an op: both update paths of the tops at once).
    const int wi = op_done ? 1 - wo : overflow ? wo : int(rng.below(2));
    if (overflow || ref[wi].s.empty() || rng.chance(op_done ? 0.01 : 0.001)) {
      tb.top.r_init_i = 1;
      tb.top.r_init_warp_i = uint32_t(wi);
      tb.top.r_init_pc_i = pc_pick();
      tb.top.r_init_mask_i = rng.chance(0.5) ? 0xFFFFFFFFu : uint32_t(rng.next()) | 1u;
      ref[wi].s = {StackRef::E{tb.top.r_init_pc_i, kNone, tb.top.r_init_mask_i}};
      restarts++;
    }
    both_ops += op_done && tb.top.r_init_i;
    tb.tick();
  }
  EXPECT_GT(diverged, 1000);
  EXPECT_GT(overflows, 50);
  EXPECT_GT(exits, 500);
  EXPECT_GT(restarts, 10);
  EXPECT_GT(held, 1000);
  EXPECT_GT(both_ops, 100);
  std::printf("ram stack: %d diverging, %d overflows, %d exits, %d inits, %d warp-cycles held, %d op+init cycles\n",
              diverged, overflows, exits, restarts, held, both_ops);
}

}  // namespace
