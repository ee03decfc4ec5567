// The PTX front end (isa/ptx.h, docs/ptx.md), run on the functional model:
//  - the feature suite: small hand-written PTX files in tests/ptx/, one
//    feature each; every output word is compared with a C++ expectation of
//    what the PTX means;
//  - the CUDA samples from their nvcc PTX through the same host code and
//    references as their assembly twins.
// (Translation alone, diagnostics and allocation: test_ptx.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>

#include "isa/fp32.h"
#include "isa/ptx.h"
#include "isa/rng.h"
#include "host_driver/devices.h"
#include "samples/samples.h"

using namespace baresm;
using namespace baresm::samples;

namespace {

// The functional device model, opened by the driver.
std::unique_ptr<baresm::drv::OpenDevice> model_device(const cq::ModelDeviceConfig& cfg = {}) {
  std::string error;
  auto d = baresm::drv::open_model_device(cfg, &error);
  EXPECT_TRUE(d) << error;
  return d;
}

std::string feature_path(const std::string& name) {
  return std::string(BARESM_SOURCE_DIR) + "/tests/ptx/" + name + ".ptx";
}


// A device address as an 8-byte parameter (CUDA's CUdeviceptr).
drv::LaunchArg ptr_arg(const drv::DevPtr& p, uint64_t* storage) {
  *storage = p;
  return drv::LaunchArg{storage, 8};
}

// Launches `kernel` through the driver, waits for it and returns its report
// with the fault read from it (drv::fault_info).
drv::LaunchReport launch_and_wait(drv::Device& dev, drv::Context ctx, drv::Module m, const char* kernel,
                                  const drv::LaunchConfig& cfg, const std::vector<drv::LaunchArg>& args,
                                  iss::FaultInfo* fault) {
  drv::LaunchReport rep;
  drv::Function fn;
  EXPECT_EQ(dev.module_get_function(m, kernel, &fn), drv::Status::OK) << dev.last_error().detail;
  uint64_t token = 0;
  EXPECT_EQ(dev.launch(fn, cfg, args.data(), uint32_t(args.size()), &token), drv::Status::OK)
      << dev.last_error().detail;
  dev.ctx_synchronize(ctx);
  EXPECT_EQ(dev.launch_result(token, &rep), drv::Status::OK) << dev.last_error().detail;
  EXPECT_TRUE(drv::fault_info(rep, fault)) << cq::error_code_name(rep.error);
  return rep;
}

struct FeatureRun {
  isa::PtxResult ptx;
  drv::LaunchReport report;
  iss::FaultInfo fault;
  std::vector<uint32_t> out;
};

// Translates tests/ptx/NAME.ptx, launches kernel NAME with (in, out) on the
// model and returns out. Fails the test on any error.
FeatureRun run_feature(const std::string& name, drv::Dim3 grid, drv::Dim3 block,
                       const std::vector<uint32_t>& in, const std::vector<uint32_t>& out_init,
                       const cq::ModelDeviceConfig& model = {}, bool expect_ok = true) {
  FeatureRun r;
  r.ptx = isa::translate_ptx_file(feature_path(name));
  EXPECT_TRUE(r.ptx.ok()) << r.ptx.format_errors();
  if (!r.ptx.ok()) return r;
  auto d = model_device(model);
  drv::Device& dev = d->device;
  drv::Context ctx;
  EXPECT_EQ(dev.ctx_create(&ctx), drv::Status::OK);
  const std::vector<uint8_t> image = isa::write_module(r.ptx.module);
  drv::Module m;
  EXPECT_EQ(dev.module_load_data(ctx, image.data(), image.size(), &m), drv::Status::OK) << dev.last_error().detail;
  const uint32_t in_bytes = uint32_t(std::max<size_t>(in.size(), 1) * 4), out_bytes = uint32_t(out_init.size() * 4);
  drv::DevPtr bin = 0, bout = 0;
  EXPECT_EQ(dev.mem_alloc(ctx, in_bytes, &bin), drv::Status::OK);
  EXPECT_EQ(dev.mem_alloc(ctx, out_bytes, &bout), drv::Status::OK);
  if (!in.empty()) {
    EXPECT_EQ(dev.memcpy_htod(ctx, bin, in.data(), uint32_t(in.size() * 4)), drv::Status::OK);
  }
  EXPECT_EQ(dev.memcpy_htod(ctx, bout, out_init.data(), out_bytes), drv::Status::OK);
  uint64_t pin = 0, pout = 0;
  const drv::Window wins[] = {{bin, in_bytes}, {bout, out_bytes}};
  drv::LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  cfg.windows = wins;
  cfg.num_windows = 2;
  r.report = launch_and_wait(dev, ctx, m, name.c_str(), cfg, {ptr_arg(bin, &pin), ptr_arg(bout, &pout)}, &r.fault);
  if (expect_ok) EXPECT_TRUE(r.fault.ok()) << r.fault.describe();
  r.out.resize(out_init.size());
  EXPECT_EQ(dev.memcpy_dtoh(ctx, r.out.data(), bout, out_bytes), drv::Status::OK);
  return r;
}

// x = in[0..32), y = in[32..64): edge values first, then seeded random words;
// y's first lanes are small (shift amounts around 32).
std::vector<uint32_t> int_inputs() {
  std::vector<uint32_t> v = {0,    1,    0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 2,   0x80,
                             0xFF, 0x7F, 0x8000,     0xFFFF,     0x12345678, 100, 0xFFFFFF80};
  SplitMix64 rng(11);
  while (v.size() < 32) v.push_back(rng.u32());
  const uint32_t ys[] = {0, 1, 31, 32, 33, 63, 64, 5, 0xFFFFFFFF, 0x80000000, 1000, 0x7FFFFFFF, 7, 8};
  for (uint32_t y : ys) v.push_back(y);
  while (v.size() < 64) v.push_back(rng.u32());
  return v;
}

using RowFn = std::function<std::vector<uint32_t>(uint32_t x, uint32_t y, uint32_t tid)>;

// Runs a 32-thread feature whose thread t writes out[t*K .. t*K+K) and checks
// each word against expect(x, y, t).
void check_rows(const std::string& name, size_t k, const std::vector<uint32_t>& in, const RowFn& expect) {
  const FeatureRun r =
      run_feature(name, {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(32 * k, 0xCCCCCCCCu));
  if (r.out.empty()) return;
  for (uint32_t t = 0; t < 32; ++t) {
    const std::vector<uint32_t> want = expect(in[t], in[32 + t], t);
    ASSERT_EQ(want.size(), k);
    for (size_t j = 0; j < k; ++j)
      EXPECT_EQ(r.out[t * k + j], want[j]) << name << ": thread " << t << " word " << j << " (x = 0x"
                                           << std::hex << in[t] << ", y = 0x" << in[32 + t] << ")";
  }
}

int32_t s(uint32_t v) {
  return int32_t(v);
}

}  // namespace

// ---- the feature suite -----------------------------------------------------------------
TEST(PtxFeature, IntArith) {
  check_rows("int_arith", 12, int_inputs(), [](uint32_t x, uint32_t y, uint32_t t) -> std::vector<uint32_t> {
    const uint32_t lo = x * y;
    const uint32_t hi_s = uint32_t((int64_t(s(x)) * int64_t(s(y))) >> 32);
    const uint32_t hi_u = uint32_t((uint64_t(x) * uint64_t(y)) >> 32);
    const uint32_t last = (5 + (7 - x)) * uint32_t(-3) + 1000;
    return {x + y,
            x - y,
            lo,
            hi_s,
            hi_u,
            lo + t,
            hi_u + t,
            uint32_t(std::min(s(x), s(y))),
            std::max(x, y),
            s(x) == INT_MIN ? x : uint32_t(std::abs(s(x))),
            0u - x,
            last};
  });
}

TEST(PtxFeature, LogicShift) {
  check_rows("logic_shift", 10, int_inputs(), [](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    const uint32_t n = y & 63;  // PTX clamps shift amounts: 32 and more shift everything out
    const uint32_t shl = n >= 32 ? 0 : x << n, shr = n >= 32 ? 0 : x >> n;
    const uint32_t sra = n >= 32 ? (s(x) < 0 ? 0xFFFFFFFF : 0) : uint32_t(s(x) >> n);
    uint32_t clz = 0;
    while (clz < 32 && !((x << clz) & 0x80000000u)) ++clz;
    return {x & y, x | y,        x ^ 0x5a5a5a5a, ~x, shl, shr, sra, uint32_t(__builtin_popcount(x)),
            clz,   (x << 3) >> 1};
  });
}

TEST(PtxFeature, SetpSelp) {
  check_rows("setp_selp", 21, int_inputs(), [](uint32_t x, uint32_t y, uint32_t t) -> std::vector<uint32_t> {
    const int32_t a = s(x), b = s(y);
    const bool q = t != 0;
    const bool lt = a < b;
    return {a == b,
            a != b,
            a<b, a <= b, a>
                b,
            a >= b,
            x<y, x <= y, x>
                y,
            x >= y,
            x<y, x <= y, x>
                y,
            x >= y,
            lt && q,
            x > 1000u || !q,
            (x == y) != q,
            lt,
            !lt,
            q ? x : y,
            !lt ? x : 77u};
  });
}

TEST(PtxFeature, PredLogic) {
  check_rows("pred_logic", 8, int_inputs(), [](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    const bool a = s(x) < s(y), b = (x & 1) != 0;
    const bool n = !a;  // p3 after not.pred
    uint32_t r6 = 100;
    if (a) r6 += 1;
    if (!b) r6 += 10;
    return {a && b, a || b, a != b, n, b, r6, n ? x : 5u, a ? y : 0xCCCCCCCCu};
  });
}

TEST(PtxFeature, Cvt) {
  std::vector<uint32_t> in = int_inputs();
  const float ys[] = {1.5f,       -1.5f,          3e9f,          -3e9f,         NAN,   INFINITY,
                      -INFINITY,  0.99f,          2147483648.0f, 4294967296.0f, -0.5f, 1e-40f,
                      123456.78f, -2147483648.0f, 16777217.0f,   0.0f};
  for (size_t i = 0; i < 16; ++i) in[32 + i] = fp32::bits(ys[i]);
  check_rows("cvt", 12, in, [](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    const float f = fp32::from_bits(y);
    auto f2i = [](float v) -> uint32_t {  // round toward zero, saturating, NaN -> 0
      if (std::isnan(v)) return 0;
      if (v >= 2147483648.0f) return 0x7FFFFFFF;
      if (v <= -2147483648.0f) return 0x80000000;
      return uint32_t(int32_t(v));
    };
    auto f2u = [](float v) -> uint32_t {
      if (std::isnan(v) || v <= 0.0f) return 0;
      if (v >= 4294967296.0f) return 0xFFFFFFFF;
      return uint32_t(v);
    };
    return {x & 0xFF,        uint32_t(int32_t(int8_t(x))),
            x & 0xFFFF,      uint32_t(int32_t(int16_t(x))),
            x & 0xFF,        uint32_t(int32_t(int16_t(x))),
            x + y,           fp32::bits(float(s(x))),
            fp32::bits(float(x)), f2i(f),
            f2u(f),          f2i(f)};
  });
}

TEST(PtxFeature, F32) {
  std::vector<uint32_t> in(64);
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-40f, 3.4e38f, 1.0f, -1.0f};
  SplitMix64 rng(5);
  for (size_t i = 0; i < 64; ++i) in[i] = fp32::bits(float(int32_t(rng.u32() >> 8) - (1 << 23)) / float(1 << 16));
  for (size_t i = 0; i < 10; ++i) {
    in[i] = fp32::bits(specials[i]);
    in[32 + 9 - i] = fp32::bits(specials[i]);
  }
  check_rows("f32", 11, in, [](uint32_t xa, uint32_t xb, uint32_t) -> std::vector<uint32_t> {
    const float a = fp32::from_bits(xa), b = fp32::from_bits(xb);
    // FMIN/FMAX: a NaN operand yields the other one; -0 < +0.
    auto fmin = [](float p, float q) {
      if (std::isnan(p)) return q;
      if (std::isnan(q)) return p;
      if (p == q) return std::signbit(p) ? p : q;
      return p < q ? p : q;
    };
    auto fmax = [](float p, float q) {
      if (std::isnan(p)) return q;
      if (std::isnan(q)) return p;
      if (p == q) return std::signbit(p) ? q : p;
      return p > q ? p : q;
    };
    volatile float va = a, vb = b;  // keep the host from folding or fusing anything
    return {fp32::canonical(va + vb),
            fp32::canonical(va - vb),
            fp32::canonical(va * vb),
            fp32::canonical(std::fma(a, b, a)),
            fp32::canonical(va * 1.5f),
            fp32::canonical(fmin(a, b)),
            fp32::canonical(fmax(a, b)),
            xa ^ 0x80000000u,
            xb & 0x7FFFFFFFu,
            fp32::canonical(2.0f + vb),
            fp32::canonical(std::fma(b, b, -1.0f))};
  });
}

