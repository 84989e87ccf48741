// tcpu._tcpu: compiles tl C++ kernel source through codegen, in process, and launches the
// kernels from Python. The interface is specified in python/README.md ("The launch
// interface").
#include <optional>
#include <string>
#include <utility>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "errors.hpp"
#include "kernel.hpp"
#include "tcpu/codegen.h"
#include "tcpu/tcpu.h"

namespace py = pybind11;
using tcpu::python::Kernel;
using tcpu::python::throwLastError;

PYBIND11_MODULE(_tcpu, module) {
  module.doc() = "tcpu's runtime and in-process compiler: compile tl C++ kernel source, launch it";
  tcpu::python::registerExceptions(module);
  if (tcpuResult result = tcpuInit(0); result != TCPU_SUCCESS) throwLastError(result, "tcpuInit");
  // Explicit, so that no linker drops libtcpu_codegen (its load-time registration does the same).
  tcpuCodegenRegister();

  py::class_<Kernel>(module, "Kernel", "A compiled kernel; made by compile_kernel.")
      .def("launch", &Kernel::launch, py::arg("gx"), py::arg("gy"), py::arg("gz"),
           py::arg("num_threads"), py::arg("codes"), py::arg("args"),
           "Runs the kernel over a gx x gy x gz grid and waits for it. codes: one character per "
           "parameter (P?bhilBHILeEfd); args: a tuple of one value per parameter. num_threads "
           "0 keeps the runtime's setting.")
      .def_property_readonly("name", &Kernel::name)
      .def_property_readonly("num_params", &Kernel::numParams);

  module.def(
      "compile_kernel",
      [](const std::string& source, const std::string& name, bool fpContract,
         std::optional<bool> checkBounds) {
        return std::make_unique<Kernel>(source, name, fpContract, checkBounds);
      },
      py::arg("source"), py::arg("name"), py::kw_only(), py::arg("fp_contract") = true,
      py::arg("check_bounds") = py::none(),
      "Compiles tl C++ source (which includes \"tcpu/tl.h\") and returns its kernel `name`. "
      "check_bounds None: TCPU_CHECK in the environment decides.");

  module.def(
      "host_target",
      [] {
        const char* cpu = nullptr;
        const char* features = nullptr;
        if (tcpuResult result = tcpuCodegenHostTarget(&cpu, &features); result != TCPU_SUCCESS)
          throwLastError(result, "host_target");
        return std::make_pair(std::string(cpu), std::string(features));
      },
      "(LLVM CPU name, feature string) of the host, as codegen compiles for it.");

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
