// Register allocation for the PTX front end: the virtual registers of one
// lowered kernel (ptx_mir.h) onto R0..R62 and P0..P6.
//
// Liveness is the classic backward data-flow over the kernel's basic blocks
// (per thread: under SIMT every lane still runs one sequential path, so
// per-path liveness is what keeps its values). A guarded write is also a
// read: the lanes whose guard is false keep the old value. Each virtual
// register gets one live interval over the linear instruction order, the
// hull of every point where it is live, with reads at 2i and writes at
// 2i+1 so that an instruction may write the register one of its operands
// dies in. Linear scan (Poletto & Sarkar) then gives each interval the
// lowest free register. A value that is written but never read goes to RZ
// (PT for predicates), whose writes the device drops.
//
// Predicates that do not fit P0..P6 are kept in general registers, and
// registers that do not fit R0..R62 are spilled to the thread's local frame
// (allocate_with_spills; docs/ptx.md "Local memory").
#pragma once

#include <string>
#include <vector>

#include "isa/ptx_mir.h"

namespace baresm::isa::ptx {

struct Allocation {
  bool ok = false;
  std::string error;      // when !ok
  Pos error_pos;          // the instruction where too many values were live
  std::vector<int> phys;  // per vreg: R index (63 = RZ) or P index (7 = PT)
  int regs = 0;           // R registers used: highest index + 1
  int preds = 0;          // predicates used: highest index + 1
  int spill_pred = -1;    // when predicates ran out: the one to keep in a register
  int spill_reg = -1;     // when registers ran out: the one to spill to local memory
};

Allocation allocate_registers(const MKernel& k);

// allocate_registers, and while predicates run out, keeps the longest-lived
// one in a general register (0/1, set after each write, a fresh predicate
// from it before each read), while registers run out, spills the longest-
// lived one to a 4-byte slot of the thread's frame (k->spill_slots), and
// tries again. Places the frame prologue when anything uses local memory and
// sets its size. *preds_in_regs counts the predicates kept in registers.
Allocation allocate_with_spills(MKernel* k, int* preds_in_regs);

// The frame prologue (once, at the entry, when k->frame >= 0): k->frame =
// local buffer (the hidden parameter) + 32 x local_bytes x the warp's index
// in the grid + 4 x lane. 22 instructions.
void insert_frame_prologue(MKernel* k);
// k->frame, created (never spilled) when nothing has used local memory yet.
int ensure_frame(MKernel* k);
// The byte offset of the hidden frame-buffer parameter: after the user's
// parameters, 4-aligned (the module's param_bytes).
uint32_t hidden_param_offset(const MKernel& k);

}  // namespace baresm::isa::ptx
