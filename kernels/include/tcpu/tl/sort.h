// Order statistics, as triton.language: sort and topk (a bitonic network, as Triton's), and
// histogram.
#ifndef TCPU_TL_SORT_H
#define TCPU_TL_SORT_H

#include "tcpu/tl/core.h"
#include "tcpu/tl/shape.h"

namespace tcpu::tl {

namespace detail {

// Compare-exchanges between runs of at least this many contiguous elements are written as a
// loop over the runs (vector loads and stores); shorter distances use the lane-wise form below.
constexpr int kSortRun = 16;

// Working storage of a sort: two copies of the block, each with kSortRun elements of padding
// either side, so that a lane's partner at a distance below kSortRun loads unconditionally (and
// so as part of a vector) even at the ends.
template <class T, int Total>
struct SortBuffers {
  T p[2][kSortRun + Total + kSortRun];
  TL_INLINE T* data(int which) { return p[which] + kSortRun; }
};

// One stage of the bitonic network over the Total / (N * Stride) groups of buffer Cur: group g
// holds the N elements [g * N * Stride + i * Stride + s] for i < N, one group for each
// s < Stride (Stride is 1 when sorting rows, the row length when sorting columns). Element i
// and element i + J (i & J == 0) swap when they are out of order for the direction of i's
// block of K (ascending when i & K == 0; the last merge, K == N, is all one direction). A pair
// swaps only when strictly out of order, so a NaN never moves (where it ends up is
// unspecified, as in Triton). The stages are instantiated one by one (K = 2, 4, ..., N; J =
// K / 2, ..., 1), so every loop has a constant trip count; returns the buffer that holds the
// result.
template <bool Descending, int N, int Stride, int Total, int K, int J, int Cur, class T>
TL_INLINE int bitonicStage(SortBuffers<T, Total>& buffers) {
  constexpr int distance = J * Stride;
  constexpr int next = distance >= kSortRun ? Cur : 1 - Cur;
  if constexpr (distance >= kSortRun) {
    // Runs of `distance` contiguous elements against the next run, in place: vector loads and
    // stores.
    T* d = buffers.data(Cur);
    for (int group = 0; group < Total; group += N * Stride)
      for (int base = 0; base < N; base += 2 * J) {
        // i & K is the same for the whole run: base is a multiple of 2J <= K.
        const bool up = ((base & K) == 0) != Descending;
        T* lo = d + group + base * Stride;
        for (int e = 0; e < distance; ++e) {
          const T a = lo[e], b = lo[e + distance];
          const bool swap = up ? a > b : a < b;
          lo[e] = swap ? b : a;
          lo[e + distance] = swap ? a : b;
        }
      }
  } else {
    // Shorter distances: every lane at once, from one buffer into the other.
    const T* from = buffers.data(Cur);
    T* to = buffers.data(next);
    for (int e = 0; e < Total; ++e) {
      const int i = (e / Stride) % N;
      const bool low = (i & J) == 0;
      const bool up = ((i & K) == 0) != Descending;
      const T before = from[e - distance], here = from[e], after = from[e + distance];
      const T a = low ? here : before, b = low ? after : here; // the pair, in index order
      const bool swap = up ? a > b : a < b;
      to[e] = low == swap ? b : a;
    }
  }
  if constexpr (J > 1)
    return bitonicStage<Descending, N, Stride, Total, K, J / 2, next>(buffers);
  else if constexpr (K < N)
    return bitonicStage<Descending, N, Stride, Total, 2 * K, K, next>(buffers);
  else
    return next;
}

// out = in with its groups (bitonicStage) sorted by the whole network.
template <bool Descending, int N, int Stride, int Total, class T>
TL_INLINE void bitonicSort(const T* in, T* out) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "sort: the sorted dimension must be a power of two");
  SortBuffers<T, Total> buffers;
  for (int e = 0; e < kSortRun; ++e)
    for (int which = 0; which < 2; ++which)
      buffers.p[which][e] = buffers.p[which][kSortRun + Total + e] = T{};
  for (int e = 0; e < Total; ++e)
    buffers.data(0)[e] = in[e];
  int result = 0;
  if constexpr (N > 1) result = bitonicStage<Descending, N, Stride, Total, 2, 1, 0>(buffers);
  const T* sorted = buffers.data(result);
  for (int e = 0; e < Total; ++e)
    out[e] = sorted[e];
}

} // namespace detail

