// The `baresm` subcommands that live in their own files; each takes the
// arguments after its name and returns the exit status (cli_util.h).
#pragma once

#include <string>
#include <vector>

#include "sim/cli_util.h"

namespace baresm::cli {

int cmd_launch(const std::vector<std::string>& args);  // sim/cmd_launch.cpp
int cmd_info(const std::vector<std::string>& args);    // sim/cmd_info.cpp
int cmd_timeline(const std::vector<std::string>& args);  // sim/cmd_timeline.cpp

// --timeline FILE of `run` and `launch`: refused (one line, exit status
// returned) unless the backend is rtl and FILE can be written; then handed
// to the backend (BARESM_TIMELINE). kExitOk when absent or accepted.
int timeline_option(const std::string& cmd, const po::variables_map& vm, const std::string& backend);

}  // namespace baresm::cli
