// Math functions through SLEEF: the table of functions tcpu maps, the
// canonicalization that lets the vectorizer widen them, the vector variants
// it may use, and the final lowering of every remaining math call to SLEEF.
#ifndef TCPU_CODEGEN_MATH_LIBRARY_HPP
#define TCPU_CODEGEN_MATH_LIBRARY_HPP

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "target/target.hpp"

namespace tcpu::codegen {

struct MathFunction {
  std::string_view name;         // SLEEF's and libm's double-precision name: "exp"
  unsigned arity;                // 1, or 2 for atan2 and pow
  llvm::Intrinsic::ID intrinsic; // llvm.<name>, or Intrinsic::not_intrinsic
  bool hasU35;                   // SLEEF has a 3.5-ULP variant
};

const std::vector<MathFunction>& mathFunctions();

// Name of SLEEF's function: Sleef_expf16_u10avx512f; lanes 1 gives the scalar one.
std::string sleefName(const MathFunction& function, bool isFloat, unsigned lanes, int ulp,
                      const SleefIsa& isa);

// The function of the table `call` computes (an LLVM intrinsic, a libm or libdevice name, on
// float or double scalars or vectors of them), with isFloat set; null for other calls.
const MathFunction* mathFunctionCalled(const llvm::CallInst& call, bool& isFloat);

// Before optimization: calls to libm (expf) and CUDA libdevice (__nv_expf)
// functions become the LLVM intrinsic where one exists, else a call to the
// libm name marked as not touching memory (tcpu's math never sets errno), so
// the loop vectorizer may widen them.
void canonicalizeMathCalls(llvm::Module& module);

// The vector variants the loop vectorizer may call, for a TargetLibraryInfoImpl.
class SleefVectorMappings {
public:
  SleefVectorMappings(const SleefIsa& isa, int ulp);
  const std::vector<llvm::VecDesc>& descriptors() const { return descriptors_; }

private:
  std::deque<std::string> strings_; // VecDesc holds StringRefs into these
  std::vector<llvm::VecDesc> descriptors_;
};

// After optimization: every math intrinsic or libm call still in the module,
// scalar or vector, becomes a call to SLEEF at the widths the target has.
void lowerMathToSleef(llvm::Module& module, const SleefIsa& isa, int ulp);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_MATH_LIBRARY_HPP
