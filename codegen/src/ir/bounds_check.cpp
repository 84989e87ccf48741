#include "ir/bounds_check.hpp"

#include <map>
#include <optional>
#include <vector>

#include <llvm/ADT/MapVector.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "ir/memory_operands.hpp"
#include "ir/pointer_origins.hpp"
#include "support/debug_log.hpp"

namespace tcpu::codegen {
namespace {

struct CheckedOperand {
  llvm::Instruction* instruction;
  MemoryOperand operand;
  PointerOrigin origin;
};

// Memory an address may point into: [start, start + size).
struct Region {
  llvm::Value* start;        // i64
  llvm::Value* size;         // i64; a constant for stack objects
  llvm::Instruction* anchor; // what depends only on start and size goes right after it
};

// The most bytes an access may touch to be redirected (rather than branched around).
constexpr uint64_t kSafeBytes = 4096;

// Instruments one entry function: looks up buffers and checks accesses. An access of a fixed
// size is redirected when its check fails: its pointer is swapped (a select, no branch) for
// one into a zeroed area (loads) or a scratch sink (stores, atomics), and the first failure of
// its block is reported at the block's end. So the checked code keeps the unchecked code's
// blocks, and with them its instruction selection: the backend fuses a multiply and an add
// into an FMA only within a block, and results stay bit-identical. Runs of a length known only
// at run time (memcpy) are skipped by a branch instead.
class Instrumenter {
public:
  explicit Instrumenter(llvm::Function& entry);
  // Looks up the buffer of `origin` where its pointer is read; for every origin before
  // checking any access.
  void lookUpBuffer(const PointerOrigin& origin);
  bool redirectable(const MemoryOperand& operand) const;
  // `accesses` are redirectable and lie in one block, in program order.
  void redirect(llvm::ArrayRef<CheckedOperand> accesses);
  void guard(const CheckedOperand& checked);

private:
  // A redirected access and its check, for the report at its block's end.
  struct Check {
    const CheckedOperand* access;
    llvm::Value* ok;
    llvm::SmallVector<Region, 3> regions;
  };
  // At `terminator`, when `failed`: reports the first of `checks` that failed.
  void reportFirstFailure(llvm::Value* failed, llvm::Instruction* terminator,
                          llvm::ArrayRef<Check> checks);
  // The zeroed area loads are redirected to, or the sink stores are.
  llvm::GlobalVariable* safeArea(bool writable);

  uint64_t storeBytes(llvm::Type* type) const {
    return layout_.getTypeStoreSize(type).getFixedValue();
  }
  // The origin's buffer, then the stack objects the address may point into instead.
  llvm::SmallVector<Region, 3> regionsOf(const PointerOrigin& origin);
  // size - bytes + 1, or 0 when `bytes` exceed the region: offsets below it are in bounds.
  llvm::Value* limit(const Region& region, uint64_t bytes);
  // i1, or <N x i1> for a vector of addresses: [address, address + bytes) lies in a region.
  llvm::Value* inside(llvm::IRBuilder<>& builder, llvm::Value* addresses, uint64_t bytes,
                      llvm::ArrayRef<Region> regions);
  llvm::Value* laneAddresses(llvm::IRBuilder<>& builder, const MemoryOperand& operand);
  // <lanes x i1>: the active lanes whose element lies in no region.
  llvm::Value* lanesOutside(llvm::IRBuilder<>& builder, llvm::Value* addresses,
                            const MemoryOperand& operand, llvm::ArrayRef<Region> regions);
  llvm::Value* runLength(llvm::IRBuilder<>& builder, const MemoryOperand& operand);
  llvm::Value* inBounds(llvm::IRBuilder<>& builder, const MemoryOperand& operand,
                        llvm::ArrayRef<Region> regions);
  void report(llvm::IRBuilder<>& builder, const CheckedOperand& checked,
              llvm::ArrayRef<Region> regions);

