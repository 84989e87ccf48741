// tl/math_extra.h through codegen (kernels/tl_math_extra.cpp), against the
// host's libm: exact functions bit for bit, SLEEF's within its documented
// bounds of a long double reference, 16-bit floats as fp32 rounded once.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "compile_target.hpp"
#include "tl_kernel_test_support.hpp"

namespace tcpu::test {
namespace {

using L = long double;

// The element types, as host values: every one of them is a double exactly.
enum class Type { f32, f64, f16, bf16 };
const char* prefix(Type t) {
  return t == Type::f32 ? "f32" : t == Type::f64 ? "f64" : t == Type::f16 ? "f16" : "bf16";
}
size_t bytes(Type t) {
  return t == Type::f64 ? 8 : t == Type::f32 ? 4 : 2;
}

// The nearest value of type t (ties to even): what a store of fp32 x rounds to.
double roundTo(Type t, double x) {
  switch (t) {
  case Type::f64:
    return x;
  case Type::f32:
    return static_cast<float>(x);
  case Type::f16:
    return halfToFloat(floatToHalf(static_cast<float>(x)));
  case Type::bf16:
    return bf16ToFloat(floatToBf16(static_cast<float>(x)));
  }
  return x;
}

// A buffer of n elements of type t.
struct Buffer {
  Type type;
  std::vector<unsigned char> data;
  Buffer(Type t, size_t n) : type(t), data(n * bytes(t)) {}
  void set(size_t i, double x) { // x must be of type t already (roundTo)
    unsigned char* p = data.data() + i * bytes(type);
    if (type == Type::f64) {
      std::memcpy(p, &x, 8);
    } else if (type == Type::f32) {
      const float f = static_cast<float>(x);
      std::memcpy(p, &f, 4);
    } else {
      const uint16_t h = type == Type::f16 ? floatToHalf(static_cast<float>(x))
                                           : floatToBf16(static_cast<float>(x));
      std::memcpy(p, &h, 2);
    }
  }
  double get(size_t i) const {
    const unsigned char* p = data.data() + i * bytes(type);
    if (type == Type::f64) {
      double x;
      std::memcpy(&x, p, 8);
      return x;
    }
    if (type == Type::f32) {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, p, 2);
    return type == Type::f16 ? halfToFloat(h) : bf16ToFloat(h);
  }
  void* pointer() { return data.data(); }
};

// Same value: both NaN, or equal with the same sign (so -0 is not +0).
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// Where the CPU has AVX512-BF16, LLVM converts fp32 to bf16 with VCVTNEPS2BF16, which flushes
// subnormals to zero: in the conversion of every bf16 result (core.h's casts), and in bf16
// operations the optimizer narrows fp32 ones to (fabs(fpext x) becomes fpext(fabs x)), which the
// back end computes in fp32 and converts back. So on such CPUs bf16 subnormals are zeros. A
// subnormal bf16 result is accepted as the zero of its sign, and subnormal bf16 operands are not
// checked (a property of bf16 on those CPUs, not of these functions; fp16 and the rest keep
// subnormals, and are checked with them).
bool bf16Flushed(Type t, double got, double want) {
  return t == Type::bf16 && std::fabs(want) < 0x1p-126 && got == 0 &&
         std::signbit(got) == std::signbit(want);
}
bool bf16Subnormal(Type t, double x) {
  return t == Type::bf16 && x != 0 && std::fabs(x) < 0x1p-126;
}

struct Format {
  int precision, minExponent;
  double maxFinite;
};
Format formatOf(Type t) {
  switch (t) {
  case Type::f32:
    return {24, -126, FLT_MAX};
  case Type::f64:
    return {53, -1022, DBL_MAX};
  case Type::f16:
    return {11, -14, 65504.0};
  case Type::bf16:
    return {8, -126, 0x1.fep127};
  }
  return {};
}
// |result - reference| in units of the last place of the reference's binade (subnormals: the
// smallest one).
double ulpError(double result, L reference, Type t) {
  const Format f = formatOf(t);
  const int exponent =
      reference == 0 ? f.minExponent : std::max(std::ilogb(reference), f.minExponent);
  const L ulp = std::ldexp(1.0L, exponent - (f.precision - 1));
  return static_cast<double>(std::fabs(static_cast<L>(result) - reference) / ulp);
}

// A function of the kernels and how it is checked. bound < 0: exact, the host's libm result
// (fp32 or fp64; for 16-bit floats the fp32 result rounded once) bit for bit. bound >= 0: SLEEF's
// documented error bound in ULP for fp32 and fp64 against a long double reference.
struct Case {
  const char* name;
  int arity;
  double bound;
  L (*reference)(L, L);
  float (*f32)(float, float);
  double (*f64)(double, double);
  // Random inputs: [lo, hi] for the first operand and [lo2, hi2] for the second, for fp32 and
  // bf16, fp64 and fp16 (ranges where the functions' results are finite and interesting).
  double lo, hi, lo2, hi2;
  double lo64, hi64, lo64b, hi64b;
  double lo16, hi16, lo16b, hi16b;
};

// SLEEF's bounds (sleef.org's reference for its 3.5 library): 1.0 ULP for the u10 functions,
// 1.5 for erfc (u15), 0.5001 for hypot (u05). The long double reference is itself good to 2^-64
// relative, 2^-11 of a double ULP, which the 0.001 of slack covers.
constexpr double kU10 = 1.0 + 0.001, kU15 = 1.5 + 0.001, kU05 = 0.5001 + 0.001;

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"trunc", 1, -1, nullptr, [](float a, float) { return std::trunc(a); },
       [](double a, double) { return std::trunc(a); }, -1e9, 1e9, 0, 0, -1e18, 1e18, 0, 0, -6e4,
       6e4, 0, 0},
      {"round", 1, -1, nullptr, [](float a, float) { return std::round(a); },
       [](double a, double) { return std::round(a); }, -100, 100, 0, 0, -1e17, 1e17, 0, 0, -3000,
       3000, 0, 0},
      {"rint", 1, -1, nullptr, [](float a, float) { return std::rint(a); },
       [](double a, double) { return std::rint(a); }, -100, 100, 0, 0, -1e17, 1e17, 0, 0, -3000,
       3000, 0, 0},
      {"nearbyint", 1, -1, nullptr, [](float a, float) { return std::nearbyint(a); },
       [](double a, double) { return std::nearbyint(a); }, -100, 100, 0, 0, -1e17, 1e17, 0, 0,
       -3000, 3000, 0, 0},
      {"fabs", 1, -1, nullptr, [](float a, float) { return std::fabs(a); },
       [](double a, double) { return std::fabs(a); }, -1e9, 1e9, 0, 0, -1e300, 1e300, 0, 0, -6e4,
       6e4, 0, 0},
      {"sqrt_rn", 1, -1, nullptr, [](float a, float) { return std::sqrt(a); },
       [](double a, double) { return std::sqrt(a); }, 0, 1e30, 0, 0, 0, 1e300, 0, 0, 0, 6e4, 0, 0},
      {"exp10", 1, kU10, [](L a, L) { return std::pow(10.0L, a); }, nullptr, nullptr, -44, 38.5, 0,
       0, -322, 308.2, 0, 0, -8, 4.8, 0, 0},
      {"erfc", 1, kU15, [](L a, L) { return std::erfc(a); }, nullptr, nullptr, -4, 10.1, 0, 0, -6,
       27.2, 0, 0, -3, 4.2, 0, 0},
      {"lgamma", 1, kU10, [](L a, L) { return std::lgamma(a); }, nullptr, nullptr, 1e-3, 1e4, 0, 0,
       1e-3, 1e5, 0, 0, 1e-3, 1000, 0, 0},
      {"tgamma", 1, kU10, [](L a, L) { return std::tgamma(a); }, nullptr, nullptr, 0.01, 34, 0, 0,
       0.01, 170, 0, 0, 0.01, 8, 0, 0},
      {"asinh", 1, kU10, [](L a, L) { return std::asinh(a); }, nullptr, nullptr, -1e5, 1e5, 0, 0,
       -1e5, 1e5, 0, 0, -1e4, 1e4, 0, 0},
      {"acosh", 1, kU10, [](L a, L) { return std::acosh(a); }, nullptr, nullptr, 1, 1e5, 0, 0, 1,
       1e5, 0, 0, 1, 1e4, 0, 0},
      {"atanh", 1, kU10, [](L a, L) { return std::atanh(a); }, nullptr, nullptr, -0.9999, 0.9999, 0,
       0, -0.9999, 0.9999, 0, 0, -0.999, 0.999, 0, 0},
      {"atan2", 2, kU10, [](L a, L b) { return std::atan2(a, b); }, nullptr, nullptr, -10, 10, -10,
       10, -10, 10, -10, 10, -10, 10, -10, 10},
      {"hypot", 2, kU05, [](L a, L b) { return std::hypot(a, b); }, nullptr, nullptr, -1e3, 1e3,
       -1e3, 1e3, -1e3, 1e3, -1e3, 1e3, -200, 200, -200, 200},
      {"fmod", 2, -1, nullptr, [](float a, float b) { return std::fmod(a, b); },
       [](double a, double b) { return std::fmod(a, b); }, -1e6, 1e6, -100, 100, -1e15, 1e15, -100,
       100, -6e4, 6e4, -100, 100},
      {"remainder", 2, -1, nullptr, [](float a, float b) { return std::remainder(a, b); },
       [](double a, double b) { return std::remainder(a, b); }, -1e6, 1e6, -100, 100, -1e15, 1e15,
       -100, 100, -6e4, 6e4, -100, 100},
      {"copysign", 2, -1, nullptr, [](float a, float b) { return std::copysign(a, b); },
       [](double a, double b) { return std::copysign(a, b); }, -1e3, 1e3, -1, 1, -1e3, 1e3, -1, 1,
       -1e3, 1e3, -1, 1},
      {"fdim", 2, -1, nullptr, [](float a, float b) { return std::fdim(a, b); },
       [](double a, double b) { return std::fdim(a, b); }, -1e3, 1e3, -1e3, 1e3, -1e3, 1e3, -1e3,
       1e3, -1e3, 1e3, -1e3, 1e3},
      {"fmax", 2, -1, nullptr, [](float a, float b) { return std::fmax(a, b); },
       [](double a, double b) { return std::fmax(a, b); }, -1e3, 1e3, -1e3, 1e3, -1e3, 1e3, -1e3,
       1e3, -1e3, 1e3, -1e3, 1e3},
      {"fmin", 2, -1, nullptr, [](float a, float b) { return std::fmin(a, b); },
       [](double a, double b) { return std::fmin(a, b); }, -1e3, 1e3, -1e3, 1e3, -1e3, 1e3, -1e3,
       1e3, -1e3, 1e3, -1e3, 1e3},
      {"div_rn", 2, -1, nullptr, [](float a, float b) { return a / b; },
       [](double a, double b) { return a / b; }, -1e3, 1e3, -1e3, 1e3, -1e3, 1e3, -1e3, 1e3, -1e3,
       1e3, -1e3, 1e3},
      {"fdiv", 2, -1, nullptr, [](float a, float b) { return a / b; },
       [](double a, double b) { return a / b; }, -1e30, 1e30, -1e-5, 1e-5, -1e300, 1e300, -1e-5,
       1e-5, -1e3, 1e3, -1e-2, 1e-2},
  };
  return all;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Inputs every function sees besides the random ones: zeros, infinities, NaN, halfway cases of
