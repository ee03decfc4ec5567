// SmDut over the SM firmware (fw/sm/fwsm.c) compiled for the host: the
// firmware runs in a context of its own, and every call it makes into
// fw/sm/fwsm_hal.h is a hardware operation this file models cycle by cycle
// (the memory port's handshake, the register file, the lane engine's lane
// loop, the trace and the counters). So the whole RTL suite (samples, fault
// samples, directed kernels, random programs, lockstep with the functional
// model) runs the firmware long before the control core does. Its cycle
// counts are this model's, not the board's: each hardware operation takes
// one cycle (the lane loop one per lane), the firmware's own instructions
// none.
#include <ucontext.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "fw/sm/fwsm_hal.h"
#include "isa/isa.h"
#include "sim/harness/launch_layout.h"
#include "sim/harness/sm_dut.h"
#include "sim/harness/sm_harness.h"

namespace baresm::sim {
namespace {

// The board's SM (rtl/configs.txt `serial`; fw/sm/fwsm.c's constants).
constexpr uint32_t kWarps = 4, kRegs = 16, kShared = 2048, kLine = FWSM_LINE_BYTES;
constexpr int NUM_WINDOWS = 4;
enum {
#define BSM_FAULT(name, iss, cuda, field, desc) FAULT_##name,
#define BSM_ERR_STATUS(name, cuda)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};

uint64_t field(const std::array<uint32_t, kLaunchWords>& d, launch_layout::Field f, int k = 0) {
  const int bits = launch_layout::kFields[f].bits;
  const int lsb = launch_layout::lsb(f) + k * bits;
  uint64_t v = 0;
  for (int i = 0; i < bits; i++) v |= uint64_t((d[size_t((lsb + i) / 32)] >> ((lsb + i) % 32)) & 1u) << i;
  return v;
}

class FwSm;
FwSm* g_dut = nullptr;  // the one instance the firmware's HAL calls reach

class FwSm final : public SmDut {
 public:
  FwSm() : stack_(1 << 20) {
    if (g_dut) throw std::runtime_error("fwsm: one firmware SM per process");
    g_dut = this;
    p_.arch_id = isa::kArchId;
    p_.lanes = 1;
    p_.warps = kWarps;
    p_.regs = kRegs;
    p_.stack_depth = 4;
    p_.rf_depth = kWarps * kRegs * 32;
    p_.shared_bytes = kShared;
    p_.banks = 4;
    p_.cta_slots = 1;
    p_.fpu_latency = 3;
    p_.ic_lines = 1;
    p_.line_bytes = kLine;
    p_.id_bits = 3;
    p_.windows = 4;
    p_.version = 1;
    p_.has_fpu = true;  // in firmware (fw/sm/fwsm_fpu.cpp)
    p_.serial = true;
    p_.rf_banks = 1;
    restart();
  }
  ~FwSm() override { g_dut = nullptr; }

  SmParams params() override { return p_; }
  void set_reset(bool asserted) override { rst_ = asserted; }
  void set_launch(bool valid, const std::array<uint32_t, kLaunchWords>& desc, bool) override {
    launch_valid_ = valid;
    desc_ = desc;
  }
  void set_mem(bool req_ready, bool rsp_valid, uint32_t, const uint8_t* rsp_data, bool rsp_err) override {
    req_ready_ = req_ready;
    rsp_valid_ = rsp_valid;
    rsp_err_ = rsp_valid && rsp_err;
    if (rsp_valid && rsp_data) std::memcpy(rsp_data_.data(), rsp_data, kLine);
  }
  void eval() override {}

  void clock() override {
    if (rst_) {
      restart();
      return;
    }
    // The memory port: a request is held until taken; its response ends it.
    if (req_valid_ && req_ready_) {
      req_valid_ = false;
      outstanding_ = true;
      if (busy()) (req_fetch_ ? ctr_.ifills : ctr_.gmem_reqs)++;
    } else if (outstanding_ && rsp_valid_) {
      outstanding_ = false;
      rsp_got_ = true;
      rsp_line_ = rsp_data_;
      rsp_error_ = rsp_err_;
    }
    count_cycle();
    clock_++;
    if (busy()) launch_cycles_++;
    // This cycle's trace and pulses end with it.
    trace_ = SmTrace{};
    done_ = false;
    // The firmware goes on when what it waits for happened.
    bool go = false;
    switch (wait_) {
      case Wait::kCycles: go = --wait_cycles_ == 0; break;
      case Wait::kMem: go = rsp_got_; break;
      case Wait::kLaunch:
        if (launch_valid_) {
          accept();
          go = true;
        }
        break;
      case Wait::kNone: go = true; break;
    }
    if (go) resume();
  }