  llvm::Module& module_;
  const llvm::DataLayout& layout_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  llvm::StructType* extentType_;
  llvm::StructType* recordType_;
  llvm::AllocaInst* extentSlot_;
  llvm::AllocaInst* recordSlot_;
  std::map<llvm::LoadInst*, Region> buffers_; // by the pointer they hold
  std::map<llvm::AllocaInst*, Region> locals_;
  std::map<std::pair<llvm::Value*, uint64_t>, llvm::Value*> limits_;
};

Instrumenter::Instrumenter(llvm::Function& entry)
    : module_(*entry.getParent()), layout_(module_.getDataLayout()),
      i32_(llvm::Type::getInt32Ty(entry.getContext())),
      i64_(llvm::Type::getInt64Ty(entry.getContext())) {
  llvm::LLVMContext& context = entry.getContext();
  auto* ptr = llvm::PointerType::getUnqual(context);
  extentType_ = llvm::StructType::get(context, {i64_, i64_}); // tcpuBufferExtent
  // tcpuAccessRecord: param, kind, throughMemory, elementType, base, address, bytes.
  recordType_ = llvm::StructType::get(context, {i32_, i32_, i32_, i32_, ptr, ptr, i64_});
  llvm::IRBuilder<> builder(&*entry.getEntryBlock().getFirstInsertionPt());
  extentSlot_ = builder.CreateAlloca(extentType_, nullptr, "bounds.extent");
  recordSlot_ = builder.CreateAlloca(recordType_, nullptr, "bounds.record");
}

void Instrumenter::lookUpBuffer(const PointerOrigin& origin) {
  if (buffers_.contains(origin.pointer)) return;
  llvm::LLVMContext& context = module_.getContext();
  auto* ptr = llvm::PointerType::getUnqual(context);
  llvm::FunctionCallee find = module_.getOrInsertFunction(
      "tcpuKernelFindBuffer",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr}, false));
  llvm::IRBuilder<> builder(origin.pointer->getNextNode());
  builder.CreateCall(find, {origin.pointer, extentSlot_})->setDoesNotThrow();
  llvm::Value* start = builder.CreateLoad(
      i64_, builder.CreateStructGEP(extentType_, extentSlot_, 0), "buffer.start");
  llvm::LoadInst* size =
      builder.CreateLoad(i64_, builder.CreateStructGEP(extentType_, extentSlot_, 1), "buffer.size");
  buffers_.emplace(origin.pointer, Region{start, size, size});
}

llvm::SmallVector<Region, 3> Instrumenter::regionsOf(const PointerOrigin& origin) {
  llvm::SmallVector<Region, 3> regions{buffers_.at(origin.pointer)};
  for (llvm::AllocaInst* local : origin.locals) {
    auto [it, added] = locals_.try_emplace(local);
    if (added) {
      llvm::IRBuilder<> builder(local->getNextNode());
      auto* start = llvm::cast<llvm::Instruction>(builder.CreatePtrToInt(local, i64_));
      const uint64_t size = local->getAllocationSize(layout_)->getFixedValue();
      it->second = Region{start, llvm::ConstantInt::get(i64_, size), start};
    }
    regions.push_back(it->second);
  }
  return regions;
}

llvm::Value* Instrumenter::limit(const Region& region, uint64_t bytes) {
  llvm::Value*& cached = limits_[{region.size, bytes}];
  if (cached) return cached;
  // Computed once, beside the region, rather than at every access (constants fold).
  llvm::IRBuilder<> builder(region.anchor->getNextNode());
  llvm::Value* count = llvm::ConstantInt::get(i64_, bytes);
  llvm::Value* fits = builder.CreateICmpUGE(region.size, count);
  llvm::Value* past =
      builder.CreateAdd(builder.CreateSub(region.size, count), llvm::ConstantInt::get(i64_, 1));
  cached = builder.CreateSelect(fits, past, llvm::ConstantInt::get(i64_, 0), "region.limit");
  return cached;
}

llvm::Value* Instrumenter::inside(llvm::IRBuilder<>& builder, llvm::Value* addresses,
                                  uint64_t bytes, llvm::ArrayRef<Region> regions) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(addresses->getType());
  const auto spread = [&](llvm::Value* value) {
    return vector ? builder.CreateVectorSplat(vector->getNumElements(), value) : value;
  };
  llvm::Value* any = nullptr;
  for (const Region& region : regions) {
    llvm::Value* offset = builder.CreateSub(addresses, spread(region.start));
    llvm::Value* in = builder.CreateICmpULT(offset, spread(limit(region, bytes)));
    any = any ? builder.CreateOr(any, in) : in;
  }
  return any;
}

