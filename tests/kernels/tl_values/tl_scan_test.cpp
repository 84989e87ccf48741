// tl's combine-function operations (tl/scan.h: reduce, reduce2, associative_scan(2), cumsum,
// cumprod) and bitwise reductions (tl/reduce.h: xor_sum, reduce_or, reduce_and) against plain
// loops, compiled for the host. Floating-point scans use integer-valued (or power-of-two) data,
// so every order of evaluation gives the sequential loop's exact result; floating-point
// reductions are checked bit for bit against the order scan.h documents, written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "tcpu/tl/index.h"
#include "tcpu/tl/memory.h"
#include "tcpu/tl/scan.h"
#include "tcpu/tl/shape.h"
#include "tl_values_test_support.hpp"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

uint32_t floatBits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// --- reductions -------------------------------------------------------------------------------

// The sum of n values x[0], x[stride], ... in the order reduce.h documents (reducePartials): P
// partials, 64 for rows of 64 or more, else 32 or 16 (partial l adds x[l], x[l + P], ...),
// folded pairwise (l + P/2, ..., + 1), then the last n % P values; rows shorter than 16 left to
// right. Written out here rather than calling reducePartials, so that a change of the order
// fails this test.
float documentedSum(const float* x, int n, int stride) {
  if (n < 16) {
    float acc = x[0];
    for (int j = 1; j < n; ++j)
      acc += x[j * stride];
    return acc;
  }
  const int partials = n >= 64 ? 64 : (n >= 32 ? 32 : 16);
  float lanes[64];
  for (int l = 0; l < partials; ++l)
    lanes[l] = x[l * stride];
  for (int j = partials; j + partials <= n; j += partials)
    for (int l = 0; l < partials; ++l)
      lanes[l] += x[(j + l) * stride];
  for (int width = partials / 2; width > 0; width /= 2)
    for (int l = 0; l < width; ++l)
      lanes[l] += lanes[l + width];
  float acc = lanes[0];
  for (int j = n - n % partials; j < n; ++j)
    acc += x[j * stride];
  return acc;
}

template <int N>
void expectReduceIsDocumentedSum(uint32_t seed) {
  const auto x = randomBlock<tl::Block<float, N>>(seed);
  const float got = tl::reduce(x, [](float a, float b) { return a + b; });
  EXPECT_EQ(floatBits(got), floatBits(documentedSum(x.v, N, 1))) << "N = " << N;
  EXPECT_EQ(floatBits(got), floatBits(tl::sum(x))) << "N = " << N;
}

TEST(TlReduce, FloatSumsFollowTheDocumentedOrderBitForBit) {
  expectReduceIsDocumentedSum<1>(1);
  expectReduceIsDocumentedSum<8>(2);
  expectReduceIsDocumentedSum<16>(3);
  expectReduceIsDocumentedSum<40>(4);
  expectReduceIsDocumentedSum<48>(5);
  expectReduceIsDocumentedSum<64>(9);
  expectReduceIsDocumentedSum<100>(10);
  expectReduceIsDocumentedSum<1024>(6);

  const auto x = randomBlock<tl::Block<float, 8, 40>>(7);
  const auto add = [](float a, float b) { return a + b; };
  const float all = tl::reduce<-1>(x, add);
  const tl::Block<float, 8> rows = tl::reduce<1>(x, add);
  const tl::Block<float, 40> columns = tl::reduce<0>(x, add);
  EXPECT_EQ(floatBits(all), floatBits(documentedSum(x.v, 8 * 40, 1)));
  EXPECT_EQ(floatBits(all), floatBits(tl::sum(x)));
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(floatBits(rows[i]), floatBits(documentedSum(x.v + i * 40, 40, 1))) << i;
    EXPECT_EQ(floatBits(rows[i]), floatBits(tl::sum<1>(x)[i])) << i;
  }
  for (int j = 0; j < 40; ++j) {
    float acc = x.at(0, j); // axis 0: top to bottom
    for (int i = 1; i < 8; ++i)
      acc += x.at(i, j);
    EXPECT_EQ(floatBits(columns[j]), floatBits(acc)) << j;
    EXPECT_EQ(floatBits(columns[j]), floatBits(tl::sum<0>(x)[j])) << j;
  }
}

