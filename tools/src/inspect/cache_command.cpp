// tcpu cache ls | clear | prune: the compile cache's entries (with the kernels inside each), its
// size against its limit, and removing them, all or the least recently used. Only tcpu's own files
// are touched (see cache_files.hpp).
#include <algorithm>
#include <ctime>
#include <fstream>
#include <iterator>

#include "cache/cache_files.hpp"
#include "cache/cache_limit.hpp"
#include "cache/object_cache.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/format_size.hpp"
#include "tcpu/environment.hpp"
#include "tcpu/frontend_cache.hpp"
#include "clang/precompiled_header.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "cache",
    "ls|clear|prune [--dir DIR] [--max-size SIZE]",
    "list, clear or prune the compiled-kernel cache",
    "ls lists each entry: its file, size, modification time and the kernels compiled into\n"
    "it; a file that cannot be read back whole (an entry, a precompiled header, a Python\n"
    "kernel that does not match its seal) is flagged DAMAGED (tcpu rebuilds it). clear\n"
    "removes the entries (*.tcpuobj), tl's precompiled headers (*.tcpupch), the Python\n"
    "front end's compiled kernels (python/) and temporaries of writes that were cut off;\n"
    "nothing else in the directory. prune removes the least recently used of these until\n"
    "they take at most --max-size (default TCPU_CACHE_MAX_SIZE, else 1 GiB), as every write\n"
    "into the cache does by itself when the cache is over its limit (it then prunes to 90%).\n"
    "The directory is TCPU_CACHE_DIR, else $XDG_CACHE_HOME/tcpu, else ~/.cache/tcpu.",
    {{"dir", "DIR", "the cache directory to use instead of the environment's"},
     {"max-size", "SIZE",
      "prune: the size to prune to, as in TCPU_CACHE_MAX_SIZE (512M, 2GiB, 0 for everything)"}},
    1,
    1};

std::string formatTime(std::time_t time) {
  std::tm local{};
  localtime_r(&time, &local);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
  return text;
}

// What a file holds, for ls: the kernel names, or why there are none.
std::string describeContents(const codegen::CacheFile& file) {
  if (file.kind == codegen::CacheFile::Kind::Temporary)
    return codegen::isStaleTemporary(file)
               ? "temporary, stale (clear removes it)"
               : concat("temporary, being written by process ", file.writerPid);
  if (file.kind == codegen::CacheFile::Kind::PrecompiledHeader) {
    if (std::optional<std::string> damage = codegen::precompiledHeaderDamage(file.path))
      return concat("DAMAGED (", *damage, "; tcpu rebuilds it)");
    return "precompiled tl header (clang's; rebuilt when missing or damaged)";
  }
  if (file.kind == codegen::CacheFile::Kind::FrontEnd) {
    if (std::optional<std::string> damage = codegen::FrontEndCache::damage(file.path))
      return concat("DAMAGED (", *damage, "; tcpu compiles it again)");
    const std::string name = file.path.filename().string();
    if (name.ends_with(".so")) return "Python kernel, compiled (shared object)";
    if (name.starts_with("host-")) return "the host CPU's name for the Python front end";
    return "Python kernel: what it was compiled from (checked at each load)";
  }
  std::ifstream in(file.path, std::ios::binary);
  if (!in) return "DAMAGED (cannot be read)";
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<codegen::CompiledModule> module = codegen::deserializeEntry(bytes);
  if (!module) return "DAMAGED (truncated or corrupt; tcpu recompiles it)";
  std::string names;
  for (const codegen::KernelInfo& kernel : module->kernels)
    names += (names.empty() ? "" : ", ") + kernel.name;
  return names;
}

int list(const std::filesystem::path& directory, uint64_t maxBytes, Console console) {
  Expected<std::vector<codegen::CacheFile>> files = codegen::listCacheFiles(directory);
  if (!files) return reportFailure(console, "cache", files.status(), kExitInputOutput);
  std::size_t entries = 0, headers = 0, frontEnd = 0;
  uint64_t bytes = 0;
  for (const codegen::CacheFile& file : *files)
    if (file.kind != codegen::CacheFile::Kind::Temporary) {
      ++(file.kind == codegen::CacheFile::Kind::Entry               ? entries
         : file.kind == codegen::CacheFile::Kind::PrecompiledHeader ? headers
                                                                    : frontEnd);
      bytes += file.size;
    }
  std::error_code error;
  console.out << "cache " << directory.string() << ": "
              << (std::filesystem::exists(directory, error) ? "" : "does not exist, ") << entries
              << (entries == 1 ? " entry, " : " entries, ");
  if (headers > 0)
    console.out << headers << (headers == 1 ? " precompiled header, " : " precompiled headers, ");
  if (frontEnd > 0)
    console.out << frontEnd
                << (frontEnd == 1 ? " Python front-end file, " : " Python front-end files, ");
  console.out << formatSize(bytes) << " of "
              << (maxBytes == 0 ? "no limit" : concat(formatSize(maxBytes), " (limit)")) << "\n";
  for (const codegen::CacheFile& file : *files) {
    std::string size = formatSize(file.size);
    size.resize(std::max<std::size_t>(size.size(), 9), ' ');
    console.out << "  " << file.path.lexically_relative(directory).string() << "  " << size << "  "
                << formatTime(file.modified) << "  " << describeContents(file) << "\n";
  }
  return kExitSuccess;
}

