// `baresm gen`: one constrained-random kernel (docs/progen.md), and with --run
// its run on the functional model.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "isa/progen.h"
#include "sim/cli_commands.h"
#include "sim/cli_util.h"

namespace baresm::cli {

int cmd_gen(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm gen --seed S [--profile P] [-o OUT.s] [--run] [limits]\n"
      "       baresm gen --list-profiles\n"
      "Writes one constrained-random kernel (docs/progen.md) to OUT.s, or to\n"
      "standard output. Its header comment carries the seed, profile, grid,\n"
      "block, shared bytes and buffer layout; the same seed, profile and limits\n"
      "always give the same text. --run also runs it on the functional model and\n"
      "prints the result (without -o, only the result is printed); the exit status\n"
      "is then 0 when the run ended as the profile expects (no fault, or the\n"
      "fault-KIND profile's fault).\n\noptions");
  progen::ProgenLimits lim;
  desc.add_options()("help,h", "show this help")("list-profiles", "list the profiles")(
      "seed", po::value<std::string>(), "seed of the program")(
      "profile", po::value<std::string>()->default_value("mixed"), "what the program stresses (--list-profiles)")(
      "output,o", po::value<std::string>(), "output file (default: standard output)")(
      "run", "run it on the functional model and print the fault/result summary")(
      "stack-depth", po::value<std::string>()->default_value(std::to_string(lim.stack_depth)),
      "reconvergence-stack entries of the target, 1..1024 (also used for --run)")(
      "max-threads", po::value<std::string>()->default_value(std::to_string(lim.max_threads_per_block)),
      "threads per block at most, 1..1024")(
      "max-shared", po::value<std::string>()->default_value(std::to_string(lim.max_shared_bytes)),
      "shared bytes per CTA at most, 0..16777216")(
      "max-warps", po::value<std::string>()->default_value(std::to_string(lim.max_warps_per_cta)),
      "warps per CTA at most (the target's warp slots), 1..32")(
      "max-regs", po::value<std::string>()->default_value(std::to_string(lim.max_regs_per_thread)),
      "registers per thread at most (the target's), 16..63")(
      "max-windows", po::value<std::string>()->default_value(std::to_string(lim.max_windows)),
      "memory windows per launch at most (the target's), 3..8")(
      "no-fpu", "no FPU instruction (a target without the FPU)")(
      "no-smid", "never read SR_SMID");
  po::variables_map vm;
  int rc = 0;
  if (!parse("gen", args, desc, "extra", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (vm.count("list-profiles")) {
    for (const auto& p : progen::profiles()) std::printf("%s\n", p.c_str());
    return kExitOk;
  }
  if (vm.count("extra")) return usage_error("gen", "unexpected argument '" + vm["extra"].as<std::string>() + "'");
  if (!vm.count("seed")) return usage_error("gen", "missing --seed");
  const std::string profile = vm["profile"].as<std::string>();
  if (!progen::is_profile(profile)) {
    std::string all;
    for (const auto& p : progen::profiles()) all += (all.empty() ? "" : ", ") + p;
    std::cerr << "baresm gen: unknown profile '" << profile << "' (profiles: " << all << ")\n";
    return kExitUsage;
  }
  uint64_t seed = 0, depth = 0, threads = 0, shared = 0, warps = 0, regs = 0, windows = 0;
  if (!number_option("gen", vm, "seed", 0, UINT64_MAX, &seed, &rc) ||
      !number_option("gen", vm, "stack-depth", 1, 1024, &depth, &rc) ||
      !number_option("gen", vm, "max-threads", 1, 1024, &threads, &rc) ||
      !number_option("gen", vm, "max-shared", 0, 16u << 20, &shared, &rc) ||
      !number_option("gen", vm, "max-warps", 1, 32, &warps, &rc) ||
      !number_option("gen", vm, "max-regs", 16, 63, &regs, &rc) ||
      !number_option("gen", vm, "max-windows", 3, 8, &windows, &rc))
    return rc;
  lim.stack_depth = uint32_t(depth);
  lim.max_threads_per_block = uint32_t(threads);
  lim.max_shared_bytes = uint32_t(shared);
  lim.max_warps_per_cta = uint32_t(warps);
  lim.max_regs_per_thread = uint32_t(regs);
  lim.max_windows = uint32_t(windows);
  lim.has_fpu = !vm.count("no-fpu");
  lim.use_smid = !vm.count("no-smid");
  progen::GeneratedProgram p;
  try {
    p = progen::generate(seed, profile, lim);
  } catch (const std::invalid_argument& e) {
    std::cerr << "baresm gen: " << e.what() << "\n";
    return kExitUsage;
  }
  if (vm.count("output")) {
    const std::string out = vm["output"].as<std::string>();
    const std::string error = write_whole_file(out, p.source.data(), p.source.size());
    if (!error.empty()) {
      std::cerr << "baresm gen: cannot write '" << out << "': " << error << "\n";
      return kExitFail;
    }
  } else if (!vm.count("run")) {
    std::cout << p.source;
  }
  if (!vm.count("run")) return kExitOk;
  const progen::ModelRun r = progen::run_on_model(p);
  if (!r.assembled) {
    std::cerr << r.errors;
    return kExitFail;
  }
  std::printf("progen seed %llu profile %s: grid %s block %s, %zu instructions, expected %s\n",
              (unsigned long long)p.seed, p.profile.c_str(), dim_text(p.grid).c_str(), dim_text(p.block).c_str(),
              r.module.code.size(), iss::fault_kind_name(p.expected_fault));
  if (r.result.launch_error) {
    std::printf("launch error: %s\n", r.result.launch_error_message.c_str());
    return kExitFail;
  }
  const auto& st = r.result.stats;
  std::printf("  warp-instrs %llu (budget %llu), thread-instrs %llu, divergent branches %llu, barriers %llu\n",
              (unsigned long long)st.warp_instrs, (unsigned long long)p.instr_budget,
              (unsigned long long)st.thread_instrs, (unsigned long long)st.divergent_branches,
              (unsigned long long)st.barriers);
  std::printf("  %s\n", r.result.fault.ok() ? "completed without fault" : r.result.fault.describe().c_str());
  const bool as_expected = r.result.fault.kind == p.expected_fault;
  std::printf("%s\n", as_expected ? "AS EXPECTED" : "UNEXPECTED");
  return as_expected ? kExitOk : kExitFail;
}

}  // namespace baresm::cli
