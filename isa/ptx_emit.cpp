#include "isa/ptx_emit.h"

#include <cctype>
#include <cstdio>

#include "isa/assembler.h"
#include "isa/isa.h"

namespace baresm::isa::ptx {

namespace {

bool assembler_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%X", v);
  return b;
}

std::string reg_text(int phys) {
  return phys == kRegZero ? "RZ" : "R" + std::to_string(phys);
}
std::string pred_text(int phys, bool neg) {
  return std::string(neg ? "!" : "") + (phys == kPredTrue ? "PT" : "P" + std::to_string(phys));
}

std::string operand_text(const MOperand& o, const Allocation& a) {
  switch (o.kind) {
    case MOperand::VREG:
      return reg_text(a.phys[size_t(o.vreg)]);
    case MOperand::VPRED:
      return pred_text(a.phys[size_t(o.vreg)], o.neg);
    case MOperand::RZ:
      return "RZ";
    case MOperand::PT:
      return pred_text(kPredTrue, o.neg);
    case MOperand::IMM:
      return hex(o.imm);
    case MOperand::LABEL:
      return "L" + std::to_string(o.imm);
    case MOperand::SREG:
      return o.sreg;
    case MOperand::MEM: {
      const std::string base = o.vreg < 0 ? "RZ" : reg_text(a.phys[size_t(o.vreg)]);
      const int32_t off = int32_t(o.imm);
      if (off == 0) return "[" + base + "]";
      if (off < 0) return "[" + base + " - " + std::to_string(-int64_t(off)) + "]";
      return "[" + base + " + " + std::to_string(off) + "]";
    }
  }
  return "?";
}

}  // namespace

bool emit_kernel(const MKernel& k, const Allocation& a, std::string* text, std::string* error) {
  if (!assembler_name(k.name)) {
    *error = "kernel name " + quote(k.name) + " cannot be written in a module (letters, digits and '_' only)";
    return false;
  }
  std::string& s = *text;
  s += ".kernel " + k.name + "\n";
  for (const MParam& p : k.params) {
    if (!assembler_name(p.name)) {
      *error =
          "parameter name " + quote(p.name) + " cannot be written in a module (letters, digits and '_' only)";
      return false;
    }
    s += ".param " + p.name + ", " + std::to_string(p.size) + ", " + std::to_string(p.align) + "\n";
  }
  s += ".regs " + std::to_string(std::max(a.regs, 1)) + "\n";
  if (k.shared_bytes) s += ".shared " + std::to_string(k.shared_bytes) + "\n";
  if (k.local_bytes()) s += ".local " + std::to_string(k.local_bytes()) + "\n";
  for (const MInstr& mi : k.code) {
    if (mi.label >= 0) {
      s += "L" + std::to_string(mi.label) + ":  // " + k.labels[size_t(mi.label)] + "\n";
      continue;
    }
    if (mi.mnem == "MOV" && mi.ops[0].kind == MOperand::VREG && mi.ops[1].kind == MOperand::VREG &&
        a.phys[size_t(mi.ops[0].vreg)] == a.phys[size_t(mi.ops[1].vreg)])
      continue;  // a copy the allocator coalesced
    if ((mi.mnem == "MOV" || mi.mnem == "S2R") && mi.ops[0].kind == MOperand::VREG &&
        a.phys[size_t(mi.ops[0].vreg)] == kRegZero)
      continue;  // a value nobody reads (a constant only shfl.sync's operands used)
    s += "    .loc " + std::to_string(mi.pos.line) + ", " + std::to_string(mi.pos.col) + "\n    ";
    if (mi.guard >= 0) s += "@" + pred_text(a.phys[size_t(mi.guard)], mi.guard_neg) + " ";
    s += mi.mnem;
    for (size_t i = 0; i < mi.ops.size(); ++i) s += (i ? ", " : " ") + operand_text(mi.ops[i], a);
    s += ";\n";
  }
  s += ".end\n";
  return true;
}

}  // namespace baresm::isa::ptx
