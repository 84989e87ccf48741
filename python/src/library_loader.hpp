// Loads a kernel from a shared object that codegen wrote (tcpuCodegenWriteSharedObject): what
// both modules do with the front end's cached kernels, _tcpu_rt without LLVM.
#ifndef TCPU_PYTHON_LIBRARY_LOADER_HPP
#define TCPU_PYTHON_LIBRARY_LOADER_HPP

#include <memory>
#include <string>
#include <string_view>

#include "kernel.hpp"

namespace tcpu::python {

// Opens the shared object (never closed: its kernels may be launched until exit, and a module
// cache holds them) and wraps its kernel `name` in a module. The front end wrote the file into
// its own cache, so it skips the checks tcpuModuleLoad gives foreign files (the fork probe).
// ValueError when it cannot be opened or has no kernel `name`.
std::unique_ptr<Kernel> loadLibrary(const std::string& path, const std::string& name);
// loadLibrary of a file whose bytes `image` the caller has read and checked against the cache's
// seal: its ELF structure is checked first as tcpuModuleLoad checks it
// (tcpu::checkSharedObjectImage), so that a damaged file is a ValueError, never a crash in
// dlopen.
std::unique_ptr<Kernel> loadCheckedLibrary(const std::string& path, std::string_view image,
                                           const std::string& name);

} // namespace tcpu::python

#endif // TCPU_PYTHON_LIBRARY_LOADER_HPP
