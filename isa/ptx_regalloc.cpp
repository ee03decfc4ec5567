#include "isa/ptx_regalloc.h"

#include <algorithm>

#include "isa/assembler.h"
#include "isa/isa.h"
#include "isa/module.h"

namespace baresm::isa::ptx {

uint32_t hidden_param_offset(const MKernel& k) { return (k.param_bytes + 3) / 4 * 4; }

namespace {

struct UseDef {
  std::vector<int> uses, defs;
};

UseDef use_def(const MInstr& mi) {
  UseDef u;
  if (mi.guard >= 0) u.uses.push_back(mi.guard);
  for (const MOperand& o : mi.ops) {
    const bool reg = o.kind == MOperand::VREG || o.kind == MOperand::VPRED;
    if (reg && o.def) {
      u.defs.push_back(o.vreg);
      if (mi.guard >= 0) u.uses.push_back(o.vreg);  // lanes with a false guard keep the old value
    } else if (reg || (o.kind == MOperand::MEM && o.vreg >= 0)) {
      u.uses.push_back(o.vreg);
    }
  }
  return u;
}

}  // namespace

Allocation allocate_registers(const MKernel& k) {
  Allocation a;
  const int n = int(k.code.size());
  const int nv = int(k.vregs.size());
  a.phys.assign(size_t(nv), -1);

  // ---- basic blocks ----------------------------------------------------------------
  std::vector<int> label_at(k.labels.size(), -1);
  for (int i = 0; i < n; ++i)
    if (k.code[size_t(i)].label >= 0) label_at[size_t(k.code[size_t(i)].label)] = i;
  std::vector<char> leader(size_t(n) + 1, 0);
  leader[0] = 1;
  for (int i = 0; i < n; ++i) {
    const MInstr& mi = k.code[size_t(i)];
    if (mi.label >= 0) leader[size_t(i)] = 1;
    if (mi.is_branch() || mi.is_exit()) leader[size_t(i) + 1] = 1;
  }
  std::vector<int> first, block_of(size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    if (leader[size_t(i)]) first.push_back(i);
    block_of[size_t(i)] = int(first.size()) - 1;
  }
  const int nb = int(first.size());
  auto last_of = [&](int b) { return b + 1 < nb ? first[size_t(b) + 1] - 1 : n - 1; };
  std::vector<std::vector<int>> succs(static_cast<size_t>(nb));
  for (int b = 0; b < nb; ++b) {
    const int j = last_of(b);
    const MInstr& mi = k.code[size_t(j)];
    const bool guarded = mi.guard >= 0;
    bool falls = true;
    if (mi.is_branch()) {
      const int t = label_at[mi.ops[0].imm];
      if (t >= 0) succs[size_t(b)].push_back(block_of[size_t(t)]);
      falls = guarded;
    } else if (mi.is_exit()) {
      falls = guarded;
    }
    if (falls && j + 1 < n) succs[size_t(b)].push_back(block_of[size_t(j) + 1]);
  }

  // ---- liveness ----------------------------------------------------------------------
  std::vector<UseDef> ud(static_cast<size_t>(n));
  std::vector<int> real_uses(size_t(nv), 0), accesses(size_t(nv), 0);
  for (int i = 0; i < n; ++i) {
    ud[size_t(i)] = use_def(k.code[size_t(i)]);
    for (int u : ud[size_t(i)].uses) accesses[size_t(u)]++;
    for (int d : ud[size_t(i)].defs) accesses[size_t(d)]++;
    const MInstr& mi = k.code[size_t(i)];
    if (mi.guard >= 0) real_uses[size_t(mi.guard)]++;
    for (const MOperand& o : mi.ops)
      if (!o.def && o.vreg >= 0 &&
          (o.kind == MOperand::VREG || o.kind == MOperand::VPRED || o.kind == MOperand::MEM))
        real_uses[size_t(o.vreg)]++;
  }
  std::vector<std::vector<char>> live_in(size_t(nb), std::vector<char>(size_t(nv), 0));
  std::vector<std::vector<char>> live_out = live_in;
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = nb - 1; b >= 0; --b) {
      std::vector<char> out(size_t(nv), 0);
      for (int s : succs[size_t(b)])
        for (int v = 0; v < nv; ++v) out[size_t(v)] |= live_in[size_t(s)][size_t(v)];
      std::vector<char> in = out;
      for (int i = last_of(b); i >= first[size_t(b)]; --i) {
        if (k.code[size_t(i)].guard < 0)
          for (int d : ud[size_t(i)].defs) in[size_t(d)] = 0;
        for (int u : ud[size_t(i)].uses) in[size_t(u)] = 1;
      }
      if (out != live_out[size_t(b)] || in != live_in[size_t(b)]) {
        live_out[size_t(b)] = std::move(out);
        live_in[size_t(b)] = std::move(in);
        changed = true;
      }
    }
  }

  // ---- intervals ---------------------------------------------------------------------
  std::vector<int> start(size_t(nv), INT32_MAX), end(size_t(nv), -1);
  auto extend = [&](int v, int p) {
    start[size_t(v)] = std::min(start[size_t(v)], p);
    end[size_t(v)] = std::max(end[size_t(v)], p);
  };
  for (int b = 0; b < nb; ++b) {
    std::vector<char> live = live_out[size_t(b)];
    for (int i = last_of(b); i >= first[size_t(b)]; --i) {
      for (int v = 0; v < nv; ++v)
        if (live[size_t(v)]) extend(v, 2 * i + 1);
      for (int d : ud[size_t(i)].defs) {
        extend(d, 2 * i + 1);
        if (k.code[size_t(i)].guard < 0) live[size_t(d)] = 0;
      }
      for (int u : ud[size_t(i)].uses) {
        live[size_t(u)] = 1;
        extend(u, 2 * i);
      }
    }
    for (int v = 0; v < nv; ++v)
      if (live[size_t(v)]) extend(v, 2 * first[size_t(b)]);
  }

  // ---- linear scan ---------------------------------------------------------------------
  // Copy hints: `MOV d, s` where s dies gets s's register when it is free, so
  // the copy (cvta.to.global, cvt between widths) becomes a self-move that
  // the emitter drops.
  std::vector<int> hint(size_t(nv), -1);
  for (const MInstr& mi : k.code)
    if (mi.mnem == "MOV" && mi.ops.size() == 2 && mi.ops[0].kind == MOperand::VREG &&
        mi.ops[1].kind == MOperand::VREG)
      hint[size_t(mi.ops[0].vreg)] = mi.ops[1].vreg;
  std::vector<int> order;
  for (int v = 0; v < nv; ++v) {
    if (end[size_t(v)] < 0) continue;  // never appears
    if (real_uses[size_t(v)] == 0) {
      a.phys[size_t(v)] = k.vregs[size_t(v)].pred ? kPredTrue : kRegZero;
      continue;
    }
    order.push_back(v);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return start[size_t(x)] < start[size_t(y)]; });
  std::vector<int> active;
  for (int v : order) {
    const bool pred = k.vregs[size_t(v)].pred;
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](int w) { return end[size_t(w)] < start[size_t(v)]; }),
                 active.end());
    const int limit = pred ? kPredTrue : kMaxRegsPerThread;
    std::vector<char> busy(size_t(limit), 0);
    int live_same = 0;
    for (int w : active)
      if (k.vregs[size_t(w)].pred == pred) {
        busy[size_t(a.phys[size_t(w)])] = 1;
        ++live_same;
      }
    int r = 0;
    while (r < limit && busy[size_t(r)]) ++r;
    const int h = hint[size_t(v)];
    if (h >= 0 && a.phys[size_t(h)] >= 0 && a.phys[size_t(h)] < limit && !busy[size_t(a.phys[size_t(h)])])
      r = a.phys[size_t(h)];
    if (r == limit) {
      // What to move out of the way: a predicate into a general register,
      // the one whose interval ends last (Poletto & Sarkar); a register into
      // the thread's local frame, the one with the fewest accesses per
      // instruction it is live across (each access costs a load or store,
      // the length is what the spill frees), the later end on a tie.
      auto cheaper = [&](int x, int y) {  // x a better spill than y
        if (y < 0) return true;
        if (pred) return end[size_t(x)] > end[size_t(y)];
        const int64_t ax = accesses[size_t(x)], ay = accesses[size_t(y)];
        const int64_t lx = end[size_t(x)] - start[size_t(x)] + 1, ly = end[size_t(y)] - start[size_t(y)] + 1;
        if (ax * ly != ay * lx) return ax * ly < ay * lx;
        return end[size_t(x)] > end[size_t(y)];
      };
      int far = -1;
      for (int w : active)
        if (k.vregs[size_t(w)].pred == pred && !k.vregs[size_t(w)].no_spill && cheaper(w, far)) far = w;
      if (!k.vregs[size_t(v)].no_spill && cheaper(v, far)) far = v;
      (pred ? a.spill_pred : a.spill_reg) = far;
      std::string names;
      int shown = 0;
      for (int w : active)
        if (k.vregs[size_t(w)].pred == pred && shown < 12) {
          names += (shown++ ? ", " : "") +
                   (k.vregs[size_t(w)].name.empty() ? std::string("(temporary)") : k.vregs[size_t(w)].name);
        }
      const int at = std::min(n - 1, std::max(0, start[size_t(v)] / 2));
      a.error_pos = n ? k.code[size_t(at)].pos : k.pos;
      a.error = "kernel " + quote(k.name) + " needs more than " + std::to_string(limit) +
                (pred ? " predicates (P0..P6)" : " registers (R0..R62)") +
                " here: " + std::to_string(live_same + 1) + " values are live at once (" + names +
                (live_same > 12 ? ", ..." : "") + " and " +
                (k.vregs[size_t(v)].name.empty() ? std::string("a temporary") : k.vregs[size_t(v)].name) +
                ")" + (pred ? "" : ", none of which can be spilled");
      return a;
    }
    a.phys[size_t(v)] = r;
    if (pred)
      a.preds = std::max(a.preds, r + 1);
    else
      a.regs = std::max(a.regs, r + 1);
    active.push_back(v);
  }
  a.ok = true;
  return a;
}