// <lanes x i64>: each element's address.
llvm::Value* Instrumenter::laneAddresses(llvm::IRBuilder<>& builder, const MemoryOperand& operand) {
  if (operand.pointer->getType()->isVectorTy())
    return builder.CreatePtrToInt(operand.pointer, llvm::FixedVectorType::get(i64_, operand.lanes));
  const uint64_t step = storeBytes(operand.element);
  llvm::SmallVector<llvm::Constant*, 16> offsets;
  for (unsigned lane = 0; lane < operand.lanes; ++lane)
    offsets.push_back(llvm::ConstantInt::get(i64_, lane * step));
  llvm::Value* first = builder.CreatePtrToInt(operand.pointer, i64_);
  return builder.CreateAdd(builder.CreateVectorSplat(operand.lanes, first),
                           llvm::ConstantVector::get(offsets));
}

llvm::Value* Instrumenter::lanesOutside(llvm::IRBuilder<>& builder, llvm::Value* addresses,
                                        const MemoryOperand& operand,
                                        llvm::ArrayRef<Region> regions) {
  llvm::Value* outside =
      builder.CreateNot(inside(builder, addresses, storeBytes(operand.element), regions));
  return operand.mask ? builder.CreateAnd(outside, operand.mask) : outside;
}

// i64 bytes of a run whose length is known only at run time.
llvm::Value* Instrumenter::runLength(llvm::IRBuilder<>& builder, const MemoryOperand& operand) {
  if (!operand.compressed) return builder.CreateZExtOrTrunc(operand.length, i64_);
  llvm::Value* bits = builder.CreateBitCast(
      operand.mask, llvm::IntegerType::get(module_.getContext(), operand.lanes));
  llvm::Value* active =
      builder.CreateZExtOrTrunc(builder.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, bits), i64_);
  return builder.CreateMul(active, llvm::ConstantInt::get(i64_, storeBytes(operand.element)));
}

llvm::Value* Instrumenter::inBounds(llvm::IRBuilder<>& builder, const MemoryOperand& operand,
                                    llvm::ArrayRef<Region> regions) {
  if (operand.length || operand.compressed) {
    // Nothing touched, or the whole run in one region: length <= size, offset <= size - length.
    llvm::Value* length = runLength(builder, operand);
    llvm::Value* address = builder.CreatePtrToInt(operand.pointer, i64_);
    llvm::Value* ok = builder.CreateICmpEQ(length, llvm::ConstantInt::get(i64_, 0));
    for (const Region& region : regions) {
      llvm::Value* offset = builder.CreateSub(address, region.start);
      ok = builder.CreateOr(
          ok,
          builder.CreateAnd(builder.CreateICmpULE(length, region.size),
                            builder.CreateICmpULE(offset, builder.CreateSub(region.size, length))));
    }
    return ok;
  }
  if (operand.mask || operand.pointer->getType()->isVectorTy())
    return builder.CreateNot(builder.CreateOrReduce(
        lanesOutside(builder, laneAddresses(builder, operand), operand, regions)));
  // Consecutive elements, all touched: one range check of all their bytes.
  return inside(builder, builder.CreatePtrToInt(operand.pointer, i64_),
                storeBytes(operand.element) * operand.lanes, regions);
}

// Fills the record with the first element outside the buffer and reports it.
void Instrumenter::report(llvm::IRBuilder<>& builder, const CheckedOperand& checked,
                          llvm::ArrayRef<Region> regions) {
  const MemoryOperand& operand = checked.operand;
  llvm::Value* address = operand.pointer;
  llvm::Value* bytes = llvm::ConstantInt::get(i64_, storeBytes(operand.element));
  tcpuDataType type = dataTypeOf(operand.element, TCPU_TYPE_UNKNOWN);
  if (operand.length || operand.compressed) {
    bytes = runLength(builder, operand);
    type = TCPU_TYPE_UNKNOWN; // the run as a whole, not one element
  } else if (operand.lanes > 1 || operand.pointer->getType()->isVectorTy()) {
    llvm::Value* addresses = laneAddresses(builder, operand);
    llvm::Value* bits =
        builder.CreateBitCast(lanesOutside(builder, addresses, operand, regions),
                              llvm::IntegerType::get(module_.getContext(), operand.lanes));
    llvm::Value* lane =
        builder.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, bits, builder.getTrue());
    address =
        builder.CreateIntToPtr(builder.CreateExtractElement(addresses, lane), builder.getPtrTy());
  }
  const PointerOrigin& origin = checked.origin;
  llvm::Value* fields[] = {builder.getInt32(origin.param),
                           builder.getInt32(static_cast<uint32_t>(operand.kind)),
                           builder.getInt32(origin.throughMemory ? 1 : 0),
                           builder.getInt32(static_cast<uint32_t>(type)),
                           origin.pointer,
                           address,
                           bytes};
  for (unsigned i = 0; i < std::size(fields); ++i)
    builder.CreateStore(fields[i], builder.CreateStructGEP(recordType_, recordSlot_, i));
  llvm::LLVMContext& context = module_.getContext();
  llvm::FunctionCallee reportAccess = module_.getOrInsertFunction(
      "tcpuKernelReportAccess",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {builder.getPtrTy()}, false));
  builder.CreateCall(reportAccess, {recordSlot_})->setDoesNotThrow();
}