TEST(PtxFeature, SixteenBitRegisters) {
  check_rows("b16", 24, int_inputs(), [](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    const uint32_t a = x & 0xFFFF, b = y & 0xFFFF, c = y >> 16;
    const int32_t sa = int16_t(a), sc = int16_t(c);
    const uint32_t n = y & 31;
    const uint32_t shr_s = n >= 16 ? (sa < 0 ? 0xFFFF : 0) : uint32_t(sa >> n) & 0xFFFF;
    const bool lt_s = sa < sc;
    return {a,
            uint32_t(int16_t(int8_t(x >> 8))) & 0xFFFF,
            c,
            (a + b) & 0xFFFF,
            (a - b) & 0xFFFF,
            (a * b) & 0xFFFF,
            a * b,
            uint32_t(sa * sc),
            ((a & b) ^ (a | 0xF0)) & 0xFFFF,
            ~a & 0xFFFF,
            (a << 3) & 0xFFFF,
            n >= 16 ? 0 : a >> n,
            shr_s,
            lt_s,
            a < b,
            a == 0x1234,
            lt_s ? a : 0xBEEFu,
            uint32_t(std::min(sa, sc)) & 0xFFFF,
            std::max(a, b),
            uint32_t(sa),
            y & 0xFFFF,
            uint32_t(int16_t(int8_t(a))) & 0xFFFF,
            ((a + b) & 0xFFFF) | (a << 16),
            0xFFFF};
  });
}

