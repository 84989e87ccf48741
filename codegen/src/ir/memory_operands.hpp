// What an instruction touches in memory, through each pointer it uses: the
// loads, stores, atomics, masked loads and stores, gathers and scatters,
// expanding loads and compressing stores, and memcpy/memmove/memset that
// bounds checking (bounds_check.hpp) guards.
#ifndef TCPU_CODEGEN_MEMORY_OPERANDS_HPP
#define TCPU_CODEGEN_MEMORY_OPERANDS_HPP

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Instruction.h>

#include "tcpu/kernel_abi.h"

namespace tcpu::codegen {

struct MemoryOperand {
  llvm::Value* pointer;    // a pointer, or a vector of pointers (gather, scatter)
  unsigned pointerOperand; // its operand number in the instruction
  tcpuAccessKind kind;
  llvm::Type* element;         // one element's type
  unsigned lanes = 1;          // elements at consecutive addresses, or one per pointer lane
  llvm::Value* mask = nullptr; // <lanes x i1>: the active lanes of a masked operation
  // Byte copies and compressed operations touch a run whose length is known only at run
  // time: memcpy's length operand, or (when `compressed`) the active lanes' elements.
  llvm::Value* length = nullptr;
  bool compressed = false;

  bool hasRunTimeLength() const { return length || compressed; }
};

// None for instructions that touch no memory (or touch it only through calls).
llvm::SmallVector<MemoryOperand, 2> memoryOperands(llvm::Instruction& instruction);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_MEMORY_OPERANDS_HPP
