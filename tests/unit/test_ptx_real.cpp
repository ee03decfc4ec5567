// The PTX that real programs contain (issue 35, docs/ptx.md), on the
// functional model through the host driver: module-scope variables nothing
// references and those kernels do (__device__/__constant__), loads into registers wider than the access, dynamic shared
// memory next to static shared arrays (the launch's shared bytes), and FMA
// contraction as ptxas does it, compared bit for bit with what an sm_90 GPU
// wrote (tests/data/fma_contract*_gpu.txt).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "isa/ptx.h"

using namespace baresm;

namespace {

std::string src_path(const std::string& rel) {
  return std::string(BARESM_SOURCE_DIR) + "/" + rel;
}

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
                     uint32_t dynamic_shared, const std::vector<std::vector<uint32_t>>& inputs,
                     size_t out_words, const std::vector<uint8_t>& extra_params = {}) {
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
  const KernelRun r =
      run_kernel("tests/ptx/module_vars.ptx", "module_vars", {1, 1, 1}, {8, 2, 2}, 0, {in}, 32);
  ASSERT_EQ(r.report.status, drv::Status::OK);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(r.out[i], in[i] + 1) << i;
  // Nothing of the unreferenced variables reaches the kernel: no shared memory.
  ASSERT_EQ(r.ptx.kernels.size(), 1u);
  EXPECT_EQ(r.ptx.kernels[0].smem_bytes, 0u);
}

