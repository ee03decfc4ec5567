// run_cuda: the CUDA samples (kernels/cuda/*.cu) on a real NVIDIA GPU, with
// exactly the host code baresm runs them with.
//
// It is one more samples::Backend (samples/backend.h), over the CUDA driver
// API: the sample programs themselves (samples/*.cpp: the seeded inputs,
// launch shapes, parameters, the C++ references) are the same object code
// that `baresm run NAME --source cuda` runs, linked from libbaresm_samples.a.
// The kernels are nvcc's sm_90 cubins of the same .cu files (built by
// tools/h200/Makefile). For each sample it prints the verdict against the
// C++ reference and the output checksum (samples/checksum.h: fnv1a64 over
// every buffer the sample reads back), in the format of
// tests/data/h200_checksums.txt.
//
// Device memory: one cuMemAlloc arena; a samples::Buffer's 32-bit address is
// an offset into it (never 0). The context packs parameters against the
// kernel's param table from baresm's PTX front end (CUDA's layout); every
// 8-byte parameter of these kernels is a pointer, so the backend adds the
// arena base to it. Windows and watchdogs do not exist on the GPU and are
// ignored; LaunchReport statistics stay 0.
//
// usage: run_cuda CUBIN_DIR KERNELS_DIR [SEED]
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "isa/module.h"
#include "samples/samples.h"

using namespace baresm;
using samples::Buffer;
using samples::Status;

