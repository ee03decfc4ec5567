// The PTX that real programs contain (issue 35, docs/ptx.md), on the
// functional model through the host driver: module-scope variables nothing
// references, loads into registers wider than the access, dynamic shared
// memory next to static shared arrays (the launch's shared bytes), and FMA
// contraction as ptxas does it, compared bit for bit with what an NVIDIA H200
// wrote (tests/data/fma_contract*_h200.txt).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "isa/ptx.h"

using namespace baresm;

namespace {

std::string src_path(const std::string& rel) { return std::string(BARESM_SOURCE_DIR) + "/" + rel; }

struct KernelRun {
  isa::PtxResult ptx;
  drv::Status launch = drv::Status::OK;  // of Device::launch (the configuration check)
  drv::LaunchReport report;
  std::vector<uint32_t> out;
};

// Translates the PTX file, launches `kernel` on the model through the driver
// with the given 8-byte pointer arguments (buffers holding `inputs`, then an
// output buffer of out_words) plus the raw extra parameter bytes, and the
// launch's dynamic shared-memory bytes. Fails the test on a translation or
// driver error; the launch's own status and fault are the caller's to check.
KernelRun run_kernel(const std::string& ptx_file, const std::string& kernel, drv::Dim3 grid, drv::Dim3 block,
               uint32_t dynamic_shared, const std::vector<std::vector<uint32_t>>& inputs, size_t out_words,
               const std::vector<uint8_t>& extra_params = {}) {
  KernelRun r;
  r.ptx = isa::translate_ptx_file(src_path(ptx_file));
  EXPECT_TRUE(r.ptx.ok()) << r.ptx.format_errors();
  if (!r.ptx.ok()) return r;
  cq::ModelDeviceConfig cfg;
  cfg.mem_bytes = 16u << 20;
  drv::ModelTransport transport(cfg);
  drv::Device dev;
  EXPECT_EQ(dev.open(&transport), drv::Status::OK);
  drv::Context ctx;
  EXPECT_EQ(dev.ctx_create(&ctx), drv::Status::OK);
  std::vector<uint8_t> params;
  auto push_ptr = [&](drv::DevPtr p) {
    const uint64_t v = p;
    const uint8_t* b = reinterpret_cast<const uint8_t*>(&v);
    params.insert(params.end(), b, b + 8);
  };
  for (const auto& in : inputs) {
    drv::DevPtr p = 0;
    EXPECT_EQ(dev.mem_alloc(ctx, uint32_t(in.size() * 4), &p), drv::Status::OK);
    EXPECT_EQ(dev.memcpy_htod(ctx, p, in.data(), uint32_t(in.size() * 4)), drv::Status::OK);
    push_ptr(p);
  }
  params.insert(params.end(), extra_params.begin(), extra_params.end());
  drv::DevPtr out = 0;
  const std::vector<uint32_t> init(out_words, 0xCCCCCCCCu);
  EXPECT_EQ(dev.mem_alloc(ctx, uint32_t(out_words * 4), &out), drv::Status::OK);
  EXPECT_EQ(dev.memcpy_htod(ctx, out, init.data(), uint32_t(out_words * 4)), drv::Status::OK);
  push_ptr(out);
  const std::vector<uint8_t> image = isa::write_module(r.ptx.module);
  drv::Module mod;
  EXPECT_EQ(dev.module_load_data(ctx, image.data(), image.size(), &mod), drv::Status::OK);
  drv::Function fn;
  EXPECT_EQ(dev.module_get_function(mod, kernel.c_str(), &fn), drv::Status::OK);
  drv::LaunchConfig lc;
  lc.grid = grid;
  lc.block = block;
  lc.dynamic_shared = dynamic_shared;
  uint64_t token = 0;
  r.launch = dev.launch_packed(fn, lc, params.data(), uint32_t(params.size()), &token);
  if (r.launch != drv::Status::OK) return r;
  dev.ctx_synchronize(ctx);
  EXPECT_EQ(dev.launch_result(token, &r.report), drv::Status::OK);
  r.out.resize(out_words);
  if (r.report.status == drv::Status::OK) {
    EXPECT_EQ(dev.memcpy_dtoh(ctx, r.out.data(), out, uint32_t(out_words * 4)), drv::Status::OK);
  }
  return r;
}

}  // namespace

