// `baresm`: the project's command line.
//
//   baresm asm IN.s [-o OUT.bsm]    assemble (every diagnostic printed, exit 1 on errors)  (sim/cmd_asm.cpp)
//   baresm ptx IN.ptx [-o OUT.bsm] [--emit-asm]   PTX front end (asm picks it for .ptx too)
//   baresm dis IN.bsm               disassemble (loader errors with their status name)  (sim/cmd_dis.cpp)
//   baresm run SAMPLE | --list | --all [-v] [--backend NAME] [--seed S] [--kernels DIR]
//              [--trace FILE.fst] [--trace-window START:END] [--mem-latency N] [--mem-seed S]
//              [--port PATH] [--baud N]           (--backend serial: an FPGA board)  (sim/cmd_run.cpp)
//   baresm gen --seed S [--profile P] [-o OUT.s] [--run] | --list-profiles  (sim/cmd_gen.cpp)
//   baresm launch MODULE.bsm|KERNEL.s|KERNEL.ptx --grid X[,Y[,Z]] --block X[,Y[,Z]] [--kernel NAME]
//              [--shared BYTES] [--arg KIND:VALUE]... [--out PARAM=FILE]... [--backend NAME]
//              [--watchdog N] [--port PATH] [--baud N]  (sim/cmd_launch.cpp)
//   baresm info [--backend NAME] [--port PATH] [--baud N]  (sim/cmd_info.cpp)
//
// Exit status: 0 success; 1 the work failed (assembly errors, an unreadable
// module, a sample that did not match, a fault); 2 a bad command line.
// Devices come from the driver's registry (host_driver/devices.h), each a
// host-driver transport opened from typed settings; the verilated device
// (`rtl`) is linked in from sim/systemc and registered here. `run`,
// `launch` and `info` open it with drv::Device (sim/cli_device.h); the
// samples run on that drv::Device.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli_commands.h"
#include "sim/cli_util.h"

using namespace baresm;
using namespace baresm::cli;

#if BARESM_CLI_RTL
namespace baresm::cosim {
void register_rtl_device();  // sim/systemc/rtl_cli.cpp
}
#endif

namespace {

const char* const kToolHelp =
    "baresm: the baresm toolchain and sample runner\n"
    "\n"
    "usage: baresm <command> [options]\n"
    "\n"
    "commands:\n"
    "  asm IN.s [-o OUT.bsm]   assemble kernel source into a .bsm module\n"
    "  ptx IN.ptx [-o OUT.bsm] translate nvcc's PTX into a .bsm module (also: asm IN.ptx)\n"
    "  dis IN.bsm              disassemble a module (text that re-assembles byte-identically)\n"
    "  run SAMPLE              run one sample and check it against its C++ reference\n"
    "  run --list              list the samples\n"
    "  run --all               run every sample, then every fault sample; summary table\n"
    "  gen --seed S            write a constrained-random kernel (docs/progen.md)\n"
    "  launch KERNEL.s ...     launch one kernel through the host driver: buffers, arguments, outputs\n"
    "  info                    the device's properties, as the driver reads them\n"
    "  timeline FILE.json      check a warp timeline (run/launch --timeline) and draw it (-o FILE.png|.svg)\n"
    "\n"
    "`baresm <command> --help` describes a command's options.\n"
    "exit status: 0 success, 1 failure (errors, mismatch, fault), 2 bad command line\n";

}  // namespace

int main(int argc, char** argv) {
#if BARESM_CLI_RTL
  cosim::register_rtl_device();
#endif
  if (argc < 2) {
    std::cerr << kToolHelp;
    return kExitUsage;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::cout << kToolHelp;
      return kExitOk;
    }
    if (cmd == "asm" || cmd == "ptx") return finish_stdout(cmd, cmd_asm(cmd, rest));
    if (cmd == "dis") return finish_stdout(cmd, cmd_dis(rest));
    if (cmd == "run") return finish_stdout(cmd, cmd_run(rest));
    if (cmd == "gen") return finish_stdout(cmd, cmd_gen(rest));
    if (cmd == "launch") return finish_stdout(cmd, cmd_launch(rest));
    if (cmd == "info") return finish_stdout(cmd, cmd_info(rest));
    if (cmd == "timeline") return finish_stdout(cmd, cmd_timeline(rest));
  } catch (const std::exception& e) {
    std::cerr << "baresm " << cmd << ": " << e.what() << "\n";
    return kExitFail;
  }
  if (!cmd.empty() && cmd[0] == '-') return usage_error("", "unknown option '" + cmd + "'");
  return usage_error("", "unknown command '" + cmd + "' (commands: asm, ptx, dis, run, gen, launch, info, timeline)");
}
