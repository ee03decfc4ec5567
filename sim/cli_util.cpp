#include "sim/cli_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "isa/assembler.h"

namespace baresm::cli {

// Writes data to path (create or truncate); "" or the cause of the failure.
// close() is checked too: a full disk or a quota often shows only there.
std::string write_whole_file(const std::string& path, const void* data, size_t size) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return std::strerror(errno);
  std::string error;
  const char* p = static_cast<const char*>(data);
  for (size_t done = 0; error.empty() && done < size;) {
    const ssize_t w = write(fd, p + done, size - done);
    if (w < 0 && errno != EINTR) error = std::strerror(errno);
    if (w > 0) done += size_t(w);
  }
  if (close(fd) != 0 && error.empty()) error = std::strerror(errno);
  return error;
}

// Flushes standard output and reports a write error on it (a full device, a
// closed pipe) in one line; the exit status is then non-zero.
int finish_stdout(const std::string& cmd, int rc) {
  // cout shares stdout's buffer, so its flush is the one that can fail. A
  // write that failed earlier (a large output) left its cause in errno.
  const int earlier = errno;
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0 && std::cout.good();
  const int err = errno ? errno : earlier;
  if (flushed && !std::ferror(stdout)) return rc;
  std::cerr << "baresm " << cmd << ": standard output: " << (err ? std::strerror(err) : "write error")
            << "\n";
  std::clearerr(stdout);  // reported once
  std::cout.clear();
  return rc != kExitOk ? rc : kExitFail;
}

int usage_error(const std::string& cmd, const std::string& msg) {
  std::cerr << "baresm" << (cmd.empty() ? "" : " " + cmd) << ": " << msg << "\n"
            << "try 'baresm" << (cmd.empty() ? "" : " " + cmd) << " --help'\n";
  return kExitUsage;
}

// Parses args against desc plus one hidden positional option `positional`
// (at most one value); returns false after printing the error for bad
// command lines.
bool parse(const std::string& cmd, const std::vector<std::string>& args, const po::options_description& desc,
           const char* positional, po::variables_map* vm, int* exit_code) {
  po::options_description all;
  all.add(desc);
  all.add_options()(positional, po::value<std::string>());
  po::positional_options_description pos;
  pos.add(positional, 1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), *vm);
    po::notify(*vm);
    return true;
  } catch (const po::error& e) {
    *exit_code = usage_error(cmd, e.what());
    return false;
  }
}

// A refused option value: one line naming the option, the value and why.
int bad_value(const std::string& cmd, const std::string& opt, const std::string& value,
              const std::string& why) {
  std::cerr << "baresm " << cmd << ": " << opt << " " << isa::quote(value) << ": " << why << "\n";
  return kExitUsage;
}

// Decimal or 0x-hex digits only, in [lo, hi]. Numeric options are read as
// text and converted here: boost's conversion takes "-1" for an unsigned
// option and wraps it around.
bool parse_number(const std::string& t, uint64_t lo, uint64_t hi, uint64_t* out) {
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  const std::string digits = hex ? t.substr(2) : t;
  if (digits.empty() ||
      digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
    return false;
  errno = 0;
  const unsigned long long v = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
  if (errno == ERANGE || v < lo || v > hi) return false;
  *out = v;
  return true;
}

// The number option `name` of vm into *out; false after printing why not.
bool number_option(const std::string& cmd, const po::variables_map& vm, const char* name, uint64_t lo,
                   uint64_t hi, uint64_t* out, int* exit_code) {
  const std::string t = vm[name].as<std::string>();
  if (parse_number(t, lo, hi, out)) return true;
  *exit_code = bad_value(cmd, std::string("--") + name, t,
                         "not a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return false;
}

std::string dim_text(const iss::Dim3& d) {
  if (d.z != 1) return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
  if (d.y != 1) return std::to_string(d.x) + "x" + std::to_string(d.y);
  return std::to_string(d.x);
}

}  // namespace baresm::cli