// Referenced .global/.const variables: the loader's part as the CUDA runtime
// does it (cudart/runtime.cpp): one allocation holding every variable of
// translate_ptx's list at its alignment with its initialiser, each address
// passed in the kernel's hidden parameter __baresm_var_NAME after its own.
TEST(PtxReal, DeviceAndConstantVariablesThroughHiddenParameters) {
  const isa::PtxResult ptx = isa::translate_ptx_file(src_path("tests/ptx/module_data.ptx"));
  ASSERT_TRUE(ptx.ok()) << ptx.format_errors();
  // every defined .global/.const variable, referenced or not, with its bytes
  ASSERT_EQ(ptx.variables.size(), 6u);
  std::map<std::string, const isa::PtxVariable*> vars;
  for (const auto& v : ptx.variables) vars[v.name] = &v;
  ASSERT_EQ(vars.count("table"), 1u);
  EXPECT_EQ(vars["table"]->space, "const");
  EXPECT_EQ(vars["table"]->size, 16u);
  EXPECT_EQ(vars["table"]->init, (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 128}));
  EXPECT_EQ(vars["counter"]->init, (std::vector<uint8_t>{100, 0, 0, 0}));
  EXPECT_EQ(vars["arr"]->size, 256u);
  EXPECT_TRUE(vars["arr"]->init.empty());
  EXPECT_EQ(vars["bias"]->init, (std::vector<uint8_t>{0, 0, 0, 0x3E}));
  EXPECT_EQ(vars["pr"]->size, 8u);
  EXPECT_EQ(vars["pr"]->init.size(), 7u);  // fewer initialisers than bytes: the rest is zero
  EXPECT_EQ(vars["unused_placeholder"]->size, 1u);
  // the kernel's parameters: its own, then one per variable it references
  const isa::KernelInfo* ki = ptx.module.find_kernel("module_data");
  ASSERT_NE(ki, nullptr);
  std::vector<std::string> names;
  for (const auto& p : ki->params) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"module_data_param_0", "__baresm_var_table", "__baresm_var_counter",
                                             "__baresm_var_arr", "__baresm_var_bias", "__baresm_var_pr"}));

  cq::ModelDeviceConfig cfg;
  cfg.mem_bytes = 16u << 20;
  drv::ModelTransport transport(cfg);
  drv::Device dev;
  ASSERT_EQ(dev.open(&transport), drv::Status::OK);
  drv::Context ctx;
  ASSERT_EQ(dev.ctx_create(&ctx), drv::Status::OK);
  uint32_t end = 0;
  std::map<std::string, uint32_t> at;
  for (const auto& v : ptx.variables) {
    end = (end + v.align - 1) / v.align * v.align;
    at[v.name] = end;
    end += std::max<uint32_t>(v.size, 1);
  }
  std::vector<uint8_t> data(end, 0);
  for (const auto& v : ptx.variables) std::copy(v.init.begin(), v.init.end(), data.begin() + at[v.name]);
  drv::DevPtr seg = 0, out = 0;
  ASSERT_EQ(dev.mem_alloc(ctx, end, &seg), drv::Status::OK);
  ASSERT_EQ(dev.memcpy_htod(ctx, seg, data.data(), end), drv::Status::OK);
  const uint32_t threads = 64;
  ASSERT_EQ(dev.mem_alloc(ctx, threads * 24, &out), drv::Status::OK);
  const std::vector<uint8_t> image = isa::write_module(ptx.module);
  drv::Module mod;
  ASSERT_EQ(dev.module_load_data(ctx, image.data(), image.size(), &mod), drv::Status::OK);
  drv::Function fn;
  ASSERT_EQ(dev.module_get_function(mod, "module_data", &fn), drv::Status::OK);
  std::vector<uint8_t> params(ki->param_bytes, 0);
  const uint64_t out64 = out;
  std::memcpy(params.data(), &out64, 8);
  for (size_t i = 1; i < ki->params.size(); ++i) {
    const uint32_t a = seg + at[ki->params[i].name.substr(std::strlen(isa::kPtxVarParamPrefix))];
    std::memcpy(params.data() + ki->params[i].offset, &a, 4);
  }
  drv::LaunchConfig lc;
  lc.grid = {1, 1, 1};
  lc.block = {threads, 1, 1};
  uint64_t token = 0;
  ASSERT_EQ(dev.launch_packed(fn, lc, params.data(), uint32_t(params.size()), &token), drv::Status::OK);
  dev.ctx_synchronize(ctx);
  drv::LaunchReport rep;
  ASSERT_EQ(dev.launch_result(token, &rep), drv::Status::OK);
  drv::DevPtr code = 0;
  uint32_t code_bytes = 0;
  dev.module_code_range(mod, &code, &code_bytes);
  ASSERT_EQ(rep.status, drv::Status::OK) << drv::status_name(rep.status) << " at "
                                         << ptx.module.offset_name(rep.fault_pc - code)
                                         << ", address " << rep.fault_addr << ", seg " << seg << ", out " << out
                                         << ", params " << ::testing::PrintToString(params);
  std::vector<uint32_t> o(threads * 6);
  ASSERT_EQ(dev.memcpy_dtoh(ctx, o.data(), out, threads * 24), drv::Status::OK);
  const uint32_t table[4] = {1, 2, 3, 0x80000004u};
  for (uint32_t t = 0; t < threads; ++t) {
    EXPECT_EQ(o[t * 6 + 0], table[t & 3]) << t;
    EXPECT_EQ(o[t * 6 + 1], 3u) << t;
    EXPECT_EQ(o[t * 6 + 2], 7 * t) << t;
    float f = float(t) + 0.125f;
    uint32_t fb;
    std::memcpy(&fb, &f, 4);
    EXPECT_EQ(o[t * 6 + 3], fb) << t;
    EXPECT_EQ(o[t * 6 + 4], uint32_t(3 - 4 + 120 * 1000 + 0)) << t;
    EXPECT_EQ(o[t * 6 + 5], 3u ^ 0x80000004u) << t;
  }
  std::vector<uint8_t> after(end);
  ASSERT_EQ(dev.memcpy_dtoh(ctx, after.data(), seg, end), drv::Status::OK);
  uint32_t counter, arr[64];
  std::memcpy(&counter, after.data() + at["counter"], 4);
  std::memcpy(arr, after.data() + at["arr"], sizeof arr);
  EXPECT_EQ(counter, 100u + threads);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(arr[i], 7 * i) << i;
  EXPECT_EQ(std::vector<uint8_t>(after.begin() + at["table"], after.begin() + at["table"] + 16), vars["table"]->init);
}

// ---- 2. loads into wider registers --------------------------------------------------------

