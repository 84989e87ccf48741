#include "ir/kernel_flags.hpp"

#include <map>
#include <memory>
#include <vector>

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "tcpu/kernel_abi.h"

namespace tcpu::codegen {
namespace {

// What another program can change under a running one: atomic updates (read-modify-writes,
// compare-exchanges), and atomic or volatile loads.
bool readsSharedState(const llvm::Instruction& instruction) {
  const auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
  return llvm::isa<llvm::AtomicRMWInst>(instruction) ||
         llvm::isa<llvm::AtomicCmpXchgInst>(instruction) ||
         (load && (load->isAtomic() || load->isVolatile()));
}

const llvm::Function* definedCallee(const llvm::Instruction& instruction) {
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && !callee->isDeclaration() ? callee : nullptr;
}

// `kernel` and the functions the module defines that it calls, directly or not.
std::vector<const llvm::Function*> reachableFunctions(const llvm::Function& kernel) {
  llvm::SmallPtrSet<const llvm::Function*, 16> seen{&kernel};
  std::vector<const llvm::Function*> all{&kernel};
  for (size_t next = 0; next < all.size(); ++next)
    for (const llvm::Instruction& instruction : llvm::instructions(*all[next]))
      if (const llvm::Function* callee = definedCallee(instruction);
          callee && seen.insert(callee).second)
        all.push_back(callee);
  return all;
}

// Whether a function, or one it calls that the module defines, reads shared state (memoized).
class SharedReads {
public:
  bool operator()(const llvm::Function& function) {
    if (auto known = known_.find(&function); known != known_.end()) return known->second;
    known_[&function] = false; // a call cycle reads what the rest of it reads
    bool reads = false;
    for (const llvm::Instruction& instruction : llvm::instructions(function)) {
      const llvm::Function* callee = definedCallee(instruction);
      if (readsSharedState(instruction) || (callee && (*this)(*callee))) {
        reads = true;
        break;
      }
    }
    return known_[&function] = reads;
  }

private:
  std::map<const llvm::Function*, bool> known_;
};

// The loops of one function, after the functions it calls that read shared state were inlined
// into it and its local variables promoted to SSA values.
class LoopScan {
public:
  LoopScan(llvm::Function& function, SharedReads& sharedReads)
      : sharedReads_(sharedReads), dominators_(function), loops_(dominators_) {}

  bool hasWaitingLoop() {
    for (const llvm::Loop* loop : loops_.getLoopsInPreorder())
      if (waits(*loop)) return true;
    return false;
  }

private:
  bool readsShared(const llvm::Instruction& instruction) {
    const llvm::Function* callee = definedCallee(instruction);
    return readsSharedState(instruction) || (callee && sharedReads_(*callee));
  }

  // Whether `value` is the same on every iteration of `loop`: made outside it, or inside it from
  // such values without reading shared state or memory, but for temporaries that hold such
  // values (a call to std::bit_cast of a constant).
  bool invariant(const llvm::Value* value, const llvm::Loop& loop, int depth = 0) {
    const auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
    if (!instruction || !loop.contains(instruction)) return true;
    if (depth > 8 || llvm::isa<llvm::PHINode>(instruction) || readsShared(*instruction))
      return false;
    if (instruction->mayReadFromMemory() && !llvm::isa<llvm::CallBase>(instruction)) return false;
    for (const llvm::Value* operand : instruction->operands()) {
      if (llvm::isa<llvm::Function>(operand)) continue;
      if (!invariant(operand, loop, depth + 1)) return false;
      // A temporary a call reads (std::bit_cast's argument): what the loop stores into it.
      if (const auto* local = llvm::dyn_cast<llvm::AllocaInst>(operand))
        for (const llvm::User* user : local->users())
          if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(user);
              store && loop.contains(store) &&
              !invariant(store->getValueOperand(), loop, depth + 1))
            return false;
    }
    return true;
  }

  // Where a loop's value starts a wait: an atomic update, an atomic or volatile load, or a call
  // that reads shared state, in the loop; except a compare-exchange that expects a value the loop
  // itself produced. That one is a retry loop's (read, compute, swap if unchanged: tl's atomics
  // on floats are made so), which finishes whatever the other programs do; a spin lock's
  // expects a fixed value (0: unlocked).
  bool startsWait(const llvm::Instruction& instruction, const llvm::Loop& loop) {
    if (const auto* swap = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction))
      return !takesAtomicStripeLock(*swap) && invariant(swap->getCompareOperand(), loop);
    return readsShared(instruction);
  }

  // Whether a compare-exchange takes one of the locks tl's atomics are made under (kernel_abi.h):
  // every atomic does, and what another program holds it for is one update, not a wait for that
  // program's progress. The wait on a spin lock made of atomics is found through the value the
  // atomic reads under the lock.
  static bool takesAtomicStripeLock(const llvm::AtomicCmpXchgInst& swap) {
    const auto* table = llvm::dyn_cast<llvm::GlobalVariable>(
        llvm::getUnderlyingObject(swap.getPointerOperand(), /*MaxLookup=*/0));
    return table && table->getName() == "tcpuKernelAtomicLocks";
  }

