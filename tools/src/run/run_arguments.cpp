#include "run/run_arguments.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <random>
#include <string_view>

#include "cli/command_line.hpp"
#include "formats/data_types.hpp"
#include "formats/text_split.hpp"
#include "run/runtime_session.hpp"

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
  for (std::string_view kind : {"zeros:", "arange:", "rand:", "full:", "values:"})
    if (text.starts_with(kind)) return true;
  return false;
}

// values:V,V,...: each value parsed as an element of `type`.
Expected<NpyArray> listedValues(tcpuDataType type, std::string_view list, const std::string& what) {
  std::vector<ScalarValue> elements;
  for (std::string_view text : split(list, ',')) {
    Expected<ScalarValue> element =
        parseScalar(type, text, concat(what, " values element ", elements.size() + 1));
    if (!element) return element.status();
    elements.push_back(*element);
  }
  const std::size_t size = dataTypeSize(type);
  return generate(type, elements.size(), [&](uint64_t i, std::byte* out) {
    std::copy_n(elements[i].bytes.begin(), size, out);
  });
}

// zeros:N, arange:N, rand:N, full:N:VALUE or values:V,...; `what` names the argument in errors.
Expected<NpyArray> generateBuffer(const std::string& what, tcpuDataType type, std::string_view text,
                                  std::size_t streamIndex, uint64_t seed) {
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  std::string_view rest = text.substr(colon + 1);
  if (kind == "values") return listedValues(type, rest, what);
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
                         static_cast<uint32_t>(streamIndex)};
  std::mt19937_64 random(sequence);
  return generate(type, n, [&](uint64_t, std::byte* out) {
    const uint64_t bits = random();
    if (isFloatType(type))
      storeFloat(type, static_cast<double>(bits >> 11) * 0x1p-53, out); // uniform in [0, 1)
    else
      storeInteger(type, static_cast<int64_t>(bits % 100), out); // uniform in [0, 100)
  });
}

// A .npy file's elements, of type `expected` (any type when it is TCPU_TYPE_UNKNOWN).
Expected<NpyArray> readBuffer(const std::string& what, tcpuDataType expected,
                              const std::string& path) {
  Expected<NpyArray> array = readNpyFile(path);
  if (!array) {
    const Status& status = array.status();
    // Content errors come back as invalid values; to the command they are unreadable input.
    return Status(status.code() == TCPU_ERROR_INVALID_VALUE ? TCPU_ERROR_INVALID_IMAGE
                                                            : status.code(),
                  concat(what, ": ", status.message()));
  }
  if (expected == TCPU_TYPE_UNKNOWN) return array.take();
  // bf16 travels in .npy files as its bits, <u2 (see npy.hpp).
  if (expected == TCPU_TYPE_BF16 && array->type == TCPU_TYPE_U16) array->type = expected;
  if (array->type != expected)
    return invalid(concat(what, ": '", path, "' holds ", tcpuDataTypeName(array->type), " (",
                          npyDescriptor(array->type), ") but the kernel reads ",
                          tcpuDataTypeName(expected), " (", npyDescriptor(expected), ")"));
  return array.take();
}

// ptrs:NAME,...: the parameter must hold 64-bit integers (what Triton passes addresses as).
Expected<AddressTable> addressTable(const KernelParameter& parameter, const std::string& what,
                                    std::string_view list) {
  const auto type = static_cast<tcpuDataType>(parameter.desc.pointee);
  if (type != TCPU_TYPE_I64 && type != TCPU_TYPE_U64)
    return invalid(concat(what, ": 'ptrs:' fills a table of 64-bit addresses, but '",
                          parameter.name, "' points to ",
                          dataTypeSize(type) == 0 ? "an unknown type" : tcpuDataTypeName(type),
                          "; give it the type *i64 or *u64 (--signature)"));
  AddressTable table;
  for (std::string_view name : split(list, ',')) {
    if (name.empty()) return invalid(concat(what, "='ptrs:", list, "' has an empty buffer name"));
    table.buffers.emplace_back(name);
  }
  return table;
}

bool isBufferName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::optional<tcpuDataType> dataTypeNamed(std::string_view name) {
  for (int type = TCPU_TYPE_I1; type < TCPU_TYPE_PTR; ++type)
    if (name == tcpuDataTypeName(static_cast<tcpuDataType>(type)))
      return static_cast<tcpuDataType>(type);
  return std::nullopt;
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
  const std::string what = argumentName(parameter, index);
  if (parameter.desc.type != TCPU_TYPE_PTR) {
    Expected<ScalarValue> scalar =
        parseScalar(static_cast<tcpuDataType>(parameter.desc.type), text, what);
    if (!scalar) return scalar.status();
    return RunArgument(scalar.take());
  }
  if (text.starts_with("ptrs:")) {
    Expected<AddressTable> table = addressTable(parameter, what, std::string_view(text).substr(5));
    if (!table) return table.status();
    return RunArgument(table.take());
  }
  const auto type = static_cast<tcpuDataType>(parameter.desc.pointee);
  const bool generated = namesGenerator(text);
  if (dataTypeSize(type) == 0)
    return invalid(concat(what, ": the kernel does not say what pointer '", parameter.name,
                          "' points to, so '", generated ? text.substr(0, text.find(':')) : text,
                          "' cannot ", generated ? "make its elements" : "be checked against it",
                          "; pass --signature (e.g. '*fp32, ...')"));
  Expected<NpyArray> buffer =
      generated ? generateBuffer(what, type, text, index, seed) : readBuffer(what, type, text);
  if (!buffer) return buffer.status();
  return RunArgument(buffer.take());
}

Expected<NamedBuffer> parseNamedBuffer(const std::string& text, std::size_t streamIndex,
                                       uint64_t seed) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos)
    return invalid(concat("--buffer '", text, "' is not NAME:TYPE=GENERATOR or NAME=FILE.npy"));
  const std::string_view head = std::string_view(text).substr(0, equals);
  const std::string value = text.substr(equals + 1);
  const std::size_t colon = head.find(':');
  NamedBuffer buffer;
  buffer.name = std::string(head.substr(0, colon));
  if (!isBufferName(buffer.name))
    return invalid(
        concat("--buffer '", text, "': the name '", buffer.name, "' is not [A-Za-z0-9_-]+"));
  const std::string what = concat("--buffer ", buffer.name);
  tcpuDataType type = TCPU_TYPE_UNKNOWN;
  if (colon != std::string_view::npos) {
    const std::optional<tcpuDataType> named = dataTypeNamed(head.substr(colon + 1));
    if (!named)
      return invalid(concat(what, ": '", head.substr(colon + 1),
                            "' is not an element type (i8...i64, u8...u64, fp16, bf16, fp32, "
                            "fp64)"));
    type = *named;
  }
  const bool generated = namesGenerator(value);
  if (generated && type == TCPU_TYPE_UNKNOWN)
    return invalid(concat(what, ": a generated buffer needs its element type, as in ", buffer.name,
                          ":fp32=", value));
  Expected<NpyArray> array = generated ? generateBuffer(what, type, value, streamIndex, seed)
                                       : readBuffer(what, type, value);
  if (!array) return array.status();
  buffer.array = array.take();
  return buffer;
}

} // namespace tcpu::cli
