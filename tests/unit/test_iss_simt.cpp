// Functional model: the reconvergence stack, barriers, every fault kind with
// its report, the watchdog, partial warps and the retire stream.
#include <gtest/gtest.h>

#include "test_iss_util.h"

using namespace isstest;
using iss::FaultKind;

namespace {

constexpr uint32_t OUT = Rig::kData + 0x3000;
constexpr uint32_t kSentinel = 0xDEADBEEF;

void fill_out(Rig& rig, uint32_t n) {
  for (uint32_t k = 0; k < n; ++k) rig.mem.write32(OUT + 4 * k, kSentinel);
}
uint32_t out(const Rig& rig, uint32_t k) { return rig.mem.read32(OUT + 4 * k); }

// R0 = lane id, R1 = 4 * thread id, R4 = 0.
void prologue(Prog& p) { p.s2r(0, isa::SR_LANEID).s2r(1, isa::SR_TID_X).i(Op::SHL, 1, 1, 2).mov(4, 0); }

const iss::RetireEvent* find_event(const Rig& rig, uint32_t pc, int nth = 0) {
  for (const auto& e : rig.events)
    if (e.pc == pc && nth-- == 0) return &e;
  return nullptr;
}

// ---- divergence ----------------------------------------------------------------
TEST(IssSimt, IfThenReconverges) {
  Rig rig;
  rig.record = true;
  fill_out(rig, 32);
  Prog p;
  prologue(p);
  p.mov(4, 1).isetp(isa::CMP_GE, 0, 0, 10).bra("join", "join").g(0);
  p.i(Op::IADD, 4, 4, 5);
  p.L("join").i(Op::IADD, 4, 4, 100).stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(32);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(out(rig, l), l < 10 ? 106u : 101u) << l;
  const uint32_t join = Rig::kCode + p.pc_of("join");
  const auto* e = find_event(rig, join);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->warp_mask, 0xFFFFFFFFu);
  EXPECT_EQ(find_event(rig, join, 1), nullptr);  // executed once, by the whole warp
  const auto* body = find_event(rig, join - 8);
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->warp_mask, 0x3FFu);
  EXPECT_EQ(r.stats.divergent_branches, 1u);
}

TEST(IssSimt, IfElseRunsTakenSideFirst) {
  Rig rig;
  rig.record = true;
  fill_out(rig, 32);
  Prog p;
  prologue(p);
  p.isetp(isa::CMP_LT, 0, 0, 12).bra("then", "join").g(0);
  p.L("else").i(Op::IADD, 4, 4, 20).bra("join");
  p.L("then").i(Op::IADD, 4, 4, 10);
  p.L("join").i(Op::IADD, 4, 4, 1).stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(32);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(out(rig, l), l < 12 ? 11u : 21u) << l;
  // Order after the branch: then (taken, lanes 0..11), else, else's BRA, join.
  size_t k = 0;
  while (rig.events[k].instr.op != Op::BRA) ++k;
  EXPECT_EQ(rig.events[k + 1].pc, Rig::kCode + p.pc_of("then"));
  EXPECT_EQ(rig.events[k + 1].warp_mask, 0xFFFu);
  EXPECT_EQ(rig.events[k + 2].pc, Rig::kCode + p.pc_of("else"));
  EXPECT_EQ(rig.events[k + 2].warp_mask, 0xFFFFF000u);
  EXPECT_EQ(rig.events[k + 4].pc, Rig::kCode + p.pc_of("join"));
  EXPECT_EQ(rig.events[k + 4].warp_mask, 0xFFFFFFFFu);
}

TEST(IssSimt, NestedDivergenceEveryLane) {
  Rig rig;
  fill_out(rig, 64);
  Prog p;
  prologue(p);
  p.isetp(isa::CMP_LT, 0, 0, 16).bra("else1", "join1").g(0, true);
  // then1: lanes < 16
  p.i(Op::AND, 5, 0, 1).isetp(isa::CMP_EQ, 1, 5, 0).bra("t2", "join2").g(1);
  p.i(Op::IADD, 4, 4, 1).bra("join2");
  p.L("t2").i(Op::IADD, 4, 4, 2);
  p.L("join2").i(Op::IADD, 4, 4, 4).bra("join1");
  // else1: lanes >= 16
  p.L("else1").isetp(isa::CMP_LT, 2, 0, 24).bra("join3", "join3").g(2);
  p.i(Op::IADD, 4, 4, 8);
  p.L("join3").i(Op::IADD, 4, 4, 16);
  p.L("join1").i(Op::IADD, 4, 4, 32).stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(64);  // two warps, the same pattern in each
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t l = t % 32;
    uint32_t want = l < 16 ? (l % 2 == 0 ? 38u : 37u) : l < 24 ? 48u : 56u;
    EXPECT_EQ(out(rig, t), want) << t;
  }
  EXPECT_EQ(r.stats.divergent_branches, 2u * 3);
}

