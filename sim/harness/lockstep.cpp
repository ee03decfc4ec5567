#include "sim/harness/lockstep.h"

#include <algorithm>
#include <cstdio>

#include "isa/disasm.h"
#include "sim/harness/coverage.h"

namespace baresm::sim {

namespace {
std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}
uint64_t key(uint32_t slot, uint32_t reg) { return uint64_t(slot) << 8 | reg; }
}  // namespace

LockstepChecker::LockstepChecker(const std::vector<uint8_t>& mem, const iss::LaunchParams& p, const SmParams& sm)
    : p_(p), sm_(sm), mem_(uint32_t(mem.size())) {
  mem_.bytes() = mem;
  p_.instr_budget = 0;  // the RTL's watchdog counts cycles: checked at the end
  beats_ = 32 / (sm_.lanes ? sm_.lanes : 32);
  entries_per_warp_ = p_.regs_per_thread * beats_;
  iss::ModelConfig mc;
  mc.stack_depth = sm_.stack_depth;
  mc.smid = sm_.smid;
  mc.has_fpu = sm_.has_fpu;
  model_ = std::make_unique<iss::LockstepModel>(mem_, mc, p_);
  slots_.assign(sm_.warps, SlotInfo{});
}

LockstepChecker::~LockstepChecker() = default;

uint32_t LockstepChecker::linear(const uint32_t c[3]) const {
  return c[0] + p_.grid.x * (c[1] + p_.grid.y * c[2]);
}

std::string LockstepChecker::where(const Origin& o) const {
  const uint32_t gx = p_.grid.x, gy = p_.grid.y;
  char b[160];
  std::snprintf(b, sizeof b, "CTA (%u,%u,%u) warp %u (slot %u) pc 0x%08x `%s` (issued at cycle %llu)",
                o.cta % gx, (o.cta / gx) % gy, o.cta / (gx * gy), o.warp, o.slot, o.pc,
                isa::disassemble_instr(o.instr, o.pc).c_str(), (unsigned long long)o.cycle);
  return b;
}

void LockstepChecker::mismatch(uint64_t cycle, const Origin* from, const std::string& what) {
  if (!error_.empty()) return;  // the first difference is the one to act on
  error_ = "lockstep mismatch at cycle " + std::to_string(cycle);
  if (from) error_ += ": " + where(*from);
  error_ += "\n  " + what;
}

bool LockstepChecker::on_cycle(uint64_t cycle, SmDut& dut, const MemRequest* accepted) {
  if (!error_.empty()) return false;
  SmTrace t;
  dut.trace(&t);
  dut.warp_states(&states_);
  for (uint8_t st : states_) state_cycles_[st % kNumWarpStates]++;
  return check_cycle(cycle, t, accepted);
}

bool LockstepChecker::check_cycle(uint64_t cycle, const SmTrace& t, const MemRequest* accepted) {
  if (!error_.empty()) return false;
  // Writes this cycle belong to instructions issued before it.
  for (int k = 0; k < t.rf_writes; k++) on_rf_write(cycle, t.rf[k]);
  for (int k = 0; k < t.pred_writes; k++) on_pred_write(cycle, t.pw[k]);
  if (accepted && accepted->op == MemOp::WRITE) on_store(cycle, *accepted);
  if (t.issue) on_issue(cycle, t);
  return error_.empty();
}

