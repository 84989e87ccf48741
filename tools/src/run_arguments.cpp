#include "run_arguments.hpp"

#include <algorithm>
#include <random>
#include <string_view>

#include "command_line.hpp"
#include "data_types.hpp"
#include "runtime_session.hpp"

namespace tcpu::cli {
namespace {

// Generated buffers stop at 1 TiB: beyond that a typo, not a request.
constexpr uint64_t kMaxGeneratedBytes = uint64_t{1} << 40;

std::string argumentName(const KernelParameter& parameter, std::size_t index) {
  return concat("--arg ", index + 1, " (", describeParameter(parameter), ")");
}

Status invalid(const std::string& message) {
  return Status(TCPU_ERROR_INVALID_VALUE, message);
}

// The generator's buffer: `count` elements filled by fill(i, element).
template <class Fill>
NpyArray generate(tcpuDataType type, uint64_t count, Fill fill) {
  NpyArray array{type, {count}, {}};
  const std::size_t size = dataTypeSize(type);
  array.data.resize(count * size);
  for (uint64_t i = 0; i < count; ++i)
    fill(i, array.data.data() + i * size);
  return array;
}

// Whether `text` is a generator rather than a file name.
bool namesGenerator(std::string_view text) {
  for (std::string_view kind : {"zeros:", "arange:", "rand:", "full:"})
    if (text.starts_with(kind)) return true;
  return false;
}

// zeros:N, arange:N, rand:N or full:N:VALUE.
Expected<NpyArray> generateBuffer(const KernelParameter& parameter, std::size_t index,
                                  std::string_view text, uint64_t seed) {
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string what = argumentName(parameter, index);
  const tcpuDataType type = static_cast<tcpuDataType>(parameter.desc.pointee);
  if (dataTypeSize(type) == 0)
    return invalid(concat(what, ": the kernel does not say what pointer '", parameter.name,
                          "' points to, so '", kind,
                          "' cannot make its elements; pass --signature (e.g. '*fp32, ...')"));
  std::string_view rest = text.substr(colon + 1);
  std::string_view value;
  if (kind == "full") {
    const std::size_t second = rest.find(':');
    if (second == std::string_view::npos)
      return invalid(concat(what, "='", text, "' needs a value: full:N:VALUE"));
    value = rest.substr(second + 1);
    rest = rest.substr(0, second);
  }
  Expected<long long> count =
      parseInteger(concat(what, " ", kind, ":N"), std::string(rest), 0,
                   static_cast<long long>(kMaxGeneratedBytes / dataTypeSize(type)));
  if (!count) return count.status();
  const auto n = static_cast<uint64_t>(*count);
  if (kind == "zeros") return generate(type, n, [](uint64_t, std::byte*) {});
  if (kind == "arange")
    return generate(type, n, [type](uint64_t i, std::byte* out) {
      storeInteger(type, static_cast<int64_t>(i), out);
    });
  if (kind == "full") {
    Expected<ScalarValue> element = parseScalar(type, value, concat(what, " full value"));
    if (!element) return element.status();
    const std::size_t size = dataTypeSize(type);
    return generate(
        type, n, [&](uint64_t, std::byte* out) { std::copy_n(element->bytes.begin(), size, out); });
  }
  // rand: mt19937_64's output is fixed by the standard, and the conversions below are explicit,
  // so a seed gives the same buffer with every compiler and library.
  std::seed_seq sequence{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                         static_cast<uint32_t>(index)};
  std::mt19937_64 random(sequence);
  return generate(type, n, [&](uint64_t, std::byte* out) {
    const uint64_t bits = random();
    if (isFloatType(type))
      storeFloat(type, static_cast<double>(bits >> 11) * 0x1p-53, out); // uniform in [0, 1)
    else
      storeInteger(type, static_cast<int64_t>(bits % 100), out); // uniform in [0, 100)
  });
}

Expected<NpyArray> readBuffer(const KernelParameter& parameter, std::size_t index,
                              const std::string& path) {
  const std::string what = argumentName(parameter, index);
  Expected<NpyArray> array = readNpyFile(path);
  if (!array) {
    const Status& status = array.status();
    // Content errors come back as invalid values; to the command they are unreadable input.
    return Status(status.code() == TCPU_ERROR_INVALID_VALUE ? TCPU_ERROR_INVALID_IMAGE
                                                            : status.code(),
                  concat(what, ": ", status.message()));
  }
  const auto expected = static_cast<tcpuDataType>(parameter.desc.pointee);
  if (dataTypeSize(expected) == 0)
    return invalid(concat(what, ": the kernel does not say what pointer '", parameter.name,
                          "' points to, so '", path,
                          "' cannot be checked against it; pass --signature (e.g. '*fp32, ...')"));
  // bf16 travels in .npy files as its bits, <u2 (see npy.hpp).
  if (expected == TCPU_TYPE_BF16 && array->type == TCPU_TYPE_U16) array->type = expected;
  if (array->type != expected)
    return invalid(concat(what, ": '", path, "' holds ", tcpuDataTypeName(array->type), " (",
                          npyDescriptor(array->type), ") but the kernel reads ",
                          tcpuDataTypeName(expected), " (", npyDescriptor(expected), ")"));
  return array.take();
}

} // namespace

Expected<std::vector<KernelParameter>> kernelParameters(tcpuFunction function) {
  unsigned count = 0;
  if (const tcpuResult result = tcpuFuncGetParamCount(&count, function); result != TCPU_SUCCESS)
    return runtimeFailure(result, "tcpuFuncGetParamCount");
  std::vector<KernelParameter> parameters(count);
  for (unsigned i = 0; i < count; ++i) {
    KernelParameter& parameter = parameters[i];
    if (const tcpuResult result = tcpuFuncGetParamInfo(&parameter.desc, function, i);
        result != TCPU_SUCCESS)
      return runtimeFailure(result, "tcpuFuncGetParamInfo");
    const bool named = parameter.desc.name && *parameter.desc.name;
    parameter.name = named ? parameter.desc.name : concat("arg", i);
  }
  return parameters;
}

std::string describeParameter(const KernelParameter& parameter) {
  const auto type = static_cast<tcpuDataType>(parameter.desc.type);
  if (type != TCPU_TYPE_PTR) return concat(parameter.name, ": ", tcpuDataTypeName(type));
  const auto pointee = static_cast<tcpuDataType>(parameter.desc.pointee);
  return concat(parameter.name, ": *",
                dataTypeSize(pointee) == 0 ? "?" : tcpuDataTypeName(pointee));
}

Expected<RunArgument> parseRunArgument(const KernelParameter& parameter, std::size_t index,
                                       const std::string& text, uint64_t seed) {
  if (parameter.desc.type != TCPU_TYPE_PTR) {
    Expected<ScalarValue> scalar = parseScalar(static_cast<tcpuDataType>(parameter.desc.type), text,
                                               argumentName(parameter, index));
    if (!scalar) return scalar.status();
    return RunArgument(scalar.take());
  }
  Expected<NpyArray> buffer = namesGenerator(text) ? generateBuffer(parameter, index, text, seed)
                                                   : readBuffer(parameter, index, text);
  if (!buffer) return buffer.status();
  return RunArgument(buffer.take());
}

} // namespace tcpu::cli
