// Tutorial 05 (kernels/tutorials/layer_norm.cpp): forward against a double
// reference, backward (dX, and dW/dB through the locked partial buffers and
// the reduction kernel) against the analytic gradient in double.
#include <algorithm>
#include <string_view>

#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

struct Reference {
  std::vector<double> y, mean, rstd, dx, dw, db;
};

// y = (x - mean) * rstd * w + b per row; with upstream gradient dy:
// dx = rstd * (w*dy - (xhat * mean(xhat*w*dy) + mean(w*dy))),
// dw = sum over rows of dy * xhat, db = sum over rows of dy.
Reference layerNormReference(const std::vector<float>& x, const std::vector<float>& w,
                             const std::vector<float>& b, const std::vector<float>& dy, int M,
                             int N, double eps) {
  Reference r;
  const auto n = static_cast<size_t>(N);
  r.y.resize(x.size());
  r.dx.resize(x.size());
  r.dw.assign(n, 0.0);
  r.db.assign(n, 0.0);
  for (size_t row = 0; row < static_cast<size_t>(M); ++row) {
    const float* xr = x.data() + row * n;
    const float* dyr = dy.data() + row * n;
    double mean = 0, var = 0;
    for (size_t c = 0; c < n; ++c)
      mean += xr[c];
    mean /= N;
    for (size_t c = 0; c < n; ++c)
      var += (xr[c] - mean) * (xr[c] - mean);
    var /= N;
    const double rstd = 1.0 / std::sqrt(var + eps);
    r.mean.push_back(mean);
    r.rstd.push_back(rstd);
    double c1 = 0, c2 = 0;
    for (size_t c = 0; c < n; ++c) {
      const double xhat = (xr[c] - mean) * rstd;
      r.y[row * n + c] = xhat * w[c] + b[c];
      c1 += xhat * w[c] * dyr[c];
      c2 += w[c] * dyr[c];
      r.dw[c] += dyr[c] * xhat;
      r.db[c] += dyr[c];
    }
    c1 /= N;
    c2 /= N;
    for (size_t c = 0; c < n; ++c) {
      const double xhat = (xr[c] - mean) * rstd;
      r.dx[row * n + c] = (w[c] * dyr[c] - (xhat * c1 + c2)) * rstd;
    }
  }
  return r;
}

struct Shape {
  int M, N;
};

int rowBlock(int N) {
  for (int block : {256, 1024, 4096, 8192})
    if (N <= block) return block;
  return 0;
}
int groupSize(int block) {
  return block <= 1024 ? 128 : block <= 4096 ? 96 : 64;
}

class LayerNorm : public TutorialTest, public ::testing::WithParamInterface<Shape> {
protected:
  // Runs forward and backward in fp32 and checks everything against the
  // double reference.
  void runAndCheck(int M, int N) {
    tcpuModule module = load("layer_norm.bc");
    const auto m = static_cast<size_t>(M), n = static_cast<size_t>(N);
    const std::vector<float> x = randomFloats(m * n, 1, -2.0f, 3.0f);
    const std::vector<float> w = randomFloats(n, 2, 0.5f, 1.5f);
    const std::vector<float> b = randomFloats(n, 3);
    const std::vector<float> dy = randomFloats(m * n, 4);
    const float eps = 1e-5f;
    const Reference want = layerNormReference(x, w, b, dy, M, N, eps);

    std::vector<float> y(m * n), mean(m), rstd(m);
    ASSERT_TCPU(launch(function(module, "layer_norm_fwd_f32"), static_cast<unsigned>(M), 1, 1,
                       x.data(), y.data(), w.data(), b.data(), mean.data(), rstd.data(), N, N,
                       eps));
    // The row statistics are fp32 sums of N terms (relative error about
    // N * 2^-24 in the worst case, far less in practice); normalized outputs
    // are O(1). 1e-5 absolute + relative holds for N up to 8192 with margin.
    EXPECT_TRUE(allClose(mean, want.mean, 1e-5, 1e-5));
    EXPECT_TRUE(allClose(rstd, want.rstd, 1e-5, 1e-5));
    EXPECT_TRUE(allClose(y, want.y, 2e-5, 2e-5));

    const int block = rowBlock(N);
    const int group = groupSize(block);
    const std::string dxName = "layer_norm_bwd_dx_f32_" + std::to_string(block);
    std::vector<float> dx(m * n), partialDw(static_cast<size_t>(group) * n),
        partialDb(partialDw.size()), dw(n), db(n);
    std::vector<int32_t> locks(2 * static_cast<size_t>(group), 0);
    ASSERT_TCPU(launch(function(module, dxName.c_str()), static_cast<unsigned>(M), 1, 1, dx.data(),
                       dy.data(), partialDw.data(), partialDb.data(), x.data(), w.data(),
                       mean.data(), rstd.data(), locks.data(), N, N));
    ASSERT_TCPU(launch(function(module, "layer_norm_bwd_dwdb_f32"),
                       static_cast<unsigned>((N + 127) / 128), 1, 1, partialDw.data(),
                       partialDb.data(), dw.data(), db.data(), std::min(group, M), N));
    // dx: two fp32 row sums of N terms feed c1 and c2, as above.
    EXPECT_TRUE(allClose(dx, want.dx, 5e-5, 5e-5));
    // dw/db: M terms of O(1) summed in fp32 in an order that depends on
    // scheduling: each term's rounding is at most 2^-24 of the running sum,
    // so M * 6e-8 relative to the largest partial sum (about M) bounds it.
    const double sumBound = static_cast<double>(M) * static_cast<double>(M) * 6e-8 + 1e-5;
    EXPECT_TRUE(allClose(dw, want.dw, sumBound, 1e-5));
    EXPECT_TRUE(allClose(db, want.db, sumBound, 1e-5));
    for (size_t i = 0; i < static_cast<size_t>(std::min(group, M)); ++i)
      EXPECT_EQ(locks[i], 0) << "lock " << i << " left held";
  }
};

