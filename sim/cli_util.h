// Helpers every `baresm` subcommand shares (sim/baresm_main.cpp and the
// commands in their own files, sim/cmd_*.cpp): exit codes, the one-line
// error reports, number parsing and careful output files.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/iss.h"

namespace baresm::cli {

namespace po = boost::program_options;

constexpr int kExitOk = 0, kExitFail = 1, kExitUsage = 2;

// Writes data to path (create or truncate); "" or the cause of the failure.
// close() is checked too: a full disk or a quota often shows only there.
std::string write_whole_file(const std::string& path, const void* data, size_t size);

// Flushes standard output and reports a write error on it (a full device, a
// closed pipe) in one line; the exit status is then non-zero.
int finish_stdout(const std::string& cmd, int rc);

// "baresm CMD: MSG" and a pointer to the command's help; kExitUsage.
int usage_error(const std::string& cmd, const std::string& msg);

// Parses args against desc plus one hidden positional option `positional`
// (at most one value); returns false after printing the error for bad
// command lines.
bool parse(const std::string& cmd, const std::vector<std::string>& args, const po::options_description& desc,
           const char* positional, po::variables_map* vm, int* exit_code);

// A refused option value: one line naming the option, the value and why; kExitUsage.
int bad_value(const std::string& cmd, const std::string& opt, const std::string& value,
              const std::string& why);

// Decimal or 0x-hex digits only, in [lo, hi]. Numeric options are read as
// text and converted here: boost's conversion takes "-1" for an unsigned
// option and wraps it around.
bool parse_number(const std::string& t, uint64_t lo, uint64_t hi, uint64_t* out);

// The number option `name` of vm into *out; false after printing why not.
bool number_option(const std::string& cmd, const po::variables_map& vm, const char* name, uint64_t lo,
                   uint64_t hi, uint64_t* out, int* exit_code);

// "64", "16x4", "2x2x2".
std::string dim_text(const iss::Dim3& d);

}  // namespace baresm::cli