// rounding (0.5, 2.5, 0.49999997, 2^23 + 1), a subnormal, and a few ordinary values.
const std::vector<double> kSpecials = {
    0.0,    -0.0, INFINITY, -INFINITY, NAN,         1.0,  -1.0,       0.5,       -0.5,
    1.5,    -1.5, 2.5,      -2.5,      3.0,         -3.0, 0.49999997, 8388609.0, 1e-40,
    -1e-40, 7.0,  100.0,    -0.75,     0x1.8p-1000, 1e30, 3e38,       -1e300};

class TlMathExtra : public TlKernelTest {
protected:
  TlMathExtra() : TlKernelTest("tl_math_extra.bc") {}
};

unsigned gridFor(size_t n) {
  return static_cast<unsigned>((n + 127) / 128);
}

// The inputs of a case for type t: specials (all pairs of them for two operands), then random
// values in the case's ranges, each rounded to t.
void makeInputs(const Case& c, Type t, std::vector<double>& x, std::vector<double>& y) {
  for (double a : kSpecials) {
    if (c.arity == 1) {
      x.push_back(roundTo(t, a));
      y.push_back(0);
      continue;
    }
    for (double b : kSpecials) {
      x.push_back(roundTo(t, a));
      y.push_back(roundTo(t, b));
    }
  }
  double lo = c.lo, hi = c.hi, lo2 = c.lo2, hi2 = c.hi2;
  if (t == Type::f64) lo = c.lo64, hi = c.hi64, lo2 = c.lo64b, hi2 = c.hi64b;
  if (t == Type::f16) lo = c.lo16, hi = c.hi16, lo2 = c.lo16b, hi2 = c.hi16b;
  std::mt19937_64 rng(std::hash<std::string>{}(c.name) + static_cast<unsigned>(t));
  std::uniform_real_distribution<double> first(lo, hi), second(lo2, hi2);
  for (int k = 0; k < 5000; ++k) {
    x.push_back(roundTo(t, first(rng)));
    y.push_back(roundTo(t, c.arity == 2 ? second(rng) : 0));
  }
}

