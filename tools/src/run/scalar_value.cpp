#include "run/scalar_value.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "formats/data_types.hpp"
#include "tcpu/float_chars.hpp"

namespace tcpu::cli {
namespace {

static_assert(std::endian::native == std::endian::little,
              "kernel values and .npy data are little-endian; so must the host be");

// value / 2^shift rounded to nearest, ties to even. value < 2^53, so for shifts past 53 the
// quotient is below one half and rounds to 0.
uint64_t shiftRoundingToEven(uint64_t value, int shift) {
  if (shift <= 0) return value;
  if (shift > 54) return 0;
  const uint64_t quotient = value >> shift;
  const uint64_t remainder = value & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  return quotient + ((remainder > half || (remainder == half && (quotient & 1))) ? 1 : 0);
}

// A double narrowed to a binary float of `exponentBits` + `mantissaBits` + sign (fp16: 5 + 10,
// bf16: 8 + 7) with one rounding, to nearest even, including into subnormals and infinity.
uint16_t narrowFloat(double value, int exponentBits, int mantissaBits) {
  const auto bits = std::bit_cast<uint64_t>(value);
  const auto sign = static_cast<uint16_t>((bits >> 63) << (exponentBits + mantissaBits));
  const uint64_t magnitude = bits & ~(uint64_t{1} << 63);
  const uint16_t infinity = static_cast<uint16_t>(((1u << exponentBits) - 1) << mantissaBits);
  if (magnitude >= 0x7ff0'0000'0000'0000) // infinity or NaN (a quiet one)
    return static_cast<uint16_t>(
        sign | infinity | (magnitude > 0x7ff0'0000'0000'0000 ? 1u << (mantissaBits - 1) : 0u));
  const int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (magnitude >> 52 == 0) return sign; // a double subnormal: far below any narrow subnormal
  const uint64_t significand = (magnitude & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  const int bias = (1 << (exponentBits - 1)) - 1;
  const int minNormalExponent = 1 - bias;
  uint64_t result = 0;
  if (exponent >= minNormalExponent) {
    // q in [2^m, 2^(m+1)]: its carry into the exponent field is the right encoding.
    const uint64_t q = shiftRoundingToEven(significand, 52 - mantissaBits);
    result = (static_cast<uint64_t>(exponent + bias - 1) << mantissaBits) + q;
  } else {
    // A subnormal: units of 2^(minNormalExponent - m); rounding up to 2^m gives the smallest
    // normal, again the right encoding.
    result = shiftRoundingToEven(significand, 52 - exponent + minNormalExponent - mantissaBits);
  }
  if (result >= infinity) return static_cast<uint16_t>(sign | infinity);
  return static_cast<uint16_t>(sign | result);
}

template <class T>
void storeValue(T value, std::byte* out) {
  std::memcpy(out, &value, sizeof value);
}

Status invalid(const std::string& what, std::string_view text, const std::string& problem) {
  return Status(TCPU_ERROR_INVALID_VALUE, concat(what, "='", text, "' ", problem));
}

// [min, max] of an integer type, as int128-free pairs: signed types in int64, unsigned in uint64.
struct IntegerRange {
  int64_t min;
  uint64_t max;
};

IntegerRange integerRange(tcpuDataType type) {
  const std::size_t bits = dataTypeSize(type) * 8;
  if (isSignedIntegerType(type))
    return {-static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1) - 1,
            (uint64_t{1} << (bits - 1)) - 1};
  return {0, bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1};
}

Expected<ScalarValue> parseInteger(tcpuDataType type, std::string_view text,
                                   const std::string& what) {
  ScalarValue scalar;
  scalar.type = type;
  if (type == TCPU_TYPE_I1) {
    if (text == "1" || text == "true" || text == "True")
      scalar.integer = 1;
    else if (text == "0" || text == "false" || text == "False")
      scalar.integer = 0;
    else
      return invalid(what, text, "is not a boolean (0, 1, true, false)");
    scalar.bytes[0] = static_cast<std::byte>(*scalar.integer);
    return scalar;
  }
  std::string_view digits = text.starts_with('+') ? text.substr(1) : text;
  const bool negative = digits.starts_with('-');
  const char* end = digits.data() + digits.size();
  const IntegerRange range = integerRange(type);
  const std::string rangeText = concat("[", range.min, ", ", range.max, "]");
  const auto outOfRange = [&] {
    return invalid(what, text,
                   concat("is out of range for ", tcpuDataTypeName(type), " ", rangeText));
  };
  if (negative) {
    int64_t value = 0;
    auto [stop, error] = std::from_chars(digits.data(), end, value);
    if (error == std::errc::result_out_of_range && stop == end) return outOfRange();
    if (digits.size() < 2 || error != std::errc() || stop != end)
      return invalid(what, text, "is not an integer");
    if (value < range.min) return outOfRange();
    scalar.integer = value;
    storeValue(value, scalar.bytes.data()); // the low bytes: the narrow type's two's complement
    return scalar;
  }
  uint64_t value = 0;
  auto [stop, error] = std::from_chars(digits.data(), end, value);
  if (error == std::errc::result_out_of_range && stop == end) return outOfRange();
  if (digits.empty() || error != std::errc() || stop != end)
    return invalid(what, text, "is not an integer");
  if (value > range.max) return outOfRange();
  if (value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    scalar.integer = static_cast<int64_t>(value);
  storeValue(value, scalar.bytes.data());
  return scalar;
}

template <class T>
Expected<T> parseFloatingPoint(std::string_view text, const std::string& what, tcpuDataType type) {
  const std::string_view digits =
      text.starts_with('+') && !text.starts_with("+-") ? text.substr(1) : text;
  T value = 0;
  const char* end = digits.data() + digits.size();
  auto [stop, error] = floatFromChars(digits.data(), end, value);
  if (error == std::errc::result_out_of_range && stop == end)
    return invalid(what, text, concat("is out of range for ", tcpuDataTypeName(type)));
  if (digits.empty() || error != std::errc() || stop != end)
    return invalid(what, text, "is not a number");
  return value;
}

Expected<ScalarValue> parseFloat(tcpuDataType type, std::string_view text,
                                 const std::string& what) {
  ScalarValue scalar;
  scalar.type = type;
  if (type == TCPU_TYPE_FP32) {
    Expected<float> value = parseFloatingPoint<float>(text, what, type);
    if (!value) return value.status();
    storeValue(*value, scalar.bytes.data());
    return scalar;
  }
  Expected<double> value = parseFloatingPoint<double>(text, what, type);
  if (!value) return value.status();
  if (type == TCPU_TYPE_FP64) {
    storeValue(*value, scalar.bytes.data());
    return scalar;
  }
  const uint16_t bits =
      type == TCPU_TYPE_FP16 ? halfFromDouble(*value) : bfloat16FromDouble(*value);
  const uint16_t infinity = type == TCPU_TYPE_FP16 ? 0x7c00 : 0x7f80;
  if (std::isfinite(*value) && (bits & 0x7fff) == infinity)
    return invalid(what, text, concat("is out of range for ", tcpuDataTypeName(type)));
  storeValue(bits, scalar.bytes.data());
  return scalar;
}

} // namespace

uint16_t halfFromDouble(double value) {
  return narrowFloat(value, 5, 10);
}
uint16_t bfloat16FromDouble(double value) {
  return narrowFloat(value, 8, 7);
}

Expected<ScalarValue> parseScalar(tcpuDataType type, std::string_view text,
                                  const std::string& what) {
  if (isFloatType(type)) return parseFloat(type, text, what);
  if (type == TCPU_TYPE_I1 || isSignedIntegerType(type) || isUnsignedIntegerType(type))
    return parseInteger(type, text, what);
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat(what, " has type ", tcpuDataTypeName(type), ", which takes no number"));
}

void storeFloat(tcpuDataType type, double value, std::byte* out) {
  switch (type) {
  case TCPU_TYPE_FP16:
    return storeValue(halfFromDouble(value), out);
  case TCPU_TYPE_BF16:
    return storeValue(bfloat16FromDouble(value), out);
  case TCPU_TYPE_FP32:
    return storeValue(static_cast<float>(value), out);
  default:
    return storeValue(value, out);
  }
}

void storeInteger(tcpuDataType type, int64_t value, std::byte* out) {
  if (isFloatType(type)) return storeFloat(type, static_cast<double>(value), out);
  if (type == TCPU_TYPE_I1) value &= 1;
  std::memcpy(out, &value, dataTypeSize(type)); // little-endian: the low bytes
}

} // namespace tcpu::cli
