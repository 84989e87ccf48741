#include "target/math_library.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/MathExtras.h>

namespace tcpu::codegen {
namespace {

using llvm::Intrinsic::ID;

const MathFunction* findByName(std::string_view name, bool& isFloat) {
  for (const MathFunction& function : mathFunctions()) {
    for (const bool single : {true, false}) {
      const std::string libm = std::string(function.name) + (single ? "f" : "");
      if (name == libm || name == "__nv_" + libm) {
        isFloat = single;
        return &function;
      }
    }
  }
  return nullptr;
}

const MathFunction* findByIntrinsic(ID id) {
  if (id == llvm::Intrinsic::not_intrinsic) return nullptr;
  for (const MathFunction& function : mathFunctions())
    if (function.intrinsic == id) return &function;
  return nullptr;
}

// Whether `type` is float(float...) / double(double...) with `arity` operands.
bool hasMathType(const llvm::FunctionType* type, unsigned arity, bool isFloat) {
  llvm::Type* element = type->getReturnType();
  if (!(isFloat ? element->isFloatTy() : element->isDoubleTy())) return false;
  if (type->getNumParams() != arity || type->isVarArg()) return false;
  for (llvm::Type* param : type->params())
    if (param != element) return false;
  return true;
}

void markPure(llvm::Function& function) {
  function.setDoesNotThrow();
  function.setDoesNotAccessMemory();
  function.setWillReturn();
}

// Replaces `call` by a call to SLEEF for `lanes` lanes, splitting or
// scalarizing vectors the target has no variant for.
llvm::Value* emitSleef(llvm::IRBuilder<>& builder, llvm::Module& module,
                       const MathFunction& function, bool isFloat, llvm::Type* type,
                       llvm::ArrayRef<llvm::Value*> args, int ulp, const SleefIsa& isa) {
  const auto call = [&](unsigned lanes, llvm::Type* valueType, llvm::ArrayRef<llvm::Value*> ops) {
    std::vector<llvm::Type*> params(function.arity, valueType);
    auto callee = module.getOrInsertFunction(sleefName(function, isFloat, lanes, ulp, isa),
                                             llvm::FunctionType::get(valueType, params, false));
    if (auto* declared = llvm::dyn_cast<llvm::Function>(callee.getCallee())) markPure(*declared);
    return builder.CreateCall(callee, ops);
  };
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!vector) return call(1, type, args);

  const unsigned lanes = vector->getNumElements();
  const unsigned elementBits = isFloat ? 32 : 64;
  unsigned native = 0; // widest variant that divides the vector
  for (unsigned bits : {512u, 256u, 128u}) {
    const std::string& suffix = bits == 512 ? isa.bits512 : bits == 256 ? isa.bits256 : isa.bits128;
    const unsigned width = bits / elementBits;
    if (!suffix.empty() && width <= lanes && lanes % width == 0) {
      native = width;
      break;
    }
  }
  llvm::Type* element = vector->getElementType();
  // Pieces are joined pairwise, so their count must be a power of two.
  if (native != 0 && !llvm::isPowerOf2_32(lanes / native)) native = 0;
  if (native == 0) { // no vector variant fits: lane by lane
    llvm::Value* result = llvm::PoisonValue::get(type);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      std::vector<llvm::Value*> scalars;
      for (llvm::Value* arg : args)
        scalars.push_back(builder.CreateExtractElement(arg, lane));
      result = builder.CreateInsertElement(result, call(1, element, scalars), lane);
    }
    return result;
  }
  if (native == lanes) return call(lanes, type, args);
  auto* pieceType = llvm::FixedVectorType::get(element, native);
  std::vector<llvm::Value*> pieces;
  for (unsigned start = 0; start < lanes; start += native) {
    std::vector<int> mask;
    for (unsigned lane = 0; lane < native; ++lane)
      mask.push_back(static_cast<int>(start + lane));
    std::vector<llvm::Value*> parts;
    for (llvm::Value* arg : args)
      parts.push_back(builder.CreateShuffleVector(arg, mask));
    pieces.push_back(call(native, pieceType, parts));
  }
  // Concatenate pairwise until one vector of `lanes` remains.
  while (pieces.size() > 1) {
    std::vector<llvm::Value*> joined;
    for (size_t i = 0; i < pieces.size(); i += 2) {
      const unsigned width =
          llvm::cast<llvm::FixedVectorType>(pieces[i]->getType())->getNumElements();
      std::vector<int> mask;
      for (unsigned lane = 0; lane < 2 * width; ++lane)
        mask.push_back(static_cast<int>(lane));
      joined.push_back(builder.CreateShuffleVector(pieces[i], pieces[i + 1], mask));
    }
    pieces = std::move(joined);
  }
  return pieces.front();
}

