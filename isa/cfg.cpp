#include "isa/cfg.h"

#include <algorithm>

#include "isa/isa.h"

namespace baresm::isa {

namespace {

bool unguarded(const Instr& in) {
  return in.pg == kPredTrue && !in.pg_neg;
}

// Branch target as an instruction index; may lie outside the kernel.
int64_t branch_target(const Instr& in, size_t index) {
  return int64_t(index) + in.bra_target_delta();
}

}  // namespace

Cfg build_cfg(const uint64_t* words, size_t count) {
  Cfg cfg;
  if (count == 0) return cfg;
  std::vector<std::optional<Instr>> dec(count);
  for (size_t i = 0; i < count; ++i) dec[i] = decode(words[i]);

  // Leaders: the entry, every in-range branch target, every instruction after
  // a control instruction.
  std::vector<bool> leader(count, false);
  leader[0] = true;
  for (size_t i = 0; i < count; ++i) {
    const bool ends = !dec[i] || dec[i]->op == Op::BRA || dec[i]->op == Op::EXIT || dec[i]->op == Op::TRAP;
    if (ends && i + 1 < count) leader[i + 1] = true;
    if (dec[i] && dec[i]->op == Op::BRA) {
      int64_t t = branch_target(*dec[i], i);
      if (t >= 0 && t < int64_t(count)) leader[size_t(t)] = true;
    }
  }
  cfg.block_of_instr.assign(count, 0);
  for (size_t i = 0; i < count; ++i) {
    if (leader[i]) {
      CfgBlock b;
      b.first = uint32_t(i);
      cfg.blocks.push_back(b);
    }
    cfg.blocks.back().count++;
    cfg.block_of_instr[i] = int(cfg.blocks.size()) - 1;
  }
  const int exit = cfg.exit();
  for (size_t bi = 0; bi < cfg.blocks.size(); ++bi) {
    CfgBlock& b = cfg.blocks[bi];
    const size_t last = b.first + b.count - 1;
    const int next = last + 1 < count ? cfg.block_of_instr[last + 1] : exit;
    auto add = [&b](int s) {
      if (std::find(b.succs.begin(), b.succs.end(), s) == b.succs.end()) b.succs.push_back(s);
    };
    const auto& in = dec[last];
    if (!in) {
      add(exit);  // ILLEGAL_INSTR ends the launch
    } else if (in->op == Op::BRA) {
      int64_t t = branch_target(*in, last);
      add(t >= 0 && t < int64_t(count) ? cfg.block_of_instr[size_t(t)] : exit);
      if (!unguarded(*in)) add(next);
    } else if (in->op == Op::EXIT) {
      if (!unguarded(*in)) add(next);
      add(exit);
    } else if (in->op == Op::TRAP) {
      // A trap ends the whole launch, so lanes that go on are the only path
      // that matters for reconvergence: guarded, it just falls through.
      add(unguarded(*in) ? exit : next);
    } else {
      add(next);
    }
  }
  for (size_t bi = 0; bi < cfg.blocks.size(); ++bi)
    for (int s : cfg.blocks[bi].succs)
      if (s != exit) cfg.blocks[size_t(s)].preds.push_back(int(bi));
  return cfg;
}

std::vector<int> immediate_post_dominators(const Cfg& cfg) {
  const int n = int(cfg.blocks.size());
  const int exit = n;
  // Post-order of the reverse CFG from the exit: its successors are the
  // forward predecessors. The exit's reverse successors are the blocks with an
  // edge to the exit.
  std::vector<std::vector<int>> rsucc(size_t(n) + 1);
  for (int b = 0; b < n; ++b) {
    for (int s : cfg.blocks[size_t(b)].succs)
      if (s == exit) rsucc[size_t(exit)].push_back(b);
    rsucc[size_t(b)] = cfg.blocks[size_t(b)].preds;
  }
  std::vector<int> order;  // post-order
  std::vector<int> po(size_t(n) + 1, -1);
  std::vector<char> seen(size_t(n) + 1, 0);
  // Iterative DFS (kernels may be long; no recursion).
  std::vector<std::pair<int, size_t>> stack;
  stack.push_back({exit, 0});
  seen[size_t(exit)] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < rsucc[size_t(v)].size()) {
      int w = rsucc[size_t(v)][i++];
      if (!seen[size_t(w)]) {
        seen[size_t(w)] = 1;
        stack.push_back({w, 0});
      }
    } else {
      po[size_t(v)] = int(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }
  std::vector<int> idom(size_t(n) + 1, -1);
  idom[size_t(exit)] = exit;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (po[size_t(a)] < po[size_t(b)]) a = idom[size_t(a)];
      while (po[size_t(b)] < po[size_t(a)]) b = idom[size_t(b)];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    // Reverse post-order, skipping the root (last in post-order).
    for (int k = int(order.size()) - 2; k >= 0; --k) {
      const int b = order[size_t(k)];
      int nd = -1;
      // Predecessors in the reverse CFG are the forward successors.
      for (int s : cfg.blocks[size_t(b)].succs) {
        if (idom[size_t(s)] == -1) continue;
        nd = nd == -1 ? s : intersect(s, nd);
      }
      if (nd != idom[size_t(b)]) {
        idom[size_t(b)] = nd;
        changed = true;
      }
    }
  }
  idom.pop_back();
  return idom;
}

std::vector<int64_t> reconvergence_deltas(const uint64_t* words, size_t count) {
  std::vector<int64_t> out(count, 0);
  const Cfg cfg = build_cfg(words, count);
  if (cfg.blocks.empty()) return out;
  const std::vector<int> ipdom = immediate_post_dominators(cfg);
  for (size_t bi = 0; bi < cfg.blocks.size(); ++bi) {
    const CfgBlock& b = cfg.blocks[bi];
    const size_t last = b.first + b.count - 1;
    auto in = decode(words[last]);
    if (!in || in->op != Op::BRA || unguarded(*in)) continue;
    const int p = ipdom[bi];
    if (p < 0 || p == cfg.exit()) continue;
    out[last] = int64_t(cfg.blocks[size_t(p)].first) - int64_t(last);
  }
  return out;
}

bool can_fall_off_end(const uint64_t* words, size_t count) {
  if (count == 0) return false;
  auto in = decode(words[count - 1]);
  if (!in) return false;
  const bool term = in->op == Op::BRA || in->op == Op::EXIT || in->op == Op::TRAP;
  return !(term && unguarded(*in));
}

}  // namespace baresm::isa
