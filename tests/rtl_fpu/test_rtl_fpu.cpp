// The verilated baresm_fpu (Latency = FPU_LATENCY, NumLanes = FPU_LANES)
// against isa/fp32.cpp. Operations stream in back to back, one per cycle; a
// scoreboard checks that every result comes out exactly Latency cycles after
// it went in and is bit-identical (result and cmp) to the golden model.
// With several lanes, lane 0 takes the test's operation and lane l the same
// op with its operands rotated l places, so every lane computes something
// different and a lane that reads or writes its neighbour's bits fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include "Vbaresm_fpu.h"
#include "fpu_stimulus.h"
#include "isa/isa.h"
#include "verilated.h"

#ifndef FPU_LATENCY
#error "FPU_LATENCY must be defined (the Latency the model was verilated with)"
#endif

using namespace baresm::fpu_tb;

namespace {

constexpr int kLatency = FPU_LATENCY;
#ifndef FPU_LANES
#define FPU_LANES 1
#endif
constexpr int kLanes = FPU_LANES;

// Lane l of a port: a 32-bit port for one lane, a word of a wide one else.
[[maybe_unused]] void put_lane(uint32_t& port, int, uint32_t v) { port = v; }
template <std::size_t N>
void put_lane(VlWide<N>& port, int lane, uint32_t v) { port[lane] = v; }
[[maybe_unused]] uint32_t lane_of(uint32_t port, int) { return port; }
template <std::size_t N>
uint32_t lane_of(const VlWide<N>& port, int lane) { return port[lane]; }

// What lane l computes for the test's operation o.
FpuOp lane_op(const FpuOp& o, int lane) {
  FpuOp r = o;
  const uint32_t v[3] = {o.a, o.b, o.c};
  r.a = v[lane % 3];
  r.b = v[(lane + 1) % 3];
  r.c = v[(lane + 2) % 3];
  return r;
}

std::string describe(const FpuOp& o) {
  std::ostringstream s;
  s << baresm::isa::op_info(Op(o.op)).mnemonic << std::hex << " mod=" << unsigned(o.mod)
    << " a=" << o.a << " b=" << o.b << " c=" << o.c;
  return s.str();
}

// Drives the model one clock at a time and scores every output.
class Bench {
 public:
  Bench() : ctx_(new VerilatedContext), m_(new Vbaresm_fpu(ctx_.get())) {
    m_->clk_i = 0;
    m_->in_valid_i = 0;
    reset();
  }
  ~Bench() { m_->final(); }

  void reset() {
    m_->rst_ni = 0;
    m_->eval();
    EXPECT_EQ(m_->out_valid_o, 0) << "out_valid_o must clear with the asynchronous reset";
    tick_raw();
    tick_raw();
    m_->rst_ni = 1;
    m_->eval();
    pending_.clear();
  }

  // One cycle: present `o` (or a bubble), clock, check what came out.
  void cycle(const FpuOp* o) {
    if (o) {
      m_->in_valid_i = 1;
      m_->op_i = o->op;
      m_->mod_i = o->mod;
      InFlight f;
      for (int l = 0; l < kLanes; ++l) {
        f.op[l] = lane_op(*o, l);
        f.want[l] = golden(f.op[l]);
        put_lane(m_->a_i, l, f.op[l].a);
        put_lane(m_->b_i, l, f.op[l].b);
        put_lane(m_->c_i, l, f.op[l].c);
      }
      f.due_edge = edge_ + kLatency - 1;
      pending_.push_back(f);
    } else {
      m_->in_valid_i = 0;
      // Garbage on the data inputs of a bubble must not matter.
      m_->op_i = uint8_t(rng_() & 0x7F);
      for (int l = 0; l < kLanes; ++l) {
        put_lane(m_->a_i, l, uint32_t(rng_()));
        put_lane(m_->b_i, l, uint32_t(rng_()));
      }
    }
    tick_raw();
    check();
  }

  // Clock until everything in flight has come out.
  void drain() {
    for (int i = 0; i < kLatency + 2; ++i) cycle(nullptr);
    EXPECT_TRUE(pending_.empty()) << pending_.size() << " results never came out";
  }

  long checked() const { return checked_; }
  long errors() const { return errors_; }

 private:
  struct InFlight {
    FpuOp op[kLanes];
    Expected want[kLanes];
    uint64_t due_edge;  // output visible right after this rising edge
  };

