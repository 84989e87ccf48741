// The first pass of every target's pipeline: a kernel module's bytes parsed and checked.
#ifndef TCPU_CODEGEN_KERNEL_MODULE_HPP
#define TCPU_CODEGEN_KERNEL_MODULE_HPP

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

// Parses .ll text or .bc bitcode and checks what tcpu needs of a kernel module (LLVM's verifier,
// no static constructors, appending linkage only on LLVM's arrays); errors name `name`.
Expected<std::unique_ptr<llvm::Module>> parseKernelModule(std::span<const std::byte> bytes,
                                                          const std::string& name,
                                                          llvm::LLVMContext& context);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_KERNEL_MODULE_HPP
