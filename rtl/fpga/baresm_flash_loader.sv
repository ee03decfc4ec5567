// baresm_flash_loader: copies the whole device's firmware from the board's
// SPI flash into the control core's RAM after reset, holding the core in
// reset until it is there (docs/fpga.md "Flashing"). The iCEBreaker's 30 EBR
// cannot hold the firmware (about 23 KB), and SPRAM has no contents at
// configuration, so the image lives in the flash beside the bitstream, at
// FlashOffset (scripts/fw-flash-image.sh writes it, scripts/flash.sh puts it
// there with `iceprog -o`).
//
// The image: word 0 the magic "BSFW" (0x57465342), word 1 the number of
// words N (1..MaxWords), then the N words of the firmware (fw/dev/dev.hex),
// each little-endian. The loader wakes the flash (0xAB: release from deep
// power-down, then WakeCycles of rest), reads from FlashOffset (0x03, a
// 24-bit address, then bytes for as long as the chip select stays low) and
// writes each word to the RAM. SPI mode 0 at half the clock (6 MHz on the
// iCEBreaker): the flash samples MOSI on SCK's rising edge and shifts MISO
// out on its falling edge; the loader samples MISO when it raises SCK, one
// clock after the flash changed it.
//
// A wrong magic or N outside 1..MaxWords (a board whose flash holds no
// firmware) ends in error_o, the core still held: nothing runs.
`default_nettype none
`include "baresm_mcu_types.svh"

module baresm_flash_loader #(
  parameter logic [23:0] FlashOffset = 24'h100000,  // 1 MiB: above any UP5K bitstream (104 KB)
  parameter int MaxWords = 16384,                   // the firmware RAM's words
  parameter int WakeCycles = 48                     // tRES1: 3 us at 12 MHz, and some
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  output logic            spi_sck_o,
  output logic            spi_csn_o,
  output logic            spi_mosi_o,
  input  logic            spi_miso_i,
  output baresm_fw_load_t load_o,     // hold until done; a write per word
  output logic            error_o
);

  localparam logic [31:0] Magic = 32'h5746_5342;   // "BSFW" as little-endian bytes
  localparam logic [31:0] WakeCmd = {8'hAB, 24'd0};
  localparam logic [31:0] ReadCmd = {8'h03, FlashOffset};

  typedef enum logic [2:0] {L_WAKE, L_REST, L_READ, L_DONE, L_ERROR} state_e;
  state_e st_q;
  logic sck_q, csn_q;
  logic [4:0] cmd_bit_q;        // the command's bit on MOSI, from its MSB
  logic cmd_q;                  // in the command phase (0xAB, or 0x03 + address)
  logic [31:0] in_q;            // the word being read: bytes LSB first, bits MSB first
  logic [1:0] byte_q;           // the byte of the word the next bits belong to
  logic [2:0] bitn_q;           // bits read of that byte
  logic [15:0] word_q;          // the word being read: -2 magic, -1 N, then the image's 0..N-1
  logic [15:0] last_q;          // N - 1
  logic [$clog2(WakeCycles + 1)-1:0] rest_q;

  // The byte being shifted in, completed by this bit.
  logic [7:0] in_byte;
  assign in_byte = {in_q[byte_q*8 +: 7], spi_miso_i};
  // A word has come in whole: the falling edge after its last bit.
  logic word_in;
  assign word_in = st_q == L_READ && sck_q && !cmd_q && bitn_q == 3'd0 && byte_q == 2'd0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= L_WAKE;
      sck_q <= 1'b0;
      csn_q <= 1'b1;
      cmd_bit_q <= '0;
      cmd_q <= 1'b1;
      in_q <= '0;
      byte_q <= '0;
      bitn_q <= '0;
      word_q <= 16'hFFFE;
      last_q <= '0;
      rest_q <= '0;
    end else begin
      unique case (st_q)
        // Wake: 0xAB, eight bits with chip select low.
        L_WAKE: begin
          if (csn_q) begin
            csn_q <= 1'b0;
          end else begin
            sck_q <= !sck_q;
            if (sck_q) begin
              cmd_bit_q <= cmd_bit_q + 5'd1;
              if (cmd_bit_q == 5'd7) begin
                csn_q <= 1'b1;
                cmd_bit_q <= '0;
                st_q <= L_REST;
              end
            end
          end
        end
        L_REST: begin
          rest_q <= rest_q + 1'b1;
          if (32'(rest_q) == WakeCycles) begin
            st_q <= L_READ;
            csn_q <= 1'b0;
          end
        end
        // Read: 32 command bits out, then words in until the image's end.
        L_READ: begin
          sck_q <= !sck_q;
          if (!sck_q) begin
            if (!cmd_q) begin
              in_q[byte_q*8 +: 8] <= in_byte;
              bitn_q <= bitn_q + 3'd1;
              if (bitn_q == 3'd7) byte_q <= byte_q + 2'd1;
            end
          end else if (cmd_q) begin
            cmd_bit_q <= cmd_bit_q + 5'd1;
            if (cmd_bit_q == 5'd31) cmd_q <= 1'b0;
          end else if (word_in) begin
            word_q <= word_q + 16'd1;
            if (word_q == 16'hFFFE) begin
              if (in_q != Magic) st_q <= L_ERROR;
            end else if (word_q == 16'hFFFF) begin
              last_q <= in_q[15:0] - 16'd1;
              if (in_q == 32'd0 || in_q > 32'(MaxWords)) st_q <= L_ERROR;
            end else if (word_q == last_q) begin
              st_q <= L_DONE;
            end
          end
        end
        L_DONE, L_ERROR: csn_q <= 1'b1;
        default: st_q <= L_ERROR;
      endcase
    end
  end

  assign spi_sck_o = sck_q;
  assign spi_csn_o = csn_q;
  logic [31:0] cmd_word;
  assign cmd_word = (st_q == L_WAKE) ? WakeCmd : ReadCmd;
  assign spi_mosi_o = cmd_word[~cmd_bit_q];
  // Each word of the image is written the cycle it is whole.
  assign load_o.hold = st_q != L_DONE;
  assign load_o.we = word_in && word_q[15:14] != 2'b11;
  assign load_o.addr = word_q;
  assign load_o.data = in_q;
  assign error_o = st_q == L_ERROR;

endmodule

`default_nettype wire
