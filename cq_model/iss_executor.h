// The functional device model's default executor (launch_executor.h): the
// golden ISS (iss::FunctionalModel) run in slices of retired
// warp-instructions, so that a kernel that never ends keeps the device busy
// without blocking the host.
#pragma once

#include <memory>

#include "cq_model/launch_executor.h"

namespace baresm::cq {

std::unique_ptr<LaunchExecutor> make_iss_executor(iss::DeviceMemory& mem, const iss::ModelConfig& cfg);

}  // namespace baresm::cq