TEST(PtxReal, LoadsIntoRegistersWiderThanTheAccess) {
  // in[0..32): indices -32..31 (every one once), in[32..96): data.
  std::vector<uint32_t> in(96);
  for (uint32_t t = 0; t < 32; ++t) in[t] = uint32_t(int32_t((t * 13) % 64) - 32);
  for (uint32_t i = 32; i < 96; ++i) in[i] = 0xA5000000u + i * 0x1001u;
  const KernelRun r =
      run_kernel("tests/ptx/wide_load.ptx", "wide_load", {1, 1, 1}, {32, 1, 1}, 0, {in}, 32 * 6);
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
  const KernelRun r = run_kernel("tests/ptx/dyn_shared.ptx", "dyn_shared", {ctas, 1, 1}, {n, 1, 1}, n * 4,
                                 {in}, n * ctas * 3);
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
  const KernelRun r =
      run_kernel("tests/ptx/dyn_shared.ptx", "dyn_shared", {1, 1, 1}, {n, 1, 1}, 0, {in}, n * 3);
  ASSERT_EQ(r.launch, drv::Status::OK);
  EXPECT_EQ(r.report.status, drv::Status::ILLEGAL_ADDRESS) << drv::status_name(r.report.status);
}

// ---- 4. FMA contraction against the GPU -----------------------------------------------

namespace {

// tests/ptx/fma_contract.cu's inputs (its host part generates the same):
// xorshift32 from 0x2545F491.
uint32_t xorshift32(uint32_t* s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}
uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
void fma_contract_inputs(int n, std::vector<uint32_t>* a, std::vector<uint32_t>* b,
                         std::vector<uint32_t>* c) {
  uint32_t s = 0x2545F491u;
  for (int i = 0; i < n; ++i) {
    const uint32_t r0 = xorshift32(&s), r1 = xorshift32(&s), r2 = xorshift32(&s);
    const uint32_t x = (r0 & 0x807FFFFFu) | (i % 16 == 5 ? 0u : 0x3F800000u + ((r0 >> 23) & 1) * 0x800000u);
    const uint32_t y = (r1 & 0x807FFFFFu) | 0x3F800000u | ((r1 >> 23) & 1) * 0x800000u;
    uint32_t z;
    if (i % 2 == 0) {
      z = bits_of(float(double(float_of(x)) * double(float_of(y))));
      z = z + (r2 & 15u) - 7u;
    } else {
      z = (r2 & 0x807FFFFFu) | (0x3F800000u + ((r2 >> 23) & 3u) * 0x800000u);
    }
    a->push_back(x);
    b->push_back(y);
    c->push_back(z);
  }
}
uint64_t fnv1a_words(const std::vector<uint32_t>& v, uint64_t h) {
  for (uint32_t u : v)
    for (int k = 0; k < 4; ++k) h = (h ^ ((u >> (8 * k)) & 0xFF)) * 0x100000001b3ull;
  return h;
}

// What the GPU printed: the inputs' hash and every output word per kernel.
struct GpuOutput {
  uint64_t inputs_hash = 0;
  std::map<std::string, std::vector<uint32_t>> words;
};
GpuOutput read_gpu_output(const std::string& rel) {
  GpuOutput g;
  std::ifstream f(src_path(rel));
  EXPECT_TRUE(f.good()) << rel;
  std::string line;
  std::vector<uint32_t>* cur = nullptr;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string w;
    ss >> w;
    if (w == "inputs") {
      std::string tag, hex;
      ss >> tag >> hex;
      g.inputs_hash = std::stoull(hex, nullptr, 16);
    } else if (w.size() != 8) {
      cur = &g.words[w];
    } else {
      do {
        EXPECT_NE(cur, nullptr) << rel << ": words before a kernel name";
        if (cur) cur->push_back(uint32_t(std::stoul(w, nullptr, 16)));
      } while (ss >> w);
    }
  }
  return g;
}

constexpr int kFmaThreads = 256;  // 2 CTAs of 128, as the GPU ran them