  SmStatus status() override {
    SmStatus s;
    s.launch_ready = wait_ == Wait::kLaunch;
    s.busy = busy();
    s.done = done_;
    s.cfg_error = cfg_error_;
    s.fault_kind = uint8_t(fault_.kind);
    s.fault_cta[0] = fault_.cta[0];
    s.fault_cta[1] = fault_.cta[1];
    s.fault_cta[2] = fault_.cta[2];
    s.fault_warp = fault_.warp;
    s.fault_lane = fault_.lane;
    s.fault_pc = fault_.pc;
    s.fault_addr = fault_.addr;
    s.fault_waiting = fault_.waiting;
    return s;
  }
  bool mem_req(MemRequest* out) override {
    if (!req_valid_) return false;
    *out = req_;
    return true;
  }
  bool mem_rsp_ready() override { return true; }
  SmCounters counters() override { return ctr_; }
  void warp_states(std::vector<uint8_t>* out) override {
    out->resize(kWarps);
    for (uint32_t w = 0; w < kWarps; w++) (*out)[w] = state_of(w);
  }
  void trace(SmTrace* t) override { *t = trace_; }

  // ---- the HAL, called from the firmware's context ----------------------------------
  void wait_launch(fw_launch_t* l) {
    busy_ = false;
    block(Wait::kLaunch);
    *l = launch_;
  }
  void done(uint32_t cfg_error, const fw_fault_t* f) {
    cfg_error_ = cfg_error != 0;
    fault_ = *f;
    done_ = true;
    cycles(1);
  }
  // The count passes every value once from 0 at the accept: it has reached a
  // nonzero budget exactly when it once equalled it.
  bool watchdog_expired() const { return launch_.watchdog && launch_cycles_ >= launch_.watchdog; }
  uint32_t now() const { return uint32_t(clock_); }
  uint32_t mem(MemOp op, uint32_t addr, uint32_t amo, const uint8_t* wdata, uint32_t strb, uint8_t* line,
               bool fetch) {
    req_ = MemRequest{};
    req_.addr = addr;
    req_.op = op;
    req_.amo = uint8_t(amo);
    req_.wdata.assign(kLine, 0);
    req_.wstrb.assign(kLine, 0);
    if (wdata) std::memcpy(req_.wdata.data(), wdata, kLine);
    for (uint32_t k = 0; k < kLine; k++) req_.wstrb[k] = (strb >> k) & 1u;
    req_fetch_ = fetch;
    req_valid_ = true;
    rsp_got_ = false;
    block(Wait::kMem);
    if (line) std::memcpy(line, rsp_line_.data(), kLine);
    return rsp_error_ ? 1 : 0;
  }
  uint32_t rf_read(uint32_t w, uint32_t r, uint32_t lane) {
    cycles(1);
    return rf_[rf_index(w, r, lane)];
  }
  void rf_write(uint32_t w, uint32_t r, uint32_t lane, uint32_t v, bool traced) {
    rf_[rf_index(w, r, lane)] = v;
    if (traced) {
      trace_.rf_writes = 1;
      // The trace names the entry as the wide SM lays out a launch: warp w's
      // registers at w * regs * 32 (baresm_sm_launch's rf_base).
      trace_.rf[0].entry = (w * launch_.regs + r) * 32 + lane;
      trace_.rf[0].lanes = 1;
      trace_.rf[0].data[0] = v;
    }
    cycles(1);
  }
  uint32_t lane_alu(const fw_lane_op_t& op) {
    uint32_t bits = 0;
    uint32_t tid[3] = {op.tid[0], op.tid[1], op.tid[2]};
    for (uint32_t l = 0; l < 32; l++, tid_next(tid)) {
      if ((op.exec >> l) & 1u) {
        if (op.op == uint32_t(isa::Op::S2R)) {
          const uint32_t v = sreg(op.mod, tid, l);
          if (op.write_rd) rf_write(op.warp, op.rd, l, v, true);
          else cycles(1);
          continue;
        }
        const uint32_t a = op.zero_a ? 0 : rf_[rf_index(op.warp, op.ra, l)];
        const uint32_t b = op.bimm ? op.imm : op.zero_b ? 0 : rf_[rf_index(op.warp, op.rb, l)];
        const uint32_t c = op.zero_c ? 0 : rf_[rf_index(op.warp, op.rc, l)];
        bool setp = false;
        const uint32_t r = alu(op.op, op.mod, a, b, c, (op.sel >> l) & 1u, &setp);
        if (setp) bits |= 1u << l;
        if (op.write_rd) {
          rf_write(op.warp, op.rd, l, r, true);
          continue;
        }
        cycles(1);
      } else if (op.zero_fill) {
        rf_[rf_index(op.warp, op.rd, l)] = 0;
      }
    }
    return bits;
  }
  // The memory loop (rtl/msm/baresm_msm_lsu.sv): every executing lane checked,
  // then accessed one at a time in lane order.
  uint32_t lane_mem(const fw_lane_op_t& op, uint32_t* kind, uint32_t* lane, uint32_t* addr) {
    using isa::Op;
    const Op o = Op(op.op);
    const uint32_t m = op.mod & 7u;
    const bool atom = o == Op::ATOMG || o == Op::ATOMS;
    const uint32_t size = atom || m == isa::LDW_32 ? 4 : m >= isa::LDW_U16 ? 2 : 1;
    const bool global = o == Op::LDG || o == Op::STG || o == Op::ATOMG;
    const bool shared = o == Op::LDS || o == Op::STS || o == Op::ATOMS;
    const bool store = o == Op::STG || o == Op::STS;
    const uint32_t data_reg = store ? op.rd : op.rb;
    auto reg = [&](bool zero, uint32_t r, uint32_t l) { return zero ? 0u : rf_[rf_index(op.warp, r, l)]; };
    auto fault = [&](uint32_t k, uint32_t l, uint32_t a) {
      *kind = k;
      *lane = l;
      *addr = a;
      return 1u;
    };
    for (uint32_t l = 0; l < 32; l++) {
      if (!((op.exec >> l) & 1u)) continue;
      const uint32_t a = reg(op.zero_a, op.ra, l) + op.imm;
      cycles(2);
      if (a & (size - 1)) return fault(FAULT_MISALIGNED, l, a);
      if (global) {
        cycles(NUM_WINDOWS + 1);
        bool ok = false;
        for (int k = 0; k < NUM_WINDOWS; k++)
          if (launch_.win_size[k] && a >= launch_.win_base[k] &&
              uint64_t(a) + size <= uint64_t(launch_.win_base[k]) + launch_.win_size[k])
            ok = true;
        if (launch_.prot_size && uint64_t(a) < uint64_t(launch_.prot_base) + launch_.prot_size &&
            uint64_t(a) + size > launch_.prot_base)
          ok = false;
        if (!ok) return fault(FAULT_OUT_OF_WINDOW, l, a);
      } else if (uint64_t(a) + size > (shared ? launch_.shared : launch_.param_size)) {
        return fault(FAULT_OUT_OF_WINDOW, l, a);
      }
    }
    for (uint32_t l = 0; l < 32; l++) {
      if (!((op.exec >> l) & 1u)) {
        if (op.zero_fill) rf_[rf_index(op.warp, op.rd, l)] = 0;
        cycles(1);
        continue;
      }
      const uint32_t a = reg(op.zero_a, op.ra, l) + op.imm;
      const uint32_t data = reg(op.zero_b, data_reg, l);
      const uint32_t c = reg(op.zero_c, op.rc, l);
      cycles(3);
      const uint32_t bm = (size == 4 ? 0xFu : size == 2 ? 0x3u : 0x1u);
      const uint32_t rep = size == 4 ? data : size == 2 ? (data & 0xFFFFu) * 0x10001u : (data & 0xFFu) * 0x01010101u;
      uint32_t v = 0;
      if (shared) {
        ctr_.smem_passes++;
        uint32_t& w = smem_[(a >> 2) % smem_.size()];
        const uint32_t old = w;
        if (store) {
          for (int k = 0; k < 4; k++)
            if (((bm << (a & 3u)) >> k) & 1u) w = (w & ~(0xFFu << (8 * k))) | (rep & (0xFFu << (8 * k)));
        } else if (atom) {
          w = amo_alu(op.mod & 31u, old, data, c);
          v = old;
        } else {
          v = load_extend(op.mod, old >> ((a & 3u) * 8));
        }
        cycles(1);
      } else {
        const uint32_t ga = o == Op::LDC ? launch_.param_addr + a : a;
        uint8_t line[kLine] = {};
        uint32_t err;
        if (atom) {
          uint8_t w[kLine] = {};
          std::memcpy(w, &data, 4);
          std::memcpy(w + 4, &c, 4);
          err = mem(MemOp::ATOMIC, ga & ~3u, op.mod & 31u, w, 0, line, false);
          std::memcpy(&v, line, 4);
        } else if (store) {
          uint8_t w[kLine];
          for (uint32_t k = 0; k < kLine; k++) w[k] = uint8_t(rep >> (8 * (k & 3u)));
          err = mem(MemOp::WRITE, ga & ~(kLine - 1), 0, w, bm << (ga & (kLine - 1)), nullptr, false);
        } else {
          err = mem(MemOp::READ, ga & ~(kLine - 1), 0, nullptr, 0, line, false);
          const uint32_t wo = ga & (kLine - 1) & ~3u;
          uint32_t word;
          std::memcpy(&word, line + wo, 4);
          v = load_extend(op.mod, word >> ((ga & 3u) * 8));
        }
        if (err) return fault(FAULT_MEMORY_ERROR, l, a);
      }
      if (op.write_rd && !store) rf_write(op.warp, op.rd, l, v, true);
    }
    return 0;
  }

