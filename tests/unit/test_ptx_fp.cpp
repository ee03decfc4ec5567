// The f32 sequences of the PTX front end (isa/ptx_fpseq.cpp, docs/ptx.md
// "f32 division and square root") on the functional model, one operand pair
// per thread of a big grid:
//  - div.rn / rcp.rn / sqrt.rn bit for bit against the host (a / b, 1.0f / b,
//    std::sqrt; round to nearest, subnormals kept; a NaN must be the
//    canonical 0x7FFFFFFF) over random bit patterns and the hard cases;
//    BARESM_PTX_FP_COUNT=N runs N operand pairs instead of the default;
//  - every pair of special values;
//  - the .approx / .full forms within PTX's error bounds (the maximum
//    measured is printed);
//  - .ftz and .sat against a C++ model of their PTX semantics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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


// Runs tests/ptx/NAME.ptx over in.size() / 2 threads (thread i reads
// in[2i], in[2i+1]) and returns the k words each wrote.
std::vector<uint32_t> run_grid(const std::string& name, const std::vector<uint32_t>& in, size_t k) {
  const uint32_t block = 256;
  const size_t n = in.size() / 2;
  EXPECT_EQ(n % block, 0u);
  const isa::PtxResult ptx =
      isa::translate_ptx_file(std::string(BARESM_SOURCE_DIR) + "/tests/ptx/" + name + ".ptx");
  EXPECT_TRUE(ptx.ok()) << ptx.format_errors();
  if (!ptx.ok()) return {};
  // Room for both buffers, plus the eighth of memory the driver keeps for
  // module code and a margin for its rings, rounded to MiB.
  const uint64_t need = in.size() * 4 + n * k * 4;
  cq::ModelDeviceConfig mc;
  mc.mem_bytes = uint32_t(std::max<uint64_t>(mc.mem_bytes, (need + need / 4 + (2u << 20)) >> 20 << 20));
  auto d = model_device(mc);
  drv::Device& dev = d->device;
  drv::Context ctx;
  EXPECT_EQ(dev.ctx_create(&ctx), drv::Status::OK);
  const std::vector<uint8_t> image = isa::write_module(ptx.module);
  drv::Module m;
  EXPECT_EQ(dev.module_load_data(ctx, image.data(), image.size(), &m), drv::Status::OK) << dev.last_error().detail;
  const uint32_t in_bytes = uint32_t(in.size() * 4), out_bytes = uint32_t(n * k * 4);
  drv::DevPtr bin = 0, bout = 0;
  EXPECT_EQ(dev.mem_alloc(ctx, in_bytes, &bin), drv::Status::OK);
  EXPECT_EQ(dev.mem_alloc(ctx, out_bytes, &bout), drv::Status::OK);
  EXPECT_EQ(dev.memcpy_htod(ctx, bin, in.data(), in_bytes), drv::Status::OK);
  drv::Function fn;
  EXPECT_EQ(dev.module_get_function(m, name.c_str(), &fn), drv::Status::OK);
  // Two pointers, 8 bytes each as CUDA passes them; the driver packs them.
  const uint64_t pin = bin, pout = bout;
  const drv::LaunchArg args[] = {{&pin, 8}, {&pout, 8}};
  const drv::Window wins[] = {{bin, in_bytes}, {bout, out_bytes}};
  drv::LaunchConfig cfg;
  cfg.grid = {uint32_t(n / block), 1, 1};
  cfg.block = {block, 1, 1};
  cfg.windows = wins;
  cfg.num_windows = 2;
  cfg.watchdog = 0xFFFFFFFFu;  // the largest budget: these grids are long
  uint64_t token = 0;
  EXPECT_EQ(dev.launch(fn, cfg, args, 2, &token), drv::Status::OK) << dev.last_error().detail;
  dev.ctx_synchronize(ctx);
  drv::LaunchReport rep;
  EXPECT_EQ(dev.launch_result(token, &rep), drv::Status::OK) << dev.last_error().detail;
  EXPECT_EQ(rep.cpl_status, cq::CplStatus::COMPLETED) << cq::error_code_name(rep.error);
  std::vector<uint32_t> out(n * k);
  EXPECT_EQ(dev.memcpy_dtoh(ctx, out.data(), bout, out_bytes), drv::Status::OK);
  return out;
}