// Rows of blocks whose height is a multiple of 16 finish their reductions across rows
// (reduce.h, reduceRowsAcross): the same order, so each row's result is the 1-D reduction of that
// row bit for bit, NaNs and zeros of both signs included.
template <int R, int C>
void expectRowReductionsMatchRows(uint32_t seed) {
  auto x = randomBlock<tl::Block<float, R, C>>(seed);
  x.at(1, 3) = std::numeric_limits<float>::quiet_NaN();
  x.at(2, 0) = -0.0f;
  x.at(2, C - 1) = 0.0f;
  const tl::Block<float, R> sums = tl::sum<1>(x), maxima = tl::max<1>(x), minima = tl::min<1>(x);
  for (int i = 0; i < R; ++i) {
    tl::Block<float, C> row;
    for (int j = 0; j < C; ++j)
      row[j] = x.at(i, j);
    SCOPED_TRACE(testing::Message() << R << " x " << C << ", row " << i);
    EXPECT_EQ(floatBits(sums[i]), floatBits(documentedSum(row.v, C, 1)));
    EXPECT_EQ(floatBits(sums[i]), floatBits(tl::sum(row)));
    EXPECT_EQ(floatBits(maxima[i]), floatBits(tl::max(row)));
    EXPECT_EQ(floatBits(minima[i]), floatBits(tl::min(row)));
  }
  const auto ints = randomBlock<tl::Block<int32_t, R, C>>(seed + 1);
  const tl::Block<int32_t, R> intMaxima = tl::max<1>(ints);
  for (int i = 0; i < R; ++i) {
    int32_t want = ints.at(i, 0);
    for (int j = 1; j < C; ++j)
      want = std::max(want, ints.at(i, j));
    EXPECT_EQ(intMaxima[i], want) << R << " x " << C << ", row " << i;
  }
}

TEST(TlReduce, RowsOfTallBlocksFinishAcrossRowsInTheSameOrder) {
  expectRowReductionsMatchRows<16, 16>(21);
  expectRowReductionsMatchRows<64, 32>(22);
  expectRowReductionsMatchRows<32, 128>(23);
  expectRowReductionsMatchRows<16, 100>(24);
  expectRowReductionsMatchRows<48, 64>(25);
}

TEST(TlReduce, IntegerCombinesAreExactInTheElementType) {
  // int32 over the whole range, wrapping (the combine adds as unsigned).
  const auto x = randomBlock<tl::Block<int32_t, 4, 64>>(8);
  const auto wrapAdd = [](int32_t a, int32_t b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  };
  const tl::Block<int32_t, 4> rows = tl::reduce<1>(x, wrapAdd);
  const tl::Block<int32_t, 64> columns = tl::reduce<0>(x, wrapAdd);
  const int32_t all = tl::reduce(x, wrapAdd);
  uint32_t total = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t sum = 0;
    for (int j = 0; j < 64; ++j)
      sum += static_cast<uint32_t>(x.at(i, j));
    total += sum;
    EXPECT_EQ(rows[i], static_cast<int32_t>(sum)) << i;
  }
  EXPECT_EQ(all, static_cast<int32_t>(total));
  for (int j = 0; j < 64; ++j) {
    uint32_t sum = 0;
    for (int i = 0; i < 4; ++i)
      sum += static_cast<uint32_t>(x.at(i, j));
    EXPECT_EQ(columns[j], static_cast<int32_t>(sum)) << j;
  }

  // int8: the combine's int result is converted back to int8, as Triton keeps the type.
  const auto y = randomBlock<tl::Block<int8_t, 48>>(9);
  const auto add = [](int8_t a, int8_t b) { return a + b; };
  const auto biggest = [](int8_t a, int8_t b) { return a > b ? a : b; };
  const auto wrapped = tl::reduce<0>(y, add);
  const auto maximum = tl::reduce<0>(y, biggest);
  static_assert(std::is_same_v<decltype(wrapped), const int8_t>);
  uint8_t sum = 0;
  int8_t best = y[0];
  for (int j = 0; j < 48; ++j) {
    sum = static_cast<uint8_t>(sum + static_cast<uint8_t>(y[j]));
    if (y[j] > best) best = y[j];
  }
  EXPECT_EQ(wrapped, static_cast<int8_t>(sum));
  EXPECT_EQ(maximum, best);
}

