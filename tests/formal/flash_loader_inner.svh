// Internal properties of baresm_flash_loader for the proof flash_loader
// (appended inside the module by scripts/formal.sh); fv_flash_loader.sv
// says what they prove.
`ifdef FORMAL
  // ---- the bus, sampled at the ports ------------------------------------------
  logic fv_past_q, fv_sck_q, fv_csn_q, fv_mosi_q;
  always_ff @(posedge clk_i) begin
    fv_past_q <= rst_ni;
    fv_sck_q <= spi_sck_o;
    fv_csn_q <= spi_csn_o;
    fv_mosi_q <= spi_mosi_o;
  end
  always @* if (rst_ni && spi_csn_o) assert (!spi_sck_o);
  // CS falls with SCK low before and after; it rises with SCK low after (it
  // may rise with SCK's falling edge, half a period after the last rising
  // edge, as at the end of the wake command).
  always @* if (rst_ni && fv_past_q && !spi_csn_o && fv_csn_q) assert (!spi_sck_o && !fv_sck_q);
  always @* if (rst_ni && fv_past_q && spi_csn_o && !fv_csn_q) assert (!spi_sck_o);
  always @* if (rst_ni && fv_past_q && !spi_csn_o && !fv_csn_q && spi_mosi_o != fv_mosi_q)
    assert (fv_sck_q && !spi_sck_o);
  // MISO samples since CS fell: the cycles with CS low and SCK low (the
  // loader raises SCK after each).
  logic [15:0] fv_bits_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_bits_q <= '0;
    else if (spi_csn_o) fv_bits_q <= '0;
    else if (!spi_sck_o) fv_bits_q <= fv_bits_q + 16'd1;
  end

  // ---- the image's checks, recomputed -----------------------------------------
  logic fv_magic_q, fv_nok_q, fv_bad_q;
  logic [15:0] fv_n_q, fv_wr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_magic_q <= 1'b0;
      fv_nok_q <= 1'b0;
      fv_bad_q <= 1'b0;
      fv_n_q <= '0;
      fv_wr_q <= '0;
    end else begin
      if (word_in && word_q == 16'hFFFE) begin
        fv_magic_q <= in_q == Magic;
        if (in_q != Magic) fv_bad_q <= 1'b1;
      end
      if (word_in && word_q == 16'hFFFF) begin
        fv_n_q <= in_q[15:0];
        fv_nok_q <= in_q != 32'd0 && in_q <= 32'(MaxWords);
        if (in_q == 32'd0 || in_q > 32'(MaxWords)) fv_bad_q <= 1'b1;
      end
      if (load_o.we) fv_wr_q <= fv_wr_q + 16'd1;
    end
  end
  // Released only with the whole image written.
  always @* if (rst_ni && !load_o.hold) assert (fv_magic_q && fv_nok_q && fv_wr_q == fv_n_q);
  // A bad image: in error, held, for good.
  always @* if (rst_ni && fv_bad_q) assert (error_o && load_o.hold);
  // Writes: while held, each image word once, in order, below N, at its
  // place in the bit stream.
  always @* if (rst_ni && load_o.we)
    assert (load_o.hold && fv_magic_q && fv_nok_q && load_o.addr == fv_wr_q && load_o.addr < fv_n_q);
  always @* if (rst_ni && load_o.we) assert (fv_bits_q == 16'd32 * (load_o.addr + 16'd4));

  // ---- induction invariants ---------------------------------------------------
  always @* if (rst_ni) assert (st_q == L_WAKE || st_q == L_REST || st_q == L_READ || st_q == L_DONE ||
                                st_q == L_ERROR);
  always @* if (rst_ni && st_q == L_WAKE) assert (cmd_bit_q <= 5'd7 && cmd_q && word_q == 16'hFFFE &&
                                                  byte_q == 2'd0 && bitn_q == 3'd0);
  always @* if (rst_ni && st_q == L_WAKE && csn_q) assert (!sck_q && cmd_bit_q == 5'd0);
  always @* if (rst_ni && st_q == L_WAKE) assert (rest_q == '0);
  always @* if (rst_ni && st_q == L_REST) assert (csn_q && !sck_q && cmd_bit_q == 5'd0 && cmd_q &&
                                                  word_q == 16'hFFFE && byte_q == 2'd0 && bitn_q == 3'd0 &&
                                                  32'(rest_q) <= WakeCycles);
  always @* if (rst_ni && st_q == L_READ) assert (!csn_q);
  always @* if (rst_ni && st_q == L_READ && cmd_q)
    assert (fv_bits_q == 16'(cmd_bit_q) + (sck_q ? 16'd1 : 16'd0) && word_q == 16'hFFFE && byte_q == 2'd0 &&
            bitn_q == 3'd0);
  always @* if (rst_ni && st_q == L_READ && !cmd_q)
    assert (cmd_bit_q == 5'd0 &&
            fv_bits_q == 16'd32 + 16'd32 * (word_q + 16'd2) + 16'd8 * 16'(byte_q) + 16'(bitn_q) +
                         ((sck_q && bitn_q == 3'd0 && byte_q == 2'd0) ? 16'd32 : 16'd0));
  always @* if (rst_ni && (st_q == L_READ || st_q == L_DONE)) assert (!fv_bad_q);
  always @* if (rst_ni && st_q == L_ERROR) assert (fv_bad_q && !sck_q);
  always @* if (rst_ni && st_q == L_DONE) assert (!sck_q);
  always @* if (rst_ni && st_q != L_READ && st_q != L_DONE) assert (fv_wr_q == 16'd0);
  always @* if (rst_ni && st_q == L_READ && word_q[15:14] == 2'b11) assert (word_q[15:1] == 15'h7FFF && fv_wr_q == 16'd0);
  always @* if (rst_ni && st_q == L_READ && word_q == 16'hFFFF) assert (fv_magic_q);
  always @* if (rst_ni && st_q == L_READ && word_q[15:14] != 2'b11)
    assert (fv_magic_q && fv_nok_q && fv_n_q >= 16'd1 && fv_n_q <= 16'(MaxWords) && last_q == fv_n_q - 16'd1 &&
            word_q <= last_q && fv_wr_q == word_q);
  always @* if (rst_ni && st_q == L_DONE) assert (fv_magic_q && fv_nok_q && fv_wr_q == fv_n_q);
`endif
