#include "sim/harness/sm_harness.h"

#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "sim/harness/sm_config_layout.h"

namespace baresm::sim {

namespace {
namespace L = launch_layout;

// Copy k of field f of the descriptor (contract/launch.def).
void put(std::array<uint32_t, kLaunchWords>& d, L::Field f, uint64_t v, int k = 0) {
  const int lsb = L::lsb(f) + k * L::kFields[f].bits;
  for (int i = 0; i < L::kFields[f].bits; i++) {
    const int b = lsb + i;
    const uint32_t bit = uint32_t((v >> i) & 1);
    d[b / 32] = (d[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
  }
}

uint64_t get(const std::array<uint32_t, kLaunchWords>& d, L::Field f, int k = 0) {
  const int lsb = L::lsb(f) + k * L::kFields[f].bits;
  uint64_t v = 0;
  for (int i = 0; i < L::kFields[f].bits; i++) {
    const int b = lsb + i;
    v |= uint64_t((d[b / 32] >> (b % 32)) & 1) << i;
  }
  return v;
}
}  // namespace

std::array<uint32_t, kLaunchWords> pack_launch(const SmLaunch& l) {
  std::array<uint32_t, kLaunchWords> d{};
  put(d, L::ENTRY_PC, l.entry_pc);
  put(d, L::CODE_BASE, l.code_base);
  put(d, L::CODE_SIZE, l.code_size);
  put(d, L::GRID_X, l.grid.x);
  put(d, L::GRID_Y, l.grid.y);
  put(d, L::GRID_Z, l.grid.z);
  put(d, L::BLOCK_X, l.block.x);
  put(d, L::BLOCK_Y, l.block.y);
  put(d, L::BLOCK_Z, l.block.z);
  put(d, L::REGS, l.regs);
  put(d, L::SMID, l.smid);
  put(d, L::PARAM_ADDR, l.param_addr);
  put(d, L::PARAM_SIZE, l.param_size);
  put(d, L::SHARED, l.shared_bytes);
  for (size_t w = 0; w < l.windows.size() && w < size_t(kLaunchWindows); w++) {
    put(d, L::WIN_BASE, l.windows[w].base, int(w));
    put(d, L::WIN_SIZE, l.windows[w].size, int(w));
  }
  put(d, L::WATCHDOG, l.watchdog_cycles);
  put(d, L::PROT_BASE, l.protect.base);
  put(d, L::PROT_SIZE, l.protect.size);
  return d;
}

SmLaunch unpack_launch(const std::array<uint32_t, kLaunchWords>& d) {
  SmLaunch l;
  l.entry_pc = uint32_t(get(d, L::ENTRY_PC));
  l.code_base = uint32_t(get(d, L::CODE_BASE));
  l.code_size = uint32_t(get(d, L::CODE_SIZE));
  l.grid = iss::Dim3{uint32_t(get(d, L::GRID_X)), uint32_t(get(d, L::GRID_Y)), uint32_t(get(d, L::GRID_Z))};
  l.block = iss::Dim3{uint32_t(get(d, L::BLOCK_X)), uint32_t(get(d, L::BLOCK_Y)),
                      uint32_t(get(d, L::BLOCK_Z))};
  l.regs = uint32_t(get(d, L::REGS));
  l.smid = uint32_t(get(d, L::SMID));
  l.param_addr = uint32_t(get(d, L::PARAM_ADDR));
  l.param_size = uint32_t(get(d, L::PARAM_SIZE));
  l.shared_bytes = uint32_t(get(d, L::SHARED));
  for (int w = 0; w < kLaunchWindows; w++) {
    const iss::Window win{uint32_t(get(d, L::WIN_BASE, w)), uint32_t(get(d, L::WIN_SIZE, w))};
    if (win.size) l.windows.push_back(win);
  }
  l.watchdog_cycles = get(d, L::WATCHDOG);
  l.protect = iss::Window{uint32_t(get(d, L::PROT_BASE)), uint32_t(get(d, L::PROT_SIZE))};
  return l;
}

iss::LaunchParams model_params(const SmLaunch& l) {
  iss::LaunchParams p;
  p.entry_pc = l.entry_pc;
  p.code_base = l.code_base;
  p.code_size = l.code_size;
  p.grid = l.grid;
  p.block = l.block;
  p.param_addr = l.param_addr;
  p.param_size = l.param_size;
  p.regs_per_thread = l.regs;
  p.shared_bytes = l.shared_bytes;
  p.windows = l.windows;
  p.protect = l.protect;
  p.smid = l.smid;
  return p;
}

namespace {
// Which SmParams member each field of contract/sm_config.def (the layout baresm_sm
// packs config_o with) fills; has_fpu, a bool, is HAS_FPU != 0.
struct ConfigMember {
  sm_config::Field field;
  uint32_t SmParams::*member;
};
constexpr ConfigMember kConfigMembers[] = {
    {sm_config::ARCH_ID, &SmParams::arch_id},        {sm_config::NUM_LANES, &SmParams::lanes},
    {sm_config::NUM_WARPS, &SmParams::warps},        {sm_config::NUM_REGS, &SmParams::regs},
    {sm_config::STACK_DEPTH, &SmParams::stack_depth}, {sm_config::RF_DEPTH, &SmParams::rf_depth},
    {sm_config::SHARED_BYTES, &SmParams::shared_bytes}, {sm_config::NUM_BANKS, &SmParams::banks},
    {sm_config::CTA_SLOTS, &SmParams::cta_slots},    {sm_config::FPU_LATENCY, &SmParams::fpu_latency},
    {sm_config::IC_LINES, &SmParams::ic_lines},      {sm_config::LINE_BYTES, &SmParams::line_bytes},
    {sm_config::ID_BITS, &SmParams::id_bits},        {sm_config::NUM_WINDOWS, &SmParams::windows},
    {sm_config::SMID, &SmParams::smid},              {sm_config::VERSION, &SmParams::version},
    {sm_config::RF_BANKS, &SmParams::rf_banks},      {sm_config::LOAD_SLOTS, &SmParams::load_slots},
    {sm_config::GATHER_DEPTH, &SmParams::gather_depth},
};
static_assert(std::size(kConfigMembers) + 3 == sm_config::kNumFields,
              "contract/sm_config.def: every field but HAS_FPU, SERIAL and ATOMIC_RMW has its SmParams member here");
static_assert(sm_config::kWords == kSmConfigWords, "contract/sm_config.def: config_o is kSmConfigWords words");
}  // namespace

SmParams decode_sm_config(const uint32_t cfg[kSmConfigWords]) {
  SmParams p;
  for (const ConfigMember& m : kConfigMembers) p.*m.member = sm_config::get(cfg, m.field);
  p.has_fpu = sm_config::get(cfg, sm_config::HAS_FPU) != 0;
  p.serial = sm_config::get(cfg, sm_config::SERIAL) != 0;
  p.atomic_rmw = sm_config::get(cfg, sm_config::ATOMIC_RMW) != 0;
  return p;
}

void encode_sm_config(const SmParams& p, uint32_t cfg[kSmConfigWords]) {
  for (int w = 0; w < kSmConfigWords; ++w) cfg[w] = 0;
  for (const ConfigMember& m : kConfigMembers) sm_config::put(cfg, m.field, p.*m.member);
  sm_config::put(cfg, sm_config::HAS_FPU, p.has_fpu ? 1 : 0);
  sm_config::put(cfg, sm_config::SERIAL, p.serial ? 1 : 0);
  sm_config::put(cfg, sm_config::ATOMIC_RMW, p.atomic_rmw ? 1 : 0);
}

SmLaunch launch_from_params(const iss::LaunchParams& p, uint64_t watchdog_cycles) {
  SmLaunch l;
  l.entry_pc = p.entry_pc;
  l.code_base = p.code_base;
  l.code_size = p.code_size;
  l.grid = p.grid;
  l.block = p.block;
  l.regs = p.regs_per_thread;
  l.smid = p.smid;
  l.param_addr = p.param_addr;
  l.param_size = p.param_size;
  l.shared_bytes = p.shared_bytes;
  l.windows = p.windows;
  l.protect = p.protect;
  l.watchdog_cycles = watchdog_cycles;
  return l;
}

std::string SmRunResult::describe() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s, %llu cycles, %llu warp-instrs, IPC %.3f",
                stopped ? "STOPPED by the observer" : timed_out ? "TIMED OUT" : cfg_error ? "config error" : fault.describe().c_str(),
                (unsigned long long)counters.cycles, (unsigned long long)counters.instrs, ipc());
  return buf;
}

SmHarness::SmHarness(std::unique_ptr<SmDut> dut) : dut_(std::move(dut)) {
  params_ = dut_->params();
  reset();
}

void SmHarness::reset() {
  std::array<uint32_t, kLaunchWords> none{};
  dut_->set_reset(true);
  dut_->set_launch(false, none, false);
  dut_->set_mem(false, false, 0, nullptr, false);
  for (int i = 0; i < 4; i++) {
    dut_->eval();
    dut_->clock();
  }
  dut_->set_reset(false);
  dut_->eval();
}

void SmHarness::cycle(MemModel* mm, bool launch_valid, const std::array<uint32_t, kLaunchWords>& desc,
                      bool gto) {
  dut_->set_launch(launch_valid, desc, gto);
  dut_->set_mem(mm->req_ready(), mm->rsp_valid(), mm->rsp().id,
                mm->rsp_valid() ? mm->rsp().rdata.data() : nullptr, mm->rsp_valid() && mm->rsp().error);
  dut_->eval();
  const bool rv = dut_->mem_req(&req_);
  const bool rsp_ready = dut_->mem_rsp_ready();
  if (observer_ && !stop_)
    stop_ = !observer_->on_cycle(cycle_, *dut_, rv && mm->req_ready() ? &req_ : nullptr);
  cycle_++;
  mm->tick(rv, req_, rsp_ready);
  dut_->clock();
}

SmRunResult SmHarness::run(const SmLaunch& launch, std::vector<uint8_t>& mem, const SmRunOptions& opt) {
  SmRunResult r;
  MemModelConfig mc = opt.mem;
  mc.line_bytes = params_.line_bytes;
  MemModel mm(mem, mc, opt.poison);
  const auto desc = pack_launch(launch);
  observer_ = nullptr;  // watches from the cycle after the launch is taken
  cycle_ = 0;
  stop_ = false;

  // Offer the launch until it is taken.
  bool accepted = false;
  uint64_t n = 0;
  while (!accepted && n < opt.max_cycles) {
    dut_->set_launch(true, desc, opt.gto);
    dut_->eval();
    accepted = dut_->status().launch_ready;
    cycle(&mm, true, desc, opt.gto);
    n++;
  }
  observer_ = opt.observer;
  SmStatus st;
  // BARESM_SM_TRACE=N prints the warp states and memory traffic of the first
  // N cycles (debugging aid).
  const char* tr = std::getenv("BARESM_SM_TRACE");
  const uint64_t trace = tr ? std::strtoull(tr, nullptr, 10) : 0;
  std::vector<uint8_t> ws;
  while (n < opt.max_cycles) {
    if (n < trace) {
      dut_->eval();
      dut_->warp_states(&ws);
      std::printf("%6llu ", (unsigned long long)n);
      for (uint8_t w : ws) std::printf("%c", "-RIMSBX"[w & 7]);
      MemRequest q;
      if (dut_->mem_req(&q)) std::printf(" req id=%u op=%d addr=%08x%s", q.id, int(q.op), q.addr, mm.req_ready() ? "" : " (stall)");
      if (mm.rsp_valid()) std::printf(" rsp id=%u", mm.rsp().id);
      std::printf("\n");
    }
    dut_->set_launch(false, desc, opt.gto);  // held until done (the serial SM reads it there)
    dut_->set_mem(mm.req_ready(), mm.rsp_valid(), mm.rsp().id,
                  mm.rsp_valid() ? mm.rsp().rdata.data() : nullptr, mm.rsp_valid() && mm.rsp().error);
    dut_->eval();
    st = dut_->status();
    if (st.done) {
      r.completed = true;
      cycle(&mm, false, desc, opt.gto);
      n++;
      r.counters = dut_->counters();  // through the report port: after the launch's end
      break;
    }
    cycle(&mm, false, desc, opt.gto);
    n++;
    if (stop_) break;
  }
  observer_ = nullptr;
  r.cycles = n;
  r.mem = mm.counters();
  if (stop_ && !r.completed) {
    r.stopped = true;
    r.counters = dut_->counters();
    reset();
    return r;
  }
  if (!r.completed) {
    r.timed_out = true;
    r.counters = dut_->counters();
    reset();
    return r;
  }
  r.cfg_error = st.cfg_error;
  r.fault.kind = iss::FaultKind(st.fault_kind);
  r.fault_fields_clear = st.fault_kind != 0 || (st.fault_cta[0] == 0 && st.fault_cta[1] == 0 && st.fault_cta[2] == 0 &&
                                                st.fault_warp == 0 && st.fault_lane == 0 && st.fault_pc == 0 &&
                                                st.fault_addr == 0 && st.fault_waiting == 0);
  if (!r.fault.ok()) {
    r.fault.cta = iss::Dim3{st.fault_cta[0], st.fault_cta[1], st.fault_cta[2]};
    r.fault.warp = st.fault_warp;
    r.fault.lane = st.fault_lane;
    r.fault.pc = st.fault_pc;
    r.fault.addr = st.fault_addr;
    r.fault.waiting_warps = st.fault_waiting;
  }
  return r;
}

}  // namespace baresm::sim
