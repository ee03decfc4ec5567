// Device functions and calls, inlined (ptx_inline.h; docs/ptx.md "Device
// functions and calls").
#include "isa/ptx_inline.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "isa/ptx.h"

namespace baresm::isa::ptx {

namespace {

// A kernel grows by its callees' bodies once per call site: past this many
// statements the expansion is refused (a deep tree of calls of big functions).
constexpr size_t kMaxInlinedStatements = 400000;

// Recursion (docs/ptx.md "Recursion"): the per-thread stacks in the local
// frame. kCallStackBytes holds the saved registers and return sites of the
// active calls; kDepotStackBytes the .local arrays of recursive functions'
// activations (only when one has any). 1 KiB is CUDA's default
// cudaLimitStackSize.
constexpr uint32_t kCallStackBytes = 1024;
constexpr uint32_t kDepotStackBytes = 1024;
const char* const kCallStackVar = "__baresm_call_stack";
const char* const kDepotStackVar = "__baresm_depot_stack";

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
    find_recursion();
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
    if (regions_ > 0) {  // the stacks' pointers, set once at the kernel's entry
      std::vector<Statement> body;
      body.swap(out_.body);
      const Instruction at = at_pos(k.pos);
      emit(at, "mov", {"u32"}, {reg_op(kCallStackReg, k.pos), sym_op(kCallStackVar, k.pos)});
      emit(at, "add", {"u32"},
           {reg_op("%__splim", k.pos), reg_op(kCallStackReg, k.pos), imm_op(32 * kCallStackBytes)});
      SharedVar cs;
      cs.name = kCallStackVar;
      cs.align = 16;
      cs.size = kCallStackBytes;
      cs.pos = k.pos;
      std::vector<SharedVar> locals{cs};
      if (depots_) {
        emit(at, "mov", {"u32"}, {reg_op("%__fp", k.pos), sym_op(kDepotStackVar, k.pos)});
        cs.name = kDepotStackVar;
        cs.size = kDepotStackBytes;
        locals.push_back(cs);
      }
      out_.locals.insert(out_.locals.begin(), locals.begin(), locals.end());
      for (Statement& st : body) out_.body.push_back(std::move(st));
    }
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

  // ---- recursion: one region per call into a recursive cycle from outside it ----
  // A function of the cycle, emitted once in the region: its registers
  // renamed for the region, its parameters and return values one .param
  // object each (shared by all its activations), its .local variables at
  // offsets of its activation's depot.
  struct FnInst {
    const Kernel* f = nullptr;
    Renamer rn;
    std::map<std::string, int> bound;  // formal name -> object
    std::vector<int> params, rets;     // objects
    std::string entry;                 // label
    std::string depot_reg;             // the activation's depot base (a frame offset), "" without .local
    uint32_t depot_bytes = 0;
    std::map<std::string, uint32_t> local_off;  // renamed .local variable -> offset in the depot
  };
  // A call of a function of the cycle from inside it (is_ret false), or a
  // return from one, left as a marker in the region's body until the
  // registers live across every call are known.
  struct Marker {
    bool is_ret = false;
    int fn = 0;                   // the callee (call) or the function returning (ret)
    int site = 0;                 // the call's return-site id (1..)
    std::vector<int> args, rets;  // the call sequence's objects
    Instruction at;
  };
  struct Region {
    int scc = -1;
    std::string tag;
    std::vector<FnInst> fns;
    size_t next = 0;  // fns expanded so far
    std::vector<Marker> markers;
    int sites = 0;
    int cur_fn = -1;
  };

