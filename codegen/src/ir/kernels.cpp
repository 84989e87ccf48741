#include "ir/kernels.hpp"

#include <map>
#include <optional>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include "ir/bounds_check.hpp"
#include "ir/kernel_flags.hpp"
#include "ir/signature.hpp"

namespace tcpu::codegen {
namespace {

constexpr size_t kProgramValues = 6;

// How the trampoline produces one kernel argument.
struct ArgumentPlan {
  llvm::Constant* constant = nullptr;            // bound at compile time (constexpr or ":1")
  int hint = 0;                                  // 16: aligned / divisible by 16
  tcpuDataType declaredType = TCPU_TYPE_UNKNOWN; // from the signature, for unsigned / pointee
};

bool isKernel(const llvm::Function& function) {
  // Inline and template functions (linkonce) are helpers, not kernels, unless a
  // tag named them (applyKernelTags made them external).
  if (function.isDeclaration() || function.hasLocalLinkage() || function.hasLinkOnceLinkage() ||
      function.hasAvailableExternallyLinkage() || !function.getReturnType()->isVoidTy() ||
      function.arg_size() < kProgramValues)
    return false;
  for (size_t i = function.arg_size() - kProgramValues; i < function.arg_size(); ++i)
    if (!function.getArg(static_cast<unsigned>(i))->getType()->isIntegerTy(32)) return false;
  return true;
}

std::string typeText(const llvm::Type* type) {
  std::string text;
  llvm::raw_string_ostream out(text);
  type->print(out);
  return text;
}

// Whether a scalar signature type may be passed as this IR type (triton-cpu
// passes i1 as i32 and fp16/bf16 scalars as float).
bool scalarFits(tcpuDataType type, const llvm::Type* ir) {
  switch (type) {
  case TCPU_TYPE_I1:
    return ir->isIntegerTy(1) || ir->isIntegerTy(8) || ir->isIntegerTy(32);
  case TCPU_TYPE_I8:
  case TCPU_TYPE_U8:
    return ir->isIntegerTy(8);
  case TCPU_TYPE_I16:
  case TCPU_TYPE_U16:
    return ir->isIntegerTy(16);
  case TCPU_TYPE_I32:
  case TCPU_TYPE_U32:
    return ir->isIntegerTy(32);
  case TCPU_TYPE_I64:
  case TCPU_TYPE_U64:
    return ir->isIntegerTy(64);
  case TCPU_TYPE_FP16:
    return ir->isHalfTy() || ir->isFloatTy();
  case TCPU_TYPE_BF16:
    return ir->isBFloatTy() || ir->isFloatTy();
  case TCPU_TYPE_FP32:
    return ir->isFloatTy();
  case TCPU_TYPE_FP64:
    return ir->isDoubleTy();
  default:
    return false;
  }
}

Expected<llvm::Constant*> constantFor(const SignatureEntry& entry, llvm::Type* ir,
                                      const std::string& where) {
  if (entry.kind == SignatureEntry::Kind::Constexpr && entry.type == TCPU_TYPE_FP64) {
    if (ir->isFloatingPointTy()) return llvm::ConstantFP::get(ir, entry.floatValue);
  } else if (ir->isIntegerTy()) {
    const unsigned bits = ir->getIntegerBitWidth();
    const int64_t value = entry.intValue;
    if (bits < 64 && (value >= (int64_t{1} << bits) || value < -(int64_t{1} << (bits - 1))))
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(where, ": ", value, " does not fit ", typeText(ir)));
    return static_cast<llvm::Constant*>(
        llvm::ConstantInt::get(ir, static_cast<uint64_t>(value), /*isSigned=*/true));
  } else if (ir->isFloatingPointTy()) {
    return llvm::ConstantFP::get(ir, static_cast<double>(entry.intValue));
  }
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat(where, ": a constant cannot be passed as ", typeText(ir)));
}

