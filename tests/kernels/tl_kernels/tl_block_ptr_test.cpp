// tl/block_ptr.h through codegen (kernels/tl_block_ptr.cpp): boundary checks
// and padding of loads, stores that write exactly the checked lanes, advance,
// and Triton's block-pointer matmul.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "tl_kernel_test_support.hpp"

namespace tcpu::test {
namespace {

constexpr int BM = 16, BN = 32; // the kernels' block

class TlBlockPtr : public TlKernelTest {
protected:
  TlBlockPtr() : TlKernelTest("tl_block_ptr.bc") {}
};

// A tensor layout and a window of blocks over it: program (i, j) starts at (i * BM + om,
// j * BN + on). Dimensions left out of `check` must stay in bounds (Triton assumes they do).
struct Layout {
  int64_t m, n, sm, sn;
  int32_t om, on;
  unsigned gridM, gridN;
  int32_t check;
};

const Layout kLayouts[] = {
    {37, 45, 50, 1, -5, -7, 4, 3, 3}, // ragged, negative start, rows padded (stride 50)
    {37, 45, 1, 40, -5, -7, 4, 3, 3}, // column-major: the column step is 40
    {37, 64, 64, 1, 3, 0, 3, 2, 1},   // rows checked only; columns exactly two blocks
    {32, 45, 45, 1, 0, 9, 2, 2, 2},   // columns checked only; rows exactly two blocks
    {32, 64, 64, 1, 0, 0, 2, 2, 0},   // no check, everything inside
    {37, 45, 50, 1, 40, 50, 2, 2, 3}, // entirely outside: all padding
};

size_t elements(const Layout& l) { // the buffer that holds the tensor
  return static_cast<size_t>((l.m - 1) * l.sm + (l.n - 1) * l.sn + 1);
}

TEST_F(TlBlockPtr, LoadsPadOutsideTheCheckedBounds) {
  for (const Layout& l : kLayouts)
    for (const char* name : {"load_2d_const", "load_2d_mutable"})
      for (int32_t nanPad : {0, 1}) {
        std::vector<float> src(elements(l), -999.0f);
        for (int64_t r = 0; r < l.m; ++r)
          for (int64_t c = 0; c < l.n; ++c)
            src[static_cast<size_t>(r * l.sm + c * l.sn)] =
                static_cast<float>(r * 1000 + c) + 0.25f;
        std::vector<float> tiles(static_cast<size_t>(l.gridM * l.gridN * BM * BN), -7.0f);
        ASSERT_TCPU(launch(kernel(name), l.gridM, l.gridN, 1, src.data(), l.m, l.n, l.sm, l.sn,
                           l.om, l.on, l.check, nanPad, tiles.data()));
        int failures = 0;
        for (unsigned ti = 0; ti < l.gridM; ++ti)
          for (unsigned tj = 0; tj < l.gridN; ++tj)
            for (int i = 0; i < BM; ++i)
              for (int j = 0; j < BN && failures < 5; ++j) {
                const int64_t r = static_cast<int64_t>(ti) * BM + l.om + i;
                const int64_t c = static_cast<int64_t>(tj) * BN + l.on + j;
                const bool rowIn = r >= 0 && r < l.m, colIn = c >= 0 && c < l.n;
                ASSERT_TRUE(((l.check & 1) || rowIn) && ((l.check & 2) || colIn))
                    << "layout leaves an unchecked dimension";
                const float got = tiles[((ti * l.gridN + tj) * BM + static_cast<unsigned>(i)) * BN +
                                        static_cast<unsigned>(j)];
                const bool inside = rowIn && colIn;
                const float want = inside   ? static_cast<float>(r * 1000 + c) + 0.25f
                                   : nanPad ? NAN
                                            : 0.0f;
                if (!(got == want || (std::isnan(want) && std::isnan(got)))) {
                  ++failures;
                  ADD_FAILURE() << name << " check " << l.check << " nan " << nanPad << " (" << r
                                << ", " << c << "): " << got << ", want " << want;
                }
              }
      }
}

TEST_F(TlBlockPtr, StoresWriteExactlyTheCheckedLanes) {
  for (const Layout& l : kLayouts) {
    // The tensor inside a frame of 40 elements on each side, all -1: a store outside the checked
    // bounds lands in the frame.
    const int64_t frame = 40;
    const int64_t rowsAll = l.m + 2 * frame;
    const int64_t colsAll = l.n + 2 * frame;
    std::vector<float> all(static_cast<size_t>(rowsAll * colsAll), -1.0f);
    // Row-major within the frame where the layout is row-major, column-major where it is not.
    const bool rowMajor = l.sn == 1;
    const int64_t sm = rowMajor ? colsAll : 1, sn = rowMajor ? 1 : rowsAll;
    float* base = all.data() + frame * sm + frame * sn;
    ASSERT_TCPU(launch(kernel("store_2d"), l.gridM, l.gridN, 1, base, l.m, l.n, sm, sn, l.om, l.on,
                       l.check));
    // Lanes the blocks cover, by tensor position (inside the frame).
    int failures = 0;
    for (int64_t r = -frame; r < l.m + frame; ++r)
      for (int64_t c = -frame; c < l.n + frame && failures < 5; ++c) {
        const int64_t i = r - l.om, j = c - l.on;
        const bool covered = i >= 0 && i < static_cast<int64_t>(l.gridM) * BM && j >= 0 &&
                             j < static_cast<int64_t>(l.gridN) * BN;
        const bool inside = r >= 0 && r < l.m && c >= 0 && c < l.n;
        const float want = covered && inside ? static_cast<float>(r * 1000 + c) + 0.5f : -1.0f;
        const float got = base[r * sm + c * sn];
        if (got != want) {
          ++failures;
          ADD_FAILURE() << "check " << l.check << " (" << r << ", " << c << "): " << got
                        << ", want " << want;
        }
      }
  }
}

TEST_F(TlBlockPtr, AdvanceWalksRankOneBlocks) {
  const int64_t n = 1000, stride = 3, yStride = 2;
  std::vector<float> x(static_cast<size_t>(n * stride), 1e6f); // between elements: never read
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<size_t>(i * stride)] = static_cast<float>(i % 97);
  std::vector<float> sums(64, -1.0f), y(static_cast<size_t>(n * yStride + 64), -5.0f);
  ASSERT_TCPU(
      launch(kernel("sum_1d"), 1, 1, 1, x.data(), n, stride, sums.data(), y.data(), yStride));
  for (int l = 0; l < 64; ++l) {
    float want = 0; // integers below 2^24: exact in any order
    for (int64_t i = l; i < n; i += 64)
      want += static_cast<float>(i % 97);
    EXPECT_EQ(sums[static_cast<size_t>(l)], want) << l;
  }
  for (size_t k = 0; k < y.size(); ++k) {
    const bool element = k % yStride == 0 && static_cast<int64_t>(k) / yStride < n;
    EXPECT_EQ(y[k], element ? static_cast<float>((static_cast<int64_t>(k) / yStride) % 97) : -5.0f)
        << k;
  }
}

TEST_F(TlBlockPtr, MatmulWithBlockPointers) {
  const int32_t m = 70, n = 45, k = 37;
  // A row-major, B column-major (its loads step by K along a row), C row-major with 5 spare
  // columns. Small integers: every sum is exact.
  std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
  for (int32_t i = 0; i < m; ++i)
    for (int32_t p = 0; p < k; ++p)
      a[static_cast<size_t>(i * k + p)] = static_cast<float>((i * 7 + p * 3) % 11 - 5);
  for (int32_t p = 0; p < k; ++p)
    for (int32_t j = 0; j < n; ++j)
      b[static_cast<size_t>(j * k + p)] = static_cast<float>((p * 5 + j) % 13 - 6);
  const int32_t ldc = n + 5;
  std::vector<float> c(static_cast<size_t>(m * ldc), -3.0f);
  ASSERT_TCPU(launch(kernel("matmul_bp"), (m + 31) / 32, (n + 31) / 32, 1, a.data(), b.data(),
                     c.data(), m, n, k, int64_t{k}, int64_t{1}, int64_t{1}, int64_t{k},
                     int64_t{ldc}, int64_t{1}));
  for (int32_t i = 0; i < m; ++i)
    for (int32_t j = 0; j < ldc; ++j) {
      float want = -3.0f;
      if (j < n) {
        want = 0;
        for (int32_t p = 0; p < k; ++p)
          want += a[static_cast<size_t>(i * k + p)] * b[static_cast<size_t>(j * k + p)];
      }
      EXPECT_EQ(c[static_cast<size_t>(i * ldc + j)], want) << i << ", " << j;
    }
}

} // namespace
} // namespace tcpu::test