// Runs <type>_<name> over x (and y).
std::vector<double> run(TlMathExtra& test, const Case& c, Type t, const std::vector<double>& x,
                        const std::vector<double>& y) {
  Buffer bx(t, x.size()), by(t, y.size()), out(t, x.size());
  for (size_t i = 0; i < x.size(); ++i)
    bx.set(i, x[i]), by.set(i, y[i]);
  const int32_t n = static_cast<int32_t>(x.size());
  const std::string name = std::string(prefix(t)) + "_" + c.name;
  void *px = bx.pointer(), *py = by.pointer(), *po = out.pointer();
  const tcpuResult result =
      c.arity == 1 ? test.launch(test.kernel(name), gridFor(x.size()), 1, 1, px, po, n)
                   : test.launch(test.kernel(name), gridFor(x.size()), 1, 1, px, py, po, n);
  EXPECT_EQ(result, TCPU_SUCCESS) << name << ": " << tcpuGetLastErrorDetail();
  std::vector<double> values(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    values[i] = out.get(i);
  return values;
}

// The exact functions against the host's libm, bit for bit.
TEST_F(TlMathExtra, ExactFunctionsMatchLibmBitForBit) {
  for (const Case& c : cases()) {
    if (c.bound >= 0) continue;
    for (Type t : {Type::f32, Type::f64, Type::f16, Type::bf16}) {
      std::vector<double> x, y;
      makeInputs(c, t, x, y);
      const std::vector<double> got = run(*this, c, t, x, y);
      int failures = 0;
      for (size_t i = 0; i < x.size() && failures < 5; ++i) {
        if (bf16Subnormal(t, x[i]) || bf16Subnormal(t, y[i])) continue;
        // 16-bit floats: the fp32 result, rounded once.
        const double want =
            t == Type::f64 ? c.f64(x[i], y[i])
                           : roundTo(t, c.f32(static_cast<float>(x[i]), static_cast<float>(y[i])));
        // C leaves the sign of fmax(+0, -0) and fmin(+0, -0) to the implementation.
        const bool zeros = (std::string(c.name) == "fmax" || std::string(c.name) == "fmin") &&
                           want == 0 && got[i] == 0;
        if (!zeros && !same(got[i], want) && !bf16Flushed(t, got[i], want)) {
          ++failures;
          ADD_FAILURE() << prefix(t) << "_" << c.name << "(" << x[i] << ", " << y[i]
                        << ") = " << got[i] << ", libm gives " << want;
        }
      }
    }
  }
}

// SLEEF's functions within its documented bounds (16-bit floats: half a ULP of the rounding plus
// the fp32 bound scaled to their ULP), and special values as C99 says.
TEST_F(TlMathExtra, SleefFunctionsAreWithinTheirBounds) {
  for (const Case& c : cases()) {
    if (c.bound < 0) continue;
    for (Type t : {Type::f32, Type::f64, Type::f16, Type::bf16}) {
      std::vector<double> x, y;
      makeInputs(c, t, x, y);
      const std::vector<double> got = run(*this, c, t, x, y);
      const Format f = formatOf(t);
      const double bound = t == Type::f32 || t == Type::f64
                               ? c.bound
                               : 0.5 + std::ldexp(c.bound, f.precision - 24) + 0.001;
      double worst = 0;
      int failures = 0;
      for (size_t i = 0; i < x.size() && failures < 5; ++i) {
        if (bf16Subnormal(t, x[i]) || bf16Subnormal(t, y[i])) continue;
        const L reference = c.reference(x[i], y[i]);
        if (std::isnan(reference) || std::isinf(reference)) {
          // NaN and infinities exactly (SLEEF follows C99 on them).
          if (!same(got[i], static_cast<double>(reference))) {
            ++failures;
            ADD_FAILURE() << prefix(t) << "_" << c.name << "(" << x[i] << ", " << y[i]
                          << ") = " << got[i] << ", want " << static_cast<double>(reference);
          }
          continue;
        }
        // Results beyond the largest finite value are overflow, not accuracy.
        if (std::fabs(reference) > f.maxFinite) continue;
        if (bf16Flushed(t, got[i], static_cast<double>(reference))) continue;
        const double error = ulpError(got[i], reference, t);
        worst = std::max(worst, error);
        if (!(error <= bound)) {
          ++failures;
          ADD_FAILURE() << prefix(t) << "_" << c.name << "(" << x[i] << ", " << y[i]
                        << ") = " << got[i] << ", reference " << static_cast<double>(reference)
                        << ": " << error << " ULP > " << bound;
        }
      }
      RecordProperty(std::string("max_ulp_") + prefix(t) + "_" + c.name, std::to_string(worst));
    }
  }
}

// Codegen maps the functions to SLEEF's vector functions. (Not fmod and remainder: SLEEF 3.5's
// are not exact where |x / y| overflows, so they go through libm's fmod; the exactness test
// above covers those inputs.)
TEST_F(TlMathExtra, SleefFunctionsAreVectorCalls) {
  const char* text = nullptr;
  ASSERT_TCPU(tcpuModuleGetText(&text, module(), TCPU_MODULE_TEXT_ASSEMBLY));
  const std::string assembly = text;
  for (const char* name :
       {"exp10", "erfc", "lgamma", "tgamma", "asinh", "acosh", "atanh", "atan2", "hypot"}) {
    for (const char* type : {"f", "d"}) {
      bool vector = false;
      for (const char* lanes : {"2_", "4_", "8_", "16_"})
        vector = vector ||
                 assembly.find(std::string("Sleef_") + name + type + lanes) != std::string::npos;
      // On the x86-64 baseline (SSE2, no blends) LLVM's cost model keeps acosh, whose large
      // arguments take another formula (a select), scalar: SLEEF's scalar function, still SLEEF's.
      if (!vector && !test::compileTargetHasBlends() && std::string_view(name) == "acosh") {
        EXPECT_NE(assembly.find(std::string("Sleef_") + name + type + "1_"), std::string::npos)
            << name << type << ": no SLEEF call in the assembly";
        continue;
      }
      EXPECT_TRUE(vector) << name << type << ": no SLEEF vector call in the assembly";
    }
  }
}

// libm's ldexp for fp64; for the narrower types the product is exact in fp64 wherever the result
// can be finite and nonzero in them, so rounding it once is the correctly rounded result.
double ldexpWant(Type t, double x, int32_t e) {
  return roundTo(t, std::ldexp(x, e));
}

TEST_F(TlMathExtra, LdexpRoundsOnceLikeLibm) {
  std::mt19937 rng(11);
  for (Type t : {Type::f32, Type::f64, Type::f16, Type::bf16}) {
    std::vector<double> x;
    std::vector<int32_t> e;
    const int32_t exponents[] = {0,    1,   -1,  10,   -10,       100,       -100,  -126, -149,
                                 -150, 127, 128, 1023, -1022,     -1074,     -1075, 2000, -2000,
                                 -24,  -25, 15,  16,   INT32_MAX, INT32_MIN, -1100, -1080};
    for (double a : kSpecials)
      for (int32_t k : exponents)
        x.push_back(roundTo(t, a)), e.push_back(k);
    // Values whose scaled results are subnormal ties and near-ties: odd significands.
    std::uniform_int_distribution<int32_t> exponent(t == Type::f64 ? -1100 : -160,
                                                    t == Type::f64 ? 1100 : 160);
    std::uniform_real_distribution<double> value(-4, 4);
    for (int k = 0; k < 20000; ++k)
      x.push_back(roundTo(t, value(rng))), e.push_back(exponent(rng));
    Buffer bx(t, x.size()), out(t, x.size());
    for (size_t i = 0; i < x.size(); ++i)
      bx.set(i, x[i]);
    const std::string name = std::string(prefix(t)) + "_ldexp";
    ASSERT_TCPU(launch(kernel(name), gridFor(x.size()), 1, 1, bx.pointer(), e.data(), out.pointer(),
                       static_cast<int32_t>(x.size())));
    int failures = 0;
    for (size_t i = 0; i < x.size() && failures < 5; ++i)
      if (!bf16Subnormal(t, x[i]) && !same(out.get(i), ldexpWant(t, x[i], e[i])) &&
          !bf16Flushed(t, out.get(i), ldexpWant(t, x[i], e[i]))) {
        ++failures;
        ADD_FAILURE() << name << "(" << x[i] << ", " << e[i] << ") = " << out.get(i) << ", want "
                      << ldexpWant(t, x[i], e[i]);
      }
  }
}

TEST_F(TlMathExtra, ClampIsMinOfMaxWithoutNan) {
  for (Type t : {Type::f32, Type::f64, Type::f16}) {
    std::vector<double> x, lo, hi;
    for (double a : kSpecials)
      for (double b : {-1.0, -0.0, 0.0, 2.0, -kInf, kNan})
        for (double c : {-0.5, 0.0, 3.0, kInf})
          x.push_back(roundTo(t, a)), lo.push_back(roundTo(t, b)), hi.push_back(roundTo(t, c));
    const size_t n = x.size();
    Buffer bx(t, n), blo(t, n), bhi(t, n), out(t, n), outScalar(t, n);
    for (size_t i = 0; i < n; ++i)
      bx.set(i, x[i]), blo.set(i, lo[i]), bhi.set(i, hi[i]);
    const std::string name = std::string(prefix(t)) + "_clamp";
    const double lo0 = -1.5, hi0 = 2.5;
    void *px = bx.pointer(), *plo = blo.pointer(), *phi = bhi.pointer(), *po = out.pointer(),
         *ps = outScalar.pointer();
    tcpuResult result;
    if (t == Type::f64) {
      result = launch(kernel(name), gridFor(n), 1, 1, px, plo, phi, lo0, hi0, po, ps,
                      static_cast<int32_t>(n));
    } else if (t == Type::f32) {
      result = launch(kernel(name), gridFor(n), 1, 1, px, plo, phi, static_cast<float>(lo0),
                      static_cast<float>(hi0), po, ps, static_cast<int32_t>(n));
    } else {
      result =
          launch(kernel(name), gridFor(n), 1, 1, px, plo, phi, floatToHalf(static_cast<float>(lo0)),
                 floatToHalf(static_cast<float>(hi0)), po, ps, static_cast<int32_t>(n));
    }
    ASSERT_TCPU(result);
    for (size_t i = 0; i < n; ++i) {
      const double want = std::fmin(std::fmax(x[i], lo[i]), hi[i]);
      const double wantScalar = std::fmin(std::fmax(x[i], lo0), hi0);
      // As fmax/fmin, the sign of a zero between +0 and -0 is the implementation's.
      EXPECT_TRUE(same(out.get(i), want) || (want == 0 && out.get(i) == 0))
          << name << "(" << x[i] << ", " << lo[i] << ", " << hi[i] << ") = " << out.get(i);
      EXPECT_TRUE(same(outScalar.get(i), wantScalar) || (wantScalar == 0 && outScalar.get(i) == 0))
          << name << "(" << x[i] << ", " << lo0 << ", " << hi0 << ") = " << outScalar.get(i);
    }
  }
}

TEST_F(TlMathExtra, ClassificationGivesBoolBlocks) {
  for (Type t : {Type::f32, Type::f64, Type::f16, Type::bf16}) {
    const size_t n = kSpecials.size() + 200;
    Buffer bx(t, n);
    std::vector<double> x(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = roundTo(t, i < kSpecials.size() ? kSpecials[i]
                                             : (static_cast<double>(i) - 100) * 1e36 / 7);
      bx.set(i, x[i]);
    }
    std::vector<unsigned char> nan(n, 7), inf(n, 7), finite(n, 7), sign(n, 7);
    const std::string name = std::string(prefix(t)) + "_classify";
    ASSERT_TCPU(launch(kernel(name), gridFor(n), 1, 1, bx.pointer(), nan.data(), inf.data(),
                       finite.data(), sign.data(), static_cast<int32_t>(n)));
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(nan[i], std::isnan(x[i]) ? 1 : 0) << name << " " << x[i];
      EXPECT_EQ(inf[i], std::isinf(x[i]) ? 1 : 0) << name << " " << x[i];
      EXPECT_EQ(finite[i], std::isfinite(x[i]) ? 1 : 0) << name << " " << x[i];
      EXPECT_EQ(sign[i], std::signbit(x[i]) ? 1 : 0) << name << " " << x[i];
    }
  }
  const std::vector<int32_t> ints = {0, 1, -1, INT32_MIN, INT32_MAX, 42, -42};
  const size_t n = ints.size();
  std::vector<unsigned char> nan(n, 7), inf(n, 7), finite(n, 7), sign(n, 7);
  ASSERT_TCPU(launch(kernel("i32_classify"), 1, 1, 1, ints.data(), nan.data(), inf.data(),
                     finite.data(), sign.data(), static_cast<int32_t>(n)));
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(nan[i], 0);
    EXPECT_EQ(inf[i], 0);
    EXPECT_EQ(finite[i], 1);
    EXPECT_EQ(sign[i], ints[i] < 0 ? 1 : 0) << ints[i];
  }
}

