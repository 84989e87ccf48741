#include "formats/npy.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <system_error>

#include "formats/data_types.hpp"
#include "formats/input_files.hpp"

namespace tcpu::cli {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kPreambleV1 = 10; // magic, 2 version bytes, uint16 header length
constexpr std::size_t kPreambleV2 = 12; // magic, 2 version bytes, uint32 header length
// NumPy's own limit on dimensions (NPY_MAXDIMS is 32 in 1.x, 64 in 2.x).
constexpr std::size_t kMaxDimensions = 64;

// The descriptors the writer uses; the reader also takes '<' for the one-byte ones.
struct DtypeName {
  std::string_view written;
  tcpuDataType type;
};

constexpr std::array<DtypeName, 12> kDtypes = {{
    {"<f2", TCPU_TYPE_FP16},
    {"<f4", TCPU_TYPE_FP32},
    {"<f8", TCPU_TYPE_FP64},
    {"|b1", TCPU_TYPE_I1},
    {"|i1", TCPU_TYPE_I8},
    {"<i2", TCPU_TYPE_I16},
    {"<i4", TCPU_TYPE_I32},
    {"<i8", TCPU_TYPE_I64},
    {"|u1", TCPU_TYPE_U8},
    {"<u2", TCPU_TYPE_U16},
    {"<u4", TCPU_TYPE_U32},
    {"<u8", TCPU_TYPE_U64},
}};

Status invalid(const std::string& what) {
  return Status(TCPU_ERROR_INVALID_VALUE, concat("npy: ", what));
}

// A descriptor's type: the byte order must be '<', or '|' / '<' for one-byte types.
Expected<tcpuDataType> dtypeOf(std::string_view descriptor) {
  const std::string supported = "supported: <f2 <f4 <f8 |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8";
  if (descriptor.size() == 3) {
    for (const DtypeName& dtype : kDtypes) {
      if (descriptor.substr(1) != dtype.written.substr(1)) continue;
      const char order = descriptor[0];
      const bool oneByte = dataTypeSize(dtype.type) == 1;
      if (order == '<' || (order == '|' && oneByte)) return dtype.type;
      if (order == '>')
        return invalid(
            concat("dtype '", descriptor, "' is big-endian; only little-endian data is supported"));
      break;
    }
  }
  return invalid(concat("dtype '", descriptor, "' is not supported (", supported, ")"));
}

// The header dict as NumPy writes it: {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }
// A Python literal, read here with just the grammar those three keys need.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Expected<NpyArray> parse() {
    skipBlanks();
    if (!take('{')) return error("the header is not a dict (it does not start with '{')");
    std::optional<tcpuDataType> type;
    std::optional<bool> fortranOrder;
    std::optional<std::vector<uint64_t>> shape;
    while (true) {
      skipBlanks();
      if (take('}')) break;
      Expected<std::string> key = parseString("a key");
      if (!key) return key.status();
      skipBlanks();
      if (!take(':')) return error(concat("expected ':' after key '", *key, "'"));
      skipBlanks();
      if (*key == "descr") {
        if (type) return duplicate(*key);
        if (peek() == '[' || peek() == '{')
          return invalid("structured dtypes (a list or dict descr) are not supported");
        Expected<std::string> descriptor = parseString("the descr value");
        if (!descriptor) return descriptor.status();
        Expected<tcpuDataType> parsed = dtypeOf(*descriptor);
        if (!parsed) return parsed.status();
        type = *parsed;
      } else if (*key == "fortran_order") {
        if (fortranOrder) return duplicate(*key);
        Expected<bool> value = parseBool();
        if (!value) return value.status();
        fortranOrder = *value;
      } else if (*key == "shape") {
        if (shape) return duplicate(*key);
        Expected<std::vector<uint64_t>> value = parseShape();
        if (!value) return value.status();
        shape = value.take();
      } else {
        return invalid(
            concat("header key '", *key, "' is not one of 'descr', 'fortran_order', 'shape'"));
      }
      skipBlanks();
      if (take(',')) continue;
      if (take('}')) break;
      return error("expected ',' or '}' after a value");
    }
    skipBlanks();
    if (at_ != text_.size()) return error("unexpected text after the dict");
    for (const auto& [present, key] : {std::pair{type.has_value(), "descr"},
                                       {fortranOrder.has_value(), "fortran_order"},
                                       {shape.has_value(), "shape"}})
      if (!present) return invalid(concat("the header has no '", key, "' key"));
    if (*fortranOrder)
      return invalid("fortran_order is True: only C-order arrays are supported "
                     "(save np.ascontiguousarray(a))");
    NpyArray array;
    array.type = *type;
    array.shape = std::move(*shape);
    return array;
  }

