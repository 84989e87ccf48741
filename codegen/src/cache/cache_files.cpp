#include "cache/cache_files.hpp"

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cache/temporary_files.hpp"
#include "support/file_stamps.hpp"
#include "tcpu/cache_directory.hpp"
#include "tcpu/environment.hpp"
#include "tcpu/frontend_cache.hpp"

namespace tcpu::codegen {
namespace {

constexpr std::size_t kKeyLength = 64; // hex SHA-256, as cacheKey makes it
constexpr std::time_t kStaleSeconds = 60 * 60;

bool isHex(std::string_view text, std::size_t length) {
  return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

bool isKey(std::string_view text) {
  return isHex(text, kKeyLength); // hex SHA-256, as cacheKey makes it
}

// The writer's pid when `name` is a temporary (temporary_files.hpp) of a file `validName`
// accepts, else nullopt.
std::optional<long long> temporaryWriter(std::string_view name,
                                         bool (*validName)(std::string_view)) {
  const std::optional<TemporaryName> temporary = parseTemporaryName(name);
  if (!temporary || !validName(temporary->target)) return std::nullopt;
  return temporary->writerPid;
}

using Classify = bool (*)(std::string_view name, CacheFile& file);

// Marks `file` a temporary when `name` is one of a file `validName` accepts.
bool classifyTemporary(std::string_view name, bool (*validName)(std::string_view),
                       CacheFile& file) {
  const std::optional<long long> writer = temporaryWriter(name, validName);
  if (!writer) return false;
  file.kind = CacheFile::Kind::Temporary;
  file.writerPid = *writer;
  return true;
}

bool classifyTopLevel(std::string_view name, CacheFile& file) {
  if (name.ends_with(".tcpuobj"))
    file.kind = CacheFile::Kind::Entry;
  else if (name.ends_with(".tcpupch"))
    file.kind = CacheFile::Kind::PrecompiledHeader;
  else
    return classifyTemporary(name, isKey, file);
  return true;
}

// The front end's files (tcpu/frontend_cache.hpp).
bool classifyFrontEnd(std::string_view name, CacheFile& file) {
  if (!FrontEndCache::isFileName(name))
    return classifyTemporary(name, FrontEndCache::isFileName, file);
  file.kind = CacheFile::Kind::FrontEnd;
  return true;
}

// Adds the regular files of `directory` that `classify` takes; with `keyDirectories`, also
// those of its subdirectories named by a key. Iterated with error codes: the range-for form
// throws when the directory goes bad midway.
Status scan(const std::filesystem::path& directory, Classify classify, bool keyDirectories,
            std::vector<CacheFile>& files) {
  std::error_code error;
  std::filesystem::directory_iterator entry(directory, error);
  for (; !error && entry != std::filesystem::directory_iterator(); entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    struct stat info{};
    if (::lstat(entry->path().c_str(), &info) != 0) continue;
    if (S_ISDIR(info.st_mode)) {
      if (keyDirectories && FrontEndCache::isEntryName(name))
        if (Status inner = scan(entry->path(), classify, false, files); !inner.ok()) return inner;
      continue;
    }
    CacheFile file;
    file.path = entry->path();
    if (!S_ISREG(info.st_mode) || !classify(name, file)) continue;
    file.size = static_cast<uint64_t>(info.st_size);
    file.modified = info.st_mtime;
    const StatTimes times = statTimes(info);
    file.lastUsedNs = std::max(times.modifiedNs, times.accessedNs);
    files.push_back(std::move(file));
  }
  if (error)
    return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("cannot read cache directory '",
                                                      directory.string(), "': ", error.message()));
  return {};
}

} // namespace

Expected<std::vector<CacheFile>> listCacheFiles(const std::filesystem::path& directory) {
  std::vector<CacheFile> files;
  std::error_code error;
  if (!std::filesystem::exists(directory, error)) return files;
  if (Status status = scan(directory, classifyTopLevel, false, files); !status.ok()) return status;
  const std::filesystem::path frontEnd = FrontEndCache(directory).directory();
  struct stat info{};
  if (::lstat(frontEnd.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    if (Status status = scan(frontEnd, classifyFrontEnd, true, files); !status.ok()) return status;
  std::sort(files.begin(), files.end(),
            [](const CacheFile& a, const CacheFile& b) { return a.path < b.path; });
  return files;
}

void removeEmptyFrontEndDirectories(const std::filesystem::path& directory,
                                    std::time_t minimumAgeSeconds) {
  const std::filesystem::path frontEnd = FrontEndCache(directory).directory();
  const std::time_t now = std::time(nullptr);
  // No age asked (`tcpu cache clear`): no clock read. A file system with fine-grained
  // timestamps can date a directory changed just now a second past time()'s coarse clock.
  const auto oldEnough = [&](const struct stat& info) {
    return minimumAgeSeconds <= 0 || now - info.st_mtime >= minimumAgeSeconds;
  };
  std::error_code error;
  std::filesystem::directory_iterator entry(frontEnd, error);
  std::vector<std::filesystem::path> keys;
  for (; !error && entry != std::filesystem::directory_iterator(); entry.increment(error)) {
    struct stat info{};
    if (FrontEndCache::isEntryName(entry->path().filename().string()) &&
        ::lstat(entry->path().c_str(), &info) == 0 && S_ISDIR(info.st_mode) && oldEnough(info))
      keys.push_back(entry->path());
  }
  std::error_code ignored;
  for (const std::filesystem::path& key : keys)
    std::filesystem::remove(key, ignored); // only an empty directory goes
  struct stat info{};
  if (::lstat(frontEnd.c_str(), &info) == 0 && oldEnough(info))
    std::filesystem::remove(frontEnd, ignored);
}

bool isStaleTemporary(const CacheFile& file) {
  if (file.kind != CacheFile::Kind::Temporary) return false;
  if (std::time(nullptr) - file.modified > kStaleSeconds) return true;
  // kill(pid, 0) checks that the process exists without signalling it.
  return file.writerPid <= 0 || file.writerPid > INT32_MAX ||
         (::kill(static_cast<pid_t>(file.writerPid), 0) != 0 && errno == ESRCH);
}

std::optional<std::filesystem::path> cacheDirectory(const std::optional<std::string>& override,
                                                    std::string& why) {
  if (override) return std::filesystem::path(*override);
  Expected<std::optional<std::filesystem::path>> directory = cacheDirectoryFromEnvironment();
  if (!directory) {
    why = directory.status().message();
    return std::nullopt;
  }
  if (*directory) return *directory;
  const Expected<bool> disabled = environmentFlag("TCPU_CACHE_DISABLE", false);
  why = disabled && *disabled
            ? concat("disabled (TCPU_CACHE_DISABLE=", std::getenv("TCPU_CACHE_DISABLE"), ")")
            : "none (neither TCPU_CACHE_DIR, XDG_CACHE_HOME nor HOME is set)";
  return std::nullopt;
}

} // namespace tcpu::codegen
