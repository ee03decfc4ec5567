// Disassembler. The text it writes assembles back to the same module, byte
// for byte: a word the assembler could not have produced from the text the
// instruction would print as (an illegal opcode, a field the syntax cannot
// express, a register beyond the kernel's .regs, a branch leaving its kernel or
// with a reconvergence point the CFG would not give it) is written as .word.
#include "isa/disasm.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "isa/assembler.h"
#include "isa/cfg.h"

namespace baresm::isa {

namespace {

constexpr int kIndent = 4;  // instructions start at column kIndent + 1

std::string reg(uint8_t r) {
  return r == kRegZero ? "RZ" : "R" + std::to_string(r);
}

std::string pred(uint8_t p, bool neg) {
  std::string s = neg ? "!" : "";
  return s + (p == kPredTrue ? "PT" : "P" + std::to_string(p));
}

std::string hex(uint64_t v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llX", digits, static_cast<unsigned long long>(v));
  return buf;
}

// Small values in decimal (signed), large ones as 32-bit hex.
std::string int_imm(uint32_t v) {
  const int32_t s = int32_t(v);
  if (s > -65536 && s < 65536) return std::to_string(s);
  return hex(v, 8);
}

bool is_float_op(Op op) {
  return op == Op::FADD || op == Op::FSUB || op == Op::FMUL || op == Op::FMIN || op == Op::FMAX ||
         op == Op::FSETP;
}

// A float immediate as a literal the assembler turns back into the same bits;
// NaNs (which have no literal) as hex.
std::string float_imm(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  if ((bits & 0x7F800000u) == 0x7F800000u) {
    if (bits & 0x007FFFFFu) return hex(bits, 8);
    return (bits >> 31) ? "-inf" : "inf";
  }
  for (int prec = 6; prec <= 9; ++prec) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", prec, double(f));
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";  // else it would read as an integer
    float back = std::strtof(s.c_str(), nullptr);
    uint32_t bb;
    std::memcpy(&bb, &back, 4);
    if (bb == bits) return s;
  }
  return hex(bits, 8);
}

std::string b_operand(const Instr& in) {
  if (!in.bimm) return reg(in.rb);
  return is_float_op(in.op) ? float_imm(in.imm) : int_imm(in.imm);
}

// A name in C-style double quotes: \" \\ \n \t \r, other bytes outside
// printable ASCII as \xNN. The result is always one line.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u >= 0x7F) {
      out += hex(u, 2).replace(0, 2, "\\x");
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// What the assembler accepts as a kernel or parameter name.
bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// A kernel or parameter name as printed: an identifier as it is, anything
// else quoted (the assembler rejects that, so the module does not reassemble,
// but no name can forge a line of the text).
std::string name_text(const std::string& s) {
  return is_identifier(s) ? s : quoted(s);
}

// A file name in a comment: as it is when it is printable ASCII, else quoted.
std::string file_text(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F || c == '"' ||
        c == '\\')
      return quoted(s);
  return s;
}

std::string label_name(uint32_t pc) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "L_%04X", pc);
  return buf;
}

// [ra + off]; with ra = RZ the address itself. param_name replaces a plain
// offset for LDC when it names a parameter.
// Atomic offsets are signed 20-bit, so an absolute one is written signed.
std::string mem(uint8_t ra, uint32_t imm, const std::string& param_name, bool signed_abs = false) {
  if (!param_name.empty())
    return ra == kRegZero ? "[PARAM(" + param_name + ")]" : "[" + reg(ra) + " + PARAM(" + param_name + ")]";
  const int64_t off = int32_t(imm);
  if (ra == kRegZero) {
    if (signed_abs && off < 0) return "[-" + std::to_string(-off) + "]";
    return "[" + (imm < 65536 ? std::to_string(imm) : hex(imm, 8)) + "]";
  }
  if (off == 0) return "[" + reg(ra) + "]";
  const uint64_t mag = uint64_t(off < 0 ? -off : off);
  return "[" + reg(ra) + (off < 0 ? " - " : " + ") + (mag < 65536 ? std::to_string(mag) : hex(mag, 1)) + "]";
}

