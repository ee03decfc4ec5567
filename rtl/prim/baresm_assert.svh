// baresm_assert.svh: the assertion macros of the RTL, one set for every tool
// (the per-tool branches follow lowRISC ibex's prim_assert.sv).
//
//   `BARESM_ASSERT(name, cond)        cond holds at every rising clk_i while
//                                     rst_ni is high (the module's own clock
//                                     and reset, named as CONVENTIONS.md says)
//   `BARESM_ASSERT_CLK(name, cond, clk, rst_n)   the same on another clock/reset
//   `BARESM_ASSERT_KNOWN(name, sig)   sig has no X/Z bit at every rising clk_i
//                                     out of reset (4-state simulators; Verilator
//                                     and formal are 2-state, so nothing there)
//   `BARESM_ASSERT_HELD(name, valid, ready, payload)   valid/ready handshake:
//                                     an offer not taken (valid && !ready)
//                                     is offered again next cycle with the
//                                     same payload (any expression or {...})
//   `BARESM_ASSERT_PULSE(name, sig)   sig is never high two cycles in a row
//                                     (done/start pulses)
//   `BARESM_ASSUME_HELD(name, valid, ready, payload)   the same as
//                                     BARESM_ASSERT_HELD, for an input handshake
//   `BARESM_ASSUME(name, cond)        a property of the block's environment:
//                                     assumed under FORMAL, checked like an
//                                     assertion in simulation
//
// `name` is a unique identifier in the module (a_... by convention); it names
// the assertion in the failure message and in formal traces. Conditions are
// sampled at the clock edge (the values the flops see), so combinational
// glitches never fire them.
//
// Branches, in this order:
//   FORMAL     (yosys read_verilog -formal; Yosys also defines SYNTHESIS):
//              immediate assert/assume inside always @(posedge clk), in a
//              block named `name` (a label on the assert itself would clash
//              between the iterations of a generate loop in Yosys 0.23).
//   SYNTHESIS  (yosys read_verilog -sv, other synthesis tools): nothing.
//   VERILATOR  immediate `assert (cond) else $error(...)` inside always
//              @(posedge clk), in a block named `name` (why not concurrent
//              SVA: at the branch); active only with --assert.
//              A failure prints "%Error: file:line: Assertion failed in
//              <instance>: [time] <instance>: <name> failed: <cond>", then
//              the $stop that follows an $error aborts the process (exit 134).
//   otherwise  (Icarus 11 -g2012, other simulators): an always block that
//              prints the same message with $error and ends the run with
//              $fatal (non-zero exit status).
`ifndef BARESM_ASSERT_SVH
`define BARESM_ASSERT_SVH

`ifdef FORMAL

`define BARESM_ASSERT_CLK(name, cond, clk, rst_n) \
  always @(posedge clk) begin : name \
    if (rst_n) assert (cond); \
  end
`define BARESM_ASSUME_CLK(name, cond, clk, rst_n) \
  always @(posedge clk) begin : name \
    if (rst_n) assume (cond); \
  end
`define BARESM_ASSERT_KNOWN_CLK(name, sig, clk, rst_n)
`define BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk, rst_n) \
  always @(posedge clk) begin : name \
    if ((rst_n) && $past(rst_n) && $past((valid) && !(ready))) \
      assert ((valid) && (payload) == $past(payload)); \
  end
`define BARESM_ASSUME_HELD_CLK(name, valid, ready, payload, clk, rst_n) \
  always @(posedge clk) begin : name \
    if ((rst_n) && $past(rst_n) && $past((valid) && !(ready))) \
      assume ((valid) && (payload) == $past(payload)); \
  end
`define BARESM_ASSERT_PULSE_CLK(name, sig, clk, rst_n) \
  always @(posedge clk) begin : name \
    if ((rst_n) && $past(rst_n) && $past(sig)) assert (!(sig)); \
  end

`elsif SYNTHESIS

`define BARESM_ASSERT_CLK(name, cond, clk, rst_n)
`define BARESM_ASSUME_CLK(name, cond, clk, rst_n)
`define BARESM_ASSERT_KNOWN_CLK(name, sig, clk, rst_n)
`define BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk, rst_n)
`define BARESM_ASSUME_HELD_CLK(name, valid, ready, payload, clk, rst_n)
`define BARESM_ASSERT_PULSE_CLK(name, sig, clk, rst_n)