void LockstepChecker::on_issue(uint64_t cycle, const SmTrace& t) {
  if (t.slot >= slots_.size()) return mismatch(cycle, nullptr, "grant to slot " + std::to_string(t.slot) + " of " +
                                                                   std::to_string(slots_.size()));
  Origin o;
  o.cycle = cycle;
  o.cta = linear(t.cta);
  o.warp = t.wic;
  o.slot = t.slot;
  o.pc = t.pc;
  slots_[t.slot] = SlotInfo{true, o.cta, o.warp, o};
  if (model_->faulted()) return;  // after the model's fault only the RTL's report is left to check
  stats_.issues++;
  const auto v = model_->warp(o.cta, o.warp);
  char b[200];
  if (!v.exists) {
    std::snprintf(b, sizeof b, "the RTL issued warp %u of CTA %u at pc 0x%08x; the grid has no such warp", o.warp,
                  o.cta, t.pc);
    return mismatch(cycle, nullptr, b);
  }
  if (v.exited || v.waiting) {
    std::snprintf(b, sizeof b, "the RTL issued warp %u of CTA %u at pc 0x%08x; in the model it %s", o.warp, o.cta,
                  t.pc, v.exited ? "has exited" : "waits at a barrier");
    return mismatch(cycle, nullptr, b);
  }
  if (v.pc != t.pc || v.mask != t.tmask) {
    std::snprintf(b, sizeof b, "warp %u of CTA %u issues pc %s lanes %s; the model is at pc %s lanes %s", o.warp,
                  o.cta, hex(t.pc).c_str(), hex(t.tmask).c_str(), hex(v.pc).c_str(), hex(v.mask).c_str());
    return mismatch(cycle, nullptr, b);
  }
  stats_.max_resident_ctas =
      std::max<uint64_t>(stats_.max_resident_ctas, model_->ctas_started() - model_->ctas_finished());
  iss::RetireEvent ev;
  const bool stepped = model_->step(o.cta, o.warp, &ev);
  o.instr = ev.instr;
  slots_[t.slot].last = o;
  if (!stepped) {
    if (ev.pc == o.pc) {  // the faulting instruction was fetched
      Coverage::get().hit(Coverage::op_bin(ev.instr));
      Coverage::get().hit(Coverage::guard_bin(ev.instr));
    }
    fault_expected_ = true;
    fault_origin_ = o;
    // A fault the model finds at issue time is the RTL's issue fault too (the
    // LSU's and the barrier unit's come later, in the final report).
    const auto k = model_->fault().kind;
    const bool issue_kind = k == iss::FaultKind::ILLEGAL_INSTR || k == iss::FaultKind::INVALID_PC ||
                            k == iss::FaultKind::TRAP || k == iss::FaultKind::STACK_OVERFLOW;
    if (issue_kind != t.issue_fault)
      mismatch(cycle, nullptr,
               std::string("warp ") + std::to_string(o.warp) + " of CTA " + std::to_string(o.cta) + " at pc " +
                   hex(t.pc) + ": the model " + (issue_kind ? "faults" : "does not fault") + " at issue (" +
                   model_->fault().describe() + "), the RTL " + (t.issue_fault ? "does" : "does not"));
    return;
  }
  if (t.issue_fault)
    return mismatch(cycle, &o, "the RTL faults at issue; the model executes the instruction");
  if (ev.exec_mask != t.exec)
    return mismatch(cycle, &o, "guard-true lanes: model " + hex(ev.exec_mask) + ", rtl " + hex(t.exec));
  cover_issue(ev, v.depth);
  const bool clock = ev.instr.op == isa::Op::S2R &&
                     (ev.instr.mod == isa::SR_CLOCK || ev.instr.mod == isa::SR_CLOCKHI);
  if (ev.wrote_reg) {
    Pending pw;
    pw.from = o;
    pw.lanes = ev.exec_mask;
    pw.values = ev.reg_values;
    pw.from_device = clock;
    regs_[key(o.slot, ev.rd)].push_back(pw);
  }
  if (ev.wrote_pred) {
    Pending pw;
    pw.from = o;
    pw.lanes = ev.exec_mask;
    for (int l = 0; l < 32; l++) pw.values[l] = (ev.pred_values >> l) & 1;
    preds_[key(o.slot, ev.pd)].push_back(pw);
  }
  if (ev.instr.op == isa::Op::ATOMG && sm_.atomic_rmw) {
    // The SM's own read and write of each lane's word, in lane order: the
    // write is the word the model's atomic left there.
    for (const auto& s : ev.stores)
      for (uint32_t i = 0; i < s.size; i++) stores_[s.addr + i].push_back(StoreByte{uint8_t(s.value >> (8 * i)), o});
  }
  if (ev.instr.op == isa::Op::STG) {
    // Per byte, the value the last lane stored (lanes are applied in order):
    // what a coalescing SM writes. The thread-serial SM writes every lane's
    // value in lane order.
    if (sm_.serial) {
      for (const auto& s : ev.stores)
        for (uint32_t i = 0; i < s.size; i++) stores_[s.addr + i].push_back(StoreByte{uint8_t(s.value >> (8 * i)), o});
    } else {
      std::map<uint32_t, uint8_t> bytes;
      for (const auto& s : ev.stores)
        for (uint32_t i = 0; i < s.size; i++) bytes[s.addr + i] = uint8_t(s.value >> (8 * i));
      for (const auto& [a, v8] : bytes) stores_[a].push_back(StoreByte{v8, o});
    }
  }
}