// Keeps predicate v in a new 32-bit register as 0/1: after every write of v
// the register is set from it (under the same guard, so lanes that keep v
// keep the register), and every read of v reads a fresh predicate set from
// the register just before. v's own live ranges shrink to single
// instructions.
static void spill_predicate(MKernel* k, int v) {
  const int r = int(k->vregs.size());
  k->vregs.push_back(MVreg{false, k->vregs[size_t(v)].name + " (in a register)"});
  std::vector<MInstr> out;
  out.reserve(k->code.size() * 2);
  for (MInstr mi : k->code) {
    bool writes = false;
    auto reload = [&](MOperand* o) {
      const int t = int(k->vregs.size());
      k->vregs.push_back(MVreg{true, k->vregs[size_t(v)].name});
      MInstr ld;
      ld.mnem = "ISETP.NE.AND";
      ld.pos = mi.pos;
      ld.ops = {MOperand::p(t, true), MOperand::v(r), MOperand::i(0), MOperand::pt()};
      out.push_back(ld);
      o->vreg = t;
    };
    for (MOperand& o : mi.ops) {
      if (o.kind != MOperand::VPRED || o.vreg != v) continue;
      if (o.def)
        writes = true;
      else
        reload(&o);
    }
    // A guarded write keeps v in the lanes whose guard is false: it reads v too.
    if (writes && mi.guard >= 0) {
      MOperand keep = MOperand::p(v);
      reload(&keep);
      for (MOperand& o : mi.ops)
        if (o.kind == MOperand::VPRED && o.vreg == v && o.def) o.vreg = keep.vreg;
    }
    if (mi.guard == v) {
      MOperand g = MOperand::p(v);
      reload(&g);
      mi.guard = g.vreg;
    }
    int written = -1;
    for (const MOperand& o : mi.ops)
      if (o.kind == MOperand::VPRED && o.def && (o.vreg == v || (writes && mi.guard >= 0))) written = o.vreg;
    out.push_back(mi);
    if (writes) {
      MInstr st;  // r = v ? 1 : 0
      st.mnem = "SEL";
      st.pos = mi.pos;
      st.guard = mi.guard;
      st.guard_neg = mi.guard_neg;
      st.ops = {MOperand::v(r, true), MOperand::rz(), MOperand::i(1), MOperand::p(written, false, true)};
      out.push_back(st);
    }
  }
  k->code = std::move(out);
}

