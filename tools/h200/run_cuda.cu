// run_cuda: the CUDA samples (kernels/cuda/*.cu) on a real NVIDIA GPU, with
// exactly the host code baresm runs them with.
//
// The samples run on a drv::Device, as everywhere: here the functional
// device model (cq_model: registers, rings, command processor, device
// memory) whose launches are executed by the GPU instead of the ISS -- this
// file's small adapter, a cq::LaunchExecutor over the CUDA driver API. So
// the sample programs themselves (samples/*.cpp: the seeded inputs, launch
// shapes, arguments, the C++ references), the host driver and its parameter
// packer are the same object code that `baresm run NAME --source cuda`
// runs, linked from the CMake build's libraries. The kernels are nvcc's
// sm_90 cubins of the same .cu files (built by tools/h200/Makefile). For
// each sample it prints the verdict against the C++ reference and the
// output checksum (samples/checksum.h: fnv1a64 over every buffer the sample
// reads back), in the format of tests/data/h200_checksums.txt.
//
// A launch on the GPU: the executor finds the kernel by the code the driver
// placed in device memory (compared with the kernels translated from the
// same PTX), copies the whole device memory into one cuMemAlloc arena,
// turns every 8-byte parameter (these kernels' pointers) from a device
// address into an arena address, launches, and copies the launch's windows
// back. Watchdogs and windows do not exist on the GPU; no counters come
// back (the completion entry's are 0).
//
// usage: run_cuda CUBIN_DIR KERNELS_DIR [SEED]
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cq_model/launch_executor.h"
#include "cq_model/model_device.h"
#include "host_driver/devices.h"
#include "host_driver/model_transport.h"
#include "isa/module.h"
#include "isa/ptx.h"
#include "samples/samples.h"

using namespace baresm;

namespace {

// A module the GPU can run: baresm's translation of the PTX (to recognize
// its code in device memory and read its parameter table) and the cubin.
struct GpuModule {
  isa::Module module;
  CUmodule cubin = nullptr;
};

std::string cuda_error(CUresult r, const std::string& what) {
  const char* msg = nullptr;
  cuGetErrorString(r, &msg);
  return what + ": " + (msg ? msg : "unknown CUDA error");
}

// Executes the device model's launches on the GPU.
class CudaExecutor final : public cq::LaunchExecutor {
 public:
  CudaExecutor(iss::DeviceMemory& mem, const std::vector<GpuModule>& modules, CUdeviceptr arena)
      : mem_(mem), modules_(modules), arena_(arena) {}

  void start(const iss::LaunchParams& p) override {
    out_ = cq::LaunchOutcome{};
    const std::string err = run(p);
    if (!err.empty()) {
      // The completion entry says only ERR_INTERNAL: the reason goes to stderr.
      std::fprintf(stderr, "run_cuda: %s\n", err.c_str());
      out_.internal_error = true;
      out_.internal_message = err;
    }
  }
  bool step(uint32_t) override { return true; }  // start() ran the whole launch
  void abort() override {}
  const cq::LaunchOutcome& outcome() const override { return out_; }
  uint64_t retired() const override { return 0; }
  uint64_t cta_switches() const override { return 0; }

 private:
  // The launch on the GPU; "" or why it could not run.
  std::string run(const iss::LaunchParams& p) {
    // The kernel: the one whose code the driver placed at code_base (a
    // launch's code range is its kernel's, from its entry).
    std::vector<uint8_t> code(p.code_size);
    mem_.read(p.code_base, code.data(), p.code_size);
    const GpuModule* gm = nullptr;
    const isa::KernelInfo* k = nullptr;
    for (const GpuModule& m : modules_)
      for (const isa::KernelInfo& ki : m.module.kernels)
        if (!k && ki.code_bytes == p.code_size && p.entry_pc == p.code_base &&
            std::memcmp(reinterpret_cast<const uint8_t*>(m.module.code.data()) + ki.entry, code.data(),
                        code.size()) == 0) {
          gm = &m;
          k = &ki;
        }
    if (!gm || !k) return "no translated kernel has the launched code";
    CUfunction fn = nullptr;
    CUresult r = cuModuleGetFunction(&fn, gm->cubin, k->name.c_str());
    if (r != CUDA_SUCCESS) return cuda_error(r, "cuModuleGetFunction " + k->name);
    // The whole device memory into the arena, then the arguments: the
    // driver's packed buffer, pointers moved into the arena.
    r = cuMemcpyHtoD(arena_, mem_.bytes().data(), mem_.size());
    if (r != CUDA_SUCCESS) return cuda_error(r, "cuMemcpyHtoD");
    std::vector<uint8_t> params(p.param_size);
    mem_.read(p.param_addr, params.data(), p.param_size);
    std::vector<void*> argv;
    for (const isa::ParamInfo& q : k->params) {
      if (uint64_t(q.offset) + q.size > params.size()) return "parameter " + q.name + " outside the buffer";
      if (q.size == 8) {
        uint64_t v;
        std::memcpy(&v, &params[q.offset], 8);
        v += arena_;
        std::memcpy(&params[q.offset], &v, 8);
      }
      argv.push_back(&params[q.offset]);
    }
    r = cuLaunchKernel(fn, p.grid.x, p.grid.y, p.grid.z, p.block.x, p.block.y, p.block.z, 0, nullptr,
                       argv.data(), nullptr);
    if (r != CUDA_SUCCESS) return cuda_error(r, "cuLaunchKernel " + k->name);
    r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS) return cuda_error(r, "cuCtxSynchronize after " + k->name);
    // What the kernel may have written: its windows.
    for (const iss::Window& w : p.windows) {
      if (!w.size) continue;
      r = cuMemcpyDtoH(mem_.bytes().data() + w.base, arena_ + w.base, w.size);
      if (r != CUDA_SUCCESS) return cuda_error(r, "cuMemcpyDtoH");
    }
    return "";
  }