TEST(TlReduce, LazyOperandsAreReducedAsTheirValues) {
  // A masked load of integer-valued floats times 2: every order sums them exactly.
  float data[64];
  for (int k = 0; k < 64; ++k)
    data[k] = static_cast<float>(k % 7 - 3);
  const float* p = data;
  const auto rows = tl::arange<0, 4>();
  const auto cols = tl::arange<0, 16>();
  const auto view = tl::load(p + (tl::col(rows) * 16 + tl::row(cols)), tl::row(cols) < 11, 5.0f);
  const tl::Block<float, 4> got =
      tl::reduce<1>(view * 2.0f, [](float a, float b) { return a + b; });
  for (int i = 0; i < 4; ++i) {
    float expected = 0;
    for (int j = 0; j < 16; ++j)
      expected += 2.0f * (j < 11 ? data[i * 16 + j] : 5.0f);
    EXPECT_EQ(got[i], expected) << i;
  }
  // An index range: 0 + 1 + ... + 63.
  EXPECT_EQ(tl::reduce(tl::arange<0, 64>(), [](int32_t a, int32_t b) { return a + b; }), 2016);
}

// Triton's argmax combine (tie_break_left): the larger value, the lower index on ties.
const auto argmaxCombine = [](auto v0, int32_t i0, auto v1, int32_t i1) {
  const bool gt = v0 > v1 || (v0 == v1 && i0 < i1);
  return std::make_tuple(gt ? v0 : v1, gt ? i0 : i1);
};

template <class T>
void expectArgmaxReductions(uint32_t seed) {
  // Few distinct values, so ties are common.
  const auto x = integerValuedBlock<tl::Block<T, 8, 32>>(seed, -4, 4);
  const tl::Block<int32_t, 8, 32> columnIndex = tl::broadcast_to<8, 32>(tl::arange<0, 32>());
  const tl::Block<int32_t, 8, 32> rowIndex = tl::broadcast_to<8, 32>(tl::col(tl::arange<0, 8>()));
  const tl::Block<int32_t, 8, 32> flatIndex = tl::reshape<8, 32>(tl::arange<0, 256>());
  const auto [rowMax, rowArg] = tl::reduce2<1>(x, columnIndex, argmaxCombine);
  const auto [colMax, colArg] = tl::reduce2<0>(x, rowIndex, argmaxCombine);
  const auto [allMax, allArg] = tl::reduce2<-1>(x, flatIndex, argmaxCombine);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(rowMax)>, tl::Block<T, 8>>);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(colArg)>, tl::Block<int32_t, 32>>);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(allMax)>, T>);
  for (int i = 0; i < 8; ++i) {
    int best = 0;
    for (int j = 1; j < 32; ++j)
      if (x.at(i, j) > x.at(i, best)) best = j;
    EXPECT_EQ(printable(rowMax[i]), printable(x.at(i, best))) << i;
    EXPECT_EQ(rowArg[i], best) << i;
    EXPECT_EQ(rowArg[i], tl::argmax<1>(x)[i]) << i;
  }
  for (int j = 0; j < 32; ++j) {
    int best = 0;
    for (int i = 1; i < 8; ++i)
      if (x.at(i, j) > x.at(best, j)) best = i;
    EXPECT_EQ(printable(colMax[j]), printable(x.at(best, j))) << j;
    EXPECT_EQ(colArg[j], best) << j;
  }
  int best = 0;
  for (int k = 1; k < 256; ++k)
    if (x[k] > x[best]) best = k;
  EXPECT_EQ(printable(allMax), printable(x[best]));
  EXPECT_EQ(allArg, best);
  // Rank 1.
  const auto y = integerValuedBlock<tl::Block<T, 64>>(seed + 1, -4, 4);
  const auto [yMax, yArg] = tl::reduce2(y, tl::arange<0, 64>(), argmaxCombine);
  int yBest = 0;
  for (int k = 1; k < 64; ++k)
    if (y[k] > y[yBest]) yBest = k;
  EXPECT_EQ(printable(yMax), printable(y[yBest]));
  EXPECT_EQ(yArg, yBest);
}

