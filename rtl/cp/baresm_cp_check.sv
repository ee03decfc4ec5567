// baresm_cp_check: the command processor's descriptor checks
// (docs/ring-formats.md, "Descriptor checks"), in the order of the DCHK
// table, over a fetched 64-byte launch descriptor. The first failing check
// wins; DCHK_NONE when every check passes. The window entries themselves
// (DCHK_WINDOW_RANGE) need memory reads and are checked by baresm_cp while it
// fetches them.
//
// The three products the checks need (CTAs = grid_x * grid_y * grid_z,
// threads = block_x * block_y * block_z, registers = warps * 32 * regs) come
// from one serial multiplier (baresm_cp_mul), five products one after the
// other, not from combinational multipliers: on the iCE40 UP5K those were
// SB_MAC16 blocks the part does not have (docs/fpga.md). start_i (the cycle
// the descriptor is written into desc_i's register) begins a check; valid_o
// rises when check_o and marker_o hold the verdict for the descriptor now on
// desc_i, which must not change until then. Latency from start_i: 2
// cycles for a verdict the header decides alone (a marker; a bad magic,
// version, flags or reserved word); else 1 + the sum over grid_y, grid_z,
// block_y, block_z and regs of 1 + max(1, bit length): 11 cycles for a
// one-dimensional launch of one register, at most 78.
//
// A marker descriptor (flags.MARKER) is only checked for magic, version,
// flags and the reserved word.
`include "baresm_assert.svh"
`default_nettype none

