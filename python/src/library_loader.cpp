#include "library_loader.hpp"

#include <dlfcn.h>

#include <pybind11/pybind11.h>

#include "errors.hpp"
#include "tcpu/kernel_abi.h"
#include "tcpu/shared_object_image.hpp"
#include "tcpu/tcpu.h"

namespace py = pybind11;

namespace tcpu::python {

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

std::unique_ptr<Kernel> loadCheckedLibrary(const std::string& path, std::string_view image,
                                           const std::string& name) {
  const Status checked =
      checkSharedObjectImage({reinterpret_cast<const std::byte*>(image.data()), image.size()});
  if (!checked.ok()) throw py::value_error("load_library('" + path + "'): " + checked.message());
  return loadLibrary(path, name);
}

} // namespace tcpu::python