TEST(IssSimt, LoopsWithDivergentTripCounts) {
  // Top-tested loop (the exit branch diverges) and bottom-tested loop (the
  // back edge diverges); lane l runs l % 7 and l % 5 + 1 iterations.
  Rig rig;
  rig.record = true;
  rig.cfg.stack_depth = 2;  // loops never need more than two entries
  fill_out(rig, 64);
  Prog p;
  prologue(p);
  p.i(Op::IMULHI, 6, 0, 0x24924925, 1).i(Op::IMUL, 6, 6, 7).r(Op::ISUB, 6, 0, 6);  // n = l % 7
  p.mov(5, 0);
  p.L("top").isetpr(isa::CMP_GE, 0, 5, 6).bra("done", "done").g(0);
  p.r(Op::IADD, 4, 4, 5).i(Op::IADD, 5, 5, 1).bra("top");
  p.L("done").stg(1, OUT, 4);
  p.i(Op::IMULHI, 6, 0, 0x33333334, 1).i(Op::IMUL, 6, 6, 5).r(Op::ISUB, 6, 0, 6).i(Op::IADD, 6, 6, 1);
  p.mov(5, 0).mov(7, 0);
  p.L("body").i(Op::IADD, 7, 7, 3).i(Op::IADD, 5, 5, 1).isetpr(isa::CMP_LT, 1, 5, 6).bra("body", "after").g(1);
  p.L("after").stg(1, OUT + 0x80, 7).exit();
  rig.load(p);
  auto r = rig.run(32);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t n = l % 7;
    EXPECT_EQ(out(rig, l), n * (n - 1) / 2) << l;
    EXPECT_EQ(out(rig, 32 + l), 3 * (l % 5 + 1)) << l;
  }
  // Both loops reconverge: the stores after them run once with the full warp.
  const auto* d = find_event(rig, Rig::kCode + p.pc_of("done"));
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->warp_mask, 0xFFFFFFFFu);
  EXPECT_EQ(find_event(rig, Rig::kCode + p.pc_of("done"), 1), nullptr);
  const auto* a = find_event(rig, Rig::kCode + p.pc_of("after"));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->warp_mask, 0xFFFFFFFFu);
  // The loop body ran max(n) = 6 times, with shrinking masks.
  const uint32_t add = Rig::kCode + p.pc_of("top") + 16;
  int runs = 0;
  for (const auto& e : rig.events)
    if (e.pc == add) {
      uint32_t want = 0;
      for (uint32_t l = 0; l < 32; ++l)
        if (l % 7 > uint32_t(runs)) want |= 1u << l;
      EXPECT_EQ(e.warp_mask, want) << runs;
      ++runs;
    }
  EXPECT_EQ(runs, 6);
}

TEST(IssSimt, ExitInsideDivergence) {
  Rig rig;
  rig.record = true;
  fill_out(rig, 32);
  Prog p;
  prologue(p);
  p.mov(4, 1).isetp(isa::CMP_LT, 0, 0, 8).bra("join", "join").g(0);
  p.i(Op::AND, 5, 0, 1).isetp(isa::CMP_NE, 1, 5, 0).exit().g(1);
  p.i(Op::IADD, 4, 4, 10);
  p.L("join").stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(32);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  uint32_t alive = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    bool exited = l >= 8 && l % 2;
    if (!exited) alive |= 1u << l;
    EXPECT_EQ(out(rig, l), exited ? kSentinel : l < 8 ? 1u : 11u) << l;
  }
  const auto* st = find_event(rig, Rig::kCode + p.pc_of("join"));
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->warp_mask, alive);  // exited lanes left every stack entry
  ASSERT_EQ(st->stores.size(), size_t(__builtin_popcount(alive)));
}

TEST(IssSimt, TakenPathExitsAndPathsMeetOnlyAtExit) {
  // R = 0: no reconvergence point. Taken lanes (odd) exit, the rest go on.
  Rig rig;
  fill_out(rig, 32);
  Prog p;
  prologue(p);
  p.i(Op::AND, 5, 0, 1).isetp(isa::CMP_NE, 0, 5, 0).bra("odd").g(0);
  p.i(Op::IADD, 4, 0, 500).stg(1, OUT, 4).exit();
  p.L("odd").i(Op::IADD, 4, 0, 900).stg(1, OUT, 4).exit();
  rig.load(p);
  rig.cfg.stack_depth = 2;
  auto r = rig.run(32);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(out(rig, l), l + (l % 2 ? 900u : 500u));
  // With a single entry the same branch cannot diverge.
  rig.cfg.stack_depth = 1;
  r = rig.run(32);
  EXPECT_EQ(r.fault.kind, FaultKind::STACK_OVERFLOW);
}

// n nested if-thens; level k sends lanes >= 32-k to its join.
Prog nested_ifs(int n) {
  Prog p;
  prologue(p);
  for (int k = 1; k <= n; ++k) {
    std::string j = "join" + std::to_string(k);
    p.isetp(isa::CMP_GE, 0, 0, uint32_t(32 - k)).bra(j, j).g(0);
    p.i(Op::IADD, 4, 4, 1);
  }
  for (int k = n; k >= 1; --k) p.L("join" + std::to_string(k)).i(Op::IADD, 4, 4, 0x100);
  p.stg(1, OUT, 4).exit();
  return p;
}

TEST(IssSimt, StackOverflowAtExactlyDepthPlusOne) {
  for (uint32_t d : {2u, 4u, 16u}) {
    // d-1 nested levels use exactly d entries: fine.
    {
      Rig rig;
      rig.cfg.stack_depth = d;
      Prog p = nested_ifs(int(d) - 1);
      rig.load(p);
      auto r = rig.run(32);
      ASSERT_TRUE(r.ok()) << "D=" << d << " " << r.fault.describe();
      const uint32_t n = d - 1;
      for (uint32_t l = 0; l < 32; ++l) {
        uint32_t j = 32 - l;
        uint32_t want = j <= n ? (j - 1) + j * 0x100 : n + n * 0x100;
        EXPECT_EQ(out(rig, l), want) << "D=" << d << " lane " << l;
      }
    }
    // One level more needs d+1 entries: STACK_OVERFLOW at the d-th branch.
    {
      Rig rig;
      rig.cfg.stack_depth = d;
      fill_out(rig, 32);
      Prog p = nested_ifs(int(d));
      rig.load(p);
      auto r = rig.run(32);
      EXPECT_EQ(r.fault.kind, FaultKind::STACK_OVERFLOW) << "D=" << d;
      const uint32_t branch_pc = Rig::kCode + 8 * (4 + 3 * (d - 1) + 1);
      EXPECT_EQ(r.fault.pc, branch_pc);
      EXPECT_EQ(r.fault.warp, 0u);
      EXPECT_EQ(r.fault.lane, 0u);
      EXPECT_EQ(out(rig, 0), kSentinel);
    }
  }
  // An if-else needs two entries at once: at D = 2 with one level open it overflows.
  Rig rig;
  rig.cfg.stack_depth = 2;
  Prog p;
  prologue(p);
  p.isetp(isa::CMP_LT, 0, 0, 16).bra("t", "j").g(0);
  p.i(Op::IADD, 4, 4, 1).bra("j");
  p.L("t").i(Op::IADD, 4, 4, 2);
  p.L("j").stg(1, OUT, 4).exit();
  rig.load(p);
  EXPECT_EQ(rig.run(32).fault.kind, FaultKind::STACK_OVERFLOW);
  rig.cfg.stack_depth = 3;
  EXPECT_TRUE(rig.run(32).ok());
}