Expected<std::vector<ArgumentPlan>> planArguments(llvm::Function& kernel,
                                                  const std::string& signatureText) {
  const size_t count = kernel.arg_size() - kProgramValues;
  std::vector<ArgumentPlan> plans(count);
  if (signatureText.empty()) return plans;
  Expected<Signature> signature = parseSignature(signatureText);
  if (!signature) return signature.status();
  const auto& entries = signature->entries;
  // A kernel takes every argument of the signature (constexprs and arguments equal to 1 are
  // passed as constants), or only the run-time ones: kernels written by the Python front end
  // have their constexprs compiled in.
  std::vector<size_t> entryOf;
  for (size_t e = 0; e < entries.size(); ++e)
    if (entries.size() == count || entries[e].passedAtLaunch()) entryOf.push_back(e);
  if (entryOf.size() != count)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("signature has ", entries.size(), " entries (", entryOf.size(),
                         " of them run-time arguments) but kernel '", kernel.getName().str(),
                         "' takes ", count, " parameters before the six program values"));
  for (unsigned i = 0; i < static_cast<unsigned>(count); ++i) {
    const SignatureEntry& entry = entries[entryOf[i]];
    llvm::Type* ir = kernel.getArg(i)->getType();
    const std::string where =
        concat("signature column ", entry.column, ": entry ", entryOf[i], " '", entry.text,
               "' (kernel parameter of type ", typeText(ir), ")");
    ArgumentPlan& plan = plans[i];
    plan.hint = entry.hint;
    plan.declaredType = entry.type;
    switch (entry.kind) {
    case SignatureEntry::Kind::Pointer:
      if (!ir->isPointerTy())
        return Status(TCPU_ERROR_INVALID_VALUE, concat(where, ": a pointer entry needs a ptr"));
      break;
    case SignatureEntry::Kind::Scalar:
      if (!scalarFits(entry.type, ir))
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat(where, ": ", describe(entry), " cannot be passed as ", typeText(ir)));
      if (entry.hint == 1) { // Triton specializes a value of 1 away
        SignatureEntry one = entry;
        one.intValue = 1;
        Expected<llvm::Constant*> constant = constantFor(one, ir, where);
        if (!constant) return constant.status();
        plan.constant = *constant;
      }
      break;
    case SignatureEntry::Kind::Constexpr: {
      Expected<llvm::Constant*> constant = constantFor(entry, ir, where);
      if (!constant) return constant.status();
      plan.constant = *constant;
      break;
    }
    }
  }
  return plans;
}

// The kernel's arguments before the six program values: constants where the plan binds one,
// else the next runtime parameter from `runtimeValue` (with the plan's hint as an assumption),
// each described in `info`.
template <class RuntimeValue>
std::vector<llvm::Value*> kernelArguments(llvm::Function& kernel,
                                          const std::vector<ArgumentPlan>& plans, KernelInfo& info,
                                          llvm::IRBuilder<>& builder, RuntimeValue runtimeValue) {
  const llvm::DataLayout& layout = kernel.getParent()->getDataLayout();
  std::vector<llvm::Value*> args;
  for (unsigned i = 0; i < plans.size(); ++i) {
    const ArgumentPlan& plan = plans[i];
    llvm::Type* ir = kernel.getArg(i)->getType();
    if (plan.constant) {
      args.push_back(plan.constant);
      continue;
    }
    llvm::Value* value = runtimeValue(ir);
    if (plan.hint == 16 && ir->isPointerTy()) {
      builder.CreateAlignmentAssumption(layout, value, 16);
    } else if (plan.hint == 16 && ir->isIntegerTy()) {
      llvm::Value* low = builder.CreateAnd(value, llvm::ConstantInt::get(ir, 15));
      builder.CreateAssumption(builder.CreateICmpEQ(low, llvm::ConstantInt::get(ir, 0)));
    }
    args.push_back(value);
    const auto declared = plan.declaredType;
    tcpuParamDesc desc{};
    desc.type = dataTypeOf(ir, declared);
    desc.pointee = ir->isPointerTy() ? declared : TCPU_TYPE_UNKNOWN;
    desc.size = static_cast<uint32_t>(layout.getTypeStoreSize(ir));
    desc.align = static_cast<uint32_t>(layout.getABITypeAlign(ir).value());
    info.params.push_back(desc);
    info.paramNames.push_back(info.declaredNames[i]);
  }
  return args;
}

