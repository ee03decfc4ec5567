// baresm_msm_lane: the microprogrammed SM's lane engine (docs/
// microarchitecture.md, "The choice revisited again"). It owns the register
// file (warp x register x lane, one baresm_ram_1r1w) and runs the one part
// of a warp-instruction worth hardware at one lane: the thread loop of an
// ALU-class instruction (fw/sm/fwsm_hal.h hal_lane_alu), S2R of the
// per-lane special registers included (the thread id stepped lane by lane
// from lane 0's, as the serial SM does). Per executing
// lane: read a, b, c in three cycles (the RAM's one read port), compute in
// baresm_ssm_alu, write rd; a lane outside exec takes one cycle (and writes
// 0 into rd on the register's first write in the CTA). Between loops the
// firmware reads and writes single registers through the same RAM ports,
// and uses the ALU for an atomic's new word (amo_*).
`default_nettype none
`include "baresm_msm_types.svh"

module baresm_msm_lane #(
  parameter int NumWarps = 4,
  parameter int NumRegs = 16,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  parameter int AddrW = WarpW + RegW + 5
) (
  clk_i,
  rst_ni,
  start_i,
  op_i,
  busy_o,
  bits_o,
  rd_re_i,
  rd_addr_i,
  rd_data_o,
  wr_we_i,
  wr_addr_i,
  wr_data_i,
  amo_op_i,
  amo_old_i,
  amo_b_i,
  amo_c_i,
  amo_new_o,
  trace_we_o,
  trace_addr_o,
  trace_data_o,
  block_xy_i,
  clock_i
);

  input  logic             clk_i;
  input  logic             rst_ni;
  // ---- the lane loop -------------------------------------------------------
  input  logic             start_i;       // take op_i (not while busy)
  input  msm_lane_op_t     op_i;
  output logic             busy_o;
  output logic [31:0]      bits_o;        // ISETP's bit per executing lane, valid when done
  // ---- single registers, while not busy (the firmware's reads and writes) ----
  input  logic             rd_re_i;       // read: rd_data_o the next cycle
  input  logic [AddrW-1:0] rd_addr_i;     // {warp, register, lane}
  output logic [31:0]      rd_data_o;
  input  logic             wr_we_i;
  input  logic [AddrW-1:0] wr_addr_i;
  input  logic [31:0]      wr_data_i;
  // ---- an atomic's new word (combinational) ----------------------------------
  input  logic [4:0]       amo_op_i;      // ATOM mod[4:0]
  input  logic [31:0]      amo_old_i;
  input  logic [31:0]      amo_b_i;
  input  logic [31:0]      amo_c_i;
  output logic [31:0]      amo_new_o;
  // ---- the loop's register writes of executing lanes (the lockstep trace) ----
  output logic             trace_we_o;
  output logic [AddrW-1:0] trace_addr_o;
  output logic [31:0]      trace_data_o;
  // ---- what S2R reads -----------------------------------------------------------
  input  logic [31:0]      block_xy_i;    // {y, x}: the thread id's steps
  input  logic [63:0]      clock_i;

  // The operation is the I/O block's registers (op_i), which the firmware
  // holds while the loop runs (it waits for busy to fall before writing the next).
`ifndef SYNTHESIS
  msm_lane_op_t op_at_start_q;
  always_ff @(posedge clk_i) if (!busy_q && start_i) op_at_start_q <= op_i;
  `BARESM_ASSERT(a_op_held, !(busy_q) || op_i == op_at_start_q)
