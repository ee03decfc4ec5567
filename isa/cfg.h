// Control-flow graph of one kernel's code and its immediate post-dominators,
// from which the assembler derives the reconvergence point of every
// conditional branch (docs/isa.md, "SIMT execution").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace baresm::isa {

struct CfgBlock {
  uint32_t first = 0;      // index of the block's first instruction (kernel-relative)
  uint32_t count = 0;      // instructions in the block
  std::vector<int> succs;  // block indices; Cfg::exit() is the virtual exit
  std::vector<int> preds;  // the reverse edges (the virtual exit has none listed)
};

struct Cfg {
  std::vector<CfgBlock> blocks;     // in address order; block 0 holds the entry
  std::vector<int> block_of_instr;  // instruction index -> block index
  int exit() const { return int(blocks.size()); }
};

// Builds the CFG from decoded instruction words. A block ends at BRA, EXIT or
// TRAP and before every branch target. Edges: unguarded BRA -> target; guarded
// BRA -> target and fall-through; unguarded EXIT/TRAP -> exit; guarded EXIT
// -> fall-through and exit; guarded TRAP -> fall-through (a trap ends the
// whole launch, so it is no path to a join); a word that does not decode
// faults, so -> exit. A branch outside [0, count) and falling off the end go to the exit
// (the assembler reports the latter separately).
Cfg build_cfg(const uint64_t* words, size_t count);

// Immediate post-dominator of every block (Cooper-Harvey-Kennedy on the
// reverse CFG, rooted at the virtual exit): a block index, cfg.exit(), or -1
// when the block cannot reach the exit (an endless loop).
std::vector<int> immediate_post_dominators(const Cfg& cfg);

// For every instruction, the reconvergence delta (in instructions, relative to
// the instruction) its encoding should carry: for a guarded BRA the first
// instruction of the ipdom of its block, 0 when that is the exit (or there is
// none); 0 for everything else. Deltas that do not fit int16 are returned as
// they are; the caller reports them.
std::vector<int64_t> reconvergence_deltas(const uint64_t* words, size_t count);

// True when execution can run past the last word: the last word decodes and is
// not an unguarded BRA, EXIT or TRAP.
bool can_fall_off_end(const uint64_t* words, size_t count);

}  // namespace baresm::isa
