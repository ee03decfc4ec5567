// The functional device model: a whole baresm device as the host sees it --
// the register block of docs/registers.md, the rings of
// docs/ring-formats.md, device memory -- with a launch executor
// (launch_executor.h) running the launches: the golden functional model
// (iss::FunctionalModel) unless the caller gives another (the bare verilated
// SM, sim/harness/bare_sm_transport.h).
//
// Time is discrete: the host (a transport) calls tick() and each tick is one
// engine cycle. In a cycle the command processor does one step (fetch and
// check a descriptor, write part of a completion entry, finish a reset) and
// the SM retires up to instrs_per_tick warp-instructions. Kernels therefore
// run in bounded slices: a kernel that never ends keeps the device busy
// forever without blocking the host, exactly like a hung GPU.
#pragma once

#include <cstdint>
#include <memory>

#include "cq_model/launch_executor.h"
#include "contract/rings.h"
#include "isa/iss.h"

namespace baresm::cq {

struct ModelDeviceConfig {
  // Hardware parameters, reported in CONFIG0..CONFIG6.
  uint32_t num_lanes = 8;
  uint32_t num_warps = 16;
  uint32_t cta_slots = 8;
  uint32_t num_banks = 32;
  uint32_t max_regs = 63;
  uint32_t stack_depth = 16;
  uint32_t num_queues = 4;  // 1..regs::MAX_QUEUES
  uint32_t max_windows = 8;
  uint32_t shared_bytes = 32 * 1024;
  uint32_t regfile_regs = 16 * 1024;  // 512 threads at 32 registers
  uint32_t mem_bytes = 4u << 20;
  uint32_t clock_khz = 100000;  // one tick = 10 ns of device time
  bool has_fpu = true;          // CONFIG6.HAS_FPU; without it FPU instructions are illegal
  // Model timing.
  uint32_t instrs_per_tick = 8;         // warp-instructions the SM retires per tick
  uint32_t reset_ticks = 8;             // STATUS.RESETTING lasts this long
  uint32_t completion_write_ticks = 3;  // 1..3: an entry becomes visible piece by piece, phase last
};

class ModelDevice {
 public:
  // make_executor: what runs the launches (empty: the ISS, with cfg's
  // stack_depth and has_fpu).
  explicit ModelDevice(const ModelDeviceConfig& cfg = {}, const ExecutorFactory& make_executor = {});
  ~ModelDevice();
  ModelDevice(const ModelDevice&) = delete;
  ModelDevice& operator=(const ModelDevice&) = delete;

  // ---- the host-facing contract ----
  uint32_t reg_read(uint32_t offset);  // has side effects (64-bit counter snapshots)
  void reg_write(uint32_t offset, uint32_t value);
  // Host access to device memory; false when [addr, addr+len) is outside it.
  bool mem_read(uint32_t addr, void* dst, uint32_t len) const;
  bool mem_write(uint32_t addr, const void* src, uint32_t len);
  bool irq_line() const;
  // The reset pin (for tests): every register to its reset value at once,
  // whatever runs is dropped; device memory is kept.
  void pin_reset();

  // ---- time ----
  void tick(uint64_t n = 1);
  // Ticks until the interrupt line is high or n ticks have passed; returns the ticks run.
  uint64_t tick_until_irq(uint64_t n);
  uint64_t cycles() const;  // ticks since construction (CYCLES resets with the device)

  // ---- for tests and tools (not part of the register contract) ----
  const ModelDeviceConfig& config() const;
  iss::DeviceMemory& memory();
  LaunchExecutor& executor();
  struct Stats {
    uint64_t ticks = 0;
    uint64_t fetched = 0;       // descriptors fetched
    uint64_t launches_run = 0;  // kernels started on the functional model
    uint64_t completions = 0;   // entries written
    uint64_t bad_descriptors = 0;
    uint64_t resets = 0;
    uint64_t aborted = 0;        // launches cut short by a reset
    uint64_t cq_full_ticks = 0;  // ticks some queue had work but a full completion ring
  };
  const Stats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace baresm::cq
