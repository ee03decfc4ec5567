// tb_assert_probe: a tiny module that uses every macro of
// rtl/prim/baresm_assert.svh and breaks one of them on request, so that
// tests/rtl_assert can show what a failing assertion does to a test: the
// message (file:line, time, instance, name, condition) and a non-zero exit.
//   mode_i 0: nothing is violated
//          1: BARESM_ASSERT (a_count_limit) fails when count_q reaches 5
//          2: BARESM_ASSERT_HELD (a_req_held) fails: the request drops
//             while not ready (cycle 7)
//          3: BARESM_ASSERT_PULSE (a_done_pulse) fails: done two cycles long
//             (cycles 9 and 10)
`include "baresm_assert.svh"
`default_nettype none

module tb_assert_probe (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [1:0] mode_i,
  output logic [7:0] count_o
);

  logic [7:0] count_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else count_q <= count_q + 8'd1;
  end
  assign count_o = count_q;

  // A request offered at cycles 4..8, taken at 8 (mode 2 withdraws it at 7).
  logic req_valid, req_ready, done;
  logic [7:0] req_data;
  assign req_valid = count_q >= 8'd4 && count_q <= 8'd8 && !(mode_i == 2'd2 && count_q == 8'd7);
  assign req_ready = count_q == 8'd8;
  assign req_data = 8'hA5;
  // A done pulse at cycle 9 (mode 3: cycles 9 and 10).
  assign done = count_q == 8'd9 || (mode_i == 2'd3 && count_q == 8'd10);

  `BARESM_ASSERT(a_count_limit, mode_i != 2'd1 || count_q < 8'd5)
  `BARESM_ASSERT_HELD(a_req_held, req_valid, req_ready, req_data)
  `BARESM_ASSERT_PULSE(a_done_pulse, done)
  `BARESM_ASSUME_HELD(m_mode_stable, 1'b1, 1'b0, mode_i)   // mode_i never changes
  `BARESM_ASSERT_KNOWN(a_count_known, count_q)

endmodule

`default_nettype wire