void LockstepChecker::on_rf_write(uint64_t cycle, const SmTrace::RfWrite& w) {
  const uint32_t slot = w.entry / entries_per_warp_;
  const uint32_t reg = (w.entry % entries_per_warp_) / beats_;
  const uint32_t beat = w.entry % beats_;
  const uint32_t shift = beat * sm_.lanes;
  const uint32_t lanes = sm_.lanes == 32 ? w.lanes : (w.lanes << shift);
  if (lanes == 0) return;
  auto it = regs_.find(key(slot, reg));
  Pending* p = nullptr;
  if (it != regs_.end())
    for (auto& e : it->second)
      if (e.lanes & lanes) {
        p = &e;
        break;
      }
  const SlotInfo si = slot < slots_.size() ? slots_[slot] : SlotInfo{};
  char b[240];
  if (!p) {
    if (model_->faulted()) return;  // issued after the model's fault
    std::snprintf(b, sizeof b,
                  "register-file write to R%u lanes %s of slot %u (CTA %u warp %u) that the model does not make", reg,
                  hex(lanes).c_str(), slot, si.cta, si.warp);
    return mismatch(cycle, nullptr, b + std::string("; the slot last issued ") + where(si.last));
  }
  if ((p->lanes & lanes) != lanes) {
    std::snprintf(b, sizeof b, "R%u written in lanes %s; the model writes lanes %s of them still owed", reg,
                  hex(lanes).c_str(), hex(p->lanes).c_str());
    return mismatch(cycle, &p->from, b);
  }
  for (uint32_t l = 0; l < 32; l++) {
    if (!((lanes >> l) & 1)) continue;
    const uint32_t got = w.data[l - shift];
    stats_.lane_values++;
    if (p->from_device) {
      model_->set_reg(si.cta, si.warp, uint8_t(reg), l, got);
      continue;
    }
    if (got != p->values[l]) {
      std::snprintf(b, sizeof b, "R%u lane %u: expected %s, rtl %s", reg, l, hex(p->values[l]).c_str(),
                    hex(got).c_str());
      return mismatch(cycle, &p->from, b);
    }
  }
  p->lanes &= ~lanes;
  while (!it->second.empty() && it->second.front().lanes == 0) it->second.pop_front();
}

void LockstepChecker::on_pred_write(uint64_t cycle, const SmTrace::PredWrite& w) {
  if (w.mask == 0) return;
  auto it = preds_.find(key(w.slot, w.pd));
  Pending* p = nullptr;
  if (it != preds_.end())
    for (auto& e : it->second)
      if (e.lanes & w.mask) {
        p = &e;
        break;
      }
  char b[200];
  if (!p) {
    if (model_->faulted()) return;
    std::snprintf(b, sizeof b, "write of P%u lanes %s in slot %u that the model does not make", w.pd,
                  hex(w.mask).c_str(), w.slot);
    const SlotInfo si = w.slot < slots_.size() ? slots_[w.slot] : SlotInfo{};
    return mismatch(cycle, nullptr, b + std::string("; the slot last issued ") + where(si.last));
  }
  if ((p->lanes & w.mask) != w.mask) {
    std::snprintf(b, sizeof b, "P%u written in lanes %s; the model writes lanes %s of them still owed", w.pd,
                  hex(w.mask).c_str(), hex(p->lanes).c_str());
    return mismatch(cycle, &p->from, b);
  }
  for (uint32_t l = 0; l < 32; l++) {
    if (!((w.mask >> l) & 1)) continue;
    stats_.lane_values++;
    const uint32_t got = (w.bits >> l) & 1;
    if (got != p->values[l]) {
      std::snprintf(b, sizeof b, "P%u lane %u: expected %u, rtl %u", w.pd, l, p->values[l], got);
      return mismatch(cycle, &p->from, b);
    }
  }
  p->lanes &= ~w.mask;
  while (!it->second.empty() && it->second.front().lanes == 0) it->second.pop_front();
}

