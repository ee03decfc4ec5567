// The `baresm` subcommands that live in their own files; each takes the
// arguments after its name and returns the exit status (cli_util.h).
#pragma once

#include <string>
#include <vector>

#include "host_driver/devices.h"
#include "sim/cli_util.h"

namespace baresm::cli {

// cmd is "asm" or "ptx" (the PTX front end only).
int cmd_asm(const std::string& cmd, const std::vector<std::string>& args);  // sim/cmd_asm.cpp
int cmd_dis(const std::vector<std::string>& args);                           // sim/cmd_dis.cpp
int cmd_run(const std::vector<std::string>& args);                           // sim/cmd_run.cpp
int cmd_gen(const std::vector<std::string>& args);                           // sim/cmd_gen.cpp
int cmd_launch(const std::vector<std::string>& args);  // sim/cmd_launch.cpp
int cmd_info(const std::vector<std::string>& args);    // sim/cmd_info.cpp
int cmd_timeline(const std::vector<std::string>& args);  // sim/cmd_timeline.cpp

// --timeline FILE of `run` and `launch` (sim/cmd_timeline.cpp): refused in
// one line (the exit status is returned) on a backend other than rtl, or
// when FILE cannot be written; else its path goes into *settings for the
// device. kExitOk when absent or accepted.
int check_timeline_backend(const std::string& cmd, const po::variables_map& vm, const std::string& backend);
int open_timeline_output(const std::string& cmd, const po::variables_map& vm, drv::DeviceSettings* settings);

}  // namespace baresm::cli
