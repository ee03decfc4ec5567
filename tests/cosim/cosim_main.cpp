// main() of the cosim test programs. libsystemc wants an sc_main (defined in
// sim/systemc/testbench.cpp); the tests drive the kernel themselves, through
// the testbench, from GoogleTest's thread.
//
// BARESM_ASSERTS=0 in the environment turns the RTL's assertions off at run
// time (they are compiled in, --assert): to see what a test does on its own
// when the device misbehaves, e.g. that its waits are bounded.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "verilated.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* asserts = std::getenv("BARESM_ASSERTS");
  if (asserts && std::strcmp(asserts, "0") == 0) Verilated::assertOn(false);
  return RUN_ALL_TESTS();
}
