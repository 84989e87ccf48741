// Triton's block pointers: tl.make_block_ptr, tl.advance, and tl.load/tl.store
// with boundary_check and padding_option.
//
//   auto a = tl::make_block_ptr<BM, BK>(a_ptr, {M, K}, {stride_am, stride_ak}, {pid_m * BM, 0});
//   const auto x = tl::load(a, tl::BoundaryCheck<0, 1>{});   // or tl::load(a, 0b11)
//   a = tl::advance(a, 0, BK);
//
// A block pointer is the parent tensor's shape and strides (int64) and the
// block's offsets into it (int32, as Triton's), with the block shape in the
// type. Lane (i, j) addresses base + (o0 + i) * s0 + (o1 + j) * s1. A load or
// store turns it into memory.h's structured pointer (one offset per row, the
// last dimension's stride as the column step) and the boundary check into a
// rectangle of lanes, so it takes the same paths as `ptr + offsets` with a
// `< n` mask: each row one contiguous run where the last stride is 1, the
// checked window a column range, loads through pointers to const lazy.
//
// Only the dimensions named in the boundary check are checked, both below 0
// and at the shape, as Triton does; the others are assumed in bounds. `order`
// (which dimension is fastest in memory) is a layout hint for the GPU and is
// accepted and ignored: the strides say where every element is.
#ifndef TCPU_TL_BLOCK_PTR_H
#define TCPU_TL_BLOCK_PTR_H

#include <array>
#include <concepts>
#include <limits>

#include "tcpu/tl/memory.h"

