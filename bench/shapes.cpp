#include "bench/shapes.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/params.h"

namespace baresm::bench {

namespace {

constexpr uint32_t kMemBytes = 1u << 20;
constexpr uint32_t kCode = 0x1000;
constexpr uint32_t kParam = 0x8000;
constexpr uint32_t kData = 0x10000;  // the launch's only window
constexpr uint32_t kDataSize = 0x20000;
constexpr uint32_t kOutBytes = 0x1000;  // {start, end} per warp, first in the window

const char* const kKernels[] = {"smem_throughput", "smem_latency", "divergence",
                                "alu_latency",     "mem_latency",  "barrier"};

// Loads per timed iteration of each kernel (its unrolled body).
constexpr uint32_t kSmemLoadsPerIter = 32;          // smem_latency
constexpr uint32_t kSmemThroughputLoadsPerIter = 96;  // smem_throughput
constexpr uint32_t kFfmaPerIter = 64;
constexpr uint32_t kLdgPerIter = 8;
constexpr uint32_t kBarsPerIter = 32;

uint32_t get32(const std::vector<uint8_t>& m, uint32_t a) {
  uint32_t v;
  std::memcpy(&v, &m[a], 4);
  return v;
}

}  // namespace

ShapeBench::ShapeBench(bool quick) : harness_(std::make_unique<sim::SmHarness>(sim::make_sm_dut())) {
  if (quick) {
    n2_ = 2;
    path_iters_ = 8;
  }
  for (const char* k : kKernels) {
    auto a = isa::assemble_file(std::string(BENCH_KERNEL_DIR) + "/" + k + ".s");
    if (!a.ok()) throw std::runtime_error(a.format_errors());
    modules_[k] = std::move(a.module);
  }
}

ShapeBench::~ShapeBench() = default;

const sim::SmParams& ShapeBench::params() const {
  return harness_->params();
}

ShapeBench::Times ShapeBench::run(const std::string& kernel, uint32_t threads,
                                  std::map<std::string, uint32_t> params, const sim::SmRunOptions& opt,
                                  const Init& init) {
  const isa::Module& m = modules_.at(kernel);
  const isa::KernelInfo& k = m.kernels.at(0);
  std::vector<uint8_t> mem(kMemBytes, 0);
  for (size_t i = 0; i < m.code.size(); i++) std::memcpy(&mem[kCode + 8 * i], &m.code[i], 8);
  params["out"] = kData;
  std::vector<isa::ParamArg> args;
  for (const auto& p : k.params) {
    auto it = params.find(p.name);
    if (it == params.end()) throw std::runtime_error(kernel + ": no value for parameter " + p.name);
    args.push_back(isa::ParamArg{&it->second, 4});
  }
  std::vector<uint8_t> packed;  // the one packer (isa/params.h)
  const isa::PackResult pr = isa::pack_params(k, args.data(), uint32_t(args.size()), &packed);
  if (!pr.ok()) throw std::runtime_error(kernel + ": " + isa::pack_error_text(pr, k.name));
  std::copy(packed.begin(), packed.end(), mem.begin() + kParam);
  if (init) init(mem, kData + kOutBytes);

  sim::SmLaunch l;
  l.entry_pc = kCode + k.entry;
  l.code_base = kCode;
  l.code_size = uint32_t(m.code.size() * 8);
  l.block = iss::Dim3{threads, 1, 1};
  l.regs = k.regs;
  l.param_addr = kParam;
  l.param_size = k.param_bytes;
  l.shared_bytes = k.shared_bytes;
  l.windows = {iss::Window{kData, kDataSize}};
  sim::SmRunOptions o = opt;
  if (!o.max_cycles || o.max_cycles > 20'000'000) o.max_cycles = 20'000'000;
  const sim::SmRunResult r = harness_->run(l, mem, o);
  simulated_ += r.cycles;
  if (!r.completed || r.cfg_error || !r.fault.ok())
    throw std::runtime_error(kernel + " on the SM: " + r.describe());

  // Clocks are the low 32 bits of the cycle counter: differences modulo 2^32.
  const uint32_t warps = (threads + 31) / 32;
  // Relative to warp 0's start, signed: another warp may start before it.
  const uint32_t t0 = get32(mem, kData);
  int64_t first = 0, last = 0;
  double sum = 0;
  for (uint32_t w = 0; w < warps; w++) {
    const int64_t s = int32_t(get32(mem, kData + 8 * w) - t0),
                  e = int32_t(get32(mem, kData + 8 * w + 4) - t0);
    first = w ? std::min(first, s) : s;
    last = w ? std::max(last, e) : e;
    sum += double(e - s);
  }
  Times t;
  t.span = double(last - first);
  t.mean_warp = sum / warps;
  return t;
}

ShapeBench::Times ShapeBench::per_iter(const std::string& kernel, uint32_t threads,
                                       const std::map<std::string, uint32_t>& params, uint32_t n1,
                                       uint32_t n2, const sim::SmRunOptions& opt, const Init& init) {
  auto p = params;
  p["iters"] = n1;
  const Times a = run(kernel, threads, p, opt, init);
  p["iters"] = n2;
  const Times b = run(kernel, threads, p, opt, init);
  Times d;
  d.span = (b.span - a.span) / (n2 - n1);
  d.mean_warp = (b.mean_warp - a.mean_warp) / (n2 - n1);
  return d;
}

double ShapeBench::smem_loads_per_cycle(uint32_t stride, uint32_t warps) {
  if (!warps) warps = params().warps;
  const Times t = per_iter("smem_throughput", 32 * warps, {{"stride", stride}}, n1_, n2_);
  return warps * kSmemThroughputLoadsPerIter / t.span;
}

double ShapeBench::smem_latency(uint32_t stride) {
  const Times t = per_iter("smem_latency", 32, {{"stride", stride}}, n1_, n2_);
  return t.mean_warp / kSmemLoadsPerIter;
}

double ShapeBench::divergence_cycles(uint32_t groups) {
  // path_iters_ x 8 dependent FFMAs per path: long against the few cycles
  // of dispatching a path (a compare and a branch).
  return run("divergence", 32, {{"groups", groups}, {"iters", path_iters_}}).span;
}

double ShapeBench::ffma_per_cycle(uint32_t warps) {
  const Times t = per_iter("alu_latency", 32 * warps, {}, n1_, n2_);
  return 32.0 * warps * kFfmaPerIter / t.span;
}

MemPoint ShapeBench::mem_chase(uint32_t warps, uint32_t latency) {
  sim::SmRunOptions opt;
  opt.mem.min_latency = opt.mem.max_latency = latency;
  // Every word of the chase buffer holds its own address.
  const Init init = [warps](std::vector<uint8_t>& mem, uint32_t base) {
    for (uint32_t a = base; a < base + 128 * warps; a += 4) std::memcpy(&mem[a], &a, 4);
  };
  std::map<std::string, uint32_t> p = {{"buf", kData + kOutBytes}};
  const Times t = per_iter("mem_latency", 32 * warps, p, n1_, n2_, opt, init);
  MemPoint r;
  r.cycles_per_load = t.mean_warp / kLdgPerIter;
  r.loads_per_cycle = warps * kLdgPerIter / t.span;
  return r;
}

double ShapeBench::barrier_cycles(uint32_t threads) {
  const Times t = per_iter("barrier", threads, {}, n1_, n2_);
  return t.span / kBarsPerIter;
}

}  // namespace baresm::bench
