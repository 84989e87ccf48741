// What the Python front end's generated code needs beyond Triton's names: the type a
// loop-carried value is stored in, and casts between pointers and integers.
#ifndef TCPU_TL_FRONTEND_H
#define TCPU_TL_FRONTEND_H

#include <bit>

#include "tcpu/tl/core.h"
#include "tcpu/tl/index.h"
#include "tcpu/tl/memory.h"
#include "tcpu/tl/random.h"
#include "tcpu/tl/random_blocks.h"
#include "tcpu/tl/rank_n.h"

namespace tcpu::tl {

// A loop-carried value must keep one C++ type across iterations. Index and pointer blocks
// advanced by scalars (Lin + s is a Lin, Ptr + s a Ptr) keep their structured types, so
// loads through them stay contiguous; every other lazy value is materialized.
template <class X>
TL_INLINE auto carried(const X& x) {
  if constexpr (is_block_v<X> || Scalar<X> || std::is_pointer_v<X>)
    return x;
  else if constexpr (requires { x.colStep; } || requires { x.col[0]; })
    return x; // Lin, Outer, OuterCols (index blocks), Ptr and PtrCols (pointers plus offsets)
  else
    return x.eval();
}

// tl.cast between pointers and 64-bit integers (pointer tables loaded from memory, as in
// Triton's grouped GEMM tutorial), for scalars and blocks.
template <class U, class X>
TL_INLINE auto cast_pointer(const X& x) {
  auto f = [](auto e) {
    using From = std::remove_pointer_t<decltype(e)>;
    if constexpr (std::is_pointer_v<U> && std::is_pointer_v<decltype(e)> && std::is_const_v<From>)
      return reinterpret_cast<const std::remove_pointer_t<U>*>(e); // a read-only parameter's
    else if constexpr (std::is_pointer_v<U> && std::is_pointer_v<decltype(e)>)
      return reinterpret_cast<U>(e);
    else if constexpr (std::is_pointer_v<U>)
      return reinterpret_cast<U>(static_cast<uintptr_t>(e));
    else
      return static_cast<U>(reinterpret_cast<uintptr_t>(e));
  };
  if constexpr (Tensor<X>)
    return map(x, f).eval();
  else
    return f(x);
}

// Pointers plus offsets loaded through a const pointer (a load view, read where used):
// the offsets are read into a block first, then added (a gather or scatter follows).
template <class P, class T, int D0, int D1, int M0, int M1>
  requires std::is_integral_v<std::remove_const_t<T>>
TL_INLINE auto operator+(P* p, const LoadView<T, D0, D1, M0, M1>& offsets) {
  return p + offsets.eval();
}
template <class P, class T, int D0, int D1, int M0, int M1>
  requires std::is_integral_v<std::remove_const_t<T>>
TL_INLINE auto operator+(const LoadView<T, D0, D1, M0, M1>& offsets, P* p) {
  return p + offsets.eval();
}

// x[:, None] / x[None, :] of a loaded block (a load view): materialized, then expanded.
template <int Axis, class T, int D0, int D1, int M0, int M1>
TL_INLINE auto expand_dims(const LoadView<T, D0, D1, M0, M1>& x) {
  return expand_dims<Axis>(x.eval());
}

namespace detail {
// A Philox generator `gen(c0, c1, c2, c3)` (words of type W) applied lane by lane to blocks of
// counters broadcast against each other: the words of each lane, as four blocks.
template <class W, class G, class C0, class C1, class C2, class C3>
TL_INLINE auto philoxOverBlocks(G gen, const C0& c0, const C1& c1, const C2& c2, const C3& c3) {
  using S = typename broadcast_block<W, typename broadcast_block<W, C0, C1>::type,
                                     typename broadcast_block<W, C2, C3>::type>::type;
  Philox4x32Blocks<S> out;
  for (int i = 0; i < S::rows; ++i)
    for (int j = 0; j < S::cols; ++j) {
      const auto w = gen(static_cast<W>(get(c0, i, j)), static_cast<W>(get(c1, i, j)),
                         static_cast<W>(get(c2, i, j)), static_cast<W>(get(c3, i, j)));
      const int k = i * S::cols + j;
      out.c0.v[k] = w.c0;
      out.c1.v[k] = w.c1;
      out.c2.v[k] = w.c2;
      out.c3.v[k] = w.c3;
    }
  return out;
}
} // namespace detail

// Philox 4x32 with Rounds rounds over blocks of counters (tl.philox, and tl.randint & co.
// with n_rounds): the words of each lane, as four blocks.
template <int Rounds, class C0, class C1, class C2, class C3>
TL_INLINE auto philox_blocks(uint64_t seed, const C0& c0, const C1& c1, const C2& c2,
                             const C3& c3) {
  auto gen = [seed](uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    return philox<Rounds>(a, b, c, d, static_cast<uint32_t>(seed),
                          static_cast<uint32_t>(seed >> 32));
  };
  return detail::philoxOverBlocks<uint32_t>(gen, c0, c1, c2, c3);
}

// tl.philox with 64-bit counters: Philox 4x64, keyed by the whole seed (its high key is 0, as
// Triton 3.6 has it).
template <int Rounds, class C0, class C1, class C2, class C3>
TL_INLINE auto philox64_blocks(uint64_t seed, const C0& c0, const C1& c1, const C2& c2,
                               const C3& c3) {
  auto gen = [seed](uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    return philox64<Rounds>(a, b, c, d, seed, 0);
  };
  return detail::philoxOverBlocks<uint64_t>(gen, c0, c1, c2, c3);
}

// tl.randint4x(seed, offsets, n_rounds): the counter is the offset's low and high words.
template <int Rounds, class O>
TL_INLINE auto randint4x_rounds(uint64_t seed, const O& offsets) {
  const auto lo =
      map(offsets, [](auto o) { return static_cast<uint32_t>(detail::philoxOffset(o)); });
  const auto hi =
      map(offsets, [](auto o) { return static_cast<uint32_t>(detail::philoxOffset(o) >> 32); });
  return philox_blocks<Rounds>(seed, lo, hi, uint32_t{0}, uint32_t{0});
}

// Triton's uint_to_uniform_float (32- or 64-bit words), and pair_uniform_to_normal (Box-Muller).
template <class X>
TL_INLINE auto uint_to_uniform_float(const X& x) {
  return map(x,
             [](auto b) {
               if constexpr (sizeof(b) == 8) {
                 // Triton: the int64 bits' magnitude (x < 0: -x - 1), times 2^-63 in fp32.
                 const auto v = static_cast<int64_t>(b);
                 return static_cast<float>(v < 0 ? -v - 1 : v) * 1.0842020432385337e-19f;
               } else {
                 return detail::uniform(static_cast<uint32_t>(b));
               }
             })
      .eval();
}
template <class A, class B>
TL_INLINE auto pair_uniform_to_normal(const A& u1, const B& u2) {
  const auto radius =
      sqrt(map(u1, [](float u) { return -2.0f * std::log(u < 1.0e-7f ? 1.0e-7f : u); }).eval());
  const auto theta = map(u2, [](float u) { return 6.283185307179586f * u; }).eval();
  return std::pair{(radius * cos(theta)).eval(), (radius * sin(theta)).eval()};
}

} // namespace tcpu::tl

#endif
