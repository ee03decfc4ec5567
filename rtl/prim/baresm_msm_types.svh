// The microprogrammed SM's types (rtl/msm): what the firmware hands the lane
// engine (fw/sm/fwsm_hal.h fw_lane_op_t, field for field).
`ifndef BARESM_MSM_TYPES_SVH
`define BARESM_MSM_TYPES_SVH

// One ALU-class warp-instruction for the lane loop: for every lane of exec,
// a (ra), b (rb or imm), c (rc) from warp `warp`'s registers (a register
// marked zero reads 0), the ALU, the result into rd; with zero_fill, rd's
// lanes outside exec are written 0 (its first write in the CTA). sel holds
// each lane's second predicate (SEL, ISETP's combine input). The memory
// loop (baresm_msm_lsu) takes the same record: zero_b is then the data
// register's flag (rb, or rd of a store).
typedef struct packed {
  logic [6:0]  op;
  logic [7:0]  mod;
  logic [4:0]  warp;  // the engine uses its low $clog2(NumWarps) bits
  logic [5:0]  ra;    // register fields as the ISA has them (the low
  logic [5:0]  rb;    // $clog2(NumRegs) bits address the register file;
  logic [5:0]  rc;    // RZ is never read: the firmware marks it zero)
  logic [5:0]  rd;
  logic        bimm;
  logic [31:0] imm;
  logic [31:0] exec;
  logic [31:0] sel;
  logic        zero_a;
  logic        zero_b;
  logic        zero_c;
  logic        write_rd;
  logic        zero_fill;
  logic [47:0] tid0;  // S2R: lane 0's thread id {z, y, x}, 16 bits each
} msm_lane_op_t;

// A launch's values the lane engine uses (fw/sm/fwsm_hal.h hal_launch),
// written by the firmware before the launch's first CTA: the memory loop's
// ranges (windows, protected range, parameter buffer, shared memory) and
// the block's x and y, by which the lane engine steps S2R's thread id (the
// special registers the same in every lane are the firmware's: a MOV of
// their value). The memory loop checks the first NumWindows
// windows (flops of the others are never read, so synthesis drops them).
typedef struct packed {
  logic [32*8-1:0] win_base;   // window k at [32k +: 32]
  logic [32*8-1:0] win_end;    // base + size, its low 32 bits
  logic [7:0]      win_end_hi; // ... and bit k its bit 32
  logic [31:0]     prot_base;
  logic [32:0]     prot_end;   // base + size (0 when the size is 0)
  logic [31:0]     param_addr;
  logic [31:0]     param_size;
  logic [31:0]     shared;
  logic [31:0]     block_xy;   // {y, x}
  logic [5:0]      regs;       // registers per thread (the trace's register numbering)
} msm_launch_t;

`endif  // BARESM_MSM_TYPES_SVH
