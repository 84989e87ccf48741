#include "inspect/cache_files.hpp"

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "jit/object_cache.hpp"

namespace tcpu::cli {
namespace {

constexpr std::size_t kKeyLength = 64; // hex SHA-256, as cacheKey makes it
constexpr std::time_t kStaleSeconds = 60 * 60;

bool isKey(std::string_view text) {
  return text.size() == kKeyLength && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

bool isNumber(std::string_view text) {
  return !text.empty() && text.size() <= 20 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The writer's pid when `name` is "<key>.tmp.<pid>.<n>.<random>", else nullopt.
std::optional<long long> temporaryWriter(std::string_view name) {
  if (name.size() < kKeyLength + 5 || !isKey(name.substr(0, kKeyLength)) ||
      name.substr(kKeyLength, 5) != ".tmp.")
    return std::nullopt;
  std::string_view rest = name.substr(kKeyLength + 5);
  std::vector<std::string_view> numbers;
  for (std::size_t dot; (dot = rest.find('.')) != std::string_view::npos;
       rest.remove_prefix(dot + 1))
    numbers.push_back(rest.substr(0, dot));
  numbers.push_back(rest);
  if (numbers.size() != 3 || !std::all_of(numbers.begin(), numbers.end(), isNumber))
    return std::nullopt;
  return std::strtoll(std::string(numbers[0]).c_str(), nullptr, 10);
}

} // namespace

Expected<std::vector<CacheFile>> listCacheFiles(const std::filesystem::path& directory) {
  std::vector<CacheFile> files;
  std::error_code error;
  if (!std::filesystem::exists(directory, error)) return files;
  // Iterated with error codes: the range-for form throws when the directory goes bad midway.
  std::filesystem::directory_iterator entry(directory, error);
  for (; !error && entry != std::filesystem::directory_iterator(); entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    CacheFile file;
    file.path = entry->path();
    if (name.ends_with(".tcpuobj")) {
      file.kind = CacheFile::Kind::Entry;
    } else if (name.ends_with(".tcpupch")) {
      file.kind = CacheFile::Kind::PrecompiledHeader;
    } else if (std::optional<long long> writer = temporaryWriter(name)) {
      file.kind = CacheFile::Kind::Temporary;
      file.writerPid = *writer;
    } else {
      continue;
    }
    struct stat info{};
    if (::lstat(file.path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    file.size = static_cast<uint64_t>(info.st_size);
    file.modified = info.st_mtime;
    files.push_back(std::move(file));
  }
  if (error)
    return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("cannot read cache directory '",
                                                      directory.string(), "': ", error.message()));
  std::sort(files.begin(), files.end(),
            [](const CacheFile& a, const CacheFile& b) { return a.path < b.path; });
  return files;
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
  if (std::optional<std::filesystem::path> directory = codegen::cacheDirectoryFromEnvironment())
    return directory;
  const char* disabled = std::getenv("TCPU_CACHE_DISABLE");
  why = disabled && std::strcmp(disabled, "1") == 0
            ? "disabled (TCPU_CACHE_DISABLE=1)"
            : "none (neither TCPU_CACHE_DIR, XDG_CACHE_HOME nor HOME is set)";
  return std::nullopt;
}

} // namespace tcpu::cli