TEST(PtxFeature, WarpShuffleAndVote) {
  const std::vector<uint32_t> in = int_inputs();
  const FeatureRun r = run_feature("warp", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(320, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 320u);
  uint32_t ballot = 0;
  for (uint32_t t = 0; t < 28; ++t) ballot |= (in[t] & 1) << t;
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t b8 = t & ~7u;
    const uint32_t want[6] = {in[t + 5 < 32 ? t + 5 : t],
                              in[t + 3 < b8 + 8 ? t + 3 : t],
                              in[t >= b8 + 3 ? t - 3 : t],
                              in[t ^ 2],
                              in[t ^ 3],
                              in[b8 + ((t * 7) & 7)]};
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(r.out[t * 10 + size_t(j)], want[j]) << "thread " << t << " shuffle " << j;
    if (t >= 28) {
      for (int j = 6; j < 10; ++j)
        EXPECT_EQ(r.out[t * 10 + size_t(j)], 0xCCCCCCCCu) << "lane " << t << " left";
      continue;
    }
    EXPECT_EQ(r.out[t * 10 + 6], ballot) << t;
    EXPECT_EQ(r.out[t * 10 + 7], (ballot ? 1u : 0u) | 2u) << t;
    EXPECT_EQ(r.out[t * 10 + 8], 0u) << t;
    EXPECT_EQ(r.out[t * 10 + 9], 0x0FFFFFFFu) << "activemask, thread " << t;
  }
}

TEST(PtxFeature, DivRem) {
  std::vector<uint32_t> in = int_inputs();
  in[32 + 1] = 0;           // 1 / 0
  in[32 + 3] = 0xFFFFFFFF;  // INT_MIN / -1
  in[32 + 6] = 0x80000000;  // 0x80 / INT_MIN
  in[32 + 9] = 0xFFFFFFF9;  // 0x8000 / -7
  // x / 0: 0xffffffff, x % 0: x (PTX leaves them unspecified; docs/ptx.md).
  auto udiv = [](uint32_t a, uint32_t b) { return b ? a / b : 0xFFFFFFFFu; };
  auto urem = [](uint32_t a, uint32_t b) { return b ? a % b : a; };
  auto sdiv = [&](uint32_t a, uint32_t b) {
    const uint32_t ma = s(a) < 0 ? 0u - a : a, mb = s(b) < 0 ? 0u - b : b;
    const uint32_t q = udiv(ma, mb);
    return (s(a ^ b) < 0) ? 0u - q : q;
  };
  auto srem = [&](uint32_t a, uint32_t b) {
    const uint32_t ma = s(a) < 0 ? 0u - a : a, mb = s(b) < 0 ? 0u - b : b;
    const uint32_t r = urem(ma, mb);
    return s(a) < 0 ? 0u - r : r;
  };
  // Where C++ defines them, the signed results are C++'s.
  for (uint32_t t = 0; t < 32; ++t) {
    const int32_t a = s(in[t]), b = s(in[32 + t]);
    if (b != 0 && !(a == INT_MIN && b == -1)) {
      ASSERT_EQ(sdiv(uint32_t(a), uint32_t(b)), uint32_t(a / b)) << t;
      ASSERT_EQ(srem(uint32_t(a), uint32_t(b)), uint32_t(a % b)) << t;
    }
  }
  check_rows("divrem", 7, in, [&](uint32_t x, uint32_t y, uint32_t t) -> std::vector<uint32_t> {
    return {udiv(x, y),
            urem(x, y),
            sdiv(x, y),
            srem(x, y),
            x / 7,
            uint32_t(s(x) % -3),
            (t & 1) ? sdiv(y, x) : 5u};
  });
}