int ensure_frame(MKernel* k) {
  if (k->frame < 0) {
    k->vregs.push_back(MVreg{false, "(local frame)", true});
    k->frame = int(k->vregs.size()) - 1;
  }
  return k->frame;
}

void insert_frame_prologue(MKernel* k) {
  if (k->frame < 0 || k->frame_prologue) return;
  k->frame_prologue = true;
  std::vector<MInstr> pro;
  auto tmp = [&] {
    k->vregs.push_back(MVreg{false, "", true});
    return int(k->vregs.size()) - 1;
  };
  auto add = [&](const char* mn, std::vector<MOperand> ops, bool scale = false) {
    MInstr mi;
    mi.mnem = mn;
    mi.ops = std::move(ops);
    mi.pos = k->pos;
    mi.frame_scale = scale;
    pro.push_back(std::move(mi));
  };
  auto sr = [](const char* name) {
    MOperand o;
    o.kind = MOperand::SREG;
    o.sreg = name;
    return o;
  };
  using O = MOperand;
  const int f = k->frame, c = tmp(), a = tmp(), b = tmp();
  // The warp's index in the grid: the CTA's linear index (x fastest) times
  // the warps of a CTA, plus the warp's index in its CTA.
  add("S2R", {O::v(c, true), sr("SR_CTAID.Z")});
  add("S2R", {O::v(a, true), sr("SR_NCTAID.Y")});
  add("S2R", {O::v(b, true), sr("SR_CTAID.Y")});
  add("IMAD", {O::v(c, true), O::v(c), O::v(a), O::v(b)});
  add("S2R", {O::v(a, true), sr("SR_NCTAID.X")});
  add("S2R", {O::v(b, true), sr("SR_CTAID.X")});
  add("IMAD", {O::v(c, true), O::v(c), O::v(a), O::v(b)});
  add("S2R", {O::v(a, true), sr("SR_NTID.X")});
  add("S2R", {O::v(b, true), sr("SR_NTID.Y")});
  add("IMUL", {O::v(a, true), O::v(a), O::v(b)});
  add("S2R", {O::v(b, true), sr("SR_NTID.Z")});
  add("IMUL", {O::v(a, true), O::v(a), O::v(b)});
  add("IADD", {O::v(a, true), O::v(a), O::i(31)});
  add("SHR", {O::v(a, true), O::v(a), O::i(5)});
  add("S2R", {O::v(b, true), sr("SR_WARPID")});
  add("IMAD", {O::v(c, true), O::v(c), O::v(a), O::v(b)});
  // Each warp's frames take 32 x local_bytes(); the size is set by set_frame_size.
  add("IMUL", {O::v(c, true), O::v(c), O::i(0)}, true);
  // The launch's local buffer: the hidden parameter after the user's.
  add("LDC", {O::v(f, true), O::mem(-1, int32_t(hidden_param_offset(*k)))});
  add("IADD", {O::v(f, true), O::v(f), O::v(c)});
  // Lane l's word w is at frame + 128 w + 4 l.
  add("S2R", {O::v(b, true), sr("SR_LANEID")});
  add("SHL", {O::v(b, true), O::v(b), O::i(2)});
  add("IADD", {O::v(f, true), O::v(f), O::v(b)});
  k->code.insert(k->code.begin(), pro.begin(), pro.end());
}

