// The `baresm` subcommands that live in their own files; each takes the
// arguments after its name and returns the exit status (cli_util.h).
#pragma once

#include <string>
#include <vector>

namespace baresm::cli {

int cmd_launch(const std::vector<std::string>& args);  // sim/cmd_launch.cpp
int cmd_info(const std::vector<std::string>& args);    // sim/cmd_info.cpp

}  // namespace baresm::cli
