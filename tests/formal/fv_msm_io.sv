// Formal proof: the narrow SM's I/O block (baresm_msm_io), the registers the
// control core addresses (contract/msm_io.def), with 2 warps, 2 registers
// (register-file windows of 512 bytes), 64 bytes of shared memory; every
// input free but for the assumptions below. The properties are in
// tests/formal/msm_io_inner.svh; the offsets there are the contract's
// numbers, written out (not the generated package's names), so the proof
// checks baresm_msm_io_pkg too:
//   - a write reaches exactly its target: each register (the lane engine's
//     operation fields, the launch's values, issue, predicate write, warp
//     states, CTA, memory-port strobes and data) changes only in the cycle
//     after a write to its offset, to the bits the contract names; each
//     pulse (lane start, memory-loop start, issue, issue fault, predicate
//     write, barrier release, CTA retire) comes exactly for a write to its
//     offset; the register-file windows [RF, RF + 512) and [RF_TRACED,
//     RF_TRACED + 512) write word (offset - base) / 4 (traced only in the
//     second), LP_RANGE's window [0x140, 0x1C0) writes range word
//     (offset - 0x140) / 4 with LP_RANGE_TOP's bit on top;
//   - a read is answered exactly the next cycle, with the addressed
//     register's value at the read (the memory port's status and data,
//     the cycle counter, the lane engine's status, bits and fault), the
//     register file's answer for the RF window, and 0 for every other
//     offset;
//   - the memory port: one request at a time, counted at the ports; the
//     request shown from the cycle after its start until taken, held
//     unchanged, with the address written (or the memory loop's), a write
//     exactly for MEM_STORE (or the loop's store) with MEM_WSTRB's bytes
//     and the data words; a read's answer (no error) lands in the data
//     words; MEM_STATUS busy while a request is not answered, its error
//     bit the last answer's; a fetch counted (ifill) when taken;
//   - shared memory's clear: SMEM_CLEAR n writes words 0 .. min(n, words)-1,
//     one a cycle in order, then stops; LANE_STATUS busy meanwhile;
//   - reset: no request, no clear, no pulse, no read answer, the counter 0,
//     the warp states 0.
// Environment (assumed): the firmware starts a memory request (MEM_READ,
// MEM_FETCH, MEM_STORE) or the memory loop issues one only when the port
// is idle (the loop may issue in the cycle its previous answer comes: the
// memory loop's proof shows it), never both in one cycle (a_one_requester),
// and neither writes the port's data or strobes while a request is
// outstanding; the memory answers only a request it took.
`include "baresm_mcu_types.svh"
`include "baresm_mem_types.svh"
`include "baresm_msm_types.svh"
`default_nettype none

module fv_msm_io #(
  parameter int NumWarps = 2,
  parameter int NumRegs = 2,
  parameter int SharedBytes = 64,
  parameter int MemLineBytes = 16,
  parameter int LsuIdWidth = 2,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int RfAddrW = WarpW + ((NumRegs > 1) ? $clog2(NumRegs) : 1) + 5,
  parameter int SmemW = $clog2(SharedBytes / 4)
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input baresm_mcu_req_t           req_i,
  input msm_lsu_req_t              lsu_req_i,
  input logic                      mem_req_ready_i,
  input logic                      mem_rsp_valid_i,
  input logic                      mem_rsp_err_i,
  input logic [MemLineBytes*8-1:0] mem_rsp_rdata_i,
  input logic                      lane_busy_i,
  input logic [31:0]               lane_bits_i,
  input logic                      lsu_fault_i,
  input logic [3:0]                lsu_fault_kind_i,
  input logic [4:0]                lsu_fault_lane_i,
  input logic [31:0]               lsu_fault_addr_i,
  input logic                      lsu_mem_wait_i,
  input logic [31:0]               rf_rdata_i
);
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;
  mem_rsp_t mem_rsp_i;
  always_comb begin
    mem_rsp_i.valid = mem_rsp_valid_i;
    mem_rsp_i.err = mem_rsp_err_i;
    mem_rsp_i.rdata = mem_rsp_rdata_i;
  end
  typedef `BARESM_MEM_REQ_T(LsuIdWidth + 1, MemLineBytes) mem_req_t;
  baresm_mcu_rsp_t rsp_o;
  msm_launch_t launch_o;
  msm_range_wr_t range_wr_o;
  logic [63:0] clock_o;
  mem_req_t mem_req_o;
  logic lane_start_o, lsu_start_o, sm_we_o, rf_re_o, rf_we_o, rf_traced_o, issue_o, issue_fault_o, diverge_o,
        bar_release_o, cta_retire_o, ifill_o, pw_valid_o;
  msm_lane_op_t lane_op_o;
  logic [SmemW-1:0] sm_waddr_o;
  logic [RfAddrW-1:0] rf_raddr_o, rf_waddr_o;
  logic [31:0] rf_wdata_o, issue_pc_o, issue_tmask_o, issue_exec_o, cta_x_o, cta_y_o, cta_z_o, pw_mask_o, pw_bits_o;
  logic [NumWarps-1:0] used_o, exited_o, bar_wait_o, ready_o, wait_mem_o;
  logic [WarpW-1:0] issue_warp_o, pw_warp_o;
  logic [2:0] pw_pd_o;

  baresm_msm_io #(
    .NumWarps(NumWarps), .NumRegs(NumRegs), .SharedBytes(SharedBytes), .MemLineBytes(MemLineBytes),
    .LsuIdWidth(LsuIdWidth)
  ) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
`endif
endmodule

`default_nettype wire
