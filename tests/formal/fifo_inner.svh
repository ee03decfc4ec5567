// Internal properties of baresm_fifo for the proof fifo (appended inside the
// module by scripts/formal.sh); fv_fifo.sv says what they prove.
`ifdef FORMAL
  // ---- the RAM's words --------------------------------------------------------
  // fv_ram is the RAM's array, word k at [k*Width +: Width]: the proof's Yosys
  // script (scripts/formal.sh, proof fifo) maps the memory to flip-flops,
  // exposes them and drives this wire with them (Yosys 0.23 has no
  // hierarchical references).
  logic [Depth*Width-1:0] fv_ram;
  // The header's promise: a read never meets the write of the same address.
  always @* if (rst_ni) assert (!(push && load && wptr_q[AddrW-1:0] == rptr_q[AddrW-1:0]));

  // ---- occupancy, counted at the ports ----------------------------------------
  logic fv_in, fv_out;
  assign fv_in = in_valid_i && in_ready_o;
  assign fv_out = out_valid_o && out_ready_i;
  logic [AddrW+1:0] fv_n_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_n_q <= '0;
    else fv_n_q <= fv_n_q + (fv_in ? 1 : 0) - (fv_out ? 1 : 0);
  end
  always @* if (rst_ni) assert (fv_n_q == (AddrW + 2)'(count_o) + (out_valid_o ? 1 : 0));
  always @* if (rst_ni) assert (count_o <= (AddrW + 1)'(Depth));
  always @* if (rst_ni) assert (fv_n_q <= (AddrW + 2)'(Depth + 1));
  // Full exactly when the RAM holds Depth words: in_ready_o low then only.
  always @* if (rst_ni) assert (in_ready_o == (count_o != (AddrW + 1)'(Depth)));
  // Nothing is shown from an empty queue.
  always @* if (rst_ni && fv_n_q == '0) assert (!out_valid_o);

  // ---- timing -----------------------------------------------------------------
  logic fv_past_q, fv_fill_q, fv_empty_q;
  always_ff @(posedge clk_i) begin
    fv_past_q <= rst_ni;
    // The output is empty or taken while the RAM holds a word: loaded.
    fv_fill_q <= count_o != '0 && (!out_valid_o || out_ready_i);
    // Nothing left behind a taken (or absent) output: empty next.
    fv_empty_q <= count_o == '0 && (!out_valid_o || out_ready_i);
  end
  always @* if (rst_ni && fv_past_q && fv_fill_q) assert (out_valid_o);
  always @* if (rst_ni && fv_past_q && fv_empty_q) assert (!out_valid_o);

  // ---- order: one tracked word ------------------------------------------------
  // The solver picks when (fv_pick with a push); the word, the RAM slot it
  // went to and the words ahead of it (in the RAM and the output register)
  // are recorded; each pop passes one of them. When none is ahead and the
  // output is valid, the output is the tracked word.
  (* anyseq *) logic fv_pick;
  logic fv_armed_q;
  logic [Width-1:0] fv_data_q;
  logic [AddrW-1:0] fv_slot_q;
  logic [AddrW+1:0] fv_ahead_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_armed_q <= 1'b0;
    end else if (!fv_armed_q) begin
      if (fv_in && fv_pick) begin
        fv_armed_q <= 1'b1;
        fv_data_q <= in_data_i;
        fv_slot_q <= wptr_q[AddrW-1:0];
        fv_ahead_q <= fv_n_q - (fv_out ? 1 : 0);
      end
    end else if (fv_out) begin
      if (fv_ahead_q == '0) fv_armed_q <= 1'b0;   // the tracked word is taken
      else fv_ahead_q <= fv_ahead_q - 1'b1;
    end
  end
  // The property.
  always @* if (rst_ni && fv_armed_q && fv_ahead_q == '0 && out_valid_o)
    assert (out_data_o == fv_data_q);
  // Induction invariants: the tracked word is behind fv_ahead_q others,
  // in the RAM at rptr_q + (words ahead in the RAM) unless in the output.
  logic [AddrW+1:0] fv_in_ram;
  assign fv_in_ram = fv_ahead_q - (out_valid_o ? 1 : 0);
  always @* if (rst_ni && fv_armed_q) assert (fv_ahead_q < fv_n_q);
  always @* if (rst_ni && fv_armed_q && !(fv_ahead_q == '0 && out_valid_o))
    assert (fv_in_ram < (AddrW + 2)'(count_o));
  always @* if (rst_ni && fv_armed_q && !(fv_ahead_q == '0 && out_valid_o))
    assert (AddrW'(rptr_q[AddrW-1:0] + fv_in_ram[AddrW-1:0]) == fv_slot_q);
  always @* if (rst_ni && fv_armed_q && !(fv_ahead_q == '0 && out_valid_o))
    assert (fv_ram[32'(fv_slot_q)*Width +: Width] == fv_data_q);
`endif
