#include "kernel.hpp"

#include <array>
#include <cstdint>

#include "errors.hpp"
#include "interrupt.hpp"

namespace py = pybind11;

namespace tcpu::python {
namespace {

// Parameters converted on the stack up to this count (no allocation per launch); more, on the
// heap.
constexpr size_t kInlineParams = 64;

uint32_t toUnsigned32(py::handle value, const char* what) {
  if (PyLong_Check(value.ptr())) {
    const unsigned long long v = PyLong_AsUnsignedLongLong(value.ptr());
    if (!(v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) && v <= UINT32_MAX)
      return static_cast<uint32_t>(v);
    PyErr_Clear();
  }
  throw py::value_error(std::string("launch: ") + what + "=" + std::string(py::repr(value)) +
                        " is not an int in [0, 2**32)");
}

} // namespace

Kernel::Kernel(tcpuModule module, const std::string& name, const std::string& context)
    : name_(name), module_(module) {
  if (tcpuResult found = tcpuModuleGetFunction(&function_, module, name.c_str());
      found != TCPU_SUCCESS)
    throwLastError(found, context);
  unsigned count = 0;
  if (tcpuResult counted = tcpuFuncGetParamCount(&count, function_); counted != TCPU_SUCCESS)
    throwLastError(counted, context);
  params_.resize(count);
  for (unsigned i = 0; i < count; ++i)
    if (tcpuResult info = tcpuFuncGetParamInfo(&params_[i], function_, i); info != TCPU_SUCCESS)
      throwLastError(info, context);
}

bool Kernel::programsWait() const {
  unsigned int flags = 0;
  if (tcpuResult result = tcpuFuncGetFlags(&flags, function_); result != TCPU_SUCCESS)
    throwLastError(result, "tcpuFuncGetFlags");
  return (flags & TCPU_KERNEL_PROGRAMS_WAIT) != 0;
}

const std::vector<ArgCode>& Kernel::codesFor(py::handle codes) {
  // The fast path: the front end passes the same str object every launch of a kernel.
  if (codes.ptr() == lastCodes_.ptr()) return codes_;
  if (!PyUnicode_Check(codes.ptr()))
    throw py::type_error("launch: codes must be a str, got " +
                         std::string(py::str(py::type::handle_of(codes).attr("__name__"))));
  if (lastCodes_ && PyUnicode_Compare(codes.ptr(), lastCodes_.ptr()) == 0) {
    lastCodes_ = py::reinterpret_borrow<py::object>(codes);
    return codes_;
  }
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(codes.ptr(), &size);
  if (!text) throw py::error_already_set();
  codes_ = parseCodes(std::string_view(text, static_cast<size_t>(size)), params_, name_);
  lastCodes_ = py::reinterpret_borrow<py::object>(codes);
  return codes_;
}

void Kernel::launch(py::handle gx, py::handle gy, py::handle gz, py::handle numThreads,
                    py::handle codes, py::handle args) {
  const uint32_t grid[3] = {toUnsigned32(gx, "gx"), toUnsigned32(gy, "gy"), toUnsigned32(gz, "gz")};
  const uint32_t threads = toUnsigned32(numThreads, "num_threads");
  const std::vector<ArgCode>& parsed = codesFor(codes);
  if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr()))
    throw py::type_error("launch: args must be a tuple, got " +
                         std::string(py::str(py::type::handle_of(args).attr("__name__"))));
  const size_t count = static_cast<size_t>(PySequence_Fast_GET_SIZE(args.ptr()));
  if (count != parsed.size())
    throw py::type_error("launch: kernel '" + name_ + "' takes " + std::to_string(parsed.size()) +
                         " arguments, got " + std::to_string(count));
  PyObject** items = PySequence_Fast_ITEMS(args.ptr());

  std::array<uint64_t, kInlineParams> inlineValues;
  std::array<void*, kInlineParams> inlinePointers;
  std::vector<uint64_t> heapValues;
  std::vector<void*> heapPointers;
  uint64_t* values = inlineValues.data();
  void** pointers = inlinePointers.data();
  if (count > kInlineParams) {
    heapValues.resize(count);
    heapPointers.resize(count);
    values = heapValues.data();
    pointers = heapPointers.data();
  }
  for (size_t i = 0; i < count; ++i) {
    values[i] = 0;
    if (!packArgument(parsed[i], items[i], values[i], i, params_[i].name))
      throw py::error_already_set();
    pointers[i] = &values[i];
  }
  // The count guards against a kernel that changed under us; threads > 0 applies to this launch
  // only; the cancel flag makes Ctrl-C stop it.
  InterruptibleLaunch interruptible;
  void* extra[7] = {TCPU_LAUNCH_PARAM_COUNT, reinterpret_cast<void*>(uintptr_t{count})};
  size_t keys = 2;
  if (threads > 0) {
    extra[keys++] = TCPU_LAUNCH_PARAM_NUM_THREADS;
    extra[keys++] = reinterpret_cast<void*>(uintptr_t{threads});
  }
  if (interruptible.flag()) {
    extra[keys++] = TCPU_LAUNCH_PARAM_CANCEL_FLAG;
    extra[keys++] = interruptible.flag();
  }
  extra[keys] = TCPU_LAUNCH_PARAM_END;
  tcpuResult result = TCPU_SUCCESS;
  {
    py::gil_scoped_release unlocked;
    result = tcpuLaunchKernel(function_, grid[0], grid[1], grid[2], 1, 1, 1, 0, nullptr, pointers,
                              extra);
  }
  interruptible.raiseIfInterrupted(result);
  if (result != TCPU_SUCCESS) throwLastError(result, "kernel '" + name_ + "'");
}

} // namespace tcpu::python