// ---- barriers ---------------------------------------------------------------
// Warp w spins delay(w) iterations (warp-uniform loop) using R9.
void spin(Prog& p, const std::string& tag, int per_warp) {
  p.s2r(9, isa::SR_WARPID).i(Op::IMUL, 9, 9, uint32_t(per_warp)).i(Op::IADD, 9, 9, 1);
  p.L("spin" + tag).i(Op::ISUB, 9, 9, 1).isetp(isa::CMP_GT, 6, 9, 0);
  p.bra("spin" + tag, "spun" + tag).g(6);
  p.L("spun" + tag);
}

// Warp w writes shared[w] = w+1 after a delay that grows with w, (optionally)
// syncs, then reads shared[(w+1) % 3].
Prog exchange(bool with_barrier) {
  Prog p;
  prologue(p);
  p.s2r(8, isa::SR_WARPID).i(Op::SHL, 10, 8, 2).i(Op::IADD, 11, 8, 1);
  spin(p, "a", 15);
  p.st(Op::STS, isa::LDW_32, 10, 0, 11);
  if (with_barrier) p.bar(0);
  p.isetp(isa::CMP_EQ, 0, 11, 3).mov(11, 0).g(0).i(Op::SHL, 11, 11, 2);
  p.ld(Op::LDS, isa::LDW_32, 4, 11, 0).stg(1, OUT, 4).exit();
  return p;
}

TEST(IssBarrier, ReleaseWhenAllWarpsArrive) {
  Rig rig;
  rig.lp.shared_bytes = 16;
  rig.load(exchange(true));
  auto r = rig.run(96);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t t = 0; t < 96; ++t) EXPECT_EQ(out(rig, t), (t / 32 + 1) % 3 + 1) << t;
  EXPECT_EQ(r.stats.barriers, 1u);
  // Without the barrier the early warps read before the late ones wrote: the
  // check above is able to fail.
  Rig no;
  no.lp.shared_bytes = 16;
  no.load(exchange(false));
  ASSERT_TRUE(no.run(96).ok());
  EXPECT_EQ(out(no, 0), 0u);
}

TEST(IssBarrier, CountForm) {
  // 6 warps: 4 and 5 exit at once; pairs (0,1) and (2,3) exchange through
  // BAR.SYNC 1, 64 and BAR.SYNC 2, 64. A whole-CTA barrier would deadlock here.
  Rig rig;
  rig.lp.shared_bytes = 16;
  fill_out(rig, 192);
  Prog p;
  prologue(p);
  p.s2r(8, isa::SR_WARPID).isetp(isa::CMP_GE, 0, 8, 4).exit().g(0);
  p.i(Op::SHL, 10, 8, 2).i(Op::IADD, 11, 8, 1);
  spin(p, "a", 20);
  p.st(Op::STS, isa::LDW_32, 10, 0, 11);
  p.isetp(isa::CMP_GE, 1, 8, 2).bra("pair1", "after").g(1);
  p.bar(1, 64).bra("after");
  p.L("pair1").bar(2, 64);
  p.L("after").i(Op::XOR, 12, 10, 4).ld(Op::LDS, isa::LDW_32, 4, 12, 0).stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(192);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(out(rig, t), ((t / 32) ^ 1) + 1) << t;
  for (uint32_t t = 128; t < 192; ++t) EXPECT_EQ(out(rig, t), kSentinel);
  EXPECT_EQ(r.stats.barriers, 2u);
  // The same kernel with whole-CTA barriers deadlocks: warps 0,1 at bar 1, 2,3 at bar 2.
  Prog q;
  prologue(q);
  q.s2r(8, isa::SR_WARPID).isetp(isa::CMP_GE, 0, 8, 4).exit().g(0);
  q.isetp(isa::CMP_GE, 1, 8, 2).bra("pair1", "after").g(1);
  q.bar(1).bra("after");
  q.L("pair1").bar(2);
  q.L("after").exit();
  rig.load(q);
  r = rig.run(192);
  EXPECT_EQ(r.fault.kind, FaultKind::BARRIER_DEADLOCK);
  EXPECT_EQ(r.fault.waiting_warps, 0xFu);
}

TEST(IssBarrier, WarpExitingLateReleasesTheOthers) {
  // Warps 0 and 2 wait at BAR 0 while warp 1 spins and then exits: its exit
  // re-checks the barrier, which now expects 2 warps and releases.
  for (bool late : {false, true}) {
    Rig rig;
    rig.record = true;
    fill_out(rig, 96);
    Prog p;
    prologue(p);
    p.s2r(8, isa::SR_WARPID).isetp(isa::CMP_EQ, 0, 8, 1);
    p.bra("w1", "").g(0);
    p.bar(0).mov(4, 7).stg(1, OUT, 4).exit();
    p.L("w1");
    if (late) spin(p, "x", 30);
    p.exit();
    rig.load(p);
    auto r = rig.run(96);
    ASSERT_TRUE(r.ok()) << r.fault.describe();
    for (uint32_t t = 0; t < 96; ++t) EXPECT_EQ(out(rig, t), t / 32 == 1 ? kSentinel : 7u) << t;
    EXPECT_EQ(r.stats.barriers, 1u);
    if (late) {
      // Warp 0's store comes after warp 1's exit.
      size_t exit1 = 0, store0 = 0;
      for (size_t k = 0; k < rig.events.size(); ++k) {
        const auto& e = rig.events[k];
        if (e.warp == 1 && e.instr.op == Op::EXIT) exit1 = k;
        if (e.warp == 0 && e.instr.op == Op::STG) store0 = k;
      }
      EXPECT_GT(store0, exit1);
    }
  }
}

