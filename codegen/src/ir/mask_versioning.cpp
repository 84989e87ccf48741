#include "ir/mask_versioning.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

namespace tcpu::codegen {
namespace {

// Loops of more iterations than this are left alone: blocks are small.
constexpr unsigned kMaxTripCount = 1u << 20;

// One guard `if (index PRED bound) inside else skip-to-latch`.
struct Mask {
  llvm::BranchInst* branch;
  bool insideOnTrue; // which successor is the in-bounds one
  const llvm::SCEVAddRecExpr* index;
  const llvm::SCEV* bound;
  bool isSigned;
  bool inclusive; // <= rather than <
};

std::optional<Mask> asMask(llvm::BranchInst* branch, const llvm::Loop& loop,
                           llvm::ScalarEvolution& evolution) {
  if (!branch || !branch->isConditional()) return std::nullopt;
  auto* compare = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
  if (!compare) return std::nullopt;
  llvm::CmpInst::Predicate predicate = compare->getPredicate();
  const llvm::SCEV* left = evolution.getSCEV(compare->getOperand(0));
  const llvm::SCEV* right = evolution.getSCEV(compare->getOperand(1));
  if (!llvm::isa<llvm::SCEVAddRecExpr>(left)) {
    std::swap(left, right);
    predicate = llvm::CmpInst::getSwappedPredicate(predicate);
  }
  const auto* index = llvm::dyn_cast<llvm::SCEVAddRecExpr>(left);
  if (!index || index->getLoop() != &loop || !index->isAffine() ||
      !evolution.isLoopInvariant(right, &loop))
    return std::nullopt;
  // Integers of at most 64 bits: the check below computes exactly in i128 only then.
  if (!index->getType()->isIntegerTy() || index->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  const auto* step = llvm::dyn_cast<llvm::SCEVConstant>(index->getStepRecurrence(evolution));
  if (!step || !step->getAPInt().isStrictlyPositive()) return std::nullopt;
  bool insideOnTrue = true;
  if (!llvm::ICmpInst::isLT(predicate) && !llvm::ICmpInst::isLE(predicate)) {
    if (!llvm::ICmpInst::isGE(predicate) && !llvm::ICmpInst::isGT(predicate)) return std::nullopt;
    predicate = llvm::CmpInst::getInversePredicate(predicate); // index >= n: inside on false
    insideOnTrue = false;
  }
  // The skipped path must go straight to the latch, so removing it keeps the loop whole.
  llvm::BasicBlock* skipped = branch->getSuccessor(insideOnTrue ? 1 : 0);
  if (skipped != loop.getLoopLatch()) return std::nullopt;
  return Mask{branch,
              insideOnTrue,
              index,
              right,
              llvm::ICmpInst::isSigned(predicate),
              llvm::ICmpInst::isLE(predicate)};
}

// In the preheader: true when every iteration's index passes every mask,
// computed in i128 so that neither the index nor the check can wrap.
llvm::Value* allInBounds(const std::vector<Mask>& masks, unsigned tripCount,
                         llvm::Instruction* insertBefore, llvm::ScalarEvolution& evolution) {
  llvm::SCEVExpander expander(evolution, insertBefore->getModule()->getDataLayout(), "mask.check");
  llvm::IRBuilder<> builder(insertBefore);
  llvm::Type* wide = builder.getIntNTy(128);
  llvm::Value* all = builder.getTrue();
  for (const Mask& mask : masks) {
    llvm::Type* type = mask.index->getType();
    const unsigned bits = type->getScalarSizeInBits();
    const auto extend = [&](llvm::Value* value) {
      return mask.isSigned ? builder.CreateSExt(value, wide) : builder.CreateZExt(value, wide);
    };
    llvm::Value* start = extend(expander.expandCodeFor(mask.index->getStart(), type, insertBefore));
    llvm::Value* bound = extend(expander.expandCodeFor(mask.bound, type, insertBefore));
    const llvm::APInt step =
        llvm::cast<llvm::SCEVConstant>(mask.index->getStepRecurrence(evolution))->getAPInt();
    llvm::Value* span =
        llvm::ConstantInt::get(wide, step.zext(128) * llvm::APInt(128, tripCount - 1));
    llvm::Value* last = builder.CreateAdd(start, span);
    const llvm::APInt maximum = mask.isSigned ? llvm::APInt::getSignedMaxValue(bits).sext(128)
                                              : llvm::APInt::getMaxValue(bits).zext(128);
    llvm::Value* noWrap = builder.CreateICmpSLE(last, llvm::ConstantInt::get(wide, maximum));
    llvm::Value* below =
        mask.inclusive ? builder.CreateICmpSLE(last, bound) : builder.CreateICmpSLT(last, bound);
    all = builder.CreateAnd(all, builder.CreateAnd(noWrap, below));
  }
  return all;
}

// Whether computing `expression` before the loop cannot trap: no division by
// a value that may be zero. (SCEVExpander's own safety check let such a
// division through when it sat under a guard in the loop.)
bool safeToComputeEarly(const llvm::SCEV* expression, llvm::Instruction* point,
                        llvm::SCEVExpander& expander) {
  const bool divides = llvm::SCEVExprContains(expression, [](const llvm::SCEV* part) {
    const auto* division = llvm::dyn_cast<llvm::SCEVUDivExpr>(part);
    if (!division) return false;
    const auto* divisor = llvm::dyn_cast<llvm::SCEVConstant>(division->getRHS());
    return !divisor || divisor->getAPInt().isZero();
  });
  return !divides && expander.isSafeToExpandAt(expression, point);
}

bool versionLoop(llvm::Loop& loop, llvm::LoopInfo& loops, llvm::DominatorTree& dominators,
                 llvm::ScalarEvolution& evolution) {
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  llvm::BasicBlock* exiting = loop.getExitingBlock();
  llvm::BasicBlock* exit = loop.getExitBlock();
  if (!preheader || !exiting || !exit || exiting != loop.getLoopLatch() ||
      !loop.isLCSSAForm(dominators))
    return false;
  const unsigned tripCount = evolution.getSmallConstantTripCount(&loop);
  if (tripCount == 0 || tripCount > kMaxTripCount) return false;
  std::vector<Mask> masks;
  llvm::SCEVExpander safety(evolution, preheader->getModule()->getDataLayout(), "mask.safety");
  llvm::Instruction* checkPoint = preheader->getTerminator();
  for (llvm::BasicBlock* block : loop.blocks()) {
    if (block == exiting) continue;
    auto mask = asMask(llvm::dyn_cast<llvm::BranchInst>(block->getTerminator()), loop, evolution);
    // The check runs before the loop: its operands must be computable there
    // without trapping (a bound computed under a guard, like a division, is not).
    if (mask && safeToComputeEarly(mask->index->getStart(), checkPoint, safety) &&
        safeToComputeEarly(mask->bound, checkPoint, safety))
      masks.push_back(*mask);
  }
  if (masks.empty()) return false;

  // preheader (check) -> masked.ph -> original loop, or -> unmasked clone.
  llvm::BasicBlock* check = preheader;
  llvm::BasicBlock* maskedPreheader =
      llvm::SplitBlock(check, check->getTerminator(), &dominators, &loops, nullptr, "masked.ph");
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::BasicBlock*, 8> clonedBlocks;
  llvm::Loop* unmasked = llvm::cloneLoopWithPreheader(
      maskedPreheader, check, &loop, map, ".unmasked", &loops, &dominators, clonedBlocks);
  llvm::remapInstructionsInBlocks(clonedBlocks, map);
  llvm::Instruction* oldTerminator = check->getTerminator();
  llvm::Value* inBounds = allInBounds(masks, tripCount, oldTerminator, evolution);
  llvm::BranchInst::Create(unmasked->getLoopPreheader(), maskedPreheader, inBounds, oldTerminator);
  oldTerminator->eraseFromParent();
  dominators.changeImmediateDominator(maskedPreheader, check);
  // Values leaving the loop (LCSSA phis) now also come from the clone.
  auto* clonedExiting = llvm::cast<llvm::BasicBlock>(map[exiting]);
  for (llvm::PHINode& phi : exit->phis()) {
    llvm::Value* incoming = phi.getIncomingValueForBlock(exiting);
    llvm::Value* mapped = map.count(incoming) ? static_cast<llvm::Value*>(map[incoming]) : incoming;
    phi.addIncoming(mapped, clonedExiting);
  }
  if (dominators.getNode(exit)) dominators.changeImmediateDominator(exit, check);
  // In the clone every mask holds: branch straight to the inside path.
  for (const Mask& mask : masks) {
    auto* branch = llvm::cast<llvm::BranchInst>(map[mask.branch]);
    llvm::BasicBlock* inside = branch->getSuccessor(mask.insideOnTrue ? 0 : 1);
    llvm::BasicBlock* skipped = branch->getSuccessor(mask.insideOnTrue ? 1 : 0);
    skipped->removePredecessor(branch->getParent());
    llvm::BranchInst::Create(inside, branch);
    branch->eraseFromParent();
  }
  return true;
}

} // namespace

llvm::PreservedAnalyses MaskVersioningPass::run(llvm::Function& function,
                                                llvm::FunctionAnalysisManager& analyses) {
  auto& loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto& dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto& evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  std::vector<llvm::Loop*> innermost;
  for (llvm::Loop* loop : loops.getLoopsInPreorder())
    if (loop->isInnermost()) innermost.push_back(loop);
  bool changed = false;
  for (llvm::Loop* loop : innermost)
    changed |= versionLoop(*loop, loops, dominators, evolution);
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace tcpu::codegen
