#include "ir/memory_operands.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace tcpu::codegen {
namespace {

// `type` read or written at consecutive addresses from operand `index` of the instruction.
MemoryOperand elements(llvm::Instruction& instruction, unsigned index, tcpuAccessKind kind,
                       llvm::Type* type, llvm::Value* mask = nullptr) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return MemoryOperand{
      instruction.getOperand(index),          index, kind, vector ? vector->getElementType() : type,
      vector ? vector->getNumElements() : 1u, mask};
}

// A run of bytes whose length is known at run time.
MemoryOperand bytes(llvm::Instruction& instruction, unsigned index, tcpuAccessKind kind,
                    llvm::Value* length) {
  return MemoryOperand{instruction.getOperand(index),
                       index,
                       kind,
                       llvm::Type::getInt8Ty(instruction.getContext()),
                       1,
                       nullptr,
                       length};
}

} // namespace

llvm::SmallVector<MemoryOperand, 2> memoryOperands(llvm::Instruction& instruction) {
  using llvm::Intrinsic::ID;
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
    return {
        elements(instruction, load->getPointerOperandIndex(), TCPU_ACCESS_LOAD, load->getType())};
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
    return {elements(instruction, store->getPointerOperandIndex(), TCPU_ACCESS_STORE,
                     store->getValueOperand()->getType())};
  if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction))
    return {
        elements(instruction, rmw->getPointerOperandIndex(), TCPU_ACCESS_ATOMIC, rmw->getType())};
  if (auto* exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction))
    return {elements(instruction, exchange->getPointerOperandIndex(), TCPU_ACCESS_ATOMIC,
                     exchange->getCompareOperand()->getType())};
  // memcpy (dest, source, length), memset (dest, value, length).
  if (auto* copy = llvm::dyn_cast<llvm::MemTransferInst>(&instruction))
    return {bytes(instruction, 0, TCPU_ACCESS_STORE, copy->getLength()),
            bytes(instruction, 1, TCPU_ACCESS_LOAD, copy->getLength())};
  if (auto* set = llvm::dyn_cast<llvm::MemSetInst>(&instruction))
    return {bytes(instruction, 0, TCPU_ACCESS_STORE, set->getLength())};
  auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
  if (!call) return {};
  const auto arg = [call](unsigned i) { return call->getArgOperand(i); };
  switch (call->getIntrinsicID()) {
  case llvm::Intrinsic::masked_load:   // (ptr, align, mask, passthru)
  case llvm::Intrinsic::masked_gather: // (ptrs, align, mask, passthru)
    return {elements(instruction, 0, TCPU_ACCESS_LOAD, call->getType(), arg(2))};
  case llvm::Intrinsic::masked_store:   // (value, ptr, align, mask)
  case llvm::Intrinsic::masked_scatter: // (value, ptrs, align, mask)
    return {elements(instruction, 1, TCPU_ACCESS_STORE, arg(0)->getType(), arg(3))};
  case llvm::Intrinsic::masked_expandload: { // (ptr, mask, passthru)
    MemoryOperand operand = elements(instruction, 0, TCPU_ACCESS_LOAD, call->getType(), arg(1));
    operand.compressed = true;
    return {operand};
  }
  case llvm::Intrinsic::masked_compressstore: { // (value, ptr, mask)
    MemoryOperand operand = elements(instruction, 1, TCPU_ACCESS_STORE, arg(0)->getType(), arg(2));
    operand.compressed = true;
    return {operand};
  }
  default:
    return {};
  }
}

} // namespace tcpu::codegen
