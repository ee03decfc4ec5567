// baresm_lsu: the SM's load/store unit. Executes one whole-warp memory
// instruction at a time (LDG LDS LDC STG STS ATOMG ATOMS), owns the banked
// shared memory and talks to device memory through one request/response port.
// docs/lsu.md is the full description; the contract in short:
//
// Issue (req_*): valid/ready. Accepted when req_valid_i && req_ready_o. All
//   req_* inputs are sampled in that cycle only. req_mask_i holds the lanes
//   whose guard is true (it may be 0: the instruction completes at once).
//   req_addr_i is each lane's effective address (ra + imm), lane i in bits
//   [32*i +: 32]; for LDS/STS/ATOMS an offset in the CTA's shared region,
//   for LDC an offset in the parameter buffer, else a device address.
//   req_data_i: store value / atomic operand b; req_swap_i: CAS value c.
//   req_smem_base_i/req_smem_size_i: the issuing warp's CTA shared region
//   (byte offset inside this SM's shared memory, and shared_bytes).
// Launch context (param_*, win_*): must not change while idle_o is low.
//   Window w is [win_base_i[32*w +: 32], + win_size_i[32*w +: 32]); size 0
//   disables it.
// Completion (cpl_*): valid/ready, exactly one per accepted instruction,
//   held stable until cpl_ready_i. cpl_we_o: write cpl_data_o to register
//   cpl_rd_o of the lanes in cpl_mask_o (loads, atomics); 0 for stores and
//   for faults. Loads are sign/zero-extended; atomics return the old value.
//   cpl_fault_o: the instruction faulted and had no effect at all;
//   cpl_fault_kind_o is numbered as iss::FaultKind (3 OUT_OF_WINDOW,
//   4 MISALIGNED), cpl_fault_lane_o the lowest faulting lane, and
//   cpl_fault_addr_o its effective address. The completion of a store is
//   sent only after every write of it has been acknowledged by memory.
// Memory port (mem_req_*/mem_rsp_*): valid/ready on both channels.
//   op 0 READ  : mem_req_addr_o line-aligned; response rdata = the line.
//   op 1 WRITE : line-aligned; write the bytes whose wstrb bit is set;
//                the response (rdata ignored) acknowledges it.
//   op 2 ATOMIC: mem_req_addr_o is the 4-byte aligned word address;
//                mem_req_amo_o = ATOM mod[4:0], b = wdata[31:0],
//                c = wdata[63:32]; response rdata[31:0] = the old value.
//   Exactly one response per request, in any order, matched by id. Requests
//   take effect in the order they are accepted (atomics of one instruction
//   are issued in lane order). mem_rsp_ready_o is always 1; responses whose
//   id is not outstanding are dropped (e.g. after a reset of the SM).
//   The request channel is driven from flops.
// Timing: see docs/lsu.md (shared memory: one pass per cycle, two per pass
//   for ATOMS; global: up to one request per cycle, at most 2**MemIdWidth
//   outstanding).
`default_nettype none

module baresm_lsu #(
  parameter int NumWarps     = 16,
  parameter int NumBanks     = 32,     // shared-memory banks of 4 bytes (power of 2)
  parameter int SharedBytes  = 16384,  // shared memory of the SM (multiple of 4*NumBanks)
  parameter int MemLineBytes = 128,    // global-memory line (power of 2, >= 8)
  parameter int MemIdWidth   = 4,      // transaction id bits: 2**MemIdWidth outstanding
  parameter int NumWindows   = 4,
  parameter int WarpIdW      = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  // ---- issue --------------------------------------------------------------
  input  logic                        req_valid_i,
  output logic                             req_ready_o,
  input  logic [6:0]                  req_op_i,
  input  logic [7:0]                  req_mod_i,
  input  logic [WarpIdW-1:0]          req_warp_i,
  input  logic [5:0]                  req_rd_i,
  input  logic [31:0]                 req_mask_i,
  input  logic [32*32-1:0]            req_addr_i,
  input  logic [32*32-1:0]            req_data_i,
  input  logic [32*32-1:0]            req_swap_i,
  input  logic [31:0]                 req_smem_base_i,
  input  logic [31:0]                 req_smem_size_i,

  // ---- launch context -----------------------------------------------------
  input  logic [31:0]                 param_base_i,
  input  logic [31:0]                 param_size_i,
  input  logic [32*NumWindows-1:0]    win_base_i,
  input  logic [32*NumWindows-1:0]    win_size_i,

  // ---- completion / writeback --------------------------------------------
  output logic                             cpl_valid_o,
  input  logic                        cpl_ready_i,
  output logic [WarpIdW-1:0]               cpl_warp_o,
  output logic [5:0]                       cpl_rd_o,
  output logic [31:0]                      cpl_mask_o,
  output logic                             cpl_we_o,
  output logic [32*32-1:0]                 cpl_data_o,
  output logic                             cpl_fault_o,
  output logic [3:0]                       cpl_fault_kind_o,
  output logic [4:0]                       cpl_fault_lane_o,
  output logic [31:0]                      cpl_fault_addr_o,

  // ---- device-memory port -------------------------------------------------
  output logic                             mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output logic [MemIdWidth-1:0]            mem_req_id_o,
  output logic [31:0]                      mem_req_addr_o,
  output logic [1:0]                       mem_req_op_o,
  output logic [4:0]                       mem_req_amo_o,
  output logic [MemLineBytes*8-1:0]        mem_req_wdata_o,
  output logic [MemLineBytes-1:0]          mem_req_wstrb_o,
  input  logic                        mem_rsp_valid_i,
  output logic                             mem_rsp_ready_o,
  input  logic [MemIdWidth-1:0]       mem_rsp_id_i,
  input  logic [MemLineBytes*8-1:0]   mem_rsp_rdata_i,

  // ---- status and counters ------------------------------------------------
  output logic                             idle_o,        // nothing accepted and unfinished
  output logic [31:0]                      smem_passes_o, // shared-memory passes, cumulative
  output logic [31:0]                      gmem_reqs_o    // memory requests issued, cumulative
);

  // Interface stub: the implementation follows.
  assign req_ready_o = 1'b0;
  assign cpl_valid_o = 1'b0;
  assign cpl_warp_o = '0;
  assign cpl_rd_o = '0;
  assign cpl_mask_o = '0;
  assign cpl_we_o = 1'b0;
  assign cpl_data_o = '0;
  assign cpl_fault_o = 1'b0;
  assign cpl_fault_kind_o = '0;
  assign cpl_fault_lane_o = '0;
  assign cpl_fault_addr_o = '0;
  assign mem_req_valid_o = 1'b0;
  assign mem_req_id_o = '0;
  assign mem_req_addr_o = '0;
  assign mem_req_op_o = '0;
  assign mem_req_amo_o = '0;
  assign mem_req_wdata_o = '0;
  assign mem_req_wstrb_o = '0;
  assign mem_rsp_ready_o = 1'b1;
  assign idle_o = 1'b1;
  assign smem_passes_o = '0;
  assign gmem_reqs_o = '0;

endmodule

`default_nettype wire
