// baresm_uart_bridge: the serial link's frame engine (docs/serial-protocol.md;
// frame codes and CRC from baresm_serial_pkg, generated from
// contract/serial_protocol.def). Bytes come from baresm_uart_rx and go to
// baresm_uart_tx; requests become MMIO accesses on baresm_top's register port
// and byte accesses on the device memory's bridge port (baresm_fpga_mem).
//
// Three parts:
//   receiver  hunts for SYNC, collects CMD SEQ LEN, the payload (into a
//             256-byte buffer RAM: one iCE40 EBR; its first 6 bytes also
//             into flops) and the CRC. A frame with a bad CRC, a LEN above
//             MAX_PAYLOAD or a gap of TimeoutCycles between two of its bytes
//             is dropped and answered with an ERROR frame; the receiver then
//             hunts for the next SYNC. It never waits on anything but the
//             executor, which always finishes: the bridge cannot wedge.
//   executor  runs a checked frame: STATUS, REG_READ/REG_WRITE (one MMIO
//             access), MEM_WRITE (bytes from the buffer into memory) or an
//             ERROR; then has the transmitter send the answer. Bytes that
//             arrive meanwhile are dropped (the host waits for the answer).
//             A REG_WRITE or MEM_WRITE whose SEQ equals the SEQ of the
//             frame executed last is a repeat (its answer was lost): it is
//             answered again, not executed again. STATUS forgets that SEQ.
//   transmitter  frames the answer (MEM_READ data straight from memory, one
//             byte ahead of the UART) or an IRQ event whenever the interrupt
//             line has changed since the last one it sent; answers first.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_uart_bridge #(
  parameter int MemBytes = 131072,
  parameter int TimeoutCycles = 120000    // gap that ends a partial frame (10 ms at 12 MHz)
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // ---- bytes of the UART -----------------------------------------------------------
  input  logic        rx_valid_i,
  input  logic [7:0]  rx_data_i,
  output logic        tx_valid_o,
  input  logic        tx_ready_i,
  output logic [7:0]  tx_data_o,

  // ---- baresm_top's register port ------------------------------------------------
  output logic        mmio_req_valid_o,
  input  logic        mmio_req_ready_i,
  output logic [9:0]  mmio_req_addr_o,
  output logic        mmio_req_write_o,
  output logic [31:0] mmio_req_wdata_o,
  input  logic        mmio_rsp_valid_i,
  input  logic [31:0] mmio_rsp_rdata_i,
  input  logic        irq_i,

  // ---- device memory, one byte per access (baresm_fpga_mem's bridge port) -----------
  output baresm_byte_req_t mem_req_o,
  input  logic             mem_req_ready_i,
  input  baresm_byte_rsp_t mem_rsp_i,

  // ---- counters (LEDs, debugging) ----------------------------------------------------
  output logic [15:0] frames_ok_o,        // frames executed
  output logic [15:0] frames_bad_o        // frames answered with ERROR
);

  localparam int TmoW = $clog2(TimeoutCycles + 1);
  localparam logic [7:0] SYNC = 8'(baresm_serial_pkg::SER_SYNC);
  localparam logic [7:0] RSP_FLAG = 8'(baresm_serial_pkg::SER_RSP_FLAG);
  localparam logic [7:0] MAX_PAYLOAD = 8'(baresm_serial_pkg::SER_MAX_PAYLOAD);
  localparam logic [7:0] MAX_BURST = 8'(baresm_serial_pkg::SER_MAX_BURST);
  localparam logic [15:0] CRC_INIT = 16'(baresm_serial_pkg::SER_CRC_INIT);

  // ======== receiver ================================================================
  typedef enum logic [2:0] {R_HUNT, R_CMD, R_SEQ, R_LEN, R_PAY, R_CRC0, R_CRC1, R_HOLD} rstate_e;
  rstate_e rst_q;
  logic [7:0]  cmd_q, seq_q, len_q, cnt_q, crclo_q, rerr_q;
  logic [15:0] crc_q;
  logic [47:0] hdr_q;           // payload bytes 0..5
  logic [TmoW-1:0] tmo_q;
  logic        job_done;        // executor: the frame in R_HOLD is finished

  logic [15:0] crc_next;
  assign crc_next = baresm_serial_pkg::crc16_byte(crc_q, rx_data_i);

  // The payload buffer: written by the receiver, read by the executor.
  logic       buf_we, buf_re;
  logic [7:0] buf_waddr, buf_raddr, buf_rdata;
  assign buf_we = rx_valid_i && rst_q == R_PAY;
  assign buf_waddr = cnt_q;

  baresm_ram_1r1w #(
    .Depth(256),
    .Width(8)
  ) u_buf (
    .clk_i,
    .re_i   (buf_re),
    .raddr_i(buf_raddr),
    .rdata_o(buf_rdata),
    .we_i   (buf_we),
    .waddr_i(buf_waddr),
    .wmask_i(1'b1),
    .wdata_i(rx_data_i)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rst_q <= R_HUNT;
      cmd_q <= '0;
      seq_q <= '0;
      len_q <= '0;
      cnt_q <= '0;
      crclo_q <= '0;
      rerr_q <= '0;
      crc_q <= CRC_INIT;
      hdr_q <= '0;
      tmo_q <= '0;
    end else if (rst_q == R_HOLD) begin
      if (job_done) rst_q <= R_HUNT;
    end else if (rx_valid_i) begin
      tmo_q <= '0;
      crc_q <= crc_next;
      unique case (rst_q)
        R_HUNT: begin
          crc_q <= CRC_INIT;
          cmd_q <= '0;
          seq_q <= '0;
          rerr_q <= '0;
          if (rx_data_i == SYNC) rst_q <= R_CMD;
        end
        R_CMD: begin
          cmd_q <= rx_data_i;
          rst_q <= R_SEQ;
        end
        R_SEQ: begin
          seq_q <= rx_data_i;
          rst_q <= R_LEN;
        end
        R_LEN: begin
          len_q <= rx_data_i;
          cnt_q <= '0;
          hdr_q <= '0;
          if (rx_data_i > MAX_PAYLOAD) begin
            rerr_q <= baresm_serial_pkg::ERR_TOO_LONG;
            rst_q <= R_HOLD;
          end else begin
            rst_q <= (rx_data_i == 8'd0) ? R_CRC0 : R_PAY;
          end
        end
        R_PAY: begin
          if (cnt_q < 8'd6) hdr_q[cnt_q[2:0]*8 +: 8] <= rx_data_i;
          cnt_q <= cnt_q + 8'd1;
          if (cnt_q + 8'd1 == len_q) rst_q <= R_CRC0;
        end
        R_CRC0: begin
          crclo_q <= rx_data_i;
          crc_q <= crc_q;
          rst_q <= R_CRC1;
        end
        R_CRC1: begin
          crc_q <= crc_q;
          if ({rx_data_i, crclo_q} != crc_q) rerr_q <= baresm_serial_pkg::ERR_BAD_CRC;
          rst_q <= R_HOLD;
        end
        default: rst_q <= R_HUNT;
      endcase
    end else if (rst_q != R_HUNT) begin
      // A frame stopped part way: drop it and say so.
      if (tmo_q == TmoW'(TimeoutCycles - 1)) begin
        rerr_q <= baresm_serial_pkg::ERR_TIMEOUT;
        rst_q <= R_HOLD;
      end else begin
        tmo_q <= tmo_q + 1'b1;
      end
    end
  end

  // ======== executor ================================================================
  typedef enum logic [3:0] {
    X_IDLE, X_DECODE, X_REG_REQ, X_REG_RSP, X_MW_READ, X_MW_REQ, X_MW_ACK, X_SEND, X_WAIT
  } xstate_e;
  xstate_e xst_q;
  logic [7:0]  r_cmd_q, r_len_q;       // the answer: CMD, LEN
  logic [71:0] r_pay_q;                // its payload (up to 9 bytes), or
  logic        r_mem_q;                // its payload comes from memory (MEM_READ)
  logic [31:0] r_addr_q;               // MEM_READ/MEM_WRITE: the next byte's address
  logic [7:0]  x_idx_q;                // MEM_WRITE: buffer index
  logic [7:0]  last_seq_q;
  logic        last_valid_q;
  logic [63:0] cycles_q;
  logic [15:0] ok_q, bad_q;
  logic        send_req, send_done;    // executor <-> transmitter
  logic        irq_q;

  // Payload fields of the frame in the buffer (little-endian).
  logic [15:0] f_off;
  logic [31:0] f_addr, f_value;
  logic [7:0]  f_count;
  assign f_off = hdr_q[15:0];
  assign f_value = hdr_q[47:16];
  assign f_addr = hdr_q[31:0];
  assign f_count = hdr_q[39:32];
  logic is_repeat;
  assign is_repeat = last_valid_q && (seq_q == last_seq_q);

  // A burst [addr, addr+count) lies in memory.
  function automatic logic in_mem(input logic [31:0] addr, input logic [7:0] count);
    in_mem = (addr < 32'(MemBytes)) && (32'(count) <= 32'(MemBytes) - addr);
  endfunction

  assign job_done = (xst_q == X_WAIT) && send_done;
  assign send_req = (xst_q == X_SEND);

  assign buf_re = (xst_q == X_MW_READ);
  assign buf_raddr = x_idx_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xst_q <= X_IDLE;
      r_cmd_q <= '0;
      r_len_q <= '0;
      r_pay_q <= '0;
      r_mem_q <= 1'b0;
      r_addr_q <= '0;
      x_idx_q <= '0;
      last_seq_q <= '0;
      last_valid_q <= 1'b0;
      cycles_q <= '0;
      ok_q <= '0;
      bad_q <= '0;
      irq_q <= 1'b0;
    end else begin
      cycles_q <= cycles_q + 64'd1;
      irq_q <= irq_i;
      unique case (xst_q)
        X_IDLE: if (rst_q == R_HOLD) xst_q <= X_DECODE;
        X_DECODE: begin
          r_mem_q <= 1'b0;
          r_pay_q <= '0;
          r_len_q <= '0;
          r_cmd_q <= cmd_q | RSP_FLAG;
          xst_q <= X_SEND;
          if (rerr_q != 8'd0) begin
            r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
            r_len_q <= 8'd2;
            r_pay_q[15:0] <= {cmd_q, rerr_q};
          end else begin
            unique case (cmd_q)
              baresm_serial_pkg::CMD_STATUS: begin
                if (len_q != 8'(baresm_serial_pkg::CMD_STATUS_REQ_LEN)) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_BAD_LEN};
                end else begin
                  r_len_q <= 8'(baresm_serial_pkg::CMD_STATUS_RSP_LEN);
                  r_pay_q <= {cycles_q, 7'd0, irq_q};
                  last_valid_q <= 1'b0;
                end
              end
              baresm_serial_pkg::CMD_REG_READ, baresm_serial_pkg::CMD_REG_WRITE: begin
                if (len_q != ((cmd_q == baresm_serial_pkg::CMD_REG_READ)
                              ? 8'(baresm_serial_pkg::CMD_REG_READ_REQ_LEN)
                              : 8'(baresm_serial_pkg::CMD_REG_WRITE_REQ_LEN))) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_BAD_LEN};
                end else if (f_off[15:10] != 6'd0) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_MEM_RANGE};
                end else if (cmd_q == baresm_serial_pkg::CMD_REG_WRITE && is_repeat) begin
                  xst_q <= X_SEND;   // done already: answer again
                end else begin
                  r_len_q <= (cmd_q == baresm_serial_pkg::CMD_REG_READ) ? 8'd4 : 8'd0;
                  xst_q <= X_REG_REQ;
                end
              end
              baresm_serial_pkg::CMD_MEM_READ: begin
                if (len_q != 8'(baresm_serial_pkg::CMD_MEM_READ_REQ_LEN) || f_count == 8'd0 ||
                    f_count > MAX_BURST) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_BAD_LEN};
                end else if (!in_mem(f_addr, f_count)) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_MEM_RANGE};
                end else begin
                  r_len_q <= f_count;
                  r_mem_q <= 1'b1;
                  r_addr_q <= f_addr;
                end
              end
              baresm_serial_pkg::CMD_MEM_WRITE: begin
                if (len_q < 8'd5) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_BAD_LEN};
                end else if (!in_mem(f_addr, len_q - 8'd4)) begin
                  r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                  r_len_q <= 8'd2;
                  r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_MEM_RANGE};
                end else if (!is_repeat) begin
                  r_addr_q <= f_addr;
                  x_idx_q <= 8'd4;
                  xst_q <= X_MW_READ;
                end
              end
              default: begin
                r_cmd_q <= baresm_serial_pkg::EVT_ERROR;
                r_len_q <= 8'd2;
                r_pay_q[15:0] <= {cmd_q, baresm_serial_pkg::ERR_BAD_CMD};
              end
            endcase
          end
        end
        X_REG_REQ: if (mmio_req_ready_i) xst_q <= X_REG_RSP;
        X_REG_RSP: if (mmio_rsp_valid_i) begin
          r_pay_q[31:0] <= mmio_rsp_rdata_i;
          xst_q <= X_SEND;
        end
        X_MW_READ: xst_q <= X_MW_REQ;           // buffer byte x_idx_q on the next cycle
        X_MW_REQ: if (mem_req_ready_i) xst_q <= X_MW_ACK;
        X_MW_ACK: if (mem_rsp_i.valid) begin
          r_addr_q <= r_addr_q + 32'd1;
          x_idx_q <= x_idx_q + 8'd1;
          xst_q <= (x_idx_q + 8'd1 == len_q) ? X_SEND : X_MW_READ;
        end
        X_SEND: if (tst_q == T_IDLE) xst_q <= X_WAIT;   // the transmitter takes the answer
        X_WAIT: if (send_done) begin
          xst_q <= X_IDLE;
          if (r_cmd_q == baresm_serial_pkg::EVT_ERROR) begin
            bad_q <= bad_q + 16'd1;
          end else begin
            ok_q <= ok_q + 16'd1;
            if (cmd_q != baresm_serial_pkg::CMD_STATUS) begin
              last_seq_q <= seq_q;
              last_valid_q <= 1'b1;
            end
          end
        end
        default: xst_q <= X_IDLE;
      endcase
    end
  end

  // The MEM_WRITE byte: the buffer RAM holds its read data until the next
  // read, so it stays valid through X_MW_REQ.
  logic [7:0] mw_data;
  assign mw_data = buf_rdata;

  assign mmio_req_valid_o = (xst_q == X_REG_REQ);
  assign mmio_req_addr_o = f_off[9:0];
  assign mmio_req_write_o = (cmd_q == baresm_serial_pkg::CMD_REG_WRITE);
  assign mmio_req_wdata_o = f_value;

  // ======== transmitter =============================================================
  typedef enum logic [3:0] {T_IDLE, T_SYNC, T_CMD, T_SEQ, T_LEN, T_FETCH, T_FWAIT, T_PAY, T_CRC0, T_CRC1}
    tstate_e;
  tstate_e tst_q;
  logic        t_evt_q;                // the frame is an IRQ event
  logic        evt_lvl_q, sent_lvl_q;
  logic [7:0]  evt_seq_q, t_cnt_q, t_byte_q;
  logic [15:0] t_crc_q;
  logic [31:0] t_addr_q;

  logic [7:0] t_cmd, t_seq, t_len, t_data;
  assign t_cmd = t_evt_q ? baresm_serial_pkg::EVT_IRQ : r_cmd_q;
  assign t_seq = t_evt_q ? evt_seq_q : seq_q;
  assign t_len = t_evt_q ? 8'(baresm_serial_pkg::EVT_IRQ_LEN) : r_len_q;

  always_comb begin
    t_data = 8'd0;
    unique case (tst_q)
      T_SYNC: t_data = SYNC;
      T_CMD:  t_data = t_cmd;
      T_SEQ:  t_data = t_seq;
      T_LEN:  t_data = t_len;
      T_PAY:  t_data = t_byte_q;
      T_CRC0: t_data = t_crc_q[7:0];
      T_CRC1: t_data = t_crc_q[15:8];
      default: t_data = 8'd0;
    endcase
  end
  assign tx_data_o = t_data;
  // One CRC unit for the transmitter: over the byte being sent (CMD .. payload).
  logic [15:0] t_crc_next;
  assign t_crc_next = baresm_serial_pkg::crc16_byte(t_crc_q, t_data);
  assign tx_valid_o = (tst_q == T_SYNC) || (tst_q == T_CMD) || (tst_q == T_SEQ) || (tst_q == T_LEN) ||
                      (tst_q == T_PAY) || (tst_q == T_CRC0) || (tst_q == T_CRC1);
  assign send_done = (tst_q == T_CRC1) && tx_ready_i && !t_evt_q;

  // The next payload byte: from the answer's payload flops, or from memory.
  logic [7:0] pay_byte;
  assign pay_byte = r_pay_q[t_cnt_q[3:0]*8 +: 8];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tst_q <= T_IDLE;
      t_evt_q <= 1'b0;
      evt_lvl_q <= 1'b0;
      sent_lvl_q <= 1'b0;
      evt_seq_q <= '0;
      t_cnt_q <= '0;
      t_byte_q <= '0;
      t_crc_q <= CRC_INIT;
      t_addr_q <= '0;
    end else begin
      unique case (tst_q)
        T_IDLE: begin
          t_crc_q <= CRC_INIT;
          t_cnt_q <= '0;
          t_addr_q <= r_addr_q;
          if (send_req) begin
            t_evt_q <= 1'b0;
            tst_q <= T_SYNC;
          end else if (irq_q != sent_lvl_q) begin
            t_evt_q <= 1'b1;
            evt_lvl_q <= irq_q;
            sent_lvl_q <= irq_q;
            tst_q <= T_SYNC;
          end
        end
        T_SYNC: if (tx_ready_i) tst_q <= T_CMD;
        T_CMD: if (tx_ready_i) begin
          t_crc_q <= t_crc_next;
          tst_q <= T_SEQ;
        end
        T_SEQ: if (tx_ready_i) begin
          t_crc_q <= t_crc_next;
          tst_q <= T_LEN;
        end
        T_LEN: if (tx_ready_i) begin
          t_crc_q <= t_crc_next;
          if (t_len == 8'd0) begin
            tst_q <= T_CRC0;
          end else if (!t_evt_q && r_mem_q) begin
            tst_q <= T_FETCH;
          end else begin
            t_byte_q <= t_evt_q ? {7'd0, evt_lvl_q} : pay_byte;
            tst_q <= T_PAY;
          end
        end
        T_FETCH: if (mem_req_ready_i) tst_q <= T_FWAIT;
        T_FWAIT: if (mem_rsp_i.valid) begin
          t_byte_q <= mem_rsp_i.rdata;
          t_addr_q <= t_addr_q + 32'd1;
          tst_q <= T_PAY;
        end
        T_PAY: if (tx_ready_i) begin
          t_crc_q <= t_crc_next;
          t_cnt_q <= t_cnt_q + 8'd1;
          if (t_cnt_q + 8'd1 == t_len) begin
            tst_q <= T_CRC0;
          end else if (!t_evt_q && r_mem_q) begin
            tst_q <= T_FETCH;
          end else begin
            t_byte_q <= r_pay_q[(t_cnt_q[3:0] + 4'd1)*8 +: 8];
          end
        end
        T_CRC0: if (tx_ready_i) tst_q <= T_CRC1;
        T_CRC1: if (tx_ready_i) begin
          if (t_evt_q) evt_seq_q <= evt_seq_q + 8'd1;
          tst_q <= T_IDLE;
        end
        default: tst_q <= T_IDLE;
      endcase
    end
  end

  // ---- memory port: MEM_WRITE bytes (executor) or MEM_READ bytes (transmitter) ----
  assign mem_req_o.valid = (xst_q == X_MW_REQ) || (tst_q == T_FETCH);
  assign mem_req_o.write = (xst_q == X_MW_REQ);
  assign mem_req_o.addr = (xst_q == X_MW_REQ) ? r_addr_q : t_addr_q;
  assign mem_req_o.wdata = mw_data;

  assign frames_ok_o = ok_q;
  assign frames_bad_o = bad_q;

  // ---- assertions -------------------------------------------------------------------
  // The executor and the transmitter never use the memory port at once.
  `BARESM_ASSERT(a_mem_one_user, !((xst_q == X_MW_REQ) && (tst_q == T_FETCH)))
  // Bursts stay inside device memory (checked before the first byte).
  `BARESM_ASSERT(a_mem_in_range, !mem_req_o.valid || mem_req_o.addr < 32'(MemBytes))
  // An answer is only sent for a frame the receiver holds.
  `BARESM_ASSERT(a_answer_held, xst_q == X_IDLE || rst_q == R_HOLD)
  `BARESM_ASSERT_HELD(a_mmio_held, mmio_req_valid_o, mmio_req_ready_i,
                      {mmio_req_addr_o, mmio_req_write_o, mmio_req_wdata_o})
  `BARESM_ASSERT_HELD(a_mem_held, mem_req_o.valid, mem_req_ready_i,
                      {mem_req_o.write, mem_req_o.addr, mem_req_o.wdata})
  `BARESM_ASSERT_HELD(a_tx_held, tx_valid_o, tx_ready_i, tx_data_o)
  `BARESM_ASSERT(a_pay_bound, t_cnt_q <= MAX_PAYLOAD)

endmodule

`default_nettype wire
