// What the Python front end's generated code needs beyond Triton's names: the type a
// loop-carried value is stored in, and casts between pointers and integers.
#ifndef TCPU_TL_FRONTEND_H
#define TCPU_TL_FRONTEND_H

#include <bit>

#include "tcpu/tl/core.h"
#include "tcpu/tl/index.h"
#include "tcpu/tl/memory.h"

namespace tcpu::tl {

// A loop-carried value must keep one C++ type across iterations. Index and pointer blocks
// advanced by scalars (Lin + s is a Lin, Ptr + s a Ptr) keep their structured types, so
// loads through them stay contiguous; every other lazy value is materialized.
template <class X>
TL_INLINE auto carried(const X& x) {
  if constexpr (is_block_v<X> || Scalar<X> || std::is_pointer_v<X>)
    return x;
  else if constexpr (requires { x.colStep; } || requires { x.base.row; } ||
                     requires {
                       x.base;
                       x.row;
                     })
    return x; // Lin, Outer (affine index blocks) and Ptr (a pointer plus per-row offsets)
  else
    return x.eval();
}

// tl.cast between pointers and 64-bit integers (pointer tables loaded from memory, as in
// Triton's grouped GEMM tutorial), for scalars and blocks.
template <class U, class X>
TL_INLINE auto cast_pointer(const X& x) {
  auto f = [](auto e) {
    if constexpr (std::is_pointer_v<U>)
      return reinterpret_cast<U>(static_cast<uintptr_t>(e));
    else
      return static_cast<U>(reinterpret_cast<uintptr_t>(e));
  };
  if constexpr (Tensor<X>)
    return map(x, f).eval();
  else
    return f(x);
}

} // namespace tcpu::tl

#endif
