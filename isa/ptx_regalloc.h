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
// Predicates that do not fit P0..P6 are kept in general registers
// (allocate_with_spilled_predicates). There is no spilling to memory yet: when
// more than 63 values are live at once, allocation fails with a message
// saying so.
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
};

Allocation allocate_registers(const MKernel& k);

// allocate_registers, and while only predicates run out, keeps the longest-
// lived one in a general register (0/1, set after each write, a fresh
// predicate from it before each read) and tries again. *spilled counts them.
Allocation allocate_with_spilled_predicates(MKernel* k, int* spilled);

}  // namespace baresm::isa::ptx