TEST(TlReduce, TwoOperandReductionsFindTheFirstMaximum) {
  expectArgmaxReductions<float>(10);
  expectArgmaxReductions<int32_t>(12);
  expectArgmaxReductions<int8_t>(14);
  expectArgmaxReductions<tl::float16>(16);
}

template <class T, int Rows, int Cols>
void expectBitwiseReductions(uint32_t seed) {
  const auto x = randomBlock<tl::Block<T, Rows, Cols>>(seed);
  using U = std::conditional_t<std::is_same_v<T, bool>, unsigned, std::make_unsigned_t<T>>;
  const auto xors = tl::xor_sum<1>(x);
  const auto ors = tl::reduce_or<0>(x);
  const auto ands = tl::reduce_and<1>(x);
  const T allXor = tl::xor_sum(x), allOr = tl::reduce_or(x), allAnd = tl::reduce_and<-1>(x);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(xors)>, tl::Block<T, Rows>>);
  U totalXor = 0, totalOr = 0, totalAnd = static_cast<U>(~U(0));
  for (int i = 0; i < Rows; ++i) {
    U rowXor = 0, rowAnd = static_cast<U>(~U(0));
    for (int j = 0; j < Cols; ++j) {
      const U v = static_cast<U>(x.at(i, j));
      rowXor = static_cast<U>(rowXor ^ v), rowAnd = static_cast<U>(rowAnd & v);
      totalXor = static_cast<U>(totalXor ^ v), totalOr = static_cast<U>(totalOr | v);
      totalAnd = static_cast<U>(totalAnd & v);
    }
    EXPECT_EQ(printable(xors[i]), printable(static_cast<T>(rowXor))) << i;
    EXPECT_EQ(printable(ands[i]), printable(static_cast<T>(rowAnd))) << i;
  }
  for (int j = 0; j < Cols; ++j) {
    U columnOr = 0;
    for (int i = 0; i < Rows; ++i)
      columnOr = static_cast<U>(columnOr | static_cast<U>(x.at(i, j)));
    EXPECT_EQ(printable(ors[j]), printable(static_cast<T>(columnOr))) << j;
  }
  EXPECT_EQ(printable(allXor), printable(static_cast<T>(totalXor)));
  EXPECT_EQ(printable(allOr), printable(static_cast<T>(totalOr)));
  EXPECT_EQ(printable(allAnd), printable(static_cast<T>(totalAnd)));
}