  const File& file_;
  DiagSink* d_;
  std::map<std::string, const Kernel*> funcs_;
  std::map<std::string, int> scc_;  // functions in a recursive cycle -> the cycle's id
  std::map<int, std::vector<std::string>> scc_members_;
  Region* region_ = nullptr;
  int regions_ = 0;
  bool depots_ = false;
  bool synth_declared_ = false;
  int stats_saved_ = 0, stats_calls_ = 0;
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
  static Operand sym_op(const std::string& n, Pos p) {
    Operand o;
    o.kind = Operand::SYMBOL;
    o.name = n;
    o.pos = p;
    return o;
  }
  static Operand imm_op(int64_t v) {
    Operand o;
    o.kind = Operand::IMM;
    o.value = v;
    return o;
  }
  static Operand addr_op(const std::string& reg, int64_t off, Pos p) {
    Operand o;
    o.kind = Operand::ADDR;
    o.name = reg;
    o.base_is_reg = true;
    o.value = off;
    o.pos = p;
    return o;
  }
  static Instruction at_pos(Pos p) {
    Instruction in;
    in.pos = p;
    return in;
  }
  // The declared type of a register ("" when it is none).
  std::string reg_type(const std::string& n) const {
    auto e = exact_types_.find(n);
    if (e != exact_types_.end()) return e->second;
    size_t i = n.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(n[i - 1]))) --i;
    if (i == n.size()) return "";
    auto r = range_types_.find(n.substr(0, i));
    if (r == range_types_.end() || std::atoi(n.c_str() + i) >= r->second.first) return "";
    return r->second.second;
  }
  void declare(const std::string& name, const std::string& type) {
    RegDecl r;
    r.type = type;
    r.prefix = name;
    note_reg(r);
    out_.regs.push_back(r);
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
              std::vector<std::string>* stack, int region_fn = -1) {
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
      Instruction in = renamed(s.instr, rn);
      if (region_fn >= 0) {
        if (in.opcode == "ret") {
          ret_marker(in, region_fn);
          continue;
        }
        if (!region_instr(&in, region_fn)) continue;
      }
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
    if (region_fn >= 0 &&
        (last == f.body.size() || f.body[last].instr.opcode != "ret" || !f.body[last].instr.guard.empty()))
      ret_marker(at_pos(f.body.empty() ? f.pos : f.body.back().pos), region_fn);
  }

  // ---- recursion ------------------------------------------------------------------
  // The call graph's strongly connected components (Tarjan): the functions
  // of a cycle (or calling themselves) are emitted once per region.
  void find_recursion() {
    std::map<std::string, std::vector<std::string>> edges;
    for (const auto& [name, fn] : funcs_)
      for (const Statement& st : fn->body)
        if (st.kind == Statement::INSTR && st.instr.opcode == "call" && !st.instr.ops.empty() &&
            st.instr.ops[0].kind == Operand::SYMBOL && funcs_.count(st.instr.ops[0].name))
          edges[name].push_back(st.instr.ops[0].name);
    std::map<std::string, int> index, low;
    std::set<std::string> on;
    std::vector<std::string> st;
    int next = 0, sccs = 0;
    std::function<void(const std::string&)> visit = [&](const std::string& v) {
      index[v] = low[v] = next++;
      st.push_back(v);
      on.insert(v);
      for (const std::string& w : edges[v]) {
        if (!index.count(w)) {
          visit(w);
          low[v] = std::min(low[v], low[w]);
        } else if (on.count(w)) {
          low[v] = std::min(low[v], index[w]);
        }
      }
      if (low[v] != index[v]) return;
      std::vector<std::string> comp;
      std::string w;
      do {
        w = st.back();
        st.pop_back();
        on.erase(w);
        comp.push_back(w);
      } while (w != v);
      const auto& ev = edges[v];
      if (comp.size() > 1 || std::find(ev.begin(), ev.end(), v) != ev.end()) {
        std::sort(comp.begin(), comp.end());
        for (const std::string& c : comp) scc_[c] = sccs;
        scc_members_[sccs++] = comp;
      }
    };
    for (const auto& [name, fn] : funcs_)
      if (!index.count(name)) visit(name);
  }

  void declare_synthetic() {
    if (synth_declared_) return;
    synth_declared_ = true;
    for (const char* r : {kCallStackReg, "%__splim", "%__fp", "%__state", "%__sv"}) declare(r, "b32");
    for (const char* r : {"%__pd", "%__pov"}) declare(r, "pred");
  }
  static bool synthetic(const std::string& n) {
    return n == kCallStackReg || n == "%__splim" || n == "%__fp" || n == "%__state" || n == "%__sv" ||
           n == "%__pd" || n == "%__pov";
  }

  // The byte layout (offset -> bytes) that a function's body writes into
  // its return value i with st.param.
  std::map<uint32_t, uint32_t> ret_layout(const Kernel& g, size_t i) const {
    std::map<uint32_t, uint32_t> lay;
    for (const Statement& st : g.body) {
      const Instruction& in = st.instr;
      if (st.kind != Statement::INSTR || in.opcode != "st" || in.ops.size() != 2 ||
          std::find(in.mods.begin(), in.mods.end(), "param") == in.mods.end())
        continue;
      const Operand& a = in.ops[0];
      if (a.kind != Operand::ADDR || a.base_is_reg || a.name != g.rets[i].name) continue;
      int vec = 1, tb = 0;
      for (const std::string& m : in.mods) {
        if (m == "v2")
          vec = 2;
        else if (m == "v4")
          vec = 4;
        else if (m != "param")
          tb = type_width(m);
      }
      if (tb != 8 && tb != 16 && tb != 32 && tb != 64) continue;
      for (int e = 0; e < vec; ++e) lay[uint32_t(a.value + e * tb / 8)] = uint32_t(tb / 8);
    }
    return lay;
  }

  // The function's instance in the region (made, and queued for expansion,
  // at its first call; args give its parameters' layout). -1 on an error.
  int fn_index(const Kernel& g, const std::vector<int>& args, const Instruction& at) {
    Region& R = *region_;
    for (size_t i = 0; i < R.fns.size(); ++i)
      if (R.fns[i].f == &g) {
        for (size_t p = 0; p < args.size(); ++p) {
          const Obj& a = objs_[size_t(args[p])];
          const Obj& fo = objs_[size_t(R.fns[i].params[p])];
          bool same = a.slots.size() == fo.slots.size();
          for (const auto& [off, sl] : a.slots) {
            auto it = fo.slots.find(off);
            same = same && it != fo.slots.end() && it->second.bytes == sl.bytes;
          }
          if (!same) {
            d_->error(at.pos, "call of recursive function " + quote(g.name) + ": parameter " +
                                  quote(g.params[p].name) +
                                  " is written with other offsets or widths than at its first call");
            return -1;
          }
        }
        return int(i);
      }
    if (!g.shared.empty()) {
      d_->error(g.shared[0].pos, ".shared variable " + quote(g.shared[0].name) + " inside device function " +
                                     quote(g.name) + " is not supported");
      return -1;
    }
    FnInst F;
    F.f = &g;
    F.rn.tag = R.tag + "f" + std::to_string(R.fns.size()) + "_";
    for (const RegDecl& r : g.regs)
      (r.count == 0 ? (void)F.rn.exact.insert(r.prefix) : (void)(F.rn.ranges[r.prefix] = r.count));
    for (const Statement& st : g.body)
      if (st.kind == Statement::LABEL) F.rn.symbols.insert(st.label);
    for (const SharedVar& v : g.locals) F.rn.symbols.insert(v.name);
    for (RegDecl r : g.regs) {
      r.prefix = "%" + F.rn.tag + r.prefix.substr(1);
      note_reg(r);
      out_.regs.push_back(r);
    }
    F.entry = F.rn.tag + "entry";
    for (const SharedVar& v : g.locals) {
      F.depot_bytes = (F.depot_bytes + v.align - 1) / v.align * v.align;
      F.local_off[F.rn.tag + v.name] = F.depot_bytes;
      F.depot_bytes += v.size;
      if (v.align > 16)
        d_->error(v.pos, ".local variable " + quote(v.name) + " of recursive function " + quote(g.name) +
                             " is aligned to more than 16 bytes: not supported");
    }
    if (!g.locals.empty()) {
      F.depot_bytes = (F.depot_bytes + 15) / 16 * 16;
      F.depot_reg = "%" + F.rn.tag + "depot";
      declare(F.depot_reg, "b32");
      depots_ = true;
      if (F.depot_bytes > kDepotStackBytes)
        d_->error(g.locals[0].pos, "the .local variables of recursive function " + quote(g.name) + " take " +
                                       std::to_string(F.depot_bytes) + " bytes, more than its activations' " +
                                       std::to_string(kDepotStackBytes) + "-byte stack");
    }
    for (size_t p = 0; p < g.params.size(); ++p) {
      Obj o;
      o.name = g.params[p].name;
      o.size = g.params[p].size;
      const int id = int(objs_.size());
      objs_.push_back(std::move(o));
      for (const auto& [off, sl] : std::map<uint32_t, Slot>(objs_[size_t(args[p])].slots))
        slot_reg(id, off, sl.bytes);
      F.params.push_back(id);
      F.bound[g.params[p].name] = id;
    }
    for (size_t r = 0; r < g.rets.size(); ++r) {
      Obj o;
      o.name = g.rets[r].name;
      o.size = g.rets[r].size;
      const int id = int(objs_.size());
      objs_.push_back(std::move(o));
      for (const auto& [off, bytes] : ret_layout(g, r)) slot_reg(id, off, bytes);
      F.rets.push_back(id);
      F.bound[g.rets[r].name] = id;
    }
    R.fns.push_back(std::move(F));
    return int(R.fns.size()) - 1;
  }

  void emit_marker(const Instruction& at, int id) {
    Statement st;
    st.pos = at.pos;
    st.instr.pos = at.pos;
    st.instr.guard = at.guard;
    st.instr.guard_neg = at.guard_neg;
    st.instr.opcode = st.instr.full = "__marker";
    st.instr.ops.push_back(imm_op(id));
    push(std::move(st));
  }
  void ret_marker(const Instruction& at, int fn) {
    Marker m;
    m.is_ret = true;
    m.fn = fn;
    m.at = at;
    region_->markers.push_back(m);
    emit_marker(at, int(region_->markers.size()) - 1);
  }

  // An instruction of a recursive function: its .local variables are
  // addressed from the activation's depot register; what cannot run with
  // the warp's threads at different depths is refused by name.
  bool region_instr(Instruction* in, int fn) {
    const FnInst& F = region_->fns[size_t(fn)];
    static const std::set<std::string> warp_wide = {"bar",        "barrier", "shfl",  "vote",
                                                    "activemask", "match",   "redux", "bar.warp"};
    if (warp_wide.count(in->opcode)) {
      d_->error(in->pos,
                "PTX instruction " + quote(in->full) + " inside recursive function " + quote(F.f->name) +
                    ": the threads of a warp run a recursive function at different depths, so warp-wide "
                    "and barrier instructions are not supported there");
      return false;
    }
    for (size_t k = 0; k < in->ops.size(); ++k) {
      Operand& o = in->ops[k];
      auto it = F.local_off.find(o.name);
      if (it == F.local_off.end() ||
          (o.kind != Operand::SYMBOL && !(o.kind == Operand::ADDR && !o.base_is_reg)))
        continue;
      if (o.kind == Operand::ADDR) {
        o.name = F.depot_reg;
        o.base_is_reg = true;
        o.value += it->second;
        continue;
      }
      if (in->opcode != "mov" || k != 1 || in->ops[0].kind != Operand::REG) {
        d_->error(o.pos, ".local variable " + quote(o.name.substr(F.rn.tag.size())) +
                             " of recursive function " + quote(F.f->name) + " used by " + quote(in->full) +
                             ": only mov of its address and ld/st.local through it are supported");
        return false;
      }
      std::string src = F.depot_reg;
      if (it->second) {
        emit(*in, "add", {"u32"}, {reg_op("%__sv", o.pos), reg_op(F.depot_reg, o.pos), imm_op(it->second)});
        src = "%__sv";
      }
      if (reg_width(in->ops[0].name) == 64)
        emit(*in, "cvt", {"u64", "u32"}, {in->ops[0], reg_op(src, o.pos)});
      else
        emit(*in, "mov", {"b32"}, {in->ops[0], reg_op(src, o.pos)});
      return false;
    }
    return true;
  }

  // A call of a function of a recursive cycle.
  void call_recursive(const Instruction& in, const Kernel& f, const std::map<std::string, int>& bound,
                      std::vector<std::string>* stack) {
    if (in.call_rets.size() != f.rets.size() || in.call_args.size() != f.params.size()) {
      d_->error(in.pos, "call of " + quote(f.name) + " with " + std::to_string(in.call_rets.size()) +
                            " return and " + std::to_string(in.call_args.size()) +
                            " argument parameters; it has " + std::to_string(f.rets.size()) + " and " +
                            std::to_string(f.params.size()));
      return;
    }
    std::vector<int> args, rets;
    bool ok = true;
    auto bind = [&](const Operand& a, std::vector<int>* v) {
      auto b = bound.find(a.name);
      if (a.kind != Operand::SYMBOL || b == bound.end()) {
        d_->error(a.pos, "call of " + quote(f.name) + ": " + quote(a.name.empty() ? "operand" : a.name) +
                             " is not a .param variable of the call sequence (only those are supported)");
        ok = false;
        return;
      }
      v->push_back(b->second);
    };
    for (const Operand& a : in.call_rets) bind(a, &rets);
    for (const Operand& a : in.call_args) bind(a, &args);
    if (!ok) return;
    declare_synthetic();
    if (region_ && region_->scc == scc_.at(f.name)) {  // from inside the cycle
      const int gi = fn_index(f, args, in);
      if (gi < 0) return;
      Marker m;
      m.fn = gi;
      m.site = ++region_->sites;
      m.args = args;
      m.rets = rets;
      m.at = in;
      for (size_t r = 0; r < rets.size(); ++r)
        for (const auto& [off, sl] :
             std::map<uint32_t, Slot>(objs_[size_t(region_->fns[size_t(gi)].rets[r])].slots))
          slot_reg(rets[r], off, sl.bytes);
      region_->markers.push_back(m);
      emit_marker(in, int(region_->markers.size()) - 1);
      return;
    }
    region(in, f, args, rets, stack);
  }

  std::vector<std::string> slot_regs(const std::vector<int>& objs) const {
    std::vector<std::string> v;
    for (int o : objs)
      for (const auto& [off, sl] : objs_[size_t(o)].slots) v.push_back(sl.reg);
    return v;
  }
  // mov of every slot of the objects from into the slot at the same offset of to.
  void copy_objs(const Instruction& at, const std::vector<int>& to, const std::vector<int>& from) {
    for (size_t i = 0; i < to.size() && i < from.size(); ++i)
      for (const auto& [off, sl] : objs_[size_t(from[i])].slots) {
        auto it = objs_[size_t(to[i])].slots.find(off);
        if (it == objs_[size_t(to[i])].slots.end()) continue;
        emit(at, "mov", {sl.bytes == 8 ? "b64" : "b32"},
             {reg_op(it->second.reg, at.pos), reg_op(sl.reg, at.pos)});
      }
  }
  void bra(const Instruction& at, const std::string& l) { emit(at, "bra", {}, {sym_op(l, at.pos)}); }
  // The guard of at turned into a branch around what follows (to skip).
  void guard_skip(const Instruction& at, const std::string& skip) {
    if (at.guard.empty()) return;
    Instruction g = at;
    g.guard_neg = !at.guard_neg;
    emit(g, "bra", {}, {sym_op(skip, at.pos)});
  }
  void stack_check(const Instruction& at, const std::string& reg, Operand limit) {
    Instruction t = at_pos(at.pos);
    emit(t, "setp", {"gt", "u32"}, {reg_op("%__pov", at.pos), reg_op(reg, at.pos), limit});
    t.guard = "%__pov";
    emit(t, "trap", {}, {});
  }

  // Registers of the region's body live after each statement (a backward
  // dataflow over the body's branches; a call marker uses its arguments and
  // defines its return values, a ret marker uses the function's return
  // values and ends the path).
  std::vector<std::vector<uint64_t>> liveness(const std::vector<Statement>& body, const Region& R,
                                              std::vector<std::string>* names) {
    std::map<std::string, int> id;
    auto intern = [&](const std::string& n) {
      auto it = id.find(n);
      if (it != id.end()) return it->second;
      id[n] = int(names->size());
      names->push_back(n);
      return int(names->size()) - 1;
    };
    const size_t n = body.size();
    std::vector<std::vector<int>> use(n), def(n);
    std::vector<std::vector<size_t>> succ(n);
    std::map<std::string, size_t> labels;
    for (size_t i = 0; i < n; ++i)
      if (body[i].kind == Statement::LABEL) labels[body[i].label] = i;
    static const std::set<std::string> no_dst = {"st",       "red",       "bar",  "barrier", "bra",
                                                 "ret",      "exit",      "trap", "membar",  "fence",
                                                 "prefetch", "prefetchu", "call", "__marker"};
    for (size_t i = 0; i < n; ++i) {
      const Statement& st = body[i];
      bool falls = true;
      if (st.kind == Statement::INSTR) {
        const Instruction& in = st.instr;
        auto u = [&](const std::string& r) {
          if (!r.empty() && r != "_" && !reg_type(r).empty()) use[i].push_back(intern(r));
        };
        auto dd = [&](const std::string& r) {
          if (!r.empty() && r != "_" && !reg_type(r).empty() && in.guard.empty()) def[i].push_back(intern(r));
        };
        u(in.guard);
        if (in.opcode == "__marker") {
          const Marker& m = R.markers[size_t(in.ops[0].value)];
          if (m.is_ret) {
            for (const std::string& r : slot_regs(R.fns[size_t(m.fn)].rets)) u(r);
            falls = !in.guard.empty();
          } else {
            for (const std::string& r : slot_regs(m.args)) u(r);
            for (const std::string& r : slot_regs(m.rets)) dd(r);
          }
        } else {
          const size_t ndst = no_dst.count(in.opcode) ? 0 : (in.pipe_dst ? 2 : 1);
          for (size_t k = 0; k < in.ops.size(); ++k) {
            const Operand& o = in.ops[k];
            const bool d = k < ndst;
            if (o.kind == Operand::REG) (d ? dd(o.name) : u(o.name));
            if (o.kind == Operand::ADDR && o.base_is_reg) u(o.name);
            for (const Operand& e : o.elems)
              if (e.kind == Operand::REG) (d ? dd(e.name) : u(e.name));
          }
          if (in.opcode == "bra" && !in.ops.empty()) {
            auto it = labels.find(in.ops[0].name);
            if (it != labels.end()) succ[i].push_back(it->second);
            falls = !in.guard.empty() || it == labels.end();
          }
          if (in.opcode == "exit" || in.opcode == "trap") falls = !in.guard.empty();
        }
      }
      if (falls && i + 1 < n) succ[i].push_back(i + 1);
    }
    const size_t words = (names->size() + 63) / 64;
    std::vector<std::vector<uint64_t>> in_(n, std::vector<uint64_t>(words)),
        out(n, std::vector<uint64_t>(words));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = n; i-- > 0;) {
        std::vector<uint64_t> o(words);
        for (size_t s : succ[i])
          for (size_t w = 0; w < words; ++w) o[w] |= in_[s][w];
        std::vector<uint64_t> li = o;
        for (int d : def[i]) li[size_t(d) / 64] &= ~(uint64_t(1) << (d % 64));
        for (int u : use[i]) li[size_t(u) / 64] |= uint64_t(1) << (u % 64);
        if (li != in_[i] || o != out[i]) {
          changed = true;
          in_[i] = std::move(li);
          out[i] = std::move(o);
        }
      }
    }
    return out;
  }

  // A call into a recursive cycle from outside it: the cycle's functions
  // expanded once each (calls between them left as markers), then the
  // region: the arguments, the return site "done" pushed, a branch to the
  // callee; a dispatch head that every return goes through (and the only
  // way out of the region); the bodies with each call saving the registers
  // live across it and its return-site id on the thread's call stack and
  // each return popping the id and branching to the head.
  void region(const Instruction& in, const Kernel& f, const std::vector<int>& args,
              const std::vector<int>& rets, std::vector<std::string>* stack) {
    Region R;
    R.scc = scc_.at(f.name);
    R.tag = "__r" + std::to_string(++regions_) + "_";
    Region* outer_region = region_;
    region_ = &R;
    std::vector<Statement> outer;
    outer.swap(out_.body);
    const int fi = fn_index(f, args, in);
    while (fi >= 0 && R.next < R.fns.size() && !too_big_) {
      const size_t i = R.next++;
      R.cur_fn = int(i);
      label(R.fns[i].entry, R.fns[i].f->pos);
      if (!R.fns[i].depot_reg.empty()) {
        const Instruction at = at_pos(R.fns[i].f->pos);
        emit(at, "mov", {"b32"}, {reg_op(R.fns[i].depot_reg, at.pos), reg_op("%__fp", at.pos)});
        emit(at, "add", {"u32"},
             {reg_op("%__fp", at.pos), reg_op("%__fp", at.pos), imm_op(R.fns[i].depot_bytes)});
        stack_check(at, "%__fp", imm_op(kCallStackBytes + kDepotStackBytes));
      }
      const Kernel* fk = R.fns[i].f;
      const Renamer rn = R.fns[i].rn;  // fns grows as the body's calls reach new functions
      stack->push_back(fk->name);
      expand(*fk, rn, R.fns[i].bound, stack, int(i));
      stack->pop_back();
    }
    std::vector<Statement> body;
    body.swap(out_.body);
    out_.body.swap(outer);
    region_ = outer_region;
    if (fi < 0) return;
    for (size_t r = 0; r < rets.size(); ++r)
      for (const auto& [off, sl] : std::map<uint32_t, Slot>(objs_[size_t(R.fns[size_t(fi)].rets[r])].slots))
        slot_reg(rets[r], off, sl.bytes);

    std::vector<std::string> names;
    const auto live = liveness(body, R, &names);
    const std::string head = R.tag + "head", done = R.tag + "done", skip = R.tag + "skip";
    guard_skip(in, skip);
    const Instruction at = at_pos(in.pos);
    copy_objs(at, R.fns[size_t(fi)].params, args);
    // Pushes move the pointer and check it first, then store below it: a
    // push that would pass the stack's end traps before writing anything.
    emit(at, "add", {"u32"}, {reg_op(kCallStackReg, at.pos), reg_op(kCallStackReg, at.pos), imm_op(128)});
    stack_check(at, kCallStackReg, reg_op("%__splim", at.pos));
    emit(at, "mov", {"u32"}, {reg_op("%__sv", at.pos), imm_op(0)});
    emit(at, "st", {"local", "u32"}, {addr_op(kCallStackReg, -4, at.pos), reg_op("%__sv", at.pos)});
    bra(at, R.fns[size_t(fi)].entry);
    label(head, in.pos);
    {
      Instruction g = at;
      g.guard = "%__pd";
      emit(at, "setp", {"eq", "u32"}, {reg_op("%__pd", at.pos), reg_op("%__state", at.pos), imm_op(0)});
      emit(g, "bra", {}, {sym_op(done, at.pos)});
      // States 1..sites are the return sites, then the functions' entries.
      std::vector<std::string> targets;
      for (int k = 1; k <= R.sites; ++k) targets.push_back(R.tag + "site" + std::to_string(k));
      for (const FnInst& F : R.fns) targets.push_back(F.entry);
      for (size_t k = 0; k + 1 < targets.size(); ++k) {
        emit(at, "setp", {"eq", "u32"},
             {reg_op("%__pd", at.pos), reg_op("%__state", at.pos), imm_op(int64_t(k) + 1)});
        emit(g, "bra", {}, {sym_op(targets[k], at.pos)});
      }
      if (!targets.empty()) bra(at, targets.back());
    }
    for (size_t i = 0; i < body.size(); ++i) {
      Statement& st = body[i];
      if (st.kind != Statement::INSTR || st.instr.opcode != "__marker") {
        push(std::move(st));
        continue;
      }
      const Marker& m = R.markers[size_t(st.instr.ops[0].value)];
      const FnInst& F = R.fns[size_t(m.fn)];
      const std::string mskip = R.tag + "mskip" + std::to_string(st.instr.ops[0].value);
      guard_skip(m.at, mskip);
      const Instruction a = at_pos(m.at.pos);
      const Pos p = a.pos;
      if (m.is_ret) {
        if (!F.depot_reg.empty())
          emit(a, "add", {"u32"}, {reg_op("%__fp", p), reg_op("%__fp", p), imm_op(-int64_t(F.depot_bytes))});
        emit(a, "add", {"u32"}, {reg_op(kCallStackReg, p), reg_op(kCallStackReg, p), imm_op(-128)});
        emit(a, "ld", {"local", "u32"}, {reg_op("%__state", p), addr_op(kCallStackReg, 0, p)});
        bra(a, head);
      } else {
        // The registers to save: live after the call, not its return values.
        std::set<std::string> rdefs;
        for (const std::string& r : slot_regs(m.rets)) rdefs.insert(r);
        std::vector<std::string> save;
        for (size_t b = 0; b < names.size(); ++b)
          if ((live[i][b / 64] >> (b % 64) & 1) && !synthetic(names[b]) && !rdefs.count(names[b]))
            save.push_back(names[b]);
        int slot = 0;
        std::vector<std::pair<std::string, int>> at_slot;
        for (const std::string& r : save) {
          const int w = type_width(reg_type(r));
          if (w == 64) slot = (slot + 1) / 2 * 2;
          at_slot.push_back({r, slot});
          slot += w == 64 ? 2 : 1;
        }
        const int frame = slot + 1;  // words: the saved registers, then the return site
        emit(a, "add", {"u32"}, {reg_op(kCallStackReg, p), reg_op(kCallStackReg, p), imm_op(128 * frame)});
        stack_check(a, kCallStackReg, reg_op("%__splim", p));
        for (const auto& [r, k] : at_slot) {
          const std::string t = reg_type(r);
          const int w = type_width(t);
          const Operand to = addr_op(kCallStackReg, 4 * (k - frame), p);
          if (t == "pred") {
            emit(a, "selp", {"u32"}, {reg_op("%__sv", p), imm_op(1), imm_op(0), reg_op(r, p)});
            emit(a, "st", {"local", "u32"}, {to, reg_op("%__sv", p)});
          } else {
            emit(a, "st",
                 {"local", w == 64      ? "b64"
                           : w == 16    ? "b16"
                           : t == "f32" ? "f32"
                                        : "b32"},
                 {to, reg_op(r, p)});
          }
        }
        emit(a, "mov", {"u32"}, {reg_op("%__sv", p), imm_op(m.site)});
        emit(a, "st", {"local", "u32"}, {addr_op(kCallStackReg, -4, p), reg_op("%__sv", p)});
        copy_objs(a, F.params, m.args);
        // Through the head, not straight to the callee: then every path of
        // the region meets the others at the head between two calls or
        // returns, and the reconvergence stack is back to where it was there
        // (docs/ptx.md "Recursion": the depth it needs does not grow with
        // the recursion's).
        emit(a, "mov", {"u32"}, {reg_op("%__state", p), imm_op(R.sites + 1 + m.fn)});
        bra(a, head);
        label(R.tag + "site" + std::to_string(m.site), p);
        copy_objs(a, m.rets, F.rets);
        if (slot > 0)
          emit(a, "add", {"u32"}, {reg_op(kCallStackReg, p), reg_op(kCallStackReg, p), imm_op(-128 * slot)});
        for (const auto& [r, k] : at_slot) {
          const std::string t = reg_type(r);
          const int w = type_width(t);
          if (t == "pred") {
            emit(a, "ld", {"local", "u32"}, {reg_op("%__sv", p), addr_op(kCallStackReg, 4 * k, p)});
            emit(a, "setp", {"ne", "u32"}, {reg_op(r, p), reg_op("%__sv", p), imm_op(0)});
          } else {
            emit(a, "ld",
                 {"local", w == 64      ? "b64"
                           : w == 16    ? "b16"
                           : t == "f32" ? "f32"
                                        : "b32"},
                 {reg_op(r, p), addr_op(kCallStackReg, 4 * k, p)});
          }
        }
        stats_saved_ += int(save.size());
        ++stats_calls_;
      }
      if (!m.at.guard.empty()) label(mskip, m.at.pos);
    }
    label(done, in.pos);
    copy_objs(at, rets, R.fns[size_t(fi)].rets);
    if (!in.guard.empty()) label(skip, in.pos);
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
      d_->error(
          in.pos,
          "PTX instruction " + quote(in.full) +
              " is an indirect call (a function pointer): not supported, a call must name its function");
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
    if (scc_.count(f.name)) return call_recursive(in, f, bound, stack);
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
