#include "sim/systemc/sm_lockstep.h"

#include "Vbaresm_top.h"
#include "Vbaresm_top___024root.h"
#include "sim/harness/coverage.h"
#include "sim/harness/sm_harness.h"
#include "sim/harness/vl_bits.h"
#include "sim/systemc/testbench.h"

namespace baresm::cosim {

SmLockstepPort::SmLockstepPort(sc_core::sc_module_name name, Vbaresm_top& dut, std::vector<uint8_t>& mem,
                               std::function<uint64_t()> cycle)
    : sc_core::sc_module(name), dut_(dut), mem_(mem), cycle_(std::move(cycle)) {
  SC_HAS_PROCESS(SmLockstepPort);
  SC_METHOD(on_negedge);
  sensitive << clk.neg();
  dont_initialize();
}

SmLockstepPort::~SmLockstepPort() = default;

static_assert(TopParams::kNumQueues == sim::kCoveredCpQueues, "cp_queue coverage bins: one per queue pair");

// Command-processor coverage: engine states entered, completions per queue,
// ring wraps and full rings (sim/harness/coverage.h).
void SmLockstepPort::cover_cp(const Vbaresm_top___024root& r) {
  sim::Coverage& cov = sim::Coverage::get();
  const uint32_t cp = dut_.cp_state_o.read();
  if (cp != cp_state_ && cp < uint32_t(sim::kNumCpStates)) cov.hit(std::string("cp_state/") + sim::kCpStateNames[cp]);
  const uint32_t q = dut_.cp_queue_o.read();
  constexpr uint32_t kFetch = sim::CP_FETCH, kCheck = sim::CP_CHECK, kWphase = sim::CP_WPHASE, kIdle = sim::CP_IDLE;
  if (cp != cp_state_ && q < TopParams::kNumQueues) {
    const uint32_t sq_size = r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__sq_size_q[q];
    const uint32_t cq_size = r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__cq_size_q[q];
    const uint32_t sq_head = r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__sq_head_q[q];
    const uint32_t cq_tail = r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__cq_tail_q[q];
    // (head and tail have just moved past the record.)
    if (cp_state_ == kFetch && cp == kCheck && sq_size && (sq_head & (sq_size - 1)) == 0) cov.hit("cp_ring/sq_wrap");
    if (cp_state_ == kWphase && cp == kIdle) {
      cov.hit("cp_queue/" + std::to_string(q));
      if (cq_size && (cq_tail & (cq_size - 1)) == 0) cov.hit("cp_ring/cq_wrap");
      if (cq_size && ((cq_tail - 1) & cq_size) != 0) cov.hit("cp_ring/cq_phase0");
    }
  }
  // Full rings, counted in cycles.
  for (uint32_t i = 0; i < TopParams::kNumQueues; i++) {
    const uint32_t sq_size = r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__sq_size_q[i];
    const uint32_t cq_size = r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__cq_size_q[i];
    if (sq_size && r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__sq_tail_q[i] - r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__sq_head_q[i] == sq_size)
      cov.hit("cp_ring/sq_full");
    if (cq_size && (r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__q_work >> i & 1u) &&
        r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__cq_tail_q[i] - r.baresm_top__DOT__u_cp__DOT__u_queues__DOT__cq_head_q[i] >= cq_size)
      cov.hit("cp_ring/cq_full");
  }
  cp_state_ = cp;
}

void SmLockstepPort::on_negedge() {
  using namespace sim::vl;
  const Vbaresm_top___024root& r = *dut_.rootp;
  cover_cp(r);
  if (!enabled_) return;
  const uint64_t cycle = cycle_();
  if (!r.baresm_top__DOT__sm_rst_n) {
    if (checker_) launches_.push_back(LockstepLaunch{true, true, "the SM was reset mid-launch", checker_->stats()});
    checker_.reset();
    return;
  }
  if (checker_) {
    sim::SmTrace t;
    read_trace(&t, int(TopParams::kNumLanes), r.baresm_top__DOT__trc_issue_valid,
               r.baresm_top__DOT__trc_issue_fault, r.baresm_top__DOT__trc_issue_slot,
               r.baresm_top__DOT__trc_issue_pc, r.baresm_top__DOT__trc_issue_tmask,
               r.baresm_top__DOT__trc_issue_exec, r.baresm_top__DOT__trc_issue_cta_x,
               r.baresm_top__DOT__trc_issue_cta_y, r.baresm_top__DOT__trc_issue_cta_z,
               r.baresm_top__DOT__trc_issue_wic, r.baresm_top__DOT__trc_rf_we, r.baresm_top__DOT__trc_rf_addr,
               r.baresm_top__DOT__trc_rf_mask, r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__trc_rf_data, r.baresm_top__DOT__trc_pw_valid,
               r.baresm_top__DOT__trc_pw_slot, r.baresm_top__DOT__trc_pw_pd, r.baresm_top__DOT__trc_pw_mask,
               r.baresm_top__DOT__trc_pw_bits);
    const bool accepted = r.baresm_top__DOT__sm_req_valid && r.baresm_top__DOT__sm_req_ready;
    if (accepted) {
      const size_t lb = TopParams::kLineBytes;
      req_.addr = r.baresm_top__DOT__sm_req_addr;
      req_.op = sim::MemOp(r.baresm_top__DOT__sm_req_op & 3u);
      req_.wdata.resize(lb);
      req_.wstrb.resize(lb);
      bytes_out(r.baresm_top__DOT__sm_req_wdata, req_.wdata.data(), lb);
      bits_out(r.baresm_top__DOT__sm_req_wstrb, req_.wstrb.data(), lb);
    }
    checker_->check_cycle(cycle - start_, t, accepted ? &req_ : nullptr);
    if (r.baresm_top__DOT__sm_done) {
      sim::SmRunResult res;
      res.completed = true;
      res.cycles = cycle - start_;
      res.cfg_error = r.baresm_top__DOT__sm_cfg_error;
      res.fault.kind = iss::FaultKind(r.baresm_top__DOT__sm_fault_kind);
      res.fault.cta = iss::Dim3{r.baresm_top__DOT__sm_fault_cta_x, r.baresm_top__DOT__sm_fault_cta_y,
                                r.baresm_top__DOT__sm_fault_cta_z};
      res.fault.warp = r.baresm_top__DOT__sm_fault_warp;
      res.fault.lane = r.baresm_top__DOT__sm_fault_lane;
      res.fault.pc = r.baresm_top__DOT__sm_fault_pc;
      res.fault.addr = r.baresm_top__DOT__sm_fault_addr;
      res.fault.waiting_warps = r.baresm_top__DOT__sm_fault_waiting;
      LockstepLaunch l;
      l.ok = checker_->finish(res, mem_);
      l.report = checker_->report();
      l.stats = checker_->stats();
      launches_.push_back(l);
      checker_.reset();
    }
    return;
  }
  if (r.baresm_top__DOT__launch_valid && r.baresm_top__DOT__launch_ready) {
    std::array<uint32_t, sim::kLaunchWords> d{};
    for (int i = 0; i < sim::kLaunchWords; i++) d[size_t(i)] = get_word(r.baresm_top__DOT__launch, i);
    uint32_t cfg[8];
    for (int i = 0; i < 8; i++) cfg[i] = get_word(r.baresm_top__DOT__sm_config, i);
    checker_ = std::make_unique<sim::LockstepChecker>(mem_, sim::model_params(sim::unpack_launch(d)),
                                                      sim::decode_sm_config(cfg));
    checker_->compare_windows_only(true);
    start_ = cycle + 1;
  }
}

}  // namespace baresm::cosim
