// The device contract itself: the register and ring tables are consistent, and the shared pieces (scoreboard, allocator,
// status codes) do what they promise -- including failing when they must.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include "contract/rings.h"
#include "cq_model/scoreboard.h"
#include "host_driver/allocator.h"
#include "contract/regs.h"
#include "host_driver/status.h"

namespace {

using namespace baresm;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The generated files themselves (packages, docs) are checked by the ctest
// generated_files_current (scripts/gen.sh --check).

// ---- register table ------------------------------------------------------------------------
TEST(RegisterMap, OffsetsAndFieldsAreConsistent) {
  int nr = 0, nf = 0;
  const regs::RegInfo* rs = regs::reg_table(&nr);
  const regs::FieldInfo* fs = regs::field_table(&nf);
  ASSERT_GT(nr, 20);
  std::set<uint32_t> global, perq;
  std::set<std::string> names;
  for (int i = 0; i < nr; ++i) {
    const regs::RegInfo& r = rs[i];
    SCOPED_TRACE(r.name);
    EXPECT_TRUE(names.insert(r.name).second) << "duplicate register name";
    EXPECT_EQ(r.offset % 4, 0u);
    if (r.per_queue) {
      EXPECT_LT(r.offset, regs::QP_STRIDE);
      EXPECT_TRUE(perq.insert(r.offset).second) << "duplicate queue-pair offset";
    } else {
      EXPECT_LT(r.offset, regs::QP_BASE);
      EXPECT_TRUE(global.insert(r.offset).second) << "duplicate offset";
    }
    // Fields: inside 32 bits, no overlap, resets compose to the register's reset.
    uint32_t used = 0, reset = 0;
    bool any = false, param = false;
    for (int j = 0; j < nf; ++j) {
      const regs::FieldInfo& f = fs[j];
      if (std::string(f.reg) != r.name) continue;
      any = true;
      SCOPED_TRACE(f.name);
      ASSERT_LE(f.msb, 31);
      ASSERT_GE(f.msb, f.lsb);
      const regs::Field fld{f.msb, f.lsb};
      EXPECT_EQ(used & fld.mask(), 0u) << "overlapping fields";
      used |= fld.mask();
      if (f.reset == regs::HWPARAM) {
        param = true;
      } else {
        EXPECT_EQ(fld.put(uint32_t(f.reset)) >> f.lsb, f.reset) << "reset value does not fit the field";
        reset |= fld.put(uint32_t(f.reset));
      }
      if (r.access == regs::Access::RO) {
        EXPECT_EQ(f.access, regs::Access::RO) << "a writable field in an RO register";
      }
    }
    if (any && !param && r.reset != regs::HWPARAM) {
      EXPECT_EQ(reset, uint32_t(r.reset)) << "field resets vs register reset";
    }
    if (!any) {
      EXPECT_NE(r.reset, regs::HWPARAM);
    }
  }
  // Every field names a register that exists.
  for (int j = 0; j < nf; ++j) EXPECT_TRUE(names.count(fs[j].reg)) << fs[j].reg << "." << fs[j].name;
  EXPECT_LE(regs::QP_BASE + regs::MAX_QUEUES * regs::QP_STRIDE, regs::REG_SPACE);
  EXPECT_EQ(regs::ID, 0u);
  EXPECT_EQ(regs::qp(2, regs::QpReg::DOORBELL), regs::QP_BASE + 2 * regs::QP_STRIDE + 0x20);
}

TEST(RegisterMap, FieldHelpers) {
  constexpr regs::Field f{15, 8};
  static_assert(f.mask() == 0xFF00u, "mask");
  static_assert(f.get(0x12345678u) == 0x56u, "get");
  static_assert(f.put(0x1FF) == 0xFF00u, "put truncates");
  constexpr regs::Field all{31, 0};
  static_assert(all.mask() == 0xFFFFFFFFu, "full-width mask");
  EXPECT_EQ(regs::f::CONTROL_SOFT_RESET.put(1), 2u);
  EXPECT_EQ(regs::f::IRQ_STATUS_CQ.mask(), 0xFFu);
}

// ---- ring formats ----------------------------------------------------------------------------
TEST(RingFormats, RecordsAreLittleEndianImages) {
  cq::LaunchDescriptor d;
  d.token = 0x0102030405060708ull;
  d.grid_y = 0xABCD;
  d.window_count = 3;
  uint8_t b[64];
  cq::encode(d, b);
  EXPECT_EQ(b[0], 0x08);
  EXPECT_EQ(b[7], 0x01);
  EXPECT_EQ(b[24], 0xCD);
  EXPECT_EQ(b[25], 0xAB);
  EXPECT_EQ(b[56], 3);
  EXPECT_EQ(b[58] | b[59] << 8, int(cq::kDESC_MAGIC));
  const cq::LaunchDescriptor back = cq::decode_descriptor(b);
  EXPECT_EQ(back.token, d.token);
  EXPECT_EQ(back.grid_y, d.grid_y);
  cq::CompletionEntry e;
  e.phase = 1 | (5u << cq::kCPL_QUEUE_LSB);
  e.seq = 0x11223344;
  e.ws_exited = 0xA1B2C3D4;
  uint8_t c[cq::kCPL_BYTES];
  cq::encode(e, c);
  EXPECT_EQ(c[124], 1);  // the phase word is the last one of the second line
  EXPECT_EQ(c[125], 5);
  EXPECT_EQ(c[24], 0x44);
  EXPECT_EQ(c[108], 0xD4);
  EXPECT_EQ(cq::decode_completion(c).queue(), 5u);
  EXPECT_EQ(cq::decode_completion(c).warp_state_cycles(6), 0xA1B2C3D4u);
  EXPECT_EQ(cq::decode_completion(c).warp_state_cycles(7), 0u);
}

TEST(RingFormats, PhaseFlipsEveryWrap) {
  for (uint32_t size : {1u, 4u, 64u}) {
    for (uint32_t i = 0; i < 5 * size; ++i) EXPECT_EQ(cq::expected_phase(i, size), (i / size) % 2 == 0);
  }
  EXPECT_EQ(cq::ring_count(0xFFFFFFFEu, 2u), 4u) << "free-running indices wrap";
  EXPECT_EQ(cq::ring_slot(0xFFFFFFFFu, 8), 7u);
}

TEST(RingFormats, NamesCoverEveryCode) {
  for (int i = 0; i <= int(cq::ErrorCode::INTERNAL); ++i) {
    EXPECT_STRNE(cq::error_code_name(cq::ErrorCode(i)), "ERR_UNKNOWN") << i;
    EXPECT_STRNE(cq::error_code_message(cq::ErrorCode(i)), "unknown error code") << i;
  }
  EXPECT_STREQ(cq::error_code_name(cq::ErrorCode(200)), "ERR_UNKNOWN");
  for (int i = 0; i <= int(cq::DescCheck::WINDOW_RANGE); ++i)
    EXPECT_STRNE(cq::desc_check_name(cq::DescCheck(i)), "DCHK_UNKNOWN") << i;
}

// ---- status codes ----------------------------------------------------------------------------
TEST(StatusCodes, EveryCodeHasNameMessageAndLayer) {
  std::set<std::string> seen;
  for (int i = 0; i <= int(drv::Status::CONTEXT_LOST); ++i) {
    const drv::Status s = drv::Status(i);
    EXPECT_TRUE(seen.insert(drv::status_name(s)).second) << drv::status_name(s);
    EXPECT_STRNE(drv::status_message(s), "unknown status");
    EXPECT_STRNE(drv::layer_name(drv::status_layer(s)), "UNKNOWN_LAYER");
  }
  EXPECT_EQ(drv::status_layer(drv::Status::INVALID_CONFIGURATION), drv::Layer::LAUNCH_CONFIG);
  EXPECT_EQ(drv::status_layer(drv::Status::NO_BINARY_FOR_DEVICE), drv::Layer::LOAD);
  EXPECT_EQ(drv::status_layer(drv::Status::ILLEGAL_ADDRESS), drv::Layer::EXECUTION);
  EXPECT_EQ(drv::status_layer(drv::Status::TIMEOUT), drv::Layer::TIMEOUT);
  EXPECT_EQ(drv::status_layer(drv::Status::CONTEXT_LOST), drv::Layer::CONTEXT_LOST);
  EXPECT_EQ(drv::status_layer(drv::Status::TRANSPORT_ERROR), drv::Layer::TRANSPORT);
  EXPECT_STREQ(drv::status_message(drv::Status::INVALID_CONFIGURATION), "invalid configuration argument");
  // Every device error code maps to an execution-layer (or its own) status.
  for (int i = 1; i <= int(cq::ErrorCode::INTERNAL); ++i) {
    const drv::Status s = drv::status_for_error(cq::ErrorCode(i));
    EXPECT_NE(s, drv::Status::OK) << i;
  }
  EXPECT_EQ(drv::status_for_error(cq::ErrorCode::OUT_OF_WINDOW), drv::Status::ILLEGAL_ADDRESS);
  EXPECT_EQ(drv::status_for_error(cq::ErrorCode::CONTEXT_LOST), drv::Status::CONTEXT_LOST);
}

TEST(StatusCodes, DriverDocNamesEveryCode) {
  const std::string doc = slurp(std::string(BARESM_SOURCE_DIR) + "/docs/driver.md");
  ASSERT_FALSE(doc.empty());
  for (int i = 0; i <= int(drv::Status::CONTEXT_LOST); ++i) {
    const std::string name = std::string("`") + drv::status_name(drv::Status(i)) + "`";
    EXPECT_NE(doc.find(name), std::string::npos) << name << " is not documented in docs/driver.md";
  }
}

// ---- scoreboard --------------------------------------------------------------------------------
cq::CompletionEntry entry(uint32_t q, uint32_t index, uint32_t cq_size, uint64_t token,
                          cq::CplStatus st = cq::CplStatus::COMPLETED) {
  cq::CompletionEntry e;
  e.token = token;
  e.seq = index;
  e.status = uint8_t(st);
  e.error = uint8_t(st == cq::CplStatus::FAILED ? cq::ErrorCode::TRAP : cq::ErrorCode::OK);
  e.start_cycle = index * 10;
  e.end_cycle = index * 10 + 5;
  e.phase = (cq::expected_phase(index, cq_size) ? 1u : 0u) | (q << cq::kCPL_QUEUE_LSB);
  return e;
}

TEST(Scoreboard, AcceptsACorrectStreamWithWraps) {
  cq::Scoreboard sb(2);
  sb.set_cq_size(1, 4);
  for (uint32_t i = 0; i < 20; ++i) sb.expect(1, i, cq::Expectation{100 + i});
  for (uint32_t i = 0; i < 20; ++i) sb.observe(1, i, entry(1, i, 4, 100 + i));
  EXPECT_TRUE(sb.ok()) << sb.report();
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_EQ(sb.observed(), 20u);
  EXPECT_EQ(sb.wraps(1), 4u);
}

// The counters of the entry's second line: the ones an expectation names must
// match; reserved words are 0; a bad descriptor counts nothing; warp states
// add up to whole SM cycles (every warp slot in one state each cycle).
TEST(Scoreboard, ChecksTheLaunchCounters) {
  auto run = [](const std::function<void(cq::CompletionEntry&)>& corrupt) {
    cq::Scoreboard sb(1);
    sb.set_cq_size(0, 4);
    cq::Expectation x{100, cq::CplStatus::COMPLETED};
    x.check_counters = true;
    x.counters = {50, 1200, 3, 4, 2};
    sb.expect(0, 0, x);
    cq::CompletionEntry e = entry(0, 0, 4, 100);
    e.warp_instrs = 50, e.thread_instrs = 1200, e.div_branches = 3, e.bar_releases = 4, e.ctas_done = 2;
    e.sm_cycles = 100;
    e.ws_idle = 100, e.ws_issued = 50, e.ws_ready = 50, e.ws_exited = 200;  // 4 warp slots
    corrupt(e);
    sb.observe(0, 0, e);
    return sb.ok();
  };
  EXPECT_TRUE(run([](cq::CompletionEntry&) {}));
  EXPECT_FALSE(run([](cq::CompletionEntry& e) { e.warp_instrs = 49; }));
  EXPECT_FALSE(run([](cq::CompletionEntry& e) { e.thread_instrs = 0; }));
  EXPECT_FALSE(run([](cq::CompletionEntry& e) { std::swap(e.div_branches, e.bar_releases); }));
  EXPECT_FALSE(run([](cq::CompletionEntry& e) { e.ctas_done = 1; }));
  EXPECT_FALSE(run([](cq::CompletionEntry& e) { e.reserved1 = 1; }));
  EXPECT_FALSE(run([](cq::CompletionEntry& e) { e.ws_wait_mem = 7; }));  // 407 warp-cycles in 100 cycles
  EXPECT_TRUE(run([](cq::CompletionEntry& e) { e.ws_idle = e.ws_ready = e.ws_issued = e.ws_exited = 0; }));
  // A bad descriptor ran nothing.
  cq::Scoreboard sb(1);
  sb.expect(0, 0, cq::Expectation{7, cq::CplStatus::FAILED});
  cq::CompletionEntry bad = entry(0, 0, 4, 7);
  bad.status = uint8_t(cq::CplStatus::FAILED);
  bad.error = uint8_t(cq::ErrorCode::BAD_DESCRIPTOR);
  bad.thread_instrs = 1;
  sb.observe(0, 0, bad);
  EXPECT_FALSE(sb.ok());
}

TEST(Scoreboard, CatchesEveryKindOfBrokenDevice) {
  auto fresh = [] {
    auto sb = std::make_unique<cq::Scoreboard>(2);
    sb->set_cq_size(0, 4);
    for (uint32_t i = 0; i < 6; ++i) sb->expect(0, i, cq::Expectation{100 + i, cq::CplStatus::COMPLETED});
    return sb;
  };
  {  // a lost entry: index 1 never comes, 2 shows up at index 1
    auto sb = fresh();
    sb->observe(0, 0, entry(0, 0, 4, 100));
    sb->observe(0, 1, entry(0, 2, 4, 102));
    EXPECT_FALSE(sb->ok());
  }
  {  // a duplicate entry
    auto sb = fresh();
    sb->observe(0, 0, entry(0, 0, 4, 100));
    sb->observe(0, 0, entry(0, 0, 4, 100));
    EXPECT_FALSE(sb->ok());
  }
  {  // wrong token
    auto sb = fresh();
    sb->observe(0, 0, entry(0, 0, 4, 999));
    EXPECT_FALSE(sb->ok());
  }
  {  // wrong status
    auto sb = fresh();
    sb->observe(0, 0, entry(0, 0, 4, 100, cq::CplStatus::FAILED));
    EXPECT_FALSE(sb->ok());
  }
  {  // stale phase after a wrap
    auto sb = fresh();
    for (uint32_t i = 0; i < 4; ++i) sb->observe(0, i, entry(0, i, 4, 100 + i));
    cq::CompletionEntry e = entry(0, 4, 4, 104);
    e.phase ^= 1;
    sb->observe(0, 4, e);
    EXPECT_FALSE(sb->ok());
  }
  {  // an entry nobody submitted
    cq::Scoreboard sb(2);
    sb.observe(1, 0, entry(1, 0, 4, 1));
    EXPECT_FALSE(sb.ok());
  }
  {  // the device must never write CONTEXT_LOST, and completed means OK
    auto sb = fresh();
    cq::CompletionEntry e = entry(0, 0, 4, 100);
    e.error = uint8_t(cq::ErrorCode::CONTEXT_LOST);
    sb->observe(0, 0, e);
    EXPECT_FALSE(sb->ok());
  }
  {  // status 0 (pending) in a "valid" entry
    auto sb = fresh();
    cq::CompletionEntry e = entry(0, 0, 4, 100);
    e.status = 0;
    sb->observe(0, 0, e);
    EXPECT_FALSE(sb->ok());
  }
  {  // end before start, and time going backwards
    auto sb = fresh();
    cq::CompletionEntry e = entry(0, 0, 4, 100);
    e.start_cycle = 50;
    e.end_cycle = 49;
    sb->observe(0, 0, e);
    EXPECT_FALSE(sb->ok());
  }
  {  // entry claims another queue
    auto sb = fresh();
    sb->observe(0, 0, entry(1, 0, 4, 100));
    EXPECT_FALSE(sb->ok());
  }
  {  // loss detected at the end: outstanding work
    auto sb = fresh();
    for (uint32_t i = 0; i < 5; ++i) sb->observe(0, i, entry(0, i, 4, 100 + i));
    EXPECT_TRUE(sb->ok()) << sb->report();
    EXPECT_EQ(sb->outstanding(), 1u);
    EXPECT_EQ(sb->reset(), 1u);
    EXPECT_EQ(sb->dropped(), 1u);
  }
}

// ---- allocator -------------------------------------------------------------------------------------
TEST(Allocator, FirstFitBothEndsAndReuse) {
  drv::Allocator a;
  a.init(256, 64 * 1024, 256);
  uint32_t p1, p2, p3, top;
  ASSERT_TRUE(a.alloc(100, 1, 0, false, &p1));
  ASSERT_TRUE(a.alloc(300, 1, 0, false, &p2));
  ASSERT_TRUE(a.alloc(10, 1, 0, false, &p3));
  EXPECT_EQ(p1, 256u);
  EXPECT_EQ(p2, 512u);
  EXPECT_EQ(p3, 1024u);
  ASSERT_TRUE(a.alloc(1000, 9, 1, true, &top));
  EXPECT_EQ(top, 256u + 64 * 1024 - 1024);
  EXPECT_EQ(a.find(p1, 100)->owner, 1);
  EXPECT_EQ(a.find(p1, 101), nullptr) << "past the requested size";
  EXPECT_TRUE(a.free(p2));
  EXPECT_FALSE(a.free(p2));
  EXPECT_FALSE(a.free(p1 + 4));
  uint32_t p4;
  ASSERT_TRUE(a.alloc(200, 2, 0, false, &p4));
  EXPECT_EQ(p4, p2) << "first fit reuses the freed gap";
  uint32_t p5;
  ASSERT_TRUE(a.alloc(300, 2, 0, false, &p5));
  EXPECT_EQ(p5, 1280u) << "too big for the 256-byte hole left at 768";
  EXPECT_EQ(a.free_bytes(), 64u * 1024 - 256 - 256 - 256 - 512 - 1024);
  uint32_t big;
  EXPECT_FALSE(a.alloc(64 * 1024, 3, 0, false, &big));
  EXPECT_FALSE(a.alloc(0, 3, 0, false, &big));
}

// The block table has no fixed size: tests/driver/test_driver_alloc.cpp.

}  // namespace
