#include "clang/kernel_headers.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <mutex>
#include <system_error>

#include "cache/object_cache.hpp"
#include "kernel_flags.h"
#include "support/debug_log.hpp"
#include "support/file_stamps.hpp"
#include "support/install_layout.hpp"
#include "tcpu/status.hpp"

namespace tcpu::codegen {
namespace {

// The path with links resolved (as far as it exists), so that two spellings of one file compare
// equal.
std::filesystem::path resolved(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path : canonical;
}

// One file of the trees, as the digest sees it.
struct TreeFile {
  std::string path;
  uint64_t size = 0;
  int64_t modifiedNs = 0;
  bool operator==(const TreeFile&) const = default;
};

// Every regular file below <directory>/tcpu/, sorted by path.
std::vector<TreeFile> listTrees(const std::vector<std::string>& directories) {
  std::vector<TreeFile> files;
  for (const std::string& directory : directories) {
    const std::filesystem::path root = std::filesystem::path(directory) / "tcpu";
    std::error_code error;
    std::filesystem::recursive_directory_iterator walk(root, error);
    for (; !error && walk != std::filesystem::recursive_directory_iterator();
         walk.increment(error)) {
      struct stat info{};
      if (::stat(walk->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
      files.push_back(
          {walk->path().string(), static_cast<uint64_t>(info.st_size), statTimes(info).modifiedNs});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const TreeFile& a, const TreeFile& b) { return a.path < b.path; });
  return files;
}

std::string digestOf(const std::vector<TreeFile>& files) {
  FieldDigest digest;
  for (const TreeFile& file : files) {
    std::ifstream in(file.path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    digest.field(file.path);
    digest.field(in ? bytes : std::string("<unreadable>"));
  }
  return digest.finish();
}

} // namespace

const std::vector<std::string>& kernelIncludeDirectories() {
  static const std::vector<std::string> directories = [] {
    // An installed tcpu's <prefix>/include, beside its <prefix>/bin or <prefix>/lib.
    if (auto tl = installedPath("include/tcpu/tl.h"); tl && std::filesystem::is_regular_file(*tl)) {
      const std::string installed = tl->parent_path().parent_path().string();
      debugLog(concat("kernel headers: ", installed, " (installed)"));
      return std::vector<std::string>{installed};
    }
    return std::vector<std::string>{TCPU_KERNEL_INCLUDE_DIRS};
  }();
  return directories;
}

std::string headerTreeDigest(const std::vector<std::string>& directories) {
  return digestOf(listTrees(directories));
}

std::string kernelHeaderDigest() {
  static std::mutex mutex;
  static std::vector<TreeFile> seen;
  static std::string digest;
  std::vector<TreeFile> files = listTrees(kernelIncludeDirectories());
  std::lock_guard lock(mutex);
  if (digest.empty() || files != seen) {
    digest = digestOf(files);
    seen = std::move(files);
  }
  return digest;
}

bool isKernelHeader(const std::filesystem::path& path) {
  static const std::vector<std::filesystem::path> roots = [] {
    std::vector<std::filesystem::path> result;
    for (const std::string& directory : kernelIncludeDirectories())
      result.push_back(resolved(std::filesystem::path(directory) / "tcpu"));
    return result;
  }();
  const std::filesystem::path file = resolved(path);
  for (const std::filesystem::path& root : roots) {
    const auto [rootEnd, fileAt] =
        std::mismatch(root.begin(), root.end(), file.begin(), file.end());
    if (rootEnd == root.end()) return true;
  }
  return false;
}

} // namespace tcpu::codegen
