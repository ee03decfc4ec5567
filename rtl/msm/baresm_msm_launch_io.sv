// baresm_msm_launch_io: the SM alone's launch port, as I/O registers of the
// microprogrammed SM (contract/msm_io.def, 0x200-0x2FF): the launch
// handshake, the held record read a word at a time, the watchdog, and the
// launch's end with its fault report. The whole device (baresm_mdev) has no
// launch port: its firmware reads descriptors itself.
// A read is answered the cycle after it is taken.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_mcu_types.svh"
`include "baresm_launch_types.svh"

module baresm_msm_launch_io (
  input  logic            clk_i,
  input  logic            rst_ni,
  // ---- the core's bus: the accesses of this block's range ----
  input  baresm_mcu_req_t req_i,
  output baresm_mcu_rsp_t rsp_o,
  // ---- launch ----
  input  logic            launch_valid_i,
  output logic            launch_ready_o,
  input  baresm_launch_t  launch_i,       // held by its source until done_o
  output logic            busy_o,
  output logic            done_o,
  output logic            cfg_error_o,
  output logic            running_o,
  output logic            clear_o,        // the launch is taken: per-launch counters start
  output logic [3:0]      fault_kind_o,
  output logic [31:0]     fault_cta_x_o,
  output logic [31:0]     fault_cta_y_o,
  output logic [31:0]     fault_cta_z_o,
  output logic [7:0]      fault_warp_o,
  output logic [4:0]      fault_lane_o,
  output logic [31:0]     fault_pc_o,
  output logic [31:0]     fault_addr_o,
  output logic [31:0]     fault_waiting_o,
  input  logic [63:0]     cycles_i        // of this launch, from its accept
);

  logic [15:0] off;
  logic rd, wr;
  assign off = {req_i.addr[13:0], 2'b00};
  assign rd = req_i.valid && !req_i.we;
  assign wr = req_i.valid && req_i.we;
  function automatic logic is_w(input logic [15:0] o, input logic [15:0] r);
    is_w = wr && o == r;
  endfunction

  // ---- launch -----------------------------------------------------------------------------------------
  logic busy_q, done_q, cfg_err_q;
  logic [3:0] f_kind_q;
  logic [31:0] f_cta_x_q, f_cta_y_q, f_cta_z_q, f_pc_q, f_addr_q, f_waiting_q;
  logic [7:0] f_warp_q;
  logic [4:0] f_lane_q;
  assign launch_ready_o = is_w(off, baresm_msm_io_pkg::IO_LAUNCH_ACCEPT) && !busy_q;
  assign clear_o = launch_ready_o && launch_valid_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      cfg_err_q <= 1'b0;
      {f_kind_q, f_cta_x_q, f_cta_y_q, f_cta_z_q, f_warp_q, f_lane_q, f_pc_q, f_addr_q, f_waiting_q} <= '0;
    end else begin
      done_q <= 1'b0;
      if (done_q) busy_q <= 1'b0;
      if (clear_o) begin
        busy_q <= 1'b1;
        cfg_err_q <= 1'b0;
        {f_kind_q, f_cta_x_q, f_cta_y_q, f_cta_z_q, f_warp_q, f_lane_q, f_pc_q, f_addr_q, f_waiting_q} <= '0;
      end
      if (is_w(off, baresm_msm_io_pkg::IO_LAUNCH_DONE) && busy_q) begin
        done_q <= 1'b1;
        cfg_err_q <= req_i.wdata[0];
      end
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_KIND)) f_kind_q <= req_i.wdata[3:0];
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_CTA_X)) f_cta_x_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_CTA_Y)) f_cta_y_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_CTA_Z)) f_cta_z_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_WARP)) f_warp_q <= req_i.wdata[7:0];
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_LANE)) f_lane_q <= req_i.wdata[4:0];
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_PC)) f_pc_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_ADDR)) f_addr_q <= req_i.wdata;
      if (is_w(off, baresm_msm_io_pkg::IO_FAULT_WAITING)) f_waiting_q <= req_i.wdata;
    end
  end
  assign busy_o = busy_q;
  assign done_o = done_q;
  assign cfg_error_o = cfg_err_q;
  assign running_o = busy_q && !done_q;
  assign fault_kind_o = f_kind_q;
  assign fault_cta_x_o = f_cta_x_q;
  assign fault_cta_y_o = f_cta_y_q;
  assign fault_cta_z_o = f_cta_z_q;
  assign fault_warp_o = f_warp_q;
  assign fault_lane_o = f_lane_q;
  assign fault_pc_o = f_pc_q;
  assign fault_addr_o = f_addr_q;
  assign fault_waiting_o = f_waiting_q;

  // ---- the watchdog: the count passes every value once from 0 at the accept,
  // so it has reached a nonzero budget exactly when it once equalled it ---------------------
  logic wd_q, wd_now;
  assign wd_now = launch_i.watchdog != 64'd0 && cycles_i == launch_i.watchdog;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wd_q <= 1'b0;
    else if (clear_o) wd_q <= 1'b0;
    else if (wd_now) wd_q <= 1'b1;
  end

  // ---- read answers: the cycle after the request; the held record as words (LAUNCH_WORD + 4k: word k) ----
  localparam int LaunchWords = (baresm_launch_pkg::LAUNCH_W + 31) / 32;
  localparam int LaunchWordW = $clog2(LaunchWords);
  logic [32*LaunchWords-1:0] launch_bits;
  logic [31:0] launch_word [LaunchWords];
  assign launch_bits = (32 * LaunchWords)'(launch_i);
  always_comb for (int k = 0; k < LaunchWords; k++) launch_word[k] = launch_bits[32*k +: 32];
  logic [31:0] reg_rdata, rdata_q;
  logic rvalid_q;
  always_comb begin
    reg_rdata = '0;
    if (off >= baresm_msm_io_pkg::IO_LAUNCH_WORD && off < baresm_msm_io_pkg::IO_LAUNCH_WORD + 16'(LaunchWords * 4))
      reg_rdata = launch_word[LaunchWordW'((off - baresm_msm_io_pkg::IO_LAUNCH_WORD) >> 2)];
    unique case (off)
      baresm_msm_io_pkg::IO_LAUNCH_OFFERED: reg_rdata = {31'd0, launch_valid_i && !busy_q};
      baresm_msm_io_pkg::IO_WATCHDOG: reg_rdata = {31'd0, wd_q || wd_now};
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
