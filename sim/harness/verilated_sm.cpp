// SmDut over one verilated baresm_sm (prefix Vbaresm_sm). Compiled into each
// configuration's library; port widths differ between configurations, so
// every access goes through the width-generic helpers below.
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "Vbaresm_sm.h"
#include "contract/rings.h"
#include "sim/harness/sm_dut.h"
#include "sim/harness/sm_harness.h"
#include "sim/harness/vl_bits.h"
#include "verilated.h"

namespace baresm::sim {

namespace {
using namespace vl;

class VerilatedSm final : public SmDut {
 public:
  VerilatedSm() : ctx_(new VerilatedContext), top_(new Vbaresm_sm(ctx_.get(), "sm")) {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->launch_valid_i = 0;
    top_->sched_gto_i = 0;
    top_->mem_req_ready_i = 0;
    top_->mem_rsp_valid_i = 0;
    top_->eval();
    for (int i = 0; i < 8; i++) cfg_[i] = get_word(top_->config_o, i);
    p_ = decode_sm_config(cfg_);
  }
  ~VerilatedSm() override {
    top_->final();
#if VM_COVERAGE
    // Line and toggle coverage of this process, next to the functional bins.
    if (const char* dir = std::getenv("BARESM_COVERAGE_DIR"))
      ctx_->coveragep()->write((std::string(dir) + "/rtl." + std::to_string(getpid()) + ".dat").c_str());
#endif
  }

  SmParams params() override { return p_; }

  void set_reset(bool asserted) override { top_->rst_ni = asserted ? 0 : 1; }

  void set_launch(bool valid, const std::array<uint32_t, kLaunchWords>& desc, bool gto) override {
    top_->launch_valid_i = valid;
    for (int i = 0; i < kLaunchWords; i++) top_->launch_i[i] = desc[i];
    top_->sched_gto_i = gto;
  }

  void set_mem(bool req_ready, bool rsp_valid, uint32_t rsp_id, const uint8_t* rsp_data,
               bool rsp_err) override {
    top_->mem_req_ready_i = req_ready;
    top_->mem_rsp_valid_i = rsp_valid;
    top_->mem_rsp_id_i = rsp_id;
    top_->mem_rsp_err_i = rsp_valid && rsp_err;
    if (rsp_valid && rsp_data) bytes_in(top_->mem_rsp_rdata_i, rsp_data, p_.line_bytes);
  }

  void eval() override {
    top_->clk_i = 0;
    top_->eval();
  }

  void clock() override {
    top_->clk_i = 1;
    top_->eval();
    ctx_->timeInc(1);
  }

  SmStatus status() override {
    SmStatus s;
    s.launch_ready = top_->launch_ready_o;
    s.busy = top_->busy_o;
    s.done = top_->done_o;
    s.cfg_error = top_->cfg_error_o;
    s.fault_kind = top_->fault_kind_o;
    s.fault_cta[0] = top_->fault_cta_x_o;
    s.fault_cta[1] = top_->fault_cta_y_o;
    s.fault_cta[2] = top_->fault_cta_z_o;
    s.fault_warp = top_->fault_warp_o;
    s.fault_lane = top_->fault_lane_o;
    s.fault_pc = top_->fault_pc_o;
    s.fault_addr = top_->fault_addr_o;
    s.fault_waiting = top_->fault_waiting_o;
    return s;
  }

  bool mem_req(MemRequest* out) override {
    if (!top_->mem_req_valid_o) return false;
    const uint32_t lb = p_.line_bytes;
    out->id = uint32_t(top_->mem_req_id_o);
    out->addr = top_->mem_req_addr_o;
    out->op = MemOp(top_->mem_req_op_o);
    out->amo = top_->mem_req_amo_o;
    out->wdata.resize(lb);
    out->wstrb.resize(lb);
    bytes_out(top_->mem_req_wdata_o, out->wdata.data(), lb);
    bits_out(top_->mem_req_wstrb_o, out->wstrb.data(), lb);
    return true;
  }

