// What the CLI needs to know about tcpuDataType values beyond their names
// (tcpuDataTypeName): how many bytes an element takes, and which family it is.
#ifndef TCPU_TOOLS_DATA_TYPES_HPP
#define TCPU_TOOLS_DATA_TYPES_HPP

#include <cstddef>

#include "tcpu/kernel_abi.h"

namespace tcpu::cli {

// Bytes of one element in memory (i1 takes a byte, as LLVM stores it); 0 for unknown types.
constexpr std::size_t dataTypeSize(tcpuDataType type) {
  switch (type) {
  case TCPU_TYPE_I1:
  case TCPU_TYPE_I8:
  case TCPU_TYPE_U8:
    return 1;
  case TCPU_TYPE_I16:
  case TCPU_TYPE_U16:
  case TCPU_TYPE_FP16:
  case TCPU_TYPE_BF16:
    return 2;
  case TCPU_TYPE_I32:
  case TCPU_TYPE_U32:
  case TCPU_TYPE_FP32:
    return 4;
  case TCPU_TYPE_I64:
  case TCPU_TYPE_U64:
  case TCPU_TYPE_FP64:
  case TCPU_TYPE_PTR:
    return 8;
  case TCPU_TYPE_UNKNOWN:
  case TCPU_TYPE_MAX_ENUM:
    break;
  }
  return 0;
}

constexpr bool isFloatType(tcpuDataType type) {
  return type == TCPU_TYPE_FP16 || type == TCPU_TYPE_BF16 || type == TCPU_TYPE_FP32 ||
         type == TCPU_TYPE_FP64;
}

constexpr bool isSignedIntegerType(tcpuDataType type) {
  return type == TCPU_TYPE_I8 || type == TCPU_TYPE_I16 || type == TCPU_TYPE_I32 ||
         type == TCPU_TYPE_I64;
}

constexpr bool isUnsignedIntegerType(tcpuDataType type) {
  return type == TCPU_TYPE_U8 || type == TCPU_TYPE_U16 || type == TCPU_TYPE_U32 ||
         type == TCPU_TYPE_U64;
}

} // namespace tcpu::cli

#endif // TCPU_TOOLS_DATA_TYPES_HPP