  void smem_clear(uint32_t words) {
    const uint32_t n = words < smem_.size() ? words : uint32_t(smem_.size());
    for (uint32_t i = 0; i < n; i++) smem_[i] = 0;
    if (n) cycles(int(n));
  }
  void warps(uint32_t used, uint32_t exited, uint32_t waiting, uint32_t cur, uint32_t in_instr) {
    used_ = used;
    exited_ = exited;
    waiting_ = waiting;
    cur_ = cur;
    in_instr_ = in_instr != 0;
  }
  void set_cta(const uint32_t cta[3]) {
    for (int k = 0; k < 3; k++) cta_[k] = cta[k];
  }
  void issue(bool fault, uint32_t warp, uint32_t pc, uint32_t tmask, uint32_t exec, bool diverge) {
    trace_.issue = true;
    trace_.issue_fault = fault;
    trace_.slot = warp;
    trace_.wic = warp;
    trace_.pc = pc;
    trace_.tmask = tmask;
    trace_.exec = exec;
    for (int k = 0; k < 3; k++) trace_.cta[k] = cta_[k];
    if (!fault) {
      ctr_.instrs++;
      ctr_.thread_instrs += uint64_t(__builtin_popcount(exec));
      if (diverge) ctr_.divergent_branches++;
    }
    cycles(1);
  }
  void pred_write(uint32_t warp, uint32_t pd, uint32_t mask, uint32_t bits) {
    trace_.pred_writes = 1;
    trace_.pw[0].slot = warp;
    trace_.pw[0].pd = pd;
    trace_.pw[0].mask = mask;
    trace_.pw[0].bits = bits;
    cycles(1);
  }
  void event(uint32_t ev) {
    if (ev == EV_BAR_RELEASE) ctr_.barrier_releases++;
    if (ev == EV_CTA_RETIRE) ctr_.ctas++;
  }

