// The SM's report port (baresm_sm / baresm_ssm rpt_req_i, rpt_rsp_o; answered
// by baresm_sm_status / baresm_ssm_status): the command processor asks for one 32-bit word of
// the launch's counters by its word index in the completion entry
// (baresm_state_pkg::RPT_*, generated from contract/sm_report.def), and the
// SM answers it in rpt_rsp_o.word the next cycle. Besides the word, the
// response carries two live counts for the command processor's registers
// (WARP_INSTRS, PROGRESS): what the SM counted in the previous cycle.
`ifndef BARESM_REPORT_TYPES_SVH
`define BARESM_REPORT_TYPES_SVH

typedef struct packed {
  logic       valid;  // ask for word idx
  logic [4:0] idx;    // its word index in the completion entry
} baresm_rpt_req_t;

typedef struct packed {
  logic [7:0]  ctas;    // CTAs the SM counted as completed in the previous cycle
  logic        issued;  // a warp-instruction was counted in the previous cycle
  logic [31:0] word;    // the word asked for in the previous cycle (valid that cycle only)
} baresm_rpt_rsp_t;

// The SM's fault report (baresm_sm / baresm_ssm fault_*_o, field by field on
// the SM: the verilated SM is a top that C++ drives; baresm_top packs them
// into this for the command processor's sm_fault_i). What it means:
// docs/microarchitecture.md "Completion"; valid from the SM's done on.
typedef struct packed {
  logic [3:0]  kind;     // iss::FaultKind numbering, 0 = none
  logic [31:0] cta_x;    // the faulting CTA
  logic [31:0] cta_y;
  logic [31:0] cta_z;
  logic [7:0]  warp;     // warp index inside the CTA
  logic [4:0]  lane;
  logic [31:0] pc;
  logic [31:0] addr;     // OUT_OF_WINDOW / MISALIGNED / MEMORY_ERROR: the address
  logic [31:0] waiting;  // BARRIER_DEADLOCK: bit w = warp w of the CTA waits
} baresm_sm_fault_t;

`endif