bool Instrumenter::redirectable(const MemoryOperand& operand) const {
  if (operand.hasRunTimeLength()) return false;
  const bool perLane = operand.pointer->getType()->isVectorTy();
  return storeBytes(operand.element) * (perLane ? 1 : operand.lanes) <= kSafeBytes;
}

llvm::GlobalVariable* Instrumenter::safeArea(bool writable) {
  const char* name = writable ? "__tcpu_bounds_sink" : "__tcpu_bounds_zeros";
  if (llvm::GlobalVariable* area = module_.getNamedGlobal(name)) return area;
  auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module_.getContext()), kSafeBytes);
  auto* area = new llvm::GlobalVariable(module_, type, /*isConstant=*/!writable,
                                        llvm::GlobalValue::InternalLinkage,
                                        llvm::ConstantAggregateZero::get(type), name);
  area->setAlignment(llvm::Align(kSafeBytes)); // any access's alignment holds there
  return area;
}

void Instrumenter::redirect(llvm::ArrayRef<CheckedOperand> accesses) {
  std::vector<Check> checks;
  llvm::Value* failed = nullptr;
  for (const CheckedOperand& access : accesses) {
    llvm::Instruction* instruction = access.instruction;
    const MemoryOperand& operand = access.operand;
    llvm::SmallVector<Region, 3> regions = regionsOf(access.origin);
    llvm::IRBuilder<> builder(instruction);
    llvm::Value* ok = inBounds(builder, operand, regions);
    llvm::Value* safe = safeArea(operand.kind != TCPU_ACCESS_LOAD);
    if (operand.pointer->getType()->isVectorTy())
      safe = builder.CreateVectorSplat(operand.lanes, safe);
    instruction->setOperand(operand.pointerOperand,
                            builder.CreateSelect(ok, operand.pointer, safe));
    llvm::Value* outside = builder.CreateNot(ok);
    failed = failed ? builder.CreateOr(failed, outside) : outside;
    if (operand.kind == TCPU_ACCESS_ATOMIC) { // it read the sink: a skipped access reads zeros
      builder.SetInsertPoint(instruction->getNextNode());
      llvm::Value* result = builder.CreateSelect(
          ok, instruction, llvm::Constant::getNullValue(instruction->getType()));
      instruction->replaceUsesWithIf(result,
                                     [result](llvm::Use& use) { return use.getUser() != result; });
    }
    checks.push_back({&access, ok, std::move(regions)});
  }
  reportFirstFailure(failed, accesses.front().instruction->getParent()->getTerminator(), checks);
}

void Instrumenter::reportFirstFailure(llvm::Value* failed, llvm::Instruction* terminator,
                                      llvm::ArrayRef<Check> checks) {
  llvm::LLVMContext& context = module_.getContext();
  llvm::MDNode* unlikely = llvm::MDBuilder(context).createUnlikelyBranchWeights();
  llvm::Instruction* reported =
      llvm::SplitBlockAndInsertIfThen(failed, terminator, false, unlikely);
  llvm::BasicBlock* tail = reported->getSuccessor(0);
  llvm::BasicBlock* current = reported->getParent();
  llvm::Function* function = current->getParent();
  reported->eraseFromParent();
  // current: if check i passed, on to check i + 1, else report it and leave.
  for (size_t i = 0; i < checks.size(); ++i) {
    auto* reportBlock = llvm::BasicBlock::Create(context, "bounds.report", function, tail);
    llvm::BasicBlock* next = i + 1 < checks.size()
                                 ? llvm::BasicBlock::Create(context, "bounds.next", function, tail)
                                 : tail;
    llvm::IRBuilder<>(current).CreateCondBr(checks[i].ok, next, reportBlock);
    llvm::IRBuilder<> builder(reportBlock);
    report(builder, *checks[i].access, checks[i].regions);
    builder.CreateBr(tail);
    current = next;
  }
}

