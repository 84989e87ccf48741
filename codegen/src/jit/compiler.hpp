// LLVM IR bytes in, a native object and its kernels out: parse, verify,
// specialize, add trampolines, optimize for the target (O3, SLEEF math),
// and emit machine code.
#ifndef TCPU_CODEGEN_COMPILER_HPP
#define TCPU_CODEGEN_COMPILER_HPP

#include <functional>
#include <span>
#include <string>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "ir/kernels.hpp"
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

// Code an ahead-of-time build links into the module once its kernels are prepared (a launcher
// that calls their entries), and the symbols that stay visible afterwards: everything else,
// the entries included, becomes internal, so that objects of several specializations of one
// kernel link into one program.
struct LinkedCode {
  std::string bitcode;
  std::vector<std::string> exports;
};
using LinkedCodeFactory = std::function<Expected<LinkedCode>(const std::vector<KernelInfo>&)>;

struct CompileRequest {
  std::span<const std::byte> bytes; // .ll text or .bc bitcode
  std::string name;                 // for messages: the path or "<memory image>"
  CompileOptions options;
  TargetDescription target;
  bool withTexts = false;
  // Set for ahead-of-time objects (then the object is for a system linker, not the JIT).
  LinkedCodeFactory linkedCode;
};

Expected<CompiledModule> compileModule(const CompileRequest& request);

// The steps every target shares. Parses .ll text or .bc bitcode and checks what tcpu needs of a
// kernel module (LLVM's verifier, no static constructors, appending linkage only on LLVM's
// arrays); errors name `name`.
Expected<std::unique_ptr<llvm::Module>> parseKernelModule(std::span<const std::byte> bytes,
                                                          const std::string& name,
                                                          llvm::LLVMContext& context);
// TCPU_ERROR_UNKNOWN with LLVM's verifier's findings when what tcpu made of a module is not
// valid IR (a tcpu bug), before code generation could crash on it.
Status verifyProducedIr(const llvm::Module& module);
// Assembly or an object file of `module` for `machine`.
Expected<std::string> emitFile(llvm::Module& module, llvm::TargetMachine& machine,
                               llvm::CodeGenFileType type);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_COMPILER_HPP