TEST_P(LayerNorm, ForwardAndBackwardMatchDoubleReference) {
  const auto [M, N] = GetParam();
  runAndCheck(M, N);
}

// Ragged N (not a multiple of the 1024 forward block nor equal to the row
// block), fewer rows than GROUP_SIZE_M, many rows per lock, the largest row.
INSTANTIATE_TEST_SUITE_P(Shapes, LayerNorm,
                         ::testing::Values(Shape{1, 1}, Shape{3, 200}, Shape{300, 1000},
                                           Shape{1151, 1024}, Shape{64, 3000}, Shape{97, 8192}));

// The spin lock is what keeps the partial dW/dB buffers consistent: with
// two threads, 512 rows and 128 locks, every run must agree with the
// reference; a lost update shows up as a missing row's contribution
// (an error of O(1), far above the tolerance).
TEST_F(LayerNorm, BackwardIsStableUnderTwoThreads) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  for (int run = 0; run < 50; ++run) {
    runAndCheck(512, 256);
    if (HasFailure()) break;
  }
  ASSERT_TCPU(tcpuSetNumThreads(0));
}

// The backward dX kernel takes a lock per group of rows (a loop on atomic_cas): codegen marks it
// TCPU_KERNEL_PROGRAMS_WAIT, and the runtime deals its programs in launch order. The others have
// no atomics.
TEST_F(LayerNorm, OnlyTheLockingKernelIsMarkedAsWaiting) {
  tcpuModule module = load("layer_norm.bc");
  for (const char* name :
       {"layer_norm_bwd_dx_f32_256", "layer_norm_bwd_dx_f32_1024", "layer_norm_bwd_dx_f32_4096",
        "layer_norm_bwd_dx_f32_8192", "layer_norm_bwd_dx_f16_1024", "layer_norm_fwd_f32",
        "layer_norm_fwd_f16", "layer_norm_bwd_dwdb_f32", "layer_norm_bwd_dwdb_f16"}) {
    unsigned int flags = 0xdead;
    ASSERT_TCPU(tcpuFuncGetFlags(&flags, function(module, name)));
    const bool locking = std::string_view(name).starts_with("layer_norm_bwd_dx");
    EXPECT_EQ(flags, locking ? TCPU_KERNEL_PROGRAMS_WAIT : 0u) << name;
  }
}

TEST_F(LayerNorm, HalfPrecisionForwardAndBackward) {
  tcpuModule module = load("layer_norm.bc");
  constexpr int M = 70, N = 777;
  const auto m = static_cast<size_t>(M), n = static_cast<size_t>(N);
  // Inputs are rounded to fp16 first; the reference sees the rounded values.
  const std::vector<uint16_t> x = toHalf(randomFloats(m * n, 1, -2.0f, 3.0f));
  const std::vector<uint16_t> w = toHalf(randomFloats(n, 2, 0.5f, 1.5f));
  const std::vector<uint16_t> b = toHalf(randomFloats(n, 3));
  const std::vector<uint16_t> dy = toHalf(randomFloats(m * n, 4));
  const float eps = 1e-5f;
  const Reference want =
      layerNormReference(toFloat(x), toFloat(w), toFloat(b), toFloat(dy), M, N, eps);

  std::vector<uint16_t> y(m * n), dx(m * n), dw(n), db(n);
  std::vector<float> mean(m), rstd(m), partialDw(128 * n), partialDb(128 * n);
  std::vector<int32_t> locks(256, 0);
  ASSERT_TCPU(launch(function(module, "layer_norm_fwd_f16"), unsigned{M}, 1, 1, x.data(), y.data(),
                     w.data(), b.data(), mean.data(), rstd.data(), N, N, eps));
  ASSERT_TCPU(launch(function(module, "layer_norm_bwd_dx_f16_1024"), unsigned{M}, 1, 1, dx.data(),
                     dy.data(), partialDw.data(), partialDb.data(), x.data(), w.data(), mean.data(),
                     rstd.data(), locks.data(), N, N));
  ASSERT_TCPU(launch(function(module, "layer_norm_bwd_dwdb_f16"), unsigned{(N + 127) / 128}, 1, 1,
                     partialDw.data(), partialDb.data(), dw.data(), db.data(), M, N));
  // Outputs are rounded to fp16 once at the store (relative 2^-11 = 4.9e-4)
  // after fp32 math whose error is far smaller; outputs near zero get an
  // absolute allowance of one fp16 rounding of an O(1) value.
  EXPECT_TRUE(allClose(toFloat(y), want.y, 2e-3, 1e-3));
  EXPECT_TRUE(allClose(toFloat(dx), want.dx, 2e-3, 1e-3));
  EXPECT_TRUE(allClose(toFloat(dw), want.dw, 1e-2, 1e-3));
  EXPECT_TRUE(allClose(toFloat(db), want.db, 1e-2, 1e-3));
}

} // namespace
} // namespace tcpu::test
