// tcpuKernelPrint and tcpuKernelAssertFail: the runtime functions behind tl's
// device_print and device_assert; the launch context kernel services report to.
#include "launch/kernel_services.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "state/cancel_flag.hpp"
#include "tcpu/kernel_abi.h"

namespace tcpu::detail {
namespace {

thread_local LaunchContext* runningLaunch = nullptr;

// One lock for all printing, so a call's lines stay together.
std::mutex& printMutex() {
  static std::mutex mutex;
  return mutex;
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else { // subnormal: normalize
    int shift = 0;
    while ((mantissa & 0x400u) == 0)
      mantissa <<= 1, ++shift;
    bits = sign | (static_cast<uint32_t>(113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// %f (six decimals), the decimal point a '.' whatever the process's LC_NUMERIC (snprintf's
// "%f" follows it: "1,500000" under a German locale). Always succeeds, as formatInteger.
bool formatFixed(double value, char* out, size_t size) {
  char text[512]; // the longest fixed text of a double: 309 digits, the sign and 7 more
  const std::to_chars_result written =
      std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 6);
  const size_t length = written.ec == std::errc() ? static_cast<size_t>(written.ptr - text) : 0;
  const size_t kept = size == 0 ? 0 : std::min(length, size - 1);
  std::memcpy(out, text, kept);
  if (size != 0) out[kept] = '\0';
  return true;
}

template <class T>
T read(const void* values, uint64_t index) {
  T value;
  std::memcpy(&value, static_cast<const char*>(values) + index * sizeof(T), sizeof(T));
  return value;
}

// An integer in decimal, or in hexadecimal as its unsigned bits of the same
// width. Always succeeds (true), as formatValue's other cases.
template <class T>
bool formatInteger(const tcpuPrintRecord& r, uint64_t index, char* out, size_t size) {
  const T value = read<T>(r.values, index);
  // Triton's GPU printf: hex zero-padded to the type's width (0x%08x for 32 bits).
  if (r.hex != 0)
    std::snprintf(out, size, "0x%0*llx", static_cast<int>(2 * sizeof(T)),
                  static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(value)));
  else if constexpr (std::is_signed_v<T>)
    std::snprintf(out, size, "%lld", static_cast<long long>(value));
  else
    std::snprintf(out, size, "%llu", static_cast<unsigned long long>(value));
  return true;
}

// Formats element `index` into `out`; false for an unknown type.
bool formatValue(const tcpuPrintRecord& r, uint64_t index, char* out, size_t size) {
  switch (static_cast<tcpuDataType>(r.type)) {
  case TCPU_TYPE_I1:
    std::snprintf(out, size, "%d", read<uint8_t>(r.values, index) ? 1 : 0);
    return true;
  case TCPU_TYPE_I8:
    return formatInteger<int8_t>(r, index, out, size);
  case TCPU_TYPE_I16:
    return formatInteger<int16_t>(r, index, out, size);
  case TCPU_TYPE_I32:
    return formatInteger<int32_t>(r, index, out, size);
  case TCPU_TYPE_I64:
    return formatInteger<int64_t>(r, index, out, size);
  case TCPU_TYPE_U8:
    return formatInteger<uint8_t>(r, index, out, size);
  case TCPU_TYPE_U16:
    return formatInteger<uint16_t>(r, index, out, size);
  case TCPU_TYPE_U32:
    return formatInteger<uint32_t>(r, index, out, size);
  case TCPU_TYPE_U64:
    return formatInteger<uint64_t>(r, index, out, size);
  // Floats as Triton's GPU printf writes them: %f (six decimals).
  case TCPU_TYPE_FP16:
    return formatFixed(static_cast<double>(halfToFloat(read<uint16_t>(r.values, index))), out,
                       size);
  case TCPU_TYPE_BF16: {
    const uint32_t bits = static_cast<uint32_t>(read<uint16_t>(r.values, index)) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return formatFixed(static_cast<double>(f), out, size);
  }
  case TCPU_TYPE_FP32:
    return formatFixed(static_cast<double>(read<float>(r.values, index)), out, size);
  case TCPU_TYPE_FP64:
    return formatFixed(read<double>(r.values, index), out, size);
  default:
    return false;
  }
}

} // namespace

void KernelFailures::record(tcpuResult code, std::string message) {
  std::lock_guard lock(mutex_);
  if (failed_.load(std::memory_order_relaxed)) return;
  first_ = Status(code, std::move(message));
  failed_.store(true, std::memory_order_release);
}

Status KernelFailures::status() const {
  if (!any()) return {};
  std::lock_guard lock(mutex_);
  return first_;
}

LaunchContext* currentLaunch() {
  return runningLaunch;
}

void reportFailure(tcpuResult code, std::string message) {
  if (runningLaunch) {
    runningLaunch->failures->record(code, std::move(message));
    return;
  }
  std::lock_guard lock(printMutex());
  std::fprintf(stderr, "%s\n", message.c_str());
}

LaunchScope::LaunchScope(KernelFailures& failures, const tcpuKernelDesc* kernel,
                         const uint32_t (&grid)[3], uint64_t begin, uint64_t end,
                         const tcpuCancelFlag* cancel)
    : context_{&failures, kernel, {grid[0], grid[1], grid[2]}, begin, end, {0, 0, 0},
               false,     cancel},
      previous_(runningLaunch) {
  runningLaunch = &context_;
}
LaunchScope::~LaunchScope() {
  runningLaunch = previous_;
}

} // namespace tcpu::detail

extern "C" TCPU_API int tcpuKernelCancelled(void) {
  const tcpu::detail::LaunchContext* launch = tcpu::detail::currentLaunch();
  return launch && tcpu::detail::cancelRaised(launch->cancel) ? 1 : 0;
}

extern "C" TCPU_API void tcpuKernelPrint(const tcpuPrintRecord* record) {
  if (!record) return;
  const tcpuPrintRecord& r = *record;
  const char* prefix = r.prefix ? r.prefix : "";
  const uint64_t rows = r.rank == 2 ? r.shape[0] : 1;
  const uint64_t cols = r.rank == 0 ? 1 : (r.rank == 1 ? r.shape[0] : r.shape[1]);
  std::string text;
  char value[64];
  char line[160];
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j) {
      if (!tcpu::detail::formatValue(r, i * cols + j, value, sizeof value))
        std::snprintf(value, sizeof value, "<type %" PRIu32 ">", r.type);
      // "pid (x, y, z) idx (i, j) ", with as many indices as the rank.
      int used =
          std::snprintf(line, sizeof line, "pid (%" PRIu32 ", %" PRIu32 ", %" PRIu32 ") idx (",
                        r.programId[0], r.programId[1], r.programId[2]);
      if (r.rank == 2)
        used +=
            std::snprintf(line + used, sizeof line - static_cast<size_t>(used), "%" PRIu64 ", ", i);
      if (r.rank >= 1)
        used += std::snprintf(line + used, sizeof line - static_cast<size_t>(used), "%" PRIu64, j);
      std::snprintf(line + used, sizeof line - static_cast<size_t>(used), ") ");
      text += line;
      text += prefix;
      // "x" prints as "x: 1", as Triton separates its prefix from the value.
      const size_t length = std::strlen(prefix);
      if (length > 0 && prefix[length - 1] != ' ' && prefix[length - 1] != ':') text += ':';
      if (length > 0 && prefix[length - 1] != ' ') text += ' ';
      text += value;
      text += '\n';
    }
  std::lock_guard lock(tcpu::detail::printMutex());
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

extern "C" TCPU_API void tcpuKernelAssertFail(const tcpuAssertRecord* record) {
  if (!record) return;
  const tcpuAssertRecord& r = *record;
  std::string message =
      tcpu::concat("device_assert failed in program (", r.programId[0], ", ", r.programId[1], ", ",
                   r.programId[2], ") at ", r.file ? r.file : "?", ":", r.line,
                   r.function ? std::string(" in ") + r.function : std::string(), ": ",
                   r.message ? r.message : "");
  tcpu::detail::reportFailure(TCPU_ERROR_ASSERT, std::move(message));
}
