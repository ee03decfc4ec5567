// Writes the committed seed corpora (tests/fuzz/corpus/<target>/) from the
// kernel sources: for asm the sources themselves plus edge cases, for ptx
// kernels/cuda/*.ptx and tests/ptx/*.ptx plus edge cases, for module
// the images assembled from them plus damaged and unusual ones, for disasm
// their code in fuzz_disasm_input.h's format. Deterministic: rerunning it on
// an unchanged tree changes no file (scripts/fuzz.sh seeds).
// Usage: make_seeds SOURCE_DIR OUT_DIR
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/module.h"
#include "isa/ptx.h"
#include "tests/fuzz/fuzz_disasm_input.h"
#include "tests/fuzz/fuzz_image.h"

using namespace baresm;
namespace fs = std::filesystem;

namespace {

int failures = 0;

void write(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << bytes;
  if (!f) {
    std::fprintf(stderr, "make_seeds: cannot write %s\n", p.c_str());
    ++failures;
  }
}
void write(const fs::path& p, const std::vector<uint8_t>& b) {
  write(p, std::string(b.begin(), b.end()));
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

isa::Module assembled(const std::string& src, const std::string& name) {
  isa::AsmResult r = isa::assemble(src, name);
  if (!r.ok()) {
    std::fprintf(stderr, "make_seeds: %s does not assemble:\n%s", name.c_str(), r.format_errors().c_str());
    ++failures;
  }
  return r.module;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds SOURCE_DIR OUT_DIR\n");
    return 2;
  }
  const fs::path root = argv[1], out = argv[2];
  std::vector<fs::path> sources;
  for (const char* dir : {"kernels", "tests/data/asm"})
    for (const auto& e : fs::directory_iterator(root / dir))
      if (e.path().extension() == ".s") sources.push_back(e.path());
  std::sort(sources.begin(), sources.end());

  // asm: every kernel source, and the edges of the syntax.
  for (const auto& p : sources) write(out / "asm" / p.filename(), slurp(p));
  const std::pair<const char*, std::string> asm_edges[] = {
      {"edge_empty.s", ""},
      {"edge_comment_only.s", "// nothing here\n# nor here\n"},
      {"edge_minimal.s", ".kernel k\n.regs 1\nEXIT;\n.end\n"},
      {"edge_crlf_no_final_newline.s", ".kernel k\r\n.regs 1\r\n  EXIT\r\n.end"},
      {"edge_params_shared_loc.s",
       ".kernel k\n.param a, 1\n.param b, 8, 16\n.regs 63\n.shared 65536\n.loc 7, 3\n"
       "  LDC R1, [PARAM(b)]\n  LDG.S16 R2, [R1 - 0x10]\n  STS.8 [R2 + 4], R62\n  @!PT EXIT\n"
       "  .word 0xFFFFFFFFFFFFFFFF\n  EXIT\n.end\n"},
      {"edge_labels_branches.s",
       ".kernel k\n.regs 4\n  S2R R0, SR_LANEID\n  ISETP.LT.U32.OR P1, R0, 16, !P2\n"
       "top:\n  @P1 BRA skip\n  IADD R1, R1, -1\nskip: VOTE.ANY P0, !P1\n  @P0 BRA top\n  BAR.SYNC 15, 32\n"
       "  EXIT\n.end\n.kernel k2\n.regs 2\n  SHFL.IDX R1, R0, 31, 1\n  TRAP\n.end\n"},
      {"edge_numbers.s",
       ".kernel k\n.regs 8\n  MOV R1, 0xFFFFFFFF\n  MOV R2, -2147483648\n  FADD R3, R3, -inf\n"
       "  FMUL R4, R4, 1e-45\n  ATOMG.CAS R5, [R6 + 524287], R1, R2\n  ATOMS.MIN.U32 R5, [-524288], R1\n"
       "  LDG R1, [R2 - -9223372036854775808]\n  EXIT\n.end\n"},
      {"edge_errors.s", ".kernel 9\n.regs 0\n.param\n  FOO R1\n  @ BRA nowhere\n.end\n.end\n"},
  };
  for (const auto& [name, text] : asm_edges) write(out / "asm" / name, text);

  // ptx: nvcc's PTX of the samples and the front end's feature tests (each
  // must translate), and the edges of what it reads.
  std::vector<fs::path> ptx_sources;
  for (const char* dir : {"kernels/cuda", "tests/ptx"})
    for (const auto& e : fs::directory_iterator(root / dir))
      if (isa::is_ptx_path(e.path().string())) ptx_sources.push_back(e.path());
  std::sort(ptx_sources.begin(), ptx_sources.end());
  for (const auto& p : ptx_sources) {
    const std::string text = slurp(p);
    const isa::PtxResult r = isa::translate_ptx(text, p.filename().string());
    if (!r.ok()) {
      std::fprintf(stderr, "make_seeds: %s does not translate:\n%s", p.c_str(), r.format_errors().c_str());
      ++failures;
    }
    const std::string dir = p.parent_path().filename() == "cuda" ? "cuda_" : "test_";
    write(out / "ptx" / (dir + p.filename().string()), text);
  }
  const std::string head = ".version 8.0\n.target sm_80\n.address_size 64\n";
  const std::pair<const char*, std::string> ptx_edges[] = {
      {"edge_empty.ptx", ""},
      {"edge_no_entry.ptx", head},
      {"edge_minimal.ptx", head + ".visible .entry k()\n{\n\tret;\n}\n"},
      {"edge_crlf_no_final_newline.ptx",
       ".version 8.0\r\n.target sm_80\r\n.address_size 64\r\n.visible .entry k()\r\n{\r\n\tret;\r\n}"},
      {"edge_errors.ptx",
       head + ".global .u32 g;\n.visible .entry k(.param .u64 p) .maxntid 1\n{\n"
              "\t.local .b8 s[4];\n\t.reg .b32 %r<2>;\n\tfoo.bar %r1;\n\tadd.f64 %r1, %r2, 1;\n"
              "\tbra $L__none;\n}\n"},
  };
  for (const auto& [name, text] : ptx_edges) write(out / "ptx" / name, text);

  // module and disasm: the images and code of the sources.
  std::vector<uint8_t> small;
  for (const auto& p : sources) {
    const isa::Module m = assembled(slurp(p), p.filename().string());
    const std::vector<uint8_t> img = isa::write_module(m);
    if (small.empty() || img.size() < small.size()) small = img;
    write(out / "module" / p.filename().replace_extension(".bsm"), img);
    write(out / "disasm" / p.filename().replace_extension(".bin"), fuzz::input_from_module(m));
  }
  // Damaged and unusual images: loaded by the loader or rejected at each of its checks.
  write(out / "module" / "edge_empty.bsm", std::string());
  write(out / "module" / "edge_magic_only.bsm", std::string("BSM\0", 4));
  write(out / "module" / "edge_truncated_header.bsm",
        std::vector<uint8_t>(small.begin(), small.begin() + 79));
  std::vector<uint8_t> bad_crc = small;
  bad_crc.back() ^= 1;
  write(out / "module" / "edge_bad_crc.bsm", bad_crc);
  write(out / "module" / "edge_no_kernels.bsm", isa::write_module(isa::Module{}));
  {
    isa::Module m = assembled(
        ".kernel k\n.param a, 4\n.param b, 2\n.regs 3\n.shared 16\n  LDC R1, [PARAM(a)]\n"
        "  .word 0x7F\n  EXIT\n.end\n.kernel j\n.regs 1\n  TRAP\n.end\n",
        "odd.s");
    m.kernels[0].params[1].offset = 8;  // not the natural packing
    m.kernels[0].param_bytes = 12;
    m.kernels[1].name = "not a name\"\\";
    m.lines.pop_back();  // fewer line entries than instructions
    write(out / "module" / "edge_irreproducible.bsm", isa::write_module(m));
    std::vector<uint8_t> big_header = isa::write_module(m);  // a header larger than 80 bytes
    big_header.insert(big_header.begin() + fuzz::kHeaderBytes, 16, 0);
    fuzz::put32(big_header, fuzz::kHeaderSizeAt, fuzz::kHeaderBytes + 16);
    for (size_t at : {32, 40, 48, 52, 60})  // the section offsets move by 16
      fuzz::put32(big_header, at, fuzz::get32(big_header.data() + at) + 16);
    fuzz::reseal(big_header);
    write(out / "module" / "edge_header_96.bsm", big_header);
  }
  write(out / "disasm" / "edge_empty.bin", std::string());
  write(out / "disasm" / "edge_four_kernels_no_code.bin",
        std::string("\x07\x3e\xff\x00\x00\x00\x10\x01\x00", 9));
  return failures ? 1 : 0;
}
