#include "ir/kernel_flags.hpp"

#include <vector>

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include "tcpu/kernel_abi.h"

namespace tcpu::codegen {
namespace {

// Read-modify-writes and compare-exchanges: what tl.atomic_* become, and what a lock or a
// counter in hand-written IR is made of. Atomic plain loads and stores alone do not coordinate
// programs the way a lock does, and are left out.
bool isAtomicUpdate(const llvm::Instruction& instruction) {
  return llvm::isa<llvm::AtomicRMWInst>(instruction) ||
         llvm::isa<llvm::AtomicCmpXchgInst>(instruction);
}

} // namespace

uint32_t kernelFlags(const llvm::Function& kernel) {
  llvm::SmallPtrSet<const llvm::Function*, 16> seen{&kernel};
  std::vector<const llvm::Function*> pending{&kernel};
  while (!pending.empty()) {
    const llvm::Function* function = pending.back();
    pending.pop_back();
    for (const llvm::Instruction& instruction : llvm::instructions(*function)) {
      if (isAtomicUpdate(instruction)) return TCPU_KERNEL_USES_ATOMICS;
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (const llvm::Function* callee = call->getCalledFunction();
            callee && !callee->isDeclaration() && seen.insert(callee).second)
          pending.push_back(callee);
    }
  }
  return 0;
}

} // namespace tcpu::codegen