namespace {

class CudaBackend : public samples::Backend {
 public:
  CudaBackend(const std::string& cubin_dir, const std::vector<std::string>& files) {
    ok_ = call(cuInit(0), "cuInit") && call(cuDeviceGet(&dev_, 0), "cuDeviceGet") &&
          call(cuDevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain") &&
          call(cuCtxSetCurrent(ctx_), "cuCtxSetCurrent") &&
          call(cuMemAlloc(&arena_, kArenaBytes), "cuMemAlloc");
    for (const std::string& f : files) {
      if (!ok_) break;
      CUmodule m;
      const std::string path = cubin_dir + "/" + f + ".cubin";
      ok_ = call(cuModuleLoad(&m, path.c_str()), ("cuModuleLoad " + path).c_str());
      if (ok_) cu_modules_.push_back(m);
    }
    char name[256] = {};
    cuDeviceGetName(name, sizeof name, dev_);
    device_name_ = name;
  }
  bool ok() const { return ok_; }
  const std::string& device_name() const { return device_name_; }

  std::string name() const override { return "cuda"; }
  isa::DeviceLimits limits() const override { return {}; }
  uint32_t max_threads_per_cta() const override { return 1024; }
  std::string last_error() const override { return error_; }

  Status alloc(uint32_t bytes, Buffer* out) override {
    const uint32_t size = (bytes + 255u) & ~255u;
    if (next_ + size > kArenaBytes) return fail(Status::OUT_OF_MEMORY, "arena full");
    *out = Buffer{next_, bytes};
    next_ += size;
    return Status::OK;
  }
  Status free(const Buffer&) override { return Status::OK; }  // the arena is freed at exit
  Status write(const Buffer& b, uint32_t off, const void* src, uint32_t bytes) override {
    if (off + bytes > b.size) return fail(Status::INVALID_VALUE, "write outside the buffer");
    return call(cuMemcpyHtoD(arena_ + b.addr + off, src, bytes), "cuMemcpyHtoD") ? Status::OK
                                                                                : Status::DEVICE_ERROR;
  }
  Status read(const Buffer& b, uint32_t off, void* dst, uint32_t bytes) override {
    if (off + bytes > b.size) return fail(Status::INVALID_VALUE, "read outside the buffer");
    return call(cuMemcpyDtoH(dst, arena_ + b.addr + off, bytes), "cuMemcpyDtoH") ? Status::OK
                                                                                : Status::DEVICE_ERROR;
  }
  // The .bsm image is only read for its param tables; the code that runs is the cubin's.
  Status load_module(const std::vector<uint8_t>& image, samples::ModuleHandle* out) override {
    isa::LoadResult r = isa::read_module(image.data(), image.size());
    if (r.status != isa::LoadStatus::OK) return fail(Status::INVALID_IMAGE, r.message);
    *out = ++last_handle_;
    modules_[*out] = std::move(r.module);
    return Status::OK;
  }
  Status unload_module(samples::ModuleHandle m) override {
    modules_.erase(m);
    return Status::OK;
  }
  Status launch(samples::ModuleHandle m, const std::string& kernel, const samples::LaunchConfig& cfg,
                const std::vector<uint8_t>& params_in, samples::LaunchReport* out) override {
    *out = {};
    auto it = modules_.find(m);
    if (it == modules_.end()) return fail(Status::NOT_FOUND, "unknown module");
    const isa::KernelInfo* k = it->second.find_kernel(kernel);
    if (!k) return fail(Status::NOT_FOUND, "no kernel " + kernel + " in the module");
    CUfunction fn = nullptr;
    for (CUmodule cm : cu_modules_)
      if (cuModuleGetFunction(&fn, cm, kernel.c_str()) == CUDA_SUCCESS) break;
    if (!fn) return fail(Status::NOT_FOUND, "no kernel " + kernel + " in the cubins");
    std::vector<uint8_t> params = params_in;
    std::vector<void*> argv;
    for (const isa::ParamInfo& p : k->params) {
      if (p.offset + p.size > params.size()) return fail(Status::INVALID_VALUE, "short parameter buffer");
      if (p.size == 8) {  // a pointer: arena offset -> device address
        uint64_t v;
        std::memcpy(&v, &params[p.offset], 8);
        v += arena_;
        std::memcpy(&params[p.offset], &v, 8);
      }
      argv.push_back(&params[p.offset]);
    }
    if (!call(cuLaunchKernel(fn, cfg.grid.x, cfg.grid.y, cfg.grid.z, cfg.block.x, cfg.block.y, cfg.block.z,
                             0, nullptr, argv.data(), nullptr),
              ("cuLaunchKernel " + kernel).c_str()) ||
        !call(cuCtxSynchronize(), ("cuCtxSynchronize after " + kernel).c_str()))
      return Status::DEVICE_ERROR;
    return Status::OK;
  }

 private:
  static constexpr uint32_t kArenaBytes = 64u << 20;
  Status fail(Status s, const std::string& why) {
    error_ = why;
    return s;
  }
  bool call(CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return true;
    const char* msg = nullptr;
    cuGetErrorString(r, &msg);
    error_ = std::string(what) + ": " + (msg ? msg : "unknown CUDA error");
    return false;
  }
  bool ok_ = false;
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  CUdeviceptr arena_ = 0;
  uint32_t next_ = 256;
  std::vector<CUmodule> cu_modules_;
  std::map<samples::ModuleHandle, isa::Module> modules_;
  samples::ModuleHandle last_handle_ = 0;
  std::string error_, device_name_;
};

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
  std::vector<std::string> files;
  for (const auto& s : samples::all_samples())
    if (!s.cuda_file.empty()) list.push_back(&s);
  for (const auto& s : samples::cuda_only_samples()) list.push_back(&s);
  for (const auto* s : list) files.push_back(s->cuda_file.substr(5, s->cuda_file.size() - 9));  // cuda/X.ptx
  CudaBackend be(argv[1], files);
  if (!be.ok()) {
    std::fprintf(stderr, "run_cuda: %s\n", be.last_error().c_str());
    return 1;
  }
  int failed = 0;
  std::printf("# Output checksums of the CUDA samples on %s (tools/h200/run_cuda, seed %llu):\n",
              be.device_name().c_str(), (unsigned long long)o.seed);
  std::printf("# sample  fnv1a64-of-the-bytes-read-back  bytes  verdict-against-the-C++-reference\n");
  for (const auto* s : list) {
    const samples::SampleResult r = samples::run_sample(*s, be, o);
    failed += !r.passed;
    std::printf("%s 0x%016llx %llu %s\n", s->name.c_str(), (unsigned long long)r.checksum,
                (unsigned long long)r.checksum_bytes, r.passed ? "PASS" : "FAIL");
    if (!r.passed) std::fprintf(stderr, "%s: %s\n", s->name.c_str(), r.message.c_str());
  }
  return failed ? 1 : 0;
}
