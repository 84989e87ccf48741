// The exceptions _tcpu raises for failed tcpu calls: Error (.code: the tcpuResult's name,
// .detail: tcpuGetLastErrorDetail()) and its subclass AssertError, for a kernel's failed
// device_assert (TCPU_ERROR_ASSERT).
#ifndef TCPU_PYTHON_ERRORS_HPP
#define TCPU_PYTHON_ERRORS_HPP

#include <string>
#include <string_view>

#include <pybind11/pybind11.h>

#include "tcpu/status.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::python {

// Thrown by the bindings; pybind11 turns it into Error or AssertError.
struct TcpuError {
  tcpuResult code;
  std::string detail;
  std::string context; // what failed, for the message ("compile_kernel", "kernel 'add'")
};

// Throws TcpuError for `code` with this thread's last-error detail.
[[noreturn]] void throwLastError(tcpuResult code, std::string_view context);

// Throws for a failed Status of tcpu's C++ libraries: OSError for TCPU_ERROR_OPERATING_SYSTEM (a
// file that could not be read or written), ValueError for TCPU_ERROR_INVALID_VALUE (a bad
// argument or environment variable), else TcpuError naming `context`.
[[noreturn]] void throwStatus(const Status& status, std::string_view context);

// Creates the exception classes in `module` and registers the translator.
void registerExceptions(pybind11::module_& module);
// For a second module: uses the classes of `owner` (which registered them) and sets them in
// `module` too, so that both modules raise the same classes.
void shareExceptions(pybind11::module_& module, const pybind11::module_& owner);

} // namespace tcpu::python

#endif // TCPU_PYTHON_ERRORS_HPP
