// Bounded whole-file reads (file_io.h).
#include "isa/file_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace baresm::isa {

FileReadResult read_file(const std::string& path, uint64_t max_bytes, std::string* data, std::string* error) {
  const FileReadResult failed{FileRead::FAILED}, too_large{FileRead::TOO_LARGE};
  data->clear();
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = std::strerror(errno);
    return failed;
  }
  // fopen succeeds on a directory; reading it would look like an empty file.
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::fclose(f);
    *error = "is a directory";
    return failed;
  }
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (data->size() + n > max_bytes) {
      std::fclose(f);
      data->clear();
      *error = "larger than the " + std::to_string(max_bytes) + "-byte limit";
      return too_large;
    }
    data->append(buf, n);
  }
  const bool read_error = std::ferror(f);
  const int saved = errno;
  std::fclose(f);
  if (read_error) {
    data->clear();
    *error = std::strerror(saved);
    return failed;
  }
  return FileReadResult{};
}

}  // namespace baresm::isa