 private:
  enum class Wait { kNone, kCycles, kMem, kLaunch };

  static void entry() {
    fwsm_main();  // never returns
  }

  // Back to reset: the firmware starts over at fwsm_main.
  void restart() {
    rf_.assign(kWarps * kRegs * 32, 0);
    smem_.assign(kShared / 4, 0);
    req_valid_ = outstanding_ = rsp_got_ = false;
    busy_ = done_ = cfg_error_ = false;
    fault_ = fw_fault_t{};
    used_ = exited_ = waiting_ = cur_ = 0;
    in_instr_ = false;
    trace_ = SmTrace{};
    getcontext(&fw_);
    fw_.uc_stack.ss_sp = stack_.data();
    fw_.uc_stack.ss_size = stack_.size();
    fw_.uc_link = nullptr;
    makecontext(&fw_, &FwSm::entry, 0);
    wait_ = Wait::kNone;
  }

  void accept() {
    using F = launch_layout::Field;
    fw_launch_t& l = launch_;
    l.entry = uint32_t(field(desc_, F::ENTRY_PC));
    l.code_base = uint32_t(field(desc_, F::CODE_BASE));
    l.code_size = uint32_t(field(desc_, F::CODE_SIZE));
    l.grid[0] = uint32_t(field(desc_, F::GRID_X));
    l.grid[1] = uint32_t(field(desc_, F::GRID_Y));
    l.grid[2] = uint32_t(field(desc_, F::GRID_Z));
    l.block[0] = uint32_t(field(desc_, F::BLOCK_X));
    l.block[1] = uint32_t(field(desc_, F::BLOCK_Y));
    l.block[2] = uint32_t(field(desc_, F::BLOCK_Z));
    l.regs = uint32_t(field(desc_, F::REGS));
    l.smid = uint32_t(field(desc_, F::SMID));
    l.param_addr = uint32_t(field(desc_, F::PARAM_ADDR));
    l.param_size = uint32_t(field(desc_, F::PARAM_SIZE));
    l.shared = uint32_t(field(desc_, F::SHARED));
    l.watchdog = field(desc_, F::WATCHDOG);
    for (int k = 0; k < 8; k++) {
      l.win_base[k] = uint32_t(field(desc_, F::WIN_BASE, k));
      l.win_size[k] = uint32_t(field(desc_, F::WIN_SIZE, k));
    }
    l.prot_base = uint32_t(field(desc_, F::PROT_BASE));
    l.prot_size = uint32_t(field(desc_, F::PROT_SIZE));
    busy_ = true;
    cfg_error_ = false;
    fault_ = fw_fault_t{};
    ctr_ = SmCounters{};
    launch_cycles_ = 0;
  }