module baresm_cp_check #(
  parameter int NumWarps = 16,
  parameter int MaxRegs = 63,
  parameter int SharedBytes = 32768,
  parameter int RegfileRegs = 16384,
  parameter int MaxWindows = 4,
  parameter int MemBytes = 4194304
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,     // desc_i changes this cycle: check it from the next
  input  logic [511:0] desc_i,
  output logic         valid_o,     // check_o and marker_o are this descriptor's
  output logic         marker_o,
  output logic [3:0]   check_o      // baresm_ring_pkg::DCHK_*
);

  localparam logic [32:0] MEM_END = 33'(MemBytes);
  localparam int PW = 33;   // product bits kept: every limit is below 2^32; beyond, the multiplier's ovf_o
  localparam int BLOCK_MAX = (NumWarps * 32 < 1024) ? NumWarps * 32 : 1024;

  logic [31:0] entry_pc, code_base, code_size, grid_x, param_addr, param_size, shared_bytes;
  logic [31:0] window_table, reserved;
  logic [15:0] grid_y, grid_z, block_x, block_y, block_z, magic;
  logic [7:0]  regs, flags, window_count, version;
  assign entry_pc = desc_i[baresm_ring_pkg::DESC_ENTRY_PC_LSB +: 32];
  assign code_base = desc_i[baresm_ring_pkg::DESC_CODE_BASE_LSB +: 32];
  assign code_size = desc_i[baresm_ring_pkg::DESC_CODE_SIZE_LSB +: 32];
  assign grid_x = desc_i[baresm_ring_pkg::DESC_GRID_X_LSB +: 32];
  assign grid_y = desc_i[baresm_ring_pkg::DESC_GRID_Y_LSB +: 16];
  assign grid_z = desc_i[baresm_ring_pkg::DESC_GRID_Z_LSB +: 16];
  assign block_x = desc_i[baresm_ring_pkg::DESC_BLOCK_X_LSB +: 16];
  assign block_y = desc_i[baresm_ring_pkg::DESC_BLOCK_Y_LSB +: 16];
  assign block_z = desc_i[baresm_ring_pkg::DESC_BLOCK_Z_LSB +: 16];
  assign regs = desc_i[baresm_ring_pkg::DESC_REGS_LSB +: 8];
  assign flags = desc_i[baresm_ring_pkg::DESC_FLAGS_LSB +: 8];
  assign param_addr = desc_i[baresm_ring_pkg::DESC_PARAM_ADDR_LSB +: 32];
  assign param_size = desc_i[baresm_ring_pkg::DESC_PARAM_SIZE_LSB +: 32];
  assign shared_bytes = desc_i[baresm_ring_pkg::DESC_SHARED_BYTES_LSB +: 32];
  assign window_table = desc_i[baresm_ring_pkg::DESC_WINDOW_TABLE_LSB +: 32];
  assign window_count = desc_i[baresm_ring_pkg::DESC_WINDOW_COUNT_LSB +: 8];
  assign version = desc_i[baresm_ring_pkg::DESC_VERSION_LSB +: 8];
  assign magic = desc_i[baresm_ring_pkg::DESC_MAGIC_LSB +: 16];
  assign reserved = desc_i[baresm_ring_pkg::DESC_RESERVED_LSB +: 32];

  logic [7:0] known_flags;
  assign known_flags = 8'(baresm_ring_pkg::DESC_FLAGS_KNOWN);
  assign marker_o = flags[0];
  logic early;   // the verdict needs no product: the header's checks fail, or a marker
  assign early = magic != 16'(baresm_ring_pkg::DESC_MAGIC) ||
                 version != 8'(baresm_ring_pkg::DESC_VERSION) ||
                 (flags & ~known_flags) != 8'd0 || reserved != 32'd0 || marker_o;

  // ---- the products, one after the other on one serial multiplier ----------
  // Steps: S_IDLE (verdict valid when valid_q) -> S_LOAD (desc_i now holds
  // the new descriptor: start grid_x * grid_y) -> S_CTA2 (* grid_z) ->
  // S_THR1 (block_x * block_y) -> S_THR2 (* block_z) -> S_REGS (warps * regs)
  // -> S_IDLE. Each S_* after S_LOAD waits for the product before it.
  typedef enum logic [2:0] {
    S_IDLE, S_LOAD, S_CTA2, S_THR1, S_THR2, S_REGS
  } step_e;
  step_e       step_q, step_d;
  logic        valid_q, valid_d;
  logic        ctas_big_q, ctas_big_d;        // grid_x * grid_y * grid_z > 2^32 - 1
  logic        threads_big_q, threads_big_d;  // block_x * block_y * block_z > BLOCK_MAX

  logic          mul_start, mul_done, mul_ovf;
  logic [PW-1:0] mul_a, mul_p;
  logic [15:0]   mul_b;
  logic [PW-1:0] warps;    // threads (the product just made) rounded up to whole warps
  assign warps = PW'((34'(mul_p) + 34'd31) >> 5);

  always_comb begin
    step_d = step_q;
    valid_d = valid_q;
    ctas_big_d = ctas_big_q;
    threads_big_d = threads_big_q;
    mul_start = 1'b0;
    mul_a = '0;
    mul_b = '0;
    if (start_i) begin
      step_d = S_LOAD;
      valid_d = 1'b0;
    end else begin
      unique case (step_q)
        S_IDLE: ;
        S_LOAD: if (early) begin
          // Decided by the header alone (a bad magic, version, flags or
          // reserved word, or a marker): no product is needed.
          step_d = S_IDLE;
          valid_d = 1'b1;
        end else begin
          mul_start = 1'b1;
          mul_a = PW'(grid_x);
          mul_b = grid_y;
          step_d = S_CTA2;
        end
        S_CTA2: if (mul_done) begin
          ctas_big_d = mul_ovf;      // grid_x * grid_y alone past PW bits
          mul_start = 1'b1;
          mul_a = mul_p;
          mul_b = grid_z;
          step_d = S_THR1;
        end
        S_THR1: if (mul_done) begin
          ctas_big_d = ctas_big_q || mul_ovf || mul_p[32];
          mul_start = 1'b1;
          mul_a = PW'(block_x);
          mul_b = block_y;
          step_d = S_THR2;
        end
        S_THR2: if (mul_done) begin
          mul_start = 1'b1;
          mul_a = mul_p;             // block_x * block_y < 2^32: no overflow
          mul_b = block_z;
          step_d = S_REGS;
        end
        S_REGS: if (mul_done) begin
          threads_big_d = mul_ovf || mul_p > PW'(BLOCK_MAX);
          mul_start = 1'b1;
          mul_a = warps;
          mul_b = 16'(regs);
          step_d = S_IDLE;
          valid_d = 1'b1;
        end
        default: step_d = S_IDLE;
      endcase
    end
  end
  // The last product (warps * regs) is read as it completes: valid_o waits
  // for it. It decides the verdict only when threads <= BLOCK_MAX (else
  // DCHK_BLOCK_SIZE wins): then warps <= 32 and it fits.
  logic regs_big;   // warps * 32 * regs > RegfileRegs
  assign regs_big = mul_ovf || (38'(mul_p) << 5) > 38'(RegfileRegs);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_q <= S_IDLE;
      valid_q <= 1'b0;
      ctas_big_q <= 1'b0;
      threads_big_q <= 1'b0;
    end else begin
      step_q <= step_d;
      valid_q <= valid_d;
      ctas_big_q <= ctas_big_d;
      threads_big_q <= threads_big_d;
    end
  end

  baresm_cp_mul #(
    .PW(PW),
    .BW(16)
  ) u_mul (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .start_i(mul_start),
    .a_i    (mul_a),
    .b_i    (mul_b),
    .done_o (mul_done),
    .p_o    (mul_p),
    .ovf_o  (mul_ovf)
  );
  assign valid_o = valid_q && step_q == S_IDLE && mul_done;


  always_comb begin
    check_o = 4'(baresm_ring_pkg::DCHK_NONE);
    if (magic != 16'(baresm_ring_pkg::DESC_MAGIC)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_MAGIC);
    end else if (version != 8'(baresm_ring_pkg::DESC_VERSION)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_VERSION);
    end else if ((flags & ~known_flags) != 8'd0 || reserved != 32'd0) begin
      check_o = 4'(baresm_ring_pkg::DCHK_FLAGS);
    end else if (marker_o) begin
      check_o = 4'(baresm_ring_pkg::DCHK_NONE);
    end else if (grid_x == 32'd0 || grid_y == 16'd0 || grid_z == 16'd0 || block_x == 16'd0 ||
                 block_y == 16'd0 || block_z == 16'd0 || grid_x[31] ||
                 ctas_big_q) begin
      check_o = 4'(baresm_ring_pkg::DCHK_DIMS);
    end else if (threads_big_q) begin
      check_o = 4'(baresm_ring_pkg::DCHK_BLOCK_SIZE);
    end else if (regs == 8'd0 || 32'(regs) > 32'(MaxRegs) || regs > 8'd63) begin
      check_o = 4'(baresm_ring_pkg::DCHK_REGS);
    end else if (shared_bytes > 32'(SharedBytes)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_SHARED);
    end else if (regs_big) begin
      check_o = 4'(baresm_ring_pkg::DCHK_RESOURCES);
    end else if (code_size == 32'd0 || code_size[2:0] != 3'd0 || code_base[2:0] != 3'd0 ||
                 33'(code_base) + 33'(code_size) > MEM_END) begin
      check_o = 4'(baresm_ring_pkg::DCHK_CODE_RANGE);
    end else if (entry_pc[2:0] != 3'd0 || entry_pc < code_base ||
                 33'(entry_pc) >= 33'(code_base) + 33'(code_size)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_ENTRY_PC);
    end else if (33'(param_addr) + 33'(param_size) > MEM_END) begin
      check_o = 4'(baresm_ring_pkg::DCHK_PARAM_RANGE);
    end else if (32'(window_count) > 32'(MaxWindows)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_WINDOW_COUNT);
    end else if (window_count != 8'd0 &&
                 (window_table[2:0] != 3'd0 ||
                  33'(window_table) + (33'(window_count) << 3) > MEM_END)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_WINDOW_TABLE);
    end
  end

  // Fields the checks do not look at (the token, the watchdog budget).
  logic unused;
  assign unused = ^{desc_i[baresm_ring_pkg::DESC_TOKEN_LSB +: 64],
                    desc_i[baresm_ring_pkg::DESC_WATCHDOG_LSB +: 32]};

  // The verdict is never offered while a product is still being made.
  `BARESM_ASSERT(a_valid_done, !valid_o || (step_q == S_IDLE && mul_done))

endmodule

`default_nettype wire