// The high 64 bits of a 64 x 64-bit product, from 32-bit halves (independent of the kernels'
// 128-bit arithmetic).
uint64_t high64(uint64_t a, uint64_t b) {
  const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  const uint64_t low = a0 * b0, mid1 = a1 * b0, mid2 = a0 * b1;
  const uint64_t carry = ((low >> 32) + (mid1 & 0xffffffffu) + (mid2 & 0xffffffffu)) >> 32;
  return a1 * b1 + (mid1 >> 32) + (mid2 >> 32) + carry;
}

template <class T>
void checkMulhi(TlMathExtra& test, const char* name) {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = 8 * sizeof(T);
  std::vector<T> x, y;
  const T edges[] = {
      T(0),     T(1),     T(-1), T(2), std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
      T(12345), T(-98765)};
  for (T a : edges)
    for (T b : edges)
      x.push_back(a), y.push_back(b);
  std::mt19937_64 rng(7);
  for (int k = 0; k < 3000; ++k)
    x.push_back(static_cast<T>(rng())), y.push_back(static_cast<T>(rng()));
  const size_t n = x.size();
  const T scalar = static_cast<T>(0x9E3779B97F4A7C15ull);
  std::vector<T> high(n), signedHigh(n), scalarHigh(n);
  ASSERT_TCPU(test.launch(test.kernel(name), gridFor(n), 1, 1, x.data(), y.data(), scalar,
                          high.data(), signedHigh.data(), scalarHigh.data(),
                          static_cast<int32_t>(n)));
  const auto unsignedHigh = [](T a, T b) -> U {
    if constexpr (bits == 64)
      return static_cast<U>(high64(static_cast<U>(a), static_cast<U>(b)));
    else
      return static_cast<U>((static_cast<uint64_t>(static_cast<U>(a)) * static_cast<U>(b)) >> bits);
  };
  for (size_t i = 0; i < n; ++i) {
    const U hu = unsignedHigh(x[i], y[i]);
    // The signed product's high half: the unsigned one less b where a < 0 and a where b < 0.
    U hs = hu;
    if (x[i] < T(0)) hs = static_cast<U>(hs - static_cast<U>(y[i]));
    if (y[i] < T(0)) hs = static_cast<U>(hs - static_cast<U>(x[i]));
    EXPECT_EQ(static_cast<U>(high[i]), hu) << name << " umulhi(" << x[i] << ", " << y[i] << ")";
    EXPECT_EQ(static_cast<U>(signedHigh[i]), hs)
        << name << " mulhi(" << x[i] << ", " << y[i] << ")";
    EXPECT_EQ(static_cast<U>(scalarHigh[i]), unsignedHigh(x[i], scalar)) << name;
  }
}