// ---- 1. module-scope variables ------------------------------------------------------------

// Fails on a front end that refuses the file's .global/.const/.extern directives.
TEST(PtxReal, UnreferencedModuleVariablesAreIgnored) {
  std::vector<uint32_t> in(32);
  for (uint32_t i = 0; i < 32; ++i) in[i] = i * 0x01010101u + 7;
  const KernelRun r = run_kernel("tests/ptx/module_vars.ptx", "module_vars", {1, 1, 1}, {8, 2, 2}, 0, {in}, 32);
  ASSERT_EQ(r.report.status, drv::Status::OK);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(r.out[i], in[i] + 1) << i;
  // Nothing of the unreferenced variables reaches the kernel: no shared memory.
  ASSERT_EQ(r.ptx.kernels.size(), 1u);
  EXPECT_EQ(r.ptx.kernels[0].smem_bytes, 0u);
}

// ---- 2. loads into wider registers --------------------------------------------------------

TEST(PtxReal, LoadsIntoRegistersWiderThanTheAccess) {
  // in[0..32): indices -32..31 (every one once), in[32..96): data.
  std::vector<uint32_t> in(96);
  for (uint32_t t = 0; t < 32; ++t) in[t] = uint32_t(int32_t((t * 13) % 64) - 32);
  for (uint32_t i = 32; i < 96; ++i) in[i] = 0xA5000000u + i * 0x1001u;
  const KernelRun r = run_kernel("tests/ptx/wide_load.ptx", "wide_load", {1, 1, 1}, {32, 1, 1}, 0, {in}, 32 * 6);
  ASSERT_EQ(r.report.status, drv::Status::OK);
  for (uint32_t t = 0; t < 32; ++t) {
    const int32_t idx = int32_t(in[t]);
    const uint32_t want[6] = {in[uint32_t(64 + idx)],
                              in[32 + (in[t] & 31)],
                              uint32_t(int32_t(int8_t(in[t] & 0xFF))),
                              in[t] >> 16,
                              uint32_t(2 * idx),
                              0};
    for (int j = 0; j < 6; ++j) EXPECT_EQ(r.out[t * 6 + j], want[j]) << "thread " << t << " word " << j;
  }
}

// ---- 3. dynamic shared memory -------------------------------------------------------------

TEST(PtxReal, DynamicSharedMemoryAfterTheStaticArrays) {
  const uint32_t n = 64, ctas = 2;
  std::vector<uint32_t> in(n * ctas);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 1000 + i * 3;
  const KernelRun r = run_kernel("tests/ptx/dyn_shared.ptx", "dyn_shared", {ctas, 1, 1}, {n, 1, 1}, n * 4, {in},
                           n * ctas * 3);
  ASSERT_EQ(r.launch, drv::Status::OK);
  ASSERT_EQ(r.report.status, drv::Status::OK);
  // tile[20] at 0, extra[12] at 20, buf[] at 32 (its .align 16 after 32 static bytes).
  ASSERT_EQ(r.ptx.kernels.size(), 1u);
  EXPECT_EQ(r.ptx.kernels[0].smem_bytes, 32u);
  for (uint32_t c = 0; c < ctas; ++c)
    for (uint32_t t = 0; t < n; ++t) {
      const uint32_t g = c * n + t, o = g * 3;
      EXPECT_EQ(r.out[o], in[c * n + (t + 1) % n] + 100 * ((t + 3) % 5)) << g;
      EXPECT_EQ(r.out[o + 1], 7 * ((t + 1) % 3)) << g;
      EXPECT_EQ(r.out[o + 2], 32u) << g;
    }
}

// The dynamic array is as long as the launch says: without the launch's bytes
// the first access past the static part faults, as on a GPU.
TEST(PtxReal, DynamicSharedMemoryBeyondTheLaunchsBytesFaults) {
  const uint32_t n = 64;
  std::vector<uint32_t> in(n, 5);
  const KernelRun r = run_kernel("tests/ptx/dyn_shared.ptx", "dyn_shared", {1, 1, 1}, {n, 1, 1}, 0, {in}, n * 3);
  ASSERT_EQ(r.launch, drv::Status::OK);
  EXPECT_EQ(r.report.status, drv::Status::ILLEGAL_ADDRESS) << drv::status_name(r.report.status);
}