// entry(ptr params, i64 begin, i64 end, ptr frame): unpack the runtime
// parameters once, decode the first program, then step x fastest.
// Checked builds announce each program to the runtime, for bounds-check reports.
llvm::Function* buildTrampoline(llvm::Function& kernel, const std::vector<ArgumentPlan>& plans,
                                KernelInfo& info, bool announcePrograms) {
  llvm::Module& module = *kernel.getParent();
  llvm::LLVMContext& context = module.getContext();
  const llvm::DataLayout& layout = module.getDataLayout();
  auto* ptr = llvm::PointerType::getUnqual(context);
  auto* i32 = llvm::Type::getInt32Ty(context);
  auto* i64 = llvm::Type::getInt64Ty(context);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, i64, i64, ptr}, false);
  auto* entry =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, info.entrySymbol, module);
  entry->setDoesNotThrow();
  for (const char* attribute : {"target-cpu", "target-features"})
    if (kernel.hasFnAttribute(attribute)) entry->addFnAttr(kernel.getFnAttribute(attribute));
  llvm::Argument* params = entry->getArg(0);
  llvm::Argument* begin = entry->getArg(1);
  llvm::Argument* end = entry->getArg(2);
  llvm::Argument* frame = entry->getArg(3);

  auto* start = llvm::BasicBlock::Create(context, "start", entry);
  auto* loop = llvm::BasicBlock::Create(context, "programs", entry);
  auto* done = llvm::BasicBlock::Create(context, "done", entry);
  llvm::IRBuilder<> builder(start);

  unsigned runtimeIndex = 0;
  const std::vector<llvm::Value*> args =
      kernelArguments(kernel, plans, info, builder, [&](llvm::Type* ir) -> llvm::Value* {
        llvm::Value* slot = builder.CreateConstInBoundsGEP1_64(ptr, params, runtimeIndex++);
        llvm::Value* address = builder.CreateLoad(ptr, slot);
        return builder.CreateAlignedLoad(ir, address, layout.getABITypeAlign(ir));
      });
  llvm::Value* grid[3];
  for (unsigned axis = 0; axis < 3; ++axis)
    grid[axis] = builder.CreateLoad(i32, builder.CreateConstInBoundsGEP1_64(i32, frame, axis),
                                    concat("grid", axis));
  llvm::Value* gx64 = builder.CreateZExt(grid[0], i64);
  llvm::Value* gy64 = builder.CreateZExt(grid[1], i64);
  llvm::Value* row = builder.CreateUDiv(begin, gx64);
  llvm::Value* x0 = builder.CreateTrunc(builder.CreateURem(begin, gx64), i32);
  llvm::Value* y0 = builder.CreateTrunc(builder.CreateURem(row, gy64), i32);
  llvm::Value* z0 = builder.CreateTrunc(builder.CreateUDiv(row, gy64), i32);
  builder.CreateCondBr(builder.CreateICmpULT(begin, end), loop, done);

  builder.SetInsertPoint(loop);
  llvm::PHINode* index = builder.CreatePHI(i64, 2, "program");
  llvm::PHINode* x = builder.CreatePHI(i32, 2, "x");
  llvm::PHINode* y = builder.CreatePHI(i32, 2, "y");
  llvm::PHINode* z = builder.CreatePHI(i32, 2, "z");
  if (announcePrograms) builder.CreateCall(programAnnouncement(module), {x, y, z});
  std::vector<llvm::Value*> callArgs = args;
  callArgs.insert(callArgs.end(), {x, y, z, grid[0], grid[1], grid[2]});
  llvm::CallInst* call = builder.CreateCall(&kernel, callArgs);
  call->setCallingConv(kernel.getCallingConv()); // a mismatch would make the call undefined
  llvm::Value* one = builder.getInt32(1);
  llvm::Value* xNext = builder.CreateAdd(x, one);
  llvm::Value* xWraps = builder.CreateICmpEQ(xNext, grid[0]);
  llvm::Value* yStep = builder.CreateAdd(y, builder.CreateZExt(xWraps, i32));
  llvm::Value* yWraps = builder.CreateICmpEQ(yStep, grid[1]);
  llvm::Value* nextIndex = builder.CreateAdd(index, builder.getInt64(1));
  index->addIncoming(begin, start);
  index->addIncoming(nextIndex, loop);
  x->addIncoming(x0, start);
  x->addIncoming(builder.CreateSelect(xWraps, builder.getInt32(0), xNext), loop);
  y->addIncoming(y0, start);
  y->addIncoming(builder.CreateSelect(yWraps, builder.getInt32(0), yStep), loop);
  z->addIncoming(z0, start);
  z->addIncoming(builder.CreateAdd(z, builder.CreateZExt(yWraps, i32)), loop);
  builder.CreateCondBr(builder.CreateICmpULT(nextIndex, end), loop, done);
  builder.SetInsertPoint(done);
  builder.CreateRetVoid();
  return entry;
}