void LockstepChecker::on_store(uint64_t cycle, const MemRequest& q) {
  for (size_t i = 0; i < q.wstrb.size(); i++) {
    if (!q.wstrb[i]) continue;
    const uint32_t a = q.addr + uint32_t(i);
    auto it = stores_.find(a);
    char b[200];
    if (it == stores_.end() || it->second.empty()) {
      if (model_->faulted()) continue;
      std::snprintf(b, sizeof b, "global store of byte 0x%02x at %s that the model does not make", q.wdata[i],
                    hex(a).c_str());
      return mismatch(cycle, nullptr, b);
    }
    auto& vals = it->second;
    const StoreByte want = vals.front();
    stats_.store_bytes++;
    if (q.wdata[i] != want.value) {
      std::snprintf(b, sizeof b, "global store at %s: expected byte 0x%02x, rtl 0x%02x", hex(a).c_str(), want.value,
                    q.wdata[i]);
      return mismatch(cycle, &want.from, b);
    }
    vals.pop_front();
    if (it->second.empty()) stores_.erase(it);
  }
}

void LockstepChecker::cover_issue(const iss::RetireEvent& ev, uint32_t depth) {
  Coverage& c = Coverage::get();
  c.hit(Coverage::op_bin(ev.instr));
  c.hit(Coverage::guard_bin(ev.instr));
  c.hit("div_depth/" + std::to_string(depth));
  const isa::Op op = ev.instr.op;
  const uint32_t exec = ev.exec_mask;
  if (exec == 0) return;
  if (op == isa::Op::LDS || op == isa::Op::STS || op == isa::Op::ATOMS) {
    // Passes: the most distinct words any one bank holds; a broadcast: one
    // word read by several lanes.
    std::map<uint32_t, std::vector<uint32_t>> bank_words;
    std::map<uint32_t, int> word_lanes;
    for (uint32_t m = exec; m; m &= m - 1) {
      const uint32_t w = ev.mem_addrs[size_t(__builtin_ctz(m))] / 4;
      auto& words = bank_words[w % (sm_.banks ? sm_.banks : 32)];
      if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
      word_lanes[w]++;
    }
    size_t passes = 0;
    for (const auto& [b, words] : bank_words) passes = std::max(passes, words.size());
    c.hit("smem_passes/" + std::to_string(passes));
    for (const auto& [w, n] : word_lanes)
      if (n > 1) {
        c.hit("smem/broadcast");
        break;
      }
  }
  if (op == isa::Op::LDG || op == isa::Op::STG) {
    std::vector<uint32_t> lines;
    for (uint32_t m = exec; m; m &= m - 1) {
      const uint32_t l = ev.mem_addrs[size_t(__builtin_ctz(m))] / (sm_.line_bytes ? sm_.line_bytes : 128);
      if (std::find(lines.begin(), lines.end(), l) == lines.end()) lines.push_back(l);
    }
    c.hit("gmem_lines/" + std::to_string(lines.size()));
  }
  if (op == isa::Op::BAR) {
    c.hit("bar_id/" + std::to_string(ev.instr.bar_id()));
    c.hit(ev.instr.bar_count() ? "bar/partial" : "bar/all");
  }
}

