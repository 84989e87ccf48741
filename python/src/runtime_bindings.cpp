#include "runtime_bindings.hpp"

#include <string>

#include "errors.hpp"
#include "kernel.hpp"
#include "tcpu/tcpu.h"

namespace py = pybind11;

namespace tcpu::python {

void bindRuntime(py::module_& module) {
  if (tcpuResult result = tcpuInit(0); result != TCPU_SUCCESS) throwLastError(result, "tcpuInit");

  py::class_<Kernel>(module, "Kernel", py::module_local(), "A loaded kernel.")
      .def("launch", &Kernel::launch, py::arg("gx"), py::arg("gy"), py::arg("gz"),
           py::arg("num_threads"), py::arg("codes"), py::arg("args"),
           "Runs the kernel over a gx x gy x gz grid and waits for it. codes: one character per "
           "parameter (P?bhilBHILeEfd); args: a tuple of one value per parameter. num_threads "
           "0 keeps the runtime's setting.")
      .def_property_readonly("name", &Kernel::name)
      .def_property_readonly("num_params", &Kernel::numParams);

  module.def(
      "version",
      [] {
        return std::to_string(TCPU_VERSION_MAJOR) + "." + std::to_string(TCPU_VERSION_MINOR) + "." +
               std::to_string(TCPU_VERSION_PATCH);
      },
      "tcpu's version, \"major.minor.patch\".");

  module.def(
      "set_num_threads",
      [](int threads) {
        if (tcpuResult result = tcpuSetNumThreads(threads); result != TCPU_SUCCESS)
          throwLastError(result, "set_num_threads");
      },
      py::arg("num_threads"),
      "Worker threads of later launches; 0 restores the default (TCPU_NUM_THREADS, "
      "OMP_NUM_THREADS, else all cores).");
  module.def(
      "get_num_threads",
      [] {
        int threads = 0;
        if (tcpuResult result = tcpuGetNumThreads(&threads); result != TCPU_SUCCESS)
          throwLastError(result, "get_num_threads");
        return threads;
      },
      "Worker threads a launch uses now.");
}

} // namespace tcpu::python