std::vector<uint8_t> contract_c_extra() {  // m = 1.1f, n = 7 (the f32 and u32 parameters)
  std::vector<uint8_t> p(8);
  const float m = 1.1f;
  const uint32_t n = 7;
  std::memcpy(p.data(), &m, 4);
  std::memcpy(p.data() + 4, &n, 4);
  return p;
}

// Runs one kernel of the translated fma_contract PTX and counts the words
// that differ from the GPU's (each difference reported).
int differences(const std::string& ptx, const std::string& kernel, const std::vector<uint32_t>& gpu,
                int per_thread) {
  std::vector<uint32_t> a, b, c;
  fma_contract_inputs(kFmaThreads, &a, &b, &c);
  const bool is_c = kernel == "contract_c";
  const KernelRun r =
      run_kernel(ptx, kernel, {2, 1, 1}, {128, 1, 1}, 0, {a, b, c}, size_t(kFmaThreads * per_thread),
                 is_c ? contract_c_extra() : std::vector<uint8_t>{});
  EXPECT_EQ(r.report.status, drv::Status::OK);
  EXPECT_EQ(gpu.size(), r.out.size());
  int diff = 0;
  for (size_t i = 0; i < std::min(gpu.size(), r.out.size()); ++i)
    if (gpu[i] != r.out[i] && ++diff <= 10)
      ADD_FAILURE() << ptx << " " << kernel << ": thread " << i / per_thread << " word " << i % per_thread
                    << ": model 0x" << std::hex << r.out[i] << ", GPU 0x" << gpu[i];
  return diff;
}

}  // namespace

TEST(PtxFma, InputsAreTheOnesTheGpuRan) {
  std::vector<uint32_t> a, b, c;
  fma_contract_inputs(kFmaThreads, &a, &b, &c);
  const uint64_t h = fnv1a_words(c, fnv1a_words(b, fnv1a_words(a, 0xcbf29ce484222325ull)));
  EXPECT_EQ(read_gpu_output("tests/data/fma_contract_gpu.txt").inputs_hash, h);
  EXPECT_EQ(read_gpu_output("tests/data/fma_contract_nofmad_gpu.txt").inputs_hash, h);
}

// nvcc's default (-fmad=true): mul.f32 + add/sub.f32 pairs that ptxas fuses.
TEST(PtxFma, ContractedAsPtxasDoesBitForBitWithTheGpu) {
  const GpuOutput g = read_gpu_output("tests/data/fma_contract_gpu.txt");
  EXPECT_EQ(differences("tests/ptx/fma_contract.ptx", "contract_c", g.words.at("contract_c"), 12), 0);
  EXPECT_EQ(differences("tests/ptx/fma_contract.ptx", "contract_ptx", g.words.at("contract_ptx"), 8), 0);
}

// -fmad=false: nvcc writes mul.rn/add.rn, never fused. (Its contract_ptx is
// not compared: that binary's ptxas also ran with -fmad=false, which leaves
// even the inline PTX's plain mul.f32/add.f32 unfused, a flag the PTX does
// not carry; the translation follows ptxas's default, as a driver's JIT does.)
TEST(PtxFma, FmadFalseIsNeverFusedBitForBitWithTheGpu) {
  const GpuOutput g = read_gpu_output("tests/data/fma_contract_nofmad_gpu.txt");
  EXPECT_EQ(differences("tests/ptx/fma_contract_nofmad.ptx", "contract_c", g.words.at("contract_c"), 12), 0);
}

// The contraction is visible in these inputs: the GPU's fused and unfused
// results differ in many words (so an unfused translation fails the tests above).
TEST(PtxFma, FusedAndUnfusedDifferOnTheGpu) {
  const GpuOutput fused = read_gpu_output("tests/data/fma_contract_gpu.txt");
  const GpuOutput unfused = read_gpu_output("tests/data/fma_contract_nofmad_gpu.txt");
  const auto& f = fused.words.at("contract_c");
  const auto& u = unfused.words.at("contract_c");
  ASSERT_EQ(f.size(), u.size());
  int diff = 0;
  for (size_t i = 0; i < f.size(); ++i) diff += f[i] != u[i];
  EXPECT_GT(diff, 200) << diff << " of " << f.size();
}
