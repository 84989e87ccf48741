// What a kernel may know about the machine it is compiled for, as constants codegen defines in
// the module before optimizing it, so that code branching on them keeps one side only:
//
//   extern "C" const int32_t __tcpu_target_vector_bits;
//
// the width in bits of the vector registers the target's vectorizer prefers (512 on CPUs whose
// LLVM tuning prefers AVX-512's zmm registers, 256 with AVX2 or AVX-512 tuned for ymm, 128 with
// SSE or NEON), 0 on a GPU. tl sizes dot's register tile by it. A module that does not declare
// it is left as it is; one that defines it itself keeps its own value.
#ifndef TCPU_CODEGEN_TARGET_CONSTANTS_HPP
#define TCPU_CODEGEN_TARGET_CONSTANTS_HPP

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace tcpu::codegen {

// The vector width the machine's vectorizer prefers for the module's code (its
// TargetTransformInfo, asked about the first function the module defines; 0 when it defines
// none).
unsigned preferredVectorBits(const llvm::TargetMachine& machine, const llvm::Module& module);

// Defines __tcpu_target_vector_bits as `vectorBits` where the module declares it.
void defineTargetConstants(llvm::Module& module, unsigned vectorBits);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_TARGET_CONSTANTS_HPP
