#include "ir/pointer_origins.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

namespace tcpu::codegen {

PointerOrigins::PointerOrigins(llvm::Function& entry) {
  const llvm::Argument* params = entry.getArg(0);
  const llvm::DataLayout& layout = entry.getParent()->getDataLayout();
  const unsigned slotBytes = layout.getPointerSize();
  for (llvm::Instruction& instruction : llvm::instructions(entry)) {
    auto* value = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (!value || !value->getType()->isPointerTy()) continue;
    auto* slot = llvm::dyn_cast<llvm::LoadInst>(value->getPointerOperand());
    if (!slot || !slot->getType()->isPointerTy()) continue;
    llvm::APInt offset(layout.getIndexTypeSizeInBits(params->getType()), 0);
    const llvm::Value* array = slot->getPointerOperand()->stripAndAccumulateConstantOffsets(
        layout, offset, /*AllowNonInbounds=*/true);
    if (array == params && !offset.isNegative() && offset.getZExtValue() % slotBytes == 0)
      params_[value] = static_cast<unsigned>(offset.getZExtValue() / slotBytes);
  }
}

llvm::SmallVector<llvm::Value*, 4> PointerOrigins::roots(llvm::Value* address) {
  constexpr size_t kMaxRoots = 4; // a pointer and the stack objects masked lanes read instead
  llvm::SmallVector<llvm::Value*, 8> pending{address};
  llvm::SmallPtrSet<llvm::Value*, 16> seen;
  llvm::SmallVector<llvm::Value*, 4> found;
  while (!pending.empty()) {
    llvm::Value* value = pending.pop_back_val();
    if (!seen.insert(value).second || llvm::isa<llvm::UndefValue>(value)) continue;
    if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(value)) {
      pending.push_back(gep->getPointerOperand());
    } else if (auto* cast = llvm::dyn_cast<llvm::Operator>(value);
               cast && (cast->getOpcode() == llvm::Instruction::BitCast ||
                        cast->getOpcode() == llvm::Instruction::AddrSpaceCast)) {
      pending.push_back(cast->getOperand(0));
    } else if (auto* freeze = llvm::dyn_cast<llvm::FreezeInst>(value)) {
      pending.push_back(freeze->getOperand(0));
    } else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(value)) {
      pending.append(phi->value_op_begin(), phi->value_op_end());
    } else if (auto* select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      pending.append({select->getTrueValue(), select->getFalseValue()});
    } else if (llvm::isa<llvm::ShuffleVectorInst, llvm::InsertElementInst,
                         llvm::ExtractElementInst>(value)) {
      // Splats and lane moves of pointers; the lane indices are not pointers.
      for (llvm::Value* operand : llvm::cast<llvm::Instruction>(value)->operands())
        if (operand->getType()->isPtrOrPtrVectorTy()) pending.push_back(operand);
    } else if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(value);
               intrinsic &&
               (intrinsic->getIntrinsicID() == llvm::Intrinsic::ptrmask ||
                intrinsic->getIntrinsicID() == llvm::Intrinsic::launder_invariant_group ||
                intrinsic->getIntrinsicID() == llvm::Intrinsic::strip_invariant_group)) {
      pending.push_back(intrinsic->getArgOperand(0));
    } else {
      if (found.size() == kMaxRoots) return {};
      found.push_back(value);
    }
  }
  return found;
}

std::optional<unsigned> PointerOrigins::paramOf(llvm::Value* address) const {
  const llvm::SmallVector<llvm::Value*, 4> found = roots(address);
  if (found.size() != 1) return std::nullopt;
  auto it = params_.find(found.front());
  if (it == params_.end()) return std::nullopt;
  return it->second;
}

std::optional<PointerOrigin> PointerOrigins::of(llvm::Value* address) const {
  std::optional<PointerOrigin> origin;
  llvm::SmallVector<llvm::AllocaInst*, 2> locals;
  for (llvm::Value* root : roots(address)) {
    if (auto* local = llvm::dyn_cast<llvm::AllocaInst>(root);
        local && local->getAllocationSize(local->getModule()->getDataLayout())) {
      locals.push_back(local);
      continue;
    }
    auto* load = llvm::dyn_cast<llvm::LoadInst>(root);
    if (origin || !load || !load->getType()->isPointerTy()) return std::nullopt;
    if (auto it = params_.find(load); it != params_.end())
      origin = PointerOrigin{load, it->second, false, {}};
    else if (std::optional<unsigned> param = paramOf(load->getPointerOperand()))
      origin = PointerOrigin{load, *param, true, {}}; // one step removed, not a chain
    else
      return std::nullopt;
  }
  if (origin) origin->locals = std::move(locals);
  return origin;
}

bool PointerOrigins::isLocal(llvm::Value* address) {
  const llvm::SmallVector<llvm::Value*, 4> found = roots(address);
  return !found.empty() && llvm::all_of(found, [](llvm::Value* root) {
    if (llvm::isa<llvm::AllocaInst, llvm::Argument>(root)) return true;
    // A pointer the trampoline reads from its own arguments: a parameter slot, scratch.
    auto* load = llvm::dyn_cast<llvm::LoadInst>(root);
    const llvm::SmallVector<llvm::Value*, 4> holders =
        load ? roots(load->getPointerOperand()) : llvm::SmallVector<llvm::Value*, 4>{};
    return holders.size() == 1 && llvm::isa<llvm::Argument>(holders.front());
  });
}

} // namespace tcpu::codegen
