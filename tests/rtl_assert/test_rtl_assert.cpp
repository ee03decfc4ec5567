// The assertion mechanism (rtl/prim/baresm_assert.svh) under Verilator
// --assert: tb_assert_probe.sv with nothing violated runs to the end; each
// violated macro stops the simulation. The Violated* tests are expected to
// die: ctest runs them through check_assert_fails.cmake, which passes only
// when the process exits non-zero and printed the assertion's file:line,
// time, instance and name (tests/rtl_assert/CMakeLists.txt).
#include <gtest/gtest.h>

#include <memory>

#include "Vtb_assert_probe.h"
#include "verilated.h"

namespace {

// Runs the probe in the given mode for `cycles` clock cycles after reset,
// one time unit per cycle (so the time in a message is the cycle).
uint32_t run_probe(uint32_t mode, int cycles) {
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vtb_assert_probe>(ctx.get());
  top->mode_i = mode;
  top->rst_ni = 0;
  top->clk_i = 0;
  top->eval();
  top->rst_ni = 1;
  for (int c = 0; c < cycles; c++) {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    ctx->timeInc(1);
  }
  top->final();
  return top->count_o;
}

TEST(AssertProbe, NothingViolatedRunsToTheEnd) { EXPECT_EQ(run_probe(0, 40), 40u); }
TEST(AssertProbe, ViolatedAssert) { run_probe(1, 40); }
TEST(AssertProbe, ViolatedHeld) { run_probe(2, 40); }
TEST(AssertProbe, ViolatedPulse) { run_probe(3, 40); }

}  // namespace
