// Formal proof: the narrow SM's memory loop (baresm_msm_lsu) with 2 warps,
// 2 registers, 2 windows, 16-byte lines; every input free but for the
// assumptions below. The properties and the induction invariants are in
// tests/formal/msm_lsu_inner.svh (they need the loop's registers):
//   (a) one device-memory request at a time: a request is issued only when
//       none is waiting to be taken and none is waiting for its response
//       (but the one whose response is taken in that very cycle: a global
//       atomic's write follows its read's line);
//   (b) a request for a lane (any one: fv_lane, a free constant) only if
//       its access [a, a + size) lies inside one of the windows and does
//       not touch the protected range, as the firmware wrote them into the
//       range RAM (an LDC: [off, off + size) inside the parameter buffer),
//       and to the line of that address; stronger: the loop reaches its
//       access phase only if that lane passed, so a failing lane means no
//       request for any lane of the warp-instruction;
//   (c) a fault ends the loop in the same cycle (busy falls), with nothing
//       in flight, and no request is issued until the next start;
//   (d) a misaligned access never reaches memory (part of (b)'s check).
// Environment (assumed):
//   - op_i is a memory instruction (LDG, STG, ATOMG, LDS, STS, ATOMS, LDC),
//     held from start while busy (the module's a_op_held, not under FORMAL);
//   - the range RAM is written only while the loop is idle (the launch
//     writes LP_RANGE); msm_lsu_inner.svh keeps a shadow of what was written
//     and takes the RAM's read word from it (the RAM's read contract);
//   - the register file: the word that holds lane fv_lane's address
//     register reads one value (free, chosen at each start) all through a
//     loop (the loop writes it, when rd == ra, only after the lane's last
//     read); every other read is free;
//   - memory: the request port's ready is free; a response comes only for
//     a request taken and not yet answered.
`include "baresm_mem_types.svh"
`include "baresm_msm_types.svh"
`default_nettype none

module fv_msm_lsu #(
  parameter int NumWarps = 2,
  parameter int NumRegs = 2,
  parameter int SharedBytes = 64,
  parameter int MemLineBytes = 16,
  parameter int NumWindows = 2,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  parameter int RfAddrW = WarpW + RegW + 5,
  parameter int SmemW = $clog2(SharedBytes / 4)
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      start_i,
  input msm_lane_op_t              op_i,
  input logic [31:0]               param_addr_i,
  input msm_range_wr_t             range_wr_i,
  input logic [31:0]               rf_rdata_i,
  input logic [31:0]               sm_rdata_i,
  input logic [31:0]               amo_new_i,
  input logic                      mem_req_ready_i,
  input logic                      mem_rsp_valid_i,
  input logic                      mem_rsp_err_i,
  input logic [MemLineBytes*8-1:0] mem_rsp_rdata_i
);
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;
  mem_rsp_t mem_rsp_i;
  always_comb begin
    mem_rsp_i.valid = mem_rsp_valid_i;
    mem_rsp_i.err = mem_rsp_err_i;
    mem_rsp_i.rdata = mem_rsp_rdata_i;
  end
  logic busy_o, fault_o, rf_re_o, rf_we_o, rf_traced_o, sm_re_o, sm_we_o, smem_access_o, gmem_req_o,
        mem_wait_o;
  logic [3:0] fault_kind_o, sm_wmask_o;
  logic [4:0] fault_lane_o, amo_op_o;
  logic [31:0] fault_addr_o, rf_wdata_o, sm_wdata_o, amo_old_o, amo_b_o, amo_c_o;
  logic [RfAddrW-1:0] rf_raddr_o, rf_waddr_o;
  logic [SmemW-1:0] sm_raddr_o, sm_waddr_o;
  msm_lsu_req_t lsu_req_o;

  baresm_msm_lsu #(
    .NumWarps(NumWarps), .NumRegs(NumRegs), .SharedBytes(SharedBytes), .MemLineBytes(MemLineBytes),
    .NumWindows(NumWindows)
  ) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  // The operation: a memory instruction, held while the loop runs.
  logic mem_op;
  assign mem_op = op_i.op == baresm_isa_pkg::OP_LDG || op_i.op == baresm_isa_pkg::OP_STG ||
                  op_i.op == baresm_isa_pkg::OP_ATOMG || op_i.op == baresm_isa_pkg::OP_LDS ||
                  op_i.op == baresm_isa_pkg::OP_STS || op_i.op == baresm_isa_pkg::OP_ATOMS ||
                  op_i.op == baresm_isa_pkg::OP_LDC;
  msm_lane_op_t op_q;
  always_ff @(posedge clk_i) if (!busy_o && start_i) op_q <= op_i;

`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
  always @* if (busy_o || start_i) assume (mem_op);
  always @* if (busy_o) assume (op_i == op_q);
  always @* if (range_wr_i.we) assume (!busy_o);
`endif

  logic unused;
  assign unused = ^{fault_kind_o, sm_wmask_o, fault_lane_o, amo_op_o, fault_addr_o, rf_wdata_o, sm_wdata_o,
                    amo_old_o, amo_b_o, amo_c_o, rf_raddr_o, rf_waddr_o, sm_raddr_o, sm_waddr_o, rf_re_o,
                    rf_we_o, rf_traced_o, sm_re_o, sm_we_o, smem_access_o, gmem_req_o, mem_wait_o, lsu_req_o};
endmodule

`default_nettype wire