// The CUDA kernel of `kernel` (NVPTX): the launch's parameters are its own, and each CUDA block
// is one program (x, y, z from %ctaid, the grid from %nctaid), run by the block's one thread as
// a CPU worker runs it. The CUDA kernel takes the kernel's name; the ABI function is renamed.
llvm::Function* buildGpuEntry(llvm::Function& kernel, const std::vector<ArgumentPlan>& plans,
                              KernelInfo& info) {
  llvm::Module& module = *kernel.getParent();
  llvm::LLVMContext& context = module.getContext();
  std::vector<llvm::Type*> types;
  for (unsigned i = 0; i < plans.size(); ++i)
    if (!plans[i].constant) types.push_back(kernel.getArg(i)->getType());
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), types, false);
  kernel.setName("__tcpu_program_" + info.name);
  auto* entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, info.name, module);
  info.entrySymbol = info.name;
  entry->setDoesNotThrow();
  for (const char* attribute : {"target-cpu", "target-features"})
    if (kernel.hasFnAttribute(attribute)) entry->addFnAttr(kernel.getFnAttribute(attribute));
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "start", entry));
  unsigned runtimeIndex = 0;
  std::vector<llvm::Value*> args = kernelArguments(
      kernel, plans, info, builder, [&](llvm::Type*) { return entry->getArg(runtimeIndex++); });
  for (unsigned i = 0; i < entry->arg_size(); ++i)
    entry->getArg(i)->setName(info.paramNames[i]);
  for (llvm::Intrinsic::ID id :
       {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
        llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
        llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z})
    args.push_back(builder.CreateIntrinsic(id, {}, {}));
  llvm::CallInst* call = builder.CreateCall(&kernel, args);
  call->setCallingConv(kernel.getCallingConv());
  builder.CreateRetVoid();
  // A CUDA kernel (LLVM 19 marks them in nvvm.annotations) of one thread per block.
  llvm::NamedMDNode* annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  for (const char* key : {"kernel", "maxntidx", "maxntidy", "maxntidz"})
    annotations->addOperand(llvm::MDNode::get(
        context, {llvm::ValueAsMetadata::get(entry), llvm::MDString::get(context, key),
                  llvm::ConstantAsMetadata::get(builder.getInt32(1))}));
  return entry;
}

// The argument a call operand passes on unchanged: the argument itself, or (as clang
// emits before optimization) a reload of the stack slot the argument was spilled to.
const llvm::Argument* forwardedArgument(const llvm::Value* operand) {
  if (const auto* argument = llvm::dyn_cast<llvm::Argument>(operand)) return argument;
  const auto* load = llvm::dyn_cast<llvm::LoadInst>(operand);
  const auto* slot = load ? llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand()) : nullptr;
  if (!slot) return nullptr;
  for (const llvm::User* user : slot->users())
    if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(user);
        store && store->getPointerOperand() == slot)
      if (const auto* argument = llvm::dyn_cast<llvm::Argument>(store->getValueOperand()))
        return argument;
  return nullptr;
}

// Source names of a kernel's parameters. A tagged C++ kernel's ABI function (tl's Entry) only
// forwards its parameters to the kernel class's operator(), whose parameters carry the names the
// author wrote (x_ptr, n_elements); so for those, a parameter takes the name of the callee
// parameter it is forwarded to. Otherwise the IR's own argument names are the source names.
std::vector<std::string> declaredNames(const llvm::Function& kernel, bool tagged) {
  const size_t count = kernel.arg_size() - kProgramValues;
  std::vector<std::string> names(count);
  for (size_t i = 0; i < count; ++i)
    names[i] = kernel.getArg(static_cast<unsigned>(i))->getName().str();
  if (!tagged) return names;
  std::vector<bool> renamed(count, false);
  for (const llvm::BasicBlock& block : kernel)
    for (const llvm::Instruction& instruction : block) {
      const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->isDeclaration()) continue;
      for (unsigned op = 0; op < call->arg_size() && op < callee->arg_size(); ++op) {
        const llvm::Argument* source = forwardedArgument(call->getArgOperand(op));
        if (!source || source->getParent() != &kernel || source->getArgNo() >= count) continue;
        const std::string name = callee->getArg(op)->getName().str();
        if (!renamed[source->getArgNo()] && !name.empty()) {
          names[source->getArgNo()] = name;
          renamed[source->getArgNo()] = true;
        }
      }
    }
  return names;
}