TEST(PtxFeature, PredicatesBeyondP6) {
  const std::vector<uint32_t> in = int_inputs();
  const FeatureRun r = run_feature("pred_pressure", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(64, 0));
  ASSERT_EQ(r.out.size(), 64u);
  ASSERT_EQ(r.ptx.kernels.size(), 1u);
  EXPECT_GE(r.ptx.kernels[0].preds_in_regs, 4) << "11 predicates live, 7 fit";
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t x = in[t];
    const bool p9 = (t & 1) == 0 ? t == 2 : ((x >> 9) & 1) != 0;
    const uint32_t want = (x & 0x1FF) + (p9 ? 0x200 : 0) + ((x & 1) ? 1000 : 0);
    EXPECT_EQ(r.out[t], want) << "thread " << t;
    EXPECT_EQ(r.out[32 + t], p9 ? 1u : 0u) << "thread " << t;
  }
}

TEST(PtxFeature, ComputedSpecialRegisters) {
  const FeatureRun r =
      run_feature("sregs", {1, 1, 1}, {64, 1, 1}, {}, std::vector<uint32_t>(64 * 8, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 512u);
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t l = t % 32, eq = 1u << l, lt = eq - 1, le = l == 31 ? 0xFFFFFFFFu : (eq << 1) - 1;
    const uint32_t want[8] = {eq, lt, le, ~le, ~lt, (t / 32) * 100 + l, 1, 0};
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(r.out[t * 8 + size_t(j)], want[j]) << "thread " << t << " word " << j;
  }
}

TEST(PtxFeature, BitFields) {
  check_rows("bitfield", 6, int_inputs(), [](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    auto ins = [](uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
      const uint32_t mask = ((1u << len) - 1) << pos;
      return (b & ~mask) | ((a << pos) & mask);
    };
    return {(x >> 8) & 0xFF, uint32_t(int32_t(x << 16) >> 20), x >> 20, x, ins(y, x, 8, 8), ins(y, x, 28, 4)};
  });
}

TEST(PtxFeature, VectorLoadsAndStores) {
  std::vector<uint32_t> in = int_inputs();
  const std::vector<uint32_t> more = int_inputs();
  in.insert(in.end(), more.begin(), more.end());  // 128 words: a uint4 per thread
  for (size_t i = 64; i < 128; ++i) in[i] ^= 0x5A5A0000u + uint32_t(i);
  const FeatureRun r =
      run_feature("vector", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(256, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 256u);
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t* x = &in[4 * t];
    const uint32_t want[8] = {x[3], x[2], x[1], x[0], x[2], x[2], 7, x[0]};
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(r.out[t * 8 + size_t(j)], want[j]) << "thread " << t << " word " << j;
  }
}

TEST(PtxFeature, PackAndUnpack) {
  check_rows("pack", 4, int_inputs(), [](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    return {(x << 16) | (x >> 16), x >> 16, y & 0xFFFF, x};
  });
}

TEST(PtxFeature, Addr64) {
  const std::vector<uint32_t> in = int_inputs();
  check_rows("addr64", 6, in, [&](uint32_t x, uint32_t, uint32_t t) -> std::vector<uint32_t> {
    return {x, x, x, in[31 - t], 128 - 4 * t, (t & 1) ? in[32 - t] : x};
  });
}

TEST(PtxFeature, LoadStoreWidths) {
  const std::vector<uint32_t> in = int_inputs();
  const FeatureRun r =
      run_feature("ldst_widths", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(32 * 6 + 32, 0));
  ASSERT_EQ(r.out.size(), 32u * 7);
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t w = in[t];
    const uint32_t want[6] = {
        (w >> 8) & 0xFF, uint32_t(int32_t(int8_t(w >> 24))), w >> 16, uint32_t(int32_t(int16_t(w))), w,
        in[32 + t]};
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(r.out[t * 6 + size_t(j)], want[j]) << "thread " << t << " word " << j;
    EXPECT_EQ(r.out[192 + t], (w & 0xFFFF) | (t << 16)) << "thread " << t << ": st.u8 x2 + st.u16";
  }
}

TEST(PtxFeature, Shared) {
  std::vector<uint32_t> in = int_inputs();
  const FeatureRun r = run_feature("shared", {1, 1, 1}, {64, 1, 1}, in, std::vector<uint32_t>(64 * 4, 0));
  ASSERT_EQ(r.out.size(), 256u);
  EXPECT_EQ(r.ptx.module.kernels[0].shared_bytes, 16u + 256u) << "b aligned to 16 after the 12 bytes of a";
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t other = in[63 - t];
    EXPECT_EQ(r.out[t * 4], other) << t;
    EXPECT_EQ(r.out[t * 4 + 1], (other >> 8) & 0xFF) << t;
    EXPECT_EQ(r.out[t * 4 + 2], 16u) << t;
    EXPECT_EQ(r.out[t * 4 + 3], in[0] + in[1]) << t;
  }
}

TEST(PtxFeature, Atomics) {
  const std::vector<uint32_t> in = int_inputs();
  std::vector<uint32_t> init(104, 0);
  init[1] = 0x7FFFFFFF;
  init[3] = 0xFFFFFFFF;
  for (uint32_t t = 0; t < 32; ++t) init[72 + t] = 1000 + t;
  const FeatureRun r = run_feature("atomics", {1, 1, 1}, {32, 1, 1}, in, init);
  ASSERT_EQ(r.out.size(), 104u);
  int32_t mn = INT_MAX;
  uint32_t mx = 0, an = 0xFFFFFFFF, o = 0, xo = 0, sum = 0;
  for (uint32_t t = 0; t < 32; ++t) {
    mn = std::min(mn, s(in[t]));
    mx = std::max(mx, in[t]);
    an &= in[t];
    o |= in[t];
    xo ^= in[t];
    sum += in[t];
  }
  EXPECT_EQ(r.out[0], 32u);
  EXPECT_EQ(r.out[1], uint32_t(mn));
  EXPECT_EQ(r.out[2], mx);
  EXPECT_EQ(r.out[3], an);
  EXPECT_EQ(r.out[4], o);
  EXPECT_EQ(r.out[5], xo);
  EXPECT_EQ(r.out[6], 496u);
  EXPECT_EQ(r.out[7], sum);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(r.out[8 + t], 1000 + t) << "exch old, thread " << t;
    EXPECT_EQ(r.out[40 + t], in[t]) << "cas old, thread " << t;
    const uint32_t cmp = (t & 1) ? 99 : in[t];
    EXPECT_EQ(r.out[72 + t], cmp == in[t] ? t : in[t]) << "slot, thread " << t;
  }
}

