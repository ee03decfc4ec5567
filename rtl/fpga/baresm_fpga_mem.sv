// baresm_fpga_mem: the board's device memory. MemBytes bytes in one RAM of
// 64-bit (or WordBytes = 4: 32-bit) words, baresm_spram (BlockRam = 0; UP5K: the four SPRAMs side by
// side) or baresm_bram (BlockRam = 1: inferred block RAM, the Arty A7 and
// ULX3S tops; the same timing), shared by two ports through a round-robin arbiter, one request at a time:
//   device port  baresm_top's memory port (docs/lsu.md "Memory port"): line
//                READ / WRITE (LineBytes per request, strobed) and 32-bit
//                ATOMIC (baresm_lsu_amo, the SM's own ALU) with ids; one
//                response per request, rsp_o.err for an address outside
//                memory (nothing is accessed then). The request is used while
//                it is held (the top drives it from flops and holds it until
//                accepted) and accepted in the cycle its last word is
//                accessed; the response follows and is held until taken.
//   bridge port  one byte per request, read or write (baresm_uart_bridge,
//                which checks its bursts' ranges); a response (read data or
//                write acknowledgement) one cycle after the access.
// Timing: a line read takes 2 cycles per word plus the response, a
// line write 1 per word, an atomic 2; a bridge byte 3 cycles.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_fpga_mem #(
  parameter int MemBytes = 131072,
  parameter int LineBytes = 16,     // a multiple of 8
  parameter int IdWidth = 4,
  parameter bit BlockRam = 1'b0,    // 1: baresm_bram (block RAM) instead of baresm_spram
  // 0: no atomic unit (the whole device as one program makes a global atomic
  // of a read and a write): an ATOMIC request is answered with err
  parameter bit Atomics = 1'b1,
  // the RAM's word: 8 bytes (UP5K: four SPRAMs side by side), or 4 (two
  // SPRAMs: the whole device as one program keeps the other two for its
  // firmware)
  parameter int WordBytes = 8
) (
  clk_i,
  rst_ni,
  req_i,
  req_ready_o,
  rsp_o,
  rsp_ready_i,
  breq_i,
  breq_ready_o,
  brsp_o
);

  // The device port's types (rtl/prim/baresm_mem_types.svh): a line port.
  typedef `BARESM_MEM_REQ_T(IdWidth, LineBytes) mem_req_t;
  typedef `BARESM_MEM_RSP_T(IdWidth, LineBytes) mem_rsp_t;

  input  logic                   clk_i;
  input  logic                   rst_ni;

  // ---- device port (baresm_top mem_*) --------------------------------------------------
  input  mem_req_t               req_i;
  output logic                   req_ready_o;
  output mem_rsp_t               rsp_o;
  input  logic                   rsp_ready_i;

  // ---- bridge port (one byte) ----------------------------------------------------------
  input  baresm_byte_req_t       breq_i;
  output logic                   breq_ready_o;
  output baresm_byte_rsp_t       brsp_o;

  // The request's line as plain vectors: Icarus 11 takes no variable part
  // select of a struct member.
  logic [LineBytes*8-1:0] req_wdata;
  logic [LineBytes-1:0]   req_wstrb;
  assign req_wdata = req_i.wdata;
  assign req_wstrb = req_i.wstrb;

  localparam int Depth = MemBytes / WordBytes;
  localparam int AddrW = $clog2(Depth);
  localparam int WordW = WordBytes * 8;
  localparam int ByteSelW = $clog2(WordBytes);
  localparam int Beats = LineBytes / WordBytes;
  localparam int BeatW = (Beats > 1) ? $clog2(Beats) : 1;
  localparam logic [1:0] OP_WRITE = 2'd1, OP_ATOMIC = 2'd2;   // and 0: READ

  typedef enum logic [2:0] {M_IDLE, M_BACC, M_BRSP, M_TRD, M_TRDW, M_TWR, M_AWR, M_TRSP} state_e;
  state_e st_q;
  logic [BeatW-1:0] beat_q;
  logic [LineBytes*8-1:0] line_q;
  logic [IdWidth-1:0] id_q;
  logic err_q, last_top_q;
  logic [ByteSelW-1:0] bsel_q;
  logic b_write_q;              // the bridge request, taken in M_IDLE
  logic [AddrW-1:0] b_word_q;
  logic [7:0] b_wdata_q;

  // RAM port.
  logic ram_en, ram_we;
  logic [AddrW-1:0] ram_addr;
  logic [WordBytes-1:0] ram_wstrb;
  logic [WordW-1:0] ram_wdata, ram_rdata;

  if (BlockRam) begin : g_bram
    baresm_bram #(
      .Depth(Depth),
      .Width(WordW)
    ) u_ram (
      .clk_i,
      .en_i   (ram_en),
      .we_i   (ram_we),
      .addr_i (ram_addr),
      .wstrb_i(ram_wstrb),
      .wdata_i(ram_wdata),
      .rdata_o(ram_rdata)
    );
  end else begin : g_spram
    baresm_spram #(
      .Depth(Depth),
      .Width(WordW)
    ) u_ram (
      .clk_i,
      .en_i   (ram_en),
      .we_i   (ram_we),
      .addr_i (ram_addr),
      .wstrb_i(ram_wstrb),
      .wdata_i(ram_wdata),
      .rdata_o(ram_rdata)
    );
  end

  // The atomic's word and its new value.
  logic [31:0] amo_old, amo_new;
  assign amo_old = (WordBytes == 8 && req_i.addr[2]) ? ram_rdata[WordW-1 -: 32] : ram_rdata[31:0];
  if (Atomics) begin : g_amo
    baresm_lsu_amo u_amo (
      .amo_i(req_i.amo),
      .old_i(amo_old),
      .b_i  (req_wdata[31:0]),
      .c_i  (req_wdata[63:32]),
      .new_o(amo_new)
    );
  end else begin : g_no_amo
    assign amo_new = '0;
  end

  logic in_range;   // an ATOMIC without the unit is refused as an address outside memory is
  assign in_range = req_i.addr < 32'(MemBytes) && (Atomics || req_i.op != OP_ATOMIC);
  logic [AddrW-1:0] line_word;   // the word of beat beat_q
  assign line_word = req_i.addr[AddrW+ByteSelW-1:ByteSelW] + AddrW'(beat_q);
  logic pick_bridge;
  assign pick_bridge = breq_i.valid && (last_top_q || !req_i.valid);

  always_comb begin
    ram_en = 1'b0;
    ram_we = 1'b0;
    ram_addr = line_word;
    ram_wstrb = '0;
    ram_wdata = '0;
    req_ready_o = 1'b0;
    breq_ready_o = 1'b0;
    unique case (st_q)
      M_IDLE: begin
        breq_ready_o = pick_bridge;
        req_ready_o = !pick_bridge && req_i.valid && !in_range;   // nothing to access
      end
      M_BACC: begin
        ram_en = 1'b1;
        ram_we = b_write_q;
        ram_addr = b_word_q;
        ram_wstrb = WordBytes'(1) << bsel_q;
        ram_wdata = {WordBytes{b_wdata_q}};
      end
      M_TRD: ram_en = 1'b1;
      M_TRDW: req_ready_o = (32'(beat_q) == Beats - 1);
      M_TWR: begin
        ram_en = 1'b1;
        ram_we = 1'b1;
        ram_wstrb = req_wstrb[beat_q*WordBytes +: WordBytes];
        ram_wdata = req_wdata[beat_q*WordW +: WordW];
        req_ready_o = (32'(beat_q) == Beats - 1);
      end
      M_AWR: begin
        ram_en = 1'b1;
        ram_we = 1'b1;
        ram_addr = req_i.addr[AddrW+ByteSelW-1:ByteSelW];
        ram_wstrb = (WordBytes == 8 && req_i.addr[2]) ? WordBytes'(8'hF0) : WordBytes'(8'h0F);
        ram_wdata = {(WordBytes / 4){amo_new}};
        req_ready_o = 1'b1;
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= M_IDLE;
      beat_q <= '0;
      line_q <= '0;
      id_q <= '0;
      err_q <= 1'b0;
      last_top_q <= 1'b0;
      bsel_q <= '0;
      b_write_q <= 1'b0;
      b_word_q <= '0;
      b_wdata_q <= '0;
    end else begin
      unique case (st_q)
        M_IDLE: begin
          beat_q <= '0;
          if (pick_bridge) begin
            last_top_q <= 1'b0;
            b_write_q <= breq_i.write;
            b_word_q <= breq_i.addr[AddrW+ByteSelW-1:ByteSelW];
            b_wdata_q <= breq_i.wdata;
            bsel_q <= breq_i.addr[ByteSelW-1:0];
            st_q <= M_BACC;
          end else if (req_i.valid) begin
            last_top_q <= 1'b1;
            id_q <= req_i.id;
            err_q <= !in_range;
            line_q <= '0;
            if (!in_range) st_q <= M_TRSP;          // accepted below, nothing accessed
            else if (req_i.op == OP_WRITE) st_q <= M_TWR;
            else st_q <= M_TRD;                     // READ, and ATOMIC's read
          end
        end
        M_BACC: st_q <= M_BRSP;
        M_BRSP: st_q <= M_IDLE;
        M_TRD: st_q <= (req_i.op == OP_ATOMIC) ? M_AWR : M_TRDW;
        M_TRDW: begin
          line_q[beat_q*WordW +: WordW] <= ram_rdata;
          if (32'(beat_q) == Beats - 1) begin
            st_q <= M_TRSP;
          end else begin
            beat_q <= beat_q + 1'b1;
            st_q <= M_TRD;
          end
        end
        M_TWR: begin
          if (32'(beat_q) == Beats - 1) st_q <= M_TRSP;
          else beat_q <= beat_q + 1'b1;
        end
        M_AWR: begin
          line_q[31:0] <= amo_old;
          st_q <= M_TRSP;
        end
        M_TRSP: if (rsp_ready_i) st_q <= M_IDLE;
        default: st_q <= M_IDLE;
      endcase
    end
  end

  assign rsp_o.valid = (st_q == M_TRSP);
  assign rsp_o.id = id_q;
  assign rsp_o.rdata = line_q;
  assign rsp_o.err = err_q;
  assign brsp_o.valid = (st_q == M_BRSP);
  assign brsp_o.rdata = ram_rdata[bsel_q*8 +: 8];

  // ---- assertions -------------------------------------------------------------------
  `BARESM_ASSERT(a_word_shape, (WordBytes == 4 || WordBytes == 8) && LineBytes % WordBytes == 0)
  `BARESM_ASSERT_HELD(a_req_held_mem, req_i.valid, req_ready_o,
                      {req_i.id, req_i.addr, req_i.op, req_i.amo, req_wdata, req_wstrb})
  `BARESM_ASSERT(a_bridge_in_range, !breq_ready_o || !breq_i.valid || breq_i.addr < 32'(MemBytes))
  `BARESM_ASSERT(a_line_aligned, !(req_i.valid && req_i.op != OP_ATOMIC) ||
                 req_i.addr[$clog2(LineBytes)-1:0] == '0)

endmodule

`default_nettype wire