TEST(TlReduce, BitwiseReductionsOfIntegers) {
  expectBitwiseReductions<int32_t, 8, 32>(20);
  expectBitwiseReductions<int8_t, 4, 20>(21);
  expectBitwiseReductions<uint8_t, 3, 7>(22);
  // Sparse bits, so that AND and OR are not all zeros and all ones.
  tl::Block<uint16_t, 2, 16> sparse;
  for (int k = 0; k < 32; ++k)
    sparse[k] = static_cast<uint16_t>(0x0f0f | (1u << (k % 16)));
  EXPECT_EQ(tl::reduce_and(sparse), 0x0f0f);
  EXPECT_EQ(tl::reduce_or(sparse), 0xffff);
  EXPECT_EQ(tl::xor_sum(sparse), 0); // every bit an even number of times
  // Bools, rank 1.
  tl::Block<bool, 16> flags = tl::full<bool, 16>(false);
  EXPECT_FALSE(tl::reduce_or(flags));
  flags[9] = true;
  EXPECT_TRUE(tl::reduce_or(flags));
  EXPECT_FALSE(tl::reduce_and(flags));
  EXPECT_TRUE(tl::xor_sum(flags));
}

// --- scans ------------------------------------------------------------------------------------

// The inclusive scan of x (converted to A) along the axis with f, one element after another.
template <class A, class B, class F>
std::vector<A> sequentialScan(const B& x, bool alongRows, bool reverse, F f) {
  constexpr int rows = B::rows, cols = B::cols;
  std::vector<A> out(B::size);
  const int outer = alongRows ? rows : cols, inner = alongRows ? cols : rows;
  for (int o = 0; o < outer; ++o) {
    A acc{};
    for (int t = 0; t < inner; ++t) {
      const int p = reverse ? inner - 1 - t : t;
      const int k = alongRows ? o * cols + p : p * cols + o;
      const A v = static_cast<A>(x.v[k]);
      acc = t == 0 ? v : f(acc, v);
      out[k] = acc;
    }
  }
  return out;
}

template <class Got, class A>
void expectElements(const Got& got, const std::vector<A>& expected, const char* what) {
  static_assert(std::is_same_v<typename Got::value_type, A>);
  for (int k = 0; k < Got::size; ++k)
    EXPECT_EQ(printable(got.v[k]), printable(expected[k])) << what << ", element " << k;
}

template <class A>
A wrapAdd(A a, A b) {
  if constexpr (std::is_integral_v<A>)
    return static_cast<A>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  else
    return a + b;
}
template <class A>
A wrapMul(A a, A b) {
  if constexpr (std::is_integral_v<A>)
    return static_cast<A>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
  else
    return a * b;
}

// cumsum and cumprod of x along both directions of every axis it has, against the loop.
template <class A, class B>
void expectCumulative(const B& x, const char* what) {
  constexpr bool rank2 = B::rank == 2;
  expectElements(tl::cumsum(x), sequentialScan<A>(x, !rank2, false, wrapAdd<A>), what);
  expectElements(tl::cumsum<0, true>(x), sequentialScan<A>(x, !rank2, true, wrapAdd<A>), what);
  if constexpr (rank2) {
    expectElements(tl::cumsum<1>(x), sequentialScan<A>(x, true, false, wrapAdd<A>), what);
    expectElements(tl::cumsum<-1, true>(x), sequentialScan<A>(x, true, true, wrapAdd<A>), what);
  }
}
template <class A, class B>
void expectProducts(const B& x, const char* what) {
  constexpr bool rank2 = B::rank == 2;
  expectElements(tl::cumprod(x), sequentialScan<A>(x, !rank2, false, wrapMul<A>), what);
  expectElements(tl::cumprod<0, true>(x), sequentialScan<A>(x, !rank2, true, wrapMul<A>), what);
  if constexpr (rank2) {
    expectElements(tl::cumprod<1>(x), sequentialScan<A>(x, true, false, wrapMul<A>), what);
    expectElements(tl::cumprod<1, true>(x), sequentialScan<A>(x, true, true, wrapMul<A>), what);
  }
}

