// What `baresm launch` prints about a failed launch: the error, and for an SM
// fault (the fault table read backwards, drv::fault_info) its place -- CTA,
// warp, lane, the disassembled instruction and its source line -- and the
// address word where the table says the fault has one.
#pragma once

#include <string>
#include <vector>

#include "host_driver/driver.h"
#include "isa/module.h"

namespace baresm::cli {

// source_lines: the .s or .ptx the module was built from (empty for a .bsm);
// code_base: the device address of the module's code. Lines end in '\n'.
std::string format_fault(const isa::Module& m, const std::vector<std::string>& source_lines,
                         const drv::LaunchReport& r, drv::DevPtr code_base);

}  // namespace baresm::cli