  bool mem_rsp_ready() override { return top_->mem_rsp_ready_o; }

  // The launch's counters through the SM's report port (rtl/prim/
  // baresm_report_types.svh): every word of contract/sm_report.def, asked for
  // one cycle and read the next, with the launch and memory ports quiet. The
  // SM advances a cycle per word: the harness reads them after the launch
  // ended (a stopped or timed-out run's counts move meanwhile).
  SmCounters counters() override {
    static constexpr uint32_t kWords[] = {
#define SM_REPORT(field, cp, desc) uint32_t(offsetof(cq::CompletionEntry, field) / 4),
#include "contract/sm_report.def"
#undef SM_REPORT
    };
    top_->launch_valid_i = 0;
    top_->mem_req_ready_i = 0;
    top_->mem_rsp_valid_i = 0;
    std::array<uint32_t, cq::kCPL_BYTES / 4> w{};
    for (const uint32_t i : kWords) {
      top_->rpt_req_i = (1u << 5) | i;  // {valid, idx[4:0]}
      eval();
      clock();
      w[i] = uint32_t(top_->rpt_rsp_o & 0xFFFFFFFFu);  // rpt_rsp_o.word is bits 31:0
    }
    top_->rpt_req_i = 0;
    eval();
    auto word = [&](size_t off) { return w[off / 4]; };
    SmCounters c;
    c.cycles = word(offsetof(cq::CompletionEntry, sm_cycles));
    c.instrs = word(offsetof(cq::CompletionEntry, warp_instrs));
    c.stalls = word(offsetof(cq::CompletionEntry, stall_cycles));
    c.smem_passes = word(offsetof(cq::CompletionEntry, shared_passes));
    c.gmem_reqs = word(offsetof(cq::CompletionEntry, gmem_requests));
    c.ifills = word(offsetof(cq::CompletionEntry, ifetch_fills));
    for (int s = 0; s < kNumWarpStates; s++)
      c.state_cycles[size_t(s)] = word(offsetof(cq::CompletionEntry, ws_idle) + 4 * size_t(s));
    c.divergent_branches = word(offsetof(cq::CompletionEntry, div_branches));
    c.barrier_releases = word(offsetof(cq::CompletionEntry, bar_releases));
    c.thread_instrs = word(offsetof(cq::CompletionEntry, thread_instrs));
    c.ctas = word(offsetof(cq::CompletionEntry, ctas_done));
    return c;
  }

  void warp_states(std::vector<uint8_t>* out) override {
    out->resize(p_.warps);
    for (uint32_t w = 0; w < p_.warps; w++) (*out)[w] = uint8_t(get_bits(top_->warp_state_o, 3 * int(w), 3));
  }

  void trace(SmTrace* t) override {
    vl::read_trace(t, int(p_.lanes), top_->trace_issue_valid_o, top_->trace_issue_fault_o, top_->trace_issue_slot_o,
                   top_->trace_issue_pc_o, top_->trace_issue_tmask_o, top_->trace_issue_exec_o,
                   top_->trace_issue_cta_x_o, top_->trace_issue_cta_y_o, top_->trace_issue_cta_z_o,
                   top_->trace_issue_wic_o, top_->trace_rf_we_o, top_->trace_rf_addr_o, top_->trace_rf_mask_o,
                   top_->trace_rf_data_o, top_->trace_pw_valid_o, top_->trace_pw_slot_o, top_->trace_pw_pd_o,
                   top_->trace_pw_mask_o, top_->trace_pw_bits_o);
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vbaresm_sm> top_;
  uint32_t cfg_[8] = {};
  SmParams p_;
};

}  // namespace

std::unique_ptr<SmDut> make_sm_dut() { return std::make_unique<VerilatedSm>(); }

}  // namespace baresm::sim
