// The CPU compile pipeline: LLVM IR bytes in, a native object and its kernels out. Its passes
// (compile_module.cpp lists them in order) each live in a file of their own, here or in ir/
// and target/.
#ifndef TCPU_CODEGEN_COMPILE_MODULE_HPP
#define TCPU_CODEGEN_COMPILE_MODULE_HPP

#include <span>
#include <string>
#include <vector>

#include "ir/kernels.hpp"
#include "pipeline/linked_code.hpp"
#include "support/compile_options.hpp"
#include "support/file_stamps.hpp"
#include "target/target.hpp"

namespace tcpu::codegen {

struct CompiledModule {
  std::vector<KernelInfo> kernels;
  std::string object; // relocatable object file for the target
  // For a module compiled from C++ source: the files clang read besides the source and tcpu's
  // headers, which must be unchanged for a cached copy to be used (file_stamps.hpp).
  std::vector<FileStamp> inputs;
  // Filled only when asked for (dumps): the input as IR text, the optimized IR, the assembly.
  std::string inputIr;
  std::string optimizedIr;
  std::string assembly;
};

struct CompileRequest {
  std::span<const std::byte> bytes; // .ll text or .bc bitcode
  std::string name;                 // for messages: the path or "<memory image>"
  CompileOptions options;
  TargetDescription target;
  bool withTexts = false;
  // Set for objects a system linker links (ahead-of-time builds, shared objects); unset: an
  // object for the JIT.
  LinkedCodeFactory linkedCode;
};

Expected<CompiledModule> compileModule(const CompileRequest& request);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_COMPILE_MODULE_HPP