int clear(const std::filesystem::path& directory, Console console) {
  std::error_code error;
  if (!std::filesystem::exists(directory, error)) {
    console.out << "cache " << directory.string() << " does not exist: nothing to clear\n";
    return kExitSuccess;
  }
  Expected<std::vector<codegen::CacheFile>> files = codegen::listCacheFiles(directory);
  if (!files) return reportFailure(console, "cache", files.status(), kExitInputOutput);
  std::size_t entries = 0, headers = 0, frontEnd = 0, temporaries = 0, kept = 0;
  uint64_t bytes = 0;
  for (const codegen::CacheFile& file : *files) {
    const bool temporary = file.kind == codegen::CacheFile::Kind::Temporary;
    if (temporary && !codegen::isStaleTemporary(file)) {
      ++kept; // a write in progress: removing it would fail that writer's rename
      continue;
    }
    if (!std::filesystem::remove(file.path, error) && error)
      return reportFailure(console, "cache",
                           concat("cannot remove '", file.path.string(), "': ", error.message()),
                           kExitInputOutput);
    ++(temporary                                                  ? temporaries
       : file.kind == codegen::CacheFile::Kind::Entry             ? entries
       : file.kind == codegen::CacheFile::Kind::PrecompiledHeader ? headers
                                                                  : frontEnd);
    bytes += file.size;
  }
  codegen::removeEmptyFrontEndDirectories(directory);
  if (entries + headers + frontEnd + temporaries == 0) {
    console.out << "cache " << directory.string() << ": nothing to clear";
  } else {
    console.out << "cache " << directory.string() << ": removed " << entries
                << (entries == 1 ? " entry" : " entries");
    if (headers > 0)
      console.out << ", " << headers
                  << (headers == 1 ? " precompiled header" : " precompiled headers");
    if (frontEnd > 0)
      console.out << ", " << frontEnd
                  << (frontEnd == 1 ? " Python front-end file" : " Python front-end files");
    console.out << " and " << temporaries
                << (temporaries == 1 ? " stale temporary" : " stale temporaries") << " ("
                << formatSize(bytes) << ")";
  }
  if (kept > 0) console.out << "; kept " << kept << " being written";
  console.out << "\n";
  return kExitSuccess;
}

int prune(const std::filesystem::path& directory, uint64_t maxBytes, Console console) {
  Expected<codegen::PruneReport> pruned = codegen::pruneCache(directory, maxBytes, maxBytes);
  if (!pruned) return reportFailure(console, "cache", pruned.status(), kExitInputOutput);
  if (pruned->busy)
    return reportFailure(console, "cache",
                         concat("another process has held '", (directory / "prune.lock").string(),
                                "' for seconds: try again"),
                         kExitInputOutput);
  console.out << "cache " << directory.string() << ": " << formatSize(pruned->bytesBefore);
  if (pruned->filesRemoved == 0)
    console.out << ", within " << formatSize(maxBytes) << ": nothing to prune\n";
  else
    console.out << " -> " << formatSize(pruned->bytesAfter) << " (limit " << formatSize(maxBytes)
                << "): removed " << pruned->filesRemoved
                << (pruned->filesRemoved == 1 ? " file, " : " files, ")
                << formatSize(pruned->bytesRemoved) << ", least recently used first\n";
  return kExitSuccess;
}

} // namespace

int runCache(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const std::string& action = start.arguments->positionals.front();
  if (action != "ls" && action != "clear" && action != "prune")
    return reportFailure(console, "cache",
                         concat("unknown action '", action, "' (expected ls, clear or prune)"),
                         kExitUsage);
  const std::optional<std::string> maxSize = start.arguments->get("max-size");
  if (maxSize && action != "prune")
    return reportFailure(console, "cache", "--max-size is an option of prune only", kExitUsage);
  Expected<uint64_t> maxBytes =
      maxSize ? parseByteSize(*maxSize, "--max-size") : codegen::cacheSizeLimitFromEnvironment();
  if (!maxBytes) return reportFailure(console, "cache", maxBytes.status(), kExitUsage);
  std::string absence;
  std::optional<std::filesystem::path> directory =
      codegen::cacheDirectory(start.arguments->get("dir"), absence);
  if (!directory)
    return reportFailure(console, "cache",
                         concat("no cache directory: ", absence, "; name one with --dir"),
                         kExitUsage);
  if (action == "ls") return list(*directory, *maxBytes, console);
  if (action == "clear") return clear(*directory, console);
  if (!maxSize && *maxBytes == 0) { // TCPU_CACHE_MAX_SIZE=0: the cache has no limit
    console.out << "cache " << directory->string()
                << ": no limit (TCPU_CACHE_MAX_SIZE=0): nothing to prune\n";
    return kExitSuccess;
  }
  return prune(*directory, *maxBytes, console);
}

} // namespace tcpu::cli
