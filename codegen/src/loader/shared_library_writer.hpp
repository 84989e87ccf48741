// Kernels compiled into a shared object that the runtime loads without LLVM: each kernel's
// descriptor (tcpu_kernel_desc_<name>, as tcpu/kernel.hpp exports them) is linked into the
// module, which is compiled for a system linker and linked by ld.lld against the SLEEF library
// and the runtime this process uses. The Python front end keeps these in its cache, so that a
// process whose kernels are all cached never loads LLVM (python/README.md).
#ifndef TCPU_CODEGEN_SHARED_LIBRARY_WRITER_HPP
#define TCPU_CODEGEN_SHARED_LIBRARY_WRITER_HPP

#include <cstddef>
#include <filesystem>
#include <span>
#include <vector>

#include "tcpu/module_loader.hpp"

namespace tcpu::codegen {

// Compiles `image` (LLVM IR, or C++ kernel source) with `options` and writes the shared object
// to `path` atomically (a temporary beside it, then a rename). TCPU_ERROR_NOT_SUPPORTED where
// there is no ELF linker (macOS, Windows) or ld.lld cannot be found.
Status writeSharedLibrary(std::span<const std::byte> image, const std::vector<JitOption>& options,
                          const std::filesystem::path& path);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_SHARED_LIBRARY_WRITER_HPP
