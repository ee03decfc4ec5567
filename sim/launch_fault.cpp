#include "sim/launch_fault.h"

#include <cstdarg>
#include <cstdio>

#include "isa/disasm.h"

namespace baresm::cli {

namespace {

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

__attribute__((format(printf, 2, 3))) void add(std::string* out, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  *out += buf;
}

// "vec_add+0x38: `LDG R5, [R5];` (vec_add.s:31)" for a byte offset into the code.
std::string where(const isa::Module& m, uint32_t off) {
  std::string s = m.offset_name(off);
  const auto in = isa::decode(m.code[off / isa::kInstrBytes]);
  s += in ? ": `" + isa::disassemble_instr(*in, off) + "`" : ": (a word that does not decode)";
  if (const isa::LineEntry* le = m.line_for(off))
    s += " (" + m.source_name + ":" + std::to_string(le->line) + ")";
  return s;
}

// The statement of a source line: no comment, no surrounding blanks.
std::string statement(std::string s) {
  for (const char* c : {"//", "#"}) {
    const size_t p = s.find(c);
    if (p != std::string::npos) s.resize(p);
  }
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

}  // namespace

std::string format_fault(const isa::Module& m, const std::vector<std::string>& source_lines,
                         const drv::LaunchReport& r, drv::DevPtr code_base) {
  std::string out;
  add(&out, "  fault:  %s: %s\n", cq::error_code_name(r.error), cq::error_code_message(r.error));
  // A descriptor the device refused names the check.
  if (r.error == cq::ErrorCode::BAD_DESCRIPTOR) {
    add(&out, "  check:  %s\n", cq::desc_check_name(cq::DescCheck(r.fault_addr)));
    return out;
  }
  // Only an SM fault (the fault table read backwards) has a place in the code.
  iss::FaultInfo f;
  if (!drv::fault_info(r, &f) || f.ok()) return out;
  add(&out, "  where:  cta (%u,%u,%u) warp %u lane %u (thread %u of the CTA)\n", f.cta.x, f.cta.y, f.cta.z,
      f.warp, f.lane, f.warp * 32 + f.lane);
  const uint32_t off = f.pc - code_base;
  if (f.pc >= code_base && off < m.code.size() * isa::kInstrBytes && off % isa::kInstrBytes == 0) {
    add(&out, "  pc:     %s = %s\n", hex32(f.pc).c_str(), where(m, off).c_str());
    const isa::LineEntry* le = m.line_for(off);
    if (le && le->line >= 1 && le->line <= source_lines.size())
      add(&out, "  source: %u: %s\n", le->line, statement(source_lines[le->line - 1]).c_str());
  } else {
    add(&out, "  pc:     %s (outside the module's code at %s)\n", hex32(f.pc).c_str(), hex32(code_base).c_str());
  }
  switch (iss::fault_addr_of(f.kind)) {
    case iss::FaultAddr::NONE:
      break;
    case iss::FaultAddr::ADDRESS:
      add(&out, "  addr:   %s\n", hex32(f.addr).c_str());
      break;
    case iss::FaultAddr::WAITING_WARPS:
      out += "  waiting warps:";
      for (int w = 0; w < 64; ++w)
        if ((f.waiting_warps >> w) & 1) add(&out, " %d", w);
      out += "\n";
      break;
  }
  return out;
}

}  // namespace baresm::cli