// SLEEF names a function's error bound in its symbol: "u10" (1.0 ULP) for most of the table,
// "u35" for the 3.5-ULP variants TCPU_JIT_MATH_ULP=35 asks for. The exceptions: hypot's accurate
// variant is 0.5 ULP (u05), and erfc has only a 1.5-ULP one (u15).
std::string accuracyTag(const MathFunction& function, int ulp) {
  if (ulp == 35 && function.hasU35) return "u35";
  if (function.name == "hypot") return "u05";
  if (function.name == "erfc") return "u15";
  return "u10";
}

} // namespace

const std::vector<MathFunction>& mathFunctions() {
  namespace I = llvm::Intrinsic;
  static const std::vector<MathFunction> functions = {
      {"exp", 1, I::exp, false},
      {"exp2", 1, I::exp2, true},
      {"log", 1, I::log, true},
      {"log2", 1, I::log2, true},
      {"log10", 1, I::log10, false},
      {"sin", 1, I::sin, true},
      {"cos", 1, I::cos, true},
      {"tan", 1, I::tan, true},
      {"asin", 1, I::asin, true},
      {"acos", 1, I::acos, true},
      {"atan", 1, I::atan, true},
      {"atan2", 2, I::not_intrinsic, true},
      {"sinh", 1, I::sinh, true},
      {"cosh", 1, I::cosh, true},
      {"tanh", 1, I::tanh, true},
      {"asinh", 1, I::not_intrinsic, false},
      {"acosh", 1, I::not_intrinsic, false},
      {"atanh", 1, I::not_intrinsic, false},
      {"erf", 1, I::not_intrinsic, false},
      {"pow", 2, I::pow, false},
      {"cbrt", 1, I::not_intrinsic, true},
      {"expm1", 1, I::not_intrinsic, false},
      {"log1p", 1, I::not_intrinsic, false},
      {"exp10", 1, I::exp10, true},
      {"erfc", 1, I::not_intrinsic, false},
      {"lgamma", 1, I::not_intrinsic, false},
      {"tgamma", 1, I::not_intrinsic, false},
      {"hypot", 2, I::not_intrinsic, true},
      // Not fmod and remainder: SLEEF 3.5's return NaN where |x / y| overflows (fmodf(1, 1e-40)),
      // where libm's are exact. clang makes fmod LLVM's frem, which the back end lowers to libm's
      // fmod (and the GPU's to its own instructions).
  };
  return functions;
}

std::string sleefName(const MathFunction& function, bool isFloat, unsigned lanes, int ulp,
                      const SleefIsa& isa) {
  const unsigned elementBits = isFloat ? 32 : 64;
  const unsigned bits = lanes * elementBits;
  const std::string& suffix = lanes == 1    ? isa.scalar
                              : bits == 512 ? isa.bits512
                              : bits == 256 ? isa.bits256
                                            : isa.bits128;
  return "Sleef_" + std::string(function.name) + (isFloat ? "f" : "d") + std::to_string(lanes) +
         "_" + accuracyTag(function, ulp) + suffix;
}

const MathFunction* mathFunctionCalled(const llvm::CallInst& call, bool& isFloat) {
  const llvm::Function* callee = call.getCalledFunction();
  if (!callee) return nullptr;
  llvm::Type* type = call.getType();
  llvm::Type* element = type->getScalarType();
  if (!element->isFloatTy() && !element->isDoubleTy()) return nullptr;
  isFloat = element->isFloatTy();
  const MathFunction* math = findByIntrinsic(callee->getIntrinsicID());
  if (!math && !callee->isIntrinsic() && callee->isDeclaration()) {
    bool nameIsFloat = false;
    math = findByName(callee->getName(), nameIsFloat);
    if (math && (nameIsFloat != isFloat || type->isVectorTy() ||
                 !hasMathType(call.getFunctionType(), math->arity, isFloat)))
      math = nullptr;
  }
  return math && call.arg_size() == math->arity ? math : nullptr;
}

