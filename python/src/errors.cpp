#include "errors.hpp"

namespace py = pybind11;

namespace tcpu::python {
namespace {

// The classes live as long as the module, which the interpreter never unloads: plain
// references, kept for the translator (which runs with the GIL held).
PyObject* errorClass = nullptr;
PyObject* assertErrorClass = nullptr;

std::string resultName(tcpuResult code) {
  const char* name = nullptr;
  if (tcpuGetErrorName(code, &name) != TCPU_SUCCESS || !name)
    return "tcpuResult " + std::to_string(static_cast<int>(code));
  return name;
}

void raise(const TcpuError& error) {
  PyObject* type = error.code == TCPU_ERROR_ASSERT ? assertErrorClass : errorClass;
  const std::string name = resultName(error.code);
  std::string message = error.context + ": " + name;
  if (!error.detail.empty()) message += ": " + error.detail;
  py::object instance = py::reinterpret_borrow<py::object>(type)(message);
  instance.attr("code") = name;
  instance.attr("detail") = error.detail;
  PyErr_SetObject(type, instance.ptr());
}

} // namespace

void throwLastError(tcpuResult code, std::string_view context) {
  throw TcpuError{code, tcpuGetLastErrorDetail(), std::string(context)};
}

void throwStatus(const Status& status, std::string_view context) {
  if (status.code() == TCPU_ERROR_OPERATING_SYSTEM) {
    PyErr_SetString(PyExc_OSError, status.message().c_str());
    throw py::error_already_set();
  }
  if (status.code() == TCPU_ERROR_INVALID_VALUE) throw py::value_error(status.message());
  throw TcpuError{status.code(), status.message(), std::string(context)};
}

namespace {

void registerTranslator() {
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const TcpuError& error) {
      raise(error);
    }
  });
}

} // namespace

void shareExceptions(py::module_& module, const py::module_& owner) {
  // The owner module lives as long as the interpreter: borrowed pointers stay valid.
  errorClass = owner.attr("Error").ptr();
  assertErrorClass = owner.attr("AssertError").ptr();
  module.attr("Error") = owner.attr("Error");
  module.attr("AssertError") = owner.attr("AssertError");
  registerTranslator();
}

void registerExceptions(py::module_& module) {
  errorClass = PyErr_NewExceptionWithDoc(
      "tcpu._tcpu_rt.Error",
      "A tcpu call failed. .code is the tcpuResult's name (\"TCPU_ERROR_INVALID_SOURCE\"), "
      ".detail the runtime's message (for a compile error, clang's diagnostics).",
      PyExc_RuntimeError, nullptr);
  if (!errorClass) throw py::error_already_set();
  assertErrorClass = PyErr_NewExceptionWithDoc(
      "tcpu._tcpu_rt.AssertError",
      "A kernel's device_assert failed (TCPU_ERROR_ASSERT); .detail names the program, file "
      "and line.",
      errorClass, nullptr);
  if (!assertErrorClass) throw py::error_already_set();
  // The module holds its own references; ours above stay for the translator.
  module.attr("Error") = py::reinterpret_borrow<py::object>(errorClass);
  module.attr("AssertError") = py::reinterpret_borrow<py::object>(assertErrorClass);
  registerTranslator();
}

} // namespace tcpu::python