`elsif VERILATOR

// Immediate asserts at the clock edge, not concurrent SVA: Verilator keeps a
// sampled copy of every signal a concurrent assertion reads and refreshes it
// on every clock (about a fifth of an idle SM cycle, docs/cosim.md). In an
// always @(posedge clk) block the flops are read before they update, which
// is what the concurrent form samples. A HELD check copies its payload only
// while an offer waits.
`define BARESM_ASSERT_CLK(name, cond, clk, rst_n) \
  if (1) begin : name \
    always @(posedge clk) begin \
      if (rst_n) assert (cond) else $error("[%0t] %m: %s failed: %s", $time, `"name`", `"cond`"); \
    end \
  end
`define BARESM_ASSUME_CLK(name, cond, clk, rst_n) \
  if (1) begin : name \
    always @(posedge clk) begin \
      if (rst_n) assert (cond) \
      else $error("[%0t] %m: %s (assumption) failed: %s", $time, `"name`", `"cond`"); \
    end \
  end
`define BARESM_ASSERT_KNOWN_CLK(name, sig, clk, rst_n)
`define BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk, rst_n) \
  if (1) begin : name \
    logic held_q = 1'b0; \
    logic [$bits(payload)-1:0] payload_q; \
    always @(posedge clk) begin \
      if ((rst_n) && held_q) assert ((valid) && (payload) == payload_q) \
      else $error("[%0t] %m: %s failed: %s dropped or its data changed while not %s", \
                  $time, `"name`", `"valid`", `"ready`"); \
      held_q <= (rst_n) && (valid) && !(ready); \
      if ((valid) && !(ready)) payload_q <= payload; \
    end \
  end
`define BARESM_ASSUME_HELD_CLK(name, valid, ready, payload, clk, rst_n) \
  `BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk, rst_n)
`define BARESM_ASSERT_PULSE_CLK(name, sig, clk, rst_n) \
  if (1) begin : name \
    logic was_q = 1'b0; \
    always @(posedge clk) begin \
      if ((rst_n) && was_q) assert (!(sig)) \
      else $error("[%0t] %m: %s failed: %s high for more than one cycle", $time, `"name`", `"sig`"); \
      was_q <= (rst_n) && (sig); \
    end \
  end

`else

`define BARESM_ASSERT_CLK(name, cond, clk, rst_n) \
  always @(posedge clk) begin : name \
    if ((rst_n) && !(cond)) begin \
      $error("%s:%0d: [%0t] %m: %s failed: %s", `__FILE__, `__LINE__, $time, `"name`", `"cond`"); \
      $fatal(1, "assertion failed"); \
    end \
  end
`define BARESM_ASSUME_CLK(name, cond, clk, rst_n) \
  always @(posedge clk) begin : name \
    if ((rst_n) && !(cond)) begin \
      $error("[%0t] %m: %s (assumption) failed: %s", $time, `"name`", `"cond`"); \
      $fatal(1, "assumption failed"); \
    end \
  end
`define BARESM_ASSERT_KNOWN_CLK(name, sig, clk, rst_n) \
  always @(posedge clk) begin : name \
    if ((rst_n) && $isunknown(sig)) begin \
      $error("[%0t] %m: %s failed: %s has X/Z bits", $time, `"name`", `"sig`"); \
      $fatal(1, "assertion failed"); \
    end \
  end
`define BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk, rst_n) \
  if (1) begin : name \
    logic held_q = 1'b0; \
    logic [$bits(payload)-1:0] payload_q; \
    always @(posedge clk) begin \
      if ((rst_n) && held_q && !((valid) && (payload) == payload_q)) begin \
        $error("%s:%0d: [%0t] %m: %s failed: %s dropped or its data changed while not %s", \
               `__FILE__, `__LINE__, $time, `"name`", `"valid`", `"ready`"); \
        $fatal(1, "assertion failed"); \
      end \
      held_q <= (rst_n) && (valid) && !(ready); \
      payload_q <= payload; \
    end \
  end
`define BARESM_ASSUME_HELD_CLK(name, valid, ready, payload, clk, rst_n) \
  `BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk, rst_n)
`define BARESM_ASSERT_PULSE_CLK(name, sig, clk, rst_n) \
  if (1) begin : name \
    logic was_q = 1'b0; \
    always @(posedge clk) begin \
      if ((rst_n) && was_q && (sig)) begin \
        $error("%s:%0d: [%0t] %m: %s failed: %s high for more than one cycle", \
               `__FILE__, `__LINE__, $time, `"name`", `"sig`"); \
        $fatal(1, "assertion failed"); \
      end \
      was_q <= (rst_n) && (sig); \
    end \
  end

`endif

`define BARESM_ASSERT(name, cond) `BARESM_ASSERT_CLK(name, cond, clk_i, rst_ni)
`define BARESM_ASSUME(name, cond) `BARESM_ASSUME_CLK(name, cond, clk_i, rst_ni)
`define BARESM_ASSERT_KNOWN(name, sig) `BARESM_ASSERT_KNOWN_CLK(name, sig, clk_i, rst_ni)
`define BARESM_ASSERT_HELD(name, valid, ready, payload) \
  `BARESM_ASSERT_HELD_CLK(name, valid, ready, payload, clk_i, rst_ni)
`define BARESM_ASSUME_HELD(name, valid, ready, payload) \
  `BARESM_ASSUME_HELD_CLK(name, valid, ready, payload, clk_i, rst_ni)
`define BARESM_ASSERT_PULSE(name, sig) `BARESM_ASSERT_PULSE_CLK(name, sig, clk_i, rst_ni)

`endif  // BARESM_ASSERT_SVH