// sort<Axis, Descending>(x), as tl.sort(x, dim, descending): x sorted along Axis (-1, the
// default, is the last dimension; Triton sorts only that one, tl also sorts columns). The
// sorted dimension must be a power of two.
template <int Axis = -1, bool Descending = false, Tensor X>
TL_INLINE auto sort(const X& x) {
  using B = evaluated_t<X>;
  constexpr int axis = detail::normalized_axis<B::rank, Axis>;
  static_assert(axis >= 0 && axis < B::rank, "sort: no such axis");
  const auto& b = eval(x);
  B out;
  if constexpr (B::rank == 1 || axis == 1)
    detail::bitonicSort<Descending, B::cols, 1, B::size>(b.v, out.v);
  else
    detail::bitonicSort<Descending, B::rows, B::cols, B::size>(b.v, out.v);
  return out;
}

// topk<K, Axis>(x), as tl.topk(x, k, dim): the K largest elements along Axis (-1: the last),
// largest first; K is a power of two no larger than that dimension. A full descending sort
// and its first K: blocks are small, and the network is the same one sort uses.
template <int K, int Axis = -1, Tensor X>
TL_INLINE auto topk(const X& x) {
  using B = evaluated_t<X>;
  using T = element_t<X>;
  constexpr int axis = detail::normalized_axis<B::rank, Axis>;
  constexpr bool alongRows = B::rank == 1 || axis == 1;
  static_assert(K > 0 && (K & (K - 1)) == 0, "topk: K must be a power of two");
  static_assert(K <= (alongRows ? B::cols : B::rows), "topk: K is larger than the dimension");
  const B sorted = sort<Axis, true>(x);
  constexpr int rows = alongRows ? B::rows : K, cols = alongRows ? K : B::cols;
  detail::rank_block_t<T, rows, cols, B::rank> out;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      out.v[i * cols + j] = sorted.v[i * B::cols + j];
  return out;
}

namespace detail {
// Histograms with at most this many bins count each bin with a vector compare over the whole
// block (NumBins passes, each Size / 16 vector operations for int32 on AVX-512); more bins
// increment their counters one element at a time.
constexpr int kHistogramCompareBins = 32;

template <int NumBins, class X, class M>
TL_INLINE Block<int32_t, NumBins> histogramOf(const X& x, const M& mask) {
  using T = element_t<X>;
  static_assert(std::is_integral_v<T>, "histogram counts integers");
  static_assert(NumBins > 0, "histogram: NumBins must be positive");
  using S = shape_of<X>;
  // Compared as integers of at least 32 bits with T's signedness, which hold T and every bin.
  using C = std::conditional_t<
      (sizeof(T) < 4), int32_t,
      std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 4, int32_t, int64_t>,
                         std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  using U = std::make_unsigned_t<C>;
  const auto& b = eval(x);
  const auto& m = eval(mask);
  Block<int32_t, NumBins> out;
  if constexpr (NumBins <= kHistogramCompareBins) {
    for (int bin = 0; bin < NumBins; ++bin) {
      int32_t count = 0;
      for (int i = 0; i < S::rows; ++i)
        for (int j = 0; j < S::cols; ++j)
          count += get(m, i, j) && static_cast<C>(b.v[i * S::cols + j]) == static_cast<C>(bin);
      out.v[bin] = count;
    }
  } else {
    for (int bin = 0; bin < NumBins; ++bin)
      out.v[bin] = 0;
    for (int i = 0; i < S::rows; ++i)
      for (int j = 0; j < S::cols; ++j) {
        // Negative values become large unsigned ones, so one compare checks both ends.
        const U value = static_cast<U>(static_cast<C>(b.v[i * S::cols + j]));
        if (get(m, i, j) && value < static_cast<U>(NumBins)) ++out.v[value];
      }
  }
  return out;
}
} // namespace detail

// histogram<NumBins>(x[, mask]), as tl.histogram(x, num_bins, mask): out[b] counts the elements
// of x equal to b, for b < NumBins; values outside [0, NumBins), and lanes where mask (a block
// of x's shape, or one that broadcasts to it) is false, are not counted. int32 counts.
template <int NumBins, Tensor X>
TL_INLINE Block<int32_t, NumBins> histogram(const X& x) {
  return detail::histogramOf<NumBins>(x, true);
}
template <int NumBins, Tensor X, Tensor M>
TL_INLINE Block<int32_t, NumBins> histogram(const X& x, const M& mask) {
  using SX = shape_of<X>;
  using SM = shape_of<M>;
  static_assert(SM::rank <= SX::rank && (SM::rows == 1 || SM::rows == SX::rows) &&
                    (SM::cols == 1 || SM::cols == SX::cols),
                "histogram: the mask must broadcast to x's shape");
  return detail::histogramOf<NumBins>(x, mask);
}

} // namespace tcpu::tl

#endif
