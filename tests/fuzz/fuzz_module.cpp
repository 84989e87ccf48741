// The module loader (runtime/src/api/module_api.cpp and its loaders): tcpuModuleLoadData on the
// bytes, with codegen's loader registered as tcpuCodegenRegister does. ELF images are written
// to a private temporary file and dlopen'ed (runtime/src/modules/shared_object_loader.cpp), IR is
// compiled, anything else is refused. A malformed image must give a tcpuResult
// (TCPU_ERROR_INVALID_IMAGE for one dlopen refuses), never a crash; modules that load are
// unloaded.
//
// dlopen runs no checks beyond what the dynamic loader needs, and an image that loads is code
// the process runs (constructors, relocations): the guarantee is for images the loader
// refuses, not for well-formed libraries doing harm. See README.md.
#include <cstdlib>
#include <memory>

#include "fuzz_support.hpp"
#include "loader/ir_module_loader.hpp"
#include "tcpu/module_loader.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::fuzz {
namespace {

constexpr size_t kMaxInput = 16384;

bool isElf(const uint8_t* data, size_t size) {
  return size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F';
}

} // namespace

int fuzzModule(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  static const bool initialized = [] {
    // No cache reads or writes (files outside a private directory, and results that would
    // depend on earlier runs), no dumps.
    ::setenv("TCPU_CACHE_DISABLE", "1", 1);
    ::unsetenv("TCPU_DUMP_DIR");
    TCPU_FUZZ_CHECK(tcpuInit(0) == TCPU_SUCCESS, tcpuGetLastErrorDetail());
    registerModuleLoader(std::make_shared<codegen::IrModuleLoader>());
    return true;
  }();
  (void)initialized;
  tcpuModule module = nullptr;
  const tcpuResult result = tcpuModuleLoadData(&module, data, size);
  if (result == TCPU_SUCCESS) {
    TCPU_FUZZ_CHECK(module != nullptr, "a loaded module without a handle");
    TCPU_FUZZ_CHECK(tcpuModuleUnload(module) == TCPU_SUCCESS, tcpuGetLastErrorDetail());
    return 0;
  }
  const std::string detail = tcpuGetLastErrorDetail();
  TCPU_FUZZ_CHECK(!detail.empty(), concat("code ", static_cast<int>(result), " without a detail"));
  if (isElf(data, size))
    TCPU_FUZZ_CHECK(result == TCPU_ERROR_INVALID_IMAGE,
                    concat("ELF image: code ", static_cast<int>(result), ": ", detail));
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzModule)