const std::vector<uint32_t>& specials() {
  static const std::vector<uint32_t> v = [] {
    std::vector<uint32_t> s = {0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x007FFFFF, 0x00400000,
                               0x00800000, 0x00800001, 0x00FFFFFF, 0x3F800000, 0x3F800001, 0x3FFFFFFF,
                               0x3F7FFFFF, 0x40000000, 0x40400000, 0x40800000, 0x3EAAAAAB, 0x7F7FFFFF,
                               0x7F000000, 0x7E800000, 0x7E7FFFFF, 0x7F800000, 0x7FC00000, 0x7F800001,
                               0x7FFFFFFF, 0x4B800000, 0x33800000, 0x34000000, 0x1F800000, 0x5F800000};
    const size_t n = s.size();
    for (size_t i = 0; i < n; ++i) s.push_back(s[i] | 0x80000000u);
    return s;
  }();
  return v;
}

// Operand pairs: uniform bits, and the hard cases by kind (i % 16).
std::vector<uint32_t> operand_pairs(size_t n, uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<uint32_t> v(2 * n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t a = rng.u32(), b = rng.u32();
    const uint32_t ma = a & 0x807FFFFF, mb = b & 0x807FFFFF;
    switch (i % 16) {
      case 1:
        b = mb | (a & 0x7F800000);
        break;  // same exponent
      case 2:
        b = mb;
        break;  // subnormal divisor
      case 3:
        a = ma;
        break;  // subnormal dividend
      case 4:
        a = ma | 0x0A000000;
        b = mb | 0x74000000;
        break;  // subnormal quotients
      case 5:
        a = ma | 0x0B800000;
        b = mb | 0x72000000;
        break;  // around 2^-126..2^-149
      case 6:
        a = ma | 0x7E800000;
        b = mb | 0x00800000;
        break;  // overflow
      case 7:
        a = ma | 0x7F000000;
        b = mb | 0x3F800000;
        break;   // near FLT_MAX
      case 8: {  // exact quotients
        const float q = float(int(rng.u32() % 4096) + 1);
        b = (b & 0x8FFFFFFF) | 0x10000000;
        a = fp32::bits(fp32::from_bits(b) * q);
        break;
      }
      case 9:
        b = b | 0x007FFFFF;
        break;  // divisor mantissa all ones
      case 10:
        b = b & 0xFFFFF000;
        break;    // short mantissas
      case 11: {  // perfect squares: r^2 scaled by an even power of two
        const uint32_t r = rng.u32() % 4096 + 1;
        a = fp32::bits(float(r * r) * fp32::from_bits(uint32_t(127 + 2 * (int(rng.u32() % 100) - 50)) << 23));
        break;
      }
      case 12:
        a = specials()[rng.u32() % specials().size()];
        break;
      case 13:
        b = specials()[rng.u32() % specials().size()];
        break;
      case 14:
        a = a & 0x00FFFFFF;
        b = b | 0x7F000000;
        break;  // quotient far below 2^-149
      default:
        break;
    }
    v[2 * i] = a;
    v[2 * i + 1] = b;
  }
  return v;
}

size_t fp_count() {
  const char* e = std::getenv("BARESM_PTX_FP_COUNT");
  const size_t n = e ? size_t(std::strtoull(e, nullptr, 10)) : size_t(1) << 20;
  return std::max<size_t>(256, n / 256 * 256);
}

void check_exact(const std::vector<uint32_t>& in) {
  const std::vector<uint32_t> out = run_grid("fdiv_sqrt", in, 3);
  ASSERT_EQ(out.size(), in.size() / 2 * 3);
  size_t bad = 0, sub = 0, ovf = 0, nan = 0, exact = 0, squares = 0;
  for (size_t i = 0; i < in.size() / 2; ++i) {
    const float a = fp32::from_bits(in[2 * i]), b = fp32::from_bits(in[2 * i + 1]);
    const float q = a / b;
    const uint32_t want[3] = {fp32::canonical(q), fp32::canonical(1.0f / b), fp32::canonical(std::sqrt(a))};
    const char* what[3] = {"div.rn", "rcp.rn", "sqrt.rn"};
    sub += std::fpclassify(q) == FP_SUBNORMAL;
    ovf += std::isinf(q) && std::isfinite(a) && b != 0.0f;
    nan += std::isnan(q);
    exact += std::isfinite(q) && q != 0.0f && std::fma(-double(b), double(q), double(a)) == 0.0;
    const float r = std::sqrt(a);
    squares += r > 0.0f && std::isfinite(r) && double(r) * double(r) == double(a);
    for (int j = 0; j < 3; ++j)
      if (out[3 * i + j] != want[j] && ++bad <= 10)
        ADD_FAILURE() << what[j] << "(0x" << std::hex << in[2 * i] << ", 0x" << in[2 * i + 1] << ") = 0x"
                      << out[3 * i + j] << ", the host says 0x" << want[j];
  }
  EXPECT_EQ(bad, 0u);
  // The distributions keep their hard cases.
  const size_t n = in.size() / 2;
  if (n >= 65536) {
    EXPECT_GT(sub, n / 64);
    EXPECT_GT(ovf, n / 64);
    EXPECT_GT(nan, n / 1000);
    EXPECT_GT(exact, n / 64);
    EXPECT_GT(squares, n / 32);
  }
}

}  // namespace