static void set_frame_size(MKernel* k) {
  for (MInstr& mi : k->code)
    if (mi.frame_scale) mi.ops[2].imm = 32 * k->local_bytes();
}

// Moves register v into a new 4-byte slot of the thread's frame: a load into
// a fresh temporary before each instruction that reads v, a store after each
// one that writes it (a guarded write loads first: the lanes whose guard is
// false keep the old value, and store it back unchanged).
static void spill_register(MKernel* k, int v) {
  ensure_frame(k);
  insert_frame_prologue(k);
  const uint32_t slot_byte = (k->local_var_bytes + 3) / 4 * 4 + 4 * uint32_t(k->spill_slots++);
  const MOperand slot = MOperand::mem(k->frame, int32_t(slot_byte * 32));  // a whole word: 32 x its offset
  const std::string name = k->vregs[size_t(v)].name;
  std::vector<MInstr> out;
  out.reserve(k->code.size() + 16);
  for (MInstr mi : k->code) {
    bool reads = false, writes = false;
    for (const MOperand& o : mi.ops)
      if ((o.kind == MOperand::VREG || o.kind == MOperand::MEM) && o.vreg == v) (o.def ? writes : reads) = true;
    if (!reads && !writes) {
      out.push_back(std::move(mi));
      continue;
    }
    k->vregs.push_back(MVreg{false, name.empty() ? "" : name + " (spilled)", true});
    const int t = int(k->vregs.size()) - 1;
    for (MOperand& o : mi.ops)
      if ((o.kind == MOperand::VREG || o.kind == MOperand::MEM) && o.vreg == v) o.vreg = t;
    if (reads || (writes && mi.guard >= 0)) {
      MInstr ld;
      ld.mnem = "LDG";
      ld.pos = mi.pos;
      ld.ops = {MOperand::v(t, true), slot};
      out.push_back(std::move(ld));
    }
    const Pos pos = mi.pos;
    out.push_back(std::move(mi));
    if (writes) {
      MInstr st;
      st.mnem = "STG";
      st.pos = pos;
      st.ops = {slot, MOperand::v(t)};
      out.push_back(std::move(st));
    }
  }
  k->code = std::move(out);
}

Allocation allocate_with_spills(MKernel* k, int* preds_in_regs) {
  *preds_in_regs = 0;
  insert_frame_prologue(k);  // .local variables need the frame before anything is allocated
  for (;;) {
    Allocation a = allocate_registers(*k);
    if (a.ok) {
      set_frame_size(k);
      return a;
    }
    if (a.spill_pred >= 0 && *preds_in_regs < 64) {
      spill_predicate(k, a.spill_pred);
      ++*preds_in_regs;
    } else if (a.spill_reg >= 0 && k->local_bytes() + 4 <= kMaxLocalBytes) {
      spill_register(k, a.spill_reg);
    } else {
      return a;
    }
  }
}

}  // namespace baresm::isa::ptx
