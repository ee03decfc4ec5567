// baresm_icebreaker_link_top: link and memory bring-up on the iCEBreaker
// (iCE40 UP5K, 12 MHz) while the `micro` SM does not fit the part yet
// (docs/fpga.md: tens of thousands of LUT4 against the UP5K's 5,280). It is
// baresm_icebreaker_top without the device: the same reset, UART and frame
// bridge (baresm_fpga_link, docs/serial-protocol.md), 128 KB SPRAM
// device memory (baresm_fpga_mem, its device port unused) and the generated
// register block (baresm_cp_regs, contract/regmap.def), so that the host's
// drv::SerialTransport connects to it unchanged and the serial tests' register,
// memory-burst and link-fault parts can run against a real board.
//
//   uart_rx_i/uart_tx_o <-> baresm_fpga_link --- mmio_* ---> baresm_cp_regs
//                                  | bridge port
//                               baresm_fpga_mem (SPRAM)
//
// Registers (honest about what is there): ID and VERSION as the real device;
// CONFIG0..3 and CONFIG6 read 0 and CONFIG1.NUM_QUEUES 0 (no SM, no queue
// pairs: the driver's Device::open refuses it with "no SM" instead of
// queueing launches nothing would run); CONFIG4 = MemBytes, CONFIG5 =
// ClockKhz; STATUS reads IDLE (and ENABLED as written); SCRATCH, WATCHDOG,
// PROT_BASE/PROT_SIZE, IRQ_MASK are plain read/write; IRQ_STATUS.RESET_DONE
// is set when a CONTROL.SOFT_RESET (which clears the registers) finishes;
// CYCLES counts clock cycles; everything else reads 0.
//
// LEDs (LedActiveLow as baresm_icebreaker_top): idle = out of reset, busy =
// a frame answered (lit for 2^LedHoldBits cycles, 0.35 s), fault = a frame
// answered with ERROR (the same), link = a heartbeat (about 0.7 s on, 0.7 s
// off) showing that the bitstream runs. The simulation (sim/serial) takes
// LedActiveLow = 0 and a short LedHoldBits: it sleeps while idle && !busy.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_icebreaker_link_top #(
  parameter int ClkPerBit = 12,          // 12 MHz / 12 = 1 Mbaud
  parameter int TimeoutCycles = 120000,  // a frame's bytes may pause 10 ms at most
  parameter int ClockKhz = 12000,
  parameter int MemBytes = 131072,
  parameter logic [3:0] LedActiveLow = 4'b0101,  // iCEBreaker: LEDG (idle), LEDR (fault)
  parameter int LedHoldBits = 22                  // busy/fault lit 2^22 cycles (0.35 s) after a frame
) (
  input  logic clk_i,          // 12 MHz
  input  logic btn_ni,         // user button, low = reset
  input  logic uart_rx_i,      // from the host (FTDI TX)
  output logic uart_tx_o,      // to the host (FTDI RX)
  output logic led_idle_o,
  output logic led_busy_o,
  output logic led_fault_o,
  output logic led_link_o
);

  // ---- reset, UART and frame bridge (baresm_fpga_link) ----------------------------------
  logic rst_n;
  logic mmio_req_valid, mmio_req_write, mmio_rsp_valid, irq;
  logic [9:0] mmio_req_addr;
  logic [31:0] mmio_req_wdata, mmio_rsp_rdata;
  baresm_byte_req_t breq;   // the bridge's byte port (rtl/prim/baresm_mem_types.svh)
  baresm_byte_rsp_t brsp;
  logic breq_ready;
  logic frame_ok_led, frame_bad_led;
  logic rx_unused_valid, tx_unused_ready;
  logic [7:0] rx_unused_data;

  baresm_fpga_link #(
    .ClkPerBit(ClkPerBit),
    .TimeoutCycles(TimeoutCycles),
    .MemBytes(MemBytes),
    .LedHoldCycles(2 ** LedHoldBits - 1)
  ) u_link (
    .clk_i,
    .btn_ni,
    .uart_rx_i,
    .uart_tx_o,
    .rst_no          (rst_n),
    .mmio_req_valid_o(mmio_req_valid),
    .mmio_req_ready_i(1'b1),
    .mmio_req_addr_o (mmio_req_addr),
    .mmio_req_write_o(mmio_req_write),
    .mmio_req_wdata_o(mmio_req_wdata),
    .mmio_rsp_valid_i(mmio_rsp_valid),
    .mmio_rsp_rdata_i(mmio_rsp_rdata),
    .irq_i           (irq),
    .mem_req_o       (breq),
    .mem_req_ready_i (breq_ready),
    .mem_rsp_i       (brsp),
    .frame_ok_led_o  (frame_ok_led),
    .frame_bad_led_o (frame_bad_led),
    .rx_valid_o      (rx_unused_valid),   // the UART's own bytes: the bridge's here
    .rx_data_o       (rx_unused_data),
    .tx_valid_i      (1'b0),
    .tx_ready_o      (tx_unused_ready),
    .tx_data_i       (8'd0)
  );

  // ---- registers (generated block, no SM behind it) ----------------------------------------
  logic [63:0] cycles_q;
  logic soft_reset, reset_done_q;
  logic [31:0] control, watchdog, scratch, irq_status, irq_mask, prot_base, prot_size;
  logic qp_wr;
  logic qp_q;
  logic [5:0] qp_off;

  logic [31:0] status;
  always_comb begin
    status = '0;
    status[baresm_regs_pkg::STATUS_IDLE_LSB] = 1'b1;
    status[baresm_regs_pkg::STATUS_ENABLED_LSB] = control[baresm_regs_pkg::CONTROL_ENABLE_LSB];
  end

  baresm_cp_regs #(
    .NumQueues(1)
  ) u_regs (
    .clk_i,
    .rst_ni              (rst_n),
    .clear_i             (soft_reset),
    .wr_block_i          (1'b0),
    .req_valid_i         (mmio_req_valid),
    .req_addr_i          (mmio_req_addr),
    .req_write_i         (mmio_req_write),
    .req_wdata_i         (mmio_req_wdata),
    .rsp_valid_o         (mmio_rsp_valid),
    .rsp_rdata_o         (mmio_rsp_rdata),
    .qp_wr_o             (qp_wr),
    .qp_q_o              (qp_q),
    .qp_off_o            (qp_off),
    .qp_rdata_i          (32'd0),     // no queue pairs
    .id_i                (baresm_regs_pkg::ID_RESET),
    .version_i           (baresm_regs_pkg::VERSION_RESET),
    .config0_i           (32'd0),     // no lanes, warps, CTA slots, banks: no SM
    .config1_i           (32'd0),     // no registers, stack, queue pairs, windows
    .config2_i           (32'd0),
    .config3_i           (32'd0),
    .config4_i           (32'(MemBytes)),
    .config5_i           (32'(ClockKhz)),
    .config6_i           (32'd0),
    .status_i            (status),
    .fault_info_i        (32'd0),
    .fault_pc_i          (32'd0),
    .fault_addr_i        (32'd0),
    .fault_cta_i         (32'd0),
    .fault_token_lo_i    (32'd0),
    .fault_token_hi_i    (32'd0),
    .cycles_lo_i         (cycles_q[31:0]),
    .cycles_hi_i         (cycles_q[63:32]),
    .launches_i          (32'd0),
    .failed_i            (32'd0),
    .warp_instrs_lo_i    (32'd0),
    .warp_instrs_hi_i    (32'd0),
    .progress_i          (32'd0),
    .control_o           (control),
    .watchdog_o          (watchdog),
    .scratch_o           (scratch),
    .irq_status_set_i    (32'(reset_done_q) << baresm_regs_pkg::IRQ_STATUS_RESET_DONE_LSB),
    .irq_status_o        (irq_status),
    .irq_mask_o          (irq_mask),
    .prot_base_o         (prot_base),
    .prot_size_o         (prot_size),
    .control_soft_reset_o(soft_reset)
  );
  assign irq = (irq_status & irq_mask) != '0;

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      cycles_q <= '0;
      reset_done_q <= 1'b0;
    end else begin
      cycles_q <= cycles_q + 64'd1;
      reset_done_q <= soft_reset;     // the soft reset takes one cycle here
    end
  end

  // ---- device memory: the bridge's port only ------------------------------------------------
  typedef `BARESM_MEM_REQ_T(4, 16) mem_req_t;
  typedef `BARESM_MEM_RSP_T(4, 16) mem_rsp_t;
  logic mem_req_ready;
  mem_req_t mem_req;
  mem_rsp_t mem_rsp;
  assign mem_req = '0;             // no SM

  baresm_fpga_mem #(
    .MemBytes(MemBytes),
    .LineBytes(16),
    .IdWidth(4)
  ) u_mem (
    .clk_i,
    .rst_ni      (rst_n),
    .req_i       (mem_req),
    .req_ready_o (mem_req_ready),
    .rsp_o       (mem_rsp),
    .rsp_ready_i (1'b1),
    .breq_i      (breq),
    .breq_ready_o(breq_ready),
    .brsp_o      (brsp)
  );

  // ---- LEDs ---------------------------------------------------------------------------------
  assign led_idle_o = rst_n ^ LedActiveLow[0];
  assign led_busy_o = frame_ok_led ^ LedActiveLow[1];
  assign led_fault_o = frame_bad_led ^ LedActiveLow[2];
  assign led_link_o = cycles_q[23] ^ LedActiveLow[3];

  logic unused;
  assign unused = ^{watchdog, scratch, prot_base, prot_size, qp_wr, qp_q, qp_off,
                    mem_req_ready, mem_rsp, rx_unused_valid, rx_unused_data, tx_unused_ready};

endmodule

`default_nettype wire