`endif
  logic busy_q;
  logic [4:0] lane_q;
  logic [1:0] ph_q;          // 0 read a, 1 read b, 2 read c, 3 execute and write
  logic [31:0] a_q, b_q, bits_q;
  logic [47:0] tid_q;        // S2R: the thread id of lane lane_q

  logic [31:0] exec, sel;   // plain vectors: Icarus 11 takes no variable select of a struct member
  assign exec = op_i.exec;
  assign sel = op_i.sel;
  logic lane_on, last;
  assign lane_on = exec[lane_q];
  assign last = lane_q == 5'd31;

  // verilator lint_off UNUSEDSIGNAL
  function automatic logic [AddrW-1:0] reg_addr(input logic [5:0] r, input logic [4:0] l);
    reg_addr = {op_i.warp[WarpW-1:0], r[RegW-1:0], l};
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // ---- the register file ---------------------------------------------------------
  logic re, we;
  logic [AddrW-1:0] raddr, waddr;
  logic [31:0] rdata, wdata;
  baresm_ram_1r1w #(.Depth(1 << AddrW), .Width(32)) u_rf (
    .clk_i, .re_i(re), .raddr_i(raddr), .rdata_o(rdata),
    .we_i(we), .waddr_i(waddr), .wmask_i(1'b1), .wdata_i(wdata));

  logic [31:0] sreg;
  // Only what differs per lane: the thread id, the lane, the clock. A special
  // register the same in every lane (block, grid, CTA, warp, SM) is the
  // firmware's, a MOV of its value (fw/sm/fwsm.c s2r_uniform), and reads 0 here.
  assign sreg = baresm_ssm_pkg::sreg(op_i.mod, tid_q, 48'd0, 96'd0, 96'd0, lane_q, 32'd0, 8'd0, clock_i);

  logic [31:0] c_now, alu_r;
  logic setp;
  assign c_now = op_i.zero_c ? 32'd0 : rdata;
  baresm_ssm_alu #(.HasCount(1'b0)) u_alu (   // POPC and CLZ are the firmware's
    .op_i    (busy_q ? op_i.op : 7'd0),
    .mod_i   (busy_q ? op_i.mod : {3'd0, amo_op_i}),
    .amo_i   (!busy_q),
    .amo_op_i(amo_op_i),
    .a_i     (busy_q ? a_q : amo_old_i),
    .b_i     (busy_q ? b_q : amo_b_i),
    .c_i     (busy_q ? c_now : amo_c_i),
    .sel_i   (!busy_q || sel[lane_q]),
    .sreg_i  (sreg),
    .r_o     (alu_r),
    .setp_o  (setp)
  );
  assign amo_new_o = alu_r;

  always_comb begin
    re = rd_re_i && !busy_q;
    raddr = rd_addr_i;
    we = wr_we_i && !busy_q;
    waddr = wr_addr_i;
    wdata = wr_data_i;
    if (busy_q) begin
      if (lane_on) begin
        unique case (ph_q)
          2'd0: begin
            re = !op_i.zero_a;
            raddr = reg_addr(op_i.ra, lane_q);
          end
          2'd1: begin
            re = !op_i.bimm && !op_i.zero_b;
            raddr = reg_addr(op_i.rb, lane_q);
          end
          2'd2: begin
            re = !op_i.zero_c;
            raddr = reg_addr(op_i.rc, lane_q);
          end
          default: begin
            we = op_i.write_rd;
            waddr = reg_addr(op_i.rd, lane_q);
            wdata = alu_r;
          end
        endcase
      end else begin
        we = op_i.zero_fill;
        waddr = reg_addr(op_i.rd, lane_q);
        wdata = 32'd0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      lane_q <= '0;
      ph_q <= '0;
      bits_q <= '0;
    end else if (!busy_q) begin
      if (start_i) begin
        tid_q <= op_i.tid0;
        busy_q <= 1'b1;
        lane_q <= '0;
        ph_q <= '0;
        bits_q <= '0;
      end
    end else begin
      if (lane_on) begin
        ph_q <= ph_q + 2'd1;
        if (ph_q == 2'd1) a_q <= op_i.zero_a ? 32'd0 : rdata;
        if (ph_q == 2'd2) b_q <= op_i.bimm ? op_i.imm : op_i.zero_b ? 32'd0 : rdata;
        if (ph_q == 2'd3) bits_q[lane_q] <= setp;
      end
      if (!lane_on || ph_q == 2'd3) begin
        tid_q <= baresm_sm_pkg::tid_next(tid_q, block_xy_i);
        lane_q <= lane_q + 5'd1;
        if (last) busy_q <= 1'b0;
      end
    end
  end

  assign busy_o = busy_q;
  assign bits_o = bits_q;
  logic unused;
  assign unused = ^op_i.tid0;   // taken into tid_q at the start
  assign rd_data_o = rdata;
  assign trace_we_o = busy_q && lane_on && ph_q == 2'd3 && op_i.write_rd;
  assign trace_addr_o = waddr;
  assign trace_data_o = wdata;

endmodule

`default_nettype wire