void Instrumenter::guard(const CheckedOperand& checked) {
  llvm::Instruction* instruction = checked.instruction;
  const llvm::SmallVector<Region, 3> regions = regionsOf(checked.origin);
  llvm::IRBuilder<> builder(instruction);
  llvm::Value* ok = inBounds(builder, checked.operand, regions);
  llvm::Instruction* thenEnd = nullptr;
  llvm::Instruction* elseEnd = nullptr;
  llvm::MDNode* likely = llvm::MDBuilder(module_.getContext()).createLikelyBranchWeights();
  llvm::SplitBlockAndInsertIfThenElse(ok, instruction, &thenEnd, &elseEnd, likely);
  llvm::BasicBlock* tail = instruction->getParent();
  instruction->moveBefore(thenEnd);
  builder.SetInsertPoint(elseEnd);
  report(builder, checked, regions);
  if (instruction->getType()->isVoidTy()) return;
  // A skipped access reads zeros.
  builder.SetInsertPoint(&tail->front());
  llvm::PHINode* result = builder.CreatePHI(instruction->getType(), 2);
  instruction->replaceUsesWithIf(result,
                                 [result](llvm::Use& use) { return use.getUser() != result; });
  result->addIncoming(instruction, thenEnd->getParent());
  result->addIncoming(llvm::Constant::getNullValue(instruction->getType()), elseEnd->getParent());
}

// Whether every value the address may derive from is available where it is used.
bool dominates(const llvm::DominatorTree& dominators, const PointerOrigin& origin,
               const llvm::Instruction* use) {
  if (!dominators.dominates(origin.pointer, use)) return false;
  for (const llvm::AllocaInst* local : origin.locals)
    if (!dominators.dominates(local, use)) return false;
  return true;
}

} // namespace

llvm::FunctionCallee programAnnouncement(llvm::Module& module) {
  llvm::LLVMContext& context = module.getContext();
  auto* i32 = llvm::Type::getInt32Ty(context);
  llvm::FunctionCallee announce = module.getOrInsertFunction(
      "tcpuKernelEnterProgram",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i32, i32, i32}, false));
  // It writes only the runtime's own state: kernel memory stays as optimizable around it.
  if (auto* function = llvm::dyn_cast<llvm::Function>(announce.getCallee())) {
    function->setDoesNotThrow();
    function->setWillReturn();
    function->setOnlyAccessesInaccessibleMemory();
  }
  return announce;
}

void instrumentBoundsChecks(llvm::Module& module, const std::vector<KernelInfo>& kernels) {
  size_t checked = 0, untraced = 0;
  for (const KernelInfo& kernel : kernels) {
    llvm::Function* entry = module.getFunction(kernel.entrySymbol);
    if (!entry || entry->isDeclaration()) continue;
    // Everything is decided before anything changes.
    const PointerOrigins origins(*entry);
    const llvm::DominatorTree dominators(*entry);
    std::vector<CheckedOperand> operands;
    for (llvm::Instruction& instruction : llvm::instructions(*entry))
      for (const MemoryOperand& operand : memoryOperands(instruction)) {
        std::optional<PointerOrigin> origin = origins.of(operand.pointer);
        if (origin && dominates(dominators, *origin, &instruction))
          operands.push_back({&instruction, operand, std::move(*origin)});
        else if (!PointerOrigins::isLocal(operand.pointer))
          ++untraced;
      }
    if (operands.empty()) continue;
    Instrumenter instrumenter(*entry);
    for (const CheckedOperand& operand : operands)
      instrumenter.lookUpBuffer(operand.origin);
    // Redirected accesses first, by block: they split blocks only at their ends.
    llvm::MapVector<llvm::BasicBlock*, std::vector<CheckedOperand>> blocks;
    std::vector<const CheckedOperand*> skipped;
    for (const CheckedOperand& operand : operands)
      if (instrumenter.redirectable(operand.operand))
        blocks[operand.instruction->getParent()].push_back(operand);
      else
        skipped.push_back(&operand);
    for (const auto& [block, accesses] : blocks)
      instrumenter.redirect(accesses);
    for (const CheckedOperand* operand : skipped)
      instrumenter.guard(*operand);
    checked += operands.size();
  }
  debugLog(concat("bounds checks: ", checked, " accesses checked, ", untraced,
                  " not (through pointers not traced to a kernel parameter)"));
}

} // namespace tcpu::codegen