  bool busy() const { return busy_ || done_; }

  void count_cycle() {
    if (!busy()) return;
    ctr_.cycles++;
    bool live = false;
    for (uint32_t w = 0; w < kWarps; w++) {
      const uint8_t st = state_of(w);
      ctr_.state_cycles[st % kNumWarpStates]++;
      live = live || (((used_ & ~exited_) >> w) & 1u);
    }
    if (live && !trace_.issue) ctr_.stalls++;
  }

  uint8_t state_of(uint32_t w) const {
    const bool used = (used_ >> w) & 1u, exited = (exited_ >> w) & 1u, waiting = (waiting_ >> w) & 1u;
    const bool mine = in_instr_ && cur_ == w;
    const bool ready = used && !exited && !waiting && !mine;
    if (!used) return 0;                          // WS_IDLE
    if (exited) return 6;                         // WS_EXITED
    if (waiting) return 5;                        // WS_WAIT_BAR
    if (trace_.issue && !trace_.issue_fault && trace_.slot == w) return 2;  // WS_ISSUED
    if (ready) return 1;                          // WS_READY
    if (mine && (req_valid_ || outstanding_)) return 3;  // WS_WAIT_MEM
    return 4;                                     // WS_WAIT_SB
  }

  static uint32_t rf_index(uint32_t w, uint32_t r, uint32_t lane) { return (w * kRegs + r) * 32 + lane; }

  void tid_next(uint32_t t[3]) const {
    if (++t[0] >= launch_.block[0]) {
      t[0] = 0;
      if (++t[1] >= launch_.block[1]) {
        t[1] = 0;
        t[2]++;
      }
    }
  }

  // S2R's special register for lane l (baresm_msm_lane's sreg): only those
  // that differ per lane; the firmware writes the others as a MOV's
  // immediate (fw/sm/fwsm.c s2r_uniform), and they read 0 here as there.
  uint32_t sreg(uint32_t id, const uint32_t tid[3], uint32_t l) const {
    switch (id) {
      case isa::SR_TID_X: return tid[0];
      case isa::SR_TID_Y: return tid[1];
      case isa::SR_TID_Z: return tid[2];
      case isa::SR_LANEID: return l;
      case isa::SR_CLOCK: return uint32_t(clock_);
      case isa::SR_CLOCKHI: return uint32_t(clock_ >> 32);
      default: return 0;
    }
  }

