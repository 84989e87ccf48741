// Where each kernel parameter sits when all values are packed into one
// buffer at their natural alignment: CUDA's TCPU_LAUNCH_PARAM_BUFFER_POINTER
// form, and the copy an asynchronous launch keeps of its arguments.
#ifndef TCPU_SRC_PARAM_LAYOUT_HPP
#define TCPU_SRC_PARAM_LAYOUT_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tcpu/kernel_abi.h"

namespace tcpu::detail {

struct ParamLayout {
  std::vector<size_t> offsets; // per parameter
  size_t size = 0;             // bytes up to the end of the last parameter
  size_t maxAlign = 1;
};

ParamLayout layoutOf(const tcpuKernelDesc& desc);

// A private copy of launch arguments, alive until the queued launch runs.
class ParamCopy {
public:
  ParamCopy(const tcpuKernelDesc& desc, void* const* values);
  void* const* pointers() const { return pointers_.data(); }

private:
  std::vector<std::byte> storage_;
  std::vector<void*> pointers_;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_PARAM_LAYOUT_HPP
