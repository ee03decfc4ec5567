// Device functions and calls, inlined (ptx_inline.h; docs/ptx.md "Device
// functions and calls").
#include "isa/ptx_inline.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "isa/ptx.h"

namespace baresm::isa::ptx {

namespace {

// A kernel grows by its callees' bodies once per call site: past this many
// statements the expansion is refused (a deep tree of calls of big functions).
constexpr size_t kMaxInlinedStatements = 400000;

int type_width(const std::string& t) {
  if (t == "pred") return 1;
  if (t.size() < 2) return 0;
  return std::atoi(t.c_str() + 1);
}

class Inliner {
 public:
  Inliner(const File& f, DiagSink* d) : file_(f), d_(d) {
    for (const Kernel& fn : f.funcs) {
      auto it = funcs_.find(fn.name);
      if (it == funcs_.end() || (!it->second->has_body && fn.has_body)) funcs_[fn.name] = &fn;
    }
  }

  Kernel run(const Kernel& k) {
    out_.name = k.name;
    out_.pos = k.pos;
    out_.params = k.params;
    out_.regs = k.regs;
    out_.shared = k.shared;
    out_.locals = k.locals;
    for (const RegDecl& r : k.regs) note_reg(r);
    std::vector<std::string> stack{k.name};
    expand(k, Renamer{}, {}, &stack);
    return std::move(out_);
  }

 private:
  // A .param variable of one call (an argument or the return value, which
  // the caller's call sequence declares and the callee's parameter names):
  // each value written at a constant offset is a virtual register.
  struct Slot {
    std::string reg;
    uint32_t bytes = 0;
  };
  struct Obj {
    std::string name;
    uint32_t size = 0;
    std::map<uint32_t, Slot> slots;  // by offset
    bool refused = false;  // the return value of a call that was refused: its reads say nothing more
  };
  // How one inlined copy renames the callee's registers, labels and .local
  // variables apart (the kernel itself is not renamed).
  struct Renamer {
    std::string tag;  // "" for the kernel, "__fN_" for the Nth copy
    std::set<std::string> exact;                // registers declared one by one
    std::map<std::string, int> ranges;          // prefix -> count of %r<count>
    std::set<std::string> symbols;              // labels and .local variables
    bool is_reg(const std::string& n) const {
      if (exact.count(n)) return true;
      size_t e = n.size();
      while (e > 0 && std::isdigit(static_cast<unsigned char>(n[e - 1]))) --e;
      if (e == n.size() || n.size() - e > 7 || (n.size() - e > 1 && n[e] == '0')) return false;
      auto it = ranges.find(n.substr(0, e));
      return it != ranges.end() && std::atoi(n.c_str() + e) < it->second;
    }
    std::string reg(const std::string& n) const {
      return tag.empty() || !is_reg(n) ? n : "%" + tag + n.substr(1);
    }
    std::string sym(const std::string& n) const { return tag.empty() || !symbols.count(n) ? n : tag + n; }
  };

  const File& file_;
  DiagSink* d_;
  std::map<std::string, const Kernel*> funcs_;
  Kernel out_;
  std::vector<Obj> objs_;
  int copies_ = 0;
  int temps_ = 0;
  bool too_big_ = false;
  // Register widths of the output kernel, by name (declared one by one or as ranges).
  std::map<std::string, std::string> exact_types_;
  std::map<std::string, std::pair<int, std::string>> range_types_;

  void note_reg(const RegDecl& r) {
    if (r.count == 0)
      exact_types_[r.prefix] = r.type;
    else
      range_types_[r.prefix] = {r.count, r.type};
  }
  // The width in bits of a declared register (0 when it is none).
  int reg_width(const std::string& n) const {
    auto e = exact_types_.find(n);
    if (e != exact_types_.end()) return type_width(e->second);
    size_t i = n.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(n[i - 1]))) --i;
    if (i == n.size()) return 0;
    auto r = range_types_.find(n.substr(0, i));
    if (r == range_types_.end() || std::atoi(n.c_str() + i) >= r->second.first) return 0;
    return type_width(r->second.second);
  }