TEST_F(TlMathExtra, UmulhiIsTheHighHalfOfTheProduct) {
  checkMulhi<int32_t>(*this, "i32_mulhi");
  checkMulhi<uint32_t>(*this, "u32_mulhi");
  checkMulhi<int64_t>(*this, "i64_mulhi");
  checkMulhi<uint64_t>(*this, "u64_mulhi");
}

TEST_F(TlMathExtra, BitcastKeepsEveryBit) {
  std::mt19937_64 rng(5);
  const size_t n = 300;
  std::vector<float> f(n);
  std::vector<double> d(n);
  std::vector<uint16_t> h(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    const uint32_t r32 = static_cast<uint32_t>(r);
    std::memcpy(&f[i], &r32, 4); // any bits, NaN payloads included
    std::memcpy(&d[i], &r, 8);
    h[i] = static_cast<uint16_t>(r >> 8);
    b[i] = static_cast<uint16_t>(r >> 24);
  }
  std::vector<int32_t> fBits(n);
  std::vector<float> fBack(n);
  std::vector<uint64_t> dBits(n);
  std::vector<double> dBack(n);
  std::vector<int16_t> hBits(n);
  std::vector<uint16_t> bBits(n), bBack(n);
  ASSERT_TCPU(launch(kernel("bitcasts"), gridFor(n), 1, 1, f.data(), fBits.data(), fBack.data(),
                     d.data(), dBits.data(), dBack.data(), h.data(), hBits.data(), b.data(),
                     bBits.data(), bBack.data(), static_cast<int32_t>(n)));
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(std::memcmp(&fBits[i], &f[i], 4), 0) << i;
    EXPECT_EQ(std::memcmp(&fBack[i], &f[i], 4), 0) << i;
    EXPECT_EQ(std::memcmp(&dBits[i], &d[i], 8), 0) << i;
    EXPECT_EQ(std::memcmp(&dBack[i], &d[i], 8), 0) << i;
    EXPECT_EQ(static_cast<uint16_t>(hBits[i]), h[i]) << i;
    EXPECT_EQ(bBits[i], b[i]) << i;
    EXPECT_EQ(bBack[i], b[i]) << i;
  }
}