  // Whether the branch that leaves `loop` depends on shared state read inside it: a spin lock
  // (while atomic_cas(lock, 0, 1) == 1), a test-and-set (while atomic_xchg(lock, 1) == 1), a
  // turn or a count awaited. The dependence is followed through the loop's instructions and the
  // temporaries they store to, but not into another atomic operation (a retry loop's).
  bool waits(const llvm::Loop& loop) {
    std::vector<const llvm::Value*> pending;
    for (const llvm::BasicBlock* block : loop.blocks())
      for (const llvm::Instruction& instruction : *block)
        if (startsWait(instruction, loop)) pending.push_back(&instruction);
    llvm::SmallPtrSet<const llvm::Value*, 32> reached(pending.begin(), pending.end());
    while (!pending.empty()) {
      const llvm::Value* value = pending.back();
      pending.pop_back();
      for (const llvm::User* user : value->users()) {
        const auto* instruction = llvm::dyn_cast<llvm::Instruction>(user);
        if (!instruction || !loop.contains(instruction) || readsSharedState(*instruction)) continue;
        if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(instruction)) {
          // Into a temporary whose address a call takes (std::bit_cast reads its argument by
          // reference): what reads the temporary is reached.
          const auto* local = llvm::dyn_cast<llvm::AllocaInst>(store->getPointerOperand());
          if (store->getValueOperand() != value || !local) continue;
          for (const llvm::User* reader : local->users())
            if (const auto* read = llvm::dyn_cast<llvm::Instruction>(reader);
                read && read != store && loop.contains(read) && reached.insert(read).second)
              pending.push_back(read);
          continue;
        }
        if (instruction->isTerminator()) {
          if (loop.isLoopExiting(instruction->getParent())) return true;
          // A branch inside the iteration: the values its paths join into depend on it (an
          // exit taken through a cleanup switch, as clang writes `break` in a loop).
          for (const llvm::PHINode* join : joinsAfter(*instruction, loop))
            if (reached.insert(join).second) pending.push_back(join);
          continue;
        }
        if (reached.insert(instruction).second) pending.push_back(instruction);
      }
    }
    return false;
  }

  // The phis of the blocks reachable from `branch` within one iteration of `loop` (not through
  // its header again).
  static std::vector<const llvm::PHINode*> joinsAfter(const llvm::Instruction& branch,
                                                      const llvm::Loop& loop) {
    std::vector<const llvm::PHINode*> joins;
    std::vector<const llvm::BasicBlock*> pending;
    llvm::SmallPtrSet<const llvm::BasicBlock*, 16> seen;
    for (const llvm::BasicBlock* next : llvm::successors(branch.getParent()))
      if (loop.contains(next) && next != loop.getHeader() && seen.insert(next).second)
        pending.push_back(next);
    while (!pending.empty()) {
      const llvm::BasicBlock* block = pending.back();
      pending.pop_back();
      for (const llvm::PHINode& phi : block->phis())
        joins.push_back(&phi);
      for (const llvm::BasicBlock* next : llvm::successors(block))
        if (loop.contains(next) && next != loop.getHeader() && seen.insert(next).second)
          pending.push_back(next);
    }
    return joins;
  }

  SharedReads& sharedReads_;
  llvm::DominatorTree dominators_;
  llvm::LoopInfo loops_;
};

// The loops to look at, in the form the optimizer gives them: in a copy of the kernel and the
// functions it calls, those that read shared state (tl's atomics, and what calls them) are
// inlined into their callers, as are those marked always_inline (tl's helpers), and local
// variables become SSA values. In the code as loaded, a spin lock is a loop around a call, and
// its value reaches the loop's branch through an alloca. Inlining every function (the standard
// library's too) made layer norm's backward kernel 84,000 instructions and its module's compile
// 5.5 times as long; this way it costs about 2 %.
bool kernelWaits(const llvm::Function& kernel, SharedReads& sharedReads) {
  const std::vector<const llvm::Function*> reachable = reachableFunctions(kernel);
  const llvm::SmallPtrSet<const llvm::Function*, 16> needed(reachable.begin(), reachable.end());
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> copy =
      llvm::CloneModule(*kernel.getParent(), map, [&](const llvm::GlobalValue* global) {
        const auto* function = llvm::dyn_cast<llvm::Function>(global);
        return !function || needed.contains(function);
      });
  std::vector<llvm::Function*> readers; // the copies of the functions that read shared state
  for (const llvm::Function* function : reachable)
    if (sharedReads(*function)) readers.push_back(llvm::cast<llvm::Function>(map[function]));
  for (llvm::Function* reader : readers)
    if (!reader->hasFnAttribute(llvm::Attribute::NoInline))
      reader->addFnAttr(llvm::Attribute::AlwaysInline);

  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
  llvm::ModulePassManager inliner;
  inliner.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  inliner.run(*copy, moduleAnalyses);

  SharedReads copyReads;
  for (llvm::Function& function : *copy) {
    if (function.isDeclaration() || !copyReads(function)) continue;
    llvm::FunctionPassManager simplify;
    simplify.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    simplify.addPass(llvm::EarlyCSEPass());
    simplify.run(function, functionAnalyses);
    functionAnalyses.clear(function, function.getName());
    if (LoopScan(function, copyReads).hasWaitingLoop()) return true;
  }
  return false;
}

} // namespace

uint32_t kernelFlags(const llvm::Function& kernel) {
  SharedReads sharedReads;
  // Most kernels have no atomics at all: no copy for them.
  if (!sharedReads(kernel)) return 0;
  return kernelWaits(kernel, sharedReads) ? TCPU_KERNEL_PROGRAMS_WAIT : 0;
}

} // namespace tcpu::codegen