  void push(Statement s) {
    if (out_.body.size() >= kMaxInlinedStatements) {
      if (!too_big_)
        d_->error(s.pos, "inlining the calls of kernel " + quote(out_.name) + " makes it longer than " +
                             std::to_string(kMaxInlinedStatements) + " statements");
      too_big_ = true;
      return;
    }
    out_.body.push_back(std::move(s));
  }
  void label(const std::string& l, Pos p) {
    Statement s;
    s.kind = Statement::LABEL;
    s.label = l;
    s.pos = p;
    push(std::move(s));
  }
  static Operand reg_op(const std::string& n, Pos p) {
    Operand o;
    o.kind = Operand::REG;
    o.name = n;
    o.pos = p;
    return o;
  }
  // An instruction the inliner writes, at the position of the PTX one it stands for.
  void emit(const Instruction& at, const std::string& opcode, std::vector<std::string> mods,
            std::vector<Operand> ops, bool keep_guard = true) {
    Statement s;
    s.pos = at.pos;
    Instruction& in = s.instr;
    in.pos = at.pos;
    if (keep_guard) {
      in.guard = at.guard;
      in.guard_neg = at.guard_neg;
    }
    in.opcode = opcode;
    in.full = opcode;
    for (const std::string& m : mods) in.full += "." + m;
    in.mods = std::move(mods);
    in.ops = std::move(ops);
    push(std::move(s));
  }

  Instruction renamed(const Instruction& src, const Renamer& rn) const {
    Instruction in = src;
    if (!in.guard.empty()) in.guard = rn.reg(in.guard);
    for (Operand& o : in.ops) {
      if (o.kind == Operand::REG) o.name = rn.reg(o.name);
      if (o.kind == Operand::ADDR) o.name = o.base_is_reg ? rn.reg(o.name) : rn.sym(o.name);
      if (o.kind == Operand::SYMBOL) o.name = rn.sym(o.name);
      for (Operand& e : o.elems)
        if (e.kind == Operand::REG) e.name = rn.reg(e.name);
    }
    return in;
  }

  // ---- .param variables of calls -------------------------------------------------
  std::string slot_reg(int obj, uint32_t off, uint32_t bytes) {
    Obj& o = objs_[size_t(obj)];
    auto it = o.slots.find(off);
    if (it != o.slots.end()) return it->second.reg;
    Slot s;
    s.reg = "%__p" + std::to_string(obj) + "_" + std::to_string(off);
    s.bytes = bytes;
    RegDecl r;
    r.type = bytes == 8 ? "b64" : "b32";
    r.prefix = s.reg;
    note_reg(r);
    out_.regs.push_back(r);
    o.slots[off] = s;
    return s.reg;
  }

  // st.param / ld.param of a call's .param variable: each element of the
  // access becomes a mov or cvt into or out of the register of its offset.
  void param_access(const Instruction& in, int obj) {
    const bool st = in.opcode == "st";
    const Obj& o = objs_[size_t(obj)];
    int vec = 1;
    std::string type;
    for (const std::string& m : in.mods) {
      if (m == "v2") vec = 2;
      else if (m == "v4") vec = 4;
      else if (m != "param") type = m;
    }
    const int tb = type_width(type);
    if (in.ops.size() != 2 || (tb != 8 && tb != 16 && tb != 32 && tb != 64) || type == "pred") {
      d_->error(in.pos, "PTX instruction " + quote(in.full) + " on call parameter " + quote(o.name) +
                            " is not supported");
      return;
    }
    const uint32_t eb = uint32_t(tb / 8);
    const Operand& addr = in.ops[st ? 0 : 1];
    const Operand& val = in.ops[st ? 1 : 0];
    if ((val.kind == Operand::VEC) != (vec > 1) || (vec > 1 && val.elems.size() != size_t(vec))) {
      d_->error(val.pos, "expected " + std::string(vec > 1 ? "a vector of " + std::to_string(vec) : "one") +
                             " operand for " + quote(in.full));
      return;
    }
    for (int e = 0; e < vec; ++e) {
      const Operand& v = vec > 1 ? val.elems[size_t(e)] : val;
      const int64_t off = addr.value + int64_t(e) * eb;
      if (off < 0 || uint64_t(off) + eb > o.size) {
        d_->error(addr.pos, quote(in.full) + " at " + quote(o.name) + "+" + std::to_string(off) +
                                " is outside the " + std::to_string(o.size) + "-byte parameter");
        return;
      }
      if (v.kind == Operand::REG && v.name == "_") continue;
      if (st)
        store(in, obj, uint32_t(off), eb, type, v);
      else
        load(in, obj, uint32_t(off), eb, type, v);
    }
  }

