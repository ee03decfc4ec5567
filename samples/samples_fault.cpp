// The fault samples: each kernel faults in exactly one place, chosen by the
// launch parameters (CTA 1, thread 37 = warp 1 lane 5, of a 3 x 64 grid), and
// stores nothing, so every device must end with the same memory and the
// same report. The expected PC is found in the assembled code (the only TRAP,
// the only STG, ...), never hard-coded.
#include "samples/sample_list.h"

namespace baresm::samples {

namespace {
constexpr uint32_t kCtas = 3, kBlock = 64;
constexpr uint32_t kTargetCta = 1, kTargetTid = 37;

SampleContext::Expect at_target(iss::FaultKind kind, std::vector<uint32_t> pcs) {
  SampleContext::Expect e;
  e.kind = kind;
  e.pcs = std::move(pcs);
  e.cta_x = kTargetCta;
  e.warp = kTargetTid / 32;
  e.lane = kTargetTid % 32;
  return e;
}

std::string target_note() {
  return "fault in cta " + std::to_string(kTargetCta) + " thread " + std::to_string(kTargetTid);
}
}  // namespace

void run_fault_trap(SampleContext& c) {
  const auto& r = c.launch("fault_trap", {kCtas, 1, 1}, {kBlock, 1, 1},
                           {Arg::u32(kTargetCta), Arg::u32(kTargetTid)}, {}, target_note());
  c.expect_fault(r, at_target(iss::FaultKind::TRAP, c.find_op("fault_trap", isa::Op::TRAP)));
}

void run_fault_endless_loop(SampleContext& c) {
  // Every other thread is done after a handful of instructions, so the
  // budget only has to outlast them, on the slowest device too: the firmware
  // SM (rtl/msm, the iCEBreaker's) takes about 1,400-2,000 cycles a
  // warp-instruction and reaches the spin after about 60,000 (CTA 0's two
  // warps, then CTA 1's). 100,000 cycles (warp-instructions on the model)
  // keeps the sample quick on the fast SMs.
  constexpr uint32_t kBudget = 100000;
  const auto& r = c.launch("fault_endless_loop", {kCtas, 1, 1}, {kBlock, 1, 1},
                           {Arg::u32(kTargetCta), Arg::u32(kTargetTid)}, {},
                           target_note() + ", watchdog " + std::to_string(kBudget), kBudget);
  // The spinning instruction is the branch whose target is itself.
  const auto spin = c.find_instrs("fault_endless_loop", [](const isa::Instr* in) {
    return in && in->op == isa::Op::BRA && in->bra_target_delta() == 0;
  });
  c.expect_fault(r, at_target(iss::FaultKind::WATCHDOG, spin));
}

void run_fault_barrier_deadlock(SampleContext& c) {
  const auto& r = c.launch("fault_barrier_deadlock", {kCtas, 1, 1}, {kBlock * 2, 1, 1},
                           {Arg::u32(kTargetCta)}, {}, "deadlock in cta " + std::to_string(kTargetCta));
  // Which of the two waiting warps the report names depends on who arrived
  // last, so either BAR is accepted; the CTA must be the chosen one and
  // exactly warps 0 and 1 must be waiting.
  SampleContext::Expect e;
  e.kind = iss::FaultKind::BARRIER_DEADLOCK;
  e.pcs = c.find_op("fault_barrier_deadlock", isa::Op::BAR);
  e.cta_x = kTargetCta;
  c.expect_fault(r, e);
  if (!r.fault.ok() && r.fault.waiting_warps != 0x3)
    c.fail("expected warps 0 and 1 waiting, waiting_warps = " + hex32(uint32_t(r.fault.waiting_warps)));
}

void run_fault_out_of_window(SampleContext& c) {
  constexpr uint32_t kWords = 100;
  Buffer buf = c.upload(std::vector<uint32_t>(kWords, 0));
  const auto& r = c.launch("fault_out_of_window", {kCtas, 1, 1}, {kBlock, 1, 1},
                           {Arg::ptr(buf), Arg::u32(kWords), Arg::u32(kTargetCta), Arg::u32(kTargetTid)},
                           {buf}, target_note() + ", store to buf[" + std::to_string(kWords) + "]");
  auto e = at_target(iss::FaultKind::OUT_OF_WINDOW, c.find_op("fault_out_of_window", isa::Op::STG));
  e.addr = buf.addr + kWords * 4;
  c.expect_fault(r, e);
  // A faulting store has no effect at all: the buffer is still zero.
  const auto after = c.download<uint32_t>(buf, kWords);
  if (first_mismatch(after, std::vector<uint32_t>(kWords, 0)) >= 0) c.fail("the buffer was modified");
}

void run_fault_misaligned(SampleContext& c) {
  Buffer buf = c.upload(std::vector<uint32_t>(16, 0x11223344u));
  const auto& r = c.launch("fault_misaligned", {kCtas, 1, 1}, {kBlock, 1, 1},
                           {Arg::ptr(buf), Arg::u32(kTargetCta), Arg::u32(kTargetTid)}, {buf},
                           target_note() + ", 32-bit load at buf+2");
  auto e = at_target(iss::FaultKind::MISALIGNED, c.find_op("fault_misaligned", isa::Op::LDG));
  e.addr = buf.addr + 2;
  c.expect_fault(r, e);
}

void run_fault_illegal_opcode(SampleContext& c) {
  const auto& r = c.launch("fault_illegal_opcode", {kCtas, 1, 1}, {kBlock, 1, 1},
                           {Arg::u32(kTargetCta), Arg::u32(kTargetTid)}, {}, target_note());
  // The one word of the kernel that does not decode.
  const auto bad = c.find_instrs("fault_illegal_opcode", [](const isa::Instr* in) { return in == nullptr; });
  c.expect_fault(r, at_target(iss::FaultKind::ILLEGAL_INSTR, bad));
}

}  // namespace baresm::samples