  static uint32_t load_extend(uint32_t mod, uint32_t v) {
    switch (mod & 7u) {
      case isa::LDW_U8: return v & 0xFFu;
      case isa::LDW_S8: return uint32_t(int32_t(int8_t(v)));
      case isa::LDW_U16: return v & 0xFFFFu;
      case isa::LDW_S16: return uint32_t(int32_t(int16_t(v)));
      default: return v;
    }
  }

  // One lane of baresm_ssm_alu (the lane engine's ALU).
  static uint32_t alu(uint32_t op, uint32_t mod, uint32_t a, uint32_t b, uint32_t c, bool sel, bool* setp) {
    using isa::Op;
    switch (Op(op)) {
      case Op::MOV: return b;
      case Op::IADD: return a + b;
      case Op::ISUB: return a - b;
      case Op::IMUL: return a * b;
      case Op::IMULHI:
        return (mod & 1u) ? uint32_t((uint64_t(a) * b) >> 32) : uint32_t((int64_t(int32_t(a)) * int32_t(b)) >> 32);
      case Op::IMAD: return a * b + c;
      case Op::IMIN: return (mod & 1u) ? (a < b ? a : b) : (int32_t(a) < int32_t(b) ? a : b);
      case Op::IMAX: return (mod & 1u) ? (a > b ? a : b) : (int32_t(a) > int32_t(b) ? a : b);
      case Op::IABS: return int32_t(a) < 0 ? 0u - a : a;
      case Op::AND: return a & b;
      case Op::OR: return a | b;
      case Op::XOR: return a ^ b;
      case Op::NOT: return ~a;
      case Op::SHL: return b >= 32 ? 0u : a << b;
      case Op::SHR: return b >= 32 ? 0u : a >> b;
      case Op::SHRA: return b >= 32 ? (int32_t(a) < 0 ? 0xFFFFFFFFu : 0u) : uint32_t(int32_t(a) >> b);
      case Op::POPC:  // the lane engine has no counter (baresm_ssm_alu HasCount = 0): the firmware counts
      case Op::CLZ: return 0;
      case Op::SEL: return sel ? a : b;
      case Op::VOTE: return b;  // BALLOT: the ballot arrives as b
      case Op::ISETP: {
        const bool uns = (mod >> 3) & 1u;
        const bool lt = uns ? a < b : int32_t(a) < int32_t(b), eq = a == b;
        bool r = false;
        switch (mod & 7u) {
          case 0: r = eq; break;
          case 1: r = !eq; break;
          case 2: r = lt; break;
          case 3: r = lt || eq; break;
          case 4: r = !lt && !eq; break;
          default: r = !lt; break;
        }
        const uint32_t comb = (mod >> 4) & 3u;
        *setp = comb == 0 ? (r && sel) : comb == 1 ? (r || sel) : (r != sel);
        return 0;
      }
      default: return 0;
    }
  }

 public:
  static uint32_t amo_alu(uint32_t amo, uint32_t old, uint32_t b, uint32_t c) {
    const bool uns = (amo >> 4) & 1u;
    switch (amo & 15u) {
      case isa::ATOM_ADD: return old + b;
      case isa::ATOM_MIN: return uns ? (old < b ? old : b) : (int32_t(old) < int32_t(b) ? old : b);
      case isa::ATOM_MAX: return uns ? (old > b ? old : b) : (int32_t(old) > int32_t(b) ? old : b);
      case isa::ATOM_EXCH: return b;
      case isa::ATOM_CAS: return old == b ? c : old;
      case isa::ATOM_AND: return old & b;
      case isa::ATOM_OR: return old | b;
      case isa::ATOM_XOR: return old ^ b;
      default: return old;
    }
  }