  void store(const Instruction& in, int obj, uint32_t off, uint32_t n, const std::string& type, const Operand& v) {
    Obj& o = objs_[size_t(obj)];
    for (const auto& [so, s] : o.slots)
      if ((so == off && s.bytes != n) || (so != off && so < off + n && off < so + s.bytes)) {
        d_->error(in.pos, quote(in.full) + " writes " + std::to_string(n) + " bytes at " + quote(o.name) + "+" +
                              std::to_string(off) + ", over " + std::to_string(s.bytes) + " bytes written at +" +
                              std::to_string(so) + ": a call parameter is inlined as one register per value "
                              "written at one offset and width");
        return;
      }
    const std::string slot = slot_reg(obj, off, n);
    const Operand d = reg_op(slot, v.pos);
    const char* mv = n == 8 ? "b64" : "b32";
    if (v.kind == Operand::IMM) {
      Operand imm = v;
      uint64_t bits = v.is_float ? v.bits : uint64_t(v.value);
      imm.is_float = imm.is_double = false;
      if (n < 8) bits &= (uint64_t(1) << (8 * n)) - 1;
      imm.value = int64_t(bits);
      return emit(in, "mov", {mv}, {d, imm});
    }
    const int w = v.kind == Operand::REG ? reg_width(v.name) : 0;
    if (w == 0 || w == 1) {
      d_->error(v.pos, quote(in.full) + ": expected a declared register or an immediate, found " + quote(v.name));
      return;
    }
    if (w == 64 && n < 8) return emit(in, "cvt", {"u32", "u64"}, {d, v});
    if (w == 16 && n <= 2) return emit(in, "cvt", {"u32", "u16"}, {d, v});
    if ((n == 8) != (w == 64) || (w == 16 && n > 2)) {
      d_->error(v.pos, quote(in.full) + ": a " + std::to_string(w) + "-bit register for ." + type);
      return;
    }
    emit(in, "mov", {mv}, {d, v});
  }

  void load(const Instruction& in, int obj, uint32_t off, uint32_t m, const std::string& type, const Operand& v) {
    const Obj& o = objs_[size_t(obj)];
    if (o.refused) return;
    auto it = o.slots.find(off);
    // The ABI passes a char or short in a 4-byte parameter: a read of fewer
    // bytes at the offset of a wider value reads its low bytes (little-endian).
    if (it == o.slots.end() || it->second.bytes < m) {
      d_->error(in.pos, quote(in.full) + " reads " + std::to_string(m) + " bytes at " + quote(o.name) + "+" +
                            std::to_string(off) + ", which " +
                            (it == o.slots.end() ? std::string("no earlier st.param wrote")
                                                 : "were written as " + std::to_string(it->second.bytes) + " bytes") +
                            ": a call parameter is inlined as one register per value written at one offset and width");
      return;
    }
    Operand s = reg_op(it->second.reg, v.pos);
    const int w = v.kind == Operand::REG ? reg_width(v.name) : 0;
    if (it->second.bytes == 8 && m < 8) {  // the low word first
      RegDecl t;
      t.type = "b32";
      t.prefix = "%__t" + std::to_string(++temps_);
      note_reg(t);
      out_.regs.push_back(t);
      const Operand lo = reg_op(t.prefix, v.pos);
      emit(in, "cvt", {"u32", "u64"}, {lo, s});
      s = lo;
    }
    if (w == 0 || w == 1) {
      d_->error(v.pos, quote(in.full) + ": expected a declared register, found " + quote(v.name));
      return;
    }
    const bool sgn = type[0] == 's';
    if (m == 8) {
      if (w != 64) {
        d_->error(v.pos, quote(in.full) + ": a " + std::to_string(w) + "-bit register for ." + type);
        return;
      }
      return emit(in, "mov", {"b64"}, {v, s});
    }
    if (m == 4 && w == 32) return emit(in, "mov", {"b32"}, {v, s});
    if (m == 4 && w == 16) return emit(in, "cvt", {"u16", "u32"}, {v, s});
    if (type[0] == 'f' && m == 4) {
      d_->error(v.pos, quote(in.full) + ": a " + std::to_string(w) + "-bit register for ." + type);
      return;
    }
    // A narrower value into a wider register: extended by the type's sign,
    // as ld does (the 16-bit register keeps its 16 bits).
    const std::string from = std::string(sgn ? "s" : "u") + std::to_string(8 * m);
    const std::string to = std::string(sgn ? "s" : "u") + std::to_string(w);
    emit(in, "cvt", {to, from}, {v, s});
  }

