// tl/math_extra.h through codegen (tl_math_extra_test.cpp checks them): one
// kernel per function and element type, named <type>_<function>, over ragged
// blocks of 128 lanes.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

enum class Fn {
  trunc,
  round,
  rint,
  nearbyint,
  exp10,
  erfc,
  lgamma,
  tgamma,
  asinh,
  acosh,
  atanh,
  fabs,
  sqrt_rn,
  atan2,
  hypot,
  fmod,
  remainder,
  copysign,
  fdim,
  fmax,
  fmin,
  div_rn,
  fdiv,
};

template <Fn F, class X>
auto unaryOf(const X& x) {
  if constexpr (F == Fn::trunc)
    return tl::trunc(x);
  else if constexpr (F == Fn::round)
    return tl::round(x);
  else if constexpr (F == Fn::rint)
    return tl::rint(x);
  else if constexpr (F == Fn::nearbyint)
    return tl::nearbyint(x);
  else if constexpr (F == Fn::exp10)
    return tl::exp10(x);
  else if constexpr (F == Fn::erfc)
    return tl::erfc(x);
  else if constexpr (F == Fn::lgamma)
    return tl::lgamma(x);
  else if constexpr (F == Fn::tgamma)
    return tl::tgamma(x);
  else if constexpr (F == Fn::asinh)
    return tl::asinh(x);
  else if constexpr (F == Fn::acosh)
    return tl::acosh(x);
  else if constexpr (F == Fn::atanh)
    return tl::atanh(x);
  else if constexpr (F == Fn::fabs)
    return tl::fabs(x);
  else
    return tl::sqrt_rn(x);
}

template <Fn F, class X, class Y>
auto binaryOf(const X& x, const Y& y) {
  if constexpr (F == Fn::atan2)
    return tl::atan2(x, y);
  else if constexpr (F == Fn::hypot)
    return tl::hypot(x, y);
  else if constexpr (F == Fn::fmod)
    return tl::fmod(x, y);
  else if constexpr (F == Fn::remainder)
    return tl::remainder(x, y);
  else if constexpr (F == Fn::copysign)
    return tl::copysign(x, y);
  else if constexpr (F == Fn::fdim)
    return tl::fdim(x, y);
  else if constexpr (F == Fn::fmax)
    return tl::fmax(x, y);
  else if constexpr (F == Fn::fmin)
    return tl::fmin(x, y);
  else if constexpr (F == Fn::div_rn)
    return tl::div_rn(x, y);
  else
    return tl::fdiv(x, y);
}

template <class T, Fn F>
struct unary : tl::program {
  void operator()(const T* x, T* out, int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    tl::store(out + offsets, unaryOf<F>(tl::load(x + offsets, mask)), mask);
  }
};

template <class T, Fn F>
struct binary : tl::program {
  void operator()(const T* x, const T* y, T* out, int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    tl::store(out + offsets, binaryOf<F>(tl::load(x + offsets, mask), tl::load(y + offsets, mask)),
              mask);
  }
};