// The parameter types TL_KERNEL writes beside a tag (TCPU_KERNEL_TYPES_PREFIX + name), by
// kernel name; the globals go. A malformed one is ignored: the types are a convenience.
std::map<std::string, std::vector<uint32_t>> takeParameterTypes(llvm::Module& module) {
  const llvm::StringRef prefix = TCPU_KERNEL_TYPES_PREFIX;
  std::map<std::string, std::vector<uint32_t>> types;
  std::vector<llvm::GlobalVariable*> globals;
  for (llvm::GlobalVariable& global : module.globals())
    if (global.getName().starts_with(prefix)) globals.push_back(&global);
  for (llvm::GlobalVariable* global : globals) {
    const llvm::Constant* init = global->hasInitializer() ? global->getInitializer() : nullptr;
    const auto* count =
        init ? llvm::dyn_cast_or_null<llvm::ConstantInt>(init->getAggregateElement(0u)) : nullptr;
    const llvm::Constant* codes = init ? init->getAggregateElement(1u) : nullptr;
    if (count && codes) {
      std::vector<uint32_t>& list = types[global->getName().substr(prefix.size()).str()];
      for (uint64_t i = 0; i < count->getZExtValue() && i < 4096; ++i) { // 4096: malformed
        const auto* code = llvm::dyn_cast_or_null<llvm::ConstantInt>(
            codes->getAggregateElement(static_cast<unsigned>(i)));
        list.push_back(code ? static_cast<uint32_t>(code->getZExtValue())
                            : static_cast<uint32_t>(TCPU_TYPE_UNKNOWN));
      }
    }
    llvm::removeFromUsedLists(
        module, [global](llvm::Constant* c) { return c->stripPointerCasts() == global; });
    global->eraseFromParent();
  }
  return types;
}

// Plans without a signature take their declared types from the kernel's C++ parameters.
void applyParameterTypes(std::vector<ArgumentPlan>& plans, const std::vector<uint32_t>& codes) {
  if (codes.size() != plans.size()) return; // not this kernel's parameters
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const uint32_t code = codes[i];
    const uint32_t type = (code & 0xffu) == TCPU_TYPE_PTR ? (code >> 8) & 0xffu : code;
    if (type < TCPU_TYPE_PTR) plans[i].declaredType = static_cast<tcpuDataType>(type);
  }
}

// C++ kernels name their ABI functions with tag variables (tl's TL_KERNEL):
// `tcpu_tl_kernel_<name> = &<function>`. The function takes the name and
// becomes external; the tag goes. A function tagged twice is cloned.
Status applyKernelTags(llvm::Module& module, std::vector<llvm::Function*>& named) {
  const llvm::StringRef prefix = TCPU_KERNEL_TAG_PREFIX;
  std::vector<llvm::GlobalVariable*> tags;
  for (llvm::GlobalVariable& global : module.globals())
    if (global.getName().starts_with(prefix)) tags.push_back(&global);
  for (llvm::GlobalVariable* tag : tags) {
    const std::string name = tag->getName().substr(prefix.size()).str();
    auto* function = llvm::dyn_cast_or_null<llvm::Function>(
        tag->hasInitializer() ? tag->getInitializer()->stripPointerCasts() : nullptr);
    if (!function || function->isDeclaration())
      return Status(TCPU_ERROR_INVALID_SOURCE,
                    concat("kernel tag '", tag->getName().str(),
                           "' does not point to a function defined in the module"));
    if (llvm::Function* existing = module.getFunction(name); existing && existing != function)
      return Status(TCPU_ERROR_INVALID_SOURCE,
                    concat("kernel name '", name, "' is used twice in the module"));
    llvm::removeFromUsedLists(module,
                              [tag](llvm::Constant* c) { return c->stripPointerCasts() == tag; });
    tag->eraseFromParent();
    if (std::find(named.begin(), named.end(), function) != named.end()) {
      llvm::ValueToValueMapTy map;
      function = llvm::CloneFunction(function, map);
    }
    function->setName(name);
    function->setLinkage(llvm::GlobalValue::ExternalLinkage);
    function->setVisibility(llvm::GlobalValue::DefaultVisibility);
    function->setComdat(nullptr);
    named.push_back(function);
  }
  return {};
}

// Every externally visible void function whose last six parameters are i32.
std::vector<llvm::Function*> findKernels(llvm::Module& module) {
  std::vector<llvm::Function*> kernels;
  for (llvm::Function& function : module)
    if (isKernel(function)) kernels.push_back(&function);
  return kernels;
}

} // namespace

