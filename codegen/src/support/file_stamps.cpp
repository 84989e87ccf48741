#include "support/file_stamps.hpp"

#include <sys/stat.h>

#include "support/debug_log.hpp"
#include "tcpu/status.hpp"

namespace tcpu::codegen {
namespace {

int64_t nanoseconds(const timespec& time) {
  return static_cast<int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

} // namespace

StatTimes statTimes(const struct stat& info) {
#if defined(__APPLE__)
  return {nanoseconds(info.st_mtimespec), nanoseconds(info.st_atimespec),
          nanoseconds(info.st_ctimespec)};
#else
  return {nanoseconds(info.st_mtim), nanoseconds(info.st_atim), nanoseconds(info.st_ctim)};
#endif
}

std::optional<FileStamp> stampFile(const std::string& path) {
  struct stat info{};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  const StatTimes times = statTimes(info);
  return FileStamp{path, static_cast<uint64_t>(info.st_size), times.modifiedNs, times.changedNs};
}

bool stampsCurrent(const std::vector<FileStamp>& stamps) {
  for (const FileStamp& stamp : stamps) {
    const std::optional<FileStamp> now = stampFile(stamp.path);
    if (!now || *now != stamp) {
      debugLog(concat("cache: ", stamp.path, now ? " changed" : " is gone",
                      " since the entry was compiled"));
      return false;
    }
  }
  return true;
}

} // namespace tcpu::codegen