TEST(IssBarrier, BackToBackBarriersWithDifferentIds) {
  Rig rig;
  rig.lp.shared_bytes = 16;
  Prog p;
  prologue(p);
  p.s2r(8, isa::SR_WARPID).i(Op::SHL, 10, 8, 2).i(Op::IADD, 11, 8, 1);
  spin(p, "a", 9);
  p.st(Op::STS, isa::LDW_32, 10, 0, 11).bar(3);
  p.isetp(isa::CMP_EQ, 0, 11, 3).mov(11, 0).g(0).i(Op::SHL, 11, 11, 2);
  p.ld(Op::LDS, isa::LDW_32, 4, 11, 0).bar(7);  // everyone has read before anyone rewrites
  // Reversed delay: warp 0 now arrives last.
  p.s2r(9, isa::SR_WARPID).i(Op::IMUL, 9, 9, uint32_t(-10)).i(Op::IADD, 9, 9, 21);
  p.L("rs").i(Op::ISUB, 9, 9, 1).isetp(isa::CMP_GT, 6, 9, 0).bra("rs", "rsd").g(6).L("rsd");
  p.i(Op::IMUL, 13, 8, 10).i(Op::IADD, 13, 13, 10);
  p.st(Op::STS, isa::LDW_32, 10, 0, 13).bar(3);
  p.ld(Op::LDS, isa::LDW_32, 5, 11, 0).i(Op::IMUL, 5, 5, 100).r(Op::IADD, 4, 4, 5);
  p.stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(96);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  for (uint32_t t = 0; t < 96; ++t) {
    uint32_t o = (t / 32 + 1) % 3;
    EXPECT_EQ(out(rig, t), (o + 1) + (o + 1) * 10 * 100) << t;
  }
  EXPECT_EQ(r.stats.barriers, 3u);
}

TEST(IssBarrier, GuardFalseBarrierDoesNotArrive) {
  Rig rig;
  Prog p;
  prologue(p);
  p.s2r(8, isa::SR_WARPID).isetp(isa::CMP_EQ, 0, 8, 0);
  p.bar(0).g(0);  // only warp 0 arrives...
  p.bar(0).g(0, true);  // ...then the others, at a second instance of the same id
  p.mov(4, 3).stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(64);
  ASSERT_TRUE(r.ok()) << r.fault.describe();
  EXPECT_EQ(r.stats.barriers, 1u);
  EXPECT_EQ(out(rig, 63), 3u);
}

TEST(IssBarrier, DeadlockTwoWarpsAtDifferentIds) {
  Rig rig;
  Prog p;
  prologue(p);
  p.s2r(8, isa::SR_WARPID).isetp(isa::CMP_EQ, 0, 8, 0).bra("w0").g(0);
  p.isetp(isa::CMP_EQ, 1, 8, 2).exit().g(1);  // warp 2 leaves
  p.bar(1).exit();
  p.L("w0").bar(0).exit();
  rig.load(p);
  auto r = rig.run({2, 1, 1}, {96, 1, 1});
  ASSERT_EQ(r.fault.kind, FaultKind::BARRIER_DEADLOCK) << r.fault.describe();
  EXPECT_EQ(r.fault.cta.x, 0u);
  EXPECT_EQ(r.fault.warp, 0u);
  EXPECT_EQ(r.fault.lane, 0u);
  EXPECT_EQ(r.fault.pc, Rig::kCode + p.pc_of("w0"));
  EXPECT_EQ(r.fault.waiting_warps, 0x3u);
  EXPECT_NE(r.fault.detail.find("warp 0 at bar 0"), std::string::npos) << r.fault.detail;
  EXPECT_NE(r.fault.detail.find("warp 1 at bar 1"), std::string::npos) << r.fault.detail;
  EXPECT_EQ(r.fault.detail.find("warp 2"), std::string::npos) << r.fault.detail;
  EXPECT_EQ(r.stats.ctas, 1u);  // ended at once: the second CTA never started
  EXPECT_NE(r.fault.describe().find("BARRIER_DEADLOCK"), std::string::npos);
}

TEST(IssBarrier, DeadlockCountLargerThanLiveWarps) {
  Rig rig;
  Prog p;
  prologue(p);
  p.bar(2, 96).exit();
  rig.load(p);
  auto r = rig.run(64);
  ASSERT_EQ(r.fault.kind, FaultKind::BARRIER_DEADLOCK);
  EXPECT_EQ(r.fault.waiting_warps, 0x3u);
  EXPECT_EQ(r.fault.pc, Rig::kCode + 8 * 4);
  EXPECT_NE(r.fault.detail.find("warp 1 at bar 2"), std::string::npos);
  // The same count with three warps releases.
  EXPECT_TRUE(rig.run(96).ok());
}

// ---- faults --------------------------------------------------------------------
// Grid 2 x 64 threads: P0 is true only for thread 37 of CTA 1 (warp 1, lane 5).
void fault_prologue(Prog& p) {
  prologue(p);
  p.s2r(6, isa::SR_CTAID_X).s2r(7, isa::SR_TID_X);
  p.isetp(isa::CMP_EQ, 0, 7, 37).isetp(isa::CMP_EQ, 0, 6, 1, false, isa::COMB_AND, 0);
  // R3 = per-thread slot address: OUT + 4*(cta*64 + tid)
  p.i(Op::SHL, 3, 6, 8).r(Op::IADD, 3, 3, 1).i(Op::IADD, 3, 3, OUT);
}

