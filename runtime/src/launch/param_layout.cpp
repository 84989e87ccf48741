#include "launch/param_layout.hpp"

#include <algorithm>
#include <cstring>

namespace tcpu::detail {

ParamLayout layoutOf(const tcpuKernelDesc& desc) {
  ParamLayout layout;
  layout.offsets.reserve(desc.numParams);
  for (uint32_t i = 0; i < desc.numParams; ++i) {
    const tcpuParamDesc& param = desc.params[i];
    layout.size = (layout.size + param.align - 1) / param.align * param.align;
    layout.offsets.push_back(layout.size);
    layout.size += param.size;
    layout.maxAlign = std::max<size_t>(layout.maxAlign, param.align);
  }
  return layout;
}

ParamCopy::ParamCopy(const tcpuKernelDesc& desc, void* const* values) {
  const ParamLayout layout = layoutOf(desc);
  storage_.resize(layout.size + layout.maxAlign);
  // Align the base so that every offset keeps its parameter's alignment.
  const auto raw = reinterpret_cast<uintptr_t>(storage_.data());
  std::byte* base = storage_.data() + ((layout.maxAlign - raw % layout.maxAlign) % layout.maxAlign);
  pointers_.resize(desc.numParams);
  for (uint32_t i = 0; i < desc.numParams; ++i) {
    pointers_[i] = base + layout.offsets[i];
    std::memcpy(pointers_[i], values[i], desc.params[i].size); // any source alignment
  }
}

} // namespace tcpu::detail
