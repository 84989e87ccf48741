// Which kernel parameter a memory address derives from, in an entry trampoline
// after optimization (the kernel inlined into it). The trampoline reads
// parameter i as `load (load (params + 8*i))`; an address derives from it when
// a walk back through address arithmetic (GEPs, casts, splats, phis, selects)
// ends at that load. A pointer the kernel reads from such a parameter's
// memory (grouped GEMM's pointer arrays) is an origin too, one step removed.
// The walk may also end at stack objects: a masked load of tl's becomes
// `load (select mask, p, &other)` with `other` on the stack, so an address may
// point into the parameter's buffer or into one of those.
#ifndef TCPU_CODEGEN_POINTER_ORIGINS_HPP
#define TCPU_CODEGEN_POINTER_ORIGINS_HPP

#include <optional>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace tcpu::codegen {

struct PointerOrigin {
  llvm::LoadInst* pointer; // the pointer value the address is computed from
  unsigned param;          // the launch parameter (index into the entry's params array)
  bool throughMemory;      // `pointer` was read from memory that parameter points to
  // Stack objects of known size the address may point into instead.
  llvm::SmallVector<llvm::AllocaInst*, 2> locals;
};

class PointerOrigins {
public:
  // `entry` is a tcpuKernelEntry trampoline: its first argument is the params array.
  explicit PointerOrigins(llvm::Function& entry);
  // The origin of a pointer or vector of pointers, if it has one.
  std::optional<PointerOrigin> of(llvm::Value* address) const;
  // Whether the address points only into the stack or the launch's own data (the params array,
  // the frame, scratch): memory no check is for.
  static bool isLocal(llvm::Value* address);

private:
  // The values the walk back from `address` ends at (at most a few; empty when more).
  static llvm::SmallVector<llvm::Value*, 4> roots(llvm::Value* address);
  // The parameter whose value is the only root of `address`, if there is one.
  std::optional<unsigned> paramOf(llvm::Value* address) const;

  llvm::DenseMap<const llvm::Value*, unsigned> params_; // parameter loads -> launch index
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_POINTER_ORIGINS_HPP