TEST(PtxFeature, Branches) {
  const std::vector<uint32_t> in = int_inputs();
  const FeatureRun r =
      run_feature("branches", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(32, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t want = 0xCCCCCCCC;
    if (t < 30) {
      uint32_t v = 0;
      for (uint32_t k = 0; k <= (in[t] & 7); ++k) v += k * t + 1;
      want = (t & 1) ? v ^ 0xFF : v + 3;
    }
    EXPECT_EQ(r.out[t], want) << "thread " << t;
  }
  EXPECT_GT(r.report.stats.div_branches, 0u);
}

TEST(PtxFeature, ParamsAtCudaOffsets) {
  const isa::PtxResult p = isa::translate_ptx_file(feature_path("params"));
  ASSERT_TRUE(p.ok()) << p.format_errors();
  const isa::KernelInfo& k = p.module.kernels.at(0);
  ASSERT_EQ(k.params.size(), 6u);
  const uint32_t offsets[] = {0, 8, 16, 20, 24, 36}, sizes[] = {4, 8, 4, 1, 12, 2};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(k.params[i].offset, offsets[i]) << k.params[i].name;
    EXPECT_EQ(k.params[i].size, sizes[i]) << k.params[i].name;
  }
  EXPECT_EQ(k.param_bytes, 40u);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].param_bytes, 40u);

  // Each argument as its own bytes, as cuLaunchKernel takes them: the
  // driver's packer (Device::launch) places them at CUDA's offsets.
  auto d = model_device();
  drv::Device& dev = d->device;
  drv::Context ctx;
  ASSERT_EQ(dev.ctx_create(&ctx), drv::Status::OK);
  const std::vector<uint8_t> image = isa::write_module(p.module);
  drv::Module m;
  ASSERT_EQ(dev.module_load_data(ctx, image.data(), image.size(), &m), drv::Status::OK) << dev.last_error().detail;
  drv::DevPtr out = 0;
  ASSERT_EQ(dev.mem_alloc(ctx, 64, &out), drv::Status::OK);
  const uint32_t a = 0xA1B2C3D4;
  const uint64_t ptr = out;
  const float f = -2.75f;
  const uint8_t b = 0x9C;
  const uint8_t sbytes[12] = {1, 2, 3, 4, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
  const uint16_t hv = 0xBEEF;
  const std::vector<drv::LaunchArg> args = {{&a, 4}, {&ptr, 8}, {&f, 4}, {&b, 1}, {sbytes, 12}, {&hv, 2}};
  const drv::Window win{out, 64};
  drv::LaunchConfig cfg;
  cfg.windows = &win;
  cfg.num_windows = 1;
  drv::Function fn;
  ASSERT_EQ(dev.module_get_function(m, "params", &fn), drv::Status::OK);
  // The packer refuses a wrong count and a wrong size, naming the parameter.
  EXPECT_EQ(dev.launch(fn, cfg, args.data(), 5), drv::Status::INVALID_VALUE);
  EXPECT_NE(std::string(dev.last_error().detail).find("takes 6 parameters, 5 given"), std::string::npos)
      << dev.last_error().detail;
  std::vector<drv::LaunchArg> narrow = args;
  narrow[1].size = 4;
  EXPECT_EQ(dev.launch(fn, cfg, narrow.data(), 6), drv::Status::INVALID_VALUE);
  EXPECT_NE(std::string(dev.last_error().detail).find("parameter 1 of params is 8 bytes"), std::string::npos)
      << dev.last_error().detail;
  iss::FaultInfo fault;
  launch_and_wait(dev, ctx, m, "params", cfg, args, &fault);
  ASSERT_TRUE(fault.ok()) << fault.describe();
  uint32_t got[6];
  ASSERT_EQ(dev.memcpy_dtoh(ctx, got, out, 24), drv::Status::OK);
  EXPECT_EQ(got[0], a);
  EXPECT_EQ(got[1], fp32::bits(f));
  EXPECT_EQ(got[2], b);
  EXPECT_EQ(got[3], 0x44332211u);
  EXPECT_EQ(got[4], 0x6655u);
  EXPECT_EQ(got[5], hv);
}

TEST(PtxFeature, SyntaxOfNvccOutput) {
  const isa::PtxResult p = isa::translate_ptx_file(feature_path("syntax"));
  ASSERT_TRUE(p.ok()) << p.format_errors();
  auto d = model_device();
  drv::Device& dev = d->device;
  drv::Context ctx;
  ASSERT_EQ(dev.ctx_create(&ctx), drv::Status::OK);
  const std::vector<uint8_t> image = isa::write_module(p.module);
  drv::Module m;
  ASSERT_EQ(dev.module_load_data(ctx, image.data(), image.size(), &m), drv::Status::OK);
  drv::DevPtr out = 0;
  ASSERT_EQ(dev.mem_alloc(ctx, 16 * 4, &out), drv::Status::OK);
  ASSERT_EQ(p.module.kernels[0].param_bytes, 8u) << "one pointer: 8 bytes, as CUDA passes it";
  uint64_t pout = 0;
  const drv::Window win{out, 16 * 4};
  drv::LaunchConfig cfg;
  cfg.grid = {2, 1, 1};
  cfg.block = {4, 2, 1};
  cfg.windows = &win;
  cfg.num_windows = 1;
  iss::FaultInfo fault;
  launch_and_wait(dev, ctx, m, "syntax", cfg, {ptr_arg(out, &pout)}, &fault);
  ASSERT_TRUE(fault.ok()) << fault.describe();
  uint32_t got[16];
  ASSERT_EQ(dev.memcpy_dtoh(ctx, got, out, sizeof got), drv::Status::OK);
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t ty = 0; ty < 2; ++ty)
      for (uint32_t tx = 0; tx < 4; ++tx)
        EXPECT_EQ(got[c * 8 + ty * 4 + tx], tx + 10 * ty + 400 + 2000 + 10000 * c + 200000);
  // The line table points at the PTX: the first instruction is the mov of line 21.
  ASSERT_FALSE(p.module.lines.empty());
  EXPECT_EQ(p.module.lines[0].line, 21u);
  EXPECT_EQ(p.module.lines[0].column, 2u);
}