TEST(PtxFp, DivRcpSqrtBitExactRandomAndHardCases) {
  // In launches of up to 2^20 threads, each with its own seed.
  const size_t total = fp_count(), chunk = size_t(1) << 20;
  for (size_t done = 0, seed = 2026; done < total; done += chunk, ++seed)
    check_exact(operand_pairs(std::min(chunk, total - done), seed));
}

TEST(PtxFp, DivRcpSqrtEverySpecialPair) {
  std::vector<uint32_t> in;
  for (uint32_t a : specials())
    for (uint32_t b : specials()) {
      in.push_back(a);
      in.push_back(b);
    }
  while (in.size() % 512) in.push_back(0x3F800000);
  check_exact(in);
}

namespace {

// Distance in ulps between two non-NaN floats (+0 and -0 are the same point).
int64_t ulps(uint32_t x, uint32_t y) {
  auto ord = [](uint32_t b) { return (b & 0x80000000u) ? -int64_t(b & 0x7FFFFFFFu) : int64_t(b); };
  return std::llabs(ord(x) - ord(y));
}
float ftz(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
float sat(float x) {
  return std::isnan(x) || x <= 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

// The worst error of one approximate form: ulps from the correctly rounded
// result (NaN, infinities and zeros must match it exactly).
struct UlpCheck {
  const char* name;
  int64_t bound;
  int64_t worst = 0;
  size_t bad = 0;
  void check(uint32_t got, float want, uint32_t a, uint32_t b) {
    int64_t e = 0;
    if (std::isnan(want) || std::isinf(want) || want == 0.0f)
      e = got == fp32::canonical(want) || (want == 0.0f && (got & 0x7FFFFFFFu) == 0) ? 0 : INT64_MAX;
    else
      e = std::isnan(fp32::from_bits(got)) ? INT64_MAX : ulps(got, fp32::bits(want));
    worst = std::max(worst, e);
    if (e > bound && ++bad <= 5)
      ADD_FAILURE() << name << "(0x" << std::hex << a << ", 0x" << b << ") = 0x" << got << ", want 0x"
                    << fp32::bits(want) << std::dec << " within " << bound << " ulp";
  }
};

}  // namespace

TEST(PtxFeature, F32ApproxWithinPtxBounds) {
  std::vector<uint32_t> in = operand_pairs(size_t(1) << 17, 7);
  for (uint32_t a : specials())
    for (uint32_t b : specials()) {
      in.push_back(a);
      in.push_back(b);
    }
  SplitMix64 rng(8);
  for (int i = 0; i < 65536; ++i) {  // ex2 where its result is neither 0 nor inf
    in.push_back(fp32::bits(float(rng.u32() % 290000) / 1000.0f - 160.0f));
    in.push_back(rng.u32());
  }
  while (in.size() % 512) in.push_back(0x3F800000);
  const std::vector<uint32_t> out = run_grid("f32_approx", in, 13);
  ASSERT_EQ(out.size(), in.size() / 2 * 13);
  // PTX ISA bounds: div.approx 2 ulp for 2^-126 <= |b| <= 2^126 (0 beyond),
  // div.full 2, rcp.approx 1, sqrt.approx 2^-23 relative (1 ulp), rsqrt.approx
  // 2^-22.9 relative (2 ulp against the rounded value), ex2.approx 2 ulp;
  // lg2.approx 2^-22.6 absolute for x in [0.5, 2] (checked below), and
  // here 4 ulp, what the sequence gives over all inputs.
  double lg2_abs = 0;
  UlpCheck c[13] = {{"div.approx", 2},     {"div.full", 2},        {"rcp.approx", 1},
                    {"sqrt.approx", 1},    {"rsqrt.approx", 2},    {"div.approx.ftz", 2},
                    {"rcp.approx.ftz", 1}, {"sqrt.approx.ftz", 1}, {"rsqrt.approx.ftz", 2},
                    {"ex2.approx", 2},     {"ex2.approx.ftz", 2},  {"lg2.approx", 4},
                    {"lg2.approx.ftz", 4}};
  for (size_t i = 0; i < in.size() / 2; ++i) {
    const uint32_t ab = in[2 * i], bb = in[2 * i + 1];
    const float a = fp32::from_bits(ab), b = fp32::from_bits(bb), fa = ftz(a), fb = ftz(b);
    const uint32_t* o = &out[13 * i];
    auto rsqrt = [](float x) { return float(1.0 / std::sqrt(double(x))); };
    const float ab_abs = std::fabs(b);
    if (ab_abs > 0x1p126f && ab_abs < INFINITY && std::isfinite(a))
      c[0].check(o[0], 0.0f, ab, bb);
    else if (ab_abs >= 0x1p-126f && ab_abs <= 0x1p126f)
      c[0].check(o[0], a / b, ab, bb);
    c[1].check(o[1], a / b, ab, bb);
    c[2].check(o[2], 1.0f / b, ab, bb);
    c[3].check(o[3], std::sqrt(a), ab, bb);
    c[4].check(o[4], rsqrt(a), ab, bb);
    const float fab = std::fabs(fb);
    if (fab > 0x1p126f && fab < INFINITY && std::isfinite(fa))
      c[5].check(o[5], 0.0f, ab, bb);
    else if (fab >= 0x1p-126f && fab <= 0x1p126f)
      c[5].check(o[5], ftz(fa / fb), ab, bb);
    c[6].check(o[6], ftz(1.0f / fb), ab, bb);
    c[7].check(o[7], ftz(std::sqrt(fa)), ab, bb);
    c[8].check(o[8], ftz(rsqrt(fa)), ab, bb);
    c[9].check(o[9], float(std::exp2(double(a))), ab, bb);
    c[10].check(o[10], ftz(float(std::exp2(double(fa)))), ab, bb);
    c[11].check(o[11], float(std::log2(double(a))), ab, bb);
    c[12].check(o[12], ftz(float(std::log2(double(fa)))), ab, bb);
    if (a >= 0.5f && a <= 2.0f)
      lg2_abs = std::max(lg2_abs, std::fabs(double(fp32::from_bits(o[11])) - std::log2(double(a))));
  }
  EXPECT_LE(lg2_abs, std::ldexp(1.0, -22) / std::pow(2.0, 0.6)) << "lg2.approx, absolute on [0.5, 2]";
  std::printf("lg2.approx         max absolute error 2^%.2f on [0.5, 2]\n", std::log2(lg2_abs));
  for (const UlpCheck& k : c) {
    EXPECT_EQ(k.bad, 0u) << k.name;
    std::printf("%-18s max error %lld ulp (bound %lld) over %zu operand pairs\n", k.name,
                static_cast<long long>(k.worst), static_cast<long long>(k.bound), in.size() / 2);
  }
}

TEST(PtxFeature, F32FtzSat) {
  std::vector<uint32_t> in = operand_pairs(size_t(1) << 15, 9);
  for (uint32_t a : specials())
    for (uint32_t b : specials()) {
      in.push_back(a);
      in.push_back(b);
    }
  SplitMix64 rng(5);
  for (int i = 0; i < 4096; ++i) {  // around [0, 1] for .sat, subnormal results for .ftz
    in.push_back(fp32::bits(float(int(rng.u32() % 3000) - 1000) / 1000.0f));
    in.push_back(i % 2 ? fp32::bits(float(int(rng.u32() % 3000) - 1000) / 1000.0f) : (rng.u32() & 0x80FFFFFF));
  }
  while (in.size() % 512) in.push_back(0x3F800000);
  const std::vector<uint32_t> out = run_grid("f32_ftz_sat", in, 16);
  ASSERT_EQ(out.size(), in.size() / 2 * 16);
  // FMIN/FMAX: a NaN loses to a number, -0 < +0.
  auto fmn = [](float x, float y, bool mn) {
    if (std::isnan(x)) return y;
    if (std::isnan(y)) return x;
    if (x == y) return (std::signbit(x) == mn) ? x : y;
    return (x < y) == mn ? x : y;
  };
  size_t bad = 0;
  for (size_t i = 0; i < in.size() / 2; ++i) {
    const float a = fp32::from_bits(in[2 * i]), b = fp32::from_bits(in[2 * i + 1]), fa = ftz(a), fb = ftz(b);
    const uint32_t want[16] = {fp32::canonical(ftz(fa + fb)),
                               fp32::canonical(ftz(fa - fb)),
                               fp32::canonical(ftz(fa * fb)),
                               fp32::canonical(ftz(std::fma(fa, fb, fa))),
                               fp32::canonical(fmn(fa, fb, true)),
                               fp32::canonical(fmn(fa, fb, false)),
                               fp32::bits(sat(a + b)),
                               fp32::bits(sat(a * b)),
                               fp32::bits(sat(ftz(std::fma(fa, fb, 0.5f)))),
                               fp32::bits(sat(a)),
                               fp32::bits(fa),  // a NaN passes unchanged
                               fp32::bits(fa) ^ 0x80000000u,
                               fp32::bits(fb) & 0x7FFFFFFFu,
                               fa < fb,
                               fb == 0.0f,
                               fp32::bits(sat(ftz(std::fma(fb, 2.0f, fa))))};
    for (int j = 0; j < 16; ++j)
      if (out[16 * i + j] != want[j] && ++bad <= 10)
        ADD_FAILURE() << "word " << j << " (a = 0x" << std::hex << in[2 * i] << ", b = 0x" << in[2 * i + 1]
                      << "): 0x" << out[16 * i + j] << ", want 0x" << want[j];
  }
  EXPECT_EQ(bad, 0u);
}

TEST(PtxFeature, CvtIntegerRoundings) {
  std::vector<uint32_t> in = operand_pairs(size_t(1) << 16, 12);
  SplitMix64 rng(13);
  for (int i = 0; i < 65536; ++i) {  // around the integers: halves, ties, 2^23 and 2^31
    const float base = float(int(rng.u32() % 4001) - 2000) / 2.0f;
    const float scale[4] = {1.0f, 1.0f, 4194304.0f, 1048576.0f};
    in.push_back(fp32::bits(i % 3 ? base * scale[i % 4] : fp32::from_bits(rng.u32() & 0xCFFFFFFF)));
    in.push_back(0);
  }
  for (uint32_t a : specials()) {
    in.push_back(a);
    in.push_back(0);
  }
  while (in.size() % 512) in.push_back(0x3F800000);
  const std::vector<uint32_t> out = run_grid("cvt_round", in, 10);
  ASSERT_EQ(out.size(), in.size() / 2 * 10);
  auto f2i = [](float v, bool u) -> uint32_t {  // F2I: toward zero, saturating, NaN to 0
    if (std::isnan(v)) return 0;
    if (u) return v <= 0.0f ? 0u : v >= 4294967296.0f ? 0xFFFFFFFFu : uint32_t(v);
    return v <= -2147483648.0f ? 0x80000000u : v >= 2147483648.0f ? 0x7FFFFFFFu : uint32_t(int32_t(v));
  };
  size_t bad = 0;
  for (size_t i = 0; i < in.size() / 2; ++i) {
    const float a = fp32::from_bits(in[2 * i]);
    const uint32_t want[10] = {fp32::canonical(std::nearbyint(a)),       fp32::canonical(std::trunc(a)),
                               fp32::canonical(std::floor(a)),           fp32::canonical(std::ceil(a)),
                               f2i(std::nearbyint(a), false),  f2i(std::floor(a), false),
                               f2i(std::ceil(a), true),        fp32::canonical(std::nearbyint(ftz(a))),
                               f2i(std::floor(ftz(a)), false), fp32::bits(sat(std::ceil(a)))};
    for (int j = 0; j < 10; ++j)
      if (out[10 * i + j] != want[j] && ++bad <= 10)
        ADD_FAILURE() << "word " << j << " (a = 0x" << std::hex << in[2 * i] << "): 0x" << out[10 * i + j]
                      << ", want 0x" << want[j];
  }
  EXPECT_EQ(bad, 0u);
}

// add/sub/mul.{rz,rm,rp}.f32 and cvt.{rz,rm,rp}.f32.{s32,u32} bit for bit
// against the host's arithmetic under fesetround, over the hard-case
// operand pairs, every pair of the special values and integers at the
// edges of f32's precision (tests/ptx/f32_directed.ptx).
TEST(PtxFp, DirectedRoundingsBitExact) {
  std::vector<uint32_t> in = operand_pairs(size_t(1) << 18, 21);
  for (uint32_t a : specials())
    for (uint32_t b : specials()) {
      in.push_back(a);
      in.push_back(b);
    }
  SplitMix64 rng(8);
  for (int i = 0; i < 8192; ++i) {  // integers around 2^24 .. 2^32 and their negatives; ties and near-ties
    const uint32_t base = uint32_t(1) << (24 + rng.u32() % 8);
    uint32_t x = base + (rng.u32() % 512) - 256;
    if (i % 4 == 1) x = ~x + 1;
    if (i % 4 == 2) x = 0x80000000u + (rng.u32() % 256);
    if (i % 4 == 3) x = 0xFFFFFFFFu - (rng.u32() % 256);
    in.push_back(x);
    in.push_back(rng.u32());
  }
  for (uint32_t x : {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0x7FFFFFC0u, 0x7FFFFFBFu,
                     0x01000001u, 0xFEFFFFFFu}) {
    in.push_back(x);
    in.push_back(0x3F800000);
  }
  while (in.size() % 512) in.push_back(0x3F800000);
  const std::vector<uint32_t> out = run_grid("f32_directed", in, 16);
  ASSERT_EQ(out.size(), in.size() / 2 * 16);
  const int modes[3] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  const char* names[3] = {"rz", "rm", "rp"};
  auto canon = [](float x) { return std::isnan(x) ? 0x7FFFFFFFu : fp32::bits(x); };
  size_t bad = 0, checked = 0;
  const int saved = std::fegetround();
  for (int m = 0; m < 3; ++m) {
    std::fesetround(modes[m]);
    for (size_t i = 0; i < in.size() / 2 && bad < 10; ++i) {
      volatile float a = fp32::from_bits(in[2 * i]), b = fp32::from_bits(in[2 * i + 1]);
      volatile int32_t si = int32_t(in[2 * i]);
      volatile uint32_t ui = in[2 * i];
      const uint32_t want[5] = {canon(a + b), canon(a - b), canon(a * b), fp32::bits(float(si)),
                                fp32::bits(float(ui))};
      const char* what[5] = {"add", "sub", "mul", "cvt.f32.s32", "cvt.f32.u32"};
      for (int k = 0; k < 5; ++k, ++checked) {
        const uint32_t got = out[16 * i + size_t(3 * k + m)];
        if (got != want[k] && ++bad <= 10)
          ADD_FAILURE() << what[k] << "." << names[m] << " of 0x" << std::hex << in[2 * i] << ", 0x"
                        << in[2 * i + 1] << ": 0x" << got << ", host 0x" << want[k];
      }
      if (m == 1) {  // add.rm.ftz
        volatile float fa = ftz(a), fb = ftz(b);
        const uint32_t w = canon(ftz(fa + fb));
        ++checked;
        if (out[16 * i + 15] != w && ++bad <= 10)
          ADD_FAILURE() << "add.rm.ftz of 0x" << std::hex << in[2 * i] << ", 0x" << in[2 * i + 1] << ": 0x"
                        << out[16 * i + 15] << ", host 0x" << w;
      }
    }
  }
  std::fesetround(saved);
  EXPECT_EQ(bad, 0u);
  std::printf("directed roundings: %zu results bit-exact over %zu operand pairs\n", checked, in.size() / 2);
}

// fma.{rz,rm,rp}.f32 (and .rm.ftz, .rp.sat, .rn) bit for bit against the
// host's fma under fesetround (tests/ptx/fma_directed.ptx): thread i gets
// a, b from its pair and c from its neighbour's a. The triples: uniform
// bits and the division test's hard pairs, c cancelling a b to within a few
// ulps (odd threads' a set from their neighbour's product), tiny products
// (below 2^-100, against small and large c), huge products (2^126 and up,
// finite and overflowing sums), c near FLT_MAX against products of any size, integer products with exact zero sums (the
// sign of zero rounding down), and every triple of 28 special values.
// copysign.f32 (erff, tanhf) is checked on the same words.
TEST(PtxFp, FmaDirectedRoundingsBitExact) {
  std::vector<uint32_t> in = operand_pairs(size_t(1) << 17, 31);
  SplitMix64 rng(32);
  auto with_exp = [&](uint32_t lo, uint32_t span) {
    return (rng.u32() & 0x807FFFFFu) | ((lo + rng.u32() % span) << 23);
  };
  for (size_t j = 0; j + 3 < in.size(); j += 4) {
    const uint32_t kind = uint32_t(j / 4) % 8;
    uint32_t& a0 = in[j];
    uint32_t& b0 = in[j + 1];
    uint32_t& a1 = in[j + 2];  // thread 2k+1's a is thread 2k's c, and the reverse
    if (kind == 1) {           // c = -(a b) within a few ulps: cancellation
      const float p = fp32::from_bits(a0) * fp32::from_bits(b0);
      a1 = fp32::bits(-p) + (rng.u32() % 16) - 8;
    } else if (kind == 2) {  // tiny products against small and larger c
      a0 = with_exp(20, 40);
      b0 = with_exp(1, 40);
      a1 = (rng.u32() & 1) ? with_exp(0, 60) : with_exp(40, 30);
    } else if (kind == 3) {  // a subnormal factor
      a0 = rng.u32() & 0x807FFFFFu;
      b0 = with_exp(60, 120);
      a1 = with_exp(0, 80);
    } else if (kind == 4) {  // huge products, c near them or tiny
      a0 = with_exp(190, 64);
      b0 = with_exp(190, 64);
      a1 = (rng.u32() & 1) ? with_exp(230, 24) : with_exp(1, 60);
    } else if (kind == 6) {  // c near FLT_MAX against products of any size
      a0 = with_exp(150, 60);
      b0 = with_exp(127, 40);
      a1 = (rng.u32() & 3) ? (0x7F7FFFFFu - rng.u32() % 8) | (rng.u32() & 0x80000000u) : with_exp(248, 7);
    } else if (kind == 5) {  // integers: exact zero sums and small residuals
      const int x = int(rng.u32() % 2000) - 1000, y = int(rng.u32() % 2000) - 1000;
      a0 = fp32::bits(float(x));
      b0 = fp32::bits(float(y));
      a1 = fp32::bits(-float(x) * float(y) + float(int(rng.u32() % 3) - 1));
    }
  }
  // TwoSum's intermediate sum overflowing (c = -FLT_MAX against a b near
  // 2^125: found by the uniform triples), and its neighbours.
  for (uint32_t k = 0; k < 64; ++k) {
    in.push_back(0xBE8C39D6u + k * 977), in.push_back(0xFF000000u - (k & 7) * 0x800000u);
    in.push_back(0xFF7FFFFFu - (k >> 4)), in.push_back(0x3F800000u);
  }
  std::vector<uint32_t> sp = specials();
  sp.resize(28);
  for (uint32_t a : sp)
    for (uint32_t b : sp)
      for (uint32_t c : {sp[0], sp[1], sp[5], sp[27], sp[3] | 0x80000000u}) {
        in.push_back(a), in.push_back(b), in.push_back(c), in.push_back(a);
      }
  while (in.size() % 512) in.push_back(0x3F800000);
  const std::vector<uint32_t> out = run_grid("fma_directed", in, 7);
  ASSERT_EQ(out.size(), in.size() / 2 * 7);
  auto canon = [](float x) { return std::isnan(x) ? 0x7FFFFFFFu : fp32::bits(x); };
  const int modes[3] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  const char* names[7] = {"rz", "rm", "rp", "rm.ftz", "rp.sat", "rn", "copysign"};
  size_t bad = 0, checked = 0, differ_rn = 0;
  const int saved = std::fegetround();
  for (size_t i = 0; i < in.size() / 2; ++i) {
    const float a = fp32::from_bits(in[2 * i]), b = fp32::from_bits(in[2 * i + 1]),
                c = fp32::from_bits(in[2 * (i ^ 1)]);
    uint32_t want[7];
    for (int m = 0; m < 3; ++m) {
      std::fesetround(modes[m]);
      volatile float va = a, vb = b, vc = c;
      want[m] = canon(std::fma(va, vb, vc));
      if (m == 1) {
        volatile float fa = ftz(a), fb = ftz(b), fc = ftz(c);
        want[3] = canon(ftz(std::fma(fa, fb, fc)));
      }
      if (m == 2) want[4] = canon(sat(std::fma(va, vb, vc)));
    }
    std::fesetround(FE_TONEAREST);
    want[5] = canon(std::fma(a, b, c));
    want[6] = (in[2 * i] & 0x80000000u) | (in[2 * (i ^ 1)] & 0x7FFFFFFFu);
    for (int k = 0; k < 7; ++k, ++checked) {
      const uint32_t got = out[7 * i + size_t(k)];
      if (k < 3 && want[k] != want[5]) ++differ_rn;
      if (got != want[k] && ++bad <= 10)
        ADD_FAILURE() << names[k] << " of 0x" << std::hex << in[2 * i] << ", 0x" << in[2 * i + 1]
                      << ", 0x" << in[2 * (i ^ 1)] << ": 0x" << got << ", host 0x" << want[k];
    }
  }
  std::fesetround(saved);
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(differ_rn, checked / 8);  // the directed results are not mostly the nearest ones
  std::printf("fma directed roundings: %zu results bit-exact over %zu triples, %zu differ from .rn\n", checked,
              in.size() / 2, differ_rn);
}

// div/rem .u64/.s64 (tests/ptx/divrem64.ptx) against C++ over 65,536
// operand pairs: uniform bits, operands of every width from 1 to 64 bits
// and both signs, divisors near the dividend, powers of two, 1 and -1,
// INT64_MIN, and 0 (x / 0 = all ones and x % 0 = x unsigned, as the 32-bit
// division; signed, the magnitudes' quotient with the signs; INT64_MIN / -1
// is INT64_MIN).
TEST(PtxFp, DivRem64BitExact) {
  SplitMix64 rng(64);
  const size_t n = size_t(1) << 16;
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = (uint64_t(rng.u32()) << 32) | rng.u32();
    const uint32_t kind = uint32_t(i / 2) % 8;
    if (kind == 1) x >>= rng.u32() % 64;                                     // any width
    if (kind == 2) x = uint64_t(-int64_t(x >> (rng.u32() % 64)));            // negative, any width
    if (kind == 3 && (i & 1)) x = v[i - 1] - (rng.u32() % 5) + 2;              // near the dividend
    if (kind == 4 && (i & 1)) x = uint64_t(1) << (rng.u32() % 64);             // powers of two
    if (kind == 5 && (i & 1)) x = (rng.u32() & 1) ? 1 : ~uint64_t(0);          // 1, -1
    if (kind == 6) x = (i & 1) ? ((rng.u32() % 3 == 0) ? 0 : ~uint64_t(0)) : uint64_t(1) << 63;  // INT64_MIN, 0, -1
    if (kind == 7 && (i & 1)) x = rng.u32() % 1000;                            // small divisors
    v[i] = x;
  }
  std::vector<uint32_t> in(2 * n);
  std::memcpy(in.data(), v.data(), n * 8);
  const std::vector<uint32_t> out = run_grid("divrem64", in, 8);
  ASSERT_EQ(out.size(), n * 8);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t a = v[i], b = v[i ^ 1];
    uint64_t want[4];
    want[0] = b ? a / b : ~uint64_t(0);
    want[1] = b ? a % b : a;
    const int64_t sa = int64_t(a), sb = int64_t(b);
    const uint64_t ma = sa < 0 ? uint64_t(0) - a : a, mb = sb < 0 ? uint64_t(0) - b : b;
    const uint64_t mq = mb ? ma / mb : ~uint64_t(0), mr = mb ? ma % mb : ma;
    want[2] = (sa < 0) != (sb < 0) ? uint64_t(0) - mq : mq;
    want[3] = sa < 0 ? uint64_t(0) - mr : mr;
    const char* what[4] = {"div.u64", "rem.u64", "div.s64", "rem.s64"};
    for (int k = 0; k < 4; ++k) {
      const uint64_t got = uint64_t(out[8 * i + 2 * size_t(k)]) | (uint64_t(out[8 * i + 2 * size_t(k) + 1]) << 32);
      if (got != want[k] && ++bad <= 10)
        ADD_FAILURE() << what[k] << " of 0x" << std::hex << a << ", 0x" << b << ": 0x" << got << ", C++ 0x"
                      << want[k];
    }
  }
  EXPECT_EQ(bad, 0u);
}
