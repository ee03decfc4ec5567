#include "sim/systemc/timeline_port.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <tuple>

#include "Vbaresm_top.h"
#include "Vbaresm_top___024root.h"
#include "contract/regs.h"
#include "sim/harness/sm_harness.h"
#include "sim/harness/state_names.h"
#include "sim/harness/vl_bits.h"
#include "sim/systemc/sc_types.h"
#include "sim/systemc/testbench.h"

// testbench.h is an installed header without the state table: its count of
// warp states must be the table's (contract/states.def).
static_assert(std::tuple_size<decltype(baresm::cosim::SmCounters::state_cycles)>::value ==
                  size_t(baresm::sim::kNumWarpStates),
              "SmCounters::state_cycles (sim/systemc/testbench.h) is not one entry per contract/states.def warp state");

namespace baresm::cosim {

TimelinePort::TimelinePort(sc_core::sc_module_name name, Vbaresm_top& dut, std::function<uint64_t()> cycle)
    : sc_core::sc_module(name), dut_(dut), cycle_(std::move(cycle)) {
  SC_HAS_PROCESS(TimelinePort);
  SC_METHOD(on_negedge);
  sensitive << clk.neg();
  dont_initialize();
}

TimelinePort::~TimelinePort() = default;

void TimelinePort::start() {
  builder_ = std::make_unique<timeline::TimelineBuilder>(TopParams::kNumWarps, TopParams::kNumQueues,
                                                         TopParams::kClockKhz);
}

std::string TimelinePort::finish(const std::string& path) {
  if (!builder_) return "no timeline was recorded";
  builder_->finish(cycle_());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return std::strerror(errno);
  builder_->write_json(f);
  f.flush();
  builder_.reset();
  return f ? "" : std::strerror(errno);
}

void TimelinePort::on_negedge() {
  if (!builder_) return;
  using sim::vl::get_word;
  const Vbaresm_top___024root& r = *dut_.rootp;
  timeline::CycleSample& s = s_;
  s.cycle = cycle_();
  s.device_reset = !dut_.rst_ni.read();
  s.in_reset = !r.baresm_top__DOT__sm_rst_n;
  s.sm_busy = dut_.sm_busy_o.read();
  const auto ws = dut_.warp_state_o.read();
  s.warp_state.resize(TopParams::kNumWarps);
  for (uint32_t w = 0; w < TopParams::kNumWarps; ++w)
    s.warp_state[w] =
        uint8_t(bit_of(ws, int(3 * w)) | bit_of(ws, int(3 * w + 1)) << 1 | bit_of(ws, int(3 * w + 2)) << 2);
  s.launch_accepted = r.baresm_top__DOT__launch_valid && r.baresm_top__DOT__launch_ready;
  if (s.launch_accepted) {
    std::array<uint32_t, sim::kLaunchWords> d{};
    for (int i = 0; i < sim::kLaunchWords; i++) d[size_t(i)] = get_word(r.baresm_top__DOT__launch, i);
    const sim::SmLaunch l = sim::unpack_launch(d);
    s.grid = {l.grid.x, l.grid.y, l.grid.z};
    s.block = {l.block.x, l.block.y, l.block.z};
  }
  s.issue = r.baresm_top__DOT__trc_issue_valid;
  s.issue_slot = r.baresm_top__DOT__trc_issue_slot;
  s.issue_wic = r.baresm_top__DOT__trc_issue_wic;
  s.issue_cta = {r.baresm_top__DOT__trc_issue_cta_x, r.baresm_top__DOT__trc_issue_cta_y,
                 r.baresm_top__DOT__trc_issue_cta_z};
  // The SM's counters, inside baresm_sm_status (public in sim.vlt).
  s.barrier_releases = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__bars_q;
  s.ctas_retired = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__ctas_q;
  for (int k = 0; k < sim::kNumWarpStates; ++k)
    s.state_cycles[size_t(k)] = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__scnt_q[size_t(k)];
  s.fault_kind = r.baresm_top__DOT__sm_fault_kind;
  // The top bit of a memory id says which side asked (baresm_cp_memarb).
  const uint32_t cp_bit = 1u << (TopParams::kIdBits - 1);
  s.mem_req = dut_.mem_req_valid_o.read() && dut_.mem_req_ready_i.read();
  s.mem_req_cp = (uint32_t(dut_.mem_req_id_o.read()) & cp_bit) != 0;
  s.mem_rsp = dut_.mem_rsp_valid_i.read() && dut_.mem_rsp_ready_o.read();
  s.mem_rsp_cp = (uint32_t(dut_.mem_rsp_id_i.read()) & cp_bit) != 0;
  s.cp_state = dut_.cp_state_o.read();
  s.cp_queue = dut_.cp_queue_o.read();
  s.doorbell_queue = -1;
  if (dut_.mmio_req_valid_i.read() && dut_.mmio_req_ready_o.read() && dut_.mmio_req_write_i.read()) {
    const uint32_t a = dut_.mmio_req_addr_i.read();
    for (uint32_t q = 0; q < TopParams::kNumQueues; ++q)
      if (a == regs::qp(q, regs::QpReg::DOORBELL)) {
        s.doorbell_queue = int(q);
        s.doorbell_value = dut_.mmio_req_wdata_i.read();
      }
  }
  builder_->sample(s);
}

}  // namespace baresm::cosim
