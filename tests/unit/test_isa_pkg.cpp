// The SystemVerilog ISA package must be exactly what the opcode table generates.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST(IsaPkg, CommittedPackageMatchesOpcodeTable) {
  const std::string committed = slurp(BARESM_SOURCE_DIR "/rtl/sm/baresm_isa_pkg.sv");
  ASSERT_FALSE(committed.empty()) << "rtl/sm/baresm_isa_pkg.sv is missing";
  const std::string out = ::testing::TempDir() + "/baresm_isa_pkg.sv";
  const std::string cmd = std::string(GEN_ISA_PKG) + " " + out;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  EXPECT_EQ(slurp(out), committed)
      << "rtl/sm/baresm_isa_pkg.sv is stale: run `make isa-pkg` and commit the result";
}
