// tcpu's headers that kernel source includes (tcpu/tl.h, tcpu/kernel_abi.h, ...): where they are,
// and a digest of their content for cache keys, so that an edited header is never compiled
// around.
#ifndef TCPU_CODEGEN_KERNEL_HEADERS_HPP
#define TCPU_CODEGEN_KERNEL_HEADERS_HPP

#include <filesystem>
#include <string>
#include <vector>

namespace tcpu::codegen {

// The include directories kernels are compiled with: an installed tcpu's <prefix>/include
// (beside the <prefix>/bin or <prefix>/lib holding this binary), else the source tree's
// directories that the build baked in.
const std::vector<std::string>& kernelIncludeDirectories();

// SHA-256 (hex) of the path and content of every file below <directory>/tcpu/ of each directory,
// in a fixed order. Only tcpu's own subtree: an installed <prefix>/include holds other projects'
// headers too.
std::string headerTreeDigest(const std::vector<std::string>& directories);

// headerTreeDigest(kernelIncludeDirectories()), recomputed only when a file of the trees has
// been added, removed or changed size or modification time since the last call (a directory walk
// and a stat per file, against reading every byte).
std::string kernelHeaderDigest();

// Whether `path` (absolute) lies in one of the trees kernelHeaderDigest covers, links resolved.
bool isKernelHeader(const std::filesystem::path& path);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_KERNEL_HEADERS_HPP
