// `baresm asm` and `baresm ptx`: a .s or .ptx source to a .bsm module, every
// diagnostic printed (exit 1 on errors).
#include <sys/stat.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/file_io.h"
#include "isa/module.h"
#include "isa/ptx.h"
#include "sim/cli_commands.h"
#include "sim/cli_util.h"

namespace baresm::cli {

// `asm` and `ptx` share everything but the front end: `asm` picks PTX by the
// input's .ptx extension, `ptx` always reads PTX and can show the assembly it
// generates.
int cmd_asm(const std::string& cmd, const std::vector<std::string>& args) {
  const bool ptx_cmd = cmd == "ptx";
  po::options_description desc(
      ptx_cmd ? "usage: baresm ptx IN.ptx [-o OUT.bsm] [--name NAME] [--emit-asm]\n"
                "Translates PTX as nvcc writes it (docs/ptx.md) into a .bsm module and prints a\n"
                "ptxas -v style line per kernel (registers, local, shared and parameter bytes).\n"
                "Every error, an unsupported instruction or directive included, is printed as\n"
                "file:line:col of the PTX; nothing is written when there is one.\n\noptions"
              : "usage: baresm asm IN.s [-o OUT.bsm] [--name NAME]\n"
                "Assembles kernel source (docs/isa.md) into a .bsm module; a file ending in\n"
                ".ptx goes through the PTX front end instead (as `baresm ptx`). Every error is\n"
                "printed as file:line:col with the source line and a caret; nothing is\n"
                "written when there is one.\n\noptions");
  desc.add_options()("help,h", "show this help")(
      "output,o", po::value<std::string>(), "output file (default: IN with .bsm instead of its extension)")(
      "name", po::value<std::string>(),
      "file name recorded in the module and shown in diagnostics (default: IN as given); "
      "re-assembling a disassembly with the original name gives identical bytes");
  if (ptx_cmd)
    desc.add_options()("emit-asm",
                       "write the generated baresm assembly to standard output instead of a module");
  po::variables_map vm;
  int rc = 0;
  if (!parse(cmd, args, desc, "input", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (!vm.count("input")) return usage_error(cmd, "missing input file");
  const std::string in = vm["input"].as<std::string>();
  const bool is_ptx = ptx_cmd || isa::is_ptx_path(in);
  const bool emit_asm = ptx_cmd && vm.count("emit-asm");
  if (emit_asm && vm.count("output"))
    return usage_error(cmd, "--emit-asm writes to standard output; drop -o");
  std::string out;
  if (vm.count("output")) {
    out = vm["output"].as<std::string>();
  } else {
    const size_t dot = in.rfind('.');
    const size_t slash = in.rfind('/');
    out = (dot != std::string::npos && (slash == std::string::npos || dot > slash) ? in.substr(0, dot) : in) +
          ".bsm";
  }
  std::string source, error;
  if (!isa::read_file(in, isa::kMaxSourceBytes, &source, &error)) {
    std::cerr << "baresm " << cmd << ": " << in << ": " << error << "\n";
    return kExitFail;
  }
  // The same file under any name (a link, another spelling): never overwrite the source.
  struct stat si, so;
  if (!emit_asm && stat(in.c_str(), &si) == 0 && stat(out.c_str(), &so) == 0 && si.st_dev == so.st_dev &&
      si.st_ino == so.st_ino) {
    std::cerr << "baresm " << cmd << ": " << out
              << ": the output is the input file; refusing to overwrite it\n";
    return kExitUsage;
  }
  const std::string name = vm.count("name") ? vm["name"].as<std::string>() : in;
  isa::Module module;
  std::vector<isa::Diagnostic> diagnostics;
  std::string info;
  if (is_ptx) {
    isa::PtxResult r = isa::translate_ptx(source, name);
    diagnostics = std::move(r.diagnostics);
    if (emit_asm && diagnostics.empty()) {
      std::cout << r.assembly;
      return kExitOk;
    }
    for (const auto& k : r.kernels) info += k.info_line() + "\n";
    module = std::move(r.module);
  } else {
    isa::AsmResult r = isa::assemble(source, name);
    diagnostics = std::move(r.diagnostics);
    module = std::move(r.module);
  }
  if (!diagnostics.empty()) {
    for (const auto& d : diagnostics) std::cerr << d.format() << "\n";
    std::cerr << diagnostics.size() << " error" << (diagnostics.size() == 1 ? "" : "s") << "\n";
    return kExitFail;
  }
  const std::vector<uint8_t> bytes = isa::write_module(module);
  const std::string werr = write_whole_file(out, bytes.data(), bytes.size());
  if (!werr.empty()) {
    std::cerr << "baresm " << cmd << ": cannot write '" << out << "': " << werr << "\n";
    return kExitFail;
  }
  std::cout << info;
  return kExitOk;
}

}  // namespace baresm::cli
