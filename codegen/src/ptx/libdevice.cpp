#include "ptx/libdevice.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include "target/math_library.hpp"

namespace tcpu::codegen {
namespace {

// libdevice's name of a math function: __nv_expf, __nv_exp.
std::string libdeviceName(const MathFunction& function, bool isFloat) {
  return "__nv_" + std::string(function.name) + (isFloat ? "f" : "");
}

// The call to libdevice replacing `call`; vectors (which the NVPTX code generator has no math
// for either) one lane at a time.
llvm::Value* emitLibdevice(llvm::IRBuilder<>& builder, llvm::Module& module,
                           const MathFunction& function, bool isFloat, llvm::CallInst& call) {
  llvm::Type* type = call.getType();
  llvm::Type* element = type->getScalarType();
  const std::vector<llvm::Type*> params(function.arity, element);
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      libdeviceName(function, isFloat), llvm::FunctionType::get(element, params, false));
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!vector) {
    std::vector<llvm::Value*> args(call.arg_begin(), call.arg_end());
    return builder.CreateCall(callee, args);
  }
  llvm::Value* result = llvm::PoisonValue::get(type);
  for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
    std::vector<llvm::Value*> args;
    for (llvm::Value* operand : call.args())
      args.push_back(builder.CreateExtractElement(operand, lane));
    result = builder.CreateInsertElement(result, builder.CreateCall(callee, args), lane);
  }
  return result;
}

} // namespace

Expected<std::string> findLibdevice() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("TCPU_LIBDEVICE"); path && *path)
    candidates.emplace_back(path);
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(variable); root && *root)
      candidates.push_back(fs::path(root) / "nvvm" / "libdevice" / "libdevice.10.bc");
  candidates.emplace_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  std::string tried;
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) return candidate.string();
    tried += concat(tried.empty() ? "" : ", ", candidate.string());
  }
  return Status(TCPU_ERROR_FILE_NOT_FOUND,
                concat("CUDA's libdevice.10.bc, which GPU math needs, is not at ", tried,
                       " (set TCPU_LIBDEVICE to its path, or CUDA_PATH to the CUDA toolkit)"));
}

bool lowerMathToLibdevice(llvm::Module& module) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& function : module)
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction)) calls.push_back(call);
  bool lowered = false;
  for (llvm::CallInst* call : calls) {
    bool isFloat = false;
    const MathFunction* math = mathFunctionCalled(*call, isFloat);
    if (!math) continue;
    lowered = true;
    if (call->getCalledFunction()->getName() == libdeviceName(*math, isFloat)) continue;
    llvm::IRBuilder<> builder(call);
    llvm::Value* replacement = emitLibdevice(builder, module, *math, isFloat, *call);
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  return lowered;
}

Status linkLibdevice(llvm::Module& module, const std::string& path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return Status(TCPU_ERROR_FILE_NOT_FOUND,
                  concat("cannot read libdevice at ", path, ": ", file.getError().message()));
  llvm::Expected<std::unique_ptr<llvm::Module>> library =
      llvm::parseBitcodeFile((*file)->getMemBufferRef(), module.getContext());
  if (!library)
    return Status(TCPU_ERROR_INVALID_SOURCE, concat(path, " is not LLVM bitcode libdevice: ",
                                                    llvm::toString(library.takeError())));
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  const bool failed =
      llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded,
                                [](llvm::Module& linked, const llvm::StringSet<>& names) {
                                  for (llvm::GlobalValue& global : linked.global_values())
                                    if (!global.isDeclaration() && names.contains(global.getName()))
                                      global.setLinkage(llvm::GlobalValue::InternalLinkage);
                                });
  if (failed) return Status(TCPU_ERROR_INVALID_SOURCE, concat("cannot link libdevice from ", path));
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"); 0 keeps denormals (IEEE), as on the CPU.
  module.setModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
  return {};
}

} // namespace tcpu::codegen
