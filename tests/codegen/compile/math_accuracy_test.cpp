// Accuracy of every math function codegen maps to SLEEF, through the real
// pipeline (vectorized loops of llvm.* intrinsics and libm calls), over 10^6
// inputs per function and type, against a long double reference.
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

constexpr int32_t kInputs = 1000000;
constexpr int32_t kBlock = 4096;

struct MathCase {
  const char* name; // libm / SLEEF double name
  bool intrinsic;   // has an llvm.<name> intrinsic in LLVM 19
  int arity;
  std::function<long double(long double, long double)> reference;
  // Input ranges for float and double; `geometric` spaces inputs by ratio.
  double lo32, hi32, lo64, hi64;
  bool geometric = false;
};

const std::vector<MathCase>& cases() {
  using L = long double;
  static const std::vector<MathCase> all = {
      {"exp", true, 1, [](L a, L) { return std::exp(a); }, -87, 88, -700, 700},
      {"exp2", true, 1, [](L a, L) { return std::exp2(a); }, -126, 127, -1000, 1000},
      {"log", true, 1, [](L a, L) { return std::log(a); }, 1e-30, 1e30, 1e-300, 1e300, true},
      {"log2", true, 1, [](L a, L) { return std::log2(a); }, 1e-30, 1e30, 1e-300, 1e300, true},
      {"log10", true, 1, [](L a, L) { return std::log10(a); }, 1e-30, 1e30, 1e-300, 1e300, true},
      {"sin", true, 1, [](L a, L) { return std::sin(a); }, -1e4, 1e4, -1e4, 1e4},
      {"cos", true, 1, [](L a, L) { return std::cos(a); }, -1e4, 1e4, -1e4, 1e4},
      {"tan", true, 1, [](L a, L) { return std::tan(a); }, -1e4, 1e4, -1e4, 1e4},
      {"asin", true, 1, [](L a, L) { return std::asin(a); }, -1, 1, -1, 1},
      {"acos", true, 1, [](L a, L) { return std::acos(a); }, -1, 1, -1, 1},
      {"atan", true, 1, [](L a, L) { return std::atan(a); }, -1e4, 1e4, -1e4, 1e4},
      {"atan2", false, 2, [](L a, L b) { return std::atan2(a, b); }, -10, 10, -10, 10},
      {"sinh", true, 1, [](L a, L) { return std::sinh(a); }, -88, 88, -709, 709},
      {"cosh", true, 1, [](L a, L) { return std::cosh(a); }, -88, 88, -709, 709},
      {"tanh", true, 1, [](L a, L) { return std::tanh(a); }, -10, 10, -20, 20},
      {"asinh", false, 1, [](L a, L) { return std::asinh(a); }, -1e4, 1e4, -1e4, 1e4},
      {"acosh", false, 1, [](L a, L) { return std::acosh(a); }, 1, 1e4, 1, 1e4},
      {"atanh", false, 1, [](L a, L) { return std::atanh(a); }, -0.999, 0.999, -0.999, 0.999},
      {"erf", false, 1, [](L a, L) { return std::erf(a); }, -5, 5, -6, 6},
      {"pow", true, 2, [](L a, L b) { return std::pow(a, b); }, 0.01, 100, 0.01, 100},
      {"cbrt", false, 1, [](L a, L) { return std::cbrt(a); }, -1e6, 1e6, -1e6, 1e6},
      {"expm1", false, 1, [](L a, L) { return std::expm1(a); }, -20, 88, -40, 700},
      {"log1p", false, 1, [](L a, L) { return std::log1p(a); }, -0.999, 1e6, -0.999, 1e6},
  };
  return all;
}

std::string kernelName(const MathCase& math, bool isFloat) {
  return std::string(isFloat ? "f32_" : "f64_") + math.name;
}

