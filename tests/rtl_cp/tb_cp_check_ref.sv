// The combinational descriptor checks as they were before the serial
// multiplier (baresm_cp_check at 6b6e700, renamed): the reference
// tb_cp_check compares the sequential block against, verdict for verdict.
`default_nettype none

module tb_cp_check_ref #(
  parameter int NumWarps = 16,
  parameter int MaxRegs = 63,
  parameter int SharedBytes = 32768,
  parameter int RegfileRegs = 16384,
  parameter int MaxWindows = 4,
  parameter int MemBytes = 4194304
) (
  input  logic [511:0] desc_i,
  output logic         marker_o,
  output logic [3:0]   check_o      // baresm_ring_pkg::DCHK_*
);

  localparam logic [63:0] MEM_END = 64'(MemBytes);
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

  logic [63:0] ctas;       // grid_x * grid_y * grid_z
  logic [47:0] threads;    // block_x * block_y * block_z
  logic [47:0] warps;      // threads rounded up to whole warps
  logic [63:0] cta_regs;   // registers one CTA needs
  assign ctas = (64'(grid_x) * 64'(grid_y)) * 64'(grid_z);
  assign threads = (48'(block_x) * 48'(block_y)) * 48'(block_z);
  assign warps = (threads + 48'd31) >> 5;
  assign cta_regs = 64'(warps) * 64'd32 * 64'(regs);

  logic [7:0] known_flags;
  assign known_flags = 8'(baresm_ring_pkg::DESC_FLAGS_KNOWN);
  assign marker_o = flags[0];

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
                 ctas > 64'h0000_0000_FFFF_FFFF) begin
      check_o = 4'(baresm_ring_pkg::DCHK_DIMS);
    end else if (threads > 48'(BLOCK_MAX)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_BLOCK_SIZE);
    end else if (regs == 8'd0 || 32'(regs) > 32'(MaxRegs) || regs > 8'd63) begin
      check_o = 4'(baresm_ring_pkg::DCHK_REGS);
    end else if (shared_bytes > 32'(SharedBytes)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_SHARED);
    end else if (cta_regs > 64'(RegfileRegs)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_RESOURCES);
    end else if (code_size == 32'd0 || code_size[2:0] != 3'd0 || code_base[2:0] != 3'd0 ||
                 64'(code_base) + 64'(code_size) > MEM_END) begin
      check_o = 4'(baresm_ring_pkg::DCHK_CODE_RANGE);
    end else if (entry_pc[2:0] != 3'd0 || entry_pc < code_base ||
                 64'(entry_pc) >= 64'(code_base) + 64'(code_size)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_ENTRY_PC);
    end else if (64'(param_addr) + 64'(param_size) > MEM_END) begin
      check_o = 4'(baresm_ring_pkg::DCHK_PARAM_RANGE);
    end else if (32'(window_count) > 32'(MaxWindows)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_WINDOW_COUNT);
    end else if (window_count != 8'd0 &&
                 (window_table[2:0] != 3'd0 ||
                  64'(window_table) + 64'(window_count) * 64'd8 > MEM_END)) begin
      check_o = 4'(baresm_ring_pkg::DCHK_WINDOW_TABLE);
    end
  end

  // Fields the checks do not look at (the token, the watchdog budget).
  logic unused;
  assign unused = ^{desc_i[baresm_ring_pkg::DESC_TOKEN_LSB +: 64],
                    desc_i[baresm_ring_pkg::DESC_WATCHDOG_LSB +: 32]};

endmodule

`default_nettype wire
