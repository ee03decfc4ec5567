// What a sample's run function works with (internal to samples/): the
// assembled module, a seeded generator, device buffers that are freed at the
// end, launches that are recorded, and the verdict.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "host_driver/driver.h"
#include "isa/module.h"
#include "isa/rng.h"
#include "samples/samples.h"

namespace baresm::samples {

// The samples' inputs, on the shared platform-independent generator.
class Rng : public SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  // A float in [-1, 1) with a full 24-bit mantissa, so sums and products
  // round for real.
  float unit_float() { return float(int32_t(u32() >> 8) - (1 << 23)) / float(1 << 23); }
};

// Unwinds a run function when a driver call fails; caught in run_sample and
// never seen outside samples/.
struct SampleAbort {};

// A device buffer of the sample (in the sample's context).
struct Buffer {
  drv::DevPtr addr = 0;
  uint32_t size = 0;
};

// One kernel argument, converted to the parameter's bytes at launch (the
// driver packs them, Device::launch). A device address fills a 4-byte
// parameter (hand-written kernels) or, zero-extended, an 8-byte one: a
// kernel compiled from CUDA takes its pointers as 64-bit values, as
// cuLaunchKernel passes a CUdeviceptr.
struct Arg {
  uint32_t value = 0;
  bool pointer = false;
  static Arg u32(uint32_t v) { return Arg{v, false}; }
  static Arg i32(int32_t v) { return u32(uint32_t(v)); }
  static Arg f32(float v);
  static Arg ptr(const Buffer& b) { return Arg{b.addr, true}; }
};

class SampleContext {
 public:
  SampleContext(const Sample& s, drv::Device& dev, const RunOptions& o, SampleResult* r);
  ~SampleContext();
  SampleContext(const SampleContext&) = delete;
  SampleContext& operator=(const SampleContext&) = delete;

  // Assembles and loads the sample's kernel file; false (with the result
  // filled in) when that fails.
  bool prepare();

  Rng& rng() { return rng_; }
  // The largest block the device takes (DeviceProps::max_threads_per_block):
  // a sample sizes its blocks by it, as a CUDA program does by
  // cudaDeviceProp::maxThreadsPerBlock (a 4-warp SM takes 128 threads).
  uint32_t max_block_threads() const { return dev_.props().max_threads_per_block; }
  // Device memory in bytes (DeviceProps::mem_bytes; cudaDeviceProp::totalGlobalMem).
  uint64_t device_mem_bytes() const { return dev_.props().mem_bytes; }
  const isa::Module& module() const { return module_; }

  Buffer alloc(uint32_t bytes);
  template <class T>
  Buffer upload(const std::vector<T>& v) {
    Buffer b = alloc(uint32_t(v.size() * sizeof(T)));
    check(dev_.memcpy_htod(ctx_, b.addr, v.data(), b.size), "memcpy_htod");
    return b;
  }
  template <class T>
  std::vector<T> download(const Buffer& b, size_t count) {
    std::vector<T> v(count);
    check(dev_.memcpy_dtoh(ctx_, v.data(), b.addr, uint32_t(count * sizeof(T))), "memcpy_dtoh");
    result_->checksum = fnv1a64(result_->checksum, v.data(), count * sizeof(T));
    result_->checksum_bytes += count * sizeof(T);
    return v;
  }
  void release(const Buffer& b);

  // Launches through the driver, waits for it and records it. The kernel
  // may touch exactly `windows`. A watchdog of 0 is the device's default
  // (DeviceOptions::watchdog). Driver errors abort the sample; kernel faults
  // are returned in the record.
  const LaunchRecord& launch(const std::string& kernel, drv::Dim3 grid, drv::Dim3 block,
                             const std::vector<Arg>& args, const std::vector<Buffer>& windows,
                             const std::string& note, uint32_t watchdog = 0);
  // For normal samples: true when the launch completed; otherwise the sample
  // fails with the fault report.
  bool completed(const LaunchRecord& r);

  // Instructions of `kernel` (byte offsets into the module code) for which
  // pred holds; a word that does not decode is passed as nullptr.
  template <class Pred>
  std::vector<uint32_t> find_instrs(const std::string& kernel, Pred pred) const {
    std::vector<uint32_t> out;
    const isa::KernelInfo* k = module_.find_kernel(kernel);
    if (!k) return out;
    for (uint32_t off = k->entry; off < k->entry + k->code_bytes; off += isa::kInstrBytes) {
      const auto in = isa::decode(module_.code[off / isa::kInstrBytes]);
      if (pred(in ? &*in : nullptr)) out.push_back(off);
    }
    return out;
  }
  std::vector<uint32_t> find_op(const std::string& kernel, isa::Op op) const {
    return find_instrs(kernel, [op](const isa::Instr* in) { return in && in->op == op; });
  }

  // Fault samples: compares the launch's fault with the expectation (kind,
  // one of the PCs given as byte offsets into the module code, and CTA/warp/
  // lane unless negative) and sets the verdict.
  struct Expect {
    iss::FaultKind kind = iss::FaultKind::NONE;
    std::vector<uint32_t> pcs;
    int64_t cta_x = -1, warp = -1, lane = -1;
    int64_t addr = -1;
  };
  void expect_fault(const LaunchRecord& r, const Expect& e);

  // "fault_trap+0x38 (fault_trap.s:17: `@P0 TRAP;`)"
  std::string where(uint32_t code_offset) const;

  // The file this run reads: the assembly or the CUDA twin's PTX.
  const std::string& kernel_file() const { return kernel_file_for(sample_, opts_.source); }

  void pass(const std::string& msg);
  void fail(const std::string& msg);
  bool failed() const { return failed_; }

 private:
  // Aborts the sample with the driver's error when s is not OK.
  void check(drv::Status s, const char* what);
  std::string fault_report(const LaunchRecord& r) const;

  const Sample& sample_;
  drv::Device& dev_;
  drv::Context ctx_;  // the sample's own; destroyed with everything in it at the end
  RunOptions opts_;
  SampleResult* result_;
  Rng rng_;
  isa::Module module_;
  std::vector<std::string> source_lines_;
  drv::Module mod_;
  uint32_t code_base_ = 0;  // where the driver placed mod_'s code
  std::vector<Buffer> buffers_;
  bool failed_ = false;
};

// Exact comparison helper: index of the first mismatch, or -1.
template <class T>
long first_mismatch(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) return 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) return long(i);
  return -1;
}

std::string hex32(uint32_t v);
uint32_t f32_bits(float f);

}  // namespace baresm::samples