// One kernel per function and type: out[i] = f(a[i]) or f(a[i], b[i]) over
// blocks of kBlock elements, as a straightforward scalar loop.
std::string mathModule() {
  std::string ir;
  for (const MathCase& math : cases()) {
    for (const bool isFloat : {true, false}) {
      const std::string t = isFloat ? "float" : "double";
      const std::string callee =
          math.intrinsic ? std::string("llvm.") + math.name + (isFloat ? ".f32" : ".f64")
                         : std::string(math.name) + (isFloat ? "f" : "");
      const std::string params = math.arity == 2 ? t + ", " + t : t;
      const std::string args = math.arity == 2 ? t + " %va, " + t + " %vb" : t + " %va";
      ir += "declare " + t + " @" + callee + "(" + params + ")\n";
      ir += "define void @" + kernelName(math, isFloat) +
            "(ptr noalias %a, ptr noalias %b, ptr noalias %out, i32 %n, i32 %pid, i32 %py, "
            "i32 %pz, i32 %gx, i32 %gy, i32 %gz) {\n"
            "entry:\n  %start = mul i32 %pid, " +
            std::to_string(kBlock) +
            "\n  br label %loop\n"
            "loop:\n  %i = phi i32 [ 0, %entry ], [ %next, %latch ]\n"
            "  %index = add i32 %start, %i\n  %inside = icmp slt i32 %index, %n\n"
            "  br i1 %inside, label %body, label %latch\n"
            "body:\n  %w = sext i32 %index to i64\n"
            "  %pa = getelementptr inbounds " +
            t +
            ", ptr %a, i64 %w\n"
            "  %pb = getelementptr inbounds " +
            t +
            ", ptr %b, i64 %w\n"
            "  %po = getelementptr inbounds " +
            t +
            ", ptr %out, i64 %w\n"
            "  %va = load " +
            t + ", ptr %pa\n  %vb = load " + t +
            ", ptr %pb\n"
            "  %r = call " +
            t + " @" + callee + "(" + args +
            ")\n"
            "  store " +
            t +
            " %r, ptr %po\n  br label %latch\n"
            "latch:\n  %next = add i32 %i, 1\n  %done = icmp eq i32 %next, " +
            std::to_string(kBlock) +
            "\n  br i1 %done, label %exit, label %loop\n"
            "exit:\n  ret void\n}\n";
    }
  }
  return ir;
}

template <class T>
double ulpError(T result, long double reference) {
  const T rounded = static_cast<T>(reference);
  if (std::isinf(rounded)) return result == rounded ? 0 : INFINITY;
  const T magnitude = std::fabs(rounded);
  T ulp = std::nextafter(magnitude, static_cast<T>(INFINITY)) - magnitude;
  return static_cast<double>(std::fabs(static_cast<long double>(result) - reference) / ulp);
}

template <class T>
double maxUlp(tcpuFunction kernel, const MathCase& math, double lo, double hi) {
  std::vector<T> a(kInputs), b(kInputs), out(kInputs);
  for (int32_t i = 0; i < kInputs; ++i) {
    const double t = static_cast<double>(i) / (kInputs - 1);
    a[i] =
        static_cast<T>(math.geometric ? std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * t)
                                      : lo + (hi - lo) * t);
    // The second operand walks its range 997 times faster, covering the plane.
    const double s = std::fmod(t * 997.0, 1.0);
    b[i] = static_cast<T>(std::string(math.name) == "pow" ? -20 + 40 * s : lo + (hi - lo) * s);
  }
  T *pa = a.data(), *pb = b.data(), *po = out.data();
  int32_t n = kInputs;
  void* params[] = {&pa, &pb, &po, &n};
  EXPECT_EQ(tcpuLaunchKernel(kernel, (kInputs + kBlock - 1) / kBlock, 1, 1, 1, 1, 1, 0, nullptr,
                             params, nullptr),
            TCPU_SUCCESS)
      << tcpuGetLastErrorDetail();
  double worst = 0;
  for (int32_t i = 0; i < kInputs; ++i) {
    const long double reference = math.reference(a[i], b[i]);
    if (!std::isfinite(reference)) continue; // overflow ranges are not accuracy
    worst = std::max(worst, ulpError<T>(out[i], reference));
  }
  return worst;
}

class MathAccuracy : public CodegenTest {};

TEST_F(MathAccuracy, EveryMappedFunctionIsWithinItsUlpBound) {
  const std::string ir = mathModule();
  tcpuModule module;
  ASSERT_TCPU(tcpuModuleLoadData(&module, ir.data(), ir.size()));
  modules_.push_back(module);
  const std::string assembly = text(module, TCPU_MODULE_TEXT_ASSEMBLY);
  std::printf("%-6s %12s %12s   (max ULP error over %d inputs, SLEEF 1.0-ULP variants)\n", "fn",
              "fp32", "fp64", kInputs);
  for (const MathCase& math : cases()) {
    const double f32 =
        maxUlp<float>(function(module, kernelName(math, true).c_str()), math, math.lo32, math.hi32);
    const double f64 = maxUlp<double>(function(module, kernelName(math, false).c_str()), math,
                                      math.lo64, math.hi64);
    std::printf("%-6s %12.4f %12.4f\n", math.name, f32, f64);
    RecordProperty(std::string("max_ulp_f32_") + math.name, std::to_string(f32));
    RecordProperty(std::string("max_ulp_f64_") + math.name, std::to_string(f64));
    // SLEEF documents 1.0 ULP for these variants; the reference itself is
    // long double, good to ~2^-11 ULP of double.
    EXPECT_LE(f32, 1.0) << math.name << " fp32";
    EXPECT_LE(f64, 1.0) << math.name << " fp64";
    EXPECT_NE(assembly.find(std::string("Sleef_") + math.name + "f"), std::string::npos)
        << math.name << ": no SLEEF call in the assembly";
  }
}

} // namespace
} // namespace tcpu::test
