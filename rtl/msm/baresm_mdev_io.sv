// baresm_mdev_io: the host side of the whole device as one program
// (baresm_mdev), I/O registers 0x300-0x3FF of contract/msm_io.def. The
// host's register accesses wait in a one-entry mailbox until the firmware
// takes and answers them (every register is the firmware's: fw/dev/fwcp.c);
// the interrupt line and STATUS are what the firmware last wrote; a
// free-running cycle counter; the launch's start and end for the SM's
// counters (baresm_ssm_status), and their report read a word at a time.
// A read is answered the cycle after it is taken.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mcu_types.svh"
`include "baresm_report_types.svh"

module baresm_mdev_io #(
  parameter int MemBytes = 131072,
  parameter int ClockKhz = 12000
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // ---- the core's bus: the accesses of this block's range ----
  input  baresm_mcu_req_t req_i,
  output baresm_mcu_rsp_t rsp_o,
  // ---- the host's register port (baresm_top's MMIO slave) ----
  input  logic            mmio_req_valid_i,
  output logic            mmio_req_ready_o,
  input  logic [9:0]      mmio_req_addr_i,
  input  logic            mmio_req_write_i,
  input  logic [31:0]     mmio_req_wdata_i,
  output logic            mmio_rsp_valid_o,
  output logic [31:0]     mmio_rsp_rdata_o,
  output logic            irq_o,
  output logic [31:0]     status_o,
  // ---- the SM's counters ----
  output logic            clear_o,         // a launch starts: its counters start from 0
  output logic            busy_o,          // a launch runs
  output baresm_rpt_req_t rpt_req_o,
  input  baresm_rpt_rsp_t rpt_rsp_i
);

  logic [15:0] off;
  logic rd, wr;
  assign off = {req_i.addr[13:0], 2'b00};
  assign rd = req_i.valid && !req_i.we;
  assign wr = req_i.valid && req_i.we;
  function automatic logic is_w(input logic [15:0] o, input logic [15:0] r);
    is_w = wr && o == r;
  endfunction

  // ---- the mailbox: one host access, held until the firmware answers it ------------------------
  logic mb_full_q, mb_write_q, rsp_valid_q;
  logic [9:0] mb_addr_q;
  logic [31:0] mb_wdata_q, rsp_rdata_q;
  assign mmio_req_ready_o = !mb_full_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mb_full_q <= 1'b0;
      rsp_valid_q <= 1'b0;
    end else begin
      rsp_valid_q <= 1'b0;
      if (mmio_req_valid_i && !mb_full_q) mb_full_q <= 1'b1;
      if (is_w(off, baresm_msm_io_pkg::IO_MMIO_ANSWER) && mb_full_q) begin
        mb_full_q <= 1'b0;
        rsp_valid_q <= 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (mmio_req_valid_i && !mb_full_q) begin
      mb_addr_q <= mmio_req_addr_i;
      mb_write_q <= mmio_req_write_i;
      mb_wdata_q <= mmio_req_wdata_i;
    end
    if (is_w(off, baresm_msm_io_pkg::IO_MMIO_ANSWER)) rsp_rdata_q <= req_i.wdata;
  end
  assign mmio_rsp_valid_o = rsp_valid_q;
  assign mmio_rsp_rdata_o = rsp_rdata_q;

  // ---- outputs the firmware writes ---------------------------------------------------------------
  logic irq_q, busy_q, clear_q;
  logic [31:0] status_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      irq_q <= 1'b0;
      status_q <= 32'd0;
      busy_q <= 1'b0;
      clear_q <= 1'b0;
    end else begin
      clear_q <= is_w(off, baresm_msm_io_pkg::IO_RUN) && req_i.wdata[0];
      if (is_w(off, baresm_msm_io_pkg::IO_IRQ)) irq_q <= req_i.wdata[0];
      if (is_w(off, baresm_msm_io_pkg::IO_STATUS)) status_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_RUN)) busy_q <= req_i.wdata[0];
    end
  end
  assign irq_o = irq_q;
  assign status_o = status_q;
  assign clear_o = clear_q;
  assign busy_o = busy_q;

  // ---- the cycle counter (reading CYCLES_LO latches the high word) ----------------------------------
  logic [63:0] cycles_q;
  logic [31:0] cycles_hi_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycles_q <= 64'd0;
    else cycles_q <= cycles_q + 64'd1;
  end
  always_ff @(posedge clk_i) begin
    if (rd && off == baresm_msm_io_pkg::IO_CYCLES_LO) cycles_hi_q <= cycles_q[63:32];
  end

  // ---- the SM's report: RPT + 4k asks word k, answered the next cycle ----------------------------------
  logic in_rpt;
  assign in_rpt = off >= baresm_msm_io_pkg::IO_RPT && off < baresm_msm_io_pkg::IO_RPT + 16'd128;
  assign rpt_req_o.valid = rd && in_rpt;
  assign rpt_req_o.idx = 5'((off - baresm_msm_io_pkg::IO_RPT) >> 2);

  // ---- read answers -------------------------------------------------------------------------------
  logic [31:0] reg_rdata, rdata_q;
  logic rvalid_q, rpt_q;
  always_comb begin
    reg_rdata = '0;
    unique case (off)
      baresm_msm_io_pkg::IO_MMIO_REQ: reg_rdata = {6'd0, mb_addr_q, 14'd0, mb_write_q, mb_full_q};
      baresm_msm_io_pkg::IO_MMIO_WDATA: reg_rdata = mb_wdata_q;
      baresm_msm_io_pkg::IO_CYCLES_LO: reg_rdata = cycles_q[31:0];
      baresm_msm_io_pkg::IO_CYCLES_HI: reg_rdata = cycles_hi_q;
      baresm_msm_io_pkg::IO_MEM_BYTES: reg_rdata = 32'(MemBytes);
      baresm_msm_io_pkg::IO_CLOCK_KHZ: reg_rdata = 32'(ClockKhz);
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
      rpt_q <= in_rpt;
    end
  end
  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rpt_q ? rpt_rsp_i.word : rdata_q;

  logic unused;
  assign unused = ^{req_i.strb, rpt_rsp_i.ctas, rpt_rsp_i.issued};

endmodule

`default_nettype wire
