// A CPU pipeline's pass: the module made code for the target machine, whatever its producer
// wrote (clang writes its own defaults).
#ifndef TCPU_CODEGEN_RETARGET_HPP
#define TCPU_CODEGEN_RETARGET_HPP

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "support/compile_options.hpp"

namespace tcpu::codegen {

// The machine's triple and data layout on the module, its CPU, features and preferred vector
// width on every function, and fast-math if `options` ask for it.
void retarget(llvm::Module& module, const llvm::TargetMachine& machine,
              const CompileOptions& options);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_RETARGET_HPP
