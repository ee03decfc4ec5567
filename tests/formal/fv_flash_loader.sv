// Formal proof: the iCEBreaker's SPI flash loader (baresm_flash_loader),
// MaxWords 4, WakeCycles 2; MISO free (any flash contents, any image). The
// properties are in tests/formal/flash_loader_inner.svh:
//   - SPI mode 0 as the header says: SCK low whenever CS is high (so it
//     toggles only while CS is low); CS changes only with SCK low before
//     and after; MOSI changes only with SCK's falling edge (stable across
//     every rising edge, where the flash samples it);
//   - the core is held (load_o.hold) until the image is in: released only
//     after a correct magic, a word count N in 1..MaxWords and exactly N
//     RAM writes; a wrong magic or N ends in error_o for good (until the
//     next reset), the core held;
//   - RAM writes only while held, one per image word, in order: the k-th
//     write has address k < N, made when exactly 32 (command) + 32 (magic)
//     + 32 (N) + 32 (k + 1) bits have been sampled on MISO since CS fell.
`include "baresm_mcu_types.svh"
`default_nettype none

module fv_flash_loader (
  input logic clk_i,
  input logic rst_ni,
  input logic spi_miso_i
);
  logic spi_sck_o, spi_csn_o, spi_mosi_o, error_o;
  baresm_fw_load_t load_o;

  baresm_flash_loader #(.MaxWords(4), .WakeCycles(2)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
`endif

  logic unused;
  assign unused = ^{spi_sck_o, spi_csn_o, spi_mosi_o, error_o, load_o};
endmodule

`default_nettype wire
