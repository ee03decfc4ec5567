// Writes FPU test vectors with their golden results, for the Icarus
// testbench (tb_fpu_icarus.sv): one line per operation, hex, fields
// op(8) mod(8) a(32) b(32) c(32) result(32) cmp(4).
//   fpu_vectors <count> <seed> <out.hex>
#include <cstdio>
#include <cstdlib>

#include "fpu_stimulus.h"

using namespace baresm::fpu_tb;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <count> <seed> <out.hex>\n", argv[0]);
    return 2;
  }
  const long count = std::atol(argv[1]);
  Gen g(std::strtoull(argv[2], nullptr, 0));
  std::FILE* f = std::fopen(argv[3], "w");
  if (!f) {
    std::perror(argv[3]);
    return 1;
  }
  for (long i = 0; i < count; ++i) {
    const FpuOp o = g.op();
    const Expected e = golden(o);
    std::fprintf(f, "%02x%02x%08x%08x%08x%08x%01x\n", unsigned(o.op), unsigned(o.mod),
                 unsigned(o.a), unsigned(o.b), unsigned(o.c), unsigned(e.result),
                 unsigned(e.cmp));
  }
  return std::fclose(f) == 0 ? 0 : 1;
}
