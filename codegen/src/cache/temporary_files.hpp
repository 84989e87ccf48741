// How every file of the cache is written: whole, under a temporary name beside its final one, then
// renamed into place, so that readers see the old file or the whole new one. The one definition of
// the temporaries' names, "<final name>.tmp.<pid>.<n>.<random>[suffix]": writers make them with
// temporaryPathFor, and `tcpu cache clear` and pruning tell them (and whether their writer is
// gone) with parseTemporaryName.
#ifndef TCPU_CODEGEN_TEMPORARY_FILES_HPP
#define TCPU_CODEGEN_TEMPORARY_FILES_HPP

#include <filesystem>
#include <optional>
#include <string_view>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

// A name for writing `path` that no other writer uses: this process's id, a per-process counter
// and randomness.
std::filesystem::path temporaryPathFor(const std::filesystem::path& path);

struct TemporaryName {
  std::string_view target; // the final name (a view into the parsed name)
  long long writerPid = 0;
};
// What temporaryPathFor's file name `fileName` stands for; nullopt when it is not one. Files that
// writers put beside a temporary (the linker's "<temporary>.o" and ".log", clang's own
// "<temporary>-XXXXXXXX") count as that temporary: a killed writer leaves them too.
std::optional<TemporaryName> parseTemporaryName(std::string_view fileName);

// Writes `bytes` to `path` through a temporary (removed again when anything fails).
// TCPU_ERROR_OPERATING_SYSTEM naming the path when it cannot be written.
Status writeFileAtomically(const std::filesystem::path& path, std::string_view bytes);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_TEMPORARY_FILES_HPP
