// Cancellation points (tcpuCancelFlag): a launch that is cancelled must also stop programs that
// are running, endless ones included (kernels compile with no forward-progress assumption, so
// `while v == v:` stays a loop). This pass gives the back-edge of every loop whose trip count
// it cannot bound a check of the runtime's count of raised cancel flags
// (tcpuKernelCancelPending, a volatile load and a branch); only while that count is nonzero does
// the program ask the runtime whether its own launch was cancelled (tcpuKernelCancelled) and, if
// so, return. In an entry trampoline the loop over the range's programs is such a loop, so a
// cancelled entry call also skips its programs not yet started.
//
// It runs on the optimized module, so that the checks neither keep loops from being vectorized
// nor get hoisted out of them, and leaves alone loops with a small constant trip count (tiles'
// element loops, unrolled remainders): their time is bounded by their body's, whose own unbounded
// loops are checked. Functions that return a value are left alone too (a return needs a value);
// after inlining, a kernel's loops are in its entry.
#ifndef TCPU_CODEGEN_CANCEL_CHECKS_HPP
#define TCPU_CODEGEN_CANCEL_CHECKS_HPP

#include <llvm/IR/Module.h>

namespace tcpu::codegen {

// Adds the checks to every function of `module` that has a body and returns void; the number of
// back-edges checked.
unsigned insertCancelChecks(llvm::Module& module);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_CANCEL_CHECKS_HPP
