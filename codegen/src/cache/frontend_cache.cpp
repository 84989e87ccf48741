#include "tcpu/frontend_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "cache/cache_limit.hpp"
#include "cache/cache_lock.hpp"
#include "cache/frontend_seal.hpp"
#include "cache/temporary_files.hpp"
#include "support/debug_log.hpp"
#include "support/kill_point.hpp"
#include "tcpu/cache_directory.hpp"

namespace tcpu::codegen {
namespace {

constexpr std::string_view kLibrarySuffix = ".so";
constexpr std::string_view kMetadataSuffix = ".json";
constexpr std::string_view kHostPrefix = "host-";
constexpr std::string_view kCompileLockPrefix = "compile-";
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

// Creates the cache's own directories below `cacheDirectory` down to `directory` private (0700),
// whatever the umask, so that distrust() accepts what this process made; the cache directory's
// parents as the user's umask says.
Status createPrivateDirectories(const std::filesystem::path& cacheDirectory,
                                const std::filesystem::path& directory) {
  if (Status parents = createDirectories(cacheDirectory.parent_path()); !parents.ok())
    return parents;
  std::filesystem::path path = cacheDirectory;
  const std::filesystem::path below = directory.lexically_relative(cacheDirectory);
  for (auto part = below.begin();; ++part) {
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
      return Status(TCPU_ERROR_OPERATING_SYSTEM,
                    concat("cannot create '", path.string(), "': ", std::strerror(errno)));
    if (part == below.end() || part->empty() || *part == ".") break;
    path /= *part;
  }
  return {};
}

// Why `path` (a directory when `directory`) may not be trusted, or nullopt: it must be this
// user's and, for a directory, writable by nobody else. A path that does not exist is no
// objection (it is created private).
std::optional<std::string> distrustPath(const std::filesystem::path& path, bool directory) {
  struct stat info{};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  if (info.st_uid != ::geteuid())
    return concat("'", path.string(), "' belongs to another user (uid ", info.st_uid, ")");
  if (directory && (!S_ISDIR(info.st_mode) || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0))
    return concat("'", path.string(), "' is ",
                  S_ISDIR(info.st_mode) ? "writable by others" : "not a directory");
  return std::nullopt;
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

Status FrontEndCache::checkEnvironment() {
  if (Expected<std::optional<std::filesystem::path>> directory = cacheDirectoryFromEnvironment();
      !directory)
    return directory.status();
  if (Expected<uint64_t> maxBytes = cacheSizeLimitFromEnvironment(); !maxBytes)
    return maxBytes.status();
  return {};
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

std::optional<std::string> FrontEndCache::distrust() const {
  for (const std::filesystem::path& directory : {directory_.parent_path(), directory_})
    if (std::optional<std::string> why = distrustPath(directory, true)) return why;
  return std::nullopt;
}

std::vector<FrontEndCache::Variant> FrontEndCache::variants(std::string_view entry) const {
  std::vector<Variant> found;
  if (!isEntryName(entry) || distrustPath(directory_ / entry, true)) return found;
  std::error_code error;
  std::filesystem::directory_iterator file(directory_ / entry, error);
  for (; !error && file != std::filesystem::directory_iterator(); file.increment(error)) {
    const std::string name = file->path().filename().string();
    if (!name.ends_with(kMetadataSuffix)) continue;
    std::string variant = name.substr(0, name.size() - kMetadataSuffix.size());
    if (!isVariantName(variant)) continue;
    std::optional<std::string> text = readFile(file->path());
    std::optional<FrontEndSeal> seal = text ? readSeal(*text) : std::nullopt;
    if (seal && seal->entry == entry && seal->variant == variant &&
        !distrustPath(file->path(), false))
      found.push_back({std::move(variant), std::move(seal->metadata)});
    else
      debugLog(concat("python cache: ", file->path().string(), " is damaged or not sealed for ",
                      "where it is: compiling again"));
  }
  std::sort(found.begin(), found.end(),
            [](const Variant& a, const Variant& b) { return a.name < b.name; });
  return found;
}

Expected<std::string> FrontEndCache::readLibrary(std::string_view entry,
                                                 std::string_view variant) const {
  Expected<std::filesystem::path> library = libraryPath(entry, variant);
  if (!library) return library.status();
  std::error_code error;
  if (!std::filesystem::exists(*library, error))
    return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("'", library->string(), "' does not exist"));
  std::string bytes;
  if (std::optional<std::string> why = checkVariantFile(*library, &bytes))
    return Status(TCPU_ERROR_INVALID_IMAGE, concat("python cache: ", *why));
  return bytes;
}

std::optional<std::string> FrontEndCache::damage(const std::filesystem::path& file) {
  return checkVariantFile(file, nullptr);
}

bool FrontEndCache::isUnsealedLibrary(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  if (!name.ends_with(kLibrarySuffix)) return false;
  const std::string variant = name.substr(0, name.size() - kLibrarySuffix.size());
  if (!isEntryName(file.parent_path().filename().string()) || !isVariantName(variant)) return false;
  std::error_code error;
  return !std::filesystem::exists(file.parent_path() / concat(variant, kMetadataSuffix), error) &&
         !error;
}

std::optional<std::string> FrontEndCache::checkVariantFile(const std::filesystem::path& file,
                                                           std::string* library) {
  const std::string name = file.filename().string();
  const std::string entry = file.parent_path().filename().string();
  const bool isLibrary = name.ends_with(kLibrarySuffix);
  const std::string variant =
      name.substr(0, name.size() - (isLibrary ? kLibrarySuffix : kMetadataSuffix).size());
  if (!isEntryName(entry) || !isVariantName(variant)) return std::nullopt; // not a variant's
  for (const auto& [path, directory] :
       {std::pair{file.parent_path(), true}, std::pair{file, false}})
    if (std::optional<std::string> why = distrustPath(path, directory)) return why;
  const std::filesystem::path metadataFile = file.parent_path() / concat(variant, kMetadataSuffix);
  std::optional<std::string> text = readFile(metadataFile);
  if (!text && isLibrary && isUnsealedLibrary(file))
    return concat("not sealed: '", metadataFile.string(),
                  "' is missing (its writer was stopped before sealing it; prune removes it)");
  if (!text) return concat("'", metadataFile.string(), "' cannot be read");
  std::optional<FrontEndSeal> seal = readSeal(*text);
  if (!seal) return concat("'", metadataFile.string(), "' is damaged (no seal)");
  if (seal->entry != entry || seal->variant != variant)
    return concat("'", metadataFile.string(), "' was written for entry ", seal->entry.substr(0, 12),
                  "... variant ", seal->variant, ", not for where it is");
  if (!isLibrary) return std::nullopt;
  std::optional<std::string> bytes = readFile(file);
  if (!bytes) return concat("'", file.string(), "' cannot be read");
  if (bytes->size() != seal->libraryBytes)
    return concat("'", file.string(), "' has ", bytes->size(), " bytes, not the ",
                  seal->libraryBytes, " written (truncated or replaced)");
  if (libraryChecksum(*bytes) != seal->libraryChecksum)
    return concat("'", file.string(), "' does not match its checksum (damaged)");
  if (library) *library = std::move(*bytes);
  return std::nullopt;
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
  if (Status created = createPrivateDirectories(directory_.parent_path(), library->parent_path());
      !created.ok())
    return created;
  if (Status written = writeLibrary(*library); !written.ok()) return written;
  killPointForTests("seal");
  // Sealed as written: what a later load reads must be these bytes.
  std::optional<std::string> bytes = readFile(*library);
  if (!bytes)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot read back '", library->string(), "'"));
  const std::string sealed = writeSeal({std::string(entry), std::string(variant), bytes->size(),
                                        libraryChecksum(*bytes), std::string(metadata)});
  Expected<std::filesystem::path> metadataFile = metadataPath(entry, variant);
  if (Status written = writeFileAtomically(*metadataFile, sealed); !written.ok()) return written;
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
  if (Status created = createPrivateDirectories(directory_.parent_path(), directory_);
      !created.ok())
    return created;
  return writeFileAtomically(directory_ / concat(kHostPrefix, name, kHostSuffix), text);
}

EntryCompileLock::EntryCompileLock(const FrontEndCache& cache, std::string_view entry) {
  if (!FrontEndCache::isEntryName(entry)) return;
  const std::filesystem::path& directory = cache.directory();
  if (!createPrivateDirectories(directory.parent_path(), directory).ok()) return;
  lock_ = std::make_unique<CacheLock>(directory /
                                      concat(kCompileLockPrefix, entry.substr(0, 2), ".lock"));
}

EntryCompileLock::~EntryCompileLock() = default;

bool EntryCompileLock::opened() const {
  return lock_ && lock_->opened();
}

bool EntryCompileLock::acquire(std::chrono::milliseconds wait) {
  return opened() && lock_->acquire(wait);
}

void EntryCompileLock::release() {
  lock_.reset();
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
