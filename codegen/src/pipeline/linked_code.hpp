// A CPU pipeline's pass for objects a system linker links (ahead-of-time builds, shared objects):
// code of the caller's linked into the module once its kernels are prepared.
#ifndef TCPU_CODEGEN_LINKED_CODE_HPP
#define TCPU_CODEGEN_LINKED_CODE_HPP

#include <functional>
#include <string>
#include <vector>

#include <llvm/IR/Module.h>

#include "ir/kernels.hpp"

namespace tcpu::codegen {

// The code (a launcher that calls the kernels' entries, their descriptors) and the symbols that
// stay visible afterwards: everything else, the entries included, becomes internal, so that
// objects of several specializations of one kernel link into one program.
struct LinkedCode {
  std::string bitcode;
  std::vector<std::string> exports;
};
using LinkedCodeFactory = std::function<Expected<LinkedCode>(const std::vector<KernelInfo>&)>;

// Links `code` into `module` and leaves only its exports visible.
Status linkCode(llvm::Module& module, const LinkedCode& code);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_LINKED_CODE_HPP
