// A rectangle mask used as a value (tl::LinMask, tl/index.h), compiled for the host: Triton's
// `tl.where(cols < N, x - mean, 0.)` over `x = tl.load(X + cols, mask=cols < N, other=0.)`, as
// the layer norm tutorial writes it. Such an expression is uniform outside the rectangle, so it
// is evaluated as one loop over the rectangle without masks and one value for the rest (core.h,
// uniformOutside), not with a comparison and a select in every lane. These tests pin that the
// split is taken where it can be and not where it cannot, and that every lane gets its value
// either way.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tcpu/tl/memory.h"
#include "tcpu/tl/reduce.h"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

constexpr int kCols = 64;
constexpr float kOther = -1.5f, kShift = 0.375f, kOutside = 7.0f;

std::vector<float> lanes(int count) {
  std::vector<float> x(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k)
    x[static_cast<size_t>(k)] = 0.25f * static_cast<float>(k % 13) - 1.0f;
  return x;
}

// The shape a whole-block evaluation of a 1-D expression has.
using Row = tl::shape_of<tl::Block<float, kCols>>;

TEST(TlWhereMask, AWhereOverTheLoadsOwnMaskIsSplitAndRight) {
  const std::vector<float> x = lanes(kCols);
  for (const int32_t n : {0, 1, 37, kCols - 1, kCols, kCols + 5, -3}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    const auto cols = tl::arange<0, kCols>();
    const auto mask = cols < n;
    const auto loaded = tl::load(x.data() + cols, mask, kOther);
    const auto value = tl::where(mask, loaded - kShift, kOutside);
    // Only a rectangle over the whole block is dense; the load and the where share it (the load
    // bounds its rows differently from the comparison, which is why lanes are compared).
    EXPECT_EQ(tl::detail::dense(mask), n >= kCols);
    tl::detail::LaneRect rect;
    EXPECT_TRUE(tl::detail::uniformOutside<Row>(value, rect));
    const tl::Block<float, kCols> evaluated = value;
    float sum[16] = {}; // tl::sum's 16 partials, in its order
    for (int j = 0; j < kCols; ++j) {
      const float want = j < n ? x[static_cast<size_t>(j)] - kShift : kOutside;
      EXPECT_EQ(evaluated[j], want) << j;
      sum[j % 16] += want;
    }
    for (int width = 8; width > 0; width /= 2)
      for (int l = 0; l < width; ++l)
        sum[l] += sum[l + width];
    EXPECT_EQ(tl::sum(value), sum[0]);
    std::vector<float> out(kCols, -9.0f);
    tl::store(out.data() + cols, tl::where(mask, loaded * 2.0f, 0.0f), mask);
    for (int j = 0; j < kCols; ++j)
      EXPECT_EQ(out[static_cast<size_t>(j)], j < n ? x[static_cast<size_t>(j)] * 2.0f : -9.0f) << j;
  }
}

TEST(TlWhereMask, MasksThatCannotBeSplitAreReadLaneByLane) {
  const std::vector<float> x = lanes(kCols);
  const int32_t n = 40, shorter = 21;
  const auto cols = tl::arange<0, kCols>();
  const auto loaded = tl::load(x.data() + cols, cols < n, kOther);
  // Another rectangle than the load's: no split, each lane is masked on its own.
  const auto differentRect = tl::where(cols < shorter, loaded, kOutside);
  tl::detail::LaneRect rect;
  EXPECT_FALSE(tl::detail::uniformOutside<Row>(differentRect, rect));
  // Every other column: an explicit mask, read lane by lane wherever it is used.
  const auto everyOther = (cols * 2) < n;
  EXPECT_FALSE(tl::detail::dense(everyOther));
  tl::detail::LaneRect none;
  EXPECT_FALSE(tl::detail::uniformOutside<Row>(everyOther, none));
  const tl::Block<float, kCols> a = differentRect;
  const tl::Block<float, kCols> b = tl::where(everyOther, loaded, kOutside);
  const tl::Block<float, kCols> c = tl::where(everyOther, x[3], kOutside);
  for (int j = 0; j < kCols; ++j) {
    const float xj = j < n ? x[static_cast<size_t>(j)] : kOther;
    EXPECT_EQ(a[j], j < shorter ? xj : kOutside) << j;
    EXPECT_EQ(b[j], 2 * j < n ? xj : kOutside) << j;
    EXPECT_EQ(c[j], 2 * j < n ? x[3] : kOutside) << j;
  }
}

TEST(TlWhereMask, TwoDimensionalRectanglesSplitToo) {
  constexpr int kRows = 8, kWidth = 32;
  const std::vector<float> x = lanes(kRows * kWidth);
  const int32_t m = 5, n = 19;
  const auto rows = tl::arange<0, kRows>();
  const auto cols = tl::arange<0, kWidth>();
  const auto mask = (tl::col(rows) < m) & (tl::row(cols) < n);
  const auto loaded = tl::load(x.data() + (tl::col(rows) * kWidth + tl::row(cols)), mask, kOther);
  const auto value = tl::where(mask, loaded - kShift, 0.0f);
  tl::detail::LaneRect rect;
  EXPECT_FALSE(tl::detail::dense(value));
  EXPECT_TRUE(
      (tl::detail::uniformOutside<tl::shape_of<tl::Block<float, kRows, kWidth>>>(value, rect)));
  const auto sums = tl::sum<1>(value);
  for (int i = 0; i < kRows; ++i) {
    float sum[16] = {};
    for (int j = 0; j < kWidth; ++j)
      sum[j % 16] += i < m && j < n ? x[static_cast<size_t>(i * kWidth + j)] - kShift : 0.0f;
    for (int width = 8; width > 0; width /= 2)
      for (int l = 0; l < width; ++l)
        sum[l] += sum[l + width];
    EXPECT_EQ(sums[i], sum[0]) << "row " << i;
  }
}

// Expressions reference a named mask or masked load (each carries a block of explicit lanes,
// too large to copy into every expression that reads it) and copy temporaries, including the
// view that `to()` is called on. Under the sanitizers a reference to a dead temporary would be
// reported here.
TEST(TlWhereMask, NamedMasksAndLoadsAreReferencedTemporariesCopied) {
  using Mask = tl::LinMask<kCols>;
  using View = decltype(tl::load(static_cast<const float*>(nullptr) + tl::arange<0, kCols>(),
                                 tl::arange<0, kCols>() < 1, 0.0f));
  static_assert(std::is_same_v<tl::detail::capture_t<const Mask&>, const Mask&>);
  static_assert(std::is_same_v<tl::detail::capture_t<const View&>, const View&>);
  static_assert(std::is_same_v<tl::detail::capture_t<Mask&&>, Mask>);
  static_assert(std::is_same_v<tl::detail::capture_t<View&&>, View>);
  static_assert(std::is_same_v<tl::detail::capture_t<Mask&>, Mask>, "a mutable name is copied");
  const std::vector<float> x = lanes(kCols);
  const int32_t n = 45;
  const auto cols = tl::arange<0, kCols>();
  const auto widened = tl::load(x.data() + cols, cols < n, kOther).to<double>();
  const auto scaled = tl::where(cols < n, widened * 2.0, -1.0);
  volatile float overwrite[4 * kCols]; // reuses the stack the temporaries had
  for (int k = 0; k < 4 * kCols; ++k)
    overwrite[k] = -7.0f;
  const tl::Block<double, kCols> a = scaled;
  for (int j = 0; j < kCols; ++j)
    EXPECT_EQ(a[j], j < n ? 2.0 * x[static_cast<size_t>(j)] : -1.0) << j;
}

} // namespace
} // namespace tcpu::test
