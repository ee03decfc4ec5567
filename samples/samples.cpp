#include "samples/samples.h"

#include "samples/sample_list.h"

#ifndef BARESM_KERNELS_DIR
#define BARESM_KERNELS_DIR "kernels"
#endif

namespace baresm::samples {

std::string default_kernels_dir() {
  return BARESM_KERNELS_DIR;
}

uint64_t SampleResult::warp_instrs() const {
  uint64_t n = 0;
  for (const auto& l : launches) n += l.report.stats.warp_instrs;
  return n;
}

uint64_t SampleResult::thread_instrs() const {
  uint64_t n = 0;
  for (const auto& l : launches) n += l.report.stats.thread_instrs;
  return n;
}

namespace {
using iss::FaultKind;

Sample normal(const char* name, const char* desc, const char* file, void (*fn)(SampleContext&)) {
  Sample s;
  s.name = name;
  s.description = desc;
  s.kernel_file = file;
  s.run = fn;
  return s;
}

// A sample that exists only in CUDA: no assembly twin.
Sample cuda_only(const char* name, const char* desc, void (*fn)(SampleContext&)) {
  Sample s = normal(name, desc, "", fn);
  s.cuda_file = "cuda/" + s.name + ".ptx";
  return s;
}

// A sample whose kernel also exists in CUDA (kernels/cuda/NAME.cu and the PTX nvcc made from it).
Sample with_cuda(Sample s) {
  s.cuda_file = "cuda/" + s.name + ".ptx";
  return s;
}

Sample fault(const char* name, const char* desc, FaultKind kind, void (*fn)(SampleContext&)) {
  Sample s = normal(name, desc, "", fn);
  s.kernel_file = std::string(name) + ".s";
  s.is_fault = true;
  s.expected_fault = kind;
  return s;
}
}  // namespace

const std::vector<Sample>& all_samples() {
  static const std::vector<Sample> list = {
      with_cuda(normal("vec_add", "f32 c = a + b, one thread per element, 1D and 2D grids", "vec_add.s",
                       run_vec_add)),
      with_cuda(normal("saxpy", "f32 y = a*x + y with FFMA (one rounding), grid-stride loop", "saxpy.s",
                       run_saxpy)),
      with_cuda(normal("reduce_sum",
                       "i32 sum: shared-memory tree with BAR.SYNC per CTA, relaunched on the partials",
                       "reduce_sum.s", run_reduce_sum)),
      with_cuda(normal("nested_divergence",
                       "nested data-dependent if/else and a divergent loop, every lane checked",
                       "nested_divergence.s", run_nested_divergence)),
      with_cuda(normal("matmul_tiled", "f32 C = A*B with 16x16 shared-memory tiles and BAR.SYNC, 2D grid",
                       "matmul_tiled.s", run_matmul_tiled)),
      with_cuda(normal("histogram", "64-bin histogram: ATOMS.ADD into per-CTA bins, then ATOMG.ADD to global",
                       "histogram.s", run_histogram)),
      with_cuda(normal("prefix_scan",
                       "i32 inclusive scan: SHFL.UP in warps, shared memory across warps, multi-CTA",
                       "prefix_scan.s", run_prefix_scan)),
      with_cuda(normal("transpose",
                       "matrix transpose through a 32x33 shared tile (padding avoids bank conflicts)",
                       "transpose.s", run_transpose)),
      fault("fault_endless_loop", "one thread spins forever: WATCHDOG at its branch", FaultKind::WATCHDOG,
            run_fault_endless_loop),
      fault("fault_barrier_deadlock", "two warps wait at different barrier ids: BARRIER_DEADLOCK",
            FaultKind::BARRIER_DEADLOCK, run_fault_barrier_deadlock),
      fault("fault_out_of_window", "one thread stores one word past its buffer: OUT_OF_WINDOW",
            FaultKind::OUT_OF_WINDOW, run_fault_out_of_window),
      fault("fault_misaligned", "one thread loads a 32-bit word at an address 2 mod 4: MISALIGNED",
            FaultKind::MISALIGNED, run_fault_misaligned),
      fault("fault_illegal_opcode",
            "one thread reaches a .word whose opcode is not in the table: ILLEGAL_INSTR",
            FaultKind::ILLEGAL_INSTR, run_fault_illegal_opcode),
      fault("fault_trap", "one thread executes TRAP: TRAP", FaultKind::TRAP, run_fault_trap),
  };
  return list;
}

const std::vector<Sample>& cuda_only_samples() {
  static const std::vector<Sample> list = {
      cuda_only("warp_stats",
                "CUDA only: byte loads, a __shfl_xor_sync reduction and a __ballot_sync count per warp",
                run_warp_stats),
      cuda_only("local_sort",
                "CUDA only: local memory: an array indexed at run time (.local) and 72 live values (spills)",
                run_local_sort),
  };
  return list;
}

const std::string& kernel_file_for(const Sample& s, KernelSource source) {
  return source == KernelSource::CUDA ? s.cuda_file : s.kernel_file;
}

const Sample* find_sample(const std::string& name) {
  for (const auto& s : all_samples())
    if (s.name == name) return &s;
  for (const auto& s : cuda_only_samples())
    if (s.name == name) return &s;
  return nullptr;
}

SampleResult run_sample(const Sample& s, drv::Device& device, const RunOptions& opts) {
  SampleResult r;
  try {
    SampleContext c(s, device, opts, &r);
    if (!c.prepare()) return r;
    try {
      s.run(c);
    } catch (const SampleAbort&) {
      // the context has recorded why
    }
    if (!c.failed() && !r.passed) c.fail("internal: the sample gave no verdict");
  } catch (const std::exception& e) {
    r.passed = false;
    r.message = std::string("unexpected error: ") + e.what();
  }
  return r;
}

}  // namespace baresm::samples
