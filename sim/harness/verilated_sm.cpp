// SmDut over one verilated baresm_sm (prefix Vbaresm_sm). Compiled into each
// configuration's library; port widths differ between configurations, so
// every access goes through the width-generic helpers below.
#include <cstring>
#include <type_traits>

#include "Vbaresm_sm.h"
#include "sim/harness/sm_dut.h"
#include "verilated.h"

namespace baresm::sim {

namespace {

// Bits [lsb, lsb+width) (width <= 64) of a port, scalar or VlWide.
template <class T>
uint64_t get_bits(const T& v, int lsb, int width) {
  const uint64_t x = uint64_t(v) >> lsb;
  return width >= 64 ? x : (x & ((uint64_t(1) << width) - 1));
}
template <std::size_t N>
uint64_t get_bits(const VlWide<N>& v, int lsb, int width) {
  uint64_t r = 0;
  for (int i = 0; i < width; i++) {
    const int b = lsb + i;
    if ((v[b / 32] >> (b % 32)) & 1u) r |= uint64_t(1) << i;
  }
  return r;
}
template <std::size_t N>
uint32_t get_word(const VlWide<N>& v, int idx) {
  return v[idx];
}
template <class T>
uint32_t get_word(const T& v, int idx) {
  return uint32_t(uint64_t(v) >> (32 * idx));
}

template <class T>
void bytes_out(const T& v, uint8_t* out, size_t n) {
  const uint64_t x = uint64_t(v);
  for (size_t i = 0; i < n; i++) out[i] = uint8_t(x >> (8 * i));
}
template <std::size_t N>
void bytes_out(const VlWide<N>& v, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = uint8_t(v[i / 4] >> (8 * (i % 4)));
}
// One bit per byte (strobes).
template <class T>
void bits_out(const T& v, uint8_t* out, size_t n) {
  const uint64_t x = uint64_t(v);
  for (size_t i = 0; i < n; i++) out[i] = uint8_t((x >> i) & 1);
}
template <std::size_t N>
void bits_out(const VlWide<N>& v, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = uint8_t((v[i / 32] >> (i % 32)) & 1);
}

template <class T>
void bytes_in(T& v, const uint8_t* in, size_t n) {
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) x |= uint64_t(in[i]) << (8 * i);
  v = T(x);
}
template <std::size_t N>
void bytes_in(VlWide<N>& v, const uint8_t* in, size_t n) {
  for (size_t w = 0; w < N; w++) v[w] = 0;
  for (size_t i = 0; i < n; i++) v[i / 4] |= uint32_t(in[i]) << (8 * (i % 4));
}

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
    p_.arch_id = cfg_[0];
    p_.lanes = cfg_[1] >> 24;
    p_.warps = (cfg_[1] >> 16) & 0xFF;
    p_.regs = (cfg_[1] >> 8) & 0xFF;
    p_.stack_depth = cfg_[1] & 0xFF;
    p_.rf_depth = cfg_[2];
    p_.shared_bytes = cfg_[3];
    p_.banks = cfg_[4] >> 24;
    p_.cta_slots = (cfg_[4] >> 16) & 0xFF;
    p_.fpu_latency = (cfg_[4] >> 8) & 0xFF;
    p_.ic_lines = cfg_[4] & 0xFF;
    p_.line_bytes = cfg_[5];
    p_.id_bits = cfg_[6] >> 24;
    p_.windows = (cfg_[6] >> 16) & 0xFF;
    p_.smid = (cfg_[6] >> 8) & 0xFF;
    p_.version = cfg_[6] & 0xFF;
  }
  ~VerilatedSm() override { top_->final(); }

  SmParams params() override { return p_; }

  void set_reset(bool asserted) override { top_->rst_ni = asserted ? 0 : 1; }

  void set_launch(bool valid, const std::array<uint32_t, kLaunchWords>& desc, bool gto) override {
    top_->launch_valid_i = valid;
    for (int i = 0; i < kLaunchWords; i++) top_->launch_i[i] = desc[i];
    top_->sched_gto_i = gto;
  }

  void set_mem(bool req_ready, bool rsp_valid, uint32_t rsp_id, const uint8_t* rsp_data) override {
    top_->mem_req_ready_i = req_ready;
    top_->mem_rsp_valid_i = rsp_valid;
    top_->mem_rsp_id_i = rsp_id;
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

  SmCounters counters() override {
    SmCounters c;
    c.cycles = top_->cnt_cycles_o;
    c.instrs = top_->cnt_instrs_o;
    c.stalls = top_->cnt_stalls_o;
    c.smem_passes = top_->cnt_smem_passes_o;
    c.gmem_reqs = top_->cnt_gmem_reqs_o;
    c.ifills = top_->cnt_ifills_o;
    for (int s = 0; s < kNumWarpStates; s++) c.state_cycles[s] = get_bits(top_->cnt_states_o, 64 * s, 64);
    c.divergent_branches = get_bits(top_->cnt_events_o, 0, 64);
    c.barrier_releases = get_bits(top_->cnt_events_o, 64, 64);
    c.thread_instrs = get_bits(top_->cnt_events_o, 128, 64);
    c.ctas = get_bits(top_->cnt_events_o, 192, 64);
    return c;
  }

  void warp_states(std::vector<uint8_t>* out) override {
    out->resize(p_.warps);
    for (uint32_t w = 0; w < p_.warps; w++) (*out)[w] = uint8_t(get_bits(top_->warp_state_o, 3 * int(w), 3));
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
