// The sample programs: each assembles one kernel file from kernels/, makes
// seeded inputs, launches on a device through the host driver (drv::Device:
// the functional model, the verilated RTL, an FPGA board; several sizes,
// never multiples of the block size), and checks the result against a C++
// reference exactly (f32 references do the same operations in the same
// order, so no tolerance).
//
// Fault samples (named fault_<what>) run a kernel that faults in exactly one
// place; they pass when the fault kind and PC are the expected ones.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host_driver/driver.h"
#include "isa/iss.h"
#include "samples/checksum.h"

namespace baresm::samples {

// Which source of a sample's kernel runs: the hand-written assembly
// (kernels/NAME.s) or the PTX nvcc made from its CUDA twin
// (kernels/cuda/NAME.ptx, through the PTX front end, isa/ptx.h).
enum class KernelSource { ASM, CUDA };

struct RunOptions {
  std::string kernels_dir;  // empty: default_kernels_dir()
  uint64_t seed = 1;
  KernelSource source = KernelSource::ASM;
};

// kernels/ of the source tree this library was built from.
std::string default_kernels_dir();

struct LaunchRecord {
  std::string kernel;
  drv::Dim3 grid, block;
  std::string note;  // what this launch was for, e.g. "n=1000"
  // The driver's report of the launch: every counter of its completion
  // entry in report.stats (docs/ring-formats.md says which the model leaves 0).
  drv::LaunchReport report;
  iss::FaultInfo fault;    // kind NONE when the grid completed (drv::fault_info of the report)
  uint32_t code_base = 0;  // device address of the module's code: fault.pc - code_base is the offset into Module::code
};

struct SampleResult {
  // Normal sample: the result matched the reference. Fault sample: the
  // expected fault (kind and PC) was observed.
  bool passed = false;
  std::string message;
  std::vector<LaunchRecord> launches;
  // Set when a launch faulted (expected or not).
  bool faulted = false;
  iss::FaultInfo fault;
  std::string fault_report;  // multi-line, with the source line of the PC
  // fnv1a64 (samples/checksum.h) over every buffer the sample read back, in
  // order, and how many bytes that was: the output checksum that the H200
  // runner (tools/h200) prints for the same inputs.
  uint64_t checksum = kFnv1a64Offset;
  uint64_t checksum_bytes = 0;

  uint64_t warp_instrs() const;
  uint64_t thread_instrs() const;
};

struct Sample {
  std::string name;
  std::string description;  // one line
  std::string kernel_file;  // relative to the kernels directory; "" = CUDA only
  std::string cuda_file;    // its CUDA twin's PTX, relative to the kernels directory; "" = none
  bool is_fault = false;
  iss::FaultKind expected_fault = iss::FaultKind::NONE;
  std::function<void(class SampleContext&)> run;
};

// Normal samples first, then the fault samples.
const std::vector<Sample>& all_samples();
// The samples that exist only in CUDA (no kernels/NAME.s; run with
// KernelSource::CUDA). Kept out of all_samples(), which every sample suite
// runs from assembly.
const std::vector<Sample>& cuda_only_samples();
// Looks in both lists.
const Sample* find_sample(const std::string& name);
// The kernel file a run with `source` reads ("" when the sample has none).
const std::string& kernel_file_for(const Sample& s, KernelSource source);

// Runs the sample in a context of its own on `device` (an open drv::Device),
// destroyed at the end (a faulted one with it, which resets the device).
// Never throws; problems that are not the kernel's (the kernel file does not
// assemble, a driver call fails) give passed = false with the reason.
SampleResult run_sample(const Sample& s, drv::Device& device, const RunOptions& opts);

}  // namespace baresm::samples
