// Numbers as kernels take them: command-line text parsed into the bytes of a scalar type,
// range-checked, and doubles or integers stored as buffer elements (for `tcpu run`'s scalar
// arguments and generated buffers). fp16 and bf16 are rounded to nearest, ties to even.
#ifndef TCPU_TOOLS_SCALAR_VALUE_HPP
#define TCPU_TOOLS_SCALAR_VALUE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tcpu/status.hpp"

namespace tcpu::cli {

struct ScalarValue {
  tcpuDataType type = TCPU_TYPE_UNKNOWN;
  alignas(8) std::array<std::byte, 8> bytes{}; // the value in its first dataTypeSize(type) bytes
  std::optional<int64_t> integer; // integer types, when the value fits int64 (grid expressions)
};

// Parses `text` as a value of `type`. Integers: whole decimal numbers within the type's range
// (i1: 0, 1, true, false). fp32 and fp64: correctly rounded from the decimal text (also inf,
// nan); fp16 and bf16: through fp64, then rounded to nearest even. Out-of-range values are
// errors. Messages read "<what>='<text>' ...".
Expected<ScalarValue> parseScalar(tcpuDataType type, std::string_view text,
                                  const std::string& what);

// fp16 / bf16 bits of `value`, rounded to nearest, ties to even (overflow gives infinity).
uint16_t halfFromDouble(double value);
uint16_t bfloat16FromDouble(double value);

// Stores `value` as one element of a float type at `out` (rounded to nearest even).
void storeFloat(tcpuDataType type, double value, std::byte* out);
// Stores `value` as one element of `type` at `out`: integer types keep its low bits (i1 its
// lowest bit), float types its nearest value.
void storeInteger(tcpuDataType type, int64_t value, std::byte* out);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_SCALAR_VALUE_HPP
