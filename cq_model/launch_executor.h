// What executes a launch inside the functional device model
// (model_device.h): the command processor fetches and checks a descriptor,
// hands the launch to an executor, steps it once per tick, and writes the
// completion entry from its outcome. The default executor is the golden ISS
// (iss_executor.h); sim/harness/bare_sm_executor.h runs the launch on the
// bare verilated SM instead, so that the SM is reached through the host
// driver like every other device.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "contract/rings.h"
#include "isa/iss.h"

namespace baresm::cq {

// How a launch ended, as the executor reports it to the command processor.
struct LaunchOutcome {
  iss::LaunchResult result;  // fault and the ISS-style counts (warp/thread instrs, CTAs, branches, barriers)
  // The executor could not run the launch (a model exception, an SM that
  // refused or never finished): reported as ERR_INTERNAL.
  bool internal_error = false;
  std::string internal_message;
  uint64_t shared_passes = 0;
  // Set by an executor with a clock (the SM): its own cycle count and the
  // counters only a pipeline has. The device then keeps the launch running
  // until sm_cycles ticks have passed, so that device time (the completion's
  // end - start) covers the SM's cycles. Without a clock they are 0.
  bool clocked = false;
  uint64_t sm_cycles = 0, stall_cycles = 0, gmem_requests = 0, ifetch_fills = 0;
  std::array<uint64_t, CompletionEntry::kWarpStates> warp_state_cycles{};  // contract/states.def order (rings.def ws_*)
};

class LaunchExecutor {
 public:
  virtual ~LaunchExecutor() = default;
  // Prepares a launch over the device's memory; it runs from the first step().
  virtual void start(const iss::LaunchParams& p) = 0;
  // Runs up to `budget` warp-instructions (an executor that cannot pause may
  // run the whole launch). True when the launch has ended; outcome() is then valid.
  virtual bool step(uint32_t budget) = 0;
  // Ends a started launch without finishing it (a reset).
  virtual void abort() = 0;
  virtual const LaunchOutcome& outcome() const = 0;
  // Progress of the current launch so far (the WARP_INSTRS and PROGRESS registers).
  virtual uint64_t retired() const = 0;
  virtual uint64_t cta_switches() const = 0;  // CTAs ended before the one now running
};

// Makes the executor of a device, over that device's memory.
using ExecutorFactory = std::function<std::unique_ptr<LaunchExecutor>(iss::DeviceMemory& mem)>;

}  // namespace baresm::cq
