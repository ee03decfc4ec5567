// main() of the cosim test programs. libsystemc wants an sc_main (defined in
// sim/systemc/testbench.cpp); the tests drive the kernel themselves, through
// the testbench, from GoogleTest's thread.
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