// ---- the CUDA samples from nvcc's PTX --------------------------------------------------------
namespace {
std::vector<std::string> cuda_samples() {
  std::vector<std::string> v;
  for (const auto& s : all_samples())
    if (!s.cuda_file.empty()) v.push_back(s.name);
  for (const auto& s : cuda_only_samples()) v.push_back(s.name);
  return v;
}
}  // namespace

class CudaSample : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaSample, MatchesReferenceOnModel) {
  const Sample* s = find_sample(GetParam());
  ASSERT_NE(s, nullptr);
  for (uint64_t seed : {1ull, 777ull}) {
    RunOptions o;
    o.kernels_dir = BARESM_SOURCE_DIR "/kernels";
    o.seed = seed;
    o.source = KernelSource::CUDA;
    auto d = model_device();
    const SampleResult r = run_sample(*s, d->device, o);
    EXPECT_TRUE(r.passed) << "seed " << seed << ": " << r.message;
    EXPECT_FALSE(r.faulted) << r.fault_report;
    EXPECT_GE(r.launches.size(), 3u);
  }
}

INSTANTIATE_TEST_SUITE_P(All, CudaSample, ::testing::ValuesIn(cuda_samples()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(CudaSamples, CudaOnlySampleNeedsSourceCuda) {
  const Sample* s = find_sample("warp_stats");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->kernel_file.empty());
  RunOptions o;
  o.kernels_dir = BARESM_SOURCE_DIR "/kernels";
  auto d = model_device();
  const SampleResult r = run_sample(*s, d->device, o);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("exists only in CUDA"), std::string::npos) << r.message;
}

TEST(CudaSamples, EveryNormalSampleHasATwin) {
  const std::vector<std::string> v = cuda_samples();
  for (const auto& s : all_samples())
    if (!s.is_fault) {
      EXPECT_NE(std::find(v.begin(), v.end(), s.name), v.end()) << s.name;
    }
}

TEST(CudaSamples, SampleWithoutTwinFailsClearly) {
  const Sample* s = find_sample("fault_trap");
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->cuda_file.empty());
  RunOptions o;
  o.kernels_dir = BARESM_SOURCE_DIR "/kernels";
  o.source = KernelSource::CUDA;
  auto d = model_device();
  const SampleResult r = run_sample(*s, d->device, o);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("has no CUDA version"), std::string::npos) << r.message;
}

// 64-bit integers as register pairs (tests/ptx/int64.ptx): 64 threads, each
// with its a, b and shift amount n; every result word against the C++ of the
// PTX semantics (shift amounts clamped to 64, mul.hi the high half of the
// 128-bit product). Edge values first: zero, +-1, the words' and the
// values' extremes, values differing only in one word; then random ones.
TEST(PtxFeature, Int64RegisterPairs) {
  const uint64_t edges[] = {0,
                            1,
                            ~0ull,
                            0x8000000000000000ull,
                            0x7FFFFFFFFFFFFFFFull,
                            0xFFFFFFFFull,
                            0x100000000ull,
                            0x7FFFFFFFull,
                            0x80000000ull,
                            0xFFFFFFFF00000000ull,
                            0x00000001FFFFFFFFull,
                            0x123456789ABCDEF0ull};
  const uint32_t amounts[] = {0, 1, 31, 32, 33, 63, 64, 65, 70, 0xFFFFFFFFu, 5, 40, 13, 0x80000000u};
  SplitMix64 rng(64);
  const uint32_t threads = 64;
  std::vector<uint64_t> a(threads), b(threads);
  std::vector<uint32_t> n(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    const size_t ne = sizeof edges / sizeof edges[0];
    a[t] = t < ne * 2 ? edges[t % ne] : rng.next();
    b[t] = t < ne ? edges[(t + 3) % ne] : t < ne * 2 ? a[t] ^ (t & 1 ? 0xFFFFFFFFull : 0x100000000ull) : rng.next();
    if (t % 7 == 3) b[t] = a[t];  // equal values
    n[t] = t < sizeof amounts / 4 ? amounts[t] : uint32_t(rng.next() % 80);
  }
  std::vector<uint32_t> in;
  for (uint32_t t = 0; t < threads; ++t) {
    in.push_back(uint32_t(a[t]));
    in.push_back(uint32_t(a[t] >> 32));
    in.push_back(uint32_t(b[t]));
    in.push_back(uint32_t(b[t] >> 32));
    in.push_back(n[t]);
  }
  const uint64_t start = 0x0000000AFFFFFF00ull;
  std::vector<uint32_t> init(threads * 66 + 2, 0xCCCCCCCCu);
  init[threads * 66] = uint32_t(start);
  init[threads * 66 + 1] = uint32_t(start >> 32);
  const FeatureRun r = run_feature("int64", {1, 1, 1}, {threads, 1, 1}, in, init);
  ASSERT_FALSE(r.out.empty());
  auto shl = [](uint64_t x, uint32_t k) { return k >= 64 ? 0 : x << k; };
  auto shru = [](uint64_t x, uint32_t k) { return k >= 64 ? 0 : x >> k; };
  auto shrs = [](uint64_t x, uint32_t k) { return uint64_t(int64_t(x) >> (k >= 64 ? 63 : k)); };
  uint64_t total = 0xFFFFFFF0ull;
  for (uint32_t t = 0; t < threads; ++t) {
    const uint64_t x = a[t], y = b[t];
    const int64_t sx = int64_t(x), sy = int64_t(y);
    const uint32_t xl = uint32_t(x), yl = uint32_t(y);
    uint32_t bits = 0;
    bits |= (sx < sy) << 0 | (sx <= sy) << 1 | (sx > sy) << 2 | (sx >= sy) << 3 | (x == y) << 4 | (x != y) << 5;
    bits |= (x < y) << 6 | (x <= y) << 7 | (x > y) << 8 | (x >= y) << 9;
    bits |= (sx < 0) << 10 | !(sx < 0) << 11 | ((x > 0xFFFFFFFF00000000ull) && sx < 0) << 12;
    bits |= ((x == 0x100000000ull) || !(sx < 0)) << 13;
    const uint64_t want[33] = {
        x + y,
        x - y,
        x * y,
        uint64_t((unsigned __int128)x * y >> 64),
        uint64_t((__int128)sx * sy >> 64),
        shl(x, n[t]),
        shru(x, n[t]),
        shrs(x, n[t]),
        x << 13,
        x >> 45,
        uint64_t(sx >> 33),
        (x & y) ^ (x | ~y),
        0 - x,
        sx < 0 ? 0 - x : x,
        uint64_t(std::min(sx, sy)),
        uint64_t(std::max(sx, sy)),
        std::min(x, y),
        std::max(x, y),
        bits,
        uint64_t(__builtin_popcountll(x) | (y ? __builtin_clzll(y) : 64) << 8),
        uint64_t(int64_t(int32_t(xl)) * int32_t(yl)),
        uint64_t(xl) * yl,
        x * y + x,
        uint64_t(int64_t(int32_t(xl)) * int32_t(yl)) + y,
        uint64_t(int64_t(int32_t(xl))),
        uint64_t(xl & 0xFFFF),
        uint64_t(int64_t(int8_t(xl))),
        sx < sy ? x : y,
        x << 32 | x >> 32,
        a[t ^ 1],
        x - y,
        x,
        x + 0x123456789ABCDEF0ull,
    };
    for (int j = 0; j < 33; ++j) {
      const uint64_t got = uint64_t(r.out[t * 66 + 2 * j]) | uint64_t(r.out[t * 66 + 2 * j + 1]) << 32;
      EXPECT_EQ(got, want[j]) << "thread " << t << " result " << j << std::hex << " (a = 0x" << x << ", b = 0x" << y
                              << ", n = " << std::dec << n[t] << ")";
    }
    total += x >> 8;
  }
  const uint64_t got = uint64_t(r.out[threads * 66]) | uint64_t(r.out[threads * 66 + 1]) << 32;
  EXPECT_EQ(got, start + total) << "atom.shared.add.u64, then red.global.add.u64";
}

