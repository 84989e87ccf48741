// What _tcpu and _tcpu_rt both offer: the Kernel class (module-local: each module has its own
// Python type over the same C++ class), the worker-thread settings and tcpu's version.
#ifndef TCPU_PYTHON_RUNTIME_BINDINGS_HPP
#define TCPU_PYTHON_RUNTIME_BINDINGS_HPP

#include <pybind11/pybind11.h>

namespace tcpu::python {

// Initializes the runtime (tcpuInit) and adds the bindings to `module`.
void bindRuntime(pybind11::module_& module);

} // namespace tcpu::python

#endif // TCPU_PYTHON_RUNTIME_BINDINGS_HPP
