#include "runtime_bindings.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "errors.hpp"
#include "kernel.hpp"
#include "tcpu/tcpu.h"

namespace py = pybind11;

namespace tcpu::python {

void bindRuntime(py::module_& module) {
  // A bad environment variable fails tcpuInit: reported by _tcpu_rt.check_environment as a
  // ValueError, which the front end calls before its first compile or load. Raised here, it
  // would be an ImportError (pybind11 turns every error of a module's initialization into one).
  if (tcpuResult result = tcpuInit(0); result != TCPU_SUCCESS && result != TCPU_ERROR_INVALID_VALUE)
    throwLastError(result, "tcpuInit");

  py::class_<Kernel>(module, "Kernel", py::module_local(), "A loaded kernel.")
      .def("launch", &Kernel::launch, py::arg("gx"), py::arg("gy"), py::arg("gz"),
           py::arg("num_threads"), py::arg("codes"), py::arg("args"),
           "Runs the kernel over a gx x gy x gz grid and waits for it. codes: one character per "
           "parameter (P?bhilBHILeEfd); args: a tuple of one value per parameter. num_threads "
           "0 keeps the runtime's setting.")
      .def_property_readonly("name", &Kernel::name)
      .def_property_readonly("num_params", &Kernel::numParams)
      .def_property_readonly("programs_wait", &Kernel::programsWait,
                             "Whether the kernel's programs wait for each other (a spin lock), "
                             "which makes the runtime deal them in launch order.");

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
      "register_host",
      [](uintptr_t address, size_t size) {
        const tcpuResult result = tcpuMemHostRegister(reinterpret_cast<void*>(address), size, 0);
        // A range overlapping a known buffer is checked against that buffer already.
        if (result == TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED) return false;
        if (result != TCPU_SUCCESS) throwLastError(result, "register_host");
        return true;
      },
      py::arg("address"), py::arg("size"),
      "Makes [address, address + size) a buffer bounds-checked kernels check accesses against "
      "(tcpuMemHostRegister). False, and nothing registered, when it overlaps a known buffer.");
  module.def(
      "unregister_host",
      [](uintptr_t address) {
        if (tcpuResult result = tcpuMemHostUnregister(reinterpret_cast<void*>(address));
            result != TCPU_SUCCESS)
          throwLastError(result, "unregister_host");
      },
      py::arg("address"), "Removes the range register_host made at `address`.");
  module.def(
      "alloc_guarded",
      [](size_t size) {
        tcpuDeviceptr address = 0;
        if (tcpuResult result = tcpuMemAllocEx(&address, size, TCPU_MEMALLOC_GUARD);
            result != TCPU_SUCCESS)
          throwLastError(result, "alloc_guarded");
        return static_cast<uintptr_t>(address);
      },
      py::arg("size"),
      "A buffer of `size` bytes that ends at a guard page (tcpuMemAllocEx with "
      "TCPU_MEMALLOC_GUARD): a kernel's access past its end faults there, inside the kernel.");
  module.def(
      "free",
      [](uintptr_t address) {
        if (tcpuResult result = tcpuMemFree(static_cast<tcpuDeviceptr>(address));
            result != TCPU_SUCCESS)
          throwLastError(result, "free");
      },
      py::arg("address"), "Frees a buffer alloc_guarded returned.");
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
