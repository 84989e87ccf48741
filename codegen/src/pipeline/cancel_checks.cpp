#include "pipeline/cancel_checks.hpp"

#include <utility>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace tcpu::codegen {
namespace {

// Loops that run at most this many times per entry are not checked: at a few nanoseconds an
// iteration they end within a fraction of a second even with bodies of a thousand instructions.
constexpr uint64_t kMaxUncheckedTrips = 1u << 16;

using BackEdge = std::pair<llvm::BasicBlock*, llvm::BasicBlock*>; // latch, header

bool bounded(llvm::Loop& loop, llvm::ScalarEvolution& evolution) {
  const auto* maxTaken =
      llvm::dyn_cast<llvm::SCEVConstant>(evolution.getConstantMaxBackedgeTakenCount(&loop));
  return maxTaken && maxTaken->getAPInt().ult(kMaxUncheckedTrips);
}

// The back-edges of the unbounded loops of `function`, innermost loops included.
std::vector<BackEdge> uncheckedBackEdges(llvm::Function& function,
                                         const llvm::TargetLibraryInfoImpl& libraryInfo) {
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::TargetLibraryInfo library(libraryInfo, &function);
  llvm::AssumptionCache assumptions(function);
  llvm::ScalarEvolution evolution(function, library, assumptions, dominators, loops);
  std::vector<BackEdge> edges;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (bounded(*loop, evolution)) continue;
    llvm::SmallVector<llvm::BasicBlock*, 4> latches;
    loop->getLoopLatches(latches);
    for (llvm::BasicBlock* latch : latches) {
      // Only plain branches and switches can have an edge split; one edge per latch (a switch
      // with two cases jumping back is checked on neither, a shape O3 does not leave).
      const llvm::Instruction* terminator = latch->getTerminator();
      if (!llvm::isa<llvm::BranchInst, llvm::SwitchInst>(terminator)) continue;
      unsigned toHeader = 0;
      for (const llvm::BasicBlock* successor : llvm::successors(latch))
        toHeader += successor == loop->getHeader() ? 1 : 0;
      if (toHeader == 1) edges.emplace_back(latch, loop->getHeader());
    }
  }
  return edges;
}

// The cancellation point on the edge latch -> header:
//   check:  pending = volatile load tcpuKernelCancelPending; br pending != 0, slow, header
//   slow:   cancelled = call tcpuKernelCancelled(); br cancelled != 0, leave, header
//   leave:  ret void (one per function)
void insertCheck(const BackEdge& edge, llvm::GlobalVariable& pending,
                 llvm::FunctionCallee cancelled, llvm::BasicBlock*& leave) {
  auto [latch, header] = edge;
  llvm::Function& function = *header->getParent();
  llvm::LLVMContext& context = function.getContext();
  if (!leave) {
    leave = llvm::BasicBlock::Create(context, "cancel.leave", &function);
    llvm::ReturnInst::Create(context, leave);
  }
  llvm::BasicBlock* check = llvm::SplitEdge(latch, header);
  check->setName("cancel.check");
  llvm::BasicBlock* slow = llvm::BasicBlock::Create(context, "cancel.ask", &function);

  check->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> builder(check);
  llvm::LoadInst* count = builder.CreateAlignedLoad(builder.getInt32Ty(), &pending, llvm::Align(4),
                                                    /*isVolatile=*/true);
  // Atomic as well, so that the read of a counter other threads change is no data race.
  count->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::MDBuilder weights(context);
  builder.CreateCondBr(builder.CreateICmpNE(count, builder.getInt32(0)), slow, header,
                       weights.createUnlikelyBranchWeights());

  builder.SetInsertPoint(slow);
  llvm::Value* answer = builder.CreateCall(cancelled);
  builder.CreateCondBr(builder.CreateICmpNE(answer, builder.getInt32(0)), leave, header);
  // The header is now also reached from `slow`, with the values it had from `check`.
  for (llvm::PHINode& phi : header->phis())
    phi.addIncoming(phi.getIncomingValueForBlock(check), slow);
}

} // namespace

unsigned insertCancelChecks(llvm::Module& module) {
  llvm::LLVMContext& context = module.getContext();
  const llvm::TargetLibraryInfoImpl libraryInfo{llvm::Triple(module.getTargetTriple())};
  std::vector<std::pair<llvm::Function*, std::vector<BackEdge>>> work;
  for (llvm::Function& function : module) {
    if (function.isDeclaration() || !function.getReturnType()->isVoidTy()) continue;
    std::vector<BackEdge> edges = uncheckedBackEdges(function, libraryInfo);
    if (!edges.empty()) work.emplace_back(&function, std::move(edges));
  }
  if (work.empty()) return 0;

  auto* pending = llvm::cast<llvm::GlobalVariable>(
      module.getOrInsertGlobal("tcpuKernelCancelPending", llvm::Type::getInt32Ty(context)));
  llvm::FunctionCallee cancelled =
      module.getOrInsertFunction("tcpuKernelCancelled", llvm::Type::getInt32Ty(context));
  if (auto* declaration = llvm::dyn_cast<llvm::Function>(cancelled.getCallee()))
    declaration->addFnAttr(llvm::Attribute::NoUnwind);
  unsigned checked = 0;
  for (auto& [function, edges] : work) {
    llvm::BasicBlock* leave = nullptr;
    for (const BackEdge& edge : edges)
      insertCheck(edge, *pending, cancelled, leave);
    checked += static_cast<unsigned>(edges.size());
  }
  return checked;
}

} // namespace tcpu::codegen
