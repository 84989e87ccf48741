// tcpu._tcpu_rt: the runtime alone, without LLVM. It loads the shared objects that _tcpu's
// write_library made (the front end's cache of compiled kernels) and launches their kernels, so
// that a process whose kernels are all cached never loads LLVM or clang. The interface is in
// python/README.md ("The launch interface").
#include <dlfcn.h>

#include <memory>
#include <string>
#include <utility>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "errors.hpp"
#include "kernel.hpp"
#include "python_build_id.h"
#include "runtime_bindings.hpp"
#include "tcpu/kernel_abi.h"
#include "tcpu/tcpu.h"

namespace py = pybind11;
using tcpu::python::Kernel;
using tcpu::python::throwLastError;

namespace {

// Opens the shared object (never closed: its kernels may be launched until exit, and a module
// cache holds them) and wraps its kernel `name` in a module. The front end wrote the file into
// its own cache, so it skips the checks tcpuModuleLoad gives foreign files (the fork probe).
std::unique_ptr<Kernel> loadLibrary(const std::string& path, const std::string& name) {
  const std::string context = "load_library('" + path + "')";
  void* library = nullptr;
  {
    py::gil_scoped_release unlocked;
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  if (!library) {
    const char* reason = dlerror();
    throw py::value_error(context + ": " + (reason ? reason : "dlopen failed"));
  }
  const std::string symbol = TCPU_KERNEL_DESC_PREFIX + name;
  const auto* descriptor = static_cast<const tcpuKernelDesc*>(dlsym(library, symbol.c_str()));
  if (!descriptor) throw py::value_error(context + ": no kernel '" + name + "' in it");
  tcpuModule module = nullptr;
  if (tcpuResult result = tcpuModuleLoadKernels(&module, &descriptor, 1); result != TCPU_SUCCESS)
    throwLastError(result, context);
  return std::make_unique<Kernel>(module, name, context);
}

} // namespace

PYBIND11_MODULE(_tcpu_rt, module) {
  module.doc() = "tcpu's runtime without LLVM: load kernels compiled into shared objects, launch";
  tcpu::python::registerExceptions(module);
  tcpu::python::bindRuntime(module);

  module.def("load_library", &loadLibrary, py::arg("path"), py::arg("name"),
             "The kernel `name` of a shared object that _tcpu.write_library wrote.");
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
