// The .bsm module format: what the assembler writes and the loader reads.
// Layout and field meanings: docs/module-format.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace baresm::isa {

constexpr uint32_t kModuleMagic = 0x004D5342;  // "BSM\0" little-endian
constexpr uint16_t kModuleVersionMajor = 1;
// 1.1 added the kernel-attribute table (per-thread local bytes and the
// optional units of each kernel); a 1.0 image loads with every kernel's
// local_bytes 0 and its units found from its code.
constexpr uint16_t kModuleVersionMinor = 1;

// The largest image the assembler writes and the loaders accept: 4x the
// device memory of the model and the RTL (4 MiB), far beyond any module that
// can run there, and small enough that a hostile size cannot exhaust memory.
constexpr uint32_t kMaxModuleBytes = 16u << 20;

// What one kernel may declare: the assembler's .shared, .param size and
// alignment limits, which the loader enforces too, so that every module the
// loader accepts is one the assembler can write (and its disassembly
// reassembles). The driver and the device have their own, smaller limits.
constexpr uint32_t kMaxSharedBytes = 16u << 20;  // .shared
constexpr uint32_t kMaxParamBytes = 4096;        // param_bytes: the packed parameters
constexpr uint32_t kMaxParamAlign = 256;         // .param alignment
constexpr uint32_t kMaxLocalBytes = 64u << 10;   // .local: bytes per thread, a multiple of 4

// Optional execution units a kernel's code uses (KernelInfo::units): a
// device without one refuses the module at load (NO_BINARY_FOR_DEVICE).
constexpr uint32_t kUnitFpu = 1u << 0;  // any instruction of isa::UNIT_FPU
constexpr uint32_t kKnownUnits = kUnitFpu;

struct ParamInfo {
  std::string name;
  uint32_t offset = 0;  // byte offset in the parameter buffer
  uint32_t size = 0;
  uint32_t align = 0;
};

struct KernelInfo {
  std::string name;
  uint32_t entry = 0;       // byte offset of the first instruction in the code
  uint32_t code_bytes = 0;  // bytes of code belonging to this kernel
  uint32_t regs = 0;        // registers per thread
  uint32_t shared_bytes = 0;
  uint32_t param_bytes = 0;  // size of the packed parameter buffer
  // Per-thread local memory (.local): spills and local arrays. When nonzero
  // the launcher provides the frame base as a hidden 4-byte parameter at
  // offset param_bytes (docs/module-format.md, "Local memory").
  uint32_t local_bytes = 0;
  // kUnit* bits of the optional units its code uses; write_module finds them
  // from the code (the loader checks the recorded mask against it).
  uint32_t units = 0;
  std::vector<ParamInfo> params;
};

struct LineEntry {
  uint32_t pc = 0;  // byte offset in the code
  uint32_t line = 0;
  uint32_t column = 0;
};

// What a module needs from the device it runs on.
struct ModuleTarget {
  uint32_t arch_id = 0;
  uint32_t max_regs = 0;          // most registers any kernel needs
  uint32_t max_shared_bytes = 0;  // most shared memory any kernel needs
};

struct Module {
  uint16_t version_major = kModuleVersionMajor;
  uint16_t version_minor = kModuleVersionMinor;
  ModuleTarget target;
  std::string source_name;  // file the code was assembled from (diagnostics)
  std::vector<KernelInfo> kernels;
  std::vector<uint64_t> code;  // instruction words
  std::vector<LineEntry> lines;

  const KernelInfo* find_kernel(const std::string& name) const;
  // Source line for a code byte offset, or nullptr.
  const LineEntry* line_for(uint32_t pc) const;
  // A code byte offset by kernel, "vec_add+0x38"; "0x00000038" outside every kernel.
  std::string offset_name(uint32_t off) const;
};

// The limits of the device a module is loaded on.
struct DeviceLimits {
  uint32_t arch_id = 0;
  uint32_t max_regs_per_thread = 0;
  uint32_t max_shared_per_cta = 0;
  uint32_t units = kKnownUnits;  // optional units the device has (CONFIG6)
};

// The kUnit* bits kernel k's code needs, and (first_pc, when not null) the
// code offset of the first instruction that needs each found bit's unit.
uint32_t kernel_units(const Module& m, const KernelInfo& k, uint32_t* first_fpu_pc = nullptr);

enum class LoadStatus { OK, INVALID_IMAGE, NO_BINARY_FOR_DEVICE };
const char* load_status_name(LoadStatus s);  // "INVALID_IMAGE", ...

struct LoadResult {
  LoadStatus status = LoadStatus::OK;
  std::string message;  // why, when status != OK
  Module module;
};

std::vector<uint8_t> write_module(const Module& m);
// The size of write_module(m), without building it (checked against kMaxModuleBytes).
uint64_t module_image_bytes(const Module& m);
// Never crashes or throws on any input. Rejects images larger than
// kMaxModuleBytes and names with control characters. With limits, also
// rejects modules the device cannot run (NO_BINARY_FOR_DEVICE).
LoadResult read_module(const uint8_t* data, size_t size, const DeviceLimits* limits = nullptr);
LoadResult read_module_file(const std::string& path, const DeviceLimits* limits = nullptr);

}  // namespace baresm::isa