struct Expect {
  FaultKind kind;
  uint32_t pc_index;
  uint32_t addr = 0;
  uint32_t warp = 1, lane = 5, cta = 1;
};

void check_fault(const iss::LaunchResult& r, const Expect& x) {
  ASSERT_EQ(r.fault.kind, x.kind) << r.fault.describe();
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.launch_error);
  EXPECT_EQ(r.fault.cta.x, x.cta);
  EXPECT_EQ(r.fault.cta.y, 0u);
  EXPECT_EQ(r.fault.warp, x.warp);
  EXPECT_EQ(r.fault.lane, x.lane);
  EXPECT_EQ(r.fault.pc, Rig::kCode + 8 * x.pc_index);
  EXPECT_EQ(r.fault.addr, x.addr);
  EXPECT_FALSE(r.fault.detail.empty());
}

TEST(IssFault, OutOfWindowGlobalStoreWritesNothing) {
  Rig rig;
  fill_out(rig, 128);
  Prog p;
  fault_prologue(p);
  p.mov(5, 0x00ff0000).r(Op::SEL, 3, 5, 3, RZ, 0);  // thread 37 of CTA 1 gets a wild address
  const uint32_t at = uint32_t(p.here());
  p.stg(3, 0, 7).exit();
  rig.load(p);
  auto r = rig.run({2, 1, 1}, {64, 1, 1});
  check_fault(r, {FaultKind::OUT_OF_WINDOW, at, 0x00ff0000});
  EXPECT_EQ(r.fault.describe(),
            "OUT_OF_WINDOW at pc 0x" + [&] {
              char b[16];
              snprintf(b, sizeof b, "%08x", Rig::kCode + 8 * at);
              return std::string(b);
            }() + " (cta (1,0,0) warp 1 lane 5) address 0x00ff0000: store of 4 bytes outside every window");
  for (uint32_t t = 0; t < 128; ++t) {
    // CTA 0 and warp 0 of CTA 1 stored; the faulting warp stored nothing at all.
    bool stored = t < 96;
    EXPECT_EQ(out(rig, t), stored ? t % 64 : kSentinel) << t;
  }
}

TEST(IssFault, AccessStraddlingTwoWindowsIsOutOfWindow) {
  Rig rig;
  const uint32_t W = Rig::kData + 0x8000;
  rig.lp.windows = {{W, 18}, {W + 18, 14}, {Rig::kData + 0x3000, 0x1000}};
  Prog p;
  fault_prologue(p);
  p.mov(5, W + 16).mov(8, W + 12).r(Op::SEL, 5, 5, 8, RZ, 0);
  const uint32_t at = uint32_t(p.here());
  p.ldg(4, 5, 0).exit();
  rig.load(p);
  check_fault(rig.run({2, 1, 1}, {64, 1, 1}), {FaultKind::OUT_OF_WINDOW, at, W + 16});
  // Each window alone is fine: [W+12, +4) and [W+20, +4).
  rig.lp.windows = {{W, 18}, {W + 18, 14}};
  Prog q;
  q.mov(5, W + 12).ldg(4, 5, 0).ldg(4, 5, 8).exit();
  rig.load(q);
  EXPECT_TRUE(rig.run(1).ok());
}

// The protected range (the device's PROT_BASE/PROT_SIZE) is out of every
// window: a global access touching it faults at its address even inside a
// window; the bytes around it are reachable; a store into the kernel's own
// code faults and the code is unchanged.
TEST(IssFault, ProtectedRangeIsOutOfEveryWindow) {
  const uint32_t P = Rig::kData + 0x2000;
  {
    Rig rig;
    rig.lp.protect = {P, 0x100};
    Prog p;
    p.mov(5, P + 0xFE).mov(7, 1);
    const uint32_t at = uint32_t(p.here());
    p.st(Op::STG, isa::LDW_U16, 5, 0, 7).exit();
    rig.load(p);
    auto r = rig.run(1);
    check_fault(r, {FaultKind::OUT_OF_WINDOW, at, P + 0xFE, 0, 0, 0});
    EXPECT_EQ(rig.mem.read32(P + 0xFC), 0u) << "the faulting store was made";
  }
  {
    Rig rig;
    rig.lp.protect = {P, 0x100};
    Prog p;  // the words on either side of the range
    p.mov(5, P - 4).ldg(4, 5, 0).mov(5, P + 0x100).ldg(4, 5, 0).exit();
    rig.load(p);
    EXPECT_TRUE(rig.run(1).ok());
  }
  {
    Rig rig;
    rig.lp.windows.push_back({Rig::kCode, 0x1000});
    rig.lp.protect = {Rig::kCode, 0x1000};
    Prog p;
    p.mov(5, Rig::kCode).mov(7, 0);
    const uint32_t at = uint32_t(p.here());
    p.st(Op::STG, isa::LDW_32, 5, 0, 7).exit();
    rig.load(p);
    const uint32_t word0 = rig.mem.read32(Rig::kCode);
    auto r = rig.run(1);
    check_fault(r, {FaultKind::OUT_OF_WINDOW, at, Rig::kCode, 0, 0, 0});
    EXPECT_EQ(rig.mem.read32(Rig::kCode), word0) << "the kernel rewrote its code";
    // Without the protected range the same store is made (the window allows it).
    rig.lp.protect = {};
    EXPECT_TRUE(rig.run(1).ok());
    EXPECT_EQ(rig.mem.read32(Rig::kCode), 0u);
  }
}

