// Mask versioning: a loop over a block whose elements are each guarded by a
// bounds mask (`if (offset + i < n)`, Triton's masks after lowering) gets an
// unmasked twin, taken when the whole block is in bounds. The vectorizer then
// emits plain vector loads and stores for all but the last, ragged block,
// instead of masked ones (microcoded and slow on AMD cores).
#ifndef TCPU_CODEGEN_MASK_VERSIONING_HPP
#define TCPU_CODEGEN_MASK_VERSIONING_HPP

#include <llvm/IR/PassManager.h>

namespace tcpu::codegen {

class MaskVersioningPass : public llvm::PassInfoMixin<MaskVersioningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_MASK_VERSIONING_HPP
