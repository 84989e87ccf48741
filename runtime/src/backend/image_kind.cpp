#include "backend/image_kind.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tcpu::detail {
namespace {

constexpr uint16_t kElfMachineCuda = 190;

} // namespace

GpuImageKind classifyGpuImage(std::span<const std::byte> bytes) {
  if (bytes.size() >= 20 && std::memcmp(bytes.data(),
                                        "\x7f"
                                        "ELF",
                                        4) == 0) {
    uint16_t machine = 0;
    std::memcpy(&machine, bytes.data() + 18, sizeof machine); // little-endian hosts only
    return machine == kElfMachineCuda ? GpuImageKind::Cubin : GpuImageKind::NotGpu;
  }
  // PTX: its directives come after comments, within the first few kilobytes.
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()),
                              std::min<size_t>(bytes.size(), 16384));
  if (text.find('\0') != std::string_view::npos) return GpuImageKind::NotGpu;
  const size_t version = text.find("\n.version ");
  const size_t target = text.find("\n.target ");
  const bool startsWithVersion = text.starts_with(".version ");
  return (version != std::string_view::npos || startsWithVersion) &&
                 target != std::string_view::npos
             ? GpuImageKind::Ptx
             : GpuImageKind::NotGpu;
}

} // namespace tcpu::detail