TEST(IssFault, SharedAndParamBounds) {
  {
    Rig rig;
    rig.lp.shared_bytes = 64;
    Prog p;
    fault_prologue(p);
    p.mov(5, 64).mov(8, 60).r(Op::SEL, 5, 5, 8, RZ, 0);
    const uint32_t at = uint32_t(p.here());
    p.st(Op::STS, isa::LDW_32, 5, 0, 7).exit();
    rig.load(p);
    auto r = rig.run({2, 1, 1}, {64, 1, 1});
    check_fault(r, {FaultKind::OUT_OF_WINDOW, at, 64});
    EXPECT_NE(r.fault.detail.find("shared"), std::string::npos);
  }
  {
    Rig rig;
    rig.params({1, 2});
    Prog p;
    fault_prologue(p);
    p.mov(5, 6).mov(8, 4).r(Op::SEL, 5, 5, 8, RZ, 0);
    const uint32_t at = uint32_t(p.here());
    p.ld(Op::LDC, isa::LDW_U16, 4, 5, 2).exit();  // 8..9 is past the 8-byte buffer
    rig.load(p);
    auto r = rig.run({2, 1, 1}, {64, 1, 1});
    check_fault(r, {FaultKind::OUT_OF_WINDOW, at, 8});
    EXPECT_NE(r.fault.detail.find("param"), std::string::npos);
  }
  {  // shared atomics are bounded too, and leave memory untouched when they fault
    Rig rig;
    rig.lp.shared_bytes = 32;
    Prog p;
    fault_prologue(p);
    p.mov(5, 32).mov(8, 0).r(Op::SEL, 5, 5, 8, RZ, 0).mov(9, 1);
    const uint32_t at = uint32_t(p.here());
    p.atom(Op::ATOMS, isa::ATOM_ADD, 4, 5, 0, 9).exit();
    rig.load(p);
    check_fault(rig.run({2, 1, 1}, {64, 1, 1}), {FaultKind::OUT_OF_WINDOW, at, 32});
  }
}

TEST(IssFault, MisalignedAndLanePrecedence) {
  {  // 32-bit global load at +2
    Rig rig;
    Prog p;
    fault_prologue(p);
    p.mov(5, Rig::kData + 2).mov(8, Rig::kData).r(Op::SEL, 5, 5, 8, RZ, 0);
    const uint32_t at = uint32_t(p.here());
    p.ldg(4, 5, 0).exit();
    rig.load(p);
    check_fault(rig.run({2, 1, 1}, {64, 1, 1}), {FaultKind::MISALIGNED, at, Rig::kData + 2});
  }
  {  // global atomic at +1: nothing applied
    Rig rig;
    rig.mem.write32(Rig::kData, 40);
    Prog p;
    fault_prologue(p);
    p.mov(5, Rig::kData + 1).mov(8, Rig::kData).r(Op::SEL, 5, 5, 8, RZ, 0).mov(9, 1);
    const uint32_t at = uint32_t(p.here());
    p.atom(Op::ATOMG, isa::ATOM_ADD, 4, 5, 0, 9).exit();
    rig.load(p);
    check_fault(rig.run({2, 1, 1}, {64, 1, 1}), {FaultKind::MISALIGNED, at, Rig::kData + 1});
    EXPECT_EQ(rig.mem.read32(Rig::kData), 40u + 96);  // CTA 0 and warp 0 of CTA 1 only
  }
  // One warp: lane 2 out of window, lane 3 misaligned -> OUT_OF_WINDOW lane 2.
  // Lane 2 both misaligned and out of window -> MISALIGNED lane 2.
  for (int variant = 0; variant < 2; ++variant) {
    Rig rig;
    Prog p;
    prologue(p);
    p.i(Op::IADD, 5, 1, Rig::kData);
    p.isetp(isa::CMP_EQ, 1, 0, 2).mov(5, variant ? 0x10000002u : 0x10000000u).g(1);
    p.isetp(isa::CMP_EQ, 2, 0, 3).i(Op::IADD, 5, 5, 1).g(2);
    p.stg(5, 0, 5).exit();
    rig.load(p);
    auto r = rig.run(32);
    EXPECT_EQ(r.fault.kind, variant ? FaultKind::MISALIGNED : FaultKind::OUT_OF_WINDOW);
    EXPECT_EQ(r.fault.lane, 2u);
    EXPECT_EQ(r.fault.addr, variant ? 0x10000002u : 0x10000000u);
    EXPECT_EQ(rig.mem.read32(Rig::kData), 0u);
  }
  {  // 16-bit shared store at an odd address
    Rig rig;
    rig.lp.shared_bytes = 64;
    Prog p;
    fault_prologue(p);
    p.mov(5, 9).mov(8, 8).r(Op::SEL, 5, 5, 8, RZ, 0);
    const uint32_t at = uint32_t(p.here());
    p.st(Op::STS, isa::LDW_U16, 5, 0, 7).exit();
    rig.load(p);
    check_fault(rig.run({2, 1, 1}, {64, 1, 1}), {FaultKind::MISALIGNED, at, 9});
  }
}

TEST(IssFault, Trap) {
  Rig rig;
  Prog p;
  fault_prologue(p);
  p.trap().g(PT, true);  // no lane: nothing happens
  const uint32_t at = uint32_t(p.here());
  p.trap().g(0).exit();
  rig.load(p);
  auto r = rig.run({2, 1, 1}, {64, 1, 1});
  check_fault(r, {FaultKind::TRAP, at});
  EXPECT_EQ(r.fault.describe().rfind("TRAP at pc", 0), 0u);
}