tcpuDataType dataTypeOf(const llvm::Type* ir, tcpuDataType declared) {
  if (ir->isPointerTy()) return TCPU_TYPE_PTR;
  const bool isUnsigned = declared == TCPU_TYPE_U8 || declared == TCPU_TYPE_U16 ||
                          declared == TCPU_TYPE_U32 || declared == TCPU_TYPE_U64;
  if (ir->isIntegerTy(1)) return TCPU_TYPE_I1;
  if (ir->isIntegerTy(8)) return isUnsigned ? TCPU_TYPE_U8 : TCPU_TYPE_I8;
  if (ir->isIntegerTy(16)) return isUnsigned ? TCPU_TYPE_U16 : TCPU_TYPE_I16;
  if (ir->isIntegerTy(32)) return isUnsigned ? TCPU_TYPE_U32 : TCPU_TYPE_I32;
  if (ir->isIntegerTy(64)) return isUnsigned ? TCPU_TYPE_U64 : TCPU_TYPE_I64;
  if (ir->isHalfTy()) return TCPU_TYPE_FP16;
  if (ir->isBFloatTy()) return TCPU_TYPE_BF16;
  if (ir->isFloatTy()) return TCPU_TYPE_FP32;
  if (ir->isDoubleTy()) return TCPU_TYPE_FP64;
  return TCPU_TYPE_UNKNOWN;
}

Expected<std::vector<KernelInfo>> prepareKernels(llvm::Module& module,
                                                 const CompileOptions& options, EntryKind kind) {
  std::vector<llvm::Function*> tagged;
  if (Status status = applyKernelTags(module, tagged); !status.ok()) return status;
  const std::map<std::string, std::vector<uint32_t>> parameterTypes = takeParameterTypes(module);
  const std::vector<llvm::Function*> kernels = findKernels(module);
  if (kernels.empty())
    return Status(TCPU_ERROR_NOT_FOUND,
                  "no kernel with the grid ABI: no externally visible void function whose last "
                  "six parameters are i32 (x, y, z, gridX, gridY, gridZ)");
  std::string names;
  for (llvm::Function* kernel : kernels)
    names += concat(names.empty() ? "" : ", ", kernel->getName().str());

  llvm::Function* signed_ = nullptr; // the kernel the signature applies to
  if (!options.kernelName.empty()) {
    for (llvm::Function* kernel : kernels)
      if (kernel->getName() == options.kernelName) signed_ = kernel;
    if (!signed_)
      return Status(TCPU_ERROR_NOT_FOUND, concat("the module has no kernel named '",
                                                 options.kernelName, "' (kernels: ", names, ")"));
  } else if (!options.signature.empty()) {
    if (kernels.size() != 1)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("the module has ", kernels.size(), " kernels (", names,
                           "): name the one TCPU_JIT_SIGNATURE is for with TCPU_JIT_KERNEL_NAME"));
    signed_ = kernels.front();
  }

  std::vector<KernelInfo> infos;
  std::vector<llvm::Function*> entries;
  for (llvm::Function* kernel : kernels) {
    Expected<std::vector<ArgumentPlan>> plans =
        planArguments(*kernel, kernel == signed_ ? options.signature : std::string());
    if (!plans) return plans.status();
    if (kernel != signed_ || options.signature.empty())
      if (auto types = parameterTypes.find(kernel->getName().str()); types != parameterTypes.end())
        applyParameterTypes(*plans, types->second);
    KernelInfo info;
    info.name = kernel->getName().str();
    info.flags = kernelFlags(*kernel);
    info.entrySymbol = "__tcpu_entry_" + info.name;
    info.declaredNames =
        declaredNames(*kernel, std::find(tagged.begin(), tagged.end(), kernel) != tagged.end());
    if (!kernel->hasFnAttribute(llvm::Attribute::NoInline))
      kernel->addFnAttr(llvm::Attribute::AlwaysInline);
    entries.push_back(kind == EntryKind::CudaKernel
                          ? buildGpuEntry(*kernel, *plans, info)
                          : buildTrampoline(*kernel, *plans, info, options.checkBounds));
    infos.push_back(std::move(info));
  }
  // Only the entries stay visible: kernels and helpers may then be inlined and dropped.
  for (llvm::Function& function : module)
    if (!function.isDeclaration() &&
        std::find(entries.begin(), entries.end(), &function) == entries.end())
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  return infos;
}

} // namespace tcpu::codegen
