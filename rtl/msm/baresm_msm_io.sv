// baresm_msm_io: the microprogrammed SM's I/O registers (contract/msm_io.def,
// offsets from baresm_msm_io_pkg), the block both the SM alone (baresm_msm)
// and the whole device (baresm_mdev) have: the memory port (instruction
// fetches, the firmware's own line reads and writes), the launch's values
// the lane engine uses, the lane engine's loops (baresm_msm_lane,
// baresm_msm_lsu: their operation, the memory loop's fault) and its register
// file window, shared memory's clear, and what the counters and the lockstep
// trace see: warp states, issues, predicate writes, events. The top routes it
// every access outside the other blocks' ranges.
// A read is answered the cycle after it is taken; a write does its work in
// the cycle it is taken.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mcu_types.svh"
`include "baresm_mem_types.svh"
`include "baresm_msm_types.svh"

module baresm_msm_io #(
  parameter int NumWarps = 4,
  parameter int NumRegs = 16,
  parameter int SharedBytes = 2048,
  parameter int MemLineBytes = 16,
  parameter int LsuIdWidth = 2,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int RfAddrW = WarpW + ((NumRegs > 1) ? $clog2(NumRegs) : 1) + 5,
  parameter int SmemW = $clog2(SharedBytes / 4)
) (
  clk_i, rst_ni,
  req_i, rsp_o,
  launch_o, range_wr_o, clock_o,
  mem_req_o, lsu_req_i, mem_req_ready_i, mem_rsp_i,
  lane_start_o, lsu_start_o, lane_op_o, lane_busy_i, lane_bits_i,
  lsu_fault_i, lsu_fault_kind_i, lsu_fault_lane_i, lsu_fault_addr_i, lsu_mem_wait_i,
  sm_we_o, sm_waddr_o,
  rf_re_o, rf_raddr_o, rf_rdata_i, rf_we_o, rf_waddr_o, rf_wdata_o, rf_traced_o,
  used_o, exited_o, bar_wait_o, ready_o, wait_mem_o,
  issue_o, issue_fault_o, issue_warp_o, issue_pc_o, issue_tmask_o, issue_exec_o, diverge_o,
  cta_x_o, cta_y_o, cta_z_o,
  bar_release_o, cta_retire_o, ifill_o,
  pw_valid_o, pw_warp_o, pw_pd_o, pw_mask_o, pw_bits_o
);

  typedef `BARESM_MEM_REQ_T(LsuIdWidth + 1, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;

  input  logic                 clk_i;
  input  logic                 rst_ni;
  // ---- the core's bus, I/O half (req_i.addr: word address; its low 14 bits are the offset) ----
  input  baresm_mcu_req_t      req_i;
  output baresm_mcu_rsp_t      rsp_o;
  // ---- the launch's values, for the lane engine ---------------------------------------------------
  output msm_launch_t          launch_o;
  output msm_range_wr_t        range_wr_o;     // LP_RANGE: the memory loop's range RAM
  output logic [63:0]          clock_o;        // the free-running cycle counter (NOW, S2R's clock)
  // ---- the SM's memory port --------------------------------------------------------------------------
  output mem_req_t             mem_req_o;
  input  msm_lsu_req_t         lsu_req_i;      // the memory loop's requests go out through the same registers
  input  logic                 mem_req_ready_i;
  input  mem_rsp_t             mem_rsp_i;
  // ---- the lane engine ----------------------------------------------------------------------------
  output logic                 lane_start_o;   // the ALU loop (baresm_msm_lane)
  output logic                 lsu_start_o;    // the memory loop (baresm_msm_lsu)
  output msm_lane_op_t         lane_op_o;
  input  logic                 lane_busy_i;    // either loop
  input  logic [31:0]          lane_bits_i;
  input  logic                 lsu_fault_i;
  input  logic [3:0]           lsu_fault_kind_i;
  input  logic [4:0]           lsu_fault_lane_i;
  input  logic [31:0]          lsu_fault_addr_i;
  input  logic                 lsu_mem_wait_i;  // the memory loop waits for the memory port
  // ---- shared memory's clear at a CTA's start (the RAM is the top's; 0 written) ----------------------------
  output logic                 sm_we_o;
  output logic [SmemW-1:0]     sm_waddr_o;
  output logic                 rf_re_o;
  output logic [RfAddrW-1:0]   rf_raddr_o;
  input  logic [31:0]          rf_rdata_i;
  output logic                 rf_we_o;
  output logic [RfAddrW-1:0]   rf_waddr_o;
  output logic [31:0]          rf_wdata_o;
  output logic                 rf_traced_o;    // ... a thread's result (the trace shows it)
  // ---- what the counters and the trace see ------------------------------------------------------------
  output logic [NumWarps-1:0]  used_o;
  output logic [NumWarps-1:0]  exited_o;
  output logic [NumWarps-1:0]  bar_wait_o;
  output logic [NumWarps-1:0]  ready_o;
  output logic [NumWarps-1:0]  wait_mem_o;
  output logic                 issue_o;
  output logic                 issue_fault_o;
  output logic [WarpW-1:0]     issue_warp_o;
  output logic [31:0]          issue_pc_o;
  output logic [31:0]          issue_tmask_o;
  output logic [31:0]          issue_exec_o;
  output logic                 diverge_o;
  output logic [31:0]          cta_x_o;
  output logic [31:0]          cta_y_o;
  output logic [31:0]          cta_z_o;
  output logic                 bar_release_o;
  output logic                 cta_retire_o;
  output logic                 ifill_o;
  output logic                 pw_valid_o;
  output logic [WarpW-1:0]     pw_warp_o;
  output logic [2:0]           pw_pd_o;
  output logic [31:0]          pw_mask_o;
  output logic [31:0]          pw_bits_o;

  `BARESM_ASSERT(a_line, MemLineBytes == 16)                       // four MEM_DATA words
  `BARESM_ASSERT(a_rf_window, (4 << RfAddrW) <= 32'(baresm_msm_io_pkg::IO_RF_TRACED) - 32'(baresm_msm_io_pkg::IO_RF) &&
                 32'(baresm_msm_io_pkg::IO_RF) % (4 << RfAddrW) == 0 &&
                 32'(baresm_msm_io_pkg::IO_RF_TRACED) % (4 << RfAddrW) == 0)

  // ---- the request ------------------------------------------------------------------------------------
  logic [15:0] off;
  logic rd, wr;
  assign off = {req_i.addr[13:0], 2'b00};
  assign rd = req_i.valid && !req_i.we;
  assign wr = req_i.valid && req_i.we;
  // The two register-file windows start at multiples of their size
  // (contract/msm_io.def): the index is the address's bits, no subtraction on
  // the path from the core's address adder to the register file.
  localparam int RfWinW = RfAddrW + 2;   // bytes of a window: 2^RfWinW
  logic in_rf, in_rf_traced;
  assign in_rf = off[15:RfWinW] == baresm_msm_io_pkg::IO_RF[15:RfWinW];
  assign in_rf_traced = off[15:RfWinW] == baresm_msm_io_pkg::IO_RF_TRACED[15:RfWinW];
  logic [RfAddrW-1:0] rf_index;
  assign rf_index = off[RfWinW-1:2];
  function automatic logic is_w(input logic [15:0] o, input logic [15:0] r);
    is_w = wr && o == r;
  endfunction

  // ---- the launch's values -----------------------------------------------------------------------------
  // Plain vectors (Icarus 11 assigns no part of a struct member), packed below.
  logic [31:0] lp_param_addr_q, lp_block_xy_q;
  logic [5:0] lp_regs_q;
  logic lp_range_top_q;   // bit 32 of the next range word
  always_ff @(posedge clk_i) begin
    if (is_w(off, baresm_msm_io_pkg::IO_LP_PARAM_ADDR)) lp_param_addr_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_LP_BLOCK_XY)) lp_block_xy_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_LP_REGS)) lp_regs_q <= req_i.wdata[5:0];
    if (is_w(off, baresm_msm_io_pkg::IO_LP_RANGE_TOP)) lp_range_top_q <= req_i.wdata[0];
  end
  assign launch_o.param_addr = lp_param_addr_q;
  assign launch_o.block_xy = lp_block_xy_q;
  assign launch_o.regs = lp_regs_q;
  // The ranges go straight into the memory loop's RAM.
  assign range_wr_o.we = wr && off >= baresm_msm_io_pkg::IO_LP_RANGE && off < baresm_msm_io_pkg::IO_LP_RANGE + 16'd128;
  assign range_wr_o.addr = 5'((off - baresm_msm_io_pkg::IO_LP_RANGE) >> 2);
  assign range_wr_o.data = {lp_range_top_q, req_i.wdata};

  // ---- the cycle counter (the firmware reads its halves high, low, high) ------------------------------------------
  logic [63:0] now_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) now_q <= 64'd0;
    else now_q <= now_q + 64'd1;
  end
  assign clock_o = now_q;

  // ---- the memory port: one request (a fetch, a read or a store), then its answer -------------------------
  logic m_valid_q, m_out_q, m_err_q, m_store_q, m_fetch_q;
  logic [31:0] m_addr_q;
  logic [15:0] m_wstrb_q;
  logic [31:0] m_data_q [4];
  logic m_start;
  assign m_start = is_w(off, baresm_msm_io_pkg::IO_MEM_FETCH) || is_w(off, baresm_msm_io_pkg::IO_MEM_READ) ||
                   is_w(off, baresm_msm_io_pkg::IO_MEM_STORE);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_valid_q <= 1'b0;
      m_out_q <= 1'b0;
      m_err_q <= 1'b0;
    end else begin
      if (m_valid_q && mem_req_ready_i) begin
        m_valid_q <= 1'b0;
        m_out_q <= 1'b1;
      end
      if (m_out_q && mem_rsp_i.valid) begin
        m_out_q <= 1'b0;
        m_err_q <= mem_rsp_i.err;
      end
      if (m_start || lsu_req_i.issue) m_valid_q <= 1'b1;
    end
  end
  // The memory loop's word, or the core's write data: one multiplexer before
  // the four data words, none after them.
  logic [31:0] m_wsrc;
  assign m_wsrc = lsu_req_i.issue ? lsu_req_i.word : req_i.wdata;
  logic [127:0] rsp_line;   // a plain vector: Icarus 11 takes no variable part select of a struct member
  assign rsp_line = mem_rsp_i.rdata;
  always_ff @(posedge clk_i) begin
    if (m_start) begin
      m_addr_q <= req_i.wdata;
      m_store_q <= is_w(off, baresm_msm_io_pkg::IO_MEM_STORE);
      m_fetch_q <= is_w(off, baresm_msm_io_pkg::IO_MEM_FETCH);
    end else if (lsu_req_i.issue) begin
      m_addr_q <= lsu_req_i.addr;
      m_store_q <= lsu_req_i.write;
      m_fetch_q <= 1'b0;
    end
    if (is_w(off, baresm_msm_io_pkg::IO_MEM_WSTRB)) m_wstrb_q <= req_i.wdata[15:0];
    else if (lsu_req_i.issue) m_wstrb_q <= lsu_req_i.wstrb;
    for (int k = 0; k < 4; k++) begin
      if (is_w(off, baresm_msm_io_pkg::IO_MEM_DATA0 + 16'(4 * k)) || lsu_req_i.issue) m_data_q[k] <= m_wsrc;
      else if (m_out_q && mem_rsp_i.valid && !mem_rsp_i.err && !m_store_q) m_data_q[k] <= rsp_line[32*k +: 32];
    end
  end
  assign mem_req_o.valid = m_valid_q;
  assign mem_req_o.id = '0;
  assign mem_req_o.addr = m_addr_q;
  assign mem_req_o.op = {1'b0, m_store_q};
  assign mem_req_o.amo = '0;
  assign mem_req_o.wdata = {m_data_q[3], m_data_q[2], m_data_q[1], m_data_q[0]};
  assign mem_req_o.wstrb = m_store_q ? m_wstrb_q : 16'd0;
  assign ifill_o = m_valid_q && mem_req_ready_i && m_fetch_q;   // the memory loop's requests are counted there
  // The firmware writes nothing while the memory loop runs (it waits for it).
  `BARESM_ASSERT(a_one_requester, !(lsu_req_i.issue && wr))

  // ---- the lane engine ------------------------------------------------------------------------------
  msm_lane_op_t lop_q;
  always_ff @(posedge clk_i) begin
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_OP)) begin
      lop_q.op <= req_i.wdata[6:0];
      lop_q.mod <= req_i.wdata[14:7];
      lop_q.warp <= req_i.wdata[19:15];
      lop_q.bimm <= req_i.wdata[20];
      lop_q.zero_a <= req_i.wdata[21];
      lop_q.zero_b <= req_i.wdata[22];
      lop_q.zero_c <= req_i.wdata[23];
      lop_q.write_rd <= req_i.wdata[24];
      lop_q.zero_fill <= req_i.wdata[25];
    end
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_REGS)) begin
      lop_q.ra <= req_i.wdata[5:0];
      lop_q.rb <= req_i.wdata[11:6];
      lop_q.rc <= req_i.wdata[17:12];
      lop_q.rd <= req_i.wdata[23:18];
    end
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_IMM)) lop_q.imm <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_EXEC)) lop_q.exec <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_SEL)) lop_q.sel <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_TID_XY)) lop_q.tid0[31:0] <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_LANE_TID_Z)) lop_q.tid0[47:32] <= req_i.wdata[15:0];
  end
  assign lane_start_o = is_w(off, baresm_msm_io_pkg::IO_LANE_START);
  assign lsu_start_o = is_w(off, baresm_msm_io_pkg::IO_LANE_MEM_START);
  assign lane_op_o = lop_q;
  assign rf_re_o = rd && in_rf;
  assign rf_raddr_o = rf_index;
  assign rf_we_o = wr && (in_rf || in_rf_traced);
  assign rf_waddr_o = rf_index;
  assign rf_wdata_o = req_i.wdata;
  assign rf_traced_o = wr && in_rf_traced;

  // ---- shared memory cleared at a CTA's start, a word a cycle ---------------------------------------------
  logic [SmemW:0] clr_n_q, clr_i_q;
  logic clr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) clr_q <= 1'b0;
    else if (is_w(off, baresm_msm_io_pkg::IO_SMEM_CLEAR)) begin
      clr_q <= req_i.wdata != 32'd0;
      clr_n_q <= (req_i.wdata > 32'(SharedBytes / 4)) ? (SmemW + 1)'(SharedBytes / 4) : (SmemW + 1)'(req_i.wdata);
      clr_i_q <= '0;
    end else if (clr_q) begin
      clr_i_q <= clr_i_q + (SmemW + 1)'(1);
      if (clr_i_q + (SmemW + 1)'(1) == clr_n_q) clr_q <= 1'b0;
    end
  end
  assign sm_we_o = clr_q;
  assign sm_waddr_o = SmemW'(clr_i_q);

  // ---- warp states, issues, predicate writes, events ----------------------------------------------------
  logic [NumWarps-1:0] used_q, exited_q, waiting_q;
  logic [4:0] cur_q;
  logic in_instr_q;
  logic issue_q, issue_fault_q, diverge_q, pw_q;
  logic [WarpW-1:0] issue_warp_q, pw_warp_q;
  logic [31:0] issue_pc_q, issue_tmask_q, issue_exec_q, cta_x_q, cta_y_q, cta_z_q, pw_mask_q, pw_bits_q;
  logic [2:0] pw_pd_q;
  logic [1:0] event_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q <= '0;
      exited_q <= '0;
      waiting_q <= '0;
      in_instr_q <= 1'b0;
      issue_q <= 1'b0;
      issue_fault_q <= 1'b0;
      pw_q <= 1'b0;
      event_q <= '0;
    end else begin
      issue_q <= is_w(off, baresm_msm_io_pkg::IO_ISSUE) && !req_i.wdata[8];
      issue_fault_q <= is_w(off, baresm_msm_io_pkg::IO_ISSUE) && req_i.wdata[8];
      pw_q <= is_w(off, baresm_msm_io_pkg::IO_PW);
      event_q <= '0;
      if (is_w(off, baresm_msm_io_pkg::IO_EVENT)) event_q <= 2'd1 << req_i.wdata[0];
      if (is_w(off, baresm_msm_io_pkg::IO_WARPS)) begin
        used_q <= req_i.wdata[NumWarps-1:0];
        exited_q <= req_i.wdata[8 +: NumWarps];
        waiting_q <= req_i.wdata[16 +: NumWarps];
        cur_q <= req_i.wdata[28:24];
        in_instr_q <= req_i.wdata[29];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (is_w(off, baresm_msm_io_pkg::IO_ISSUE_PC)) issue_pc_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_ISSUE_TMASK)) issue_tmask_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_ISSUE_EXEC)) issue_exec_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_CTA_X)) cta_x_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_CTA_Y)) cta_y_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_CTA_Z)) cta_z_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_ISSUE)) begin
      issue_warp_q <= req_i.wdata[WarpW-1:0];
      diverge_q <= req_i.wdata[9];
    end
    if (is_w(off, baresm_msm_io_pkg::IO_PW_MASK)) pw_mask_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_PW_BITS)) pw_bits_q <= req_i.wdata;
    if (is_w(off, baresm_msm_io_pkg::IO_PW)) begin
      pw_warp_q <= req_i.wdata[WarpW-1:0];
      pw_pd_q <= req_i.wdata[10:8];
    end
  end
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      ready_o[w] = used_q[w] && !exited_q[w] && !waiting_q[w] && !(in_instr_q && cur_q == 5'(w));
      wait_mem_o[w] = in_instr_q && cur_q == 5'(w) && (m_valid_q || m_out_q || lsu_mem_wait_i);
    end
  end
  assign used_o = used_q;
  assign exited_o = exited_q;
  assign bar_wait_o = waiting_q;
  assign issue_o = issue_q;
  assign issue_fault_o = issue_fault_q;
  assign issue_warp_o = issue_warp_q;
  assign issue_pc_o = issue_pc_q;
  assign issue_tmask_o = issue_tmask_q;
  assign issue_exec_o = issue_exec_q;
  assign diverge_o = issue_q && diverge_q;
  assign cta_x_o = cta_x_q;
  assign cta_y_o = cta_y_q;
  assign cta_z_o = cta_z_q;
  assign bar_release_o = event_q[0];
  assign cta_retire_o = event_q[1];
  assign pw_valid_o = pw_q;
  assign pw_warp_o = pw_warp_q;
  assign pw_pd_o = pw_pd_q;
  assign pw_mask_o = pw_mask_q;
  assign pw_bits_o = pw_bits_q;

  // ---- read answers: the cycle after the request ---------------------------------------------------------
  logic [31:0] reg_rdata, rdata_q;
  logic rvalid_q;
  logic rsrc_q;   // 0 a register, 1 the register file
  always_comb begin
    reg_rdata = '0;
    unique case (off)
      baresm_msm_io_pkg::IO_MEM_STATUS: reg_rdata = {30'd0, m_err_q, m_valid_q || m_out_q};
      baresm_msm_io_pkg::IO_MEM_DATA0: reg_rdata = m_data_q[0];
      baresm_msm_io_pkg::IO_MEM_DATA1: reg_rdata = m_data_q[1];
      baresm_msm_io_pkg::IO_MEM_DATA2: reg_rdata = m_data_q[2];
      baresm_msm_io_pkg::IO_MEM_DATA3: reg_rdata = m_data_q[3];
      baresm_msm_io_pkg::IO_NOW_LO: reg_rdata = now_q[31:0];
      baresm_msm_io_pkg::IO_NOW_HI: reg_rdata = now_q[63:32];
      baresm_msm_io_pkg::IO_LANE_STATUS: reg_rdata = {31'd0, lane_busy_i || clr_q};
      baresm_msm_io_pkg::IO_LANE_BITS: reg_rdata = lane_bits_i;
      baresm_msm_io_pkg::IO_LANE_FAULT: reg_rdata = {19'd0, lsu_fault_lane_i, lsu_fault_kind_i, 3'd0, lsu_fault_i};
      baresm_msm_io_pkg::IO_LANE_FAULT_ADDR: reg_rdata = lsu_fault_addr_i;
      default: ;
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rvalid_q <= 1'b0;
    else rvalid_q <= rd;
  end
  always_ff @(posedge clk_i) begin
    if (rd) begin
      rdata_q <= reg_rdata;
      rsrc_q <= in_rf;
    end
  end
  logic unused;   // word-wide registers: the byte strobes say nothing here
  assign unused = ^req_i.strb;
  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rsrc_q ? rf_rdata_i : rdata_q;

endmodule

`default_nettype wire
