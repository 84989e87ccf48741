#include "tcpu/cache_directory.hpp"

#include <cstdlib>

#include "tcpu/environment.hpp"

namespace tcpu::codegen {

std::optional<std::filesystem::path> namedCacheDirectory() {
  if (const char* dir = std::getenv("TCPU_CACHE_DIR"); dir && *dir)
    return std::filesystem::path(dir);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "tcpu";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "tcpu";
  return std::nullopt;
}

Expected<std::optional<std::filesystem::path>> cacheDirectoryFromEnvironment() {
  Expected<bool> disabled = environmentFlag("TCPU_CACHE_DISABLE", false);
  if (!disabled) return disabled.status();
  if (*disabled) return std::optional<std::filesystem::path>();
  return namedCacheDirectory();
}

} // namespace tcpu::codegen