TEST(PtxFeature, BitOps) {
  auto brev = [](uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
  };
  auto msb = [](uint32_t x) {  // bfind.u32: the highest 1 bit, 0xffffffff for none
    for (int i = 31; i >= 0; --i)
      if (x >> i & 1u) return uint32_t(i);
    return 0xFFFFFFFFu;
  };
  auto prmt = [](uint32_t a, uint32_t b, uint32_t c) {  // the PTX ISA's default mode
    const uint64_t v = uint64_t(b) << 32 | a;
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      const uint32_t s = (c >> (4 * i)) & 0xF;
      uint32_t byte = uint32_t(v >> (8 * (s & 7))) & 0xFF;
      if (s & 8) byte = (byte & 0x80) ? 0xFF : 0;
      r |= byte << (8 * i);
    }
    return r;
  };
  check_rows("bitops", 8, int_inputs(), [&](uint32_t x, uint32_t y, uint32_t) -> std::vector<uint32_t> {
    const uint32_t m = msb(x);
    return {brev(x),
            m,
            msb(s(x) < 0 ? ~x : x),
            m == 0xFFFFFFFFu ? m : 31 - m,
            prmt(x, y, 20800),
            prmt(x, y, 12816),
            prmt(x, y, 0xC8E1),
            prmt(x, y, 0x7654)};
  });
}

TEST(PtxFeature, AtomIncDec) {
  const std::vector<uint32_t> in = int_inputs();
  const FeatureRun r =
      run_feature("atom_incdec", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(32 * 7, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 32u * 7);
  std::vector<uint32_t> olds;
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t x = in[t], y = in[32 + t];
    const uint32_t* o = &r.out[t * 7];
    EXPECT_EQ(o[0], x >= y ? 0u : x + 1) << "inc, thread " << t;
    EXPECT_EQ(o[1], x) << t;
    EXPECT_EQ(o[2], x == 0 || x > y ? y : x - 1) << "dec, thread " << t;
    EXPECT_EQ(o[3], x) << t;
    olds.push_back(o[4]);
    EXPECT_EQ(o[5], 32u) << "32 incs of one shared word";
    EXPECT_EQ(o[6], 14u) << "32 decs from 5 with limit 40: 5..0, 40..14";
  }
  std::sort(olds.begin(), olds.end());
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(olds[i], i) << "every old value once";
}

TEST(PtxFeature, VoteUni) {
  for (int round = 0; round < 2; ++round) {
    std::vector<uint32_t> in = int_inputs();
    if (round == 1)
      for (uint32_t t = 0; t < 32; ++t) in[t] = t;  // uniform this time
    const FeatureRun r =
        run_feature("vote_uni", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(128, 0xCCCCCCCC));
    ASSERT_EQ(r.out.size(), 128u);
    size_t below = 0;
    for (uint32_t t = 0; t < 28; ++t) below += in[t] < 0x80000000u;
    const uint32_t uni = below == 0 || below == 28;
    EXPECT_EQ(uni, round == 1 ? 1u : 0u) << "the inputs exercise both answers";
    for (uint32_t t = 0; t < 32; ++t) {
      const uint32_t* o = &r.out[t * 4];
      if (t >= 28) {
        for (int j = 0; j < 4; ++j) EXPECT_EQ(o[j], 0xCCCCCCCCu) << "lane " << t << " left";
        continue;
      }
      EXPECT_EQ(o[0], uni) << t;
      EXPECT_EQ(o[1], 1u) << t;
      EXPECT_EQ(o[2], 1u) << t;
      EXPECT_EQ(o[3], t < 16 ? 1u : 0u) << "over the branch's lanes only, thread " << t;
    }
  }
}

