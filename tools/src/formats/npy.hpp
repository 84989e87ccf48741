// NumPy .npy files (format versions 1.0, 2.0 and 3.0), the inputs and outputs of `tcpu run`.
// Only what kernels take: little-endian numbers and booleans in C order, any shape.
//
//   <f2 fp16   <f4 fp32   <f8 fp64   |b1 i1
//   |i1 i8     <i2 i16    <i4 i32    <i8 i64
//   |u1 u8     <u2 u16    <u4 u32    <u8 u64
//
// One-byte types may be written with '<' or '|'. bf16 has no NumPy dtype: a bf16 array is
// written as <u2 holding its bits (view it with ml_dtypes' bfloat16), and <u2 reads back as
// u16; whoever knows the data is bf16 (`tcpu run`, from the kernel's parameter) reinterprets.
//
// The reader rejects anything malformed with a message saying what (it is fuzzed): it never
// trusts a length or shape in the file before checking it against the file's size.
#ifndef TCPU_TOOLS_NPY_HPP
#define TCPU_TOOLS_NPY_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

struct NpyArray {
  tcpuDataType type = TCPU_TYPE_UNKNOWN;
  std::vector<uint64_t> shape; // empty: a 0-d array of one element
  std::vector<std::byte> data; // the elements in C order, little-endian
};

// The number of elements of a shape, or an error when the product overflows uint64.
Expected<uint64_t> elementCount(std::span<const uint64_t> shape);

// The dtype descriptor the writer uses for `type` ("<f4"; "<u2" for bf16), or "" if none.
std::string_view npyDescriptor(tcpuDataType type);

// A whole .npy file's bytes to an array. TCPU_ERROR_INVALID_VALUE with "npy: <what>".
Expected<NpyArray> parseNpy(std::span<const std::byte> file);

// An array to a .npy file's bytes (version 1.0, as numpy.save writes).
// TCPU_ERROR_INVALID_VALUE when the data size does not match the shape and type.
Expected<std::string> formatNpy(const NpyArray& array);

// parseNpy on a file. TCPU_ERROR_FILE_NOT_FOUND / TCPU_ERROR_OPERATING_SYSTEM when it cannot be
// read; all messages start with the path.
Expected<NpyArray> readNpyFile(const std::filesystem::path& path);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_NPY_HPP