  void tick_raw() {
    m_->clk_i = 1;
    m_->eval();
    ++edge_;
    m_->clk_i = 0;
    m_->eval();
  }

  void check() {
    const uint64_t e = edge_ - 1;  // index of the edge just taken
    const bool due = !pending_.empty() && pending_.front().due_edge == e;
    if (!due) {
      if (m_->out_valid_o && ++errors_ <= 10)
        ADD_FAILURE() << "out_valid_o high at edge " << e << " with nothing due";
      return;
    }
    const InFlight f = pending_.front();
    pending_.pop_front();
    ++checked_;
    if (!m_->out_valid_o) {
      if (++errors_ <= 10)
        ADD_FAILURE() << "out_valid_o low at edge " << e << " for " << describe(f.op[0]);
      return;
    }
    bool bad = false;
    for (int l = 0; l < kLanes; ++l) {
      const uint32_t result = lane_of(m_->result_o, l);
      const bool cmp = (m_->cmp_o >> l) & 1;
      if (result == f.want[l].result && cmp == f.want[l].cmp) continue;
      bad = true;
      if (errors_ < 10)
        ADD_FAILURE() << "lane " << l << ": " << describe(f.op[l]) << std::hex
                      << ": rtl result=" << result << " cmp=" << int(cmp)
                      << ", want result=" << f.want[l].result << " cmp=" << f.want[l].cmp;
    }
    if (bad) ++errors_;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vbaresm_fpu> m_;
  std::deque<InFlight> pending_;
  std::mt19937_64 rng_{99};
  uint64_t edge_ = 0;
  long checked_ = 0, errors_ = 0;
};

}  // namespace

// Every pair (every triple for FFMA) of special values through every FP
// opcode and every compare code, back to back.
TEST(RtlFpu, SpecialValuesEveryOpcode) {
  Bench tb;
  const auto sp = specials();
  long n = 0;
  for (uint8_t op : kFpOps) {
    for (uint32_t a : sp) {
      for (uint32_t b : sp) {
        if (Op(op) == Op::FFMA) {
          for (uint32_t c : sp) {
            FpuOp o{op, 0, a, b, c};
            tb.cycle(&o);
            ++n;
          }
        } else if (Op(op) == Op::FSETP) {
          for (int cmp = 0; cmp < 16; ++cmp) {
            FpuOp o{op, uint8_t(cmp), a, b, 0};
            tb.cycle(&o);
            ++n;
          }
        } else {
          for (uint8_t mod : {0, 1}) {
            FpuOp o{op, mod, a, b, 0};
            tb.cycle(&o);
            ++n;
          }
        }
      }
    }
  }
  tb.drain();
  EXPECT_EQ(tb.checked(), n);
  EXPECT_EQ(tb.errors(), 0);
  RecordProperty("operations", std::to_string(n));
}

// At least 1,000,000 random operations of every FP opcode, one per cycle.
TEST(RtlFpu, RandomStreamBackToBack) {
  constexpr long kOps = 1'200'000;
  Bench tb;
  Gen g(2026 + kLatency);
  std::vector<long> per_op(128, 0);
  for (long i = 0; i < kOps; ++i) {
    const FpuOp o = g.op();
    ++per_op[o.op];
    tb.cycle(&o);
  }
  tb.drain();
  EXPECT_EQ(tb.checked(), kOps);
  EXPECT_EQ(tb.errors(), 0);
  for (uint8_t op : kFpOps) EXPECT_GT(per_op[op], kOps / 20) << unsigned(op);
}

// Bubbles: out_valid_o must follow in_valid_i exactly Latency cycles later,
// whatever the data inputs do while in_valid_i is low; a reset in mid-stream
// drops everything in flight.
TEST(RtlFpu, BubblesAndReset) {
  Bench tb;
  Gen g(7);
  long sent = 0;
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 20000; ++i) {
      if (g.rng() % 3 == 0) {
        tb.cycle(nullptr);
      } else {
        const FpuOp o = g.op();
        tb.cycle(&o);
        ++sent;
      }
    }
    tb.reset();  // in mid-stream: whatever was in flight must not come out
    tb.cycle(nullptr);
    tb.cycle(nullptr);
    tb.cycle(nullptr);
    tb.cycle(nullptr);
  }
  tb.drain();
  EXPECT_EQ(tb.errors(), 0);
  EXPECT_GT(tb.checked(), sent - 4 * kLatency - 4);  // all but those cut by the resets
}
