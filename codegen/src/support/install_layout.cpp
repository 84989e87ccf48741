#include "support/install_layout.hpp"

#include <dlfcn.h>
#if defined(__GLIBC__)
#include <link.h>
#endif

#include <system_error>

#include "kernel_flags.h"
#include "support/debug_log.hpp"
#include "tcpu/status.hpp"

namespace tcpu::codegen {

std::filesystem::path ownBinaryDirectory() {
  Dl_info info{};
  const char* binary = nullptr;
#if defined(__GLIBC__)
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&ownBinaryDirectory), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0)
    return {};
  // For the main program glibc reports argv[0], which may be a bare name found on PATH.
  binary = map != nullptr && map->l_name[0] == '\0' ? "/proc/self/exe" : info.dli_fname;
#else
  if (dladdr(reinterpret_cast<void*>(&ownBinaryDirectory), &info) == 0) return {};
  binary = info.dli_fname;
#endif
  if (binary == nullptr) return {};
  std::error_code error;
  const std::filesystem::path path = std::filesystem::canonical(binary, error);
  return error ? std::filesystem::path() : path.parent_path();
}

std::optional<std::filesystem::path> installedPath(const std::filesystem::path& relative) {
  static const std::filesystem::path own = ownBinaryDirectory();
  std::filesystem::path directory = own;
  for (int up = 0; up < 2 && !directory.empty() && directory.has_parent_path(); ++up) {
    directory = directory.parent_path();
    std::error_code error;
    if (std::filesystem::exists(directory / relative, error)) return directory / relative;
  }
  return std::nullopt;
}

const std::string& clangResourceDirectory() {
  static const std::string directory = [] {
    // A resource directory is usable only with its headers.
    if (auto bundled = installedPath(std::filesystem::path(kBundleDirectory) / "clang" / "include" /
                                     "stddef.h")) {
      std::string found = bundled->parent_path().parent_path().string();
      debugLog(concat("clang resource directory: ", found, " (installed)"));
      return found;
    }
    return std::string(TCPU_CLANG_RESOURCE_DIR);
  }();
  return directory;
}

const std::string& compilerRtBuiltins() {
  static const std::string archive = [] {
    const std::filesystem::path configured = TCPU_COMPILER_RT_BUILTINS;
    if (configured.empty() || clangResourceDirectory() == TCPU_CLANG_RESOURCE_DIR)
      return configured.string();
    // The same file below the bundled resource directory, as the wheel lays it out.
    const std::filesystem::path relative =
        configured.lexically_relative(std::filesystem::path(TCPU_CLANG_RESOURCE_DIR));
    if (relative.empty() || *relative.begin() == "..") return configured.string();
    return (std::filesystem::path(clangResourceDirectory()) / relative).string();
  }();
  return archive;
}

} // namespace tcpu::codegen
