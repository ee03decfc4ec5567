// Writes rtl/sm/baresm_state_pkg.sv from the fault table (contract/faults.def),
// the state encodings (contract/states.def) and the error codes
// (contract/rings.def): the SM's fault kinds, the fault-to-error mapping
// (fault_error()), the warp states and the command processor's engine states,
// so the RTL and the C++ side (which include the same .def files) can never
// disagree.
// Usage: gen_states OUT.sv   ("-" writes to stdout)
//
// It also checks the fault table against contract/rings.def: every ERR code must be
// reached exactly once, from a BSM_FAULT or a BSM_ERR_STATUS row (the
// driver's status mapping is a switch over them), and the encodings must fit
// their RTL widths. A violation is one line naming the file, the row and why,
// and exit 1.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "contract/rings.h"
#include "host_driver/status.h"

namespace {

namespace cq = baresm::cq;
namespace drv = baresm::drv;

struct Fault {
  const char* kind;
  const char* err_name;
  unsigned err;
  const char* desc;
};
const Fault kFaults[] = {
#define BSM_FAULT(kind, err, status, addr, desc) \
  {#kind, #err, unsigned(cq::ErrorCode::err), (void(drv::Status::status), desc)},
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};

struct ErrOnly {
  const char* err_name;
  unsigned err;
};
const ErrOnly kErrOnly[] = {
#define BSM_FAULT(kind, err, status, addr, desc)
#define BSM_ERR_STATUS(err, status) {#err, (void(drv::Status::status), unsigned(cq::ErrorCode::err))},
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};

struct Code {
  const char* name;
  unsigned value;
};
const Code kErrCodes[] = {
#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_CONST(name, value, desc)
#define RING_ENUM(group, name, value, desc) RING_ENUM_##group(name, value)
#define RING_ENUM_ERR(name, value) {#name, value},
#define RING_ENUM_CPL_STATUS(name, value)
#define RING_ENUM_DCHK(name, value)
#include "contract/rings.def"
#undef RING_ENUM_ERR
#undef RING_ENUM_CPL_STATUS
#undef RING_ENUM_DCHK
#undef RING_ENUM
#undef RING_CONST
#undef RING_FIELD
};

struct State {
  const char* name;
  const char* desc;
};
const State kWarpStates[] = {
#define BSM_WARP_STATE(name, str, desc) {#name, desc},
#define BSM_CP_STATE(name, desc)
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
};
const State kCpStates[] = {
#define BSM_WARP_STATE(name, str, desc)
#define BSM_CP_STATE(name, desc) {#name, desc},
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
};

constexpr int kFaultBits = 4, kWarpStateBits = 3, kCpStateBits = 4, kErrBits = 8;

// Every error code reached exactly once; the encodings fit their widths.
bool check_tables() {
  bool ok = true;
  auto fail = [&](const std::string& msg) {
    std::cerr << "gen_states: " << msg << "\n";
    ok = false;
  };
  std::map<std::string, int> uses;
  for (const Fault& f : kFaults) uses[f.err_name]++;
  for (const ErrOnly& e : kErrOnly) uses[e.err_name]++;
  for (const Code& c : kErrCodes) {
    const int n = uses.count(c.name) ? uses[c.name] : 0;
    if (n == 0)
      fail(std::string("contract/faults.def: ERR ") + c.name +
           " (contract/rings.def) has no row: add BSM_ERR_STATUS(" + c.name +
           ", <drv::Status>) or name it in a BSM_FAULT row");
    else if (n > 1)
      fail(std::string("contract/faults.def: ERR ") + c.name + " is reached by " + std::to_string(n) +
           " rows; each error code maps to one driver status, so it may appear once");
  }
  if (std::size(kFaults) == 0 || std::string(kFaults[0].kind) != "NONE" || kFaults[0].err != 0)
    fail("contract/faults.def: the first BSM_FAULT row must be NONE -> OK (fault kind 0 is 'no fault')");
  if (std::size(kFaults) > (1u << kFaultBits))
    fail("contract/faults.def: " + std::to_string(std::size(kFaults)) + " fault kinds do not fit the SM's " +
         std::to_string(kFaultBits) + "-bit fault_kind_o");
  if (std::size(kWarpStates) > (1u << kWarpStateBits))
    fail("contract/states.def: " + std::to_string(std::size(kWarpStates)) + " warp states do not fit " +
         std::to_string(kWarpStateBits) + " bits (warp_state_o)");
  if (std::size(kCpStates) > (1u << kCpStateBits))
    fail("contract/states.def: " + std::to_string(std::size(kCpStates)) + " CP states do not fit " +
         std::to_string(kCpStateBits) + " bits (the CP's state_o)");
  return ok;
}

// The SM's report words (contract/sm_report.def): each one's word index in
// the completion entry, its size (a 32-bit field), whether the CP copies it.
struct ReportWord {
  const char* field;
  unsigned offset, bytes, cp;
  const char* desc;
};
const ReportWord kReport[] = {
#define SM_REPORT(field, cp, desc) \
  {#field, unsigned(offsetof(cq::CompletionEntry, field)), unsigned(sizeof(cq::CompletionEntry::field)), cp, desc},
#include "contract/sm_report.def"
#undef SM_REPORT
};

std::string upper(const char* s) {
  std::string o = s;
  for (auto& c : o) c = char(std::toupper(static_cast<unsigned char>(c)));
  return o;
}

std::string lit(int bits, unsigned v) {
  return std::to_string(bits) + "'d" + std::to_string(v);
}

std::string generate() {
  std::ostringstream o;
  o << "// GENERATED by tools/gen_states from contract/faults.def, contract/states.def,\n"
       "// contract/rings.def and contract/sm_report.def -- do not edit. Regenerate with `make gen`; the test\n"
       "// generated_files_current fails when it is stale.\n"
       "package baresm_state_pkg;\n\n";
  o << "  // ---- fault kinds (contract/faults.def): the SM's fault_kind_o, iss::FaultKind ----\n";
  for (size_t i = 0; i < std::size(kFaults); ++i)
    o << "  localparam logic [" << kFaultBits - 1 << ":0] FAULT_" << kFaults[i].kind << " = "
      << lit(kFaultBits, unsigned(i)) << ";  // " << kFaults[i].desc << "\n";
  o << "  localparam int NUM_FAULT_KINDS = " << std::size(kFaults) << ";\n\n";

  o << "  // ---- warp states (contract/states.def): warp_state_o, 3 bits per warp slot ----\n";
  for (size_t i = 0; i < std::size(kWarpStates); ++i)
    o << "  localparam logic [" << kWarpStateBits - 1 << ":0] WS_" << kWarpStates[i].name << " = "
      << lit(kWarpStateBits, unsigned(i)) << ";  // " << kWarpStates[i].desc << "\n";
  o << "  localparam int NUM_WS = " << std::size(kWarpStates) << ";\n\n";

  o << "  // ---- command-processor engine states (contract/states.def): the CP's state_q, state_o ----\n";
  for (size_t i = 0; i < std::size(kCpStates); ++i)
    o << "  localparam logic [" << kCpStateBits - 1 << ":0] CP_" << kCpStates[i].name << " = "
      << lit(kCpStateBits, unsigned(i)) << ";  // " << kCpStates[i].desc << "\n";
  o << "  localparam int NUM_CP_STATES = " << std::size(kCpStates) << ";\n\n";

  unsigned internal = unsigned(cq::ErrorCode::INTERNAL);
  o << "  // The completion error code (baresm_ring_pkg::ERR_*) of a launch that ended\n"
       "  // with the SM's fault kind `kind`; a kind outside the table is INTERNAL.\n"
       "  function automatic logic ["
    << kErrBits - 1 << ":0] fault_error(input logic [" << kFaultBits - 1
    << ":0] kind);\n"
       "    unique case (kind)\n";
  for (const Fault& f : kFaults)
    o << "      FAULT_" << f.kind << ": fault_error = " << lit(kErrBits, f.err) << ";  // ERR_" << f.err_name
      << "\n";
  o << "      default: fault_error = " << lit(kErrBits, internal)
    << ";  // ERR_INTERNAL\n"
       "    endcase\n  endfunction\n\n";

  // The SM's report words: the index on the report port is the word's index
  // in the completion entry (contract/sm_report.def).
  o << "  // ---- the SM's report (contract/sm_report.def): completion-entry word indices ----\n";
  uint32_t sm_mask = 0, cp_mask = 0;
  for (const ReportWord& r : kReport) {
    if (r.bytes != 4 || r.offset % 4 != 0 || r.offset / 4 >= 32) {
      std::cerr << "gen_states: contract/sm_report.def: " << r.field
                << " is not a 32-bit word of the completion entry\n";
      std::exit(1);
    }
    const unsigned w = r.offset / 4;
    if (sm_mask & (1u << w)) {
      std::cerr << "gen_states: contract/sm_report.def names " << r.field << " twice\n";
      std::exit(1);
    }
    sm_mask |= 1u << w;
    if (r.cp) cp_mask |= 1u << w;
    o << "  localparam logic [4:0] RPT_" << upper(r.field) << " = 5'd" << w << ";  // " << r.desc << "\n";
  }
  char m[80];
  std::snprintf(m, sizeof m, "32'h%08X", unsigned(sm_mask));
  o << "  localparam logic [31:0] RPT_SM_MASK = " << m << ";  // the words the SM answers\n";
  std::snprintf(m, sizeof m, "32'h%08X", unsigned(cp_mask));
  o << "  localparam logic [31:0] RPT_CP_MASK = " << m
    << ";  // the words the command processor copies into the entry\n";
  o << "\nendpackage\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gen_states OUT.sv|-\n";
    return 2;
  }
  if (!check_tables()) return 1;
  const std::string text = generate();
  if (std::string(argv[1]) == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream f(argv[1], std::ios::binary);
  if (!f) {
    std::cerr << "gen_states: cannot write " << argv[1] << "\n";
    return 1;
  }
  f << text;
  return f.flush() ? 0 : 1;
}
