#include "isa/ptx_lower.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include "isa/isa.h"
#include "isa/ptx.h"
#include "isa/ptx_fpseq.h"
#include "isa/ptx_regalloc.h"

namespace baresm::isa::ptx {

namespace {

struct Unsupported {};

struct RegInfo {
  std::string type;  // declared type: "pred", "b32", "f32", "b64", "b16" ...
  int bits = 0;      // 1 for pred
  int vreg = -1;     // the value; of a 64-bit register, its low word
  // A 64-bit register whose high word some instruction observes
  // (plan_wide): kept as a register pair, the high word in vhi.
  bool wide = false;
  int vhi = -1;
};

bool is_int_type(const std::string& t) {
  return t.size() >= 2 && (t[0] == 'u' || t[0] == 's' || t[0] == 'b');
}
// The width of a type name (0 when it is none): a mutated name such as
// "s-1" must not become a negative width (found by PtxFuzz under UBSan).
int type_bits(const std::string& t) {
  if (t == "pred") return 1;
  if (t.size() < 2 || t.size() > 4) return 0;
  for (size_t i = 1; i < t.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return 0;
  const int b = std::atoi(t.c_str() + 1);
  return b <= 128 ? b : 0;
}

// PTX special registers the device has (docs/isa.md, "Special registers").
const std::map<std::string, std::string>& sregs() {
  static const std::map<std::string, std::string> m = {
      {"%tid.x", "SR_TID.X"},       {"%tid.y", "SR_TID.Y"},       {"%tid.z", "SR_TID.Z"},
      {"%ntid.x", "SR_NTID.X"},     {"%ntid.y", "SR_NTID.Y"},     {"%ntid.z", "SR_NTID.Z"},
      {"%ctaid.x", "SR_CTAID.X"},   {"%ctaid.y", "SR_CTAID.Y"},   {"%ctaid.z", "SR_CTAID.Z"},
      {"%nctaid.x", "SR_NCTAID.X"}, {"%nctaid.y", "SR_NCTAID.Y"}, {"%nctaid.z", "SR_NCTAID.Z"},
      {"%laneid", "SR_LANEID"},     {"%warpid", "SR_WARPID"},     {"%smid", "SR_SMID"},
      {"%clock", "SR_CLOCK"},
  };
  return m;
}

class Lowerer {
 public:
  Lowerer(const Kernel& k, const std::vector<ModuleVar>& vars, DiagSink* d) : k_(k), vars_(vars), d_(d) {}

  MKernel run() {
    m_.name = k_.name;
    m_.pos = k_.pos;
    declare();
    plan_wide();
    plan_contractions();
    for (size_t i = 0; i < k_.body.size(); ++i) {
      const Statement& s = k_.body[i];
      if (s.kind == Statement::LABEL) {
        MInstr li;
        li.label = labels_.at(s.label);
        li.pos = s.pos;
        m_.code.push_back(std::move(li));
        continue;
      }
      cur_ = &s.instr;
      try {
        if (auto r = contract_refused_.find(i); r != contract_refused_.end()) unsupported(r->second);
        if (auto f = contracted_.find(i); f != contracted_.end()) {
          lower_contracted(k_.body[f->second.mul].instr, f->second.mul_operand);
        } else if (!folded_muls_.count(i)) {
          lower(s.instr);  // a folded mul emits nothing: its add is the FFMA
        }
        m_.ptx_instructions++;
      } catch (const Unsupported&) {
      }
    }
    // A kernel that can run past its last instruction ends there, as ptxas
    // ends it: an EXIT at the closing brace (the assembler refuses code
    // that falls through the end of a kernel).
    const MInstr* last = m_.code.empty() ? nullptr : &m_.code.back();
    if (!last || last->mnem.empty() || last->guard >= 0 || !(last->is_exit() || last->is_branch())) {
      MInstr ex;
      ex.mnem = "EXIT";
      ex.pos = k_.body.empty() ? k_.pos : k_.body.back().pos;
      m_.code.push_back(std::move(ex));
    }
    return std::move(m_);
  }

 private:
  const Kernel& k_;
  const std::vector<ModuleVar>& vars_;
  DiagSink* d_;
  // Module-scope .global/.const variables this kernel references (CUDA's
  // __device__ and __constant__ variables): each one's device address is a
  // hidden parameter after the kernel's own (kPtxVarParamPrefix + name),
  // which whoever loads the module fills (the CUDA runtime: the variable's
  // memory, initialised from the PTX). Name -> index in m_.params.
  std::map<std::string, size_t> var_params_;
  MKernel m_;
  std::map<std::string, RegInfo> regs_;
  std::map<std::string, uint32_t> shared_;  // name -> offset
  std::map<std::string, uint32_t> local_;   // .local variables: name -> offset in the thread's frame
  std::map<std::string, size_t> params_;    // name -> index in m_.params
  std::map<std::string, int> labels_;
  // Registers written exactly once, by an unguarded mov of an immediate
  // (how nvcc passes shfl.sync's clamp value and member mask), and how many
  // times each register is read anywhere in the kernel.
  std::map<std::string, uint32_t> consts_;
  std::map<std::string, int> reads_;
  // FMA contraction as ptxas does it (plan_contractions): the add/sub
  // statements that become one FFMA with the mul that feeds them, the muls
  // that then emit nothing, and the pairs refused because what ptxas does
  // with them was not established.
  struct Contraction {
    size_t mul = 0;       // statement index of the mul
    int mul_operand = 0;  // 1 or 2: which source operand of the add/sub is the product
  };
  std::map<size_t, Contraction> contracted_;
  std::set<size_t> folded_muls_;
  std::map<size_t, std::string> contract_refused_;
  const Instruction* cur_ = nullptr;
  // The guard of the PTX instruction being lowered; applied to the
  // instructions that write its results or have side effects, not to the
  // computation of temporaries (which cannot fault).
  int guard_ = -1;
  bool guard_neg_ = false;
  std::string cur_space_;  // the state space of the ld/st being lowered

  [[noreturn]] void fail(Pos p, const std::string& msg) {
    d_->error(p, msg);
    throw Unsupported{};
  }
  [[noreturn]] void unsupported(const std::string& why = "") {
    fail(cur_->pos, "PTX instruction " + quote(cur_->full) + " is not supported" +
                        (why.empty() ? "" : " (" + why + ")"));
  }

  // ---- declarations --------------------------------------------------------------
  void declare() {
    uint32_t off = 0;
    for (const Param& p : k_.params) {
      if (params_.count(p.name)) d_->error(p.pos, "duplicate parameter " + quote(p.name));
      MParam mp;
      mp.name = p.name;
      mp.size = p.size;
      mp.align = std::max<uint32_t>(p.align, 1);
      off = (off + mp.align - 1) / mp.align * mp.align;  // CUDA's layout: each at its own alignment
      mp.offset = off;
      off += mp.size;
      params_[p.name] = m_.params.size();
      m_.params.push_back(mp);
    }
    m_.param_bytes = off;
    for (const RegDecl& r : k_.regs) {
      auto add = [&](const std::string& name) {
        if (regs_.count(name) || sregs().count(name)) {
          d_->error(r.pos, "register " + quote(name) + " is declared twice");
          return;
        }
        RegInfo ri;
        ri.type = r.type;
        ri.bits = type_bits(r.type);
        regs_[name] = ri;
      };
      if (r.count == 0)
        add(r.prefix);
      else
        for (int i = 0; i < r.count; ++i) add(r.prefix + std::to_string(i));
    }
    uint32_t soff = 0;
    for (const SharedVar& v : k_.shared) {
      if (shared_.count(v.name) || params_.count(v.name))
        d_->error(v.pos, "symbol " + quote(v.name) + " is declared twice");
      soff = (soff + v.align - 1) / v.align * v.align;
      shared_[v.name] = soff;
      soff += v.size;
    }
    // Module-scope variables the kernel names (a kernel's own declarations
    // hide them): static .shared ones join its static shared memory; the
    // .extern .shared arrays (CUDA's extern __shared__, all at one address)
    // start after it, at their alignment, and extend over the launch's
    // dynamic shared bytes. The static size is padded to that start, so the
    // CTA's static + dynamic bytes cover the whole dynamic part.
    const std::set<std::string> named = symbols_named();
    uint32_t dyn_align = 0;
    std::vector<const ModuleVar*> module_vars;
    for (const ModuleVar& v : vars_) {
      if (!named.count(v.name) || shared_.count(v.name) || params_.count(v.name)) continue;
      if (v.space != "shared") {
        module_vars.push_back(&v);
      } else if (v.is_extern) {
        if (v.size != 0)
          d_->error(v.pos, "an .extern .shared variable with a size (" + quote(v.name) +
                               ") is not supported: dynamic shared memory is an unsized array");
        dyn_align = std::max(dyn_align, v.align);
      } else {
        soff = (soff + v.align - 1) / v.align * v.align;
        shared_[v.name] = soff;
        soff += v.size;
      }
    }
    if (dyn_align) {
      soff = (soff + dyn_align - 1) / dyn_align * dyn_align;
      for (const ModuleVar& v : vars_)
        if (v.space == "shared" && v.is_extern && named.count(v.name) && !shared_.count(v.name) &&
            !params_.count(v.name))
          shared_[v.name] = soff;
    }
    m_.shared_bytes = soff;
    // The referenced .global/.const variables' addresses, as 4-byte hidden
    // parameters after the kernel's own (device addresses are 32 bits).
    for (const ModuleVar* v : module_vars) {
      if (v->is_extern) {
        d_->error(v->pos, ".extern ." + v->space + " variable " + quote(v->name) +
                              " is defined in another compilation unit (relocatable device code, -rdc): not supported");
        continue;
      }
      const std::string pname = kPtxVarParamPrefix + v->name;
      if (pname.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
          std::string::npos) {
        d_->error(v->pos, "module-scope variable " + quote(v->name) +
                              ": only letters, digits and '_' can name the parameter that carries its address");
        continue;
      }
      MParam mp;
      mp.name = pname;
      mp.size = 4;
      mp.align = 4;
      off = (off + 3) / 4 * 4;
      mp.offset = off;
      off += 4;
      var_params_[v->name] = m_.params.size();
      m_.params.push_back(mp);
    }
    m_.param_bytes = off;
    uint32_t loff = 0;
    for (const SharedVar& v : k_.locals) {
      if (shared_.count(v.name) || local_.count(v.name) || params_.count(v.name))
        d_->error(v.pos, "symbol " + quote(v.name) + " is declared twice");
      loff = (loff + v.align - 1) / v.align * v.align;
      local_[v.name] = loff;
      loff += v.size;
    }
    if (loff > kMaxLocalBytes)
      d_->error(k_.locals.back().pos, "the kernel's .local variables take " + std::to_string(loff) +
                                          " bytes per thread, more than the module's " +
                                          std::to_string(kMaxLocalBytes));
    m_.local_var_bytes = loff;
    std::map<std::string, int> defs;
    for (const Statement& s : k_.body) {
      if (s.kind != Statement::INSTR) continue;
      const Instruction& in = s.instr;
      if (!in.guard.empty()) reads_[in.guard]++;
      const size_t ndst = in.ops.empty() || in.ops[0].kind != Operand::REG ? 0 : 1 + size_t(in.pipe_dst);
      for (size_t i = 0; i < in.ops.size(); ++i) {
        const Operand& o = in.ops[i];
        if (o.kind == Operand::REG && i < ndst) {
          defs[o.name]++;
          if (i == 0 && in.opcode == "mov" && in.guard.empty() && in.ops.size() == 2 &&
              in.ops[1].kind == Operand::IMM && !in.ops[1].is_float && !in.ops[1].is_double)
            consts_[o.name] = uint32_t(uint64_t(in.ops[1].value));
        } else if (o.kind == Operand::REG || (o.kind == Operand::ADDR && o.base_is_reg)) {
          reads_[o.name]++;
        } else if (o.kind == Operand::VEC) {  // written by a vector load, read by a store
          for (const Operand& e : o.elems)
            if (e.kind == Operand::REG) (i == 0 && in.opcode == "ld" ? defs : reads_)[e.name]++;
        }
      }
    }
    for (const auto& [name, n] : defs)
      if (n != 1) consts_.erase(name);
    for (const Statement& s : k_.body) {
      if (s.kind != Statement::LABEL) continue;
      if (labels_.count(s.label)) {
        d_->error(s.pos, "label " + quote(s.label) + " is defined twice");
        continue;
      }
      labels_[s.label] = int(m_.labels.size());
      m_.labels.push_back(s.label);
    }
  }

  // ---- 64-bit values as register pairs (docs/ptx.md "64-bit values") ---------------
  // A 64-bit register is kept as its low word unless an instruction observes
  // its high word: a right shift, a comparison, min/max, a 64-bit store or
  // atomic, popc/clz, mul.hi, unpacking, or an instruction whose own result's
  // high word is observed and which reads the operand's (add, sub, mul.lo,
  // mad, logic, shl, neg, abs, selp, mov, cvt, cvta). Those registers are
  // "wide": every write gives both words. The analysis is by register name,
  // to a fixed point; kernels with no such instruction lower as before.
  void plan_wide() {
    bool changed = true;
    auto need = [&](const Operand& x) {
      if (x.kind == Operand::VEC) {
        for (const Operand& e : x.elems)
          if (e.kind == Operand::REG) {
            auto it = regs_.find(e.name);
            if (it != regs_.end() && it->second.bits == 64 && it->second.type != "f64" && !it->second.wide)
              it->second.wide = changed = true;
          }
        return;
      }
      if (x.kind != Operand::REG) return;
      auto it = regs_.find(x.name);
      if (it == regs_.end() || it->second.bits != 64 || it->second.type == "f64" || it->second.wide) return;
      it->second.wide = changed = true;
    };
    auto wide_reg = [&](const Operand& x) {
      if (x.kind != Operand::REG) return false;
      auto it = regs_.find(x.name);
      return it != regs_.end() && it->second.wide;
    };
    while (changed) {
      changed = false;
      for (const Statement& st : k_.body) {
        if (st.kind != Statement::INSTR) continue;
        const Instruction& in = st.instr;
        const auto& o = in.opcode;
        const auto& ops = in.ops;
        if (in.mods.empty() || ops.empty()) continue;
        const std::string t = in.mods.back();
        const int tb = type_bits(t);
        auto has = [&](const char* m) { return std::find(in.mods.begin(), in.mods.end(), m) != in.mods.end(); };
        auto need_from = [&](size_t first) {
          for (size_t i = first; i < ops.size(); ++i) need(ops[i]);
        };
        const bool dw = wide_reg(ops[0]);
        if (o == "setp" && tb == 64) {
          need_from(in.pipe_dst ? 2 : 1);
        } else if ((o == "min" || o == "max" || o == "div" || o == "rem") && tb == 64) {
          need_from(1);
        } else if (o == "shr" && tb == 64) {
          if (ops.size() > 1) need(ops[1]);
        } else if (o == "st" && tb == 64) {
          need_from(1);
        } else if ((o == "atom" || o == "red") && tb == 64) {
          need_from(o == "red" ? 1 : 2);
        } else if ((o == "popc" || o == "clz") && tb == 64) {
          need_from(1);
        } else if ((o == "mul" && has("hi") && tb == 64) || (o == "abs" && tb == 64)) {
          need_from(1);
        } else if (o == "mov" && ops[0].kind == Operand::VEC && tb == 64) {
          need_from(1);  // unpacking
        } else if (!dw) {
          continue;  // the rest only reads high words to give its own
        } else if (o == "mad" && has("wide")) {
          if (ops.size() > 3) need(ops[3]);
        } else if (o == "mul" && has("wide")) {
        } else if (o == "cvt") {
          if (in.mods.size() >= 2 && type_bits(in.mods[in.mods.size() - 1]) == 64) need_from(1);
        } else if (o == "selp") {
          if (ops.size() > 2) need(ops[1]), need(ops[2]);
        } else if (o == "shl") {
          if (ops.size() > 1) need(ops[1]);
        } else if (o == "mov" || o == "add" || o == "sub" || o == "mul" || o == "mad" || o == "and" || o == "or" ||
                   o == "xor" || o == "not" || o == "neg" || o == "abs" || o == "cvta" || o == "min" || o == "max") {
          need_from(1);
        }
      }
    }
  }

  bool is_wide(const Operand& o) {
    if (o.kind != Operand::REG) return false;
    auto it = regs_.find(o.name);
    return it != regs_.end() && it->second.wide;
  }
  int hi_vreg(const Operand& o) {
    RegInfo& r = reg(o);
    if (r.vhi < 0) r.vhi = new_vreg(false, o.name + ".hi");
    return r.vhi;
  }
  // A 64-bit source as two words: registers, or immediates where `imm_ok`
  // (a b operand); an immediate elsewhere is moved into a temporary. A
  // module variable's address has a zero high word (device addresses are 32 bits).
  struct W64 {
    MOperand lo, hi;
  };
  MOperand in_reg(MOperand m) {
    if (m.kind != MOperand::IMM) return m;
    const int t = new_vreg(false);
    plain("MOV", {MOperand::v(t, true), m});
    return MOperand::v(t);
  }
  W64 src64(const Operand& o, bool imm_ok = false) {
    W64 w;
    if (o.kind == Operand::IMM) {
      if (o.is_float || o.is_double) fail(o.pos, "a float literal where a 64-bit integer is expected");
      w.lo = MOperand::i(uint32_t(uint64_t(o.value)));
      w.hi = MOperand::i(uint32_t(uint64_t(o.value) >> 32));
    } else if (o.kind == Operand::SYMBOL && is_module_var(o)) {
      w.lo = MOperand::v(module_var_address(o));
      w.hi = MOperand::i(0);
    } else {
      w.lo = MOperand::v(reg_of(o, 64));
      if (!is_wide(o))
        fail(o.pos, "internal error: the high word of " + quote(o.name) + " is needed but was not planned");
      w.hi = MOperand::v(hi_vreg(o));
    }
    if (!imm_ok) {
      w.lo = in_reg(w.lo);
      w.hi = in_reg(w.hi);
    }
    return w;
  }
  // Writes a 64-bit destination: the low word always, the high word when
  // the register is wide. Each word is moved from a temporary, so the
  // sources were all read before (a destination may alias a source).
  void def64(const Operand& d, const MOperand& lo, const MOperand& hi) {
    guarded("MOV", {dst(d, 64), lo});
    if (is_wide(d)) guarded("MOV", {MOperand::v(hi_vreg(d), true), hi});
  }
  int tmp() { return new_vreg(false); }
  int ptmp() { return new_vreg(true); }
  static MOperand V(int v, bool d = false) { return MOperand::v(v, d); }
  // r = p ? 1 : 0
  int bit_of(int p) {
    const int r = tmp();
    plain("SEL", {V(r, true), MOperand::rz(), MOperand::i(1), MOperand::p(p, false, true)});
    return r;
  }
  // a + b and a - b over both words (the carry or borrow from the low word).
  W64 add64(const W64& a, const W64& b, bool sub) {
    const MOperand alo = in_reg(a.lo), ahi = in_reg(a.hi);
    const int lo = tmp(), hi = tmp(), c = ptmp();
    plain(sub ? "ISUB" : "IADD", {V(lo, true), alo, b.lo});
    if (sub)
      plain("ISETP.LT.U32.AND", {MOperand::p(c, true), alo, in_reg(b.lo), MOperand::pt()});  // borrow
    else
      plain("ISETP.LT.U32.AND", {MOperand::p(c, true), V(lo), alo, MOperand::pt()});  // carry
    plain(sub ? "ISUB" : "IADD", {V(hi, true), ahi, b.hi});
    plain(sub ? "ISUB" : "IADD", {V(hi, true), V(hi), V(bit_of(c))});
    return {V(lo), V(hi)};
  }
  // The 64-bit product's two words of 32-bit a and b, signed or unsigned.
  W64 mul_wide32(const MOperand& a, const MOperand& b, bool is_signed) {
    const int lo = tmp(), hi = tmp();
    plain("IMUL", {V(lo, true), in_reg(a), b});
    plain(is_signed ? "IMULHI" : "IMULHI.U32", {V(hi, true), in_reg(a), b});
    return {V(lo), V(hi)};
  }
  // The low 64 bits of a 64 x 64-bit product.
  W64 mul64(const W64& a, const W64& b) {
    const int lo = tmp(), hi = tmp();
    const MOperand alo = in_reg(a.lo), blo = in_reg(b.lo), ahi = in_reg(a.hi), bhi = in_reg(b.hi);
    plain("IMUL", {V(lo, true), alo, blo});
    plain("IMULHI.U32", {V(hi, true), alo, blo});
    plain("IMAD", {V(hi, true), alo, bhi, V(hi)});
    plain("IMAD", {V(hi, true), ahi, blo, V(hi)});
    return {V(lo), V(hi)};
  }
  // A 64-bit comparison as a predicate: idx 0..5 = eq ne lt le gt ge. Into
  // a temporary, or with `out` (a predicate operand to define) its last
  // instruction writes out under the PTX instruction's guard.
  int cmp64(int idx, bool is_signed, const W64& a, const W64& b, const MOperand* out = nullptr) {
    static const char* icmp[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    const int p = ptmp();
    auto last = [&](const std::string& mn, MOperand x, MOperand y) {
      if (out)
        guarded(mn, {*out, x, y, MOperand::p(p)});
      else
        plain(mn, {MOperand::p(p, true), x, y, MOperand::p(p)});
    };
    const MOperand alo = in_reg(a.lo), ahi = in_reg(a.hi);
    const std::string hs = is_signed ? "" : ".U32";
    if (idx <= 1) {  // eq: both words equal; ne: either differs
      plain(std::string("ISETP.") + icmp[idx] + ".AND", {MOperand::p(p, true), alo, b.lo, MOperand::pt()});
      last(std::string("ISETP.") + icmp[idx] + (idx == 0 ? ".AND" : ".OR"), ahi, b.hi);
      return p;
    }
    // (a.hi strictly cmp b.hi) or (a.hi == b.hi and a.lo cmp b.lo, unsigned)
    static const char* strict[] = {"", "", "LT", "LT", "GT", "GT"};
    plain(std::string("ISETP.") + icmp[idx] + ".U32.AND", {MOperand::p(p, true), alo, b.lo, MOperand::pt()});
    plain("ISETP.EQ.AND", {MOperand::p(p, true), ahi, b.hi, MOperand::p(p)});
    last(std::string("ISETP.") + strict[idx] + hs + ".OR", ahi, b.hi);
    return p;
  }
  // a >> n (logical or arithmetic) and a << n over both words, for n a
  // register or an immediate; PTX clamps n to 64.
  W64 shift64(const W64& a, const MOperand& n, bool left, bool arith) {
    const MOperand alo = in_reg(a.lo), ahi = in_reg(a.hi);
    const int lo = tmp(), hi = tmp();
    if (n.kind == MOperand::IMM) {
      const uint32_t k = n.imm > 64 ? 64 : n.imm;
      if (k == 0) {
        plain("MOV", {V(lo, true), alo});
        plain("MOV", {V(hi, true), ahi});
      } else if (k < 32 && left) {
        const int x = tmp();
        plain("SHL", {V(hi, true), ahi, MOperand::i(k)});
        plain("SHR", {V(x, true), alo, MOperand::i(32 - k)});
        plain("OR", {V(hi, true), V(hi), V(x)});
        plain("SHL", {V(lo, true), alo, MOperand::i(k)});
      } else if (k < 32) {
        const int x = tmp();
        plain("SHR", {V(lo, true), alo, MOperand::i(k)});
        plain("SHL", {V(x, true), ahi, MOperand::i(32 - k)});
        plain("OR", {V(lo, true), V(lo), V(x)});
        plain(arith ? "SHRA" : "SHR", {V(hi, true), ahi, MOperand::i(k)});
      } else if (left) {  // 32 <= k <= 64 (a shift by 32 or more gives 0 on the device)
        plain("SHL", {V(hi, true), alo, MOperand::i(k - 32)});
        plain("MOV", {V(lo, true), MOperand::i(0)});
      } else {
        plain(arith ? "SHRA" : "SHR", {V(lo, true), ahi, MOperand::i(k == 64 && arith ? 63 - 32 : k - 32)});
        if (arith)
          plain("SHRA", {V(hi, true), ahi, MOperand::i(31)});
        else
          plain("MOV", {V(hi, true), MOperand::i(0)});
      }
      return {V(lo), V(hi)};
    }
    // n in a register: the words that cross are shifted by 32 - n and n - 32,
    // each 0 (or the sign) once its amount is 32 or more (as unsigned).
    const MOperand nr = in_reg(n);
    const int inv = tmp(), over = tmp(), x = tmp(), y = tmp();
    plain("ISUB", {V(inv, true), in_reg(MOperand::i(32)), nr});  // 32 - n
    plain("IADD", {V(over, true), nr, MOperand::i(uint32_t(-32))});  // n - 32
    if (left) {
      plain("SHL", {V(hi, true), ahi, nr});
      plain("SHR", {V(x, true), alo, V(inv)});
      plain("SHL", {V(y, true), alo, V(over)});
      plain("OR", {V(hi, true), V(hi), V(x)});
      plain("OR", {V(hi, true), V(hi), V(y)});
      plain("SHL", {V(lo, true), alo, nr});
      return {V(lo), V(hi)};
    }
    plain("SHR", {V(lo, true), alo, nr});
    plain("SHL", {V(x, true), ahi, V(inv)});
    plain("OR", {V(lo, true), V(lo), V(x)});
    plain(arith ? "SHRA" : "SHR", {V(y, true), ahi, V(over)});
    if (arith) {  // n < 32: the low word as computed; else the high word shifted by n - 32
      const int big = ptmp();
      plain("ISETP.GE.U32.AND", {MOperand::p(big, true), nr, MOperand::i(32), MOperand::pt()});
      plain("SEL", {V(lo, true), V(y), V(lo), MOperand::p(big)});
    } else {
      plain("OR", {V(lo, true), V(lo), V(y)});
    }
    plain(arith ? "SHRA" : "SHR", {V(hi, true), ahi, nr});
    return {V(lo), V(hi)};
  }

  // ---- FMA contraction (docs/ptx.md "FMA contraction") ----------------------------
  // PTX lets the code generator fuse a mul.f32 and an add/sub.f32 without a
  // rounding modifier into one fma, and ptxas does (nvcc's default
  // -fmad=true; -fmad=false writes mul.rn/add.rn, which are never fused).
  // The rule, checked on the GPU (tests/ptx/fma_contract.cu): a
  // mul[.ftz].f32 whose product is read only by add/sub[.ftz].f32 operands
  // in its own basic block, none with a rounding modifier, all with the
  // mul's .ftz, is folded: each of those becomes an FFMA and the mul goes.
  // A product with any other use (a mul, a store, an add in another block)
  // is rounded on its own, and so are all its uses. An add of two such
  // products takes its first operand's. Forms whose treatment by ptxas was
  // not established (.sat, mixed .ftz, other guards, an operand of the mul
  // rewritten before its add) are refused by name rather than rounded
  // differently from the GPU.
  static bool plain_f32(const Instruction& in, const char* op, bool* ftz, bool* sat) {
    if (in.opcode != op || in.mods.empty() || in.mods.back() != "f32") return false;
    *ftz = *sat = false;
    for (size_t i = 0; i + 1 < in.mods.size(); ++i) {
      if (in.mods[i] == "ftz")
        *ftz = true;
      else if (in.mods[i] == "sat")
        *sat = true;
      else
        return false;  // a rounding modifier (or anything else): never contracted
    }
    return true;
  }
  static bool writes(const Instruction& in, const std::string& reg) {
    if (in.ops.empty()) return false;
    const size_t nd = in.ops[0].kind == Operand::REG ? 1 + size_t(in.pipe_dst) : 0;
    for (size_t i = 0; i < nd; ++i)
      if (in.ops[i].name == reg) return true;
    if (in.ops[0].kind == Operand::VEC && (in.opcode == "ld" || in.opcode == "mov"))
      for (const Operand& e : in.ops[0].elems)
        if (e.kind == Operand::REG && e.name == reg) return true;
    return false;
  }
  static bool ends_block(const Instruction& in) {
    return in.opcode == "bra" || in.opcode == "ret" || in.opcode == "exit" || in.opcode == "trap";
  }
  void plan_contractions() {
    std::map<std::string, int> defs;
    std::vector<size_t> muls;  // candidate mul statements, in order
    for (size_t i = 0; i < k_.body.size(); ++i) {
      const Statement& s = k_.body[i];
      if (s.kind != Statement::INSTR) continue;
      const Instruction& in = s.instr;
      if (!in.ops.empty() && in.ops[0].kind == Operand::REG) {
        defs[in.ops[0].name]++;
        if (in.pipe_dst && in.ops.size() > 1) defs[in.ops[1].name]++;
      }
      if (!in.ops.empty() && in.ops[0].kind == Operand::VEC)
        for (const Operand& e : in.ops[0].elems)
          if (e.kind == Operand::REG) defs[e.name]++;
      bool ftz = false, sat = false;
      if (plain_f32(in, "mul", &ftz, &sat) && !sat && in.ops.size() == 3 && in.ops[0].kind == Operand::REG)
        muls.push_back(i);
    }
    // A mul is folded when every read of its product is an add/sub operand
    // in its own basic block; then each of those becomes an FFMA.
    std::map<size_t, std::vector<std::pair<size_t, int>>> uses;  // eligible mul -> (add, operand)
    for (size_t i : muls) {
      const Instruction& mul = k_.body[i].instr;
      const std::string& d = mul.ops[0].name;
      if (defs[d] != 1) continue;
      bool mftz = false, msat = false;
      plain_f32(mul, "mul", &mftz, &msat);
      std::vector<std::pair<size_t, int>> found;
      std::map<size_t, std::string> refusals;
      int reads = 0, add_reads = 0;
      for (size_t x = i + 1; x < k_.body.size(); ++x) {
        const Statement& st = k_.body[x];
        if (st.kind != Statement::INSTR) break;  // a label: the block ends
        const Instruction& in = st.instr;
        int here = 0, at = 0;
        for (size_t q = 0; q < in.ops.size(); ++q)
          if (in.ops[q].kind == Operand::REG && in.ops[q].name == d && !(q == 0 && writes(in, d)))
            here++, at = int(q);
        bool aftz = false, asat = false;
        const bool is_add =
            (plain_f32(in, "add", &aftz, &asat) || plain_f32(in, "sub", &aftz, &asat)) && in.ops.size() == 3;
        if (here && is_add) {
          std::string why;
          if (here != 1)
            why =
                "its two operands are one '" + mul.full + "' product: ptxas's contraction is not established";
          else if (asat || aftz != mftz)
            why = "'" + mul.full + "' feeding '" + in.full +
                  "': ptxas's contraction with .sat or mixed .ftz is not established";
          else if (mul.guard != in.guard || mul.guard_neg != in.guard_neg)
            why = "'" + mul.full + "' feeding it under another guard: ptxas's contraction is not established";
          for (size_t y = i + 1; y < x && why.empty(); ++y)
            for (int q = 1; q <= 2; ++q)
              if (mul.ops[size_t(q)].kind == Operand::REG &&
                  writes(k_.body[y].instr, mul.ops[size_t(q)].name))
                why = "operand " + quote(mul.ops[size_t(q)].name) + " of the '" + mul.full +
                      "' it would be contracted with is written in between";
          if (!why.empty()) refusals[x] = why;
          found.emplace_back(x, at);
          add_reads += here;
        }
        reads += here;
        if (ends_block(in)) break;
      }
      if (found.empty() || reads != reads_[d] || add_reads != reads) continue;  // some other use: not fused
      if (!refusals.empty()) {
        for (const auto& [x, why] : refusals) contract_refused_[x] = why;
        continue;
      }
      uses[i] = std::move(found);
    }
    // Each add takes one product, its first operand's when both are (as ptxas does).
    std::map<size_t, std::pair<size_t, int>> take;  // add -> (mul, operand)
    for (const auto& [i, us] : uses)
      for (const auto& [x, k] : us)
        if (!take.count(x) || k < take[x].second) take[x] = {i, k};
    for (const auto& [i, us] : uses) {
      bool all = true;
      for (const auto& [x, k] : us) all &= take[x].first == i;
      if (all) {
        folded_muls_.insert(i);
      } else if (us.size() > 1) {  // one product lost an add to another, and it has more uses
        contract_refused_[i] =
            "a product used by several adds, one of which also adds another product: "
            "ptxas's contraction is not established";
      }
    }
    for (const auto& [x, mk] : take)
      if (folded_muls_.count(mk.first)) contracted_[x] = Contraction{mk.first, mk.second};
  }
  // add/sub d, P, c  ->  FFMA d, a, b, +-c;  sub d, c, P  ->  FFMA d, -a, b, c
  // (P = a * b of the folded mul): one rounding of the exact a*b +- c, as
  // ptxas's FFMA. .ftz flushes the three operands and the result.
  void lower_contracted(const Instruction& mul, int mul_operand) {
    want_ops(3);
    bool ftz = false, sat = false;
    plain_f32(*cur_, cur_->opcode.c_str(), &ftz, &sat);
    const bool sub = cur_->opcode == "sub";
    int a = fsrc(mul.ops[1], ftz), b = fsrc(mul.ops[2], ftz);
    int c = fsrc(op(mul_operand == 1 ? 2 : 1), ftz);
    auto negate = [&](int v) {
      const int n = new_vreg(false);
      plain("FNEG", {MOperand::v(n, true), MOperand::v(v)});
      return n;
    };
    if (sub && mul_operand == 1) c = negate(c);
    if (sub && mul_operand == 2) a = negate(a);
    const int d = new_vreg(false);
    plain("FFMA", {MOperand::v(d, true), MOperand::v(a), MOperand::v(b), MOperand::v(c)});
    fresult(d, ftz, false);
  }

  // The names the kernel's instructions use as symbols ([name+off] or a bare name).
  std::set<std::string> symbols_named() const {
    std::set<std::string> v;
    for (const Statement& s : k_.body) {
      if (s.kind != Statement::INSTR) continue;
      for (const Operand& o : s.instr.ops) {
        if (o.kind == Operand::SYMBOL || (o.kind == Operand::ADDR && !o.base_is_reg && !o.name.empty()))
          v.insert(o.name);
        for (const Operand& e : o.elems)
          if (e.kind == Operand::SYMBOL) v.insert(e.name);
      }
    }
    return v;
  }
  bool is_module_var(const Operand& o) const { return var_params_.count(o.name) != 0; }
  // A __device__/__constant__ variable where only a .shared/.local one can be.
  void refuse_module_data(const Operand& o, const char* where) {
    if (is_module_var(o))
      fail(o.pos, "module-scope variable " + quote(o.name) + " (a __device__ or __constant__ variable) " + where +
                      " is not supported");
  }
  // The device address of a module-scope .global/.const variable, from its
  // hidden parameter (LDC: one instruction).
  int module_var_address(const Operand& o) {
    const MParam& p = m_.params[var_params_.at(o.name)];
    const int t = new_vreg(false);
    plain("LDC", {MOperand::v(t, true), MOperand::mem(-1, int32_t(p.offset))});
    return t;
  }

  int new_vreg(bool pred, const std::string& name = "") {
    m_.vregs.push_back(MVreg{pred, name});
    return int(m_.vregs.size()) - 1;
  }

  RegInfo& reg(const Operand& o) {
    auto it = regs_.find(o.name);
    if (it == regs_.end()) {
      if (sregs().count(o.name))
        fail(o.pos, "special register " + quote(o.name) + " may only be read by mov");
      fail(o.pos, quote(o.name) + " is not a declared register or a supported special register");
    }
    RegInfo& r = it->second;
    if (r.bits != 1 && r.bits != 16 && r.bits != 32 && r.bits != 64)
      fail(o.pos, "register " + quote(o.name) + " of type ." + r.type + " is not supported");
    if (r.type == "f64")
      fail(o.pos, "register " + quote(o.name) + " of type .f64 is not supported (no FP64 unit)");
    if (r.vreg < 0) r.vreg = new_vreg(r.bits == 1, o.name);
    return r;
  }

  // ---- operands --------------------------------------------------------------------
  const Operand& op(size_t i) {
    if (i >= cur_->ops.size())
      fail(cur_->pos, quote(cur_->full) + " needs at least " + std::to_string(i + 1) + " operands");
    return cur_->ops[i];
  }
  void want_ops(size_t n) {
    if (cur_->ops.size() != n)
      fail(cur_->pos, quote(cur_->full) + " takes " + std::to_string(n) + " operands, found " +
                          std::to_string(cur_->ops.size()));
  }

  // A register operand of `bits` width (32 also accepts 64 when allow64).
  int reg_of(const Operand& o, int bits) {
    if (o.kind != Operand::REG) fail(o.pos, "expected a register");
    if (o.negated) fail(o.pos, "'!' only applies to predicates");
    RegInfo& r = reg(o);
    if (bits == 1 && r.bits != 1)
      fail(o.pos, "expected a predicate, found " + quote(o.name) + " (." + r.type + ")");
    if (bits != 1 && r.bits == 1)
      fail(o.pos, "expected a " + std::to_string(bits) + "-bit register, found predicate " + quote(o.name));
    if (bits != 1 && r.bits != bits)
      fail(o.pos, "register " + quote(o.name) + " is ." + r.type + ", the instruction expects " +
                      std::to_string(bits) + " bits");
    return r.vreg;
  }
  MOperand dst(const Operand& o, int bits) { return MOperand::v(reg_of(o, bits), true); }
  MOperand pdst(const Operand& o) { return MOperand::p(reg_of(o, 1), true); }

  // The immediate as the instruction's type sees it: 16-bit types keep 16 bits
  // (the canonical, zero-extended form of a 16-bit register).
  uint32_t imm_bits(const Operand& o, bool is_float, int bits) {
    const uint32_t v = imm_bits(o, is_float);
    return bits == 16 ? v & 0xFFFF : v;
  }
  uint32_t imm_bits(const Operand& o, bool is_float) {
    if (o.is_double) fail(o.pos, "a 0d (f64) literal is not supported here");
    if (is_float) {
      if (!o.is_float) fail(o.pos, "expected a 0f float literal for an f32 operand");
      return o.bits;
    }
    // A bit-typed instruction (mov.b32 %r, 0f3F800000) takes the literal's bits.
    if (o.is_float && !(cur_->mods.size() && cur_->mods.back().size() > 1 && cur_->mods.back()[0] == 'b'))
      fail(o.pos, "a float literal where an integer is expected");
    if (o.is_float) return o.bits;
    return uint32_t(uint64_t(o.value));  // the low word (64-bit immediates keep their low word)
  }

  // A source operand that must be a register: immediates and special
  // registers are first moved into a temporary.
  MOperand src_reg(const Operand& o, int bits, bool is_float = false) {
    if (o.kind == Operand::IMM) {
      const int t = new_vreg(false);
      plain("MOV", {MOperand::v(t, true), MOperand::i(imm_bits(o, is_float, bits))});
      return MOperand::v(t);
    }
    if (o.kind == Operand::SYMBOL) {
      if (bits == 1) fail(o.pos, "expected a predicate");
      if (is_module_var(o)) return MOperand::v(module_var_address(o));
      const int t = new_vreg(false);
      plain("MOV", {MOperand::v(t, true), MOperand::i(symbol_offset(o))});
      return MOperand::v(t);
    }
    return MOperand::v(reg_of(o, bits));
  }
  // Operand b: a register or a 32-bit immediate.
  MOperand src_b(const Operand& o, int bits, bool is_float = false) {
    if (o.kind == Operand::IMM) return MOperand::i(imm_bits(o, is_float, bits));
    if (o.kind == Operand::SYMBOL && is_module_var(o)) return MOperand::v(module_var_address(o));
    if (o.kind == Operand::SYMBOL) return MOperand::i(symbol_offset(o));
    return MOperand::v(reg_of(o, bits));
  }
  // A variable's address in its own state space: the offset of a .shared
  // variable in the CTA's shared memory, of a .local one in the thread's frame.
  uint32_t symbol_offset(const Operand& o) {
    refuse_module_data(o, "as a .shared or .local address");
    if (auto it = shared_.find(o.name); it != shared_.end()) return it->second;
    if (auto it = local_.find(o.name); it != local_.end()) return it->second;
    fail(o.pos, "symbol " + quote(o.name) + " is not a .shared or .local variable of this kernel");
  }

  // The vreg holding this thread's frame address (computed once at the entry,
  // ptx_regalloc.h insert_frame_prologue).
  int frame() { return ensure_frame(&m_); }

  // A .local address: byte t of the thread's frame is at device address
  // frame + (t & ~3) * 32 + (t & 3), i.e. word w of the 32 lanes of a warp
  // lies in one 128-byte line (CUDA's interleaved lmem, coalesced). extra
  // is a byte offset added to the operand's (an element of a vector).
  MOperand local_address(const Operand& o, int64_t extra = 0) {
    if (o.kind != Operand::ADDR) fail(o.pos, "expected an address [...]");
    const int64_t off = o.value + extra;
    if (off < INT32_MIN / 32 || off > INT32_MAX / 32) fail(o.pos, "local address offset is too large");
    const int f = frame();
    if (o.name.empty() || !o.base_is_reg) {
      const int64_t t = off + (o.name.empty() ? 0 : int64_t(symbol_offset(o)));
      if (o.name.size() && !local_.count(o.name))
        fail(o.pos, "symbol " + quote(o.name) + " is not a .local variable of this kernel");
      if (t < 0 || t >= int64_t(m_.local_var_bytes))
        fail(o.pos, "local address " + std::to_string(t) + " is outside the kernel's " +
                        std::to_string(m_.local_var_bytes) + " bytes of .local variables");
      return MOperand::mem(f, int32_t((t & ~int64_t(3)) * 32 + (t & 3)));
    }
    const RegInfo& r = reg(o);
    if (r.bits != 32 && r.bits != 64) fail(o.pos, "a local address is a 32- or 64-bit register");
    // The call stack of recursive functions (ptx_inline.cpp, docs/ptx.md
    // "Recursion"): %__sp holds the device address of the stack's top word
    // itself (frame + 32 t), so [%__sp + 4k] is word k above it, 128 k bytes on.
    if (o.name == kCallStackReg) {
      if (off % 4) fail(o.pos, "call stack offset " + std::to_string(off) + " is not a multiple of 4");
      return MOperand::mem(r.vreg, int32_t(off * 32));
    }
    int t = r.vreg;
    int32_t rest = int32_t(off);
    if (off % 4) {  // a multiple of 4 folds into the offset (it leaves t & 3 alone)
      t = new_vreg(false);
      plain("IADD", {MOperand::v(t, true), MOperand::v(r.vreg), MOperand::i(uint32_t(int32_t(off)))});
      rest = 0;
    }
    const int h = new_vreg(false), l = new_vreg(false);
    plain("SHL", {MOperand::v(h, true), MOperand::v(t), MOperand::i(5)});
    plain("AND", {MOperand::v(h, true), MOperand::v(h), MOperand::i(0xFFFFFF80u)});
    plain("AND", {MOperand::v(l, true), MOperand::v(t), MOperand::i(3)});
    plain("OR", {MOperand::v(h, true), MOperand::v(h), MOperand::v(l)});
    plain("IADD", {MOperand::v(h, true), MOperand::v(h), MOperand::v(f)});
    return MOperand::mem(h, rest * 32);
  }
  // The address of element k (eb bytes each) of a vector access at addr.
  MOperand element_address(const MOperand& addr, const Operand& o, const std::string& space, int k, int eb) {
    MOperand a = addr;
    const int e = k * eb;
    if (space != "local") {
      a.imm = uint32_t(int32_t(addr.imm) + e);
    } else if (e % 4 == 0) {
      a.imm = uint32_t(int32_t(addr.imm) + e * 32);  // whole words: the next lines of the frame
    } else {
      a = local_address(o, e);
    }
    return a;
  }
  static std::string mem_mnem(const std::string& space, bool load) {
    if (space == "shared") return load ? "LDS" : "STS";
    return load ? "LDG" : "STG";  // global, and local (frames are in device memory)
  }

  // A source predicate: a register (maybe negated) or the literal 0 / 1.
  MOperand psrc(const Operand& o) {
    if (o.kind == Operand::IMM && !o.is_float && !o.is_double && (o.value == 0 || o.value == 1))
      return MOperand::pt(o.value == 0);
    if (o.kind != Operand::REG) fail(o.pos, "expected a predicate");
    RegInfo& r = reg(o);
    if (r.bits != 1) fail(o.pos, "expected a predicate, found " + quote(o.name) + " (." + r.type + ")");
    return MOperand::p(r.vreg, false, o.negated);
  }

  // ---- emission --------------------------------------------------------------------
  // A label of the lowering's own (a loop head of a multi-instruction
  // sequence) placed at this point of the code; its index.
  int place_label(const std::string& name) {
    const int label = int(m_.labels.size());
    m_.labels.push_back(name);
    MInstr li;
    li.label = label;
    li.pos = cur_->pos;
    m_.code.push_back(li);
    return label;
  }
  void plain(const std::string& mnem, std::vector<MOperand> ops) {
    MInstr mi;
    mi.mnem = mnem;
    mi.ops = std::move(ops);
    mi.pos = cur_->pos;
    m_.code.push_back(std::move(mi));
  }
  void guarded(const std::string& mnem, std::vector<MOperand> ops) {
    MInstr mi;
    mi.mnem = mnem;
    mi.ops = std::move(ops);
    mi.pos = cur_->pos;
    mi.guard = guard_;
    mi.guard_neg = guard_neg_;
    m_.code.push_back(std::move(mi));
  }

  // ---- instruction helpers -------------------------------------------------------
  std::string type_mod() {
    if (cur_->mods.empty()) unsupported("no type");
    return cur_->mods.back();
  }
  bool has_mod(const char* m) const {
    return std::find(cur_->mods.begin(), cur_->mods.end(), m) != cur_->mods.end();
  }
  // Every modifier must be in `allowed`, else the instruction is unsupported.
  void only_mods(std::initializer_list<const char*> allowed) {
    for (const std::string& m : cur_->mods) {
      bool ok = false;
      for (const char* a : allowed) ok |= m == a;
      if (!ok) unsupported("modifier ." + m);
    }
  }
  static int bits_of_type(const std::string& t) { return type_bits(t); }
  int value_bits(const std::string& t) {
    const int b = bits_of_type(t);
    if (b == 64) return 64;
    if (b == 32) return 32;
    if (b == 16 && t != "f16") return 16;
    unsupported("." + t + " operands");
  }

  // 16-bit registers live in 32-bit ones, zero-extended (the canonical form).
  // A result that may carry into bits 16..31 is masked back.
  void canonical16(const MOperand& d) {
    MOperand src = d;
    src.def = false;
    guarded("AND", {d, src, MOperand::i(0xFFFF)});
  }
  // A signed 16-bit operand, sign-extended to 32 bits for a signed operation.
  MOperand sext16(MOperand v) {
    if (v.kind == MOperand::IMM) return MOperand::i(uint32_t(int32_t(int16_t(v.imm))));
    return extend(v, 16, true);
  }
  bool is_signed16(const std::string& t) const { return t == "s16"; }

  // rd = ra OP b with a commutative swap when a is an immediate.
  void binary(const std::string& mnem, const std::string& t, bool commutative, bool is_float = false) {
    want_ops(3);
    const int bits = is_float ? 32 : value_bits(t);
    const Operand* a = &op(1);
    const Operand* b = &op(2);
    if (commutative && a->kind != Operand::REG && b->kind == Operand::REG) std::swap(a, b);
    MOperand ra = src_reg(*a, bits, is_float);
    MOperand rb = src_b(*b, bits, is_float);
    if (bits == 16 && is_signed16(t) && (mnem == "IMIN" || mnem == "IMAX")) {
      ra = sext16(ra);
      rb = sext16(rb);
    }
    const MOperand d = dst(op(0), bits);
    guarded(mnem, {d, ra, rb});
    // add/sub/mul carry out of 16 bits, a signed min/max is sign-extended.
    if (bits == 16 && mnem != "AND" && mnem != "OR" && mnem != "XOR" &&
        mnem.find(".U32") == std::string::npos)
      canonical16(d);
  }

  // v = low `bits` of src, zero- or sign-extended to 32 (nothing for 32 and 64).
  MOperand extend(MOperand src, int bits, bool is_signed) {
    if (bits >= 32) return src;
    const int t = new_vreg(false);
    if (!is_signed) {
      plain("AND", {MOperand::v(t, true), src, MOperand::i((1u << bits) - 1)});
    } else {
      plain("SHL", {MOperand::v(t, true), src, MOperand::i(uint32_t(32 - bits))});
      plain("SHRA", {MOperand::v(t, true), MOperand::v(t), MOperand::i(uint32_t(32 - bits))});
    }
    return MOperand::v(t);
  }

  std::string width_suffix_ld(const std::string& t) {
    if (t == "u8") return ".U8";
    if (t == "s8") return ".S8";
    if (t == "u16") return ".U16";
    if (t == "s16") return ".S16";
    if (t == "u32" || t == "s32" || t == "b32" || t == "f32") return "";
    if (t == "b8") return ".U8";
    if (t == "b16") return ".U16";
    unsupported("." + t + " loads");
  }
  std::string width_suffix_st(const std::string& t) {
    if (t == "u8" || t == "s8" || t == "b8") return ".8";
    if (t == "u16" || t == "s16" || t == "b16") return ".16";
    if (t == "u32" || t == "s32" || t == "b32" || t == "f32") return "";
    unsupported("." + t + " stores");
  }

  // [reg + off] in global, const or shared space, [sym + off] in shared
  // space, [var + off] of a module-scope variable in global or const space.
  MOperand address(const Operand& o, const std::string& space) {
    if (o.kind != Operand::ADDR) fail(o.pos, "expected an address [...]");
    if (o.value < INT32_MIN || o.value > INT32_MAX) fail(o.pos, "address offset does not fit 32 bits");
    if (o.name.empty()) {
      if (space != "shared") fail(o.pos, "an absolute address is only supported in shared memory");
      return MOperand::mem(-1, int32_t(o.value));
    }
    if (!o.base_is_reg) {
      if (is_module_var(o)) {
        if (space != "global" && space != "const")
          fail(o.pos, "module-scope variable " + quote(o.name) + " as a " + space + " address is not supported");
        return MOperand::mem(module_var_address(o), int32_t(o.value));
      }
      if (space != "shared")
        fail(o.pos, "symbol " + quote(o.name) + " as a " + space + " address is not supported");
      auto it = shared_.find(o.name);
      if (it == shared_.end())
        fail(o.pos, "symbol " + quote(o.name) + " is not a .shared variable of this kernel");
      return MOperand::mem(-1, int32_t(int64_t(it->second) + o.value));
    }
    const RegInfo& r = reg(o);
    if (r.bits == 1) fail(o.pos, "a predicate is not an address");
    if ((space == "global" || space == "const") && r.bits != 64)
      fail(o.pos, "a " + space + " address must be a 64-bit register (.address_size 64)");
    return MOperand::mem(r.vreg, int32_t(o.value));
  }

  std::string space_of(std::initializer_list<const char*> spaces) {
    for (const char* s : spaces)
      if (has_mod(s)) return s;
    for (const char* s : {"local", "const", "param", "global", "shared"})
      if (has_mod(s)) unsupported("." + std::string(s) + " state space");
    unsupported("generic addressing: only explicit state spaces are supported yet");
  }

  // ---- the instructions ------------------------------------------------------------
  void lower(const Instruction& in) {
    guard_ = -1;
    guard_neg_ = false;
    if (!in.guard.empty()) {
      Operand g;
      g.kind = Operand::REG;
      g.name = in.guard;
      g.pos = in.pos;
      auto it = regs_.find(in.guard);
      if (it == regs_.end() || it->second.bits != 1)
        fail(in.pos, "guard " + quote(in.guard) + " is not a declared predicate");
      guard_ = reg(g).vreg;
      guard_neg_ = in.guard_neg;
    }
    const std::string& o = in.opcode;
    const auto& known = ptx_opcode_names();
    if (!std::binary_search(known.begin(), known.end(), o)) unsupported(not_translated(o));
    if (in.pipe_dst && o != "setp" && o != "shfl")
      fail(in.pos, "'p|q' destinations are only supported for setp and shfl");
    if (o == "mov") return lower_mov();
    if (o == "add" || o == "sub") return lower_addsub(o == "add");
    if (o == "mul") return lower_mul();
    if (o == "mad" || o == "fma") return lower_mad();
    if (o == "min" || o == "max") return lower_minmax(o == "min");
    if (o == "abs" || o == "neg") return lower_absneg(o == "abs");
    if (o == "copysign") return lower_copysign();
    if (o == "and" || o == "or" || o == "xor") return lower_logic(o);
    if (o == "not") return lower_not();
    if (o == "shl" || o == "shr") return lower_shift(o == "shl");
    if (o == "popc" || o == "clz") return lower_bitcount(o == "popc" ? "POPC" : "CLZ");
    if (o == "bfe") return lower_bfe();
    if (o == "bfi") return lower_bfi();
    if (o == "setp") return lower_setp();
    if (o == "selp") return lower_selp();
    if (o == "cvt") return lower_cvt();
    if (o == "cvta") return lower_cvta();
    if (o == "ld") return lower_ld();
    if (o == "st") return lower_st();
    if (o == "atom" || o == "red") return lower_atom(o == "red");
    if (o == "bar" || o == "barrier") return lower_bar();
    if (o == "bra") return lower_bra();
    if (o == "ret" || o == "exit") {
      only_mods({});
      want_ops(0);
      return guarded("EXIT", {});
    }
    if (o == "trap") {
      only_mods({});
      want_ops(0);
      return guarded("TRAP", {});
    }
    if ((o == "div" || o == "rem") && cur_->mods.size() == 1 &&
        (cur_->mods[0] == "u32" || cur_->mods[0] == "s32"))
      return lower_divrem(o == "div", cur_->mods[0] == "s32");
    if ((o == "div" || o == "rem") && cur_->mods.size() == 1 &&
        (cur_->mods[0] == "u64" || cur_->mods[0] == "s64"))
      return lower_divrem64(o == "div", cur_->mods[0] == "s64");
    if (o == "rem" || (o == "div" && !has_mod("f32")))
      unsupported("only .u32/.s32/.u64/.s64 integer division is lowered");
    if (o == "div" || o == "rcp" || o == "sqrt" || o == "rsqrt" || o == "ex2" || o == "lg2")
      return lower_fspecial(o);
    if (o == "brev") return lower_brev();
    if (o == "bfind") return lower_bfind();
    if (o == "prmt") return lower_prmt();
    if (o == "membar" || o == "fence") return lower_fence();
    if (o == "shfl") return lower_shfl();
    if (o == "vote") return lower_vote();
    if (o == "activemask") {
      only_mods({"b32"});
      want_ops(1);
      return guarded("VOTE.BALLOT", {dst(op(0), 32), MOperand::pt()});  // the lanes that run it
    }
    // Every name on ptx_opcode_names() is dispatched above (PtxNames.EveryOpcodeIsDispatched).
    unsupported("internal: " + quote(o) + " is on ptx_opcode_names() but not dispatched");
  }

  // Why an instruction that is not on ptx_opcode_names() is refused.
  static std::string not_translated(const std::string& o) {
    if (o == "sin" || o == "cos" || o == "tanh") return "f32 special functions are not lowered yet";
    if (o == "call") return "calls are not supported";
    return "no PTX instruction " + quote(o) + " is translated";
  }

  void lower_mov() {
    want_ops(2);
    const std::string t = type_mod();
    if (cur_->mods.size() != 1) unsupported();
    if (t == "pred") {
      const MOperand a = psrc(op(1));
      // pd = (0 == 0) AND a
      return guarded("ISETP.EQ.AND", {pdst(op(0)), MOperand::rz(), MOperand::i(0), a});
    }
    if (op(0).kind == Operand::VEC || op(1).kind == Operand::VEC) return lower_pack(t);
    const int bits = value_bits(t);
    if (t == "f64") unsupported(".f64");
    const Operand& s = op(1);
    // The call stack's pointer set to a .local variable: its device address
    // in this thread's interleaved frame (local_address above).
    if (op(0).kind == Operand::REG && op(0).name == kCallStackReg && s.kind == Operand::SYMBOL &&
        local_.count(s.name))
      return guarded("IADD", {dst(op(0), 32), MOperand::v(frame()), MOperand::i(symbol_offset(s) * 32)});
    if (bits == 64 && is_wide(op(0))) {  // both words
      if (s.kind == Operand::REG && s.name == "%clock64") {
        // The two halves are read one after the other: the high word may
        // be one ahead of the low one's when the low word wraps between them.
        MOperand lo, hi;
        lo.kind = hi.kind = MOperand::SREG;
        lo.sreg = "SR_CLOCK";
        hi.sreg = "SR_CLOCKHI";
        guarded("S2R", {dst(op(0), 64), lo});
        return guarded("S2R", {V(hi_vreg(op(0)), true), hi});
      }
      if (s.kind == Operand::SYMBOL && !is_module_var(s)) return def64(op(0), MOperand::i(symbol_offset(s)), MOperand::i(0));
      const W64 a = src64(s, true);
      return def64(op(0), a.lo, a.hi);
    }
    auto sreg = [](const char* name) {
      MOperand sr;
      sr.kind = MOperand::SREG;
      sr.sreg = name;
      return sr;
    };
    if (s.kind == Operand::REG && sregs().count(s.name)) {
      if (bits != 32) unsupported("this special register is 32 bits");
      return guarded("S2R", {dst(op(0), 32), sreg(sregs().at(s.name).c_str())});
    }
    // %clock64 in a 64-bit register: its low word is SR_CLOCK (high words
    // are never observed, see the header), so it cannot tear.
    if (s.kind == Operand::REG && s.name == "%clock64") {
      if (bits != 64) unsupported("%clock64 is 64 bits");
      return guarded("S2R", {dst(op(0), 64), sreg("SR_CLOCK")});
    }
    if (s.kind == Operand::REG && s.name == "%clock_hi") {
      if (bits != 32) unsupported("%clock_hi is 32 bits");
      return guarded("S2R", {dst(op(0), 32), sreg("SR_CLOCKHI")});
    }
    // %lanemask_*: from the lane id; 1 << 32 is 0 on the device, so le of
    // lane 31 is 0 - 1 = all ones, as it should be.
    if (s.kind == Operand::REG && s.name.rfind("%lanemask_", 0) == 0) {
      const std::string which = s.name.substr(10);
      if (which != "eq" && which != "lt" && which != "le" && which != "gt" && which != "ge")
        fail(s.pos, quote(s.name) + " is not a special register");
      if (bits != 32) unsupported("%lanemask_* is 32 bits");
      const int lane = new_vreg(false), m = new_vreg(false);
      plain("S2R", {MOperand::v(lane, true), sreg("SR_LANEID")});
      plain("MOV", {MOperand::v(m, true), MOperand::i(1)});
      plain("SHL", {MOperand::v(m, true), MOperand::v(m), MOperand::v(lane)});  // eq
      if (which == "le" || which == "gt")
        plain("SHL", {MOperand::v(m, true), MOperand::v(m), MOperand::i(1)});
      if (which != "eq")
        plain("IADD", {MOperand::v(m, true), MOperand::v(m), MOperand::i(uint32_t(-1))});  // lt, le
      if (which == "gt" || which == "ge") plain("NOT", {MOperand::v(m, true), MOperand::v(m)});
      return guarded("MOV", {dst(op(0), 32), MOperand::v(m)});
    }
    guarded("MOV", {dst(op(0), bits), src_b(s, bits, t == "f32")});
  }

  // mov.b32 d, {lo, hi} of two 16-bit registers and mov.b32 {lo, hi}, a back
  // (half2/short2 code); mov.b64 d, {lo, hi} of two 32-bit registers, whose
  // low word is lo (the high word is never observed). Unpacking a 64-bit value
  // would need its high word.
  void lower_pack(const std::string& t) {
    if (t != "b32" && t != "b64") unsupported("only mov.b32 and mov.b64 pack or unpack");
    const int half = t == "b32" ? 16 : 32;
    if (op(1).kind == Operand::VEC) {  // pack
      const std::vector<const Operand*> el = elements(op(1), 2);
      if (!el[0] || !el[1]) fail(op(1).pos, "a sink '_' cannot be packed");
      MOperand lo = src_reg(*el[0], half);
      if (half == 32) {
        if (is_wide(op(0))) return def64(op(0), lo, src_reg(*el[1], 32));
        return guarded("MOV", {dst(op(0), 64), lo});
      }
      MOperand hi = src_reg(*el[1], 16);
      const int x = new_vreg(false);
      plain("SHL", {MOperand::v(x, true), hi, MOperand::i(16)});
      return guarded("OR", {dst(op(0), 32), MOperand::v(x), lo});  // lo is canonical: upper half 0
    }
    const std::vector<const Operand*> el = elements(op(0), 2);
    if (half == 32) {  // the two words of a register pair
      const W64 a = src64(op(1));
      const int l = tmp(), h = tmp();
      plain("MOV", {V(l, true), a.lo});
      plain("MOV", {V(h, true), a.hi});
      if (el[0]) guarded("MOV", {dst(*el[0], 32), V(l)});
      if (el[1]) guarded("MOV", {dst(*el[1], 32), V(h)});
      return;
    }
    MOperand a = src_reg(op(1), 32);
    // The high half first when the low one overwrites the source.
    const bool lo_is_src = el[0] && el[0]->kind == Operand::REG && reg(*el[0]).vreg == a.vreg;
    auto lo = [&] {
      if (el[0]) guarded("AND", {dst(*el[0], 16), a, MOperand::i(0xFFFF)});
    };
    auto hi = [&] {
      if (el[1]) guarded("SHR", {dst(*el[1], 16), a, MOperand::i(16)});
    };
    if (lo_is_src) {
      hi();
      lo();
    } else {
      lo();
      hi();
    }
  }

  void lower_addsub(bool add) {
    const std::string t = type_mod();
    if (t == "f32") {
      if (const char dm = directed_mode()) return lower_fdirected(add ? 'a' : 's', dm);
      only_mods({"rn", "ftz", "sat", "f32"});
      if (has_mod("ftz") || has_mod("sat")) return lower_farith(add ? "FADD" : "FSUB", 2);
      return binary(add ? "FADD" : "FSUB", t, add, true);
    }
    only_mods({"s16", "u16", "s32", "u32", "s64", "u64"});
    if (type_bits(t) == 64 && is_wide(op(0))) {
      want_ops(3);
      const Operand *a = &op(1), *b = &op(2);
      if (add && a->kind == Operand::IMM && b->kind != Operand::IMM) std::swap(a, b);
      const W64 r = add64(src64(*a), src64(*b, true), !add);
      return def64(op(0), r.lo, r.hi);
    }
    binary(add ? "IADD" : "ISUB", t, add);
  }

  void lower_mul() {
    const std::string t = type_mod();
    if (t == "f32") {
      if (const char dm = directed_mode()) return lower_fdirected('m', dm);
      only_mods({"rn", "ftz", "sat", "f32"});
      if (has_mod("ftz") || has_mod("sat")) return lower_farith("FMUL", 2);
      return binary("FMUL", t, true, true);
    }
    if (has_mod("lo")) {
      only_mods({"lo", "s16", "u16", "s32", "u32", "s64", "u64"});
      if (type_bits(t) == 64 && is_wide(op(0))) {
        want_ops(3);
        const W64 r = mul64(src64(op(1)), src64(op(2)));
        return def64(op(0), r.lo, r.hi);
      }
      return binary("IMUL", t, true);
    }
    if (has_mod("hi") && (t == "u64" || t == "s64")) {
      only_mods({"hi", "s64", "u64"});
      want_ops(3);
      const W64 r = mul_hi64(src64(op(1)), src64(op(2)), t == "s64");
      return def64(op(0), r.lo, r.hi);
    }
    if (has_mod("hi")) {
      only_mods({"hi", "s32", "u32"});
      return binary(t == "u32" ? "IMULHI.U32" : "IMULHI", t, true);
    }
    if (has_mod("wide")) {
      only_mods({"wide", "s16", "u16", "s32", "u32"});
      // The low word of the 64-bit product is the 32-bit product; a 16-bit
      // wide product is exactly the 32-bit product of the (sign-)extended operands.
      want_ops(3);
      const int sb = bits_of_type(t);
      const Operand* a = &op(1);
      const Operand* b = &op(2);
      if (a->kind != Operand::REG && b->kind == Operand::REG) std::swap(a, b);
      MOperand ra = src_reg(*a, sb);
      MOperand rb = src_b(*b, sb);
      if (is_signed16(t)) {
        ra = sext16(ra);
        rb = sext16(rb);
      }
      if (sb == 32 && is_wide(op(0))) {
        const W64 r = mul_wide32(ra, rb, t == "s32");
        return def64(op(0), r.lo, r.hi);
      }
      return guarded("IMUL", {dst(op(0), sb * 2), ra, rb});
    }
    unsupported();
  }

  void lower_mad() {
    want_ops(4);
    const std::string t = type_mod();
    if (t == "f32") {
      // fma.rn.f32 and mad.rn.f32 are both a*b+c rounded once.
      if (const char mode = directed_mode()) {  // .rz .rm .rp: exact (ptx_fpseq.h)
        const char* mm = mode == 'z' ? "rz" : mode == 'm' ? "rm" : "rp";
        only_mods({mm, "ftz", "sat", "f32"});
        const bool ftz = has_mod("ftz"), sat = has_mod("sat");
        const int a = fsrc(op(1), ftz), b = fsrc(op(2), ftz), c = fsrc(op(3), ftz);
        return fresult(emit_fma_directed(&m_, cur_->pos, a, b, c, mode), ftz, sat);
      }
      if (!has_mod("rn")) unsupported("only the .rn rounding is supported");
      only_mods({"rn", "ftz", "sat", "f32"});
      if (has_mod("ftz") || has_mod("sat")) return lower_farith("FFMA", 3);
      MOperand a = src_reg(op(1), 32, true), b = src_reg(op(2), 32, true), c = src_reg(op(3), 32, true);
      return guarded("FFMA", {dst(op(0), 32), a, b, c});
    }
    if (cur_->opcode == "fma") unsupported();
    if (has_mod("lo")) {
      only_mods({"lo", "s32", "u32", "s64", "u64"});
      if (type_bits(t) == 64 && is_wide(op(0))) {
        const W64 r = add64(mul64(src64(op(1)), src64(op(2))), src64(op(3), true), false);
        return def64(op(0), r.lo, r.hi);
      }
      const int bits = value_bits(t);
      MOperand a = src_reg(op(1), bits), b = src_reg(op(2), bits), c = src_reg(op(3), bits);
      return guarded("IMAD", {dst(op(0), bits), a, b, c});
    }
    if (has_mod("wide")) {
      only_mods({"wide", "s32", "u32"});
      if (is_wide(op(0))) {
        const W64 r = add64(mul_wide32(src_reg(op(1), 32), src_b(op(2), 32), t == "s32"), src64(op(3), true), false);
        return def64(op(0), r.lo, r.hi);
      }
      MOperand a = src_reg(op(1), 32), b = src_reg(op(2), 32), c = src_reg(op(3), 64);
      return guarded("IMAD", {dst(op(0), 64), a, b, c});
    }
    if (has_mod("hi")) {
      only_mods({"hi", "s32", "u32"});
      MOperand a = src_reg(op(1), 32), b = src_b(op(2), 32);
      MOperand c = src_b(op(3), 32);
      const int h = new_vreg(false);
      plain(t == "u32" ? "IMULHI.U32" : "IMULHI", {MOperand::v(h, true), a, b});
      return guarded("IADD", {dst(op(0), 32), MOperand::v(h), c});
    }
    unsupported();
  }

  void lower_minmax(bool is_min) {
    const std::string t = type_mod();
    if (t == "f32") {
      only_mods({"ftz", "f32"});
      if (has_mod("ftz")) return lower_farith(is_min ? "FMIN" : "FMAX", 2);
      return binary(is_min ? "FMIN" : "FMAX", t, true, true);
    }
    if (t == "s64" || t == "u64") {
      only_mods({"s64", "u64"});
      want_ops(3);
      const W64 a = src64(op(1)), b = src64(op(2));
      const int p = cmp64(is_min ? 2 : 4, t == "s64", a, b);  // a < b (min), a > b (max): a
      const int lo = tmp(), hi = tmp();
      plain("SEL", {V(lo, true), a.lo, b.lo, MOperand::p(p)});
      plain("SEL", {V(hi, true), a.hi, b.hi, MOperand::p(p)});
      return def64(op(0), V(lo), V(hi));
    }
    only_mods({"s16", "u16", "s32", "u32"});
    binary(std::string(is_min ? "IMIN" : "IMAX") + (t == "u32" || t == "u16" ? ".U32" : ""), t, true);
  }

  // copysign.f32 d, a, b: b's magnitude with a's sign, bit for bit (a NaN
  // keeps its payload), as the GPU's LOP3 does: AND, AND, OR.
  void lower_copysign() {
    want_ops(3);
    only_mods({"f32"});
    const MOperand a = src_reg(op(1), 32, true), b = src_reg(op(2), 32, true);
    const int s = tmp(), m = tmp();
    plain("AND", {V(s, true), a, MOperand::i(0x80000000u)});
    plain("AND", {V(m, true), b, MOperand::i(0x7FFFFFFFu)});
    guarded("OR", {dst(op(0), 32), V(s), V(m)});
  }

  void lower_absneg(bool is_abs) {
    want_ops(2);
    const std::string t = type_mod();
    if (t == "f32") {
      only_mods({"ftz", "f32"});
      if (has_mod("ftz")) return lower_farith(is_abs ? "FABS" : "FNEG", 1);
      MOperand a = src_reg(op(1), 32, true);
      return guarded(is_abs ? "FABS" : "FNEG", {dst(op(0), 32), a});
    }
    if (t == "s64" && (is_abs || is_wide(op(0)))) {
      only_mods({"s64"});
      const W64 a = src64(op(1));
      const W64 n = add64({MOperand::i(0), MOperand::i(0)}, a, true);
      if (!is_abs) return def64(op(0), n.lo, n.hi);
      const int neg = ptmp(), lo = tmp(), hi = tmp();
      plain("ISETP.LT.AND", {MOperand::p(neg, true), a.hi, MOperand::i(0), MOperand::pt()});
      plain("SEL", {V(lo, true), n.lo, a.lo, MOperand::p(neg)});
      plain("SEL", {V(hi, true), n.hi, a.hi, MOperand::p(neg)});
      return def64(op(0), V(lo), V(hi));
    }
    if (is_abs) {
      only_mods({"s32"});
      MOperand a = src_reg(op(1), 32);
      return guarded("IABS", {dst(op(0), 32), a});
    }
    only_mods({"s32", "s64"});
    const int bits = value_bits(t);
    MOperand a = src_b(op(1), bits);
    guarded("ISUB", {dst(op(0), bits), MOperand::rz(), a});
  }

  void lower_logic(const std::string& o) {
    const std::string t = type_mod();
    std::string mn = o == "and" ? "AND" : o == "or" ? "OR" : "XOR";
    if (t == "pred") {
      only_mods({"pred"});
      want_ops(3);
      // The first predicate as 0/1 in a register, then combined with the second.
      const MOperand a = psrc(op(1)), b = psrc(op(2));
      const int r = new_vreg(false);
      MOperand na = a;
      na.neg = !a.neg;
      plain("SEL", {MOperand::v(r, true), MOperand::rz(), MOperand::i(1), na});  // r = a ? 1 : 0
      return guarded("ISETP.NE." + mn, {pdst(op(0)), MOperand::v(r), MOperand::i(0), b});
    }
    only_mods({"b16", "b32", "b64"});
    if (t == "b64" && is_wide(op(0))) {  // word by word
      want_ops(3);
      const Operand *a = &op(1), *b = &op(2);
      if (a->kind == Operand::IMM && b->kind != Operand::IMM) std::swap(a, b);
      const W64 x = src64(*a), y = src64(*b, true);
      const int lo = tmp(), hi = tmp();
      plain(mn, {V(lo, true), x.lo, y.lo});
      plain(mn, {V(hi, true), x.hi, y.hi});
      return def64(op(0), V(lo), V(hi));
    }
    binary(mn, t, true);
  }

  void lower_not() {
    want_ops(2);
    const std::string t = type_mod();
    if (t == "pred") {
      only_mods({"pred"});
      MOperand a = psrc(op(1));
      a.neg = !a.neg;
      return guarded("ISETP.EQ.AND", {pdst(op(0)), MOperand::rz(), MOperand::i(0), a});
    }
    only_mods({"b16", "b32", "b64"});
    const int bits = value_bits(t);
    if (bits == 64 && is_wide(op(0))) {
      const W64 x = src64(op(1));
      const int lo = tmp(), hi = tmp();
      plain("NOT", {V(lo, true), x.lo});
      plain("NOT", {V(hi, true), x.hi});
      return def64(op(0), V(lo), V(hi));
    }
    MOperand a = src_reg(op(1), bits);
    const MOperand d = dst(op(0), bits);
    guarded("NOT", {d, a});
    if (bits == 16) canonical16(d);
  }

  void lower_shift(bool left) {
    want_ops(3);
    const std::string t = type_mod();
    if (left) {
      only_mods({"b16", "b32", "b64"});
    } else {
      only_mods({"b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"});
    }
    if (bits_of_type(t) == 64 && (!left || is_wide(op(0)))) {  // both words (a right shift reads the high one)
      const W64 r = shift64(src64(op(1)), src_b(op(2), 32), left, t == "s64");
      return def64(op(0), r.lo, r.hi);
    }
    const int bits = value_bits(t);
    MOperand a = src_reg(op(1), bits);
    MOperand b = src_b(op(2), 32);
    if (is_signed16(t)) a = sext16(a);
    const MOperand d = dst(op(0), bits);
    guarded(left ? "SHL" : (t == "s32" || t == "s16") ? "SHRA" : "SHR", {d, a, b});
    if (bits == 16 && (left || is_signed16(t))) canonical16(d);
  }

  void lower_bitcount(const char* mn) {
    want_ops(2);
    only_mods({"b32", "b64"});
    if (type_mod() == "b64") {  // popc: both words' counts added; clz: the high word's, or 32 + the low word's
      const W64 a = src64(op(1));
      const int l = tmp(), h = tmp();
      plain(mn, {V(l, true), a.lo});
      plain(mn, {V(h, true), a.hi});
      if (std::string(mn) == "POPC") return guarded("IADD", {dst(op(0), 32), V(h), V(l)});
      const int z = ptmp();
      plain("IADD", {V(l, true), V(l), MOperand::i(32)});
      plain("ISETP.EQ.AND", {MOperand::p(z, true), a.hi, MOperand::i(0), MOperand::pt()});
      return guarded("SEL", {dst(op(0), 32), V(l), V(h), MOperand::p(z)});
    }
    MOperand a = src_reg(op(1), 32);
    guarded(mn, {dst(op(0), 32), a});
  }

  // The bit field of bfe/bfi: immediates (or one-constant registers) with
  // 1 <= len and pos + len <= 32, the forms nvcc writes for C bit fields.
  void field(const Operand& po, const Operand& lo, uint32_t* pos, uint32_t* len) {
    if (!constant(po, pos) || !constant(lo, len))
      fail(cur_->pos, quote(cur_->full) + " with a position or length in a register is not supported yet");
    *pos &= 0xFF;
    *len &= 0xFF;
    if (*len == 0 || *pos + *len > 32)
      fail(cur_->pos, quote(cur_->full) + " of an empty field or one past bit 31 is not supported yet");
  }

  // bfe.{u32,s32} d, a, pos, len: the field, zero- or sign-extended.
  void lower_bfe() {
    want_ops(4);
    const std::string t = type_mod();
    only_mods({"u32", "s32"});
    uint32_t pos = 0, len = 0;
    field(op(2), op(3), &pos, &len);
    MOperand a = src_reg(op(1), 32);
    const MOperand d = dst(op(0), 32);
    if (t == "s32") {
      const int x = new_vreg(false);
      plain("SHL", {MOperand::v(x, true), a, MOperand::i(32 - pos - len)});
      return guarded("SHRA", {d, MOperand::v(x), MOperand::i(32 - len)});
    }
    if (pos + len == 32) return guarded("SHR", {d, a, MOperand::i(pos)});
    const int x = new_vreg(false);
    plain("SHR", {MOperand::v(x, true), a, MOperand::i(pos)});
    guarded("AND", {d, MOperand::v(x), MOperand::i((1u << len) - 1)});
  }

  // bfi.b32 f, a, b, pos, len: b with bits [pos, pos + len) taken from a.
  void lower_bfi() {
    want_ops(5);
    only_mods({"b32"});
    uint32_t pos = 0, len = 0;
    field(op(3), op(4), &pos, &len);
    const uint32_t mask = (len == 32 ? 0xFFFFFFFFu : (1u << len) - 1) << pos;
    MOperand a = src_reg(op(1), 32), b = src_reg(op(2), 32);
    const int x = new_vreg(false), y = new_vreg(false);
    plain("SHL", {MOperand::v(x, true), a, MOperand::i(pos)});
    plain("AND", {MOperand::v(x, true), MOperand::v(x), MOperand::i(mask)});
    plain("AND", {MOperand::v(y, true), b, MOperand::i(~mask)});
    guarded("OR", {dst(op(0), 32), MOperand::v(x), MOperand::v(y)});
  }

  void lower_setp() {
    // setp.CMP[.COMB][.ftz].TYPE p[|q], a, b [, [!]c]
    const std::string t = type_mod();
    const auto& mods = cur_->mods;
    if (mods.size() < 2) unsupported();
    const std::string cmp = mods[0];
    std::string comb;
    bool ftz = false;
    for (size_t i = 1; i + 1 < mods.size(); ++i) {
      if (mods[i] == "and" || mods[i] == "or" || mods[i] == "xor") {
        if (!comb.empty()) unsupported();
        comb = mods[i];
      } else if (mods[i] == "ftz" && t == "f32" && !ftz) {
        ftz = true;
      } else {
        unsupported("modifier ." + mods[i]);
      }
    }
    const size_t nd = cur_->pipe_dst ? 2 : 1;
    const size_t nops = cur_->ops.size();
    if (nops != nd + 2 + (comb.empty() ? 0 : 1))
      fail(cur_->pos, quote(cur_->full) + " has the wrong number of operands");
    const std::string cmb0 = comb.empty() ? ".AND" : comb == "and" ? ".AND" : comb == "or" ? ".OR" : ".XOR";
    if (t == "s64" || t == "u64" || t == "b64") {
      // Both words (cmp64), the result as 0/1, then p = (r != 0) comb c and
      // q = (r == 0) comb c (from the operands as they were).
      static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
      static const char* unames[] = {"", "", "lo", "ls", "hi", "hs"};
      int idx = -1;
      for (int i = 0; i < 6; ++i)
        if (cmp == names[i] || (t == "u64" && cmp == unames[i] && *unames[i])) idx = i;
      if (idx < 0 || (t == "b64" && idx > 1)) unsupported();
      const W64 a = src64(op(nd)), b = src64(op(nd + 1), true);
      if (comb.empty() && nd == 1) {  // the comparison's last instruction writes p
        const MOperand pd = pdst(op(0));
        cmp64(idx, t == "s64", a, b, &pd);
        return;
      }
      const int r = bit_of(cmp64(idx, t == "s64", a, b));
      const MOperand c = comb.empty() ? MOperand::pt() : psrc(op(nd + 2));
      guarded("ISETP.NE" + cmb0, {pdst(op(0)), V(r), MOperand::i(0), c});
      if (nd == 2) guarded("ISETP.EQ" + cmb0, {pdst(op(1)), V(r), MOperand::i(0), c});
      return;
    }
    static const char* icmp[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    static const char* fcmp[] = {"EQ",  "NE",  "LT",  "LE",  "GT",  "GE",  "NUM",
                                 "NAN", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU"};
    std::string base, inv;  // the comparison and its negation
    const bool is_float = t == "f32";
    if (is_float) {
      static const char* names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "num",
                                    "nan", "equ", "neu", "ltu", "leu", "gtu", "geu"};
      // not(ordered c) = unordered inverse(c); not(num) = nan.
      static const int inverse[] = {9, 8, 13, 12, 11, 10, 7, 6, 1, 0, 5, 4, 3, 2};
      int idx = -1;
      for (int i = 0; i < 14; ++i)
        if (cmp == names[i]) idx = i;
      if (idx < 0) unsupported();
      base = std::string("FSETP.") + fcmp[idx];
      inv = std::string("FSETP.") + fcmp[inverse[idx]];
    } else if (t == "s32" || t == "u32" || t == "b32" || t == "s16" || t == "u16" || t == "b16") {
      static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
      static const char* unames[] = {"", "", "lo", "ls", "hi", "hs"};
      static const int inverse[] = {1, 0, 5, 4, 3, 2};
      int idx = -1;
      for (int i = 0; i < 6; ++i)
        if (cmp == names[i] || ((t == "u32" || t == "u16") && cmp == unames[i] && *unames[i])) idx = i;
      if (idx < 0 || ((t == "b32" || t == "b16") && idx > 1)) unsupported();
      const std::string u = (t == "u32" || t == "u16") && idx > 1 ? ".U32" : "";
      base = std::string("ISETP.") + icmp[idx] + u;
      inv = std::string("ISETP.") + icmp[inverse[idx]] + u;
    } else {
      unsupported("." + t + " comparisons");
    }
    const std::string cmb = comb.empty() ? ".AND" : comb == "and" ? ".AND" : comb == "or" ? ".OR" : ".XOR";
    const Operand& a = op(nd);
    const Operand& b = op(nd + 1);
    const int bits = bits_of_type(t) == 16 ? 16 : 32;
    MOperand ra = src_reg(a, bits, is_float);
    MOperand rb = src_b(b, bits, is_float);
    if (is_signed16(t)) {  // canonical 16-bit values compare unsigned as they are, signed once extended
      ra = sext16(ra);
      rb = sext16(rb);
    }
    if (ftz) {  // subnormal operands compare as their signed zeros
      ra = MOperand::v(emit_ftz(&m_, cur_->pos, ra.vreg));
      if (rb.kind == MOperand::IMM && (rb.imm & 0x7F800000u) == 0) rb.imm &= 0x80000000u;
      if (rb.kind == MOperand::VREG) rb = MOperand::v(emit_ftz(&m_, cur_->pos, rb.vreg));
    }
    MOperand c = comb.empty() ? MOperand::pt() : psrc(op(nd + 2));
    guarded(base + cmb, {pdst(op(0)), ra, rb, c});
    if (nd == 2) {
      // q = !(a cmp b) comb c, from the operands as they were (p may alias one).
      MInstr& first = m_.code.back();
      if (c.kind == MOperand::VPRED && c.vreg == first.ops[0].vreg)
        fail(cur_->pos, "setp with p|q whose p is also the combining predicate is not supported");
      guarded(inv + cmb, {pdst(op(1)), ra, rb, c});
    }
  }

  void lower_selp() {
    want_ops(4);
    const std::string t = type_mod();
    only_mods({"b16", "u16", "s16", "b32", "u32", "s32", "f32", "b64", "u64", "s64"});
    const int bits = value_bits(t);
    if (bits == 64 && is_wide(op(0))) {
      const W64 a = src64(op(1)), b = src64(op(2), true);
      const MOperand c = psrc(op(3));
      const int lo = tmp(), hi = tmp();
      plain("SEL", {V(lo, true), a.lo, b.lo, c});
      plain("SEL", {V(hi, true), a.hi, b.hi, c});
      return def64(op(0), V(lo), V(hi));
    }
    const bool f = t == "f32";
    MOperand a = src_reg(op(1), bits, f), b = src_b(op(2), bits, f);
    MOperand c = psrc(op(3));
    guarded("SEL", {dst(op(0), bits), a, b, c});
  }

  void lower_cvt() {
    want_ops(2);
    const auto& mods = cur_->mods;
    if (mods.size() < 2) unsupported();
    const std::string dt = mods[mods.size() - 2], st = mods[mods.size() - 1];
    std::vector<std::string> quals(mods.begin(), mods.end() - 2);
    auto has_q = [&](const char* q) { return std::find(quals.begin(), quals.end(), q) != quals.end(); };
    const bool dt_int = is_int_type(dt), st_int = is_int_type(st);
    if (dt_int && st_int) {
      if (!quals.empty()) unsupported("modifier ." + quals[0]);
      const int db = type_bits(dt), sb = type_bits(st);
      if (!db || !sb) unsupported();
      // The value of the source type, converted to the destination type,
      // zero/sign-extended to the register by the destination type's
      // signedness (a 16-bit register then takes its canonical 16 bits).
      const Operand& d0 = op(0);
      const Operand& s0 = op(1);
      if (d0.kind != Operand::REG) fail(d0.pos, "expected a register");
      const int dreg = reg(d0).bits;
      if (dreg == 1) fail(d0.pos, "expected an integer register, found predicate " + quote(d0.name));
      if (db > dreg) fail(d0.pos, "register " + quote(d0.name) + " is narrower than ." + dt);
      const int sreg = s0.kind == Operand::REG ? reg(s0).bits : (sb == 64 ? 64 : 32);
      if (dreg == 64 && is_wide(d0)) {
        if (sb == 64 && db == 64) {  // the same 64 bits
          const W64 a = src64(s0, true);
          return def64(d0, a.lo, a.hi);
        }
        // the source's value, extended to 64 bits by the source type (the
        // destination's, when it is narrower and so decides the value)
        MOperand v = src_reg(s0, sreg);
        if (!(sreg == 16 && sb == 16 && st[0] != 's')) v = extend(v, sb, st[0] == 's');
        const bool sgn = db < 64 ? dt[0] == 's' : sb < 64 && st[0] == 's';
        if (db < 32) v = extend(v, db, dt[0] == 's');
        const int lo = tmp(), hi = tmp();
        plain("MOV", {V(lo, true), v});
        if (sgn)
          plain("SHRA", {V(hi, true), V(lo), MOperand::i(31)});
        else
          plain("MOV", {V(hi, true), MOperand::i(0)});
        return def64(d0, V(lo), V(hi));
      }
      MOperand v = src_reg(s0, sreg);
      if (!(sreg == 16 && sb == 16 && st[0] != 's')) v = extend(v, sb, st[0] == 's');  // canonical already
      v = extend(v, db, dt[0] == 's');
      const MOperand d = dst(d0, dreg);
      guarded("MOV", {d, v});
      if (dreg == 16 && dt[0] == 's') canonical16(d);
      return;
    }
    if (dt == "f32" && (st == "s32" || st == "u32")) {
      const bool directed = quals.size() == 1 && (quals[0] == "rz" || quals[0] == "rm" || quals[0] == "rp");
      if (quals.size() != 1 || (quals[0] != "rn" && !directed))
        unsupported("int-to-f32 conversions round with .rn, .rz, .rm or .rp");
      MOperand a = src_reg(op(1), 32);
      if (directed) {
        const int v = emit_cvt_directed(&m_, cur_->pos, a.vreg, st == "s32", quals[0][1]);
        return guarded("MOV", {dst(op(0), 32), MOperand::v(v)});
      }
      return guarded(st == "u32" ? "I2F.U32" : "I2F", {dst(op(0), 32), a});
    }
    // An 8- or 16-bit integer is exact in an f32, whatever the rounding:
    // extended to 32 bits by its type, then I2F (1-3 instructions).
    if (dt == "f32" && (st == "s16" || st == "u16" || st == "s8" || st == "u8")) {
      if (quals.size() != 1 || (quals[0] != "rn" && quals[0] != "rz" && quals[0] != "rm" && quals[0] != "rp"))
        unsupported("int-to-f32 conversions round with .rn, .rz, .rm or .rp");
      const Operand& s0 = op(1);
      const int sreg = s0.kind == Operand::REG ? reg(s0).bits : 32;
      if (sreg == 1 || sreg == 64) fail(s0.pos, "expected a 16- or 32-bit register for ." + st);
      MOperand v = src_reg(s0, sreg);
      if (!(sreg == 16 && st[0] == 'u')) v = extend(v, type_bits(st), st[0] == 's');  // canonical already
      return guarded("I2F", {dst(op(0), 32), v});
    }
    // The integer roundings of an f32: .rzi is what F2I does; .rni .rmi .rpi
    // first round to an integral f32 (exact), then F2I (saturating, NaN to 0).
    const char irnd = has_q("rni") ? 'n' : has_q("rzi") ? 'z' : has_q("rmi") ? 'm' : has_q("rpi") ? 'p' : 0;
    if (st == "f32" && (dt == "s32" || dt == "u32")) {
      // .ftz flushes the operand first, which matters for .rmi/.rpi (the
      // floor of a negative subnormal is -1, of -0 it is 0); .rzi gives 0 either way.
      if (!irnd) unsupported("only the integer roundings .rni .rzi .rmi .rpi of an f32 are supported");
      for (const auto& q : quals)
        if (q != "rni" && q != "rzi" && q != "rmi" && q != "rpi" && q != "ftz") unsupported("modifier ." + q);
      if (quals.size() != 1 + size_t(has_q("ftz"))) unsupported();
      int a = fsrc(op(1), has_q("ftz") && irnd != 'z');
      if (irnd != 'z') a = emit_round(&m_, cur_->pos, a, irnd);
      return guarded(dt == "u32" ? "F2I.U32" : "F2I", {dst(op(0), 32), MOperand::v(a)});
    }
    if (dt == "f32" && st == "f32") {
      // cvt{.irnd}{.ftz}{.sat}.f32.f32: __saturatef, rintf floorf ceilf truncf.
      for (const auto& q : quals)
        if (q != "ftz" && q != "sat" && q != "rni" && q != "rzi" && q != "rmi" && q != "rpi")
          unsupported("modifier ." + q);
      const bool ftz = has_q("ftz"), sat = has_q("sat");
      if (quals.size() > size_t(ftz) + size_t(sat) + (irnd ? 1 : 0)) unsupported();
      int v = fsrc(op(1), ftz);
      if (irnd) v = emit_round(&m_, cur_->pos, v, irnd);
      return fresult(v, ftz, sat);
    }
    unsupported("." + dt + " from ." + st);
  }

  // ---- f32 .ftz / .sat, division, reciprocal, square root (isa/ptx_fpseq.h) ----
  // An f32 source in a register, flushed to its signed zero when ftz.
  int fsrc(const Operand& o, bool ftz) {
    const int v = src_reg(o, 32, true).vreg;
    return ftz ? emit_ftz(&m_, cur_->pos, v) : v;
  }
  // The result, flushed (ftz: after rounding) and clamped (sat), written under the guard.
  void fresult(int v, bool ftz, bool sat) {
    if (ftz) v = emit_ftz(&m_, cur_->pos, v);
    if (sat) v = emit_sat(&m_, cur_->pos, v);
    guarded("MOV", {dst(op(0), 32), MOperand::v(v)});
  }
  // The directed rounding of an f32 add/sub/mul: 'z', 'm', 'p', or 0 for none.
  char directed_mode() {
    return has_mod("rz") ? 'z' : has_mod("rm") ? 'm' : has_mod("rp") ? 'p' : 0;
  }
  // add/sub/mul.{rz,rm,rp}[.ftz][.sat].f32: exact sequences (ptx_fpseq.h).
  void lower_fdirected(char what, char mode) {
    const char* m = mode == 'z' ? "rz" : mode == 'm' ? "rm" : "rp";
    only_mods({m, "ftz", "sat", "f32"});
    want_ops(3);
    const bool ftz = has_mod("ftz"), sat = has_mod("sat");
    const int a = fsrc(op(1), ftz);
    int b = fsrc(op(2), ftz);
    if (what == 's') {  // a - b = a + (-b), exactly, signed zeros included
      const int nb = new_vreg(false);
      plain("FNEG", {MOperand::v(nb, true), MOperand::v(b)});
      b = nb;
    }
    fresult(emit_directed(&m_, cur_->pos, what == 'm' ? 'm' : 'a', a, b, mode), ftz, sat);
  }
  // add sub mul min max abs neg fma with .ftz and/or .sat: inputs flushed,
  // the operation, the result flushed and clamped.
  void lower_farith(const std::string& mn, size_t nsrc) {
    want_ops(nsrc + 1);
    const bool ftz = has_mod("ftz"), sat = has_mod("sat");
    std::vector<MOperand> ops;
    const int d = new_vreg(false);
    ops.push_back(MOperand::v(d, true));
    for (size_t i = 0; i < nsrc; ++i) ops.push_back(MOperand::v(fsrc(op(i + 1), ftz)));
    plain(mn, ops);
    fresult(d, ftz, sat);
  }
  // div.{rn,full,approx}[.ftz].f32, rcp.{rn,approx}[.ftz].f32,
  // sqrt.{rn,approx}[.ftz].f32, rsqrt/ex2/lg2.approx[.ftz].f32. The .approx and
  // .full forms run the correctly rounded sequences (an approximation may be
  // exact), except that div.approx is a * (1/b) with the reciprocal flushed
  // to zero when subnormal, as PTX defines it for 2^126 < |b| < 2^128;
  // rsqrt is 1 / sqrt with two roundings; ex2 and lg2 are their own sequences.
  void lower_fspecial(const std::string& o) {
    const std::string t = type_mod();
    if (t != "f32") unsupported("." + t + (t == "f64" ? " (no FP64 unit)" : ""));
    std::string mode;
    bool ftz = false;
    for (const std::string& m : cur_->mods) {
      if (m == "f32") continue;
      if (m == "ftz" && !ftz) {
        ftz = true;
        continue;
      }
      const bool ok = mode.empty() && (m == "rn" || m == "approx" || (m == "full" && o == "div"));
      if (!ok)
        unsupported(m == "rz" || m == "rm" || m == "rp" ? "only the .rn rounding is lowered"
                                                        : "modifier ." + m);
      mode = m;
    }
    if (mode.empty() || ((o == "rsqrt" || o == "ex2" || o == "lg2") && mode != "approx")) unsupported();
    want_ops(o == "div" ? 3 : 2);
    const int a = fsrc(op(1), ftz);
    int v = -1;
    if (o == "div") {
      const int b = fsrc(op(2), ftz);
      if (mode == "approx") {
        const int r = emit_ftz(&m_, cur_->pos, emit_rcp_rn(&m_, cur_->pos, b));
        v = new_vreg(false);
        plain("FMUL", {MOperand::v(v, true), MOperand::v(a), MOperand::v(r)});
      } else {
        v = emit_div_rn(&m_, cur_->pos, a, b);
      }
    } else if (o == "rcp") {
      v = emit_rcp_rn(&m_, cur_->pos, a);
    } else if (o == "sqrt") {
      v = emit_sqrt_rn(&m_, cur_->pos, a);
    } else if (o == "ex2") {
      v = emit_ex2(&m_, cur_->pos, a);
    } else if (o == "lg2") {
      v = emit_lg2(&m_, cur_->pos, a);
    } else {
      v = emit_rcp_rn(&m_, cur_->pos, emit_sqrt_rn(&m_, cur_->pos, a));
    }
    fresult(v, ftz, false);
  }

  void lower_cvta() {
    want_ops(2);
    // Global and generic addresses coincide on the device: the identity.
    if (!(has_mod("global") && (cur_->mods.size() == 2 || (cur_->mods.size() == 3 && has_mod("to")))))
      unsupported("only cvta(.to).global is supported");
    if (type_mod() != "u64") unsupported();
    if (is_wide(op(0))) {
      const W64 a = src64(op(1), true);
      return def64(op(0), a.lo, a.hi);
    }
    MOperand a = src_reg(op(1), 64);
    guarded("MOV", {dst(op(0), 64), a});
  }

  // .v2/.v4: the element count, 1 without one.
  int vector_count() {
    int n = 1;
    for (const std::string& m : cur_->mods) {
      if (m == "v2") n = 2;
      if (m == "v4") n = 4;
    }
    return n;
  }
  // The elements of a vector operand of n elements; "_" (a sink) is empty.
  std::vector<const Operand*> elements(const Operand& o, int n) {
    if (o.kind != Operand::VEC)
      fail(o.pos, "expected a vector operand {...} of " + std::to_string(n) + " elements");
    if (int(o.elems.size()) != n)
      fail(o.pos, "expected " + std::to_string(n) + " elements, found " + std::to_string(o.elems.size()));
    std::vector<const Operand*> v;
    for (const Operand& e : o.elems) v.push_back(e.kind == Operand::SYMBOL && e.name == "_" ? nullptr : &e);
    return v;
  }

  void lower_ld() {
    want_ops(2);
    const std::string t = type_mod();
    // ld.const: __constant__ data lives in device memory (no constant bank):
    // an ordinary load at the variable's address.
    const std::string space = space_of({"global", "shared", "param", "local", "const"});
    cur_space_ = space;
    const int vn = vector_count();
    for (const std::string& m : cur_->mods)
      if (m != space && m != t && m != "nc" && !(vn > 1 && (m == "v2" || m == "v4")))
        unsupported("modifier ." + m);
    if (has_mod("nc") && space != "global") unsupported();
    if (vn > 1) {
      // One load per element, at consecutive addresses; an element that is
      // also the address register is loaded last. The device checks each
      // element's alignment, not the vector's (a GPU faults on a vector
      // access that is not aligned to its whole size).
      if (space == "param") unsupported("vector loads of parameters");
      const int eb = type_bits(t);
      if (eb == 64 && t[0] != 'f') return load_vector64(vn, space);
      if (eb != 32 && eb != 16 && eb != 8) unsupported("." + t + " vector elements");
      const std::vector<const Operand*> el = elements(op(0), vn);
      const MOperand addr = space == "local" ? local_address(op(1)) : address(op(1), space);
      const std::vector<int> order = load_order(el, addr);
      // Every element's address first: a sub-word .local element recomputes it
      // from the base register, which an earlier element may overwrite.
      std::vector<MOperand> ea;
      for (int k = 0; k < vn; ++k) ea.push_back(element_address(addr, op(1), space, k, eb / 8));
      for (int k : order) load_into(*el[size_t(k)], mem_mnem(space, true), t, ea[size_t(k)]);
      return;
    }
    if (space == "param") {
      const Operand& a = op(1);
      if (a.kind != Operand::ADDR || a.base_is_reg || a.name.empty())
        fail(a.pos, "ld.param needs [parameter] or [parameter+offset]");
      auto it = params_.find(a.name);
      if (it == params_.end()) fail(a.pos, quote(a.name) + " is not a parameter of this kernel");
      const MParam& p = m_.params[it->second];
      const int bits = type_bits(t);
      // A 64-bit parameter is a pointer on the 32-bit device: its low word.
      const uint32_t bytes = bits == 64 ? 8 : bits / 8;
      if (a.value < 0 || uint64_t(a.value) + bytes > p.size)
        fail(a.pos, "access outside parameter " + quote(p.name));
      if (bits == 64 && t != "u64" && t != "b64" && t != "s64") unsupported();
      if (bits == 64 && is_wide(op(0))) {
        guarded("LDC", {V(hi_vreg(op(0)), true), MOperand::mem(-1, int32_t(p.offset + a.value + 4))});
        return guarded("LDC", {dst(op(0), 64), MOperand::mem(-1, int32_t(p.offset + a.value))});
      }
      if (bits == 64) return guarded("LDC", {dst(op(0), 64), MOperand::mem(-1, int32_t(p.offset + a.value))});
      return load("LDC", t, MOperand::mem(-1, int32_t(p.offset + a.value)));
    }
    MOperand addr = space == "local" ? local_address(op(1)) : address(op(1), space);
    load(mem_mnem(space, true), t, addr);
  }

  // A load of type t into a 32-bit register (narrow types zero/sign-extended)
  // or a 16-bit one (kept canonical: zero-extended 16 bits).
  void load(const std::string& mn, const std::string& t, const MOperand& addr) {
    load_into(op(0), mn, t, addr);
  }
  void load_into(const Operand& d0, const std::string& mn, const std::string& t, const MOperand& addr) {
    if (d0.kind != Operand::REG) fail(d0.pos, "expected a register");
    const int dreg = reg(d0).bits;
    if (dreg == 16) {
      const int tb = type_bits(t);
      if (tb > 16) fail(d0.pos, "register " + quote(d0.name) + " is narrower than ." + t);
      const std::string w = t == "s16" ? ".U16" : width_suffix_ld(t);  // the same 16 bits
      const MOperand d = dst(d0, 16);
      guarded(mn + w, {d, addr});
      if (t == "s8") canonical16(d);
      return;
    }
    // A register wider than the access (nvcc's `ld.global.s32 %rd, [..]` for an
    // int index): PTX sign- or zero-extends the value by the instruction's
    // type, which changes only the high word, and a 64-bit register keeps its
    // low word (the header): that word is the 32-bit load.
    const int tb = type_bits(t);
    if (dreg == 64 && tb && tb <= 32 && t[0] != 'f') {
      guarded(mn + width_suffix_ld(t), {dst(d0, 64), addr});
      if (is_wide(d0)) {  // the high word: the extension by the type's sign
        MOperand lo = MOperand::v(reg_of(d0, 64));
        if (t[0] == 's')
          guarded("SHRA", {V(hi_vreg(d0), true), lo, MOperand::i(31)});
        else
          guarded("MOV", {V(hi_vreg(d0), true), MOperand::i(0)});
      }
      return;
    }
    if (dreg == 64 && tb == 64 && t[0] != 'f') {
      // Two words; the high one first, so that an address register that is
      // also the destination is read before its low word changes. A register
      // whose high word nothing observes loads the low word alone.
      MOperand hi_addr = addr;
      if (is_wide(d0)) {
        hi_addr = word_address(addr, 1);
        guarded(mn, {V(hi_vreg(d0), true), hi_addr});
      }
      return guarded(mn, {dst(d0, 64), addr});
    }
    guarded(mn + width_suffix_ld(t), {dst(d0, 32), addr});
  }
  // The elements of a vector load in the order they are loaded: the one that
  // is also the address register last (absent elements, `_`, left out).
  std::vector<int> load_order(const std::vector<const Operand*>& el, const MOperand& addr) {
    int last = -1;
    std::vector<int> order;
    for (int k = 0; k < int(el.size()); ++k) {
      if (!el[size_t(k)]) continue;
      if (el[size_t(k)]->kind == Operand::REG && addr.vreg >= 0 && reg(*el[size_t(k)]).vreg == addr.vreg)
        last = k;
      else
        order.push_back(k);
    }
    if (last >= 0) order.push_back(last);
    return order;
  }
  // The address of word k of a 64-bit access at addr (global, shared:
  // 4 bytes on; .local: the next word of the interleaved frame).
  MOperand word_address(const MOperand& addr, int k) {
    MOperand a = addr;
    a.imm = uint32_t(int32_t(addr.imm) + (cur_space_ == "local" ? 128 : 4) * k);
    return a;
  }
  // ld.v2/.v4 of 64-bit elements: each element two words (or its low word).
  void load_vector64(int vn, const std::string& space) {
    const std::vector<const Operand*> el = elements(op(0), vn);
    const MOperand addr = space == "local" ? local_address(op(1)) : address(op(1), space);
    const std::string mn = mem_mnem(space, true);
    const std::vector<int> order = load_order(el, addr);
    for (int k : order) {
      const Operand& d = *el[size_t(k)];
      if (d.kind != Operand::REG || reg(d).bits != 64) fail(d.pos, "expected a 64-bit register");
      if (is_wide(d)) guarded(mn, {V(hi_vreg(d), true), word_address(addr, 2 * k + 1)});
      guarded(mn, {dst(d, 64), word_address(addr, 2 * k)});
    }
  }

  void lower_st() {
    want_ops(2);
    const std::string t = type_mod();
    const std::string space = space_of({"global", "shared", "local"});
    cur_space_ = space;
    const int vn = vector_count();
    for (const std::string& m : cur_->mods)
      if (m != space && m != t && !(vn > 1 && (m == "v2" || m == "v4"))) unsupported("modifier ." + m);
    if ((t == "u64" || t == "s64" || t == "b64")) {  // two words each: low, then high
      MOperand addr = space == "local" ? local_address(op(0)) : address(op(0), space);
      std::vector<const Operand*> el;
      if (vn > 1) {
        el = elements(op(1), vn);
      } else {
        el.push_back(&op(1));
      }
      for (int k = 0; k < int(el.size()); ++k) {
        if (!el[size_t(k)]) fail(op(1).pos, "a sink '_' cannot be stored");
        const W64 v = src64(*el[size_t(k)]);
        guarded(mem_mnem(space, false), {word_address(addr, 2 * k), v.lo});
        guarded(mem_mnem(space, false), {word_address(addr, 2 * k + 1), v.hi});
      }
      return;
    }
    const std::string w = width_suffix_st(t);
    MOperand addr = space == "local" ? local_address(op(0)) : address(op(0), space);
    if (vn > 1) {  // one store per element, at consecutive addresses (alignment: see lower_ld)
      const std::vector<const Operand*> el = elements(op(1), vn);
      const int eb = type_bits(t);
      for (int k = 0; k < vn; ++k) {
        if (!el[size_t(k)]) fail(op(1).pos, "a sink '_' cannot be stored");
        store_from(*el[size_t(k)], space, w, t, element_address(addr, op(0), space, k, eb / 8));
      }
      return;
    }
    store_from(op(1), space, w, t, addr);
  }
  void store_from(const Operand& src, const std::string& space, const std::string& w, const std::string& t,
                  const MOperand& addr) {
    const int vb = src.kind == Operand::REG ? reg(src).bits : 32;
    if (vb == 16 && type_bits(t) > 16)
      fail(src.pos, "register " + quote(src.name) + " is narrower than ." + t);
    // A 64-bit register stored with a type of 32 bits or less: PTX stores its
    // low bytes, which are the low word a 64-bit register keeps.
    MOperand v = src_reg(src, vb == 16 ? 16 : vb == 64 ? 64 : 32, t == "f32");
    guarded(mem_mnem(space, false) + w, {addr, v});
  }

  void lower_atom(bool red) {
    const std::string t = type_mod();
    const std::string space = space_of({"global", "shared"});
    static const char* ops[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"};
    std::string aop;
    for (const std::string& m : cur_->mods) {
      if (m == space || m == t) continue;
      bool known = false;
      for (const char* o : ops) known |= m == o;
      if (!known || !aop.empty()) unsupported("modifier ." + m);
      aop = m;
    }
    if (aop.empty()) unsupported();
    if (t == "u64" && aop == "add") return lower_atom_add64(red, space);
    if (t != "u32" && t != "s32" && t != "b32") unsupported("." + t + " atomics");
    if ((aop == "min" || aop == "max") && t == "b32") unsupported();
    if (red && (aop == "exch" || aop == "cas")) unsupported();
    if (aop == "inc" || aop == "dec") {
      if (t != "u32") unsupported();
      return lower_atom_incdec(red, space, aop == "inc");
    }
    const size_t nsrc = aop == "cas" ? 2 : 1;
    want_ops((red ? 1 : 2) + nsrc);
    std::string mn = (space == "global" ? "ATOMG." : "ATOMS.");
    for (char c : aop) mn += char(std::toupper(static_cast<unsigned char>(c)));
    if ((aop == "min" || aop == "max") && t == "u32") mn += ".U32";
    const size_t ai = red ? 0 : 1;
    MOperand addr = address(op(ai), space);
    if (!fits_imm20(int32_t(addr.imm))) fail(op(ai).pos, "atomic address offset does not fit 20 bits");
    std::vector<MOperand> ops_out;
    ops_out.push_back(red ? MOperand::rz() : dst(op(0), 32));
    ops_out.push_back(addr);
    ops_out.push_back(src_reg(op(ai + 1), 32));
    if (nsrc == 2) ops_out.push_back(src_reg(op(ai + 2), 32));
    guarded(mn, ops_out);
  }

  // atom/red.add.u64 whose old value nobody reads: the device's atomics are
  // 32 bits, so the low words are added atomically, the carry out of that
  // addition (old + b < old) found from the old low word, and b's high word
  // plus the carry added atomically to the high word. Every carry is counted
  // once, so the memory ends with the exact sum of every add, as on a GPU; a
  // read of the 64-bit value between the two atomics can see a carry not yet
  // added, which a GPU's one atomic never shows. The old value itself would
  // be such a torn read: an atom.add.u64 whose result is read is refused.
  void lower_atom_add64(bool red, const std::string& space) {
    want_ops(red ? 2 : 3);
    if (!red && op(0).kind == Operand::REG && reads_.count(op(0).name))
      unsupported("the old value of a 64-bit atomic add: the device's atomics are 32 bits, and the two halves of it "
                  "would not be one value");
    const size_t ai = red ? 0 : 1;
    MOperand addr = address(op(ai), space);
    MOperand addr_hi = addr;
    addr_hi.imm = uint32_t(int32_t(addr.imm) + 4);
    if (!fits_imm20(int32_t(addr_hi.imm))) fail(op(ai).pos, "atomic address offset does not fit 20 bits");
    const W64 b = src64(op(ai + 1));
    const std::string mn = space == "global" ? "ATOMG.ADD" : "ATOMS.ADD";
    const int old = tmp(), sum = tmp(), c = ptmp(), hi = tmp();
    guarded(mn, {V(old, true), addr, b.lo});
    plain("IADD", {V(sum, true), V(old), b.lo});
    plain("ISETP.LT.U32.AND", {MOperand::p(c, true), V(sum), V(old), MOperand::pt()});
    plain("IADD", {V(hi, true), b.hi, V(bit_of(c))});
    guarded(mn, {MOperand::rz(), addr_hi, V(hi)});
  }

  // The high 64 bits of the 128-bit product of a and b, from the four
  // 32 x 32-bit partial products and the carries between their words;
  // signed: the unsigned result minus b where a < 0 and minus a where b < 0.
  W64 mul_hi64(const W64& a, const W64& b, bool is_signed) {
    const MOperand a0 = in_reg(a.lo), a1 = in_reg(a.hi), b0 = in_reg(b.lo), b1 = in_reg(b.hi);
    auto mulhi = [&](const MOperand& x, const MOperand& y) {
      const int r = tmp();
      plain("IMULHI.U32", {V(r, true), x, y});
      return r;
    };
    auto mullo = [&](const MOperand& x, const MOperand& y) {
      const int r = tmp();
      plain("IMUL", {V(r, true), x, y});
      return r;
    };
    // sum += x, count += carry
    auto acc = [&](int sum, int x, int count) {
      const int p = ptmp();
      plain("IADD", {V(sum, true), V(sum), V(x)});
      plain("ISETP.LT.U32.AND", {MOperand::p(p, true), V(sum), V(x), MOperand::pt()});
      plain("IADD", {V(count, true), V(count), V(bit_of(p))});
    };
    const int h00 = mulhi(a0, b0);
    const int l01 = mullo(a0, b1), h01 = mulhi(a0, b1);
    const int l10 = mullo(a1, b0), h10 = mulhi(a1, b0);
    const int l11 = mullo(a1, b1), h11 = mulhi(a1, b1);
    // the middle word h00 + l01 + l10: only its carries reach the result
    const int mid = tmp(), mc = tmp();
    plain("MOV", {V(mid, true), V(h00)});
    plain("MOV", {V(mc, true), MOperand::i(0)});
    acc(mid, l01, mc);
    acc(mid, l10, mc);
    // result = l11 + h01 + h10 + mc (low word), h11 + carries (high word)
    const int lo = tmp(), hi = tmp();
    plain("MOV", {V(lo, true), V(l11)});
    plain("MOV", {V(hi, true), V(h11)});
    acc(lo, h01, hi);
    acc(lo, h10, hi);
    acc(lo, mc, hi);
    W64 r{V(lo), V(hi)};
    if (is_signed) {
      const int na = ptmp(), nb = ptmp();
      plain("ISETP.LT.AND", {MOperand::p(na, true), a1, MOperand::i(0), MOperand::pt()});
      plain("ISETP.LT.AND", {MOperand::p(nb, true), b1, MOperand::i(0), MOperand::pt()});
      const int x0 = tmp(), x1 = tmp(), y0 = tmp(), y1 = tmp();
      plain("SEL", {V(x0, true), b0, MOperand::i(0), MOperand::p(na)});
      plain("SEL", {V(x1, true), b1, MOperand::i(0), MOperand::p(na)});
      plain("SEL", {V(y0, true), a0, MOperand::i(0), MOperand::p(nb)});
      plain("SEL", {V(y1, true), a1, MOperand::i(0), MOperand::p(nb)});
      r = add64(r, {V(x0), V(x1)}, true);
      r = add64(r, {V(y0), V(y1)}, true);
    }
    return r;
  }

  // atom/red.inc/dec.u32 (CUDA's atomicInc/atomicDec: inc stores
  // old >= b ? 0 : old + 1, dec stores old == 0 || old > b ? b : old - 1)
  // have no device atomic: a compare-and-swap loop. The first guess is a
  // plain load; a lane whose CAS finds another value retries with it. One
  // lane per address succeeds per round, so the loop ends. Lanes outside the
  // guard neither load nor swap and leave after the first round (p stays false).
  void lower_atom_incdec(bool red, const std::string& space, bool inc) {
    want_ops(red ? 2 : 3);
    const size_t ai = red ? 0 : 1;
    MOperand addr = address(op(ai), space);
    if (!fits_imm20(int32_t(addr.imm))) fail(op(ai).pos, "atomic address offset does not fit 20 bits");
    MOperand b = src_reg(op(ai + 1), 32);
    auto V = [](int v, bool def = false) { return MOperand::v(v, def); };
    const int old = new_vreg(false), nw = new_vreg(false), got = new_vreg(false);
    const int p = new_vreg(true), wrap = new_vreg(true);
    guarded(space == "global" ? "LDG" : "LDS", {V(old, true), addr});
    plain("ISETP.NE.AND", {MOperand::p(p, true), MOperand::rz(), MOperand::i(0), MOperand::pt()});  // false
    const int loop = place_label(inc ? "(atom.inc retry)" : "(atom.dec retry)");
    if (inc) {
      plain("IADD", {V(nw, true), V(old), MOperand::i(1)});
      plain("ISETP.GE.U32.AND", {MOperand::p(wrap, true), V(old), b, MOperand::pt()});
      plain("SEL", {V(nw, true), MOperand::rz(), V(nw), MOperand::p(wrap)});
    } else {
      plain("IADD", {V(nw, true), V(old), MOperand::i(uint32_t(-1))});
      plain("ISETP.EQ.AND", {MOperand::p(wrap, true), V(old), MOperand::i(0), MOperand::pt()});
      plain("ISETP.GT.U32.OR", {MOperand::p(wrap, true), V(old), b, MOperand::p(wrap)});
      plain("SEL", {V(nw, true), b, V(nw), MOperand::p(wrap)});
    }
    guarded(space == "global" ? "ATOMG.CAS" : "ATOMS.CAS", {V(got, true), addr, V(old), V(nw)});
    guarded("ISETP.NE.AND", {MOperand::p(p, true), V(got), V(old), MOperand::pt()});
    plain("MOV", {V(old, true), V(got)});
    MOperand target;
    target.kind = MOperand::LABEL;
    target.imm = uint32_t(loop);
    plain("BRA", {target});
    m_.code.back().guard = p;
    if (!red) guarded("MOV", {dst(op(0), 32), V(old)});
  }

  void lower_bar() {
    // bar.sync a[, b], barrier.sync[.aligned] a[, b]
    bool sync = false;
    for (const std::string& m : cur_->mods) {
      if (m == "sync")
        sync = true;
      else if (!(m == "aligned" && cur_->opcode == "barrier"))
        unsupported("modifier ." + m);
    }
    if (!sync) unsupported("only bar.sync / barrier.sync");
    if (cur_->ops.empty() || cur_->ops.size() > 2)
      fail(cur_->pos, quote(cur_->full) + " takes one or two operands");
    const Operand& id = op(0);
    if (id.kind != Operand::IMM || id.is_float || id.value < 0 || id.value > 15)
      fail(id.pos, "the barrier id must be an immediate 0..15 (registers are not supported yet)");
    std::vector<MOperand> ops = {MOperand::i(uint32_t(id.value))};
    if (cur_->ops.size() == 2) {
      const Operand& n = op(1);
      if (n.kind != Operand::IMM || n.is_float || n.value < 1 || n.value > 65535 || n.value % 32)
        fail(n.pos, "the thread count must be an immediate multiple of 32 (registers are not supported yet)");
      ops.push_back(MOperand::i(uint32_t(n.value)));
    }
    guarded("BAR.SYNC", ops);
  }

  // div/rem.{u32,s32}: the device has no divider, so 32 steps of restoring
  // division in a loop every lane runs the same number of times (no
  // divergence). Step: the remainder shifts in the dividend's top bit; when
  // it reaches the divisor (or its top bit was set, so the true value is 2^32
  // or more) the divisor is subtracted and a quotient bit set. Exact for
  // every operand; x / 0 gives 0xffffffff and x % 0 gives x (PTX leaves both
  // unspecified). Signed: the magnitudes are divided, the quotient takes the
  // sign of a ^ b and the remainder that of a (truncation toward zero;
  // INT_MIN / -1 gives INT_MIN).
  void lower_divrem(bool is_div, bool is_signed) {
    want_ops(3);
    MOperand a = src_reg(op(1), 32), b = src_reg(op(2), 32);
    auto tmp = [&] { return new_vreg(false); };
    const int q = tmp(), r = tmp(), n = tmp(), t = tmp(), d = tmp();
    const int p = new_vreg(true), more = new_vreg(true);
    auto V = [](int v, bool def = false) { return MOperand::v(v, def); };
    if (is_signed) {
      plain("IABS", {V(q, true), a});
      plain("IABS", {V(d, true), b});
    } else {
      plain("MOV", {V(q, true), a});
      plain("MOV", {V(d, true), b});
    }
    plain("MOV", {V(r, true), MOperand::i(0)});
    plain("MOV", {V(n, true), MOperand::i(32)});
    const int loop = place_label("(division step)");
    plain("ISETP.LT.AND", {MOperand::p(p, true), V(r), MOperand::i(0), MOperand::pt()});  // top bit of r
    plain("SHR", {V(t, true), V(q), MOperand::i(31)});
    plain("SHL", {V(r, true), V(r), MOperand::i(1)});
    plain("OR", {V(r, true), V(r), V(t)});
    plain("SHL", {V(q, true), V(q), MOperand::i(1)});
    plain("ISETP.GE.U32.OR", {MOperand::p(p, true), V(r), V(d), MOperand::p(p)});
    auto under_p = [&](const std::string& mn, std::vector<MOperand> ops) {
      plain(mn, std::move(ops));
      m_.code.back().guard = p;
    };
    under_p("ISUB", {V(r, true), V(r), V(d)});
    under_p("OR", {V(q, true), V(q), MOperand::i(1)});
    plain("IADD", {V(n, true), V(n), MOperand::i(uint32_t(-1))});
    plain("ISETP.NE.AND", {MOperand::p(more, true), V(n), MOperand::i(0), MOperand::pt()});
    MOperand target;
    target.kind = MOperand::LABEL;
    target.imm = uint32_t(loop);
    plain("BRA", {target});
    m_.code.back().guard = more;
    if (is_signed) {
      // Quotient sign a ^ b, remainder sign a.
      if (is_div) plain("XOR", {V(t, true), a, b});
      plain("ISETP.LT.AND", {MOperand::p(p, true), is_div ? V(t) : a, MOperand::i(0), MOperand::pt()});
      under_p("ISUB", {V(is_div ? q : r, true), MOperand::rz(), V(is_div ? q : r)});
    }
    guarded("MOV", {dst(op(0), 32), V(is_div ? q : r)});
  }

  // div/rem .u64/.s64 on register pairs: the 32-bit loop's restoring steps
  // on 64-bit words, 64 of them (docs/ptx.md "Integer division"): the
  // remainder:quotient pair shifts left one bit, and when the remainder
  // reaches the divisor (or its top bit was set: 2^64 or more) the divisor
  // is subtracted with a borrow and a quotient bit set. Every lane runs the
  // same 64 steps. Signed: the magnitudes, then the signs of a ^ b and a.
  void lower_divrem64(bool is_div, bool is_signed) {
    want_ops(3);
    const W64 a = src64(op(1)), b = src64(op(2));
    const int ql = tmp(), qh = tmp(), rl = tmp(), rh = tmp(), dl = tmp(), dh = tmp(), n = tmp(), t = tmp();
    const int p = ptmp(), pe = ptmp(), pc = ptmp(), more = ptmp();
    auto mov64 = [&](int lo, int hi, const W64& x) {
      plain("MOV", {V(lo, true), x.lo});
      plain("MOV", {V(hi, true), x.hi});
    };
    // |x| of a pair in place: negate (0 - x with a borrow) where the high word is negative
    auto abs64 = [&](int lo, int hi) {
      const int neg = ptmp(), nb = ptmp();
      plain("ISETP.LT.AND", {MOperand::p(neg, true), V(hi), MOperand::i(0), MOperand::pt()});
      plain("ISETP.NE.AND", {MOperand::p(nb, true), V(lo), MOperand::i(0), MOperand::p(neg)});
      auto under = [&](int g, const std::string& mn, std::vector<MOperand> ops) {
        plain(mn, std::move(ops));
        m_.code.back().guard = g;
      };
      under(neg, "ISUB", {V(lo, true), MOperand::rz(), V(lo)});
      under(neg, "ISUB", {V(hi, true), MOperand::rz(), V(hi)});
      under(nb, "IADD", {V(hi, true), V(hi), MOperand::i(uint32_t(-1))});
    };
    mov64(ql, qh, a);
    mov64(dl, dh, b);
    if (is_signed) {
      abs64(ql, qh);
      abs64(dl, dh);
    }
    plain("MOV", {V(rl, true), MOperand::i(0)});
    plain("MOV", {V(rh, true), MOperand::i(0)});
    plain("MOV", {V(n, true), MOperand::i(64)});
    const int loop = place_label("(64-bit division step)");
    auto under_p = [&](int g, const std::string& mn, std::vector<MOperand> ops) {
      plain(mn, std::move(ops));
      m_.code.back().guard = g;
    };
    plain("ISETP.LT.AND", {MOperand::p(p, true), V(rh), MOperand::i(0), MOperand::pt()});  // top bit of r
    // r:q <<= 1 (128 bits)
    plain("SHL", {V(rh, true), V(rh), MOperand::i(1)});
    plain("SHR", {V(t, true), V(rl), MOperand::i(31)});
    plain("OR", {V(rh, true), V(rh), V(t)});
    plain("SHL", {V(rl, true), V(rl), MOperand::i(1)});
    plain("SHR", {V(t, true), V(qh), MOperand::i(31)});
    plain("OR", {V(rl, true), V(rl), V(t)});
    plain("SHL", {V(qh, true), V(qh), MOperand::i(1)});
    plain("SHR", {V(t, true), V(ql), MOperand::i(31)});
    plain("OR", {V(qh, true), V(qh), V(t)});
    plain("SHL", {V(ql, true), V(ql), MOperand::i(1)});
    // p |= r >= d (unsigned 64)
    plain("ISETP.GE.U32.AND", {MOperand::p(pe, true), V(rl), V(dl), MOperand::pt()});
    plain("ISETP.EQ.AND", {MOperand::p(pe, true), V(rh), V(dh), MOperand::p(pe)});
    plain("ISETP.GT.U32.OR", {MOperand::p(p, true), V(rh), V(dh), MOperand::p(p)});
    under_p(pe, "ISETP.EQ.AND", {MOperand::p(p, true), MOperand::rz(), MOperand::i(0), MOperand::pt()});
    // where p: r -= d (the borrow from the low words), q |= 1
    plain("ISETP.LT.U32.AND", {MOperand::p(pc, true), V(rl), V(dl), MOperand::p(p)});
    under_p(p, "ISUB", {V(rl, true), V(rl), V(dl)});
    under_p(p, "ISUB", {V(rh, true), V(rh), V(dh)});
    under_p(pc, "IADD", {V(rh, true), V(rh), MOperand::i(uint32_t(-1))});
    under_p(p, "OR", {V(ql, true), V(ql), MOperand::i(1)});
    plain("IADD", {V(n, true), V(n), MOperand::i(uint32_t(-1))});
    plain("ISETP.NE.AND", {MOperand::p(more, true), V(n), MOperand::i(0), MOperand::pt()});
    MOperand target;
    target.kind = MOperand::LABEL;
    target.imm = uint32_t(loop);
    plain("BRA", {target});
    m_.code.back().guard = more;
    const int ol = is_div ? ql : rl, oh = is_div ? qh : rh;
    if (is_signed) {  // the quotient's sign a ^ b, the remainder's a
      const int s = tmp();
      if (is_div)
        plain("XOR", {V(s, true), a.hi, b.hi});
      else
        plain("MOV", {V(s, true), a.hi});
      const int neg = ptmp(), nb = ptmp();
      plain("ISETP.LT.AND", {MOperand::p(neg, true), V(s), MOperand::i(0), MOperand::pt()});
      plain("ISETP.NE.AND", {MOperand::p(nb, true), V(ol), MOperand::i(0), MOperand::p(neg)});
      under_p(neg, "ISUB", {V(ol, true), MOperand::rz(), V(ol)});
      under_p(neg, "ISUB", {V(oh, true), MOperand::rz(), V(oh)});
      under_p(nb, "IADD", {V(oh, true), V(oh), MOperand::i(uint32_t(-1))});
    }
    def64(op(0), V(ol), V(oh));
  }

  // An immediate, or a register that holds one constant in the whole kernel.
  bool constant(const Operand& o, uint32_t* v) {
    if (o.kind == Operand::IMM && !o.is_float && !o.is_double) {
      *v = uint32_t(uint64_t(o.value));
      return true;
    }
    if (o.kind != Operand::REG) return false;
    auto it = consts_.find(o.name);
    if (it == consts_.end()) return false;
    *v = it->second;
    return true;
  }

  // shfl.sync.MODE.b32 d[|p], a, b, c, membermask: the forms __shfl*_sync
  // give, c = ((32 - width) << 8) | (up ? 0 : 31) with a power-of-two width,
  // membermask 0xffffffff. PTX takes b modulo 32.
  void lower_shfl() {
    const auto& mods = cur_->mods;
    if (mods.size() != 3 || mods[0] != "sync" || mods[2] != "b32") unsupported();
    const std::string mode = mods[1];
    if (mode != "up" && mode != "down" && mode != "bfly" && mode != "idx") unsupported();
    const size_t nd = cur_->pipe_dst ? 2 : 1;
    want_ops(nd + 4);
    if (nd == 2 && reads_[op(1).name] > 0)
      fail(op(1).pos, "the lane-valid predicate " + quote(op(1).name) + " of shfl.sync is not supported yet");
    uint32_t mask = 0, c = 0;
    if (!constant(op(nd + 3), &mask) || mask != 0xFFFFFFFFu)
      fail(op(nd + 3).pos, "shfl.sync member masks other than 0xffffffff are not supported yet");
    if (!constant(op(nd + 2), &c))
      fail(op(nd + 2).pos, "the clamp/segment operand of shfl.sync must be a constant");
    int width = 0;
    for (int w = 1; w <= 32; w <<= 1)
      if (c == ((uint32_t(32 - w) << 8) | (mode == "up" ? 0u : 31u))) width = w;
    if (!width)
      fail(op(nd + 2).pos,
           "shfl.sync clamp/segment value " + std::to_string(c) + " is not one __shfl*_sync gives");
    int log2w = 0;
    while ((1 << log2w) < width) ++log2w;
    MOperand a = src_reg(op(nd), 32);
    const Operand& bo = op(nd + 1);
    MOperand b;
    uint32_t bimm = 0;
    if (constant(bo, &bimm)) {
      bimm &= 31;
      // A butterfly partner outside the segment reads its own value on a GPU.
      if (mode == "bfly" && bimm >= uint32_t(width))
        fail(bo.pos, "a shfl.sync.bfly lane mask of the segment's width or more is not supported yet");
      b = MOperand::i(bimm);
    } else if (mode == "bfly" && width < 32) {
      fail(bo.pos, "shfl.sync.bfly with a register lane mask and a width below 32 is not supported yet");
    } else if (mode == "up" || mode == "down") {
      const int t = new_vreg(false);
      plain("AND", {MOperand::v(t, true), src_reg(bo, 32), MOperand::i(31)});
      b = MOperand::v(t);
    } else {
      b = src_reg(bo, 32);  // idx uses b & (width - 1), bfly at width 32 b & 31: the device does that
    }
    std::string mn = "SHFL.";
    for (char ch : mode) mn += char(std::toupper(static_cast<unsigned char>(ch)));
    guarded(mn, {dst(op(0), 32), a, b, MOperand::i(uint32_t(width))});
  }

  // vote[.sync].{any,all}.pred d, [!]a[, membermask]; vote[.sync].ballot.b32 d, [!]a[, membermask]
  void lower_vote() {
    const auto& mods = cur_->mods;
    const bool sync = !mods.empty() && mods[0] == "sync";
    const size_t k = sync ? 1 : 0;
    if (mods.size() != k + 2) unsupported();
    const std::string mode = mods[k], t = mods[k + 1];
    want_ops(sync ? 3 : 2);
    if (sync) {
      uint32_t mask = 0;
      if (!constant(op(2), &mask) || mask != 0xFFFFFFFFu)
        fail(op(2).pos, "vote.sync member masks other than 0xffffffff are not supported yet");
    }
    const MOperand a = psrc(op(1));
    if (mode == "ballot" && t == "b32") return guarded("VOTE.BALLOT", {dst(op(0), 32), a});
    if ((mode == "any" || mode == "all") && t == "pred")
      return guarded(mode == "any" ? "VOTE.ANY" : "VOTE.ALL", {pdst(op(0)), a});
    if (mode == "uni" && t == "pred") {
      // Uniform: every active lane has a, or none has.
      const int all = new_vreg(true), none = new_vreg(true), r = new_vreg(false);
      MOperand na = a;
      na.neg = !a.neg;
      guarded("VOTE.ALL", {MOperand::p(all, true), a});
      guarded("VOTE.ALL", {MOperand::p(none, true), na});
      plain("SEL", {MOperand::v(r, true), MOperand::rz(), MOperand::i(1), MOperand::p(all, false, true)});
      return guarded("ISETP.NE.OR", {pdst(op(0)), MOperand::v(r), MOperand::i(0), MOperand::p(none)});
    }
    unsupported();
  }

  // brev.b32: swap halves, bytes, nibbles, pairs, bits (5 x 5 instructions).
  void lower_brev() {
    want_ops(2);
    only_mods({"b32"});
    MOperand x = src_reg(op(1), 32);
    static const uint32_t masks[] = {0x0000FFFF, 0x00FF00FF, 0x0F0F0F0F, 0x33333333, 0x55555555};
    for (int k = 0; k < 5; ++k) {
      const uint32_t sh = 16u >> k;
      const int hi = new_vreg(false), lo = new_vreg(false), y = new_vreg(false);
      plain("SHR", {MOperand::v(hi, true), x, MOperand::i(sh)});
      plain("AND", {MOperand::v(hi, true), MOperand::v(hi), MOperand::i(masks[k])});
      plain("AND", {MOperand::v(lo, true), x, MOperand::i(masks[k])});
      plain("SHL", {MOperand::v(lo, true), MOperand::v(lo), MOperand::i(sh)});
      if (k == 4) return guarded("OR", {dst(op(0), 32), MOperand::v(hi), MOperand::v(lo)});
      plain("OR", {MOperand::v(y, true), MOperand::v(hi), MOperand::v(lo)});
      x = MOperand::v(y);
    }
  }

  // bfind[.shiftamt].{u32,s32}: the most significant 1 (s32: non-sign) bit,
  // 31 - CLZ; .shiftamt gives CLZ itself; 0xffffffff when there is none.
  void lower_bfind() {
    want_ops(2);
    const std::string t = type_mod();
    only_mods({"shiftamt", "u32", "s32"});
    if (t != "u32" && t != "s32") unsupported();
    MOperand x = src_reg(op(1), 32);
    if (t == "s32") {  // the bits that differ from the sign: x ^ (x >> 31)
      const int sg = new_vreg(false), y = new_vreg(false);
      plain("SHRA", {MOperand::v(sg, true), x, MOperand::i(31)});
      plain("XOR", {MOperand::v(y, true), x, MOperand::v(sg)});
      x = MOperand::v(y);
    }
    const int lz = new_vreg(false);
    plain("CLZ", {MOperand::v(lz, true), x});
    if (has_mod("shiftamt")) {
      const int none = new_vreg(true);
      plain("ISETP.EQ.AND", {MOperand::p(none, true), x, MOperand::i(0), MOperand::pt()});
      return guarded(
          "SEL", {dst(op(0), 32), MOperand::v(lz), MOperand::i(0xFFFFFFFF), MOperand::p(none, false, true)});
    }
    const int n = new_vreg(false);
    plain("ISUB", {MOperand::v(n, true), MOperand::rz(), MOperand::v(lz)});
    guarded("IADD", {dst(op(0), 32), MOperand::v(n), MOperand::i(31)});  // CLZ 32 gives -1
  }

  // prmt.b32 d, a, b, c (default mode) with c a constant: result byte i is
  // byte (c >> 4i) & 7 of {b, a} (a bytes 0..3), or that byte's sign
  // replicated when bit 3 of the selector is set.
  void lower_prmt() {
    want_ops(4);
    for (const std::string& m : cur_->mods)
      if (m != "b32") unsupported("modifier ." + m + " (only the default mode is lowered)");
    uint32_t c = 0;
    if (!constant(op(3), &c))
      fail(op(3).pos, quote(cur_->full) + " with a selector that is not a constant is not supported yet");
    MOperand a = src_reg(op(1), 32), b = src_reg(op(2), 32);
    int acc = -1;
    for (int i = 0; i < 4; ++i) {
      const uint32_t sel = (c >> (4 * i)) & 0xF, k = sel & 3;
      const MOperand src = (sel & 7) < 4 ? a : b;
      const int x = new_vreg(false);
      if (sel & 8) {  // the byte's top bit to all 8 bits, placed at byte i
        plain("SHL", {MOperand::v(x, true), src, MOperand::i(24 - 8 * k)});
        plain("SHRA", {MOperand::v(x, true), MOperand::v(x), MOperand::i(31)});
        plain("AND", {MOperand::v(x, true), MOperand::v(x), MOperand::i(0xFFu << (8 * i))});
      } else {  // byte k of src moved to byte i
        if (k > uint32_t(i))
          plain("SHR", {MOperand::v(x, true), src, MOperand::i(8 * (k - i))});
        else
          plain("SHL", {MOperand::v(x, true), src, MOperand::i(8 * (i - k))});
        plain("AND", {MOperand::v(x, true), MOperand::v(x), MOperand::i(0xFFu << (8 * i))});
      }
      if (acc < 0) {
        acc = x;
      } else {
        const int y = new_vreg(false);
        plain("OR", {MOperand::v(y, true), MOperand::v(acc), MOperand::v(x)});
        acc = y;
      }
    }
    guarded("MOV", {dst(op(0), 32), MOperand::v(acc)});
  }

  // membar.{cta,gl,sys}, fence{.sc,.acq_rel}.{cta,gpu,sys}: nothing. The SM's
  // load/store unit performs one memory instruction at a time, in issue
  // order, each complete before the next starts (docs/lsu.md), and the
  // functional model does the same: every access is already ordered before
  // every later one, which is what the strongest of these asks for.
  void lower_fence() {
    want_ops(0);
    const auto& mods = cur_->mods;
    if (cur_->opcode == "membar") {
      if (mods.size() != 1 || (mods[0] != "cta" && mods[0] != "gl" && mods[0] != "sys")) unsupported();
      return;
    }
    const bool sem = !mods.empty() && (mods[0] == "sc" || mods[0] == "acq_rel");
    const size_t k = sem ? 1 : 0;
    if (mods.size() != k + 1 || (mods[k] != "cta" && mods[k] != "gpu" && mods[k] != "sys"))
      unsupported(std::find(mods.begin(), mods.end(), "proxy") != mods.end() ? "proxy fences" : "");
  }

  void lower_bra() {
    only_mods({"uni"});
    want_ops(1);
    const Operand& t = op(0);
    if (t.kind != Operand::SYMBOL) fail(t.pos, "expected a label");
    auto it = labels_.find(t.name);
    if (it == labels_.end()) fail(t.pos, "label " + quote(t.name) + " is not defined in this kernel");
    MOperand l;
    l.kind = MOperand::LABEL;
    l.imm = uint32_t(it->second);
    guarded("BRA", {l});
  }
};

}  // namespace

MKernel lower_kernel(const Kernel& k, const std::vector<ModuleVar>& vars, DiagSink* diags) {
  return Lowerer(k, vars, diags).run();
}

}  // namespace baresm::isa::ptx

namespace baresm::isa {

// Sorted: the lowering looks opcodes up by binary search.
const std::vector<std::string>& ptx_opcode_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = {
        "abs",  "activemask", "add",  "and",   "atom", "bar",    "barrier", "bfe",  "bfi",  "bra",
        "clz",  "cvt",        "cvta", "div",   "exit", "mad",    "max",     "min",  "mov",  "mul",
        "neg",  "not",        "or",   "popc",  "red",  "rem",    "ret",     "selp", "setp", "shfl",
        "shl",  "shr",        "st",   "sub",   "trap", "vote",   "xor",     "ld",   "fma",  "rcp",
        "sqrt", "rsqrt",      "brev", "bfind", "prmt", "membar", "fence",   "ex2",  "lg2",  "copysign",
    };
    std::sort(v.begin(), v.end());
    return v;
  }();
  return names;
}

const std::vector<std::string>& ptx_sreg_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& [ptx, sr] : ptx::sregs()) v.push_back(ptx);
    return v;
  }();
  return names;
}

}  // namespace baresm::isa
