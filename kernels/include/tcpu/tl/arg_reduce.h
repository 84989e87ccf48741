// argmax and argmin over an axis, as triton.language: the first index of the extreme, where a
// NaN counts as greater than everything for argmax and smaller for argmin (Triton's combine
// functions test `a != a`), so the first NaN wins. That is one left-to-right scan, whose
// loop-carried (value, index) pair does not vectorize: a 4096 x 1024 fp32 argmax took 26x as
// long as max. Here the same answer comes from passes that do: along a row, the extreme, then
// the first index holding it (or the first NaN); down the columns of a 2-D block, every column
// is a lane and each row updates them all.
#ifndef TCPU_TL_ARG_REDUCE_H
#define TCPU_TL_ARG_REDUCE_H

#include <bit>
#include <cstdint>
#include <limits>

#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {

// An element in its compute type. bf16 widens through its bits: from a plain conversion LLVM
// folds the NaN tests back into bf16 compares, which x86 without AVX512-BF16 does by calling
// compiler-rt per element (__truncsfbf2).
template <class T>
TL_INLINE compute_t<T> argValue(T x) {
  if constexpr (std::is_same_v<std::remove_cv_t<T>, __bf16>)
    return std::bit_cast<float>(static_cast<uint32_t>(std::bit_cast<uint16_t>(x)) << 16);
  else
    return static_cast<compute_t<T>>(x);
}

// Whether e, found after best in the scan, replaces it.
template <bool Max, class C>
TL_INLINE bool argReplaces(C e, C best) {
  if constexpr (std::is_floating_point_v<C>)
    return best == best && (e != e || (Max ? e > best : e < best));
  else
    return Max ? e > best : e < best;
}

// Whether a is strictly beyond b: greater for argmax, smaller for argmin (false with a NaN).
template <bool Max, class C>
TL_INLINE bool argBetter(C a, C b) {
  return Max ? a > b : a < b;
}

// Lanes of a row's passes: four 512-bit vectors of the compute type (as reduce.h's partials),
// at most the row's length.
template <class C, int N>
constexpr int argLanes() {
  int lanes = 256 / static_cast<int>(sizeof(C));
  while (lanes > N)
    lanes /= 2;
  return lanes;
}

// The first j in [from, N) with matches(argValue(x[j])), or N, where `from` is a multiple of W.
// W elements at a time are tested as vector compares and an or, so that most of the row goes by
// in vector code; the scalar scan runs only inside the W elements that hold the first match. The
// chunks are counted from 0 and those before `from` skipped: with a loop starting at `from`,
// LLVM turned the or of each chunk into a branch per element.
template <int W, int N, class T, class Matches>
TL_INLINE int32_t argFirst(const T* x, int from, Matches matches) {
  int q = 0;
  for (; q < N / W; ++q) {
    if (q * W < from) continue;
    bool any = false;
    for (int l = 0; l < W; ++l)
      any |= matches(argValue(x[q * W + l]));
    if (any) break;
  }
  for (int j = q * W > from ? q * W : from; j < N; ++j)
    if (matches(argValue(x[j]))) return j;
  return N;
}

// A row in two passes of vector code. The first finds the extreme as max and min do (a compare
// and select per element, NaNs left out: a lane starts from the identity in place of a NaN). The
// second finds the first element that is the extreme or a NaN, in one compare (not below the
// maximum, which a NaN is not either); if that is the extreme, the rest of the row is searched
// for a NaN, which wins wherever it is (Triton's rule: a NaN beats every number, the first NaN
// wins). Equal values tie to the first index, -0 and +0 included, as in the left-to-right scan.
// A single pass carrying (value, index) costs an index blend per element and kept argmax near 3x
// max; the second pass runs over a row still in L1.
template <bool Max, class T, int N>
TL_INLINE int32_t argRow(const T* x) {
  using C = compute_t<T>;
  constexpr int W = argLanes<C, N>();
  constexpr C identity =
      std::is_floating_point_v<C>
          ? (Max ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity())
          : (Max ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max());
  C best[W];
  for (int l = 0; l < W; ++l) {
    const C e = argValue(x[l]);
    best[l] = e == e ? e : identity;
  }
#pragma clang loop unroll(disable)
  for (int j = W; j + W <= N; j += W)
    for (int l = 0; l < W; ++l) {
      const C e = argValue(x[j + l]);
      best[l] = argBetter<Max>(e, best[l]) ? e : best[l];
    }
  for (int width = W / 2; width >= 1; width /= 2)
    for (int l = 0; l < width; ++l)
      best[l] = argBetter<Max>(best[l + width], best[l]) ? best[l + width] : best[l];
  C value = best[0];
  for (int j = N / W * W; j < N; ++j) {
    const C e = argValue(x[j]);
    value = argBetter<Max>(e, value) ? e : value;
  }
  if constexpr (!std::is_floating_point_v<C>) {
    return argFirst<W, N>(x, 0, [value](C e) { return e == value; });
  } else {
    const int32_t at = argFirst<W, N>(x, 0, [value](C e) { return !argBetter<Max>(value, e); });
    const C found = argValue(x[at]);
    if (found != found) return at;
    // Nothing is beyond the extreme but a NaN: tested against it, not as e != e, which LLVM
    // folds in pairs (unordered(a, b)) and then vectorizes with gathers of every other element.
    const int32_t nan = argFirst<W, N>(x, (at + 1) / W * W,
                                       [value](C e) { return !(Max ? e <= value : e >= value); });
    return nan < N ? nan : at;
  }
}

// Down the columns of a Rows x Cols block (axis 0): every column a lane.
template <bool Max, class T, int Rows, int Cols>
TL_INLINE Block<int32_t, Cols> argColumns(const T* x) {
  using C = compute_t<T>;
  Block<int32_t, Cols> out;
  C best[Cols];
  for (int j = 0; j < Cols; ++j)
    best[j] = argValue(x[j]), out.v[j] = 0;
  for (int i = 1; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j) {
      const C e = argValue(x[i * Cols + j]);
      const bool replaces = argReplaces<Max>(e, best[j]);
      best[j] = replaces ? e : best[j];
      out.v[j] = replaces ? i : out.v[j];
    }
  return out;
}

template <bool Max, int Axis, class X>
TL_INLINE auto argReduce(const X& x) {
  const auto& b = eval(x);
  using B = std::remove_cvref_t<decltype(b)>;
  using T = element_t<B>;
  if constexpr (B::rank == 1) {
    return argRow<Max, T, B::cols>(b.v);
  } else if constexpr (Axis == 1) {
    Block<int32_t, B::rows> out;
    for (int i = 0; i < B::rows; ++i)
      out.v[i] = argRow<Max, T, B::cols>(b.v + i * B::cols);
    return out;
  } else {
    static_assert(Axis == 0, "argmax/argmin of a 2-D block needs axis 0 or 1");
    return argColumns<Max, T, B::rows, B::cols>(b.v);
  }
}

} // namespace detail

template <int Axis = 0, Tensor X>
TL_INLINE auto argmax(const X& x) {
  return detail::argReduce<true, Axis>(x);
}
template <int Axis = 0, Tensor X>
TL_INLINE auto argmin(const X& x) {
  return detail::argReduce<false, Axis>(x);
}

} // namespace tcpu::tl

#endif