std::string format_instr(const Instr& in, uint32_t pc, const KernelInfo* kernel) {
  const OpInfo& info = op_info(in.op);
  std::string s;
  if (in.pg != kPredTrue || in.pg_neg) s += "@" + pred(in.pg, in.pg_neg) + " ";
  s += mnemonic_text(in);
  std::string ops;
  switch (info.format) {
    case FMT_NONE:
      break;
    case FMT_RB:
      ops = reg(in.rd) + ", " + b_operand(in);
      break;
    case FMT_RA:
      ops = reg(in.rd) + ", " + reg(in.ra);
      break;
    case FMT_RAB:
      ops = reg(in.rd) + ", " + reg(in.ra) + ", " + b_operand(in);
      break;
    case FMT_RABC:
      ops = reg(in.rd) + ", " + reg(in.ra) + ", " + reg(in.rb) + ", " + reg(in.rc);
      break;
    case FMT_SETP:
      ops = pred(in.setp_pd(), false) + ", " + reg(in.ra) + ", " + b_operand(in);
      if (in.setp_pc() != kPredTrue || in.setp_pc_neg()) ops += ", " + pred(in.setp_pc(), in.setp_pc_neg());
      break;
    case FMT_SEL:
      ops = reg(in.rd) + ", " + reg(in.ra) + ", " + b_operand(in) + ", " + pred(in.sel_pc(), in.sel_pc_neg());
      break;
    case FMT_S2R: {
      const char* n = sreg_name(in.mod);
      ops = reg(in.rd) + ", " + (n ? n : "SR_?");
      break;
    }
    case FMT_LD: {
      std::string pname;
      if (in.op == Op::LDC && kernel && in.ra == kRegZero)
        for (const auto& p : kernel->params)
          if (p.offset == in.imm && is_identifier(p.name)) pname = p.name;
      ops = reg(in.rd) + ", " + mem(in.ra, in.imm, pname);
      break;
    }
    case FMT_ST:
      ops = mem(in.ra, in.imm, "") + ", " + reg(in.rd);
      break;
    case FMT_ATOM:
      ops = reg(in.rd) + ", " + mem(in.ra, in.imm, "", true) + ", " + reg(in.rb);
      if ((in.mod & 0xF) == ATOM_CAS) ops += ", " + reg(in.rc);
      break;
    case FMT_VOTE:
      ops = (in.mod == VOTE_BALLOT ? reg(in.rd) : pred(in.rd & 7, false)) + ", " +
            pred(in.vote_pa(), in.vote_pa_neg());
      break;
    case FMT_SHFL:
      ops = reg(in.rd) + ", " + reg(in.ra) + ", " + b_operand(in);
      if (in.shfl_width() != 32) ops += ", " + std::to_string(in.shfl_width());
      break;
    case FMT_BRA:
      ops = label_name(uint32_t(int64_t(pc) + int64_t(in.bra_target_delta()) * kInstrBytes));
      break;
    case FMT_BAR:
      ops = std::to_string(in.bar_id());
      if (in.bar_count() != 0) ops += ", " + std::to_string(in.bar_count());
      break;
  }
  if (!ops.empty()) s += " " + ops;
  return s + ";";
}

// The instruction as the assembler would encode the text format_instr prints:
// fields the syntax has no way to write are left at their canonical values.
Instr canonical(const Instr& d) {
  const OpInfo& info = op_info(d.op);
  Instr c;
  c.op = d.op;
  c.pg = d.pg;
  c.pg_neg = d.pg_neg;
  c.mod = d.mod;
  auto b = [&] {
    c.bimm = d.bimm;
    if (d.bimm)
      c.imm = d.imm;
    else
      c.rb = d.rb;
  };
  switch (info.format) {
    case FMT_NONE:
      break;
    case FMT_RB:
      c.rd = d.rd;
      b();
      break;
    case FMT_RA:
      c.rd = d.rd;
      c.ra = d.ra;
      break;
    case FMT_RAB:
    case FMT_SETP:
    case FMT_SEL:
    case FMT_SHFL:
      c.rd = d.rd;
      c.ra = d.ra;
      b();
      break;
    case FMT_RABC:
      c.rd = d.rd;
      c.ra = d.ra;
      c.rb = d.rb;
      c.rc = d.rc;
      break;
    case FMT_S2R:
      c.rd = d.rd;
      break;
    case FMT_LD:
    case FMT_ST:
      c.bimm = true;
      c.rd = d.rd;
      c.ra = d.ra;
      c.imm = d.imm;
      break;
    case FMT_ATOM:
      c.rd = d.rd;
      c.ra = d.ra;
      c.rb = d.rb;
      c.imm = d.imm;
      if ((d.mod & 0xF) == ATOM_CAS) c.rc = d.rc;
      break;
    case FMT_VOTE:
      c.rd = d.mod == VOTE_BALLOT ? d.rd : (d.rd & 7);
      c.ra = d.ra & 15;
      break;
    case FMT_BRA:
      c.bimm = true;
      c.imm = d.imm;
      break;
    case FMT_BAR:
      c.bimm = true;
      c.imm = d.imm & 0xFFFF000Fu;
      break;
  }
  return c;
}

