// tcpuKernelFindBuffer, tcpuKernelEnterProgram and tcpuKernelReportAccess: what
// bounds-checked kernels (codegen's TCPU_JIT_CHECK_BOUNDS) call. A checked kernel
// looks up the buffer of each pointer it derives addresses from once, checks its
// accesses against that extent inline, and calls into the runtime again only to
// report an access it skipped.
#include <cstdint>
#include <optional>
#include <string>

#include "launch/kernel_services.hpp"
#include "state/runtime_state.hpp"
#include "tcpu/kernel_abi.h"

namespace tcpu::detail {
namespace {

const char* accessName(uint32_t kind) {
  switch (static_cast<tcpuAccessKind>(kind)) {
  case TCPU_ACCESS_LOAD:
    return "load";
  case TCPU_ACCESS_STORE:
    return "store";
  case TCPU_ACCESS_ATOMIC:
    return "atomic update";
  case TCPU_ACCESS_KIND_MAX_ENUM:
    break;
  }
  return "access";
}

// "parameter 2 'output_ptr' (*fp32)", or "a pointer read from parameter 0 'a_ptrs' (*fp16)":
// the declared element type where the signature gave one, else the type the kernel accessed.
std::string describePointer(const tcpuAccessRecord& r, const tcpuKernelDesc* kernel) {
  const tcpuParamDesc* param =
      kernel && r.param < kernel->numParams ? &kernel->params[r.param] : nullptr;
  std::string text =
      concat(r.throughMemory ? "a pointer read from parameter " : "parameter ", r.param);
  if (param && param->name) text += concat(" '", param->name, "'");
  auto element = static_cast<tcpuDataType>(r.elementType);
  if (!r.throughMemory && param && param->pointee != TCPU_TYPE_UNKNOWN)
    element = static_cast<tcpuDataType>(param->pointee);
  text += element == TCPU_TYPE_UNKNOWN ? std::string(" (ptr)")
                                       : concat(" (*", tcpuDataTypeName(element), ")");
  return text;
}

// "offset 16000 (element 4000) outside its buffer of 16000 bytes"; offsets count from the
// pointer the address derives from, which may point into its buffer rather than at its start.
std::string describePlace(const tcpuAccessRecord& r, const std::optional<Extent>& buffer) {
  const auto base = reinterpret_cast<uintptr_t>(r.base);
  const auto offset = static_cast<int64_t>(reinterpret_cast<uintptr_t>(r.address) - base);
  std::string text = concat("offset ", offset);
  if (r.elementType != TCPU_TYPE_UNKNOWN && r.bytes > 0 &&
      offset % static_cast<int64_t>(r.bytes) == 0)
    text += concat(" (element ", offset / static_cast<int64_t>(r.bytes), ")");
  if (base == 0) return text + " through a null pointer";
  if (!buffer) return text + " outside its buffer (no longer allocated)";
  const char* what = buffer->registered ? "registered host range" : "buffer";
  if (buffer->start == base)
    return text + concat(" outside its ", what, " of ", buffer->size, " bytes");
  const auto from = static_cast<int64_t>(buffer->start - base);
  return text + concat(" outside its ", what, " of ", buffer->size, " bytes (offsets ", from,
                       " to ", from + static_cast<int64_t>(buffer->size), ")");
}

} // namespace
} // namespace tcpu::detail

extern "C" TCPU_API void tcpuKernelFindBuffer(const void* pointer, tcpuBufferExtent* extent) {
  if (!extent) return;
  const std::optional<tcpu::detail::Extent> buffer =
      tcpu::detail::runtime().memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (buffer)
    *extent = tcpuBufferExtent{buffer->start, buffer->size};
  else // a null pointer holds nothing; other memory the runtime does not know is not checked
    *extent = pointer ? tcpuBufferExtent{0, UINT64_MAX} : tcpuBufferExtent{0, 0};
}

extern "C" TCPU_API void tcpuKernelEnterProgram(uint32_t x, uint32_t y, uint32_t z) {
  if (tcpu::detail::LaunchContext* launch = tcpu::detail::currentLaunch()) {
    launch->program[0] = x;
    launch->program[1] = y;
    launch->program[2] = z;
    launch->programKnown = true;
  }
}

extern "C" TCPU_API void tcpuKernelReportAccess(const tcpuAccessRecord* record) {
  using namespace tcpu::detail;
  if (!record) return;
  const tcpuAccessRecord& r = *record;
  const LaunchContext* launch = currentLaunch();
  const std::string program = launch
                                  ? tcpu::concat("program (", launch->program[0], ", ",
                                                 launch->program[1], ", ", launch->program[2], ")")
                                  : std::string("outside a launch");
  reportFailure(
      TCPU_ERROR_ILLEGAL_ADDRESS,
      tcpu::concat(program, ": ", describePointer(r, launch ? launch->kernel : nullptr), ": ",
                   accessName(r.kind), " of ", r.bytes, " bytes at ",
                   describePlace(r, runtime().memory.find(reinterpret_cast<uintptr_t>(r.base)))));
}
