#include "tcpu/frontend_cache.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "cache/cache_limit.hpp"
#include "cache/temporary_files.hpp"
#include "tcpu/cache_directory.hpp"

namespace tcpu::codegen {
namespace {

constexpr std::string_view kLibrarySuffix = ".so";
constexpr std::string_view kMetadataSuffix = ".json";
constexpr std::string_view kHostPrefix = "host-";
constexpr std::string_view kHostSuffix = ".txt";
constexpr std::size_t kMaxAutotuneName = 200;

bool isHex(std::string_view text, std::size_t length) {
  return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Status badName(std::string_view what, std::string_view name) {
  return Status(TCPU_ERROR_INVALID_VALUE, concat("'", name, "' is not the name of ", what));
}

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return std::nullopt;
  return bytes;
}

// Creates `directory` and its parents as the user's umask says.
Status createDirectories(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot create '", directory.string(), "': ", error.message()));
  return {};
}

} // namespace

FrontEndCache::FrontEndCache(const std::filesystem::path& cacheDirectory)
    : directory_(cacheDirectory / "python") {}

Expected<std::optional<FrontEndCache>> FrontEndCache::fromEnvironment() {
  Expected<std::optional<std::filesystem::path>> directory = cacheDirectoryFromEnvironment();
  if (!directory) return directory.status();
  if (!*directory) return std::optional<FrontEndCache>();
  return std::optional<FrontEndCache>(FrontEndCache(**directory));
}

bool FrontEndCache::isEntryName(std::string_view name) {
  return isHex(name, 64);
}
bool FrontEndCache::isVariantName(std::string_view name) {
  return isHex(name, 16);
}
bool FrontEndCache::isHostName(std::string_view name) {
  return isHex(name, 32);
}

bool FrontEndCache::isFileName(std::string_view fileName) {
  for (std::string_view suffix : {kLibrarySuffix, kMetadataSuffix})
    if (fileName.ends_with(suffix) &&
        isVariantName(fileName.substr(0, fileName.size() - suffix.size())))
      return true;
  return fileName.size() == kHostPrefix.size() + 32 + kHostSuffix.size() &&
         fileName.starts_with(kHostPrefix) && fileName.ends_with(kHostSuffix) &&
         isHostName(fileName.substr(kHostPrefix.size(), 32));
}

Expected<std::filesystem::path> FrontEndCache::libraryPath(std::string_view entry,
                                                           std::string_view variant) const {
  if (!isEntryName(entry)) return badName("a front-end cache entry", entry);
  if (!isVariantName(variant)) return badName("a front-end cache variant", variant);
  return directory_ / entry / concat(variant, kLibrarySuffix);
}

Expected<std::filesystem::path> FrontEndCache::metadataPath(std::string_view entry,
                                                            std::string_view variant) const {
  if (!isEntryName(entry)) return badName("a front-end cache entry", entry);
  if (!isVariantName(variant)) return badName("a front-end cache variant", variant);
  return directory_ / entry / concat(variant, kMetadataSuffix);
}

std::vector<FrontEndCache::Variant> FrontEndCache::variants(std::string_view entry) const {
  std::vector<Variant> found;
  if (!isEntryName(entry)) return found;
  std::error_code error;
  std::filesystem::directory_iterator file(directory_ / entry, error);
  for (; !error && file != std::filesystem::directory_iterator(); file.increment(error)) {
    const std::string name = file->path().filename().string();
    if (!name.ends_with(kMetadataSuffix)) continue;
    std::string variant = name.substr(0, name.size() - kMetadataSuffix.size());
    if (!isVariantName(variant)) continue;
    if (std::optional<std::string> metadata = readFile(file->path()))
      found.push_back({std::move(variant), std::move(*metadata)});
  }
  std::sort(found.begin(), found.end(),
            [](const Variant& a, const Variant& b) { return a.name < b.name; });
  return found;
}

void FrontEndCache::markUsed(std::string_view entry, std::string_view variant) const {
  if (Expected<std::filesystem::path> metadata = metadataPath(entry, variant))
    markCacheFileUsed(*metadata);
}

Status FrontEndCache::store(
    std::string_view entry, std::string_view variant,
    const std::function<Status(const std::filesystem::path& library)>& writeLibrary,
    std::string_view metadata) const {
  Expected<std::filesystem::path> library = libraryPath(entry, variant);
  if (!library) return library.status();
  if (Status created = createDirectories(library->parent_path()); !created.ok()) return created;
  if (Status written = writeLibrary(*library); !written.ok()) return written;
  Expected<std::filesystem::path> metadataFile = metadataPath(entry, variant);
  if (Status written = writeFileAtomically(*metadataFile, metadata); !written.ok()) return written;
  Expected<uint64_t> maxBytes = cacheSizeLimitFromEnvironment();
  if (!maxBytes) return maxBytes.status();
  trimCache(directory_.parent_path(), *maxBytes);
  return {};
}

std::optional<std::string> FrontEndCache::readHost(std::string_view name) const {
  if (!isHostName(name)) return std::nullopt;
  return readFile(directory_ / concat(kHostPrefix, name, kHostSuffix));
}

Status FrontEndCache::storeHost(std::string_view name, std::string_view text) const {
  if (!isHostName(name)) return badName("a host", name);
  if (Status created = createDirectories(directory_); !created.ok()) return created;
  return writeFileAtomically(directory_ / concat(kHostPrefix, name, kHostSuffix), text);
}

AutotuneResults::AutotuneResults(const std::filesystem::path& cacheDirectory)
    : directory_(cacheDirectory / "autotune") {}

std::optional<AutotuneResults> AutotuneResults::fromEnvironment() {
  if (std::optional<std::filesystem::path> directory = namedCacheDirectory())
    return AutotuneResults(*directory);
  return std::nullopt;
}

bool AutotuneResults::isName(std::string_view name) {
  return !name.empty() && name.size() <= kMaxAutotuneName && !name.starts_with('.') &&
         name.find('/') == std::string_view::npos && name.find('\0') == std::string_view::npos;
}

Expected<std::filesystem::path> AutotuneResults::path(std::string_view name) const {
  if (!isName(name)) return badName("autotuning results", name);
  return directory_ / concat(name, kMetadataSuffix);
}

Status AutotuneResults::store(std::string_view name, std::string_view text) const {
  Expected<std::filesystem::path> file = path(name);
  if (!file) return file.status();
  // Parents as the user's umask says; the results' own directory private, as before.
  if (Status created = createDirectories(directory_.parent_path()); !created.ok()) return created;
  if (::mkdir(directory_.c_str(), 0700) != 0 && errno != EEXIST)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot create '", directory_.string(), "': ", std::strerror(errno)));
  return writeFileAtomically(*file, text);
}

} // namespace tcpu::codegen
