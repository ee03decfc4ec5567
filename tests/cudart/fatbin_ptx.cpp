// fatbin_ptx BINARY: prints the PTX of every fatbinary in BINARY's
// .nv_fatbin section (check-bins.sh compares it with nvcc -ptx of the source).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "cudart/fatbin.h"

using namespace baresm::cudart;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fatbin_ptx BINARY\n");
    return 2;
  }
  std::ifstream f(argv[1], std::ios::binary);
  const std::vector<uint8_t> elf(std::istreambuf_iterator<char>(f), {});
  size_t off = 0, size = 0;
  std::string err, ptx;
  std::vector<Fatbin> all;
  if (!elf_section(elf, ".nv_fatbin", &off, &size, &err) || !parse_fatbin_section(&elf[off], size, &all, &err)) {
    std::fprintf(stderr, "fatbin_ptx: %s: %s\n", argv[1], err.c_str());
    return 1;
  }
  for (const Fatbin& fb : all)
    for (const FatbinEntry& e : fb.entries) {
      if (e.kind != kEntryPtx) continue;
      if (!entry_ptx(fb, e, &ptx, &err)) {
        std::fprintf(stderr, "fatbin_ptx: %s: %s\n", argv[1], err.c_str());
        return 1;
      }
      std::fwrite(ptx.data(), 1, ptx.size(), stdout);
      if (!ptx.empty() && ptx.back() != '\n') std::fputc('\n', stdout);
    }
  return 0;
}