TEST(PtxFeature, FencesEmitNothingAndOrderHolds) {
  std::vector<uint32_t> in(64);
  SplitMix64 rng(3);
  for (uint32_t& v : in) v = rng.u32();
  const FeatureRun r = run_feature("fence", {1, 1, 1}, {64, 1, 1}, in, std::vector<uint32_t>(64, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 64u);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(r.out[t], in[63 - t]) << t;
  // The same kernel without its fences is the same code.
  std::ifstream f(feature_path("fence"));
  std::string src, line;
  while (std::getline(f, line))
    if (line.find("membar") == std::string::npos && line.find("fence.") == std::string::npos)
      src += line + "\n";
  const isa::PtxResult bare = isa::translate_ptx(src, "fence_bare.ptx");
  ASSERT_TRUE(bare.ok()) << bare.format_errors();
  EXPECT_EQ(bare.module.code, r.ptx.module.code);
}

// Spilling: 70 values live across a loop and rewritten under a guard, in 3
// warps whose frames must not overlap (docs/ptx.md "Local memory").
TEST(PtxFeature, SpillsToLocalMemory) {
  std::vector<uint32_t> in(70);
  SplitMix64 rng(11);
  for (uint32_t& v : in) v = rng.u32();
  const FeatureRun r = run_feature("spill", {1, 1, 1}, {96, 1, 1}, in, std::vector<uint32_t>(96, 0xCCCCCCCC));
  ASSERT_EQ(r.ptx.kernels.size(), 1u);
  EXPECT_EQ(r.ptx.kernels[0].regs, 63);
  EXPECT_GT(r.ptx.kernels[0].spill_bytes, 0u);
  EXPECT_EQ(r.ptx.module.kernels[0].local_bytes, r.ptx.kernels[0].lmem_bytes);
  for (uint32_t t = 0; t < 96; ++t) {
    uint32_t x[70], acc = 0;
    for (uint32_t i = 0; i < 70; ++i) x[i] = !(t & 1) ? in[i] + t * (i + 1) : i % 2 ? 7 * i : in[i] + t * (i + 1) + 1000;
    for (int round = 0; round < 3; ++round)
      for (uint32_t i = 0; i < 70; ++i) acc = acc * 31 + x[i];
    ASSERT_EQ(r.out[t], acc) << "thread " << t;
  }
}

// .local arrays: every access kind of tests/ptx/local.ptx against a C++
// model of the thread's array, 3 warps.
TEST(PtxFeature, LocalArrays) {
  std::vector<uint32_t> in(16);
  SplitMix64 rng(12);
  for (uint32_t& v : in) v = rng.u32();
  const uint32_t n = 96;
  const FeatureRun r = run_feature("local", {1, 1, 1}, {n, 1, 1}, in, std::vector<uint32_t>(8 * n, 0xCCCCCCCC));
  ASSERT_EQ(r.ptx.kernels.size(), 1u);
  EXPECT_EQ(r.ptx.kernels[0].lmem_bytes, 84u);
  EXPECT_EQ(r.ptx.kernels[0].spill_bytes, 0u);
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t a[16], sum = 0;
    for (uint32_t j = 0; j < 16; ++j) a[j] = in[j] ^ t;
    for (uint32_t j = 0; j < 16; ++j) a[(t + j) & 15] += j;
    for (uint32_t v : a) sum += v;
    const uint32_t b = (t & 0xFF) | uint32_t(int32_t(int8_t(uint8_t(t + 0x80)))) << 8;
    const std::vector<uint32_t> want = {a[t & 15], a[0], a[15], b, (t * 3) & 0xFFFF, a[2], a[3], sum};
    const std::vector<uint32_t> got(r.out.begin() + 8 * t, r.out.begin() + 8 * t + 8);
    ASSERT_EQ(got, want) << "thread " << t;
  }
}

// Recursion (docs/ptx.md "Recursion"): fib and a 120-deep chain with every
// lane at its own depth, so the warp diverges inside the recursion. Every
// call and return goes through the region's dispatch head, where the
// reconvergence stack is back to where it was: it needs the same few
// entries whatever the recursion depth (this kernel runs with D = 4 and
// faults with D = 3, a STACK_OVERFLOW, never a wrong answer).
TEST(PtxFeature, RecursionUnderDivergence) {
  std::vector<uint32_t> in(64);
  SplitMix64 rng(35);
  for (uint32_t& v : in) v = rng.u32();
  in[0] = 15;    // fib's deepest
  in[32] = 119;  // deep's deepest
  auto fib = [](uint32_t n) {
    uint32_t a = 0, b = 1;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t c = a + b;
      a = b;
      b = c;
    }
    return a;
  };
  auto deep = [](uint32_t n) {
    uint32_t v = 1;
    for (uint32_t i = 1; i <= n; ++i) v = v * 3u + i;
    return v;
  };
  for (uint32_t depth : {16u, 4u}) {
    cq::ModelDeviceConfig cfg;
    cfg.stack_depth = depth;
    const FeatureRun r =
        run_feature("recursion", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(64, 0xCCCCCCCC), cfg);
    ASSERT_EQ(r.out.size(), 64u);
    for (uint32_t t = 0; t < 32; ++t) {
      EXPECT_EQ(r.out[2 * t], fib(in[t] % 16)) << "D " << depth << " thread " << t;
      EXPECT_EQ(r.out[2 * t + 1], deep(in[32 + t] % 120)) << "D " << depth << " thread " << t;
    }
  }
  cq::ModelDeviceConfig cfg;
  cfg.stack_depth = 3;
  const FeatureRun r =
      run_feature("recursion", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(64, 0xCCCCCCCC), cfg, false);
  EXPECT_EQ(r.fault.kind, iss::FaultKind::STACK_OVERFLOW) << r.fault.describe();
}

// Recursion written by hand (tests/ptx/recursion_guarded.ptx): a guarded
// ret and st.param, a guarded call read under its guard, a predicate live
// across both calls (saved as a word and set again), a guarded call of the
// cycle from the kernel.
TEST(PtxFeature, RecursionGuardedCallsAndPredicates) {
  std::vector<uint32_t> in(32);
  SplitMix64 rng(36);
  for (uint32_t& v : in) v = rng.u32();
  in[0] = 13;
  std::function<uint32_t(uint32_t)> f = [&](uint32_t n) -> uint32_t {
    if (n < 2) return n + 1;
    const bool odd = n & 1;
    const uint32_t x = n * 3, a = odd ? f(n - 1) : 7u, b = f(n - 2);
    return odd ? (a ^ x) + b : a + b + x;
  };
  const FeatureRun r = run_feature("recursion_guarded", {1, 1, 1}, {32, 1, 1}, in, std::vector<uint32_t>(32, 0xCCCCCCCC));
  ASSERT_EQ(r.out.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t < 28 ? f(in[t] % 14) : 0xCCCCCCCCu) << "thread " << t;
}
