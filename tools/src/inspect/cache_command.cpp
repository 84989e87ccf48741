// tcpu cache ls | clear: the compile cache's entries (with the kernels inside each), and
// removing them. Only tcpu's own files are touched (see cache_files.hpp).
#include <algorithm>
#include <ctime>
#include <fstream>
#include <iterator>

#include "cache/cache_files.hpp"
#include "cache/object_cache.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/format_size.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "cache",
    "ls|clear [--dir DIR]",
    "list or clear the compiled-kernel cache",
    "ls lists each entry: its file, size, modification time and the kernels compiled into\n"
    "it; an entry that cannot be read back is flagged DAMAGED (tcpu recompiles it). clear\n"
    "removes the entries (*.tcpuobj), tl's precompiled headers (*.tcpupch), the Python\n"
    "front end's compiled kernels (python/) and temporaries of writes that were cut off;\n"
    "nothing else in the directory. The directory is TCPU_CACHE_DIR, else\n"
    "$XDG_CACHE_HOME/tcpu, else ~/.cache/tcpu.",
    {{"dir", "DIR", "the cache directory to use instead of the environment's"}},
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
  if (file.kind == codegen::CacheFile::Kind::PrecompiledHeader)
    return "precompiled tl header (clang's; rebuilt when missing)";
  if (file.kind == codegen::CacheFile::Kind::FrontEnd) {
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

int list(const std::filesystem::path& directory, Console console) {
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
  console.out << formatSize(bytes) << "\n";
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

} // namespace

int runCache(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const std::string& action = start.arguments->positionals.front();
  if (action != "ls" && action != "clear")
    return reportFailure(console, "cache",
                         concat("unknown action '", action, "' (expected ls or clear)"),
                         kExitUsage);
  std::string absence;
  std::optional<std::filesystem::path> directory =
      codegen::cacheDirectory(start.arguments->get("dir"), absence);
  if (!directory)
    return reportFailure(console, "cache",
                         concat("no cache directory: ", absence, "; name one with --dir"),
                         kExitUsage);
  return action == "ls" ? list(*directory, console) : clear(*directory, console);
}

} // namespace tcpu::cli