bool LockstepChecker::finish(const SmRunResult& r, const std::vector<uint8_t>& rtl_mem) {
  Coverage& cov = Coverage::get();
  for (int s = 0; s < kNumWarpStates; s++)
    if (state_cycles_[size_t(s)]) cov.hit(std::string("warp_state/") + kWarpStateNames[s], state_cycles_[size_t(s)]);
  if (!r.fault.ok()) cov.hit(std::string("fault/") + iss::fault_kind_name(r.fault.kind));
  if (!error_.empty()) return false;
  const uint64_t end = r.cycles;
  if (r.timed_out) {
    mismatch(end, nullptr, "the SM did not finish: " + r.describe());
    return false;
  }
  if (r.cfg_error) {
    if (stats_.issues) mismatch(end, nullptr, "the SM reports a configuration error after issuing");
    return ok();
  }
  const iss::FaultInfo& got = r.fault;
  if (fault_expected_) {
    const iss::FaultInfo& want = model_->fault();
    bool same = got.kind == want.kind && got.pc == want.pc && got.cta.x == want.cta.x &&
                got.cta.y == want.cta.y && got.cta.z == want.cta.z;
    if (want.kind == iss::FaultKind::BARRIER_DEADLOCK)
      same = same && got.waiting_warps == want.waiting_warps;
    else
      same = same && got.warp == want.warp && got.lane == want.lane;
    if (want.kind == iss::FaultKind::OUT_OF_WINDOW || want.kind == iss::FaultKind::MISALIGNED)
      same = same && got.addr == want.addr;
    if (!same) mismatch(end, &fault_origin_, "fault: model " + want.describe() + "; rtl " + got.describe());
    return ok();
  }
  if (!got.ok()) {
    if (got.kind == iss::FaultKind::WATCHDOG) {
      // Cycles, not instructions: the model cannot say when; it can say where
      // the reported warp stands.
      // The report may name the instruction the warp issued in the very cycle
      // the watchdog fired (the RTL lets that issue happen).
      const uint32_t c[3] = {got.cta.x, got.cta.y, got.cta.z};
      const auto v = model_->warp(linear(c), got.warp);
      bool issued_then = false;
      for (const auto& si : slots_)
        if (si.valid && si.cta == linear(c) && si.warp == got.warp && si.last.pc == got.pc) issued_then = true;
      if (!v.exists || v.exited || (v.pc != got.pc && !issued_then))
        mismatch(end, nullptr, "watchdog report " + got.describe() + " does not name a live warp where the model has it (pc " +
                                   hex(v.pc) + ")");
      return ok();
    }
    mismatch(end, nullptr, "the RTL reports " + got.describe() + "; the model ran on without a fault");
    return false;
  }
  if (!r.fault_fields_clear) {
    mismatch(end, nullptr, "no fault, but the SM's fault outputs are not all 0 (left from an earlier launch?)");
    return false;
  }
  if (model_->ctas_finished() != model_->ctas_in_grid()) {
    mismatch(end, nullptr, "the RTL completed the grid; the model finished " + std::to_string(model_->ctas_finished()) +
                               " of " + std::to_string(model_->ctas_in_grid()) + " CTAs");
    return false;
  }
  for (const auto* m : {&regs_, &preds_})
    for (const auto& [k, q] : *m)
      if (!q.empty()) {
        const bool pred = m == &preds_;
        mismatch(end, &q.front().from,
                 std::string("the RTL never wrote ") + (pred ? "P" : "R") + std::to_string(k & 0xFF) + " lanes " +
                     hex(q.front().lanes));
        return false;
      }
  if (!stores_.empty()) {
    const auto& [a, q] = *stores_.begin();
    char b[120];
    std::snprintf(b, sizeof b, "the RTL never stored byte 0x%02x at %s (%zu bytes owed)", q.front().value,
                  hex(a).c_str(), stores_.size());
    mismatch(end, &q.front().from, b);
    return false;
  }
  const auto& want = mem_.bytes();
  std::vector<iss::Window> ranges{iss::Window{0, uint32_t(std::min(want.size(), rtl_mem.size()))}};
  if (windows_only_) ranges = p_.windows;
  for (const auto& w : ranges)
    for (size_t i = w.base; i < size_t(w.base) + w.size && i < want.size() && i < rtl_mem.size(); i++)
      if (want[i] != rtl_mem[i]) {
        char b[120];
        std::snprintf(b, sizeof b, "device memory at 0x%08zx: model 0x%02x, rtl 0x%02x", i, want[i], rtl_mem[i]);
        mismatch(end, nullptr, b);
        return false;
      }
  return ok();
}

}  // namespace baresm::sim
