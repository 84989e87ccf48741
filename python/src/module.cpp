// tcpu._tcpu: compiles tl C++ kernel source through codegen, in process (or into a shared object
// for _tcpu_rt), and launches the kernels from Python. The interface is specified in
// python/README.md ("The launch interface").
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "errors.hpp"
#include "kernel.hpp"
#include "library_loader.hpp"
#include "runtime_bindings.hpp"
#include "tcpu/codegen.h"
#include "tcpu/frontend_cache.hpp"
#include "tcpu/tcpu.h"

namespace py = pybind11;
using tcpu::codegen::FrontEndCache;
using tcpu::python::Kernel;
using tcpu::python::throwLastError;
using tcpu::python::throwStatus;

namespace {

// The tcpuJitOption list of a compile from Python.
struct CompileOptions {
  std::vector<tcpuJitOption> keys;
  std::vector<void*> values;
  CompileOptions(bool fpContract, std::optional<bool> checkBounds) {
    keys.push_back(TCPU_JIT_FP_CONTRACT);
    values.push_back(reinterpret_cast<void*>(uintptr_t{fpContract ? 1u : 0u}));
    if (checkBounds) { // else TCPU_CHECK in the environment decides
      keys.push_back(TCPU_JIT_CHECK_BOUNDS);
      values.push_back(reinterpret_cast<void*>(uintptr_t{*checkBounds ? 1u : 0u}));
    }
  }
  unsigned count() const { return static_cast<unsigned>(keys.size()); }
};

std::unique_ptr<Kernel> compileKernel(const std::string& source, const std::string& name,
                                      bool fpContract, std::optional<bool> checkBounds) {
  CompileOptions options(fpContract, checkBounds);
  tcpuModule module = nullptr;
  tcpuResult result = TCPU_SUCCESS;
  {
    // Compiles take 0.1 s to seconds; other Python threads run meanwhile.
    py::gil_scoped_release unlocked;
    result = tcpuModuleLoadDataEx(&module, source.data(), source.size(), options.count(),
                                  options.keys.data(), options.values.data());
  }
  const std::string context = "compile_kernel('" + name + "')";
  if (result != TCPU_SUCCESS) throwLastError(result, context);
  return std::make_unique<Kernel>(module, name, context);
}

void writeLibrary(const std::string& source, const std::string& path, bool fpContract,
                  std::optional<bool> checkBounds) {
  CompileOptions options(fpContract, checkBounds);
  tcpuResult result = TCPU_SUCCESS;
  {
    py::gil_scoped_release unlocked;
    result =
        tcpuCodegenWriteSharedObject(source.data(), source.size(), path.c_str(), options.count(),
                                     options.keys.data(), options.values.data());
  }
  if (result != TCPU_SUCCESS) throwLastError(result, "write_library('" + path + "')");
}

// Compiles `source` into variant `variant` of the front end's cache entry `entry` (codegen's
// FrontEndCache: the shared object, then the metadata, then the size limit) and returns its
// kernel `name`, loaded from the file, as later processes load it.
std::unique_ptr<Kernel> cacheStore(const std::string& entry, const std::string& variant,
                                   const std::string& source, const std::string& name,
                                   const std::string& metadata, bool fpContract,
                                   std::optional<bool> checkBounds) {
  const std::string context = "cache_store('" + entry + "')";
  tcpu::Expected<std::optional<FrontEndCache>> cache = FrontEndCache::fromEnvironment();
  if (!cache) throwStatus(cache.status(), context);
  if (!*cache) throw py::value_error(context + ": there is no cache");
  std::unique_ptr<Kernel> kernel;
  // Errors of the compile and the load are raised from here as write_library and
  // load_library raise them; those of the cache's own files come back from store().
  const auto writeAndLoad = [&](const std::filesystem::path& library) {
    writeLibrary(source, library.string(), fpContract, checkBounds);
    kernel = tcpu::python::loadLibrary(library.string(), name);
    return tcpu::Status();
  };
  if (tcpu::Status stored = (*cache)->store(entry, variant, writeAndLoad, metadata); !stored.ok())
    throwStatus(stored, context);
  return kernel;
}

} // namespace

PYBIND11_MODULE(_tcpu, module) {
  module.doc() = "tcpu's runtime and in-process compiler: compile tl C++ kernel source, launch it";
  // One set of exception classes for both modules: _tcpu_rt's.
  tcpu::python::shareExceptions(module, py::module_::import("tcpu._tcpu_rt"));
  tcpu::python::bindRuntime(module);
  // Explicit, so that no linker drops libtcpu_codegen (its load-time registration does the same).
  tcpuCodegenRegister();

  module.def("compile_kernel", &compileKernel, py::arg("source"), py::arg("name"), py::kw_only(),
             py::arg("fp_contract") = true, py::arg("check_bounds") = py::none(),
             "Compiles tl C++ source (which includes \"tcpu/tl.h\") and returns its kernel `name`, "
             "linked in process. check_bounds None: TCPU_CHECK in the environment decides.");
  module.def("write_library", &writeLibrary, py::arg("source"), py::arg("path"), py::kw_only(),
             py::arg("fp_contract") = true, py::arg("check_bounds") = py::none(),
             "Compiles tl C++ source into a shared object at `path` (atomically) that "
             "_tcpu_rt.load_library loads without LLVM. Error TCPU_ERROR_NOT_SUPPORTED where "
             "there is no ELF linker (ld.lld).");
  module.def("cache_store", &cacheStore, py::arg("entry"), py::arg("variant"), py::arg("source"),
             py::arg("name"), py::arg("metadata"), py::kw_only(), py::arg("fp_contract") = true,
             py::arg("check_bounds") = py::none(),
             "Compiles tl C++ source into variant `variant` of the front end's cache entry "
             "`entry` (shared object, then `metadata` as its .json, atomically; then the cache's "
             "size limit) and returns its kernel `name`. OSError when the cache's files cannot "
             "be written; write_library's and load_library's errors otherwise.");

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
}