  // ---- expansion -----------------------------------------------------------------
  void expand(const Kernel& f, const Renamer& rn, std::map<std::string, int> bound,
              std::vector<std::string>* stack) {
    size_t last = f.body.size();
    for (size_t i = f.body.size(); i-- > 0;)
      if (f.body[i].kind == Statement::INSTR) {
        last = i;
        break;
      }
    const std::string end = rn.tag + "ret";
    bool need_end = false;
    for (size_t i = 0; i < f.body.size() && !too_big_; ++i) {
      const Statement& s = f.body[i];
      if (s.kind == Statement::LABEL) {
        label(rn.sym(s.label), s.pos);
        continue;
      }
      if (s.kind == Statement::PARAM) {
        Obj o;
        o.name = s.param.name;
        o.size = s.param.size;
        bound[s.param.name] = int(objs_.size());
        objs_.push_back(std::move(o));
        continue;
      }
      const Instruction in = renamed(s.instr, rn);
      if (in.opcode == "call") {
        call(in, bound, stack);
        continue;
      }
      const bool param_space = std::find(in.mods.begin(), in.mods.end(), "param") != in.mods.end();
      if ((in.opcode == "ld" || in.opcode == "st") && param_space && in.ops.size() == 2) {
        const Operand& a = in.ops[in.opcode == "st" ? 0 : 1];
        if (a.kind == Operand::ADDR && !a.base_is_reg && bound.count(a.name)) {
          param_access(in, bound[a.name]);
          continue;
        }
      }
      bool named = false;
      for (const Operand& o : in.ops)
        if ((o.kind == Operand::SYMBOL || (o.kind == Operand::ADDR && !o.base_is_reg)) && bound.count(o.name)) {
          d_->error(o.pos, "call parameter " + quote(o.name) + " used by " + quote(in.full) +
                               ": only ld.param and st.param of a call's parameters are supported "
                               "(their address is not)");
          named = true;
        }
      if (named) continue;
      if (f.is_func && in.opcode == "ret") {
        if (i == last && in.guard.empty()) continue;  // falls through to the caller
        need_end = true;
        Operand l;
        l.kind = Operand::SYMBOL;
        l.name = end;
        l.pos = in.pos;
        emit(in, "bra", {}, {l});
        continue;
      }
      Statement c;
      c.pos = s.pos;
      c.instr = in;
      push(std::move(c));
    }
    if (need_end) label(end, f.body.empty() ? f.pos : f.body.back().pos);
  }

