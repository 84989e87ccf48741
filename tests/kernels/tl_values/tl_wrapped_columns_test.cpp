// Pointers with an explicit column part (tl::PtrCols, tl/memory.h), compiled for the host: the
// matmul tutorial's wrapped columns (`(pid_n * BLOCK_N + arange) % N`) added to per-row offsets,
// in both of the ways Triton code writes it. Tiles the wrap does not reach take the contiguous
// path, tiles it reaches gather; loads and stores see the same elements either way. And the
// tutorial's wrapped rows (`(pid_m * BLOCK_M + arange) % M`), added first as a column of
// offsets and then the affine k part: a structured Ptr (whole rows as contiguous runs), not a
// block of pointers that every load would gather through.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tcpu/tl/memory.h"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

constexpr int kRows = 4, kBlockN = 8, kStride = 20, kN = 12;

// The tile of program pid_n: columns (pid_n * 8 + j) % 12, rows i of a row-major [4, 20] array.
template <class T>
auto wrappedTile(T* base, int32_t pidN, bool offsetsFirst) {
  const auto rows = tl::arange<0, kRows>();
  const auto cols = (pidN * kBlockN + tl::arange<0, kBlockN>()) % kN;
  if (offsetsFirst) return base + (tl::col(rows) * kStride + tl::row(cols) * 1);
  return (base + tl::col(rows) * kStride) + tl::row(cols) * 1;
}

TEST(TlWrappedColumns, LoadsAndStoresReachTheWrappedElements) {
  float x[kRows * kStride];
  for (int k = 0; k < kRows * kStride; ++k)
    x[k] = static_cast<float>(k);
  for (const bool offsetsFirst : {true, false})
    for (const int32_t pidN : {0, 1}) { // program 0 stays inside N, program 1 wraps
      const auto p = wrappedTile(static_cast<const float*>(x), pidN, offsetsFirst);
      static_assert(std::is_same_v<decltype(p), const tl::PtrCols<const float, kRows, kBlockN>>);
      tl::Ptr<const float, kRows, kBlockN> dense;
      EXPECT_EQ(p.dense(dense), pidN == 0) << "columns contiguous only where nothing wraps";
      const auto loaded = tl::load(p, tl::col(tl::arange<0, kRows>()) < 3, -1.0f);
      for (int i = 0; i < kRows; ++i)
        for (int j = 0; j < kBlockN; ++j) {
          const int column = (pidN * kBlockN + j) % kN;
          EXPECT_EQ(loaded.at(i, j), i < 3 ? x[i * kStride + column] : -1.0f)
              << "row " << i << ", lane " << j << ", program " << pidN;
        }
      float z[kRows * kStride] = {};
      auto q = wrappedTile(z, pidN, offsetsFirst);
      q += 0; // advancing keeps the type (a loop-carried pointer block)
      tl::store(q, tl::load(p));
      for (int i = 0; i < kRows; ++i)
        for (int c = 0; c < kStride; ++c) {
          const bool written = pidN == 0 ? c < kBlockN : (c >= kBlockN && c < kN) || c < 4;
          EXPECT_EQ(z[i * kStride + c], written ? x[i * kStride + c] : 0.0f)
              << "row " << i << ", column " << c << ", program " << pidN;
        }
    }
}

constexpr int kBlockM = 4, kM = 6, kBlockK = 8;

TEST(TlWrappedRows, RowOffsetsThenAnAffineColumnAreAPtr) {
  float x[kM * kStride];
  for (int k = 0; k < kM * kStride; ++k)
    x[k] = static_cast<float>(k);
  const float* base = x;
  for (const int32_t pidM : {0, 1}) { // program 1's rows wrap past M
    const auto rows = (pidM * kBlockM + tl::arange<0, kBlockM>()) % kM;
    const auto ks = tl::arange<0, kBlockK>();
    const auto rowPointers = base + tl::col(rows) * kStride;
    static_assert(std::is_same_v<decltype(rowPointers), const tl::Ptr<const float, kBlockM, 1>>);
    const auto offsetsFirst = tl::col(rows) * kStride + base;
    static_assert(std::is_same_v<decltype(offsetsFirst), decltype(rowPointers)>);
    auto p = rowPointers + tl::row(ks) * 1;
    static_assert(std::is_same_v<decltype(p), tl::Ptr<const float, kBlockM, kBlockK>>);
    p += 2;              // a loop's `a_ptrs += BLOCK_K * stride_ak`
    const int kLeft = 5; // K's mask: lanes k >= 5 read `other`
    const tl::Block<float, kBlockM, kBlockK> loaded = tl::load(p, tl::row(ks) < kLeft, -1.0f);
    for (int i = 0; i < kBlockM; ++i)
      for (int k = 0; k < kBlockK; ++k) {
        const int row = (pidM * kBlockM + i) % kM;
        EXPECT_EQ(loaded.at(i, k), k < kLeft ? x[row * kStride + 2 + k] : -1.0f)
            << "row " << i << ", k " << k << ", program " << pidM;
      }
    // With explicit columns too (both wrapped): a PtrCols over the same row offsets.
    const auto cols = (tl::arange<0, kBlockN>() + 9) % kN;
    const auto both = rowPointers + tl::row(cols) * 1;
    static_assert(std::is_same_v<decltype(both), const tl::PtrCols<const float, kBlockM, kBlockN>>);
    const auto gathered = tl::load(both);
    for (int i = 0; i < kBlockM; ++i)
      for (int j = 0; j < kBlockN; ++j)
        EXPECT_EQ(gathered.at(i, j), x[((pidM * kBlockM + i) % kM) * kStride + (j + 9) % kN])
            << "row " << i << ", lane " << j << ", program " << pidM;
  }
}

} // namespace
} // namespace tcpu::test
