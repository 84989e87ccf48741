// tcpu._tcpu_rt: the runtime alone, without LLVM. It loads the shared objects that _tcpu wrote
// (the front end's cache of compiled kernels, through codegen's LLVM-free tcpu_cache_files) and
// launches their kernels, so that a process whose kernels are all cached never loads LLVM or
// clang. The interface is in python/README.md ("The launch interface").
#include <string>
#include <utility>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cache_bindings.hpp"
#include "errors.hpp"
#include "library_loader.hpp"
#include "python_build_id.h"
#include "runtime_bindings.hpp"
#include "tcpu/tcpu.h"

namespace py = pybind11;
using tcpu::python::throwLastError;

PYBIND11_MODULE(_tcpu_rt, module) {
  module.doc() = "tcpu's runtime without LLVM: load kernels compiled into shared objects, launch";
  tcpu::python::registerExceptions(module);
  tcpu::python::bindRuntime(module);

  module.def("load_library", &tcpu::python::loadLibrary, py::arg("path"), py::arg("name"),
             "The kernel `name` of a shared object that _tcpu.write_library wrote.");
  tcpu::python::bindFrontEndCache(module);
  module.def(
      "host_cpu",
      [] {
        char name[256] = {};
        char features[1024] = {};
        if (tcpuResult r = tcpuDeviceGetName(name, sizeof name, 0); r != TCPU_SUCCESS)
          throwLastError(r, "host_cpu");
        if (tcpuResult r = tcpuDeviceGetFeatures(features, sizeof features, 0); r != TCPU_SUCCESS)
          throwLastError(r, "host_cpu");
        return std::make_pair(std::string(name), std::string(features));
      },
      "(model name, ISA features) of the host CPU, as the runtime reads them (no LLVM).");
  module.def(
      "build_id", [] { return std::string(TCPU_PYTHON_BUILD_ID); },
      "A hash of codegen's sources and tcpu's headers as this build has them: part of the "
      "front end's cache keys.");
}
