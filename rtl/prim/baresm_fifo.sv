// baresm_fifo: a first-in first-out queue of Depth words of Width bits in one
// baresm_ram_1r1w (one iCE40 EBR at 512 x 8), with valid/ready on both sides.
//   in:   a word is taken when in_valid_i and in_ready_o (not full).
//   out:  out_valid_o with out_data_o, the oldest word, held until taken
//         (out_ready_i). The output is the RAM's read register: a word
//         written into an empty queue shows two cycles later; a taken word
//         is followed by the next one on the next cycle (no bubble).
//   count_o: the words in the RAM behind the output (out_valid_o adds one).
// Depth: a power of two. Pointers one bit wider than the RAM's address tell
// full from empty; a read never meets the write of the same address (a full
// queue takes no word), so the RAM's undefined read-during-write is never seen.
`include "baresm_assert.svh"
`default_nettype none

module baresm_fifo #(
  parameter int Depth = 512,
  parameter int Width = 8,
  parameter int AddrW = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o,
  output logic [AddrW:0]   count_o
);

  logic [AddrW:0] wptr_q, rptr_q, count;
  logic out_valid_q, push, load;

  assign count = wptr_q - rptr_q;
  assign in_ready_o = !count[AddrW];
  assign push = in_valid_i && in_ready_o;
  // The output register takes the next word when it is empty or being taken.
  assign load = (count != '0) && (!out_valid_q || out_ready_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
      out_valid_q <= 1'b0;
    end else begin
      if (push) wptr_q <= wptr_q + 1'b1;
      if (load) rptr_q <= rptr_q + 1'b1;
      if (load) out_valid_q <= 1'b1;
      else if (out_ready_i) out_valid_q <= 1'b0;
    end
  end

  baresm_ram_1r1w #(
    .Depth(Depth),
    .Width(Width)
  ) u_ram (
    .clk_i,
    .re_i   (load),
    .raddr_i(rptr_q[AddrW-1:0]),
    .rdata_o(out_data_o),
    .we_i   (push),
    .waddr_i(wptr_q[AddrW-1:0]),
    .wmask_i(1'b1),
    .wdata_i(in_data_i)
  );

  assign out_valid_o = out_valid_q;
  assign count_o = count;

  `BARESM_ASSERT(a_fifo_pow2, (1 << AddrW) == Depth)
  `BARESM_ASSERT(a_fifo_count, count <= (AddrW + 1)'(Depth))
  `BARESM_ASSERT_HELD(a_fifo_out_held, out_valid_o, out_ready_i, out_data_o)

endmodule

`default_nettype wire
