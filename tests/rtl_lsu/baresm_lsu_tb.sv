// baresm_lsu_tb: the LSU as the block tests drive it, with the whole warp's
// operands on the request (req_addr_i, req_data_i, req_swap_i: lane i in bits
// [32*i +: 32]). In the SM the operands stay in the issuer's gather buffer
// and the LSU reads them one beat at a time, the beat named a cycle ahead
// as for a synchronous RAM (baresm_lsu "opnd_*"); here they are kept from
// the accept in three registers that answer those reads so. Once
// the LSU says it reads them no more (opnd_done_o) they are overwritten with
// a poison pattern, so a read after that changes the results and fails a test.
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_lsu_tb #(
  parameter int NumLanes     = 32,
  parameter int NumWarps     = 16,
  parameter int NumBanks     = 32,
  parameter int SharedBytes  = 16384,
  parameter int MemLineBytes = 128,
  parameter int MemIdWidth   = 4,
  parameter int NumWindows   = 4,
  parameter int LoadSlots    = 0,
  parameter int WarpIdW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int BeatW        = (NumLanes < 32) ? $clog2(32 / NumLanes) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        req_valid_i,
  output logic                        req_ready_o,
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
  input  logic [31:0]                 req_pc_i,
  input  logic [31:0]                 param_base_i,
  input  logic [31:0]                 param_size_i,
  input  logic [32*NumWindows-1:0]    win_base_i,
  input  logic [32*NumWindows-1:0]    win_size_i,
  input  logic [31:0]                 prot_base_i,
  input  logic [31:0]                 prot_size_i,
  output logic                        cpl_valid_o,
  input  logic                        cpl_ready_i,
  output logic [WarpIdW-1:0]          cpl_warp_o,
  output logic [5:0]                  cpl_rd_o,
  output logic [31:0]                 cpl_mask_o,
  output logic                        cpl_we_o,
  output logic [32*32-1:0]            cpl_data_o,
  output logic                        cpl_fault_o,
  output logic [3:0]                  cpl_fault_kind_o,
  output logic [4:0]                  cpl_fault_lane_o,
  output logic [31:0]                 cpl_fault_addr_o,
  output logic [31:0]                 cpl_pc_o,
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output logic [MemIdWidth-1:0]       mem_req_id_o,
  output logic [31:0]                 mem_req_addr_o,
  output logic [1:0]                  mem_req_op_o,
  output logic [4:0]                  mem_req_amo_o,
  output logic [MemLineBytes*8-1:0]   mem_req_wdata_o,
  output logic [MemLineBytes-1:0]     mem_req_wstrb_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  logic [MemIdWidth-1:0]       mem_rsp_id_i,
  input  logic [MemLineBytes*8-1:0]   mem_rsp_rdata_i,
  input  logic                        mem_rsp_err_i,
  output logic                        idle_o,
  output logic                        smem_pass_o,
  output logic [31:0]                 smem_passes_o,
  output logic [31:0]                 gmem_reqs_o
);

  localparam int LW = 32 * NumLanes;

  logic [32*32-1:0] addr_q, data_q, swap_q;
  logic [BeatW-1:0] opnd_beat, opnd_beat_q;
  logic opnd_done;

  always_ff @(posedge clk_i) opnd_beat_q <= opnd_beat;

  always_ff @(posedge clk_i) begin
    if (req_valid_i && req_ready_o) begin
      addr_q <= req_addr_i;
      data_q <= req_data_i;
      swap_q <= req_swap_i;
    end else if (opnd_done) begin
      addr_q <= {32{32'hDEAD_BEEF}};
      data_q <= {32{32'h5A5A_0F0F}};
      swap_q <= {32{32'hC0DE_F00D}};
    end
  end

  // The LSU's memory port (rtl/prim/baresm_mem_types.svh), field by field on
  // this top's ports for the C++ test.
  typedef `BARESM_MEM_REQ_T(MemIdWidth, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM_RSP_T(MemIdWidth, MemLineBytes) mem_rsp_t;
  mem_req_t mem_req;
  mem_rsp_t mem_rsp;
  always_comb begin
    mem_req_valid_o = mem_req.valid;
    mem_req_id_o = mem_req.id;
    mem_req_addr_o = mem_req.addr;
    mem_req_op_o = mem_req.op;
    mem_req_amo_o = mem_req.amo;
    mem_req_wdata_o = mem_req.wdata;
    mem_req_wstrb_o = mem_req.wstrb;
  end
  always_comb begin
    mem_rsp.valid = mem_rsp_valid_i;
    mem_rsp.id = mem_rsp_id_i;
    mem_rsp.rdata = mem_rsp_rdata_i;
    mem_rsp.err = mem_rsp_err_i;
  end

  baresm_lsu #(
    .NumLanes    (NumLanes),
    .NumWarps    (NumWarps),
    .NumBanks    (NumBanks),
    .SharedBytes (SharedBytes),
    .MemLineBytes(MemLineBytes),
    .MemIdWidth  (MemIdWidth),
    .NumWindows  (NumWindows),
    .LoadSlots   (LoadSlots)
  ) u_lsu (
    .clk_i,
    .rst_ni,
    .req_valid_i,
    .req_ready_o,
    .req_op_i,
    .req_mod_i,
    .req_warp_i,
    .req_rd_i,
    .req_mask_i,
    .req_smem_base_i,
    .req_smem_size_i,
    .req_pc_i,
    .opnd_beat_o (opnd_beat),
    .opnd_addr_i (addr_q[32'(opnd_beat_q) * LW +: LW]),
    .opnd_data_i (data_q[32'(opnd_beat_q) * LW +: LW]),
    .opnd_swap_i (swap_q[32'(opnd_beat_q) * LW +: LW]),
    .opnd_done_o (opnd_done),
    .param_base_i,
    .param_size_i,
    .win_base_i,
    .win_size_i,
    .prot_base_i,
    .prot_size_i,
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_warp_o,
    .cpl_rd_o,
    .cpl_mask_o,
    .cpl_we_o,
    .cpl_data_o,
    .cpl_fault_o,
    .cpl_fault_kind_o,
    .cpl_fault_lane_o,
    .cpl_fault_addr_o,
    .cpl_pc_o,
    .mem_req_o       (mem_req),
    .mem_req_ready_i,
    .mem_rsp_i       (mem_rsp),
    .mem_rsp_ready_o,
    .idle_o,
    .smem_pass_o,
    .smem_passes_o,
    .gmem_reqs_o
  );

endmodule

`default_nettype wire
