// tl/dot.h through codegen (kernels/tl_dot.cpp) against plain loops that sum
// in k order: exact for integers, for products exact in the accumulator
// (fp16, bf16), and for fp32 and fp64 with the same contraction the kernel
// was compiled with (separate multiply and add, or FMA). bf16 products on a
// target with AVX512-BF16 (tl/dot_bf16.h) sum each pair of k as k + 1, k, with
// denormals flushed: the reference does the same there, bit for bit. On AMX's
// tiles the order is the unit's own: those results are bounded instead.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compile_target.hpp"
#include "tl_kernel_test_support.hpp"

namespace tcpu::test {
namespace {

enum class Kind { f32, f64, f16, bf16, i8, i32 };
size_t bytes(Kind k) {
  return k == Kind::f64 ? 8 : (k == Kind::f32 || k == Kind::i32) ? 4 : k == Kind::i8 ? 1 : 2;
}

// A row-major matrix of one of the kinds, read and written as doubles (every value of every
// kind is one exactly).
struct Matrix {
  Kind kind;
  int rows, cols;
  std::vector<unsigned char> data;
  Matrix(Kind k, int r, int c)
      : kind(k), rows(r), cols(c), data(static_cast<size_t>(r * c) * bytes(k)) {}
  double get(int i, int j) const {
    const unsigned char* p = data.data() + static_cast<size_t>(i * cols + j) * bytes(kind);
    switch (kind) {
    case Kind::f32: {
      float x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case Kind::f64: {
      double x;
      std::memcpy(&x, p, 8);
      return x;
    }
    case Kind::f16:
    case Kind::bf16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return kind == Kind::f16 ? halfToFloat(h) : bf16ToFloat(h);
    }
    case Kind::i8:
      return static_cast<int8_t>(*p);
    case Kind::i32: {
      int32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
    }
    return 0;
  }
  // Stores x rounded to the kind (to nearest even).
  void set(int i, int j, double x) {
    unsigned char* p = data.data() + static_cast<size_t>(i * cols + j) * bytes(kind);
    switch (kind) {
    case Kind::f32: {
      const float f = static_cast<float>(x);
      std::memcpy(p, &f, 4);
      break;
    }
    case Kind::f64:
      std::memcpy(p, &x, 8);
      break;
    case Kind::f16:
    case Kind::bf16: {
      const uint16_t h = kind == Kind::f16 ? floatToHalf(static_cast<float>(x))
                                           : floatToBf16(static_cast<float>(x));
      std::memcpy(p, &h, 2);
      break;
    }
    case Kind::i8:
      *p = static_cast<unsigned char>(static_cast<int8_t>(x));
      break;
    case Kind::i32: {
      const int32_t v = static_cast<int32_t>(x);
      std::memcpy(p, &v, 4);
      break;
    }
    }
  }
  void* pointer() { return data.data(); }
};

Matrix randomMatrix(Kind k, int rows, int cols, uint32_t seed) {
  Matrix m(k, rows, cols);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> real(-2, 2);
  std::uniform_int_distribution<int> byte(-128, 127);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      m.set(i, j, k == Kind::i8 || k == Kind::i32 ? byte(rng) : real(rng));
  return m;
}

// vdpbf16ps's flush of fp32 denormal results (it reads its inputs' denormals as zero too; none of
// the inputs here is one).
float flushDenormal(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// Whether tl's dot of bf16 [m, k] x [k, n] takes AVX512-BF16's pairs (tl/dot_bf16.h).
bool takesBf16Pairs(Kind in, int n, int k) {
  return in == Kind::bf16 && n % 32 == 0 && k % 2 == 0 && compileTargetHasBf16Dot();
}

// Whether the dot takes AMX's tiles (tl/dot_bf16.h): bf16 blocks in multiples of 32.
bool takesAmx(Kind in, int m, int n, int k) {
  return in == Kind::bf16 && m % 32 == 0 && n % 32 == 0 && k % 32 == 0 && compileTargetHasAmxBf16();
}

// acc + a x b, each element summed in k order in the accumulator type: fp32 for fp32, fp16 and
// bf16 inputs (rounded to fp16 at the end for an fp16 result), fp64 for fp64, integers exactly.
// `fused`: each step one FMA (one rounding), else a product rounded and then a sum rounded.
// `bf16Pairs`: k + 1 before k in each pair (K is even), denormals flushed.
Matrix reference(const Matrix& a, const Matrix& b, const Matrix* acc, Kind out, bool fused,
                 bool bf16Pairs = false) {
  const int m = a.rows, k = a.cols, n = b.cols;
  Matrix c(out, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const double initial = acc ? acc->get(i, j) : 0.0;
      if (a.kind == Kind::i8) {
        int64_t sum = static_cast<int64_t>(initial);
        for (int p = 0; p < k; ++p)
          sum += static_cast<int64_t>(a.get(i, p)) * static_cast<int64_t>(b.get(p, j));
        c.set(i, j, static_cast<double>(sum));
      } else if (a.kind == Kind::f64) {
        double sum = initial;
        for (int p = 0; p < k; ++p) {
          if (fused) {
            sum = std::fma(a.get(i, p), b.get(p, j), sum);
          } else {
            volatile double product = a.get(i, p) * b.get(p, j); // not contracted by the host
            sum = sum + product;
          }
        }
        c.set(i, j, sum);
      } else if (bf16Pairs) {
        float sum = static_cast<float>(initial);
        const auto step = [&](int p) { // an exact product, so fma rounds only the sum
          const float x = static_cast<float>(a.get(i, p)), y = static_cast<float>(b.get(p, j));
          sum = flushDenormal(std::fma(x, y, sum));
        };
        for (int p = 0; p + 1 < k; p += 2) {
          step(p + 1);
          step(p);
        }
        c.set(i, j, sum);
      } else {
        float sum = static_cast<float>(initial);
        for (int p = 0; p < k; ++p) {
          const float x = static_cast<float>(a.get(i, p)), y = static_cast<float>(b.get(p, j));
          if (fused) {
            sum = std::fma(x, y, sum);
          } else {
            volatile float product = x * y;
            sum = sum + product;
          }
        }
        c.set(i, j, sum); // rounds once to fp16 where the result is fp16
      }
    }
  return c;
}

// How the kernel calls dot (tests/kernels/kernels/tl_dot.cpp).
enum class Form {
  withAcc,  // out = dot(a, b, acc)
  noAcc,    // out = dot_out<OutT>(a, b), or dot(a, b)
  into,     // dot_into(acc, a, b); out = acc
  intoSelf, // dot_into(acc, acc, b); out = acc: acc + acc x b (the input a is not read)
};

struct Case {
  const char* name;
  Kind in, out;
  int m, n, k;
  Form form;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"f32_16x16x16", Kind::f32, Kind::f32, 16, 16, 16, Form::withAcc},
      {"f32_64x64x32", Kind::f32, Kind::f32, 64, 64, 32, Form::withAcc},
      {"f32_4x8x2", Kind::f32, Kind::f32, 4, 8, 2, Form::withAcc},
      {"f32_1x2x1", Kind::f32, Kind::f32, 1, 2, 1, Form::withAcc},
      {"f64_16x32x16", Kind::f64, Kind::f64, 16, 32, 16, Form::withAcc},
      {"f16_f32acc_32x16x64", Kind::f16, Kind::f32, 32, 16, 64, Form::withAcc},
      {"f16_f16acc_32x16x64", Kind::f16, Kind::f16, 32, 16, 64, Form::withAcc},
      {"f16_f16acc_2x4x8", Kind::f16, Kind::f16, 2, 4, 8, Form::withAcc},
      {"bf16_f32acc_16x32x32", Kind::bf16, Kind::f32, 16, 32, 32, Form::withAcc},
      {"bf16_f32acc_4x64x2", Kind::bf16, Kind::f32, 4, 64, 2, Form::withAcc},
      {"bf16_f32acc_64x64x128", Kind::bf16, Kind::f32, 64, 64, 128, Form::withAcc},
      {"bf16_f32acc_2x32x1", Kind::bf16, Kind::f32, 2, 32, 1, Form::withAcc},
      {"i8_i32acc_16x16x64", Kind::i8, Kind::i32, 16, 16, 64, Form::withAcc},
      {"i8_i32acc_8x4x2", Kind::i8, Kind::i32, 8, 4, 2, Form::withAcc},
      {"out_f16_from_f16", Kind::f16, Kind::f16, 32, 32, 32, Form::noAcc},
      {"out_f32_from_f16", Kind::f16, Kind::f32, 32, 32, 32, Form::noAcc},
      {"out_i32_from_i8", Kind::i8, Kind::i32, 16, 16, 32, Form::noAcc},
      {"out_f32_from_f32_asked_f16", Kind::f32, Kind::f32, 16, 16, 16, Form::noAcc},
      {"out_f32_from_bf16", Kind::bf16, Kind::f32, 16, 16, 16, Form::noAcc},
      // dot without an accumulator starts its tiles at zero: fp32, int8, and bf16 pairs.
      {"plain_f32_16x32x8", Kind::f32, Kind::f32, 16, 32, 8, Form::noAcc},
      {"plain_i8_8x16x4", Kind::i8, Kind::i32, 8, 16, 4, Form::noAcc},
      {"plain_bf16_4x64x2", Kind::bf16, Kind::f32, 4, 64, 2, Form::noAcc},
      // dot_into: in place, the same values as dot(a, b, acc).
      {"into_f32_64x64x32", Kind::f32, Kind::f32, 64, 64, 32, Form::into},
      {"into_f16_32x16x64", Kind::f16, Kind::f32, 32, 16, 64, Form::into},
      {"into_bf16_4x64x2", Kind::bf16, Kind::f32, 4, 64, 2, Form::into},
      {"into_i8_8x4x2", Kind::i8, Kind::i32, 8, 4, 2, Form::into},
      {"into_self_f32_16x64x64", Kind::f32, Kind::f32, 16, 64, 64, Form::intoSelf},
  };
  return all;
}

class TlDot : public TlKernelTest {
protected:
  TlDot() : TlKernelTest("tl_dot.bc") {}
  // The kernels compiled with FMA contraction (the default) or without.
  tcpuModule module(bool contract) {
    tcpuModule& cached = contract ? contracted_ : separate_;
    if (!cached) {
      tcpuJitOption option = TCPU_JIT_FP_CONTRACT;
      void* value = reinterpret_cast<void*>(static_cast<uintptr_t>(contract ? 1 : 0));
      cached = loadKernels(1, &option, &value);
    }
    return cached;
  }
  void check(const Case& c, bool contract, uint32_t seed) {
    Matrix acc = randomMatrix(c.out, c.m, c.n, seed + 2);
    // dot_into(acc, acc, b) multiplies acc itself.
    const Matrix a = c.form == Form::intoSelf ? acc : randomMatrix(c.in, c.m, c.k, seed);
    const Matrix b = randomMatrix(c.in, c.k, c.n, seed + 1);
    Matrix out(c.out, c.m, c.n);
    Matrix ca = a, cb = b;
    const tcpuFunction f = function(module(contract), c.name);
    const tcpuResult result =
        c.form == Form::noAcc
            ? launch(f, 1, 1, 1, ca.pointer(), cb.pointer(), out.pointer())
            : launch(f, 1, 1, 1, ca.pointer(), cb.pointer(), acc.pointer(), out.pointer());
    ASSERT_TCPU(result);
    const bool withAcc = c.form != Form::noAcc;
    // The kernels fuse where their target has FMA and contraction is on. Products of fp16, bf16
    // and int8 are exact, so fusing does not change them.
    const bool fused = contract && test::compileTargetHasFma();
    const Matrix want =
        reference(a, b, withAcc ? &acc : nullptr, c.out, fused, takesBf16Pairs(c.in, c.n, c.k));
    // On AMX: each element within the bound of any order of fp32 sums of exact products,
    // k * 2^-24 * (|acc| + sum |a b|) (one rounding per add), of the fp64 sum.
    const bool bounded = takesAmx(c.in, c.m, c.n, c.k);
    const auto agrees = [&](int i, int j) {
      if (!bounded) return out.get(i, j) == want.get(i, j);
      double exact = withAcc ? acc.get(i, j) : 0.0, magnitude = std::fabs(exact);
      for (int p = 0; p < c.k; ++p) {
        exact += a.get(i, p) * b.get(p, j);
        magnitude += std::fabs(a.get(i, p) * b.get(p, j));
      }
      return std::fabs(out.get(i, j) - exact) <= c.k * 0x1p-24 * magnitude;
    };
    int failures = 0;
    for (int i = 0; i < c.m && failures < 5; ++i)
      for (int j = 0; j < c.n && failures < 5; ++j)
        if (!agrees(i, j)) {
          ++failures;
          ADD_FAILURE() << c.name << (contract ? " (contracted)" : "") << " [" << i << ", " << j
                        << "] = " << out.get(i, j) << ", want " << want.get(i, j);
        }
  }
  tcpuModule contracted_ = nullptr, separate_ = nullptr;
};

TEST_F(TlDot, SumsInKOrderWithoutContraction) {
  uint32_t seed = 100;
  for (const Case& c : cases())
    check(c, false, seed += 10);
}

TEST_F(TlDot, SumsInKOrderWithFma) {
  uint32_t seed = 500;
  for (const Case& c : cases())
    check(c, true, seed += 10);
}

} // namespace
} // namespace tcpu::test