private:
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  bool take(char c) {
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  void skipBlanks() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }
  Status error(const std::string& what) const {
    return invalid(concat("header offset ", at_, ": ", what));
  }
  Status duplicate(const std::string& key) const {
    return invalid(concat("the header has key '", key, "' twice"));
  }

  // A quoted string without escapes (no key or dtype NumPy writes has one).
  Expected<std::string> parseString(const char* what) {
    const char quote = peek();
    if (quote != '\'' && quote != '"') return error(concat("expected ", what, " (a string)"));
    const std::size_t begin = ++at_;
    while (at_ < text_.size() && text_[at_] != quote) {
      if (text_[at_] == '\\') return error("escapes in strings are not supported");
      ++at_;
    }
    if (at_ >= text_.size()) return error("unterminated string");
    std::string value(text_.substr(begin, at_ - begin));
    ++at_;
    return value;
  }

  Expected<bool> parseBool() {
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {"False", false}})
      if (text_.substr(at_).starts_with(word)) {
        at_ += word.size();
        return value;
      }
    return error("fortran_order must be True or False");
  }

  // A tuple of non-negative integers: (), (3,), (3, 4) or (3, 4,); Python 2's 3L is accepted.
  Expected<std::vector<uint64_t>> parseShape() {
    if (!take('(')) return error("shape must be a tuple such as (3,) or (2, 3)");
    std::vector<uint64_t> shape;
    bool trailingComma = false;
    while (true) {
      skipBlanks();
      if (take(')')) break;
      if (shape.size() >= kMaxDimensions)
        return invalid(concat("shape has more than ", kMaxDimensions, " dimensions"));
      Expected<uint64_t> dimension = parseDimension();
      if (!dimension) return dimension.status();
      shape.push_back(*dimension);
      skipBlanks();
      trailingComma = take(',');
      if (trailingComma) continue;
      if (take(')')) break;
      return error("expected ',' or ')' in the shape");
    }
    if (shape.size() == 1 && !trailingComma)
      return error("shape (n) is a number, not a tuple: write (n,)");
    return shape;
  }

  Expected<uint64_t> parseDimension() {
    if (peek() == '-') return error("a shape dimension is negative");
    if (peek() < '0' || peek() > '9') return error("expected a dimension (an integer)");
    uint64_t value = 0;
    while (peek() >= '0' && peek() <= '9') {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, static_cast<uint64_t>(text_[at_] - '0'), &value))
        return error("a shape dimension does not fit in 64 bits");
      ++at_;
    }
    take('L');
    return value;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

uint32_t readLittleEndian(std::span<const std::byte> bytes) {
  uint32_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;)
    value = (value << 8) | std::to_integer<uint32_t>(bytes[i]);
  return value;
}

