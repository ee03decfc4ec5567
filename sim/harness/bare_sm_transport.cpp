#include "sim/harness/bare_sm_transport.h"

namespace baresm::sim {

cq::ModelDeviceConfig BareSmTransport::device_config(const SmParams& p, uint32_t mem_bytes) {
  cq::ModelDeviceConfig c;
  c.num_lanes = p.lanes;
  c.num_warps = p.warps;
  c.cta_slots = p.cta_slots;
  c.num_banks = p.banks;
  c.max_regs = p.regs;
  c.stack_depth = p.stack_depth;
  c.max_windows = p.windows;
  c.shared_bytes = p.shared_bytes;
  c.regfile_regs = p.rf_depth * p.lanes;  // RfDepth entries per lane (rtl/baresm_top.sv)
  c.has_fpu = p.has_fpu;
  c.mem_bytes = mem_bytes;
  return c;
}

BareSmTransport::BareSmTransport(std::unique_ptr<SmDut> dut, const BareSmConfig& cfg)
    : BareSmTransport(std::make_unique<SmHarness>(std::move(dut)), cfg) {}

BareSmTransport::BareSmTransport(std::unique_ptr<SmHarness> harness, const BareSmConfig& cfg)
    : device_(std::make_unique<cq::ModelDevice>(
          device_config(harness->params(), cfg.mem_bytes),
          [&](iss::DeviceMemory& mem) -> std::unique_ptr<cq::LaunchExecutor> {
            auto e = std::make_unique<BareSmExecutor>(std::move(harness), mem, cfg.sm);
            exec_ = e.get();
            return e;
          })),
      model_(device_.get()) {}

BareSmTransport::~BareSmTransport() = default;

}  // namespace baresm::sim
