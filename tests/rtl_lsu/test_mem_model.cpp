// The device-memory model alone: data effects, atomics, latency bounds,
// ordering, back-pressure, stalls, and reproducibility from the seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>

#include "isa/isa.h"
#include "isa/iss.h"
#include "sim/harness/mem_model.h"

using baresm::sim::atomic_apply;
using baresm::sim::MemCounters;
using baresm::sim::MemModel;
using baresm::sim::MemModelConfig;
using baresm::sim::MemOp;
using baresm::sim::MemRequest;
using baresm::sim::MemResponse;

namespace {

constexpr uint32_t kLine = 32;

MemRequest read_req(uint32_t id, uint32_t addr) {
  MemRequest r;
  r.id = id;
  r.addr = addr;
  r.op = MemOp::READ;
  return r;
}

MemRequest write_req(uint32_t id, uint32_t addr, uint8_t fill, uint32_t strobe_mask) {
  MemRequest r;
  r.id = id;
  r.addr = addr;
  r.op = MemOp::WRITE;
  r.wdata.assign(kLine, 0);
  r.wstrb.assign(kLine, 0);
  for (uint32_t i = 0; i < kLine; i++) {
    r.wdata[i] = uint8_t(fill + i);
    r.wstrb[i] = (strobe_mask >> i) & 1;
  }
  return r;
}

MemRequest atomic_req(uint32_t id, uint32_t addr, uint8_t amo, uint32_t b, uint32_t c) {
  MemRequest r;
  r.id = id;
  r.addr = addr;
  r.op = MemOp::ATOMIC;
  r.amo = amo;
  r.wdata.assign(kLine, 0);
  std::memcpy(&r.wdata[0], &b, 4);
  std::memcpy(&r.wdata[4], &c, 4);
  return r;
}

struct Event {
  uint64_t cycle;
  uint32_t id;
  std::vector<uint8_t> data;
  bool error = false;
};

// Sends the requests one after another as fast as the model takes them,
// always ready for responses (or every other cycle). Records when each
// request was accepted and when its response was taken.
struct Driver {
  explicit Driver(MemModel& model) : m(model) {}
  MemModel& m;
  std::map<uint32_t, uint64_t> accepted_at;
  std::vector<Event> responses;
  uint64_t cycle = 0;
  void run(const std::vector<MemRequest>& reqs, bool slow_consumer = false, uint64_t limit = 100000) {
    size_t next = 0;
    while ((next < reqs.size() || m.in_flight() > 0) && cycle < limit) {
      const bool valid = next < reqs.size();
      const MemRequest empty;
      const MemRequest& r = valid ? reqs[next] : empty;
      const bool rsp_ready = !slow_consumer || (cycle % 2 == 0);
      if (m.rsp_valid() && rsp_ready) responses.push_back({cycle, m.rsp().id, m.rsp().rdata, m.rsp().error});
      if (valid && m.req_ready()) accepted_at[r.id] = cycle;
      const bool acc = valid && m.req_ready();
      m.tick(valid, r, rsp_ready);
      if (acc) next++;
      cycle++;
    }
  }
};

TEST(MemModel, ReadWriteStrobesAndAtomics) {
  std::vector<uint8_t> mem(1024, 0);
  for (size_t i = 0; i < mem.size(); i++) mem[i] = uint8_t(i * 7);
  std::vector<uint8_t> ref = mem;
  MemModelConfig cfg;
  cfg.line_bytes = kLine;
  MemModel m(mem, cfg);
  Driver d(m);
  std::vector<MemRequest> reqs;
  reqs.push_back(write_req(0, 64, 0x40, 0xF0F0F00Fu));
  reqs.push_back(read_req(1, 64));
  reqs.push_back(atomic_req(2, 132, 0 /*ADD*/, 5, 0));
  reqs.push_back(atomic_req(3, 132, 4 /*CAS*/, 0, 77));  // fails: old != 0
  reqs.push_back(atomic_req(4, 136, 1 | 0x10 /*MIN.U32*/, 0xFFFFFFFFu, 0));
  d.run(reqs);
  for (uint32_t i = 0; i < kLine; i++) {
    if ((0xF0F0F00Fu >> i) & 1) ref[64 + i] = uint8_t(0x40 + i);
  }
  uint32_t w132, w136;
  std::memcpy(&w132, &ref[132], 4);
  std::memcpy(&w136, &ref[136], 4);
  const uint32_t old132 = w132;
  w132 += 5;
  std::memcpy(&ref[132], &w132, 4);
  EXPECT_EQ(mem, ref);
  ASSERT_EQ(d.responses.size(), 5u);
  for (const Event& e : d.responses) {
    ASSERT_EQ(e.data.size(), kLine);
    uint32_t v;
    std::memcpy(&v, e.data.data(), 4);
    if (e.id == 1) {
      EXPECT_TRUE(std::equal(e.data.begin(), e.data.end(), ref.begin() + 64));
    }
    if (e.id == 2) {
      EXPECT_EQ(v, old132);
    }
    if (e.id == 3) {
      EXPECT_EQ(v, old132 + 5);
    }
    if (e.id == 4) {
      EXPECT_EQ(v, w136);
    }
  }
  EXPECT_EQ(m.counters().requests, 5u);
  EXPECT_EQ(m.counters().reads, 1u);
  EXPECT_EQ(m.counters().writes, 1u);
  EXPECT_EQ(m.counters().atomics, 3u);
  EXPECT_EQ(m.counters().bytes_written, uint64_t(__builtin_popcount(0xF0F0F00Fu)));
  EXPECT_EQ(m.counters().bytes_read, kLine);
  EXPECT_EQ(m.counters().bad_requests, 0u);
}

TEST(MemModel, AtomicOpsMatchTheIsa) {
  // docs/isa.md: ADD MIN MAX EXCH CAS AND OR XOR, MIN/MAX signed unless .U32.
  const uint32_t a = 0xFFFFFFF0u, b = 5;  // a is -16 signed
  EXPECT_EQ(atomic_apply(0, a, b, 0), a + b);
  EXPECT_EQ(atomic_apply(1, a, b, 0), a);         // signed min(-16, 5)
  EXPECT_EQ(atomic_apply(1 | 0x10, a, b, 0), b);  // unsigned
  EXPECT_EQ(atomic_apply(2, a, b, 0), b);
  EXPECT_EQ(atomic_apply(2 | 0x10, a, b, 0), a);
  EXPECT_EQ(atomic_apply(3, a, b, 0), b);
  EXPECT_EQ(atomic_apply(4, a, b, 9), a);   // CAS fails
  EXPECT_EQ(atomic_apply(4, b, b, 9), 9u);  // CAS succeeds
  EXPECT_EQ(atomic_apply(5, a, b, 0), a & b);
  EXPECT_EQ(atomic_apply(6, a, b, 0), a | b);
  EXPECT_EQ(atomic_apply(7, a, b, 0), a ^ b);
}

// The model's atomics are the functional model's: one thread runs
// ATOMG.op on a word and stores the old value; compare both with atomic_apply.
TEST(MemModel, AtomicsAgreeWithTheFunctionalModel) {
  namespace isa = baresm::isa;
  namespace iss = baresm::iss;
  const uint32_t vals[] = {0u, 1u, 5u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFF0u, 0xFFFFFFFFu, 1234567u};
  int checked = 0;
  for (uint8_t op = 0; op < 8; op++) {
    for (uint8_t uns : {uint8_t(0), uint8_t(0x10)}) {
      if (uns && op != isa::ATOM_MIN && op != isa::ATOM_MAX) continue;
      for (uint32_t old : vals) {
        for (uint32_t b : vals) {
          const uint32_t c = 0xC0DE0000u | b >> 16;
          auto mov = [](uint8_t rd, uint32_t v) {
            isa::Instr in;
            in.op = isa::Op::MOV;
            in.bimm = true;
            in.rd = rd;
            in.imm = v;
            return in;
          };
          isa::Instr atom;
          atom.op = isa::Op::ATOMG;
          atom.mod = uint8_t(op | uns);
          atom.rd = 3;
          atom.rb = 1;
          atom.rc = 2;
          atom.imm = 0x1000;  // [RZ + 0x1000]
          isa::Instr st;
          st.op = isa::Op::STG;
          st.bimm = true;
          st.rd = 3;
          st.mod = isa::LDW_32;  // STW 4: 32-bit
          st.imm = 0x1004;
          isa::Instr ex;
          ex.op = isa::Op::EXIT;
          const std::vector<isa::Instr> prog = {mov(1, b), mov(2, c), atom, st, ex};
          iss::DeviceMemory dm(0x2000);
          for (size_t k = 0; k < prog.size(); k++) {
            const uint64_t w = isa::encode(prog[k]);
            dm.write(uint32_t(8 * k), &w, 8);
          }
          dm.write32(0x1000, old);
          iss::LaunchParams lp;
          lp.code_size = uint32_t(8 * prog.size());
          lp.regs_per_thread = 8;
          lp.windows.push_back({0x1000, 0x100});
          iss::FunctionalModel fm(dm);
          const iss::LaunchResult r = fm.run(lp);
          ASSERT_TRUE(r.ok()) << r.fault.describe();
          EXPECT_EQ(dm.read32(0x1004), old) << "op " << int(op | uns);
          EXPECT_EQ(dm.read32(0x1000), atomic_apply(uint8_t(op | uns), old, b, c))
              << "op " << int(op | uns) << " old " << old << " b " << b;
          checked++;
        }
      }
    }
  }
  EXPECT_EQ(checked, 10 * 64);
}

TEST(MemModel, LatencyBoundsOrderAndReorder) {
  for (bool ooo : {false, true}) {
    std::vector<uint8_t> mem(4096, 0);
    MemModelConfig cfg;
    cfg.line_bytes = kLine;
    cfg.min_latency = 3;
    cfg.max_latency = 40;
    cfg.out_of_order = ooo;
    cfg.seed = 11;
    MemModel m(mem, cfg);
    Driver d(m);
    std::vector<MemRequest> reqs;
    for (uint32_t i = 0; i < 50; i++) reqs.push_back(read_req(i, (i % 100) * kLine));
    d.run(reqs);
    ASSERT_EQ(d.responses.size(), 50u);
    bool in_order = true;
    for (size_t i = 0; i < d.responses.size(); i++) {
      const uint64_t lat = d.responses[i].cycle - d.accepted_at[d.responses[i].id];
      EXPECT_GE(lat, 3u);
      if (i > 0 && d.responses[i].id < d.responses[i - 1].id) in_order = false;
    }
    EXPECT_EQ(in_order, !ooo) << "out_of_order=" << ooo;
  }
}

TEST(MemModel, BackpressureBandwidthAndStalls) {
  std::vector<uint8_t> mem(4096, 0);
  MemModelConfig cfg;
  cfg.line_bytes = kLine;
  cfg.accept_interval = 3;
  cfg.ready_drop = 0.25;
  cfg.stall_start = 0.05;
  cfg.stall_min = 4;
  cfg.stall_max = 9;
  cfg.max_outstanding = 4;
  cfg.seed = 5;
  MemModel m(mem, cfg);
  Driver d(m);
  std::vector<MemRequest> reqs;
  for (uint32_t i = 0; i < 60; i++) reqs.push_back(read_req(i, i * kLine));
  d.run(reqs, /*slow_consumer=*/true);
  ASSERT_EQ(d.responses.size(), 60u);
  uint64_t prev = 0;
  bool first = true;
  std::vector<uint64_t> acc;
  for (const auto& kv : d.accepted_at) acc.push_back(kv.second);
  std::sort(acc.begin(), acc.end());
  for (uint64_t c : acc) {
    if (!first) {
      EXPECT_GE(c - prev, 3u);
    }
    prev = c;
    first = false;
  }
  EXPECT_GT(m.counters().stall_cycles, 0u);
  EXPECT_GT(m.counters().backpressure_cycles, 0u);
  EXPECT_LE(m.counters().max_in_flight, 4u);
  EXPECT_EQ(m.counters().responses, 60u);
}

TEST(MemModel, SameSeedSameRunOtherSeedOtherRun) {
  auto run = [](uint64_t seed) {
    std::vector<uint8_t> mem(4096, 0);
    MemModelConfig cfg;
    cfg.line_bytes = kLine;
    cfg.min_latency = 1;
    cfg.max_latency = 30;
    cfg.out_of_order = true;
    cfg.ready_drop = 0.3;
    cfg.stall_start = 0.02;
    cfg.stall_max = 10;
    cfg.seed = seed;
    MemModel m(mem, cfg);
    Driver d(m);
    std::vector<MemRequest> reqs;
    for (uint32_t i = 0; i < 40; i++) reqs.push_back(read_req(i, i * kLine));
    d.run(reqs);
    std::vector<std::pair<uint64_t, uint32_t>> trace;
    for (const Event& e : d.responses) trace.push_back({e.cycle, e.id});
    return trace;
  };
  EXPECT_EQ(run(3), run(3));
  EXPECT_NE(run(3), run(4));
}

// Poisoned lines (isa/mem_poison.h, 128-byte granule) fail every request
// that touches them, with no effect; error_rate fails requests at random.
TEST(MemModel, PoisonedLinesAndErrorRateFailRequestsWithoutEffect) {
  std::vector<uint8_t> mem(1024, 0);
  for (size_t i = 0; i < mem.size(); i++) mem[i] = uint8_t(i * 3);
  const std::vector<uint8_t> before = mem;
  baresm::iss::PoisonMap poison;
  poison.poison(300, 1);  // the line [256, 384)
  MemModelConfig cfg;
  cfg.line_bytes = kLine;
  MemModel m(mem, cfg, &poison);
  Driver d(m);
  d.run({read_req(0, 256), write_req(1, 352, 0x11, 0xFFFFFFFFu), atomic_req(2, 380, 0, 1, 0),
         read_req(3, 384), write_req(4, 224, 0x22, 0x1u)});
  ASSERT_EQ(d.responses.size(), 5u);
  for (const Event& e : d.responses) {
    EXPECT_EQ(e.error, e.id <= 2) << "request " << e.id;
    if (e.error) {
      EXPECT_TRUE(std::all_of(e.data.begin(), e.data.end(), [](uint8_t b) { return b == 0; }));
    }
  }
  std::vector<uint8_t> want = before;
  want[224] = 0x22;  // the one write outside the poisoned line
  EXPECT_EQ(mem, want);
  EXPECT_EQ(m.counters().errors, 3u);

  MemModelConfig noisy = cfg;
  noisy.error_rate = 0.25;
  noisy.seed = 5;
  MemModel n(mem, noisy);
  Driver dn(n);
  std::vector<MemRequest> reqs;
  for (uint32_t i = 0; i < 400; i++) reqs.push_back(read_req(i, (i % 32) * kLine));
  dn.run(reqs);
  EXPECT_EQ(n.counters().errors, uint64_t(std::count_if(dn.responses.begin(), dn.responses.end(),
                                                         [](const Event& e) { return e.error; })));
  EXPECT_GT(n.counters().errors, 60u);
  EXPECT_LT(n.counters().errors, 140u);
}

TEST(MemModel, OutOfRangeIsCountedNotFatal) {
  std::vector<uint8_t> mem(256, 0);
  MemModelConfig cfg;
  cfg.line_bytes = kLine;
  MemModel m(mem, cfg);
  Driver d(m);
  d.run({read_req(0, 256), atomic_req(1, 254, 0, 1, 0), read_req(2, 0)});
  EXPECT_EQ(d.responses.size(), 3u);
  EXPECT_EQ(m.counters().bad_requests, 2u);
}

}  // namespace