TEST(TlScan, CumsumMatchesTheSequentialSums) {
  // Integer-valued floats with partial sums below 2^24: exact in any order.
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 1>>(30, -1000, 1000), "f32 [1]");
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 8>>(31, -1000, 1000), "f32 [8]");
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 40>>(32, -1000, 1000), "f32 [40]");
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 48>>(33, -1000, 1000), "f32 [48]");
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 1024>>(34, -1000, 1000),
                          "f32 [1024]");
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 8, 64>>(35, -1000, 1000),
                          "f32 [8,64]");
  expectCumulative<float>(integerValuedBlock<tl::Block<float, 64, 4>>(36, -1000, 1000),
                          "f32 [64,4]");
  // int32 over its whole range, wrapping.
  expectCumulative<int32_t>(randomBlock<tl::Block<int32_t, 256>>(37), "i32 [256]");
  expectCumulative<int32_t>(randomBlock<tl::Block<int32_t, 16, 32>>(38), "i32 [16,32]");
  expectCumulative<int32_t>(randomBlock<tl::Block<int32_t, 3, 24>>(39), "i32 [3,24]");
}

TEST(TlScan, CumsumWidensNarrowTypesAsSumDoes) {
  // int8 sums in int32 (partial sums leave int8's range); fp16 in fp32.
  const auto bytes = randomBlock<tl::Block<int8_t, 128>>(40, 60, 127);
  static_assert(std::is_same_v<decltype(tl::cumsum(bytes)), tl::Block<int32_t, 128>>);
  expectCumulative<int32_t>(bytes, "i8 [128]");
  expectCumulative<int32_t>(randomBlock<tl::Block<int8_t, 4, 32>>(41), "i8 [4,32]");
  // Integers below 2^11, exact in fp16, and their sums in fp32.
  const auto integral = integerValuedBlock<tl::Block<tl::float16, 8, 32>>(42, -1000, 1000);
  static_assert(std::is_same_v<decltype(tl::cumsum(integral)), tl::Block<float, 8, 32>>);
  expectCumulative<float>(integral, "f16 [8,32]");
}

TEST(TlScan, CumprodMatchesTheSequentialProducts) {
  // Powers of two and their negatives: products are exact in fp32 (and in fp16 inputs).
  const float factors[] = {0.5f, 1.0f, 2.0f, -1.0f, -2.0f, 1.0f};
  tl::Block<float, 64> f;
  tl::Block<float, 8, 16> g;
  tl::Block<tl::float16, 32> h;
  const auto choice = randomBlock<tl::Block<int32_t, 128>>(43, 0, 5);
  for (int k = 0; k < 64; ++k)
    f[k] = factors[choice[k]];
  for (int k = 0; k < 128; ++k)
    g[k] = factors[choice[k]];
  for (int k = 0; k < 32; ++k)
    h[k] = static_cast<tl::float16>(factors[choice[k + 7]]);
  expectProducts<float>(f, "f32 [64]");
  expectProducts<float>(g, "f32 [8,16]");
  static_assert(std::is_same_v<decltype(tl::cumprod(h)), tl::Block<float, 32>>);
  expectProducts<float>(h, "f16 [32]");
  // Integers wrap in their own type.
  expectProducts<int32_t>(randomBlock<tl::Block<int32_t, 64>>(44), "i32 [64]");
  expectProducts<int32_t>(randomBlock<tl::Block<int32_t, 4, 48>>(45), "i32 [4,48]");
  const auto bytes = randomBlock<tl::Block<int8_t, 2, 32>>(46);
  static_assert(std::is_same_v<decltype(tl::cumprod(bytes)), tl::Block<int8_t, 2, 32>>);
  expectProducts<int8_t>(bytes, "i8 [2,32]");
}