// x rounded toward zero to `precision` significant bits with the given exponent range, as a
// double: the largest finite magnitude where it is exceeded (round-toward-zero never overflows).
double towardZero(double x, const Format& f) {
  if (!std::isfinite(x) || x == 0) return x;
  if (std::fabs(x) >= f.maxFinite) return std::copysign(f.maxFinite, x);
  const int exponent = std::max(std::ilogb(x), f.minExponent);
  const double quantum = std::ldexp(1.0, exponent - (f.precision - 1));
  return std::trunc(x / quantum) * quantum; // scaling by powers of two and trunc are exact
}

TEST_F(TlMathExtra, CastRtzTruncatesTowardZero) {
  std::mt19937 rng(9);
  std::vector<float> f;
  std::vector<double> d;
  for (double s : kSpecials)
    f.push_back(static_cast<float>(s)), d.push_back(s);
  const double edges[] = {65504.0, 65519.99, 65520.0, 70000.0, -65535.0, 0x1p-24, 0x1.8p-25,
                          0x1p-25, 0x1p-133, 3.4e38,  -3.5e38, 1e300,    -1e-300, 0x1.ffffffp-1};
  for (double e : edges)
    f.push_back(static_cast<float>(e)), d.push_back(e);
  std::uniform_int_distribution<uint32_t> bits32;
  std::uniform_int_distribution<uint64_t> bits64;
  for (int k = 0; k < 5000; ++k) {
    const uint32_t b = bits32(rng);
    float x;
    std::memcpy(&x, &b, 4);
    f.push_back(x);
    const uint64_t c = bits64(rng);
    double y;
    std::memcpy(&y, &c, 8);
    d.push_back(y);
  }
  const size_t n = d.size();
  std::vector<uint16_t> fh(n), fb(n), dh(n), db(n);
  std::vector<float> df(n);
  ASSERT_TCPU(launch(kernel("casts_rtz"), gridFor(n), 1, 1, f.data(), fh.data(), fb.data(),
                     d.data(), df.data(), dh.data(), db.data(), static_cast<int32_t>(n)));
  const Format f16 = formatOf(Type::f16), bf16 = formatOf(Type::bf16), f32 = formatOf(Type::f32);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(same(halfToFloat(fh[i]), towardZero(f[i], f16))) << "fp32 -> fp16 of " << f[i];
    EXPECT_TRUE(same(bf16ToFloat(fb[i]), towardZero(f[i], bf16))) << "fp32 -> bf16 of " << f[i];
    EXPECT_TRUE(same(df[i], towardZero(d[i], f32))) << "fp64 -> fp32 of " << d[i];
    EXPECT_TRUE(same(halfToFloat(dh[i]), towardZero(d[i], f16))) << "fp64 -> fp16 of " << d[i];
    EXPECT_TRUE(same(bf16ToFloat(db[i]), towardZero(d[i], bf16))) << "fp64 -> bf16 of " << d[i];
  }
}