void canonicalizeMathCalls(llvm::Module& module) {
  std::vector<llvm::Function*> declarations;
  for (llvm::Function& function : module)
    if (function.isDeclaration() && !function.isIntrinsic()) declarations.push_back(&function);
  for (llvm::Function* declared : declarations) {
    bool isFloat = false;
    const MathFunction* math = findByName(declared->getName(), isFloat);
    if (!math || !hasMathType(declared->getFunctionType(), math->arity, isFloat)) continue;
    llvm::Type* type = declared->getReturnType();
    llvm::FunctionCallee replacement;
    if (math->intrinsic != llvm::Intrinsic::not_intrinsic) {
      replacement = llvm::Intrinsic::getDeclaration(&module, math->intrinsic, {type});
    } else {
      const std::string libm = std::string(math->name) + (isFloat ? "f" : "");
      replacement = module.getOrInsertFunction(libm, declared->getFunctionType());
      if (auto* function = llvm::dyn_cast<llvm::Function>(replacement.getCallee()))
        markPure(*function);
      if (replacement.getCallee() == declared) continue; // already the libm name, now marked
    }
    for (llvm::User* user : llvm::make_early_inc_range(declared->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != declared) continue;
      llvm::IRBuilder<> builder(call);
      std::vector<llvm::Value*> args(call->arg_begin(), call->arg_end());
      llvm::CallInst* fresh = builder.CreateCall(replacement, args);
      fresh->copyFastMathFlags(call);
      call->replaceAllUsesWith(fresh);
      call->eraseFromParent();
    }
    if (declared->use_empty()) declared->eraseFromParent();
  }
}

SleefVectorMappings::SleefVectorMappings(const SleefIsa& isa, int ulp) {
  const auto keep = [&](std::string text) -> llvm::StringRef {
    return strings_.emplace_back(std::move(text));
  };
  for (const MathFunction& function : mathFunctions()) {
    for (const bool isFloat : {true, false}) {
      const unsigned elementBits = isFloat ? 32 : 64;
      for (const auto& [bits, suffix] :
           {std::pair{128u, &isa.bits128}, {256u, &isa.bits256}, {512u, &isa.bits512}}) {
        if (suffix->empty()) continue;
        const unsigned lanes = bits / elementBits;
        const llvm::StringRef vectorName = keep(sleefName(function, isFloat, lanes, ulp, isa));
        const llvm::StringRef abi =
            keep("_ZGV_LLVM_N" + std::to_string(lanes) + std::string(function.arity, 'v'));
        std::vector<std::string> scalarNames = {std::string(function.name) + (isFloat ? "f" : "")};
        if (function.intrinsic != llvm::Intrinsic::not_intrinsic)
          scalarNames.push_back("llvm." + std::string(function.name) + (isFloat ? ".f32" : ".f64"));
        for (std::string& scalar : scalarNames)
          descriptors_.emplace_back(keep(std::move(scalar)), vectorName,
                                    llvm::ElementCount::getFixed(lanes), false, abi);
      }
    }
  }
}

void lowerMathToSleef(llvm::Module& module, const SleefIsa& isa, int ulp) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& function : module)
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction)) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    bool isFloat = false;
    const MathFunction* math = mathFunctionCalled(*call, isFloat);
    if (!math) continue;
    llvm::Type* type = call->getType();
    llvm::IRBuilder<> builder(call);
    std::vector<llvm::Value*> args(call->arg_begin(), call->arg_end());
    llvm::Value* lowered = emitSleef(builder, module, *math, isFloat, type, args, ulp, isa);
    call->replaceAllUsesWith(lowered);
    call->eraseFromParent();
  }
}

} // namespace tcpu::codegen