TEST(TlScan, ScansKeepTheEarlierElementsOnTheLeft) {
  // combine(a, b) = a keeps the first element (the last one when reversed), b the element
  // itself: any swap of operands would show.
  const auto first = [](int32_t a, int32_t) { return a; };
  const auto last = [](int32_t, int32_t b) { return b; };
  const auto x = randomBlock<tl::Block<int32_t, 8, 48>>(50);
  const tl::Block<int32_t, 8, 48> along = tl::associative_scan<1>(x, first);
  const tl::Block<int32_t, 8, 48> back = tl::associative_scan<1, true>(x, first);
  const tl::Block<int32_t, 8, 48> down = tl::associative_scan<0>(x, first);
  const tl::Block<int32_t, 8, 48> up = tl::associative_scan<0, true>(x, first);
  const tl::Block<int32_t, 8, 48> same = tl::associative_scan<1>(x, last);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 48; ++j) {
      EXPECT_EQ(along.at(i, j), x.at(i, 0));
      EXPECT_EQ(back.at(i, j), x.at(i, 47));
      EXPECT_EQ(down.at(i, j), x.at(0, j));
      EXPECT_EQ(up.at(i, j), x.at(7, j));
      EXPECT_EQ(same.at(i, j), x.at(i, j));
    }
}

TEST(TlScan, OneOperandScansOfEachType) {
  // Running maxima of floats (exact in any order), int8 sums that wrap in int8 (the combine's
  // int result is converted back), and int32 running minima; rank 1 and 2, both directions.
  const auto biggest = [](auto a, auto b) { return a > b ? a : b; };
  const auto smallest = [](int32_t a, int32_t b) { return a < b ? a : b; };
  const auto add8 = [](int8_t a, int8_t b) { return a + b; };
  const auto wrap8 = [](int8_t a, int8_t b) {
    return static_cast<int8_t>(static_cast<uint8_t>(a) + static_cast<uint8_t>(b));
  };
  const auto f = randomBlock<tl::Block<float, 64>>(60);
  const auto m = randomBlock<tl::Block<float, 4, 32>>(61);
  const auto i8 = randomBlock<tl::Block<int8_t, 48>>(62);
  const auto i32 = randomBlock<tl::Block<int32_t, 16, 8>>(63);
  const auto floatMax = [](float a, float b) { return a > b ? a : b; };
  expectElements(tl::associative_scan<0>(f, biggest),
                 sequentialScan<float>(f, true, false, floatMax), "f32 [64] max");
  expectElements(tl::associative_scan<0, true>(f, biggest),
                 sequentialScan<float>(f, true, true, floatMax), "f32 [64] max reversed");
  expectElements(tl::associative_scan<1>(m, biggest),
                 sequentialScan<float>(m, true, false, floatMax), "f32 [4,32] max");
  expectElements(tl::associative_scan<0, true>(m, biggest),
                 sequentialScan<float>(m, false, true, floatMax), "f32 [4,32] max down");
  expectElements(tl::associative_scan<0>(i8, add8), sequentialScan<int8_t>(i8, true, false, wrap8),
                 "i8 [48] sum");
  expectElements(tl::associative_scan<-1, true>(i8, add8),
                 sequentialScan<int8_t>(i8, true, true, wrap8), "i8 [48] sum reversed");
  expectElements(tl::associative_scan<0>(i32, smallest),
                 sequentialScan<int32_t>(i32, false, false, smallest), "i32 [16,8] min down");
  expectElements(tl::associative_scan<1, true>(i32, smallest),
                 sequentialScan<int32_t>(i32, true, true, smallest), "i32 [16,8] min reversed");
}

// x_k = a_k * x_(k-1) + b_k (Triton's linear_recurrence test), in uint32: associative, not
// commutative, and exact.
const auto linearRecurrence = [](uint32_t a1, uint32_t b1, uint32_t a2, uint32_t b2) {
  return std::make_pair(a1 * a2, b1 * a2 + b2);
};

