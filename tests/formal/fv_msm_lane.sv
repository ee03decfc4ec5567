// Formal proof: the narrow SM's lane engine (baresm_msm_lane) with 2 warps,
// 2 registers (the register file: 128 words, {warp, register, lane}); every
// input free but for the assumptions below. The properties and induction
// invariants are in tests/formal/msm_lane_inner.svh (they need the engine's
// registers); they follow one lane, any one (fv_lane, a free constant), and
// that lane's registers of every warp (a shadow of what the engine wrote
// into the register file at that lane):
//   (a) while the loop runs, every register-file write goes to warp
//       op.warp, register op.rd; the tracked lane is written at most once
//       in a loop, and at the loop's end it was written exactly when the
//       operation says so (an executing lane with write_rd; a lane outside
//       exec with zero_fill, the value 0); every other register of the
//       lane, in every warp, is as it was when the loop started;
//   (b) the executing lane's result is the ALU's for that lane's operands:
//       at the write, the ALU is given op and mod, a = ra's value (0 when
//       zero_a), b = the immediate (bimm) or rb's value (0 when zero_b),
//       c = rc's value (0 when zero_c), the lane's sel bit, and for S2R the
//       lane's special register (the lane id; the thread id: lane 0's
//       stepped by the block's x and y once per lane before it); the
//       values are the registers' at the loop's start; what is written is
//       the ALU's result (the ALU, baresm_ssm_alu, shared with the serial
//       SM and checked against the C++ model in lockstep, is replaced here
//       by tests/formal/fv_alu_stub.sv: an oracle that returns one of its
//       inputs, the solver's pick, so every input it is given is checked);
//   (c) bits_o after the loop: the lane's bit is the ALU's predicate at
//       the lane's execute (ISETP), 0 for a lane outside exec;
//   (d) the trace port shows exactly the executing lanes' rd writes;
//   (e) the firmware's single-register writes never reach the file while
//       the loop runs.
// Environment (assumed):
//   - op_i is held from start while busy (the module's a_op_held, not
//     compiled under Yosys), and so is block_xy_i (a launch value);
//   - the register file's read contract at the tracked lane: a read of one
//     of its words answers, the next cycle, the value last written there
//     (a shadow in msm_lane_inner.svh; a read of a word written in the
//     same cycle, undefined on the FPGA, is left free); every other read
//     is free.
`include "baresm_msm_types.svh"
`default_nettype none

module fv_msm_lane #(
  parameter int NumWarps = 2,
  parameter int NumRegs = 2,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  parameter int AddrW = WarpW + RegW + 5
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             start_i,
  input msm_lane_op_t     op_i,
  input logic             rd_re_i,
  input logic [AddrW-1:0] rd_addr_i,
  input logic             wr_we_i,
  input logic [AddrW-1:0] wr_addr_i,
  input logic [31:0]      wr_data_i,
  input logic [4:0]       amo_op_i,
  input logic [31:0]      amo_old_i,
  input logic [31:0]      amo_b_i,
  input logic [31:0]      amo_c_i,
  input logic [31:0]      block_xy_i,
  input logic [63:0]      clock_i
);
  logic busy_o, trace_we_o;
  logic [31:0] bits_o, rd_data_o, amo_new_o, trace_data_o;
  logic [AddrW-1:0] trace_addr_o;

  baresm_msm_lane #(.NumWarps(NumWarps), .NumRegs(NumRegs)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  msm_lane_op_t op_q;
  logic [31:0] bxy_q;
  always_ff @(posedge clk_i) if (!busy_o && start_i) begin
    op_q <= op_i;
    bxy_q <= block_xy_i;
  end

`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
  always @* if (busy_o) assume (op_i == op_q);
  always @* if (busy_o) assume (block_xy_i == bxy_q);
`endif

  logic unused;
  assign unused = ^{bits_o, rd_data_o, amo_new_o, trace_data_o, trace_addr_o, trace_we_o};
endmodule

`default_nettype wire
