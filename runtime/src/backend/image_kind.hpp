// Which backend's code a module image is, read from its first bytes: a context refuses another
// backend's code with a message that says where it loads, before any loader reads it.
#ifndef TCPU_SRC_BACKEND_IMAGE_KIND_HPP
#define TCPU_SRC_BACKEND_IMAGE_KIND_HPP

#include <cstddef>
#include <span>

namespace tcpu::detail {

enum class GpuImageKind { NotGpu, Ptx, Cubin };

// PTX: text with a `.version` and a `.target` directive near its start; cubin: an ELF file for
// NVIDIA GPUs (e_machine EM_CUDA).
GpuImageKind classifyGpuImage(std::span<const std::byte> bytes);

} // namespace tcpu::detail

#endif // TCPU_SRC_BACKEND_IMAGE_KIND_HPP
