// What a compile read besides its input, recorded as stamps (size and times) so that a cached
// result can be checked against the files as they are now without reading them: a system
// header replaced by a package upgrade, a header next to the kernel source edited.
#ifndef TCPU_CODEGEN_FILE_STAMPS_HPP
#define TCPU_CODEGEN_FILE_STAMPS_HPP

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcpu::codegen {

struct FileStamp {
  std::string path; // absolute
  uint64_t size = 0;
  int64_t modifiedNs = 0;
  // Status change time too: a copy that keeps the modification time (cp -p, tar) still shows.
  int64_t changedNs = 0;
  bool operator==(const FileStamp&) const = default;
};

// A stat's times in ns since the epoch (Darwin names the fields st_*timespec, Linux st_*tim).
struct StatTimes {
  int64_t modifiedNs = 0;
  int64_t accessedNs = 0;
  int64_t changedNs = 0;
};
StatTimes statTimes(const struct stat& info);

// The file's stamp now; nullopt when it cannot be stat'ed.
std::optional<FileStamp> stampFile(const std::string& path);

// Whether every file still exists with the same stamp. Reports the first that differs at debug
// level.
bool stampsCurrent(const std::vector<FileStamp>& stamps);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_FILE_STAMPS_HPP
