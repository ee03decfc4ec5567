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
// written by the firmware before the launch's first CTA, besides the memory
// loop's ranges (a RAM in baresm_msm_lsu, LP_RANGE): the parameter buffer's
// address (LDC) and the block's x and y, by which the lane engine steps
// S2R's thread id (the special registers the same in every lane are the
// firmware's: a MOV of their value).
typedef struct packed {
  logic [31:0]     param_addr;
  logic [31:0]     block_xy;   // {y, x}
  logic [5:0]      regs;       // registers per thread (the trace's register numbering)
} msm_launch_t;

// A request of the memory loop, made on the SM's one memory port through the
// I/O block's request registers (the firmware's memory port): a line read,
// or a line write of a word repeated over the line, strobed.
typedef struct packed {
  logic        issue;   // one cycle: take these
  logic        write;
  logic [31:0] addr;    // the line's
  logic [31:0] word;
  logic [15:0] wstrb;
} msm_lsu_req_t;

// A word of the memory loop's range RAM (LP_RANGE): 33 bits, so that a range
// may end at 2^32 and beyond.
typedef struct packed {
  logic        we;
  logic [4:0]  addr;   // range r's low end at 2r, its high end at 2r + 1
  logic [32:0] data;
} msm_range_wr_t;

`endif  // BARESM_MSM_TYPES_SVH