TEST(IssFault, IllegalInstruction) {
  {  // an opcode that is not in the table, reached by thread 37 of CTA 1 only
    Rig rig;
    Prog p;
    fault_prologue(p);
    p.bra("bad", "ok").g(0).bra("ok");
    const uint32_t at = uint32_t(p.here());
    p.L("bad").raw(0x7F).L("ok").exit();
    rig.load(p);
    check_fault(rig.run({2, 1, 1}, {64, 1, 1}), {FaultKind::ILLEGAL_INSTR, at});
  }
  {  // a register beyond regs_per_thread: illegal even when the guard is false
    Rig rig;
    Prog p;
    p.mov(2, 1).mov(20, 1).g(PT, true).exit();
    rig.load(p);
    rig.lp.regs_per_thread = 20;
    auto r = rig.run(40);
    check_fault(r, {FaultKind::ILLEGAL_INSTR, 1, 0, 0, 0, 0});
    EXPECT_NE(r.fault.detail.find("R20"), std::string::npos) << r.fault.detail;
    rig.lp.regs_per_thread = 21;
    EXPECT_TRUE(rig.run(40).ok());
  }
  {  // a bad modifier (ISETP cmp 7) does not decode either
    Rig rig;
    Instr in;
    in.op = Op::ISETP;
    in.mod = 7;
    Prog p;
    p.nop().raw(isa::encode(in)).exit();
    rig.load(p);
    check_fault(rig.run(1), {FaultKind::ILLEGAL_INSTR, 1, 0, 0, 0, 0});
  }
}

// A device without the FPU (ModelConfig::has_fpu, CONFIG6.HAS_FPU 0): an FPU
// instruction is illegal there, wherever it is reached; integer code runs.
TEST(IssFault, FpuInstructionOnADeviceWithoutTheFpu) {
  Rig rig;
  Prog p;
  p.mov(1, 0x3F800000).nop();
  const uint32_t at = uint32_t(p.here());
  p.r(Op::FADD, 2, 1, 1, RZ).exit();
  rig.load(p);
  EXPECT_TRUE(rig.run(32).ok());
  rig.cfg.has_fpu = false;
  auto r = rig.run(32);
  check_fault(r, {FaultKind::ILLEGAL_INSTR, at, 0, 0, 0, 0});
  EXPECT_NE(r.fault.detail.find("FADD needs the FPU, and this device has none"), std::string::npos)
      << r.fault.detail;
}

TEST(IssFault, InvalidPc) {
  {  // branch past the end of the code
    Rig rig;
    Prog p;
    fault_prologue(p);
    const uint32_t at = uint32_t(p.here());
    p.bra_raw(100, 0).g(0).exit();
    rig.load(p);
    auto r = rig.run({2, 1, 1}, {64, 1, 1});
    check_fault(r, {FaultKind::INVALID_PC, at + 100});  // lane 5 alone took the branch
  }
  {  // misaligned entry; entry before the code
    Rig rig;
    Prog p;
    p.nop().exit();
    rig.load(p);
    rig.lp.entry_pc = Rig::kCode + 4;
    auto r = rig.run(1);
    EXPECT_EQ(r.fault.kind, FaultKind::INVALID_PC);
    EXPECT_EQ(r.fault.pc, Rig::kCode + 4);
    rig.lp.entry_pc = Rig::kCode - 8;
    EXPECT_EQ(rig.run(1).fault.kind, FaultKind::INVALID_PC);
    // falling off the end of the code
    rig.lp.entry_pc = Rig::kCode;
    rig.lp.code_size = 8;
    r = rig.run(1);
    EXPECT_EQ(r.fault.kind, FaultKind::INVALID_PC);
    EXPECT_EQ(r.fault.pc, Rig::kCode + 8);
  }
}

TEST(IssFault, Watchdog) {
  Rig rig;
  Prog p;
  p.nop().L("spin").bra("spin");
  rig.load(p);
  rig.lp.instr_budget = 1001;
  auto r = rig.run(64);
  ASSERT_EQ(r.fault.kind, FaultKind::WATCHDOG);
  EXPECT_EQ(r.stats.warp_instrs, 1001u);
  EXPECT_EQ(r.fault.warp, 1u);  // warp 0 retired the 1001st; warp 1 would exceed
  EXPECT_EQ(r.fault.pc, Rig::kCode + 8);
  // Only CTA 2 of 3 spins: the report names it.
  Rig c2;
  Prog q2;
  q2.s2r(0, isa::SR_CTAID_X).isetp(isa::CMP_NE, 0, 0, 2).exit().g(0).L("spin").bra("spin");
  c2.load(q2);
  c2.lp.instr_budget = 500;
  auto rc = c2.run({3, 1, 1}, {32, 1, 1});
  ASSERT_EQ(rc.fault.kind, FaultKind::WATCHDOG);
  EXPECT_EQ(rc.fault.cta.x, 2u);
  EXPECT_EQ(rc.fault.warp, 0u);
  EXPECT_EQ(rc.fault.lane, 0u);
  EXPECT_EQ(rc.fault.pc, Rig::kCode + 24);
  EXPECT_EQ(rc.stats.ctas, 3u);
  // A kernel of exactly the budget completes.
  Rig ok;
  Prog q;
  q.nop().nop().exit();
  ok.load(q);
  ok.lp.instr_budget = 6;
  EXPECT_TRUE(ok.run(64).ok());
  ok.lp.instr_budget = 5;
  auto w = ok.run(64);
  EXPECT_EQ(w.fault.kind, FaultKind::WATCHDOG);
  EXPECT_EQ(w.fault.warp, 1u);
  EXPECT_EQ(w.fault.pc, Rig::kCode + 16);
}

// ---- partial warps, retire stream, code writes -------------------------------------
TEST(IssWarps, PartialLastWarp) {
  Rig rig;
  rig.record = true;
  fill_out(rig, 64);
  Prog p;
  p.s2r(0, isa::SR_TID_X).i(Op::SHL, 1, 0, 2).i(Op::IADD, 4, 0, 1);
  p.r(Op::VOTE, 4, PT, RZ, RZ, isa::VOTE_BALLOT).stg(1, OUT + 0x100, 4);
  p.i(Op::IADD, 4, 0, 1).stg(1, OUT, 4).exit();
  rig.load(p);
  auto r = rig.run(40);
  ASSERT_TRUE(r.ok());
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(out(rig, t), t < 40 ? t + 1 : kSentinel) << t;
    if (t < 40) {
      EXPECT_EQ(out(rig, 64 + t), t < 32 ? 0xFFFFFFFFu : 0xFFu) << t;
    }
  }
  EXPECT_EQ(r.stats.thread_instrs, 40u * 8);
  EXPECT_EQ(r.stats.warp_instrs, 2u * 8);
  for (const auto& e : rig.events) EXPECT_EQ(e.warp_mask, e.warp ? 0xFFu : 0xFFFFFFFFu);
}

