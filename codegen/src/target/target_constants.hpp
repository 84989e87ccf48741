// What a kernel may know about the machine it is compiled for, as constants codegen defines in
// the module before optimizing it, so that code branching on them keeps one side only:
//
//   extern "C" const int32_t __tcpu_target_vector_bits;
//
// the width in bits of the vector registers the target's vectorizer prefers (512 on CPUs whose
// LLVM tuning prefers AVX-512's zmm registers, 256 with AVX2 or AVX-512 tuned for ymm, 128 with
// SSE or NEON), 0 on a GPU. tl sizes dot's register tile by it.
//
//   extern "C" const int32_t __tcpu_target_bf16_dot;
//
// 1 where the target has AVX512-BF16 with 512-bit vectors (vdpbf16ps: two bf16 products summed
// into each fp32 lane) and it pays (AMD's Zen 4 and later), else 0. tl's dot of bf16 blocks takes
// that instruction where it is 1.
//
//   extern "C" const int32_t __tcpu_target_amx_bf16;
//
// 1 where the target has AMX's tiles and their bf16 products (tdpbf16ps), else 0. tl's dot of
// bf16 blocks in multiples of 32 takes them there.
//
// A module that does not declare a constant is left as it is; one that defines it itself keeps
// its own value.
#ifndef TCPU_CODEGEN_TARGET_CONSTANTS_HPP
#define TCPU_CODEGEN_TARGET_CONSTANTS_HPP

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

struct TargetConstants {
  unsigned vectorBits = 0;
  bool bf16Dot = false;
  bool amxBf16 = false;
};

// The vector width the machine's vectorizer prefers for the module's code (its
// TargetTransformInfo, asked about the first function the module defines; 0 when it defines
// none).
unsigned preferredVectorBits(const llvm::TargetMachine& machine, const llvm::Module& module);

// Whether the machine's CPU has AVX512-BF16 with 512-bit vectors and is one of AMD's Zen.
bool hasBf16Dot(const llvm::TargetMachine& machine);
// Whether it has AMX-TILE and AMX-BF16.
bool hasAmxBf16(const llvm::TargetMachine& machine);

// All of the above, for a module compiled for `machine`.
TargetConstants targetConstantsFor(const llvm::TargetMachine& machine, const llvm::Module& module);

// Defines each constant the module declares (as an external i32) as its value in `constants`.
void defineTargetConstants(llvm::Module& module, const TargetConstants& constants);

// After optimization: an error where code for an instruction set the target lacks is still
// called (the module's own call, or tl's branch on __tcpu_target_bf16_dot or
// __tcpu_target_amx_bf16 that did not fold), instead of LLVM's abort in instruction selection.
Status checkTargetIntrinsics(const llvm::Module& module, const TargetConstants& constants);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_TARGET_CONSTANTS_HPP
