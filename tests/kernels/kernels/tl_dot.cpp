// tl/dot.h through codegen (tl_dot_test.cpp checks them): one program computes
// one product of row-major blocks, for each input type, accumulator type and
// out_dtype, at Triton's sizes and at smaller powers of two.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

// The [R, C] row-major block at p.
template <int R, int C, class T>
auto tile(const T* p) {
  const auto rows = tl::arange<0, R>();
  const auto cols = tl::arange<0, C>();
  return tl::load(p + (tl::col(rows) * C + tl::row(cols)));
}
template <int R, int C, class T, class V>
void storeTile(T* p, const V& value) {
  const auto rows = tl::arange<0, R>();
  const auto cols = tl::arange<0, C>();
  tl::store(p + (tl::col(rows) * C + tl::row(cols)), value);
}

// out = dot(a, b, acc): the result has the accumulator's type.
template <class In, class Acc, int M, int N, int K>
struct dot_acc : tl::program {
  void operator()(const In* a, const In* b, const Acc* acc, Acc* out) const {
    const auto c = tl::dot(tile<M, K>(a), tile<K, N>(b), tile<M, N>(acc));
    static_assert(std::is_same_v<tl::element_t<decltype(c)>, Acc>);
    storeTile<M, N>(out, c);
  }
};
TL_KERNEL(f32_16x16x16, dot_acc<float, float, 16, 16, 16>);
TL_KERNEL(f32_64x64x32, dot_acc<float, float, 64, 64, 32>);
TL_KERNEL(f32_4x8x2, dot_acc<float, float, 4, 8, 2>);
TL_KERNEL(f32_1x2x1, dot_acc<float, float, 1, 2, 1>);
TL_KERNEL(f64_16x32x16, dot_acc<double, double, 16, 32, 16>);
TL_KERNEL(f16_f32acc_32x16x64, dot_acc<tl::float16, float, 32, 16, 64>);
TL_KERNEL(f16_f16acc_32x16x64, dot_acc<tl::float16, tl::float16, 32, 16, 64>);
TL_KERNEL(f16_f16acc_2x4x8, dot_acc<tl::float16, tl::float16, 2, 4, 8>);
TL_KERNEL(bf16_f32acc_16x32x32, dot_acc<tl::bfloat16, float, 16, 32, 32>);
// AVX512-BF16's tiles (tl/dot_bf16.h): fewer rows than a tile, two column tiles, one pair of k;
// the tutorial's 64 x 64 x 128 blocks; and K = 1, which takes the fp32 path everywhere.
TL_KERNEL(bf16_f32acc_4x64x2, dot_acc<tl::bfloat16, float, 4, 64, 2>);
TL_KERNEL(bf16_f32acc_64x64x128, dot_acc<tl::bfloat16, float, 64, 64, 128>);
TL_KERNEL(bf16_f32acc_2x32x1, dot_acc<tl::bfloat16, float, 2, 32, 1>);
TL_KERNEL(i8_i32acc_16x16x64, dot_acc<int8_t, int32_t, 16, 16, 64>);
TL_KERNEL(i8_i32acc_8x4x2, dot_acc<int8_t, int32_t, 8, 4, 2>);

// out = dot(a, b, out_dtype=OutT), whose type must be Expected.
template <class In, class OutT, class Expected, int M, int N, int K>
struct dot_out : tl::program {
  void operator()(const In* a, const In* b, Expected* out) const {
    const auto c = tl::dot_out<OutT>(tile<M, K>(a), tile<K, N>(b));
    static_assert(std::is_same_v<tl::element_t<decltype(c)>, Expected>);
    storeTile<M, N>(out, c);
  }
};
TL_KERNEL(out_f16_from_f16, dot_out<tl::float16, tl::float16, tl::float16, 32, 32, 32>);
TL_KERNEL(out_f32_from_f16, dot_out<tl::float16, float, float, 32, 32, 32>);
// out_dtype is Triton's default (fp32) or ignored: int8 gives int32, fp32 and bf16 give fp32.
TL_KERNEL(out_i32_from_i8, dot_out<int8_t, float, int32_t, 16, 16, 32>);
TL_KERNEL(out_f32_from_f32_asked_f16, dot_out<float, tl::float16, float, 16, 16, 16>);
TL_KERNEL(out_f32_from_bf16, dot_out<tl::bfloat16, float, float, 16, 16, 16>);

// out = dot(a, b): the tiles start at zero, with no block of zeros.
template <class In, int M, int N, int K>
struct dot_plain : tl::program {
  void operator()(const In* a, const In* b, tl::detail::dot_acc_t<In>* out) const {
    storeTile<M, N>(out, tl::dot(tile<M, K>(a), tile<K, N>(b)));
  }
};
TL_KERNEL(plain_f32_16x32x8, dot_plain<float, 16, 32, 8>);
TL_KERNEL(plain_i8_8x16x4, dot_plain<int8_t, 8, 16, 4>);
TL_KERNEL(plain_bf16_4x64x2, dot_plain<tl::bfloat16, 4, 64, 2>);

// dot_into(acc, a, b) in place; with Self, dot_into(acc, acc, b) (a is not read).
template <class In, class Acc, int M, int N, int K, bool Self = false>
struct dot_into : tl::program {
  void operator()(const In* a, const In* b, const Acc* acc, Acc* out) const {
    tl::Block<Acc, M, N> c = tile<M, N>(acc);
    if constexpr (Self)
      tl::dot_into(c, c, tile<K, N>(b));
    else
      tl::dot_into(c, tile<M, K>(a), tile<K, N>(b));
    storeTile<M, N>(out, c);
  }
};
TL_KERNEL(into_f32_64x64x32, dot_into<float, float, 64, 64, 32>);
TL_KERNEL(into_f16_32x16x64, dot_into<tl::float16, float, 32, 16, 64>);
TL_KERNEL(into_bf16_4x64x2, dot_into<tl::bfloat16, float, 4, 64, 2>);
TL_KERNEL(into_i8_8x4x2, dot_into<int8_t, int32_t, 8, 4, 2>);
TL_KERNEL(into_self_f32_16x64x64, dot_into<float, float, 16, 64, 64, true>);
