// Why this rule is enough (kernel_abi.h says it for the runtime): without atomics nothing orders
// one program's writes before another's reads, so the copy made when a block was first read is
// what any program of the launch may see, as on a GPU running them at once; and with no write
// before the read in the program itself, it is also what that program would have read.
#include "ir/shared_reads.hpp"

#include <vector>

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include "tcpu/kernel_abi.h"

namespace tcpu::codegen {
namespace {

constexpr llvm::StringLiteral kSharedCopy = "tcpuKernelSharedCopy";

bool callsNamed(const llvm::Value& value, llvm::StringRef name) {
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&value);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == name;
}

// Whether every object `pointer` may point into is the program's own (an alloca) or a shared
// copy (which its first reader fills).
bool ownMemory(const llvm::Value* pointer) {
  llvm::SmallVector<const llvm::Value*, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects);
  for (const llvm::Value* object : objects)
    if (!llvm::isa<llvm::AllocaInst>(object) && !callsNamed(*object, kSharedCopy)) return false;
  return true;
}

// Whether an instruction may write memory another program could read. Calls count unless they
// only read memory, touch only memory the kernel cannot see (llvm.assume,
// llvm.experimental.noalias.scope.decl), or are the runtime's services that write none of the
// kernel's memory.
bool writesVisibleMemory(const llvm::Instruction& instruction) {
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
    return !ownMemory(store->getPointerOperand());
  if (const auto* transfer = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction))
    return !ownMemory(transfer->getDest());
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
  if (!call || call->onlyReadsMemory() || call->onlyAccessesInaccessibleMemory() ||
      call->isLifetimeStartOrEnd() || llvm::isa<llvm::DbgInfoIntrinsic>(call))
    return false;
  const llvm::Function* callee = call->getCalledFunction();
  const llvm::StringRef name = callee ? callee->getName() : "";
  return name != kSharedCopy && name != "tcpuKernelSharedCopyFilled" && name != "tcpuKernelPrint" &&
         name != "tcpuKernelAssertFail";
}

} // namespace

bool sharesReads(const llvm::Function& entry) {
  std::vector<const llvm::Instruction*> reads, writes;
  for (const llvm::Instruction& instruction : llvm::instructions(entry)) {
    // An atomic may order other programs' writes before this one's reads (a lock, a flag).
    if (instruction.isAtomic() || llvm::isa<llvm::FenceInst>(instruction)) return false;
    if (callsNamed(instruction, kSharedCopy))
      reads.push_back(&instruction);
    else if (writesVisibleMemory(instruction))
      writes.push_back(&instruction);
  }
  if (reads.empty()) return false;

  // One program's paths: the outermost loops run a program per iteration, so their back edges
  // lead from one program to the next and are not followed.
  const llvm::DominatorTree dominators(const_cast<llvm::Function&>(entry));
  llvm::LoopInfo loops(dominators);
  llvm::SmallPtrSet<const llvm::BasicBlock*, 4> programStarts;
  for (const llvm::Loop* loop : loops.getTopLevelLoops())
    programStarts.insert(loop->getHeader());
  for (const llvm::Instruction* write : writes) {
    llvm::SmallPtrSet<const llvm::BasicBlock*, 32> reached;
    std::vector<const llvm::BasicBlock*> pending;
    const auto follow = [&](const llvm::BasicBlock* from) {
      for (const llvm::BasicBlock* next : llvm::successors(from))
        if (!programStarts.contains(next) && reached.insert(next).second) pending.push_back(next);
    };
    follow(write->getParent());
    while (!pending.empty()) {
      const llvm::BasicBlock* block = pending.back();
      pending.pop_back();
      follow(block);
    }
    for (const llvm::Instruction* read : reads)
      if (reached.contains(read->getParent()) ||
          (read->getParent() == write->getParent() && write->comesBefore(read)))
        return false;
  }
  return true;
}

void flagSharedReads(llvm::Module& module, std::vector<KernelInfo>& kernels) {
  for (KernelInfo& kernel : kernels) {
    const llvm::Function* entry = module.getFunction(kernel.entrySymbol);
    if (!entry || entry->isDeclaration() || !sharesReads(*entry)) continue;
    kernel.flags |= TCPU_KERNEL_SHARES_READS;
    // A tcpuKernelDesc initializer: {abiVersion, numParams, name, entry, params, flags}.
    for (llvm::GlobalVariable& global : module.globals()) {
      auto* desc = global.hasInitializer()
                       ? llvm::dyn_cast<llvm::ConstantStruct>(global.getInitializer())
                       : nullptr;
      if (!desc || desc->getNumOperands() != 6 || desc->getOperand(3)->stripPointerCasts() != entry)
        continue;
      auto* flags = llvm::dyn_cast<llvm::ConstantInt>(desc->getOperand(5));
      if (!flags) continue;
      std::vector<llvm::Constant*> fields;
      for (unsigned i = 0; i < 5; ++i)
        fields.push_back(desc->getOperand(i));
      fields.push_back(llvm::ConstantInt::get(flags->getType(),
                                              flags->getZExtValue() | TCPU_KERNEL_SHARES_READS));
      global.setInitializer(llvm::ConstantStruct::get(desc->getType(), fields));
    }
  }
}

} // namespace tcpu::codegen
