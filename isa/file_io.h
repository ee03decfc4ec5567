// Reading whole input files (sources, module images) the same careful way
// everywhere: a bounded size, so an endless device file cannot exhaust
// memory, and a clear cause when the path is not a readable file.
#pragma once

#include <cstdint>
#include <string>

namespace baresm::isa {

enum class FileRead { OK, FAILED, TOO_LARGE };

// Reads all of path into *data. Otherwise the cause is in *error, without the
// path: "is a directory", the system's reason ("No such file or directory"),
// or (TOO_LARGE) "larger than the N-byte limit". Converts to true on success.
struct FileReadResult {
  FileRead status = FileRead::OK;
  explicit operator bool() const { return status == FileRead::OK; }
};
FileReadResult read_file(const std::string& path, uint64_t max_bytes, std::string* data, std::string* error);

}  // namespace baresm::isa