TEST_F(TlMathExtra, ScalarFormsMatchLibm) {
  std::vector<float> x, y;
  for (double a : kSpecials)
    for (double b : {2.0, -0.75, 0.0, kInf, kNan})
      x.push_back(static_cast<float>(a)), y.push_back(static_cast<float>(b));
  const size_t n = x.size();
  std::vector<float> out(16 * n);
  ASSERT_TCPU(
      launch(kernel("scalars"), 1, 1, 1, x.data(), y.data(), out.data(), static_cast<int32_t>(n)));
  for (size_t k = 0; k < n; ++k) {
    const float a = x[k], b = y[k];
    uint32_t bitsOfA;
    std::memcpy(&bitsOfA, &a, 4);
    const uint32_t high =
        static_cast<uint32_t>((static_cast<uint64_t>(bitsOfA) * 0x9E3779B9u) >> 32);
    float highAsFloat;
    std::memcpy(&highAsFloat, &high, 4);
    const double want[16] = {std::trunc(a),
                             std::round(a),
                             std::rint(a),
                             std::copysign(a, b),
                             std::fmod(a, b),
                             std::fdim(a, b),
                             std::fmax(a, b),
                             std::fmin(a, b),
                             a / b,
                             std::ldexp(a, 3),
                             std::fmin(std::fmax(a, -0.5f), 0.5f),
                             std::remainder(a, b),
                             std::isnan(a) ? 1.0 : 0.0,
                             std::signbit(a) ? 1.0 : 0.0,
                             highAsFloat,
                             towardZero(a, formatOf(Type::f16))};
    for (int f = 0; f < 16; ++f) {
      const double got = out[16 * k + static_cast<size_t>(f)];
      const bool zeros = (f == 6 || f == 7 || f == 10) && got == 0 && want[f] == 0;
      EXPECT_TRUE(zeros || same(got, want[f])) << "scalar form " << f << " of (" << a << ", " << b
                                               << "): " << got << ", want " << want[f];
    }
  }
}

} // namespace
} // namespace tcpu::test
