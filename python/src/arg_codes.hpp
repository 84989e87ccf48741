// Kernel.launch's argument codes: one character per kernel parameter ('P' pointer, 'i' i32,
// 'f' fp32, ...: python/README.md), checked once against the compiled kernel's parameters,
// then used to convert each Python argument into the bytes the kernel reads.
#ifndef TCPU_PYTHON_ARG_CODES_HPP
#define TCPU_PYTHON_ARG_CODES_HPP

#include <Python.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/kernel_abi.h"

namespace tcpu::python {

enum class ArgCode : uint8_t {
  Pointer,
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64
};

// The codes for a kernel with these parameters. Throws ValueError (pybind11::value_error)
// naming the position when `codes` has another length, an unknown character, or a code whose
// value the parameter does not take.
std::vector<ArgCode> parseCodes(std::string_view codes, std::span<const tcpuParamDesc> params,
                                const std::string& kernel);

// Writes `value` as the code's C type at the start of `slot`. On a value of the wrong type
// (TypeError) or out of the type's range (OverflowError), sets the Python error, naming
// argument `index` (`param`, may be null), and returns false.
bool packArgument(ArgCode code, PyObject* value, uint64_t& slot, size_t index, const char* param);

} // namespace tcpu::python

#endif // TCPU_PYTHON_ARG_CODES_HPP