std::string describeShape(const std::vector<uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += concat(i ? ", " : "", shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

Expected<uint64_t> elementCount(std::span<const uint64_t> shape) {
  uint64_t count = 1;
  for (uint64_t dimension : shape)
    if (__builtin_mul_overflow(count, dimension, &count))
      return invalid("the shape's element count overflows 64 bits");
  return count;
}

std::string_view npyDescriptor(tcpuDataType type) {
  if (type == TCPU_TYPE_BF16) return "<u2"; // its bits: NumPy has no bfloat16
  for (const DtypeName& dtype : kDtypes)
    if (dtype.type == type) return dtype.written;
  return {};
}

Expected<NpyArray> parseNpy(std::span<const std::byte> file) {
  const auto text = [&](std::size_t offset, std::size_t size) {
    return std::string_view(reinterpret_cast<const char*>(file.data()) + offset, size);
  };
  if (file.size() < kPreambleV1)
    return invalid(concat("the file is ", file.size(), " bytes, shorter than the ", kPreambleV1,
                          "-byte preamble of a .npy file"));
  if (text(0, kMagic.size()) != kMagic)
    return invalid("bad magic: a .npy file starts with \\x93NUMPY");
  const unsigned major = std::to_integer<unsigned>(file[6]);
  const unsigned minor = std::to_integer<unsigned>(file[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return invalid(
        concat("format version ", major, ".", minor, " is not supported (1.0, 2.0 and 3.0 are)"));
  const std::size_t preamble = major == 1 ? kPreambleV1 : kPreambleV2;
  if (file.size() < preamble)
    return invalid(concat("the file is ", file.size(), " bytes, shorter than the ", preamble,
                          "-byte preamble of a version ", major, ".0 file"));
  const uint64_t headerSize = readLittleEndian(file.subspan(8, preamble - 8));
  if (headerSize > file.size() - preamble)
    return invalid(concat("the header of ", headerSize, " bytes runs past the end of the ",
                          file.size(), "-byte file"));
  Expected<NpyArray> array = HeaderParser(text(preamble, headerSize)).parse();
  if (!array) return array;
  Expected<uint64_t> count = elementCount(array->shape);
  if (!count) return count.status();
  const std::size_t elementSize = dataTypeSize(array->type);
  uint64_t dataSize = 0;
  if (__builtin_mul_overflow(*count, elementSize, &dataSize))
    return invalid(concat("shape ", describeShape(array->shape), " of ", npyDescriptor(array->type),
                          " needs more than 2^64 bytes"));
  const std::size_t dataBegin = preamble + headerSize;
  if (file.size() - dataBegin != dataSize)
    return invalid(concat("the data is ", file.size() - dataBegin, " bytes but shape ",
                          describeShape(array->shape), " of ", tcpuDataTypeName(array->type),
                          " needs ", dataSize));
  array->data.assign(file.begin() + static_cast<std::ptrdiff_t>(dataBegin), file.end());
  return array;
}

Expected<std::string> formatNpy(const NpyArray& array) {
  const std::string_view descriptor = npyDescriptor(array.type);
  if (descriptor.empty())
    return invalid(concat("type ", tcpuDataTypeName(array.type), " has no .npy dtype"));
  if (array.shape.size() > kMaxDimensions)
    return invalid(concat("shape has more than ", kMaxDimensions, " dimensions"));
  Expected<uint64_t> count = elementCount(array.shape);
  if (!count) return count.status();
  uint64_t dataSize = 0;
  if (__builtin_mul_overflow(*count, dataTypeSize(array.type), &dataSize) ||
      dataSize != array.data.size())
    return invalid(concat("the data is ", array.data.size(), " bytes but shape ",
                          describeShape(array.shape), " of ", tcpuDataTypeName(array.type),
                          " needs ", dataSize));
  std::string header =
      concat("{'descr': '", descriptor,
             "', 'fortran_order': False, 'shape': ", describeShape(array.shape), ", }");
  // NumPy pads with spaces so that the data starts 64-byte aligned, and ends with '\n'. Version
  // 1.0 always suffices: even 64 dimensions of 20 digits make a header far below its 64 KiB.
  const std::size_t unpadded = kPreambleV1 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string file(kMagic);
  file += '\x01';
  file += '\x00';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  file.append(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  return file;
}

Expected<NpyArray> readNpyFile(const std::filesystem::path& path) {
  Expected<std::string> bytes = readInputFile(path);
  if (!bytes) return bytes.status();
  Expected<NpyArray> array = parseNpy(std::as_bytes(std::span(*bytes)));
  if (!array)
    return Status(array.status().code(), concat(path.string(), ": ", array.status().message()));
  return array;
}

} // namespace tcpu::cli
