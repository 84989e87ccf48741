// argmax and argmin over an axis, as triton.language: the first index of the extreme, where a
// NaN counts as greater than everything for argmax and smaller for argmin (Triton's combine
// functions test `a != a`), so the first NaN wins. That is one left-to-right scan, whose
// loop-carried (value, index) pair does not vectorize: a 4096 x 1024 fp32 argmax took 26x as
// long as max. Here the same answer comes from independent scans that do: along a row, W lanes
// each scan every W-th element and then merge by value, ties to the smaller index; down the
// columns of a 2-D block, every column is a lane and each row updates them all.
#ifndef TCPU_TL_ARG_REDUCE_H
#define TCPU_TL_ARG_REDUCE_H

#include <bit>
#include <cstdint>

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

// Whether lane result (v, i) beats (best, at) when lanes merge: indices are not in scan order
// across lanes, so equal values (and NaNs) go to the smaller index.
template <bool Max, class C>
TL_INLINE bool argMergeBeats(C v, int32_t i, C best, int32_t at) {
  if constexpr (std::is_floating_point_v<C>) {
    if (best != best) return v != v && i < at;
    if (v != v) return true;
  }
  return (Max ? v > best : v < best) || (v == best && i < at);
}

// Lanes of a row scan: one 512-bit vector of the compute type, at most the row's length.
template <class C, int N>
constexpr int argLanes() {
  int lanes = 256 / static_cast<int>(sizeof(C));
  while (lanes > N)
    lanes /= 2;
  return lanes;
}

template <bool Max, class T, int N, bool MayHoldNan>
TL_INLINE int32_t argRowScan(const T* x) {
  using C = compute_t<T>;
  constexpr int W = argLanes<C, N>();
  constexpr int body = N / W * W;
  C best[W];
  int32_t index[W];
  for (int l = 0; l < W; ++l)
    best[l] = argValue(x[l]), index[l] = l;
  for (int j = W; j < body; j += W)
    for (int l = 0; l < W; ++l) {
      const C e = argValue(x[j + l]);
      const bool replaces =
          MayHoldNan ? argReplaces<Max>(e, best[l]) : (Max ? e > best[l] : e < best[l]);
      best[l] = replaces ? e : best[l];
      index[l] = replaces ? j + l : index[l];
    }
  C value = best[0];
  int32_t at = index[0];
  for (int l = 1; l < W; ++l)
    if (argMergeBeats<Max>(best[l], index[l], value, at)) value = best[l], at = index[l];
  for (int j = body; j < N; ++j) { // after every lane's indices: the scan's own rule
    const C e = argValue(x[j]);
    if (argReplaces<Max>(e, value)) value = e, at = j;
  }
  return at;
}

// A row without NaNs (checked first, as vector code) is scanned with plain comparisons.
template <bool Max, class T, int N>
TL_INLINE int32_t argRow(const T* x) {
  if constexpr (std::is_floating_point_v<compute_t<T>>) {
    bool nan = false;
    for (int j = 0; j < N; ++j) {
      const auto e = argValue(x[j]);
      nan |= e != e;
    }
    return nan ? argRowScan<Max, T, N, true>(x) : argRowScan<Max, T, N, false>(x);
  } else {
    return argRowScan<Max, T, N, false>(x);
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