TEST(IssRetire, EventContents) {
  Rig rig;
  rig.record = true;
  rig.lp.shared_bytes = 64;
  Prog p;
  p.s2r(0, isa::SR_LANEID);                          // 0
  p.isetp(isa::CMP_LT, 1, 0, 4);                     // 1
  p.i(Op::IADD, 2, 0, 100).g(1);                     // 2
  p.mov(3, 1).g(PT, true);                           // 3: guard false everywhere
  p.i(Op::SHL, 5, 0, 1).i(Op::IADD, 6, 0, 0x1234);   // 4, 5
  p.st(Op::STS, isa::LDW_U16, 5, 0, 6).g(1);         // 6
  p.mov(7, 3).atom(Op::ATOMS, isa::ATOM_ADD, 8, RZ, 40, 7).g(1);  // 7, 8
  p.mov(RZ, 9);                                      // 9: RZ: no register written
  p.exit().g(1);                                     // 10
  p.exit();                                          // 11
  rig.load(p);
  auto r = rig.run({2, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(rig.events.size(), 2u * 12);
  EXPECT_EQ(r.stats.warp_instrs, 24u);
  EXPECT_EQ(r.stats.thread_instrs, 2u * (32 * 6 + 4 * 4 + 28));
  for (uint32_t c = 0; c < 2; ++c) {
    const auto* ev = &rig.events[c * 12];
    for (uint32_t k = 0; k < 12; ++k) {
      EXPECT_EQ(ev[k].cta_linear, c);
      EXPECT_EQ(ev[k].warp, 0u);
      EXPECT_EQ(ev[k].pc, Rig::kCode + 8 * k);
    }
    EXPECT_EQ(ev[0].instr.op, Op::S2R);
    EXPECT_TRUE(ev[0].wrote_reg);
    EXPECT_EQ(ev[0].rd, 0);
    for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(ev[0].reg_values[l], l);
    EXPECT_TRUE(ev[1].wrote_pred);
    EXPECT_EQ(ev[1].pd, 1);
    EXPECT_EQ(ev[1].pred_values, 0xFu);
    EXPECT_FALSE(ev[1].wrote_reg);
    EXPECT_EQ(ev[2].exec_mask, 0xFu);
    EXPECT_EQ(ev[2].warp_mask, 0xFFFFFFFFu);
    EXPECT_TRUE(ev[2].wrote_reg);
    EXPECT_EQ(ev[2].rd, 2);
    for (uint32_t l = 0; l < 4; ++l) EXPECT_EQ(ev[2].reg_values[l], 100 + l);
    EXPECT_EQ(ev[3].exec_mask, 0u);  // retired, but nothing happened
    EXPECT_FALSE(ev[3].wrote_reg);
    ASSERT_EQ(ev[6].stores.size(), 4u);
    for (uint32_t l = 0; l < 4; ++l) {
      EXPECT_TRUE(ev[6].stores[l].shared);
      EXPECT_EQ(ev[6].stores[l].lane, l);
      EXPECT_EQ(ev[6].stores[l].addr, 2 * l);
      EXPECT_EQ(ev[6].stores[l].size, 2);
      EXPECT_EQ(ev[6].stores[l].value, 0x1234 + l);
    }
    EXPECT_FALSE(ev[6].wrote_reg);
    ASSERT_EQ(ev[8].stores.size(), 4u);
    EXPECT_EQ(ev[8].stores[3].value, 12u);  // 4 lanes adding 3, applied in order
    EXPECT_EQ(ev[8].stores[3].addr, 40u);
    EXPECT_TRUE(ev[8].wrote_reg);
    EXPECT_EQ(ev[8].reg_values[2], 6u);  // old values 0, 3, 6, 9
    EXPECT_FALSE(ev[9].wrote_reg);
    EXPECT_EQ(ev[9].exec_mask, 0xFFFFFFFFu);
    EXPECT_EQ(ev[10].exec_mask, 0xFu);
    EXPECT_EQ(ev[11].warp_mask, 0xFFFFFFF0u);
  }
}

TEST(IssRetire, StoresIntoCodeAreFetched) {
  // The loop body's first instruction (MOV R4, 1) rewrites itself into
  // MOV R4, 77 after its first execution: the second iteration must see it.
  Rig rig;
  Instr mov77;
  mov77.op = Op::MOV;
  mov77.bimm = true;
  mov77.rd = 4;
  mov77.imm = 77;
  const uint64_t w = isa::encode(mov77);
  Prog p;
  p.mov(2, uint32_t(w)).mov(3, uint32_t(w >> 32)).mov(10, 0);  // 0..2
  p.L("loop").mov(4, 1);                                       // 3
  p.i(Op::SHL, 11, 10, 2).stg(11, OUT, 4);
  p.stg(RZ, Rig::kCode + 24, 2).stg(RZ, Rig::kCode + 28, 3);
  p.i(Op::IADD, 10, 10, 1).isetp(isa::CMP_LT, 0, 10, 2).bra("loop", "end").g(0);
  p.L("end").exit();
  rig.load(p);
  rig.lp.windows.push_back({Rig::kCode, 128});
  ASSERT_TRUE(rig.run(1).ok());
  EXPECT_EQ(out(rig, 0), 1u);
  EXPECT_EQ(out(rig, 1), 77u);
}

}  // namespace