// Every general register the printed form names (RZ excluded).
std::vector<uint8_t> regs_used(const Instr& in) {
  const OpInfo& info = op_info(in.op);
  std::vector<uint8_t> r;
  switch (info.format) {
    case FMT_NONE:
    case FMT_BRA:
    case FMT_BAR:
      break;
    case FMT_RB:
      r = {in.rd};
      break;
    case FMT_RA:
      r = {in.rd, in.ra};
      break;
    case FMT_RAB:
    case FMT_SEL:
    case FMT_SHFL:
      r = {in.rd, in.ra};
      break;
    case FMT_SETP:
      r = {in.ra};
      break;
    case FMT_RABC:
      r = {in.rd, in.ra, in.rb, in.rc};
      break;
    case FMT_S2R:
      r = {in.rd};
      break;
    case FMT_LD:
    case FMT_ST:
      r = {in.rd, in.ra};
      break;
    case FMT_ATOM:
      r = {in.rd, in.ra, in.rb, in.rc};
      break;
    case FMT_VOTE:
      if (in.mod == VOTE_BALLOT) r = {in.rd};
      break;
  }
  if ((info.format == FMT_RB || info.format == FMT_RAB || info.format == FMT_SETP || info.format == FMT_SEL ||
       info.format == FMT_SHFL) &&
      !in.bimm)
    r.push_back(in.rb);
  r.erase(std::remove(r.begin(), r.end(), uint8_t(kRegZero)), r.end());
  return r;
}

uint32_t default_align(uint32_t size) {
  uint32_t a = 1;
  while (a < std::min<uint32_t>(size, 8)) a <<= 1;
  return a;
}

class Writer {
 public:
  void line(const std::string& s) {
    out_ += s;
    out_ += '\n';
    ++lines_;
  }
  int next_line() const { return lines_ + 1; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  int lines_ = 0;
};

std::string pad_comment(std::string s, const std::string& comment) {
  if (s.size() < 40)
    s.resize(40, ' ');
  else
    s += ' ';
  return s + "// " + comment;
}

}  // namespace

std::string disassemble_instr(const Instr& in, uint32_t pc) {
  return format_instr(in, pc, nullptr);
}

std::string disassemble(const Module& m) {
  return disassemble(m, DisasmOptions{});
}

