#include "arg_codes.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include <pybind11/pybind11.h>

#include "tcpu/tcpu.h"

namespace tcpu::python {
namespace {

struct CodeInfo {
  char letter;
  ArgCode code;
  const char* type; // as python/README.md names it, for messages
};

constexpr CodeInfo kCodes[] = {
    {'P', ArgCode::Pointer, "pointer"}, {'?', ArgCode::Bool, "i1"},  {'b', ArgCode::I8, "i8"},
    {'h', ArgCode::I16, "i16"},         {'i', ArgCode::I32, "i32"},  {'l', ArgCode::I64, "i64"},
    {'B', ArgCode::U8, "u8"},           {'H', ArgCode::U16, "u16"},  {'I', ArgCode::U32, "u32"},
    {'L', ArgCode::U64, "u64"},         {'e', ArgCode::F16, "fp16"}, {'E', ArgCode::BF16, "bf16"},
    {'f', ArgCode::F32, "fp32"},        {'d', ArgCode::F64, "fp64"},
};

const CodeInfo* findCode(char letter) {
  for (const CodeInfo& info : kCodes)
    if (info.letter == letter) return &info;
  return nullptr;
}

const CodeInfo& infoOf(ArgCode code) {
  for (const CodeInfo& info : kCodes)
    if (info.code == code) return info;
  return kCodes[0];
}

bool isInteger(uint32_t type) {
  return type >= TCPU_TYPE_I8 && type <= TCPU_TYPE_U64;
}

// Whether a parameter of this type takes a value of this code. The IR has no signedness, so
// integers match by size; fp16/bf16 values may also go to a parameter that takes their bits.
bool accepts(const tcpuParamDesc& param, ArgCode code) {
  switch (code) {
  case ArgCode::Pointer:
    return param.type == TCPU_TYPE_PTR;
  case ArgCode::Bool:
    return param.type == TCPU_TYPE_I1 || (isInteger(param.type) && param.size == 1);
  case ArgCode::I8:
  case ArgCode::U8:
    return isInteger(param.type) && param.size == 1;
  case ArgCode::I16:
  case ArgCode::U16:
    return isInteger(param.type) && param.size == 2;
  case ArgCode::I32:
  case ArgCode::U32:
    return isInteger(param.type) && param.size == 4;
  case ArgCode::I64:
  case ArgCode::U64:
    return isInteger(param.type) && param.size == 8;
  case ArgCode::F16:
    return param.type == TCPU_TYPE_FP16 || (isInteger(param.type) && param.size == 2);
  case ArgCode::BF16:
    return param.type == TCPU_TYPE_BF16 || (isInteger(param.type) && param.size == 2);
  case ArgCode::F32:
    return param.type == TCPU_TYPE_FP32;
  case ArgCode::F64:
    return param.type == TCPU_TYPE_FP64;
  }
  return false;
}

std::string describeParam(size_t index, const char* name) {
  std::string text = "argument " + std::to_string(index);
  if (name && *name) text += " ('" + std::string(name) + "')";
  return text;
}

template <class T>
void store(uint64_t& slot, T value) {
  std::memcpy(&slot, &value, sizeof value);
}

bool fail(PyObject* type, ArgCode code, size_t index, const char* name, const char* problem,
          PyObject* value) {
  // Chains nothing: a conversion error already set is replaced by the named one.
  PyErr_Clear();
  PyErr_Format(type, "%s (code '%c', %s): %s, got %R", describeParam(index, name).c_str(),
               infoOf(code).letter, infoOf(code).type, problem, value);
  return false;
}

// An int, or an object with __index__ (numpy integers); nullptr (error set) otherwise.
PyObject* asInt(PyObject* value) {
  if (PyLong_Check(value)) {
    Py_INCREF(value);
    return value;
  }
  return PyNumber_Index(value);
}

bool packSigned(ArgCode code, PyObject* value, uint64_t& slot, size_t index, const char* name,
                long long low, long long high) {
  PyObject* number = asInt(value);
  if (!number) return fail(PyExc_TypeError, code, index, name, "expected an int", value);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
  Py_DECREF(number);
  if (overflow != 0 || v < low || v > high)
    return fail(PyExc_OverflowError, code, index, name, "out of the type's range", value);
  switch (code) {
  case ArgCode::I8:
    store(slot, static_cast<int8_t>(v));
    break;
  case ArgCode::I16:
    store(slot, static_cast<int16_t>(v));
    break;
  case ArgCode::I32:
    store(slot, static_cast<int32_t>(v));
    break;
  default:
    store(slot, static_cast<int64_t>(v));
    break;
  }
  return true;
}

bool packUnsigned(ArgCode code, PyObject* value, uint64_t& slot, size_t index, const char* name,
                  unsigned long long high) {
  PyObject* number = asInt(value);
  if (!number)
    return fail(PyExc_TypeError, code, index, name,
                code == ArgCode::Pointer ? "expected an int address" : "expected an int", value);
  const unsigned long long v = PyLong_AsUnsignedLongLong(number); // negative: OverflowError
  Py_DECREF(number);
  if ((v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) || v > high)
    return fail(PyExc_OverflowError, code, index, name, "out of the type's range", value);
  switch (code) {
  case ArgCode::Bool:
  case ArgCode::U8:
    store(slot, static_cast<uint8_t>(v));
    break;
  case ArgCode::U16:
    store(slot, static_cast<uint16_t>(v));
    break;
  case ArgCode::U32:
    store(slot, static_cast<uint32_t>(v));
    break;
  case ArgCode::Pointer:
    store(slot, reinterpret_cast<void*>(static_cast<uintptr_t>(v)));
    break;
  default:
    store(slot, static_cast<uint64_t>(v));
    break;
  }
  return true;
}

// Python's own packing (struct's 'e' and 'f' formats): round to nearest even, infinities and
// NaNs kept, a finite value beyond the type's range an error.
bool packIeee(int bytes, double value, uint64_t& slot) {
  unsigned char packed[4] = {};
  const int failed = bytes == 2 ? PyFloat_Pack2(value, reinterpret_cast<char*>(packed), 1)
                                : PyFloat_Pack4(value, reinterpret_cast<char*>(packed), 1);
  if (failed != 0) return false;
  const uint32_t bits =
      packed[0] | (packed[1] << 8) | (packed[2] << 16) | (uint32_t{packed[3]} << 24);
  if (bytes == 2)
    store(slot, static_cast<uint16_t>(bits));
  else
    store(slot, bits);
  return true;
}

// bf16 from the value's fp32 bits, rounded to nearest even (as torch converts a Python float).
bool packBfloat16(double value, uint64_t& slot) {
  uint64_t single = 0;
  if (!packIeee(4, value, single)) return false;
  const auto bits = static_cast<uint32_t>(single);
  uint16_t rounded = 0;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    rounded = static_cast<uint16_t>((bits >> 16) | 0x40); // NaN: stays a quiet NaN
  else
    rounded = static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  if ((rounded & 0x7fffu) == 0x7f80u && std::isfinite(value)) return false; // rounded up to inf
  store(slot, rounded);
  return true;
}

bool packFloat(ArgCode code, PyObject* value, uint64_t& slot, size_t index, const char* name) {
  const double v = PyFloat_AsDouble(value); // floats, ints, objects with __float__ or __index__
  if (v == -1.0 && PyErr_Occurred())
    return fail(PyExc_TypeError, code, index, name, "expected a float", value);
  bool packed = true;
  switch (code) {
  case ArgCode::F16:
    packed = packIeee(2, v, slot);
    break;
  case ArgCode::BF16:
    packed = packBfloat16(v, slot);
    break;
  case ArgCode::F32:
    packed = packIeee(4, v, slot);
    break;
  default:
    store(slot, v);
    break;
  }
  if (!packed)
    return fail(PyExc_OverflowError, code, index, name, "out of the type's range", value);
  return true;
}

} // namespace

std::vector<ArgCode> parseCodes(std::string_view codes, std::span<const tcpuParamDesc> params,
                                const std::string& kernel) {
  if (codes.size() != params.size())
    throw pybind11::value_error("kernel '" + kernel + "' has " + std::to_string(params.size()) +
                                " parameters but codes '" + std::string(codes) + "' has " +
                                std::to_string(codes.size()));
  std::vector<ArgCode> parsed;
  parsed.reserve(codes.size());
  for (size_t i = 0; i < codes.size(); ++i) {
    const CodeInfo* info = findCode(codes[i]);
    const char* name = params[i].name;
    if (!info)
      throw pybind11::value_error("kernel '" + kernel + "': codes[" + std::to_string(i) + "]='" +
                                  std::string(1, codes[i]) + "' (for " + describeParam(i, name) +
                                  ") is not a code: use one of P?bhilBHILeEfd");
    if (!accepts(params[i], info->code))
      throw pybind11::value_error("kernel '" + kernel + "': codes[" + std::to_string(i) + "]='" +
                                  std::string(1, codes[i]) + "' (" + info->type +
                                  ") does not match " + describeParam(i, name) + ", which is " +
                                  tcpuDataTypeName(static_cast<tcpuDataType>(params[i].type)));
    parsed.push_back(info->code);
  }
  return parsed;
}

bool packArgument(ArgCode code, PyObject* value, uint64_t& slot, size_t index, const char* param) {
  switch (code) {
  case ArgCode::Pointer:
    return packUnsigned(code, value, slot, index, param, std::numeric_limits<uintptr_t>::max());
  case ArgCode::Bool:
    // numpy's bool is no int (and its __index__ is deprecated, gone in NumPy 2, which also
    // renamed the type from numpy.bool_ to numpy.bool).
    if (std::strcmp(Py_TYPE(value)->tp_name, "numpy.bool") == 0 ||
        std::strcmp(Py_TYPE(value)->tp_name, "numpy.bool_") == 0) {
      const int truth = PyObject_IsTrue(value);
      if (truth < 0) return false;
      store(slot, static_cast<uint8_t>(truth));
      return true;
    }
    return packUnsigned(code, value, slot, index, param, 1);
  case ArgCode::I8:
    return packSigned(code, value, slot, index, param, INT8_MIN, INT8_MAX);
  case ArgCode::I16:
    return packSigned(code, value, slot, index, param, INT16_MIN, INT16_MAX);
  case ArgCode::I32:
    return packSigned(code, value, slot, index, param, INT32_MIN, INT32_MAX);
  case ArgCode::I64:
    return packSigned(code, value, slot, index, param, INT64_MIN, INT64_MAX);
  case ArgCode::U8:
    return packUnsigned(code, value, slot, index, param, UINT8_MAX);
  case ArgCode::U16:
    return packUnsigned(code, value, slot, index, param, UINT16_MAX);
  case ArgCode::U32:
    return packUnsigned(code, value, slot, index, param, UINT32_MAX);
  case ArgCode::U64:
    return packUnsigned(code, value, slot, index, param, UINT64_MAX);
  case ArgCode::F16:
  case ArgCode::BF16:
  case ArgCode::F32:
  case ArgCode::F64:
    return packFloat(code, value, slot, index, param);
  }
  return false;
}

} // namespace tcpu::python
