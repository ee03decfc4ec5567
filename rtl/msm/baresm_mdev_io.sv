// baresm_mdev_io: the host side of the whole device as one program
// (baresm_mdev), I/O registers 0x300-0x3FF of contract/msm_io.def. The
// host's register accesses wait in a one-entry mailbox until the firmware
// takes and answers them (every register is the firmware's: fw/dev/fwcp.c);
// the interrupt line, STATUS and the SM's busy output are what the firmware
// last wrote.
// A read is answered the cycle after it is taken.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mcu_types.svh"

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
  output logic            busy_o           // a launch runs
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
  logic irq_q, busy_q;
  logic [31:0] status_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      irq_q <= 1'b0;
      status_q <= 32'd0;
      busy_q <= 1'b0;
    end else begin
      if (is_w(off, baresm_msm_io_pkg::IO_IRQ)) irq_q <= req_i.wdata[0];
      if (is_w(off, baresm_msm_io_pkg::IO_STATUS)) status_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_RUN)) busy_q <= req_i.wdata[0];
    end
  end
  assign irq_o = irq_q;
  assign status_o = status_q;
  assign busy_o = busy_q;

  // ---- read answers -------------------------------------------------------------------------------
  logic [31:0] reg_rdata, rdata_q;
  logic rvalid_q;
  always_comb begin
    reg_rdata = '0;
    unique case (off)
      baresm_msm_io_pkg::IO_MMIO_REQ: reg_rdata = {6'd0, mb_addr_q, 14'd0, mb_write_q, mb_full_q};
      baresm_msm_io_pkg::IO_MMIO_WDATA: reg_rdata = mb_wdata_q;
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
    if (rd) rdata_q <= reg_rdata;
  end
  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rdata_q;

  logic unused;
  assign unused = ^req_i.strb;

endmodule

`default_nettype wire