#define UNARY_KERNELS(fn)                                                                          \
  TL_KERNEL(f32_##fn, unary<float, Fn::fn>);                                                       \
  TL_KERNEL(f64_##fn, unary<double, Fn::fn>);                                                      \
  TL_KERNEL(f16_##fn, unary<tl::float16, Fn::fn>);                                                 \
  TL_KERNEL(bf16_##fn, unary<tl::bfloat16, Fn::fn>)
#define BINARY_KERNELS(fn)                                                                         \
  TL_KERNEL(f32_##fn, binary<float, Fn::fn>);                                                      \
  TL_KERNEL(f64_##fn, binary<double, Fn::fn>);                                                     \
  TL_KERNEL(f16_##fn, binary<tl::float16, Fn::fn>);                                                \
  TL_KERNEL(bf16_##fn, binary<tl::bfloat16, Fn::fn>)

UNARY_KERNELS(trunc);
UNARY_KERNELS(round);
UNARY_KERNELS(rint);
UNARY_KERNELS(nearbyint);
UNARY_KERNELS(exp10);
UNARY_KERNELS(erfc);
UNARY_KERNELS(lgamma);
UNARY_KERNELS(tgamma);
UNARY_KERNELS(asinh);
UNARY_KERNELS(acosh);
UNARY_KERNELS(atanh);
UNARY_KERNELS(fabs);
UNARY_KERNELS(sqrt_rn);
BINARY_KERNELS(atan2);
BINARY_KERNELS(hypot);
BINARY_KERNELS(fmod);
BINARY_KERNELS(remainder);
BINARY_KERNELS(copysign);
BINARY_KERNELS(fdim);
BINARY_KERNELS(fmax);
BINARY_KERNELS(fmin);
BINARY_KERNELS(div_rn);
BINARY_KERNELS(fdiv);

// ldexp(x, e) with an int32 exponent block.
template <class T>
struct ldexp_kernel : tl::program {
  void operator()(const T* x, const int32_t* e, T* out, int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    tl::store(out + offsets, tl::ldexp(tl::load(x + offsets, mask), tl::load(e + offsets, mask)),
              mask);
  }
};
TL_KERNEL(f32_ldexp, ldexp_kernel<float>);
TL_KERNEL(f64_ldexp, ldexp_kernel<double>);
TL_KERNEL(f16_ldexp, ldexp_kernel<tl::float16>);
TL_KERNEL(bf16_ldexp, ldexp_kernel<tl::bfloat16>);

// clamp with block bounds and with scalar ones.
template <class T>
struct clamp_kernel : tl::program {
  void operator()(const T* x, const T* lo, const T* hi, T lo0, T hi0, T* out, T* outScalar,
                  int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    const auto v = tl::load(x + offsets, mask);
    tl::store(out + offsets,
              tl::clamp(v, tl::load(lo + offsets, mask), tl::load(hi + offsets, mask)), mask);
    tl::store(outScalar + offsets, tl::clamp(v, lo0, hi0), mask);
  }
};
TL_KERNEL(f32_clamp, clamp_kernel<float>);
TL_KERNEL(f64_clamp, clamp_kernel<double>);
TL_KERNEL(f16_clamp, clamp_kernel<tl::float16>);

// isnan, isinf, isfinite and signbit as bool blocks.
template <class T>
struct classify : tl::program {
  void operator()(const T* x, bool* nan, bool* inf, bool* finite, bool* sign, int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    const auto v = tl::load(x + offsets, mask);
    tl::store(nan + offsets, tl::isnan(v), mask);
    tl::store(inf + offsets, tl::isinf(v), mask);
    tl::store(finite + offsets, tl::isfinite(v), mask);
    tl::store(sign + offsets, tl::signbit(v), mask);
  }
};
TL_KERNEL(f32_classify, classify<float>);
TL_KERNEL(f64_classify, classify<double>);
TL_KERNEL(f16_classify, classify<tl::float16>);
TL_KERNEL(bf16_classify, classify<tl::bfloat16>);
TL_KERNEL(i32_classify, classify<int32_t>);

// umulhi (unsigned high half) and mulhi (signed), and umulhi by a scalar.
template <class T>
struct mulhi_kernel : tl::program {
  void operator()(const T* x, const T* y, T scalar, T* unsignedHigh, T* signedHigh, T* scalarHigh,
                  int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    const auto a = tl::load(x + offsets, mask);
    const auto b = tl::load(y + offsets, mask);
    tl::store(unsignedHigh + offsets, tl::umulhi(a, b), mask);
    tl::store(signedHigh + offsets, tl::mulhi(a, b), mask);
    tl::store(scalarHigh + offsets, tl::umulhi(a, scalar), mask);
  }
};
TL_KERNEL(i32_mulhi, mulhi_kernel<int32_t>);
TL_KERNEL(u32_mulhi, mulhi_kernel<uint32_t>);
TL_KERNEL(i64_mulhi, mulhi_kernel<int64_t>);
TL_KERNEL(u64_mulhi, mulhi_kernel<uint64_t>);

// Bit casts both ways for each width.
struct bitcasts : tl::program {
  void operator()(const float* f, int32_t* fBits, float* fBack, const double* d, uint64_t* dBits,
                  double* dBack, const tl::float16* h, int16_t* hBits, const tl::bfloat16* b,
                  uint16_t* bBits, tl::bfloat16* bBack, int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    const tl::Block<int32_t, 128> fb = tl::bitcast<int32_t>(tl::load(f + offsets, mask));
    tl::store(fBits + offsets, fb, mask);
    tl::store(fBack + offsets, tl::bitcast<float>(fb), mask);
    const tl::Block<uint64_t, 128> db = tl::bitcast<uint64_t>(tl::load(d + offsets, mask));
    tl::store(dBits + offsets, db, mask);
    tl::store(dBack + offsets, tl::bitcast<double>(db), mask);
    tl::store(hBits + offsets, tl::bitcast<int16_t>(tl::load(h + offsets, mask)), mask);
    const tl::Block<uint16_t, 128> bb = tl::bitcast<uint16_t>(tl::load(b + offsets, mask));
    tl::store(bBits + offsets, bb, mask);
    tl::store(bBack + offsets, tl::bitcast<tl::bfloat16>(bb), mask);
  }
};
TL_KERNEL(bitcasts, bitcasts);

// Round-toward-zero narrowing: fp32 -> fp16 and bf16, fp64 -> fp32, fp16 and bf16.
struct casts_rtz : tl::program {
  void operator()(const float* f, tl::float16* fh, tl::bfloat16* fb, const double* d, float* df,
                  tl::float16* dh, tl::bfloat16* db, int32_t n) const {
    const auto offsets = program_id(0) * 128 + tl::arange<0, 128>();
    const auto mask = offsets < n;
    const auto x = tl::load(f + offsets, mask);
    tl::store(fh + offsets, tl::cast_rtz<tl::float16>(x), mask);
    tl::store(fb + offsets, tl::cast_rtz<tl::bfloat16>(x), mask);
    const auto y = tl::load(d + offsets, mask);
    tl::store(df + offsets, tl::cast_rtz<float>(y), mask);
    tl::store(dh + offsets, tl::cast_rtz<tl::float16>(y), mask);
    tl::store(db + offsets, tl::cast_rtz<tl::bfloat16>(y), mask);
  }
};
TL_KERNEL(casts_rtz, casts_rtz);

// The scalar forms, one row of results per input pair.
struct scalars : tl::program {
  void operator()(const float* x, const float* y, float* out, int32_t n) const {
    for (int32_t k = 0; k < n; ++k) {
      const float a = x[k], b = y[k];
      float* o = out + 16 * k;
      o[0] = tl::trunc(a);
      o[1] = tl::round(a);
      o[2] = tl::rint(a);
      o[3] = tl::copysign(a, b);
      o[4] = tl::fmod(a, b);
      o[5] = tl::fdim(a, b);
      o[6] = tl::fmax(a, b);
      o[7] = tl::fmin(a, b);
      o[8] = tl::div_rn(a, b);
      o[9] = tl::ldexp(a, 3);
      o[10] = tl::clamp(a, -0.5f, 0.5f);
      o[11] = tl::remainder(a, b);
      o[12] = tl::isnan(a) ? 1.0f : 0.0f;
      o[13] = tl::signbit(a) ? 1.0f : 0.0f;
      o[14] = tl::bitcast<float>(tl::umulhi(tl::bitcast<uint32_t>(a), 0x9E3779B9u));
      o[15] = static_cast<float>(tl::cast_rtz<tl::float16>(a));
    }
  }
};
TL_KERNEL(scalars, scalars);
