// progen: a seeded constrained-random kernel generator (docs/progen.md).
//
// generate(seed, profile, limits) returns the assembly text of one kernel
// plus everything needed to launch it: grid and block shape, shared bytes,
// the global buffers with their initial bytes, the parameter list and the
// fault the launch must end in (NONE for the normal profiles). The same
// seed, profile and limits always give byte-identical text.
//
// Normal programs are checkable: they terminate (bounded loops), never nest
// deeper than limits.stack_depth, sync only in converged control flow, keep
// every access inside its window and naturally aligned, store every thread's
// registers to its own slot of the output buffer, and race only through
// atomics, so final memory is deterministic up to the order of atomics.
//
// load_program() lays a program out in an iss::DeviceMemory and returns the
// iss::LaunchParams (code, params, buffers, one window per buffer, budget);
// run_on_model() assembles, lays out and runs it on the functional model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/iss.h"
#include "isa/module.h"

namespace baresm::progen {

struct ProgenLimits {
  uint32_t max_threads_per_block = 256;
  uint32_t max_warps_per_cta = 8;    // further bounds the block to 32 * this
  uint32_t stack_depth = 6;          // reconvergence entries incl. the first (smallest RTL: 6)
  uint32_t max_shared_bytes = 8192;  // smallest RTL config
  uint32_t max_windows = 4;          // programs use 3 (in, out, atom); must be >= 3
  uint32_t max_regs_per_thread = 63; // programs use 24..48 registers (14..max below 24); must be >= 16
  uint32_t max_ctas = 6;             // grid size bound (keeps runs short)
  bool use_smid = true;              // S2R SR_SMID allowed (backends must agree on smid)
  bool has_fpu = true;               // false: no FPU instruction (an SM without the FPU)
};

// A global buffer of the launch. Its device address is the 4-byte kernel
// parameter of the same name when is_param.
struct ProgenBuffer {
  std::string name;           // "in" (read-only input), "out" (per-thread slots), "atom"
  uint32_t size = 0;          // bytes, multiple of 4
  std::vector<uint8_t> init;  // initial contents, `size` bytes
  bool is_param = true;
  bool read_only = false;     // the kernel only loads from it
};

// One 4-byte kernel parameter, in declaration order (offset 4 * index).
struct ProgenParam {
  std::string name;
  int buffer = -1;     // >= 0: the device address of buffers[buffer]
  uint32_t value = 0;  // otherwise this value
};

struct GeneratedProgram {
  std::string source;  // assembly text (one kernel), assembles with isa::assemble
  std::string kernel;  // kernel name
  iss::Dim3 grid, block;
  uint32_t shared_bytes = 0;
  uint32_t regs = 0;  // .regs of the kernel
  std::vector<ProgenBuffer> buffers;
  std::vector<ProgenParam> params;
  iss::FaultKind expected_fault = iss::FaultKind::NONE;
  // Watchdog budget in warp-instructions (functional model): twice a static
  // bound of what the program retires, so only fault-WATCHDOG reaches it.
  uint64_t instr_budget = 0;
  uint32_t stack_depth = 0;  // the limit it was generated for: run the model with it
  std::string profile;
  uint64_t seed = 0;

  // The value of each parameter for buffers placed at buffer_addrs (one per
  // buffer); load_program packs them with isa::pack_params.
  std::vector<uint32_t> param_values(const std::vector<uint32_t>& buffer_addrs) const;
};

// The profiles generate() accepts: mixed alu fpu control memory sync, then
// fault-<kind> for every iss::FaultKind but NONE (fault-ILLEGAL_INSTR, ...).
const std::vector<std::string>& profiles();
bool is_profile(const std::string& profile);

// The `baresm gen` command that writes the same program: the seed, the
// profile and every limit that differs from ProgenLimits{} (max_ctas has no
// option and is never varied). The header's "reproduce:" line is this.
std::string gen_command(uint64_t seed, const std::string& profile, const ProgenLimits& limits);

// Throws std::invalid_argument for an unknown profile or unusable limits.
GeneratedProgram generate(uint64_t seed, const std::string& profile = "mixed",
                          const ProgenLimits& limits = ProgenLimits{});

// Where load_program puts things: code at code_base, params at param_addr,
// buffer k at buffer_addrs[k]; windows never touch (gaps between buffers).
struct ProgenLayout {
  uint32_t memory_bytes = 0;
  uint32_t code_base = 0;
  uint32_t param_addr = 0;
  std::vector<uint32_t> buffer_addrs;
};
ProgenLayout default_layout(const GeneratedProgram& p, uint32_t code_bytes);

// Writes code (kernel `p.kernel` of m), params and buffer contents into mem
// (at least layout.memory_bytes) and returns the launch: entry, code range,
// grid, block, params, regs, shared, one window per buffer, instr_budget.
iss::LaunchParams load_program(const GeneratedProgram& p, const isa::Module& m, iss::DeviceMemory& mem,
                               const ProgenLayout& layout);

struct ModelRun {
  bool assembled = false;
  std::string errors;  // assembler diagnostics when !assembled
  isa::Module module;
  ProgenLayout layout;
  iss::LaunchParams launch;
  iss::LaunchResult result;
  std::vector<uint8_t> memory;  // device memory after the run
};
// Assembles, lays out with default_layout and runs on the functional model
// with ModelConfig::stack_depth = p.stack_depth (on_retire: the model's
// retire callback, optional).
ModelRun run_on_model(const GeneratedProgram& p,
                      const std::function<void(const iss::RetireEvent&)>& on_retire = {});

}  // namespace baresm::progen
