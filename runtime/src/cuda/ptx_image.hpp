// What the CUDA backend needs to know about a GPU module before the driver sees it (whether the
// bytes are PTX or a cubin at all is backend/image_kind.hpp's): each kernel's parameters, so that
// a launch's argument count and its pointers can be checked as the CPU backend checks them.
//
// A PTX kernel's parameters come from its `.entry` declaration (sizes only), or, for PTX that
// `tcpu ptx` wrote, from the line it puts before the code:
//   // tcpu.kernel add_kernel x_ptr:*fp32 y_ptr:*fp32 output_ptr:*fp32 n_elements:i32
// (types as tcpuDataTypeName names them, "*T" a pointer to T, "*?" one of unknown element type).
#ifndef TCPU_SRC_PTX_IMAGE_HPP
#define TCPU_SRC_PTX_IMAGE_HPP

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::detail {

struct PtxKernel {
  std::string name;
  std::vector<std::string> paramNames;       // "" where unknown
  std::vector<tcpuParamDesc> params;         // name pointers unset (they point into paramNames)
  bool typed = false;                        // the types came from a tcpu.kernel line
  std::array<unsigned, 3> requiredThreads{}; // .reqntid, or zeros
  std::array<unsigned, 3> maxThreads{};      // .maxntid, or zeros
};

// The kernels (.entry) of a PTX text. Malformed parameter lists, or a tcpu.kernel line that
// disagrees with its entry, are TCPU_ERROR_INVALID_IMAGE naming the kernel.
Expected<std::vector<PtxKernel>> parsePtxKernels(std::string_view ptx);

} // namespace tcpu::detail

#endif // TCPU_SRC_PTX_IMAGE_HPP