 private:
  // The firmware stops here until clock() resumes it.
  void block(Wait w) {
    wait_ = w;
    swapcontext(&fw_, &dut_);
  }
  void cycles(int n) {
    wait_cycles_ = n;
    block(Wait::kCycles);
  }
  void resume() {
    wait_ = Wait::kNone;
    swapcontext(&dut_, &fw_);
  }

  SmParams p_;
  std::vector<char> stack_;
  ucontext_t fw_{}, dut_{};
  Wait wait_ = Wait::kNone;
  int wait_cycles_ = 0;

  // Inputs.
  bool rst_ = false, launch_valid_ = false, req_ready_ = false, rsp_valid_ = false, rsp_err_ = false;
  std::array<uint32_t, kLaunchWords> desc_{};
  std::array<uint8_t, kLine> rsp_data_{};

  // The hardware.
  std::vector<uint32_t> rf_, smem_;
  MemRequest req_;
  bool req_valid_ = false, req_fetch_ = false, outstanding_ = false, rsp_got_ = false, rsp_error_ = false;
  std::array<uint8_t, kLine> rsp_line_{};
  fw_launch_t launch_{};
  bool busy_ = false, done_ = false, cfg_error_ = false;
  fw_fault_t fault_{};
  uint32_t used_ = 0, exited_ = 0, waiting_ = 0, cur_ = 0;
  bool in_instr_ = false;
  SmTrace trace_;
  SmCounters ctr_;
  uint64_t clock_ = 0, launch_cycles_ = 0;
  uint32_t cta_[3] = {0, 0, 0};
};

}  // namespace

std::unique_ptr<SmDut> make_sm_dut() { return std::make_unique<FwSm>(); }

}  // namespace baresm::sim

// ---- fw/sm/fwsm_hal.h for the host -------------------------------------------------------
using baresm::sim::g_dut;
using baresm::sim::MemOp;

extern "C" {
void hal_wait_launch(fw_launch_t* l) { g_dut->wait_launch(l); }
void hal_done(uint32_t cfg_error, const fw_fault_t* f) { g_dut->done(cfg_error, f); }
uint32_t hal_watchdog_expired(void) { return g_dut->watchdog_expired() ? 1u : 0u; }
// The launch record is the port's (the model reads it there); no other work.
void hal_launch(const fw_launch_t*) {}
uint32_t hal_service(void) { return 0; }
uint32_t hal_now(void) { return g_dut->now(); }
uint32_t hal_fetch_line(uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]) {
  uint8_t line[FWSM_LINE_BYTES];
  const uint32_t err = g_dut->mem(MemOp::READ, line_addr, 0, nullptr, 0, line, true);
  std::memcpy(words, line, FWSM_LINE_BYTES);
  return err;
}
uint32_t hal_rf_read(uint32_t w, uint32_t r, uint32_t lane) { return g_dut->rf_read(w, r, lane); }
void hal_rf_write(uint32_t w, uint32_t r, uint32_t lane, uint32_t v, uint32_t traced) {
  g_dut->rf_write(w, r, lane, v, traced != 0);
}
uint32_t hal_lane_alu(const fw_lane_op_t* op) { return g_dut->lane_alu(*op); }
uint32_t hal_lane_mem(const fw_lane_op_t* op, uint32_t* kind, uint32_t* lane, uint32_t* addr) {
  return g_dut->lane_mem(*op, kind, lane, addr);
}
void hal_smem_clear(uint32_t words) { g_dut->smem_clear(words); }
void hal_warps(uint32_t used, uint32_t exited, uint32_t waiting, uint32_t cur, uint32_t in_instr) {
  g_dut->warps(used, exited, waiting, cur, in_instr);
}
void hal_cta(const uint32_t cta[3]) { g_dut->set_cta(cta); }
void hal_issue(uint32_t warp, uint32_t pc, uint32_t tmask, uint32_t exec, uint32_t diverge) {
  g_dut->issue(false, warp, pc, tmask, exec, diverge != 0);
}
void hal_issue_fault(uint32_t warp, uint32_t pc, uint32_t tmask) { g_dut->issue(true, warp, pc, tmask, 0, false); }
void hal_pred_write(uint32_t warp, uint32_t pd, uint32_t mask, uint32_t bits) {
  g_dut->pred_write(warp, pd, mask, bits);
}
void hal_event(uint32_t ev) { g_dut->event(ev); }
}
