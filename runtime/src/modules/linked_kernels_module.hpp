// A module over kernel descriptors already linked into the program (AOT
// objects, static builds): nothing to load or unload, only names to look up.
#ifndef TCPU_SRC_LINKED_KERNELS_MODULE_HPP
#define TCPU_SRC_LINKED_KERNELS_MODULE_HPP

#include <memory>
#include <span>

#include "tcpu/module_loader.hpp"

namespace tcpu::detail {

// Checks the list (no NULL descriptor or name, no name twice) and wraps it.
Expected<std::unique_ptr<LoadedModule>>
linkedKernelsModule(std::span<const tcpuKernelDesc* const> kernels);

} // namespace tcpu::detail

#endif // TCPU_SRC_LINKED_KERNELS_MODULE_HPP