  iss::DeviceMemory& mem_;
  const std::vector<GpuModule>& modules_;
  CUdeviceptr arena_;
  cq::LaunchOutcome out_;
};

bool check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  std::fprintf(stderr, "run_cuda: %s\n", cuda_error(r, what).c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CUBIN_DIR KERNELS_DIR [SEED]\n", argv[0]);
    return 2;
  }
  samples::RunOptions o;
  o.kernels_dir = argv[2];
  o.seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  o.source = samples::KernelSource::CUDA;
  // The samples with a CUDA version, as `baresm run --all --source cuda` orders them.
  std::vector<const samples::Sample*> list;
  for (const auto& s : samples::all_samples())
    if (!s.cuda_file.empty()) list.push_back(&s);
  for (const auto& s : samples::cuda_only_samples()) list.push_back(&s);
  // The GPU, and every sample's module: translated from its PTX and loaded as its cubin.
  CUdevice cu_dev = 0;
  CUcontext cu_ctx = nullptr;
  if (!check(cuInit(0), "cuInit") || !check(cuDeviceGet(&cu_dev, 0), "cuDeviceGet") ||
      !check(cuDevicePrimaryCtxRetain(&cu_ctx, cu_dev), "cuDevicePrimaryCtxRetain") ||
      !check(cuCtxSetCurrent(cu_ctx), "cuCtxSetCurrent"))
    return 1;
  char device_name[256] = {};
  cuDeviceGetName(device_name, sizeof device_name, cu_dev);
  std::vector<GpuModule> modules;
  for (const auto* s : list) {
    const std::string name = s->cuda_file.substr(5, s->cuda_file.size() - 9);  // cuda/X.ptx
    const isa::PtxResult ptx = isa::translate_ptx_file(o.kernels_dir + "/" + s->cuda_file);
    if (!ptx.ok()) {
      std::fprintf(stderr, "run_cuda: %s\n", ptx.format_errors().c_str());
      return 1;
    }
    GpuModule m;
    m.module = ptx.module;
    const std::string path = std::string(argv[1]) + "/" + name + ".cubin";
    if (!check(cuModuleLoad(&m.cubin, path.c_str()), ("cuModuleLoad " + path).c_str())) return 1;
    modules.push_back(std::move(m));
  }
  // The device model with the GPU as its executor, opened by the driver.
  const cq::ModelDeviceConfig cfg;
  CUdeviceptr arena = 0;
  if (!check(cuMemAlloc(&arena, cfg.mem_bytes), "cuMemAlloc")) return 1;
  cq::ModelDevice model(cfg, [&](iss::DeviceMemory& mem) {
    return std::unique_ptr<cq::LaunchExecutor>(new CudaExecutor(mem, modules, arena));
  });
  std::string error;
  std::unique_ptr<drv::OpenDevice> d = drv::open_device(
      "cuda", std::make_unique<drv::ModelTransport>(&model), drv::find_device("model")->options, &error);
  if (!d) {
    std::fprintf(stderr, "run_cuda: %s\n", error.c_str());
    return 1;
  }
  int failed = 0;
  std::printf("# Output checksums of the CUDA samples on %s (tools/h200/run_cuda, seed %llu):\n",
              device_name, (unsigned long long)o.seed);
  std::printf("# sample  fnv1a64-of-the-bytes-read-back  bytes  verdict-against-the-C++-reference\n");
  for (const auto* s : list) {
    const samples::SampleResult r = samples::run_sample(*s, d->device, o);
    failed += !r.passed;
    std::printf("%s 0x%016llx %llu %s\n", s->name.c_str(), (unsigned long long)r.checksum,
                (unsigned long long)r.checksum_bytes, r.passed ? "PASS" : "FAIL");
    if (!r.passed) std::fprintf(stderr, "%s: %s\n", s->name.c_str(), r.message.c_str());
  }
  return failed ? 1 : 0;
}
