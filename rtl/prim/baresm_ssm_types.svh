// The thread-serial SM's types (rtl/ssm): shared by its package and modules.
`ifndef BARESM_SSM_TYPES_SVH
`define BARESM_SSM_TYPES_SVH

// One instruction word, split into its fields (docs/isa.md).
typedef struct packed {
  logic [6:0]  op;
  logic        bimm;
  logic [2:0]  pg;
  logic        pg_neg;
  logic [5:0]  rd;
  logic [5:0]  ra;
  logic [7:0]  mod;
  logic [5:0]  rb;
  logic [5:0]  rc;
  logic [31:0] imm;   // imm32 when bimm, else imm20 sign-extended
} instr_t;

// A reconvergence-stack entry (isa/iss.h StackEntry).
typedef struct packed {
  logic [31:0] pc;
  logic [31:0] rpc;
  logic [31:0] mask;
} entry_t;

// What the sequencer records of the first fault of a launch. The rest of the
// report (CTA, warp, pc, the waiting warps) is the sequencer's own state,
// which stops changing when it stops at the fault.
typedef struct packed {
  logic [3:0]  kind;
  logic [4:0]  lane;
  logic [31:0] addr;
} fault_t;

`endif  // BARESM_SSM_TYPES_SVH
