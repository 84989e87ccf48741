// Tutorial 06 (kernels/tutorials/attention.cpp): fused attention forward,
// causal and not, against softmax(Q K^T * sm_scale) V computed in double
// from the same fp16 inputs.
#include <algorithm>
#include <sstream>

#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

struct Case {
  int Z, H, N_CTX, HEAD_DIM;
  bool causal;
  bool large = false; // the d64 kernels with 128 x 64 blocks instead of 64 x 32
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  // A stream, not string concatenation: g++-12 reports a false -Wrestrict on the latter.
  std::ostringstream name;
  name << "Z" << c.Z << "H" << c.H << "N" << c.N_CTX << "D" << c.HEAD_DIM
       << (c.causal ? "Causal" : "") << (c.large ? "Large" : "");
  return name.str();
}

class Attention : public TutorialTest, public ::testing::WithParamInterface<Case> {};

TEST_P(Attention, MatchesDoubleReference) {
  const Case c = GetParam();
  const std::string name = "attn_fwd_d" + std::to_string(c.HEAD_DIM) + (c.causal ? "_causal" : "") +
                           (c.large ? "_large" : "");
  tcpuFunction attn = function(load("attention.bc"), name.c_str());
  const size_t headSize = static_cast<size_t>(c.N_CTX) * static_cast<size_t>(c.HEAD_DIM);
  const size_t heads = static_cast<size_t>(c.Z) * static_cast<size_t>(c.H);
  const size_t size = heads * headSize;
  // The tutorial's inputs: normal(0, 0.5). Uniform with the same spread here.
  const std::vector<uint16_t> q = toHalf(randomFloats(size, 60, -0.87f, 0.87f));
  const std::vector<uint16_t> k = toHalf(randomFloats(size, 61, -0.87f, 0.87f));
  const std::vector<uint16_t> v = toHalf(randomFloats(size, 62, -0.87f, 0.87f));
  const std::vector<float> qf = toFloat(q), kf = toFloat(k), vf = toFloat(v);
  const float smScale = 0.5f;
  std::vector<uint16_t> out(size + 1, 0x7e00);
  std::vector<float> m(heads * static_cast<size_t>(c.N_CTX));
  const int32_t sh = c.N_CTX * c.HEAD_DIM, sz = c.H * sh, sm = c.HEAD_DIM;
  const int blockM = c.large ? 128 : 64;
  const unsigned gridX = static_cast<unsigned>((c.N_CTX + blockM - 1) / blockM);
  ASSERT_TCPU(launch(attn, gridX, static_cast<unsigned>(heads), 1, q.data(), k.data(), v.data(),
                     smScale, m.data(), out.data(), sz, sh, sm, sz, sh, sm, sz, sh, sm, sz, sh, sm,
                     c.H, c.N_CTX));
  EXPECT_EQ(out.back(), 0x7e00) << "wrote past Out";
  out.pop_back();

  std::vector<double> want(size), wantM(m.size());
  std::vector<double> scores(static_cast<size_t>(c.N_CTX));
  const auto d = static_cast<size_t>(c.HEAD_DIM);
  for (size_t h = 0; h < heads; ++h)
    for (size_t i = 0; i < static_cast<size_t>(c.N_CTX); ++i) {
      const size_t last = c.causal ? i + 1 : static_cast<size_t>(c.N_CTX);
      double top = -INFINITY;
      for (size_t j = 0; j < last; ++j) {
        double s = 0;
        for (size_t e = 0; e < d; ++e)
          s += static_cast<double>(qf[h * headSize + i * d + e]) * kf[h * headSize + j * d + e];
        scores[j] = s * smScale;
        top = std::max(top, scores[j]);
      }
      double total = 0;
      for (size_t j = 0; j < last; ++j)
        total += std::exp(scores[j] - top);
      for (size_t e = 0; e < d; ++e) {
        double o = 0;
        for (size_t j = 0; j < last; ++j)
          o += std::exp(scores[j] - top) / total * vf[h * headSize + j * d + e];
        want[h * headSize + i * d + e] = o;
      }
      wantM[h * static_cast<size_t>(c.N_CTX) + i] = (top + std::log(total)) / std::log(2.0);
    }
  const std::vector<float> got = toFloat(out);
  // P is rounded to fp16 before P x V, as in the tutorial: each weight
  // carries up to 2^-11 relative error, so an output (a weighted mean of
  // values in [-0.87, 0.87]) can move by about 0.87 * 2^-11 = 4e-4; the fp16
  // output rounding adds 2^-12 relative. 1e-3 absolute covers both.
  EXPECT_TRUE(allClose(got, want, 1e-3, 0));
  // The log2-sum-exp2 row statistic is all fp32: exp2 and log2 are 1 ULP,
  // the row sum N_CTX * 2^-24 relative.
  EXPECT_TRUE(allClose(m, wantM, 1e-4, 1e-5));
}

// Sequence lengths that fill blocks, ragged ones (not multiples of BLOCK_M
// = 64 nor BLOCK_N = 32, or of 128 and 64), a single token, several batches and heads.
INSTANTIATE_TEST_SUITE_P(
    Shapes, Attention,
    ::testing::Values(Case{1, 2, 128, 64, false}, Case{1, 2, 128, 64, true},
                      Case{2, 3, 100, 64, false}, Case{2, 3, 100, 64, true},
                      Case{1, 1, 1, 16, false}, Case{1, 1, 1, 16, true}, Case{1, 2, 77, 16, true},
                      Case{1, 1, 200, 128, false}, Case{1, 1, 200, 128, true},
                      Case{1, 2, 256, 64, false, true}, Case{1, 2, 256, 64, true, true},
                      Case{2, 3, 200, 64, false, true}, Case{2, 3, 200, 64, true, true},
                      Case{1, 1, 1, 64, true, true}),
    caseName);

} // namespace
} // namespace tcpu::test