namespace tcpu::tl {

// padding_option: what out-of-bounds lanes of a checked load hold. Triton's
// default ("") leaves them undefined; here they are zero. nan applies to
// floats; integers pad with 0.
enum class Padding { zero, nan };

// boundary_check=(dims...) as a type: BoundaryCheck<0, 1>{}. Loads and stores
// also take the dimensions as a bit mask (bit d checks dimension d).
template <int... Dims>
struct BoundaryCheck {
  static_assert(((Dims == 0 || Dims == 1) && ...), "boundary_check names dimensions 0 and 1");
  static constexpr int mask = (0 | ... | (1 << Dims));
};

template <class T, int D0, int D1 = -1>
struct BlockPtr {
  using shape = Shape<D0, D1>;
  static constexpr int rank = shape::rank;
  T* base;
  std::array<int64_t, rank> dims; // the parent tensor's shape
  std::array<int64_t, rank> strides;
  std::array<int32_t, rank> offsets;
};

// tl.make_block_ptr(base, shape, strides, offsets, block_shape=(D0[, D1]), order).
template <int D0, int D1 = -1, class T>
TL_INLINE BlockPtr<T, D0, D1>
make_block_ptr(T* base, std::array<int64_t, Shape<D0, D1>::rank> shape,
               std::array<int64_t, Shape<D0, D1>::rank> strides,
               std::array<int32_t, Shape<D0, D1>::rank> offsets,
               std::array<int32_t, Shape<D0, D1>::rank> /*order*/ = {}) {
  return {base, shape, strides, offsets};
}

// tl.advance(p, (o0[, o1])): the block moved by the offsets, in int32 as Triton's.
namespace detail {
// Block offsets moved by `by`, one per dimension (of any rank).
template <std::size_t N, std::integral... O>
  requires(sizeof...(O) == N)
TL_INLINE void advanceOffsets(std::array<int32_t, N>& offsets, O... by) {
  const int32_t step[] = {static_cast<int32_t>(by)...};
  for (int d = 0; d < static_cast<int>(N); ++d)
    offsets[d] = static_cast<int32_t>(static_cast<uint32_t>(offsets[d]) +
                                      static_cast<uint32_t>(step[d])); // wraps, as i32 adds do
}
} // namespace detail

template <class T, int D0, int D1, std::integral... O>
  requires(sizeof...(O) == Shape<D0, D1>::rank)
TL_INLINE BlockPtr<T, D0, D1> advance(BlockPtr<T, D0, D1> p, O... offsets) {
  detail::advanceOffsets(p.offsets, offsets...);
  return p;
}
template <class T, int D0, int D1>
TL_INLINE BlockPtr<T, D0, D1> advance(BlockPtr<T, D0, D1> p,
                                      std::array<int32_t, Shape<D0, D1>::rank> offsets) {
  if constexpr (Shape<D0, D1>::rank == 1)
    return advance(p, offsets[0]);
  else
    return advance(p, offsets[0], offsets[1]);
}

namespace detail {

// The block's lanes as a structured pointer: row i starts at (o0 + i) * s0 + o1 * s1 and steps
// by s1 (rank 1: one row stepping by s0).
template <class T, int D0, int D1>
TL_INLINE Ptr<T, D0, D1> blockLanes(const BlockPtr<T, D0, D1>& p) {
  using Sh = Shape<D0, D1>;
  Ptr<T, D0, D1> out;
  out.base = p.base;
  if constexpr (Sh::rank == 1) {
    out.row[0] = static_cast<int64_t>(p.offsets[0]) * p.strides[0];
    out.colStep = p.strides[0];
  } else {
    const int64_t column0 = static_cast<int64_t>(p.offsets[1]) * p.strides[1];
    for (int i = 0; i < Sh::rows; ++i)
      out.row[i] = (static_cast<int64_t>(p.offsets[0]) + i) * p.strides[0] + column0;
    out.colStep = p.strides[1];
  }
  return out;
}

// The lanes inside the parent tensor along the checked dimensions: a rectangle, 0 <= o + i <
// shape, i.e. -o <= i < shape - o.
template <class T, int D0, int D1>
TL_INLINE LinMask<D0, D1> blockBounds(const BlockPtr<T, D0, D1>& p, int check) {
  LinMask<D0, D1> mask;
  Rect<D0, D1>& r = mask.rect;
  if constexpr (Shape<D0, D1>::rank == 1) {
    if (check & 1)
      r.colLo = -static_cast<int64_t>(p.offsets[0]), r.colHi = p.dims[0] - p.offsets[0];
  } else {
    if (check & 1)
      r.rowLo = -static_cast<int64_t>(p.offsets[0]), r.rowHi = p.dims[0] - p.offsets[0];
    if (check & 2)
      r.colLo = -static_cast<int64_t>(p.offsets[1]), r.colHi = p.dims[1] - p.offsets[1];
  }
  return mask;
}

template <class U>
TL_INLINE U paddingValue(Padding padding) {
  if constexpr (is_fp8_v<U>) {
    // LLVM's quiet NaN of the format, as Triton pads (APFloat::getNaN): S.11111.10 for e5m2,
    // the only NaN S.1111.111 for e4m3fn, and 0x80 (negative zero's encoding) for the
    // formats MLIR types as "fnuz": float8e4b8, float8e5b16 and float8e4b15 (which Triton's
    // conversion then reads as -0).
    if (padding == Padding::nan) {
      if constexpr (std::is_same_v<U, float8e5>) return U{0x7e};
      if constexpr (std::is_same_v<U, float8e4nv>) return U{0x7f};
      return U{0x80};
    }
    return U{0};
  }
  if constexpr (std::is_floating_point_v<compute_t<U>>)
    if (padding == Padding::nan)
      return static_cast<U>(std::numeric_limits<compute_t<U>>::quiet_NaN());
  return U(0);
}

} // namespace detail

// tl.load(p, boundary_check, padding_option): a Block, or for a pointer to const a lazy view
// read where it is used (memory.h's rule for loads).
template <class T, int D0, int D1>
TL_INLINE auto load(const BlockPtr<T, D0, D1>& p, int boundaryCheck = 0,
                    Padding padding = Padding::zero) {
  return load(detail::blockLanes(p), detail::blockBounds(p, boundaryCheck),
              detail::paddingValue<std::remove_const_t<T>>(padding));
}
template <class T, int D0, int D1, int... Dims>
TL_INLINE auto load(const BlockPtr<T, D0, D1>& p, BoundaryCheck<Dims...>,
                    Padding padding = Padding::zero) {
  static_assert(((Dims < Shape<D0, D1>::rank) && ...), "boundary_check names a dimension the "
                                                       "block does not have");
  return load(p, BoundaryCheck<Dims...>::mask, padding);
}

// tl.store(p, value, boundary_check): lanes outside the checked bounds are not written.
template <class T, int D0, int D1, Operand V>
TL_INLINE void store(const BlockPtr<T, D0, D1>& p, const V& value, int boundaryCheck = 0) {
  store(detail::blockLanes(p), value, detail::blockBounds(p, boundaryCheck));
}
template <class T, int D0, int D1, Operand V, int... Dims>
TL_INLINE void store(const BlockPtr<T, D0, D1>& p, const V& value, BoundaryCheck<Dims...>) {
  static_assert(((Dims < Shape<D0, D1>::rank) && ...), "boundary_check names a dimension the "
                                                       "block does not have");
  store(p, value, BoundaryCheck<Dims...>::mask);
}

} // namespace tcpu::tl

#endif