std::string disassemble(const Module& m, const DisasmOptions& opts) {
  Writer w;
  w.line("// baresm disassembly of " +
         (m.source_name.empty() ? std::string("<unnamed>") : file_text(m.source_name)));
  const uint64_t code_bytes = uint64_t(m.code.size()) * kInstrBytes;

  // Things the assembler cannot reproduce are reported as comments; the text
  // still assembles, but not to the same bytes.
  std::vector<std::string> warnings;
  uint64_t expect_entry = 0;
  uint32_t max_regs = 0, max_shared = 0;
  for (const auto& k : m.kernels) {
    if (k.entry != expect_entry)
      warnings.push_back("kernel " + name_text(k.name) + " does not start where the previous one ends");
    if (!is_identifier(k.name)) warnings.push_back("kernel name " + quoted(k.name) + " is not an identifier");
    for (const auto& p : k.params)
      if (!is_identifier(p.name))
        warnings.push_back("parameter name " + quoted(p.name) + " of kernel " + name_text(k.name) +
                           " is not an identifier");
    expect_entry = uint64_t(k.entry) + k.code_bytes;
    max_regs = std::max(max_regs, k.regs);
    max_shared = std::max(max_shared, k.shared_bytes);
  }
  if (expect_entry != code_bytes) warnings.push_back("the kernels do not cover the code exactly");
  if (m.target.arch_id != kArchId || m.target.max_regs != max_regs || m.target.max_shared_bytes != max_shared)
    warnings.push_back("the module target is not what the assembler derives from the kernels");
  if (m.version_major != kModuleVersionMajor || m.version_minor != kModuleVersionMinor)
    warnings.push_back("module version " + std::to_string(m.version_major) + "." +
                       std::to_string(m.version_minor));
  bool lines_exact = m.lines.size() == m.code.size();
  for (size_t i = 0; lines_exact && i < m.lines.size(); ++i) lines_exact = m.lines[i].pc == i * kInstrBytes;
  if (!lines_exact && opts.line_info)
    warnings.push_back("the line table does not hold one entry per instruction");
  for (const auto& s : warnings) w.line("// warning: " + s);

  for (const auto& k : m.kernels) {
    w.line("");
    w.line(".kernel " + name_text(k.name));
    uint64_t end = 0;
    bool packed = true;
    for (const auto& p : k.params) {
      std::string s = ".param " + name_text(p.name) + ", " + std::to_string(p.size);
      if (p.align != default_align(p.size)) s += ", " + std::to_string(p.align);
      w.line(pad_comment(s, "offset " + std::to_string(p.offset)));
      const uint64_t off = p.align ? (end + p.align - 1) / p.align * p.align : end;
      if (off != p.offset) packed = false;
      end = off + p.size;
    }
    if ((end + 3) / 4 * 4 != k.param_bytes) packed = false;
    if (!packed) w.line("// warning: parameter offsets/param_bytes differ from natural packing");
    w.line(".regs " + std::to_string(k.regs));
    if (k.shared_bytes) w.line(".shared " + std::to_string(k.shared_bytes));
    if (k.local_bytes)
      w.line(pad_comment(".local " + std::to_string(k.local_bytes),
                         "bytes per thread; frame base: hidden parameter at offset " +
                             std::to_string(k.param_bytes)));

    // The kernel's words, clipped to the code.
    const uint64_t first = std::min<uint64_t>(k.entry / kInstrBytes, m.code.size());
    const uint64_t count = std::min<uint64_t>(k.code_bytes / kInstrBytes, m.code.size() - first);
    const uint64_t* words = m.code.data() + first;
    const std::vector<int64_t> reconv = reconvergence_deltas(words, size_t(count));
    if (can_fall_off_end(words, size_t(count)))
      w.line("// warning: this kernel can fall through past its last instruction");

    // Decide per word: instruction text, or .word with the reason.
    std::vector<std::string> text(count), why(count);
    std::set<uint64_t> targets;  // kernel-relative instruction indices
    for (uint64_t i = 0; i < count; ++i) {
      const uint32_t pc = uint32_t((first + i) * kInstrBytes);
      auto d = decode(words[i]);
      if (!d) {
        why[i] = "not an instruction";
        continue;
      }
      if (encode(canonical(*d)) != words[i]) {
        why[i] = "fields the syntax cannot express";
        continue;
      }
      bool regs_ok = true;
      for (uint8_t r : regs_used(*d)) regs_ok = regs_ok && r < k.regs;
      if (!regs_ok) {
        why[i] = "register beyond .regs";
        continue;
      }
      if (d->op == Op::BRA) {
        const int64_t t = int64_t(i) + d->bra_target_delta();
        if (t < 0 || t >= int64_t(count)) {
          why[i] = "branch leaves the kernel";
          continue;
        }
        if (d->bra_reconv_delta() != reconv[i]) {
          why[i] = "reconvergence point differs from the CFG's";
          continue;
        }
        targets.insert(uint64_t(t));
      }
      text[i] = format_instr(*d, pc, &k);
    }
    for (uint64_t i = 0; i < count; ++i) {
      const uint32_t pc = uint32_t((first + i) * kInstrBytes);
      if (targets.count(i)) w.line(label_name(pc) + ":");
      if (opts.line_info && lines_exact) {
        const LineEntry& e = m.lines[first + i];
        if (e.line != uint32_t(w.next_line()) || e.column != uint32_t(kIndent + 1))
          w.line(std::string(kIndent, ' ') + ".loc " + std::to_string(e.line) + ", " +
                 std::to_string(e.column));
      }
      std::string s = std::string(kIndent, ' ');
      std::string src;  // the source line it came from, when asked for
      if (!opts.line_info && opts.source_lines && (first + i) < m.lines.size()) {
        const uint32_t l = m.lines[first + i].line;
        if (l >= 1 && l <= opts.source_lines->size()) {
          std::string t;  // the line with its runs of blanks as one space
          for (char c : (*opts.source_lines)[l - 1]) {
            const bool blank = c == ' ' || c == '\t' || c == '\r';
            if (!blank)
              t += c;
            else if (!t.empty() && t.back() != ' ')
              t += ' ';
          }
          while (!t.empty() && t.back() == ' ') t.pop_back();
          src = " | " + std::to_string(l) + ": " + printable(t);
          if (opts.origin_lines && l < opts.origin_lines->size() && !(*opts.origin_lines)[l].empty())
            src += " | " + printable((*opts.origin_lines)[l]);
        }
      }
      if (text[i].empty())
        w.line(pad_comment(s + ".word " + hex(words[i], 16), hex(pc, 4) + ": " + why[i] + src));
      else if (reconv[i] != 0)  // where the assembler made the paths of this branch join
        w.line(pad_comment(s + text[i], hex(pc, 4) + ", joins at " +
                                            hex(uint64_t(pc + reconv[i] * kInstrBytes), 4) + src));
      else
        w.line(pad_comment(s + text[i], hex(pc, 4) + src));
    }
    w.line(".end");
  }
  return w.take();
}

}  // namespace baresm::isa