  void call(const Instruction& in, const std::map<std::string, int>& bound, std::vector<std::string>* stack) {
    const size_t before = d_->diags.size();
    call_inline(in, bound, stack);
    if (d_->diags.size() != before)
      for (const Operand& r : in.call_rets) {
        auto b = bound.find(r.name);
        if (b != bound.end()) objs_[size_t(b->second)].refused = true;
      }
  }
  void call_inline(const Instruction& in, const std::map<std::string, int>& bound,
                   std::vector<std::string>* stack) {
    const Operand& target = in.ops.empty() ? Operand{} : in.ops[0];
    if (in.ops.empty() || target.kind != Operand::SYMBOL || in.call_prototype) {
      d_->error(in.pos, "PTX instruction " + quote(in.full) +
                            " is an indirect call (a function pointer): not supported, device functions are inlined");
      return;
    }
    auto fit = funcs_.find(target.name);
    if (fit == funcs_.end()) {
      d_->error(target.pos, "call of " + quote(target.name) + ", which is not a .func of this file");
      return;
    }
    const Kernel& f = *fit->second;
    if (!f.has_body) {
      d_->error(target.pos, "call of " + quote(f.name) +
                                ", a function declared without a body (.extern: vprintf, malloc, "
                                "__assertfail and other functions of the CUDA system library are not supported)");
      return;
    }
    if (std::find(stack->begin(), stack->end(), f.name) != stack->end()) {
      std::string chain;
      for (const std::string& n : *stack) chain += n + " -> ";
      d_->error(target.pos, "recursive call of " + quote(f.name) + " (" + chain + f.name +
                                "): device functions are inlined, so recursion is not supported");
      return;
    }
    if (in.call_rets.size() != f.rets.size() || in.call_args.size() != f.params.size()) {
      d_->error(in.pos, "call of " + quote(f.name) + " with " + std::to_string(in.call_rets.size()) +
                            " return and " + std::to_string(in.call_args.size()) + " argument parameters; it has " +
                            std::to_string(f.rets.size()) + " and " + std::to_string(f.params.size()));
      return;
    }
    std::map<std::string, int> callee;
    bool ok = true;
    auto bind = [&](const Operand& a, const Param& formal) {
      auto b = bound.find(a.name);
      if (a.kind != Operand::SYMBOL || b == bound.end()) {
        d_->error(a.pos, "call of " + quote(f.name) + ": " + quote(a.name.empty() ? "operand" : a.name) +
                             " is not a .param variable of the call sequence (only those are supported)");
        ok = false;
        return;
      }
      if (objs_[size_t(b->second)].size < formal.size) {
        d_->error(a.pos, "call of " + quote(f.name) + ": " + quote(a.name) + " has " +
                             std::to_string(objs_[size_t(b->second)].size) + " bytes, " + quote(formal.name) +
                             " " + std::to_string(formal.size));
        ok = false;
        return;
      }
      callee[formal.name] = b->second;
    };
    for (size_t i = 0; i < f.rets.size(); ++i) bind(in.call_rets[i], f.rets[i]);
    for (size_t i = 0; i < f.params.size(); ++i) bind(in.call_args[i], f.params[i]);
    if (!ok) return;
    if (!f.shared.empty()) {
      d_->error(f.shared[0].pos, ".shared variable " + quote(f.shared[0].name) + " inside device function " +
                                     quote(f.name) + " is not supported");
      return;
    }
    Renamer rn;
    rn.tag = "__f" + std::to_string(++copies_) + "_";
    for (const RegDecl& r : f.regs) (r.count == 0 ? (void)rn.exact.insert(r.prefix) : (void)(rn.ranges[r.prefix] = r.count));
    for (const Statement& s : f.body)
      if (s.kind == Statement::LABEL) rn.symbols.insert(s.label);
    for (const SharedVar& v : f.locals) rn.symbols.insert(v.name);
    for (RegDecl r : f.regs) {
      r.prefix = "%" + rn.tag + r.prefix.substr(1);
      note_reg(r);
      out_.regs.push_back(r);
    }
    for (SharedVar v : f.locals) {
      v.name = rn.tag + v.name;
      out_.locals.push_back(v);
    }
    // A guarded call: the copy is branched around where the guard is false.
    const std::string skip = rn.tag + "skip";
    if (!in.guard.empty()) {
      Instruction g = in;
      g.guard_neg = !in.guard_neg;
      Operand l;
      l.kind = Operand::SYMBOL;
      l.name = skip;
      l.pos = in.pos;
      emit(g, "bra", {}, {l});
    }
    stack->push_back(f.name);
    expand(f, rn, callee, stack);
    stack->pop_back();
    if (!in.guard.empty()) label(skip, in.pos);
  }
};

}  // namespace

Kernel inline_calls(const Kernel& k, const File& file, DiagSink* diags) {
  bool any = false;
  for (const Statement& s : k.body) any |= s.kind != Statement::LABEL && (s.kind == Statement::PARAM || s.instr.opcode == "call");
  if (!any) return k;
  Inliner in(file, diags);
  return in.run(k);
}

}  // namespace baresm::isa::ptx
