#include "ptx/gpu_services.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace tcpu::codegen {
namespace {

// tcpuKernelAssertFail(const tcpuAssertRecord*): CUDA's __assertfail(message, file, line,
// function, sizeof(char)) with the record's fields.
void defineAssertFail(llvm::Function& function) {
  llvm::Module& module = *function.getParent();
  llvm::LLVMContext& context = module.getContext();
  auto* ptr = llvm::PointerType::getUnqual(context);
  auto* i32 = llvm::Type::getInt32Ty(context);
  auto* i64 = llvm::Type::getInt64Ty(context);
  // tcpuAssertRecord: message, file, line, function, programId[3].
  auto* record = llvm::StructType::get(context, {ptr, ptr, i32, ptr, llvm::ArrayType::get(i32, 3)});
  llvm::FunctionCallee assertFail = module.getOrInsertFunction(
      "__assertfail",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr, i32, ptr, i64}, false));
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "report", &function));
  llvm::Value* fields = function.getArg(0);
  const auto field = [&](unsigned index, llvm::Type* type) {
    return builder.CreateLoad(type, builder.CreateStructGEP(record, fields, index));
  };
  builder.CreateCall(assertFail, {field(0, ptr), field(1, ptr), field(2, i32), field(3, ptr),
                                  builder.getInt64(1)});
  builder.CreateRetVoid();
}

} // namespace

Status provideGpuServices(llvm::Module& module) {
  if (llvm::Function* print = module.getFunction("tcpuKernelPrint"); print && !print->use_empty())
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  "the kernels print (device_print), which the GPU backend does not support yet");
  if (llvm::Function* assertFail = module.getFunction("tcpuKernelAssertFail");
      assertFail && assertFail->isDeclaration() && assertFail->arg_size() == 1)
    defineAssertFail(*assertFail);
  if (llvm::Function* pause = module.getFunction("llvm.x86.sse2.pause")) {
    // A hint for spin-waits: nothing to do on a GPU thread.
    for (llvm::User* user : llvm::make_early_inc_range(pause->users()))
      llvm::cast<llvm::Instruction>(user)->eraseFromParent();
    pause->eraseFromParent();
  }
  return {};
}

Status refuseHostIntrinsics(const llvm::Module& module) {
  for (const llvm::Function& function : module)
    if (function.isIntrinsic() && function.getName().starts_with("llvm.x86.") &&
        !function.use_empty())
      return Status(TCPU_ERROR_NOT_SUPPORTED, concat("the kernels use ", function.getName().str(),
                                                     ", an x86 instruction a GPU does not have"));
  return {};
}

} // namespace tcpu::codegen