template <int Axis, bool Reverse, class B>
void expectLinearRecurrence(const B& a, const B& b, const char* what) {
  const auto [products, values] = tl::associative_scan2<Axis, Reverse>(a, b, linearRecurrence);
  constexpr bool alongRows = B::rank == 1 || Axis == 1 || Axis == -1;
  constexpr int rows = B::rows, cols = B::cols;
  const int outer = alongRows ? rows : cols, inner = alongRows ? cols : rows;
  for (int o = 0; o < outer; ++o) {
    uint32_t state = 0, product = 1;
    for (int t = 0; t < inner; ++t) {
      const int p = Reverse ? inner - 1 - t : t;
      const int k = alongRows ? o * cols + p : p * cols + o;
      state = a.v[k] * state + b.v[k];
      product *= a.v[k];
      EXPECT_EQ(values.v[k], state) << what << ", element " << k;
      EXPECT_EQ(products.v[k], product) << what << ", element " << k;
    }
  }
}

TEST(TlScan, TwoOperandScansComputeLinearRecurrences) {
  const auto a = randomBlock<tl::Block<uint32_t, 64>>(51);
  const auto b = randomBlock<tl::Block<uint32_t, 64>>(52);
  expectLinearRecurrence<0, false>(a, b, "[64]");
  expectLinearRecurrence<0, true>(a, b, "[64] reversed");
  const auto c = randomBlock<tl::Block<uint32_t, 40>>(53);
  expectLinearRecurrence<0, false>(c, c, "[40]");
  const auto m = randomBlock<tl::Block<uint32_t, 8, 32>>(54);
  const auto n = randomBlock<tl::Block<uint32_t, 8, 32>>(55);
  expectLinearRecurrence<1, false>(m, n, "[8,32] axis 1");
  expectLinearRecurrence<1, true>(m, n, "[8,32] axis 1 reversed");
  expectLinearRecurrence<0, false>(m, n, "[8,32] axis 0");
  expectLinearRecurrence<0, true>(m, n, "[8,32] axis 0 reversed");
  const auto p = randomBlock<tl::Block<uint32_t, 32, 4>>(56);
  const tl::Block<uint32_t, 32, 4> q = p ^ m.v[0];
  expectLinearRecurrence<-1, false>(p, q, "[32,4] axis -1");
}

TEST(TlScan, TwoOperandScansOfDifferentTypesTrackTheRunningMaximum) {
  // Triton's cummax test: the running maximum and where it was (the later one on ties).
  const auto v = integerValuedBlock<tl::Block<float, 4, 32>>(57, -3, 3); // ties are common
  const auto cummax = [](float v0, int32_t i0, float v1, int32_t i1) {
    const bool gt = v0 > v1;
    return std::make_tuple(gt ? v0 : v1, gt ? i0 : i1);
  };
  const auto [values, where] =
      tl::associative_scan2<1>(v, tl::broadcast_to<4, 32>(tl::arange<0, 32>()), cummax);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(where)>, tl::Block<int32_t, 4, 32>>);
  for (int i = 0; i < 4; ++i) {
    int best = 0;
    for (int j = 0; j < 32; ++j) {
      if (!(v.at(i, best) > v.at(i, j))) best = j;
      EXPECT_EQ(values.at(i, j), v.at(i, best)) << i << "," << j;
      EXPECT_EQ(where.at(i, j), best) << i << "," << j;
    }
  }
}

TEST(TlScan, LazyOperandsAreScannedAsTheirValues) {
  float data[32];
  for (int k = 0; k < 32; ++k)
    data[k] = static_cast<float>(k % 5 - 2);
  const float* p = data;
  const auto offsets = tl::arange<0, 32>();
  const tl::Block<float, 32> got = tl::cumsum(tl::load(p + offsets, offsets < 20, 3.0f) * 2.0f);
  float acc = 0;
  for (int k = 0; k < 32; ++k) {
    acc += 2.0f * (k < 20 ? data[k] : 3.0f);
    EXPECT_EQ(got[k], acc) << k;
  }
  const tl::Block<int32_t, 16> triangular = tl::cumsum(tl::arange<1, 17>());
  for (int k = 0; k < 16; ++k)
    EXPECT_EQ(triangular[k], (k + 1) * (k + 2) / 2) << k;
}

} // namespace
} // namespace tcpu::test
