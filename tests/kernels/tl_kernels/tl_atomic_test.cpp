// tl/atomic.h through codegen (kernels/tl_atomic.cpp): every atomic from many
// programs at once, where only exact counts are right, and Triton's order for
// float max and min.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "tl_kernel_test_support.hpp"

namespace tcpu::test {
namespace {

class TlAtomic : public TlKernelTest {
protected:
  TlAtomic() : TlKernelTest("tl_atomic.bc") {}
};

constexpr int kPrograms = 1024; // a multiple of 64; > 512 so that the unsigned min is telling

TEST_F(TlAtomic, EveryAtomicIsExactUnderAParallelGrid) {
  constexpr size_t P = kPrograms;
  for (int round = 0; round < 3; ++round) {
    std::vector<int32_t> counts(64, 0);
    std::vector<int64_t> pidSums(64, 0);
    std::vector<uint32_t> orBits(P / 32, 0), xorWords(64, 0);
    uint32_t andWord = 0xffffffffu;
    std::vector<int64_t> andWords64(64, -1);
    float floatSum = 0;
    std::vector<double> doubleSums(64, 0);
    std::vector<uint16_t> halfSums(64, floatToHalf(0)), bfSums(64, 0);
    std::vector<float> floatMax(64, -INFINITY), floatMin(64, INFINITY);
    std::vector<double> doubleMax(64, -INFINITY);
    std::vector<int32_t> intMax(64, INT32_MIN);
    std::vector<uint32_t> uintMin(64, 0xffffffffu);
    std::vector<uint16_t> halfMax(64, floatToHalf(-INFINITY));
    int32_t counter = 0, slot = -1, lock = 0, guarded = 0;
    std::vector<int32_t> counterOlds(P, -7), slotOlds(P, -7);
    float casFloat = 0;
    std::vector<int32_t> casCells(64, 0), casOlds(P * 64, -7), maskedOlds(P * 64, -7);
    ASSERT_TCPU(launch(kernel("atomic_grid"), kPrograms, 1, 1, counts.data(), pidSums.data(),
                       orBits.data(), xorWords.data(), &andWord, andWords64.data(), &floatSum,
                       doubleSums.data(), halfSums.data(), bfSums.data(), floatMax.data(),
                       floatMin.data(), doubleMax.data(), intMax.data(), uintMin.data(),
                       halfMax.data(), &counter, counterOlds.data(), &slot, slotOlds.data(), &lock,
                       &guarded, &casFloat, casCells.data(), casOlds.data(), maskedOlds.data()));

    // bf16 stops counting at 256: 256 + 1 is a tie, which rounds to even (256). The sequence of
    // values each lane passes through, from this test's own rounding.
    std::vector<int32_t> bfSequence;
    float bf = 0;
    for (size_t p = 0; p < P; ++p) {
      bfSequence.push_back(static_cast<int32_t>(bf));
      bf = bf16ToFloat(floatToBf16(bf + 1.0f));
    }
    for (int l = 0; l < 64; ++l) {
      const size_t lane = static_cast<size_t>(l);
      EXPECT_EQ(counts[lane], static_cast<int32_t>(P)) << "lane " << l;
      EXPECT_EQ(pidSums[lane], l < 32 ? static_cast<int64_t>(P * (P - 1) / 2) : 0) << l;
      uint32_t x = 0;
      for (size_t p = 0; p < P; ++p)
        x ^= static_cast<uint32_t>(l) + static_cast<uint32_t>(p) * 2654435761u;
      EXPECT_EQ(xorWords[lane], x) << l;
      EXPECT_EQ(andWords64[lane], ~(int64_t{1} << l)) << l;
      EXPECT_EQ(doubleSums[lane], 0.25 * P) << l;
      EXPECT_EQ(halfToFloat(halfSums[lane]), static_cast<float>(P)) << l; // exact below 2048
      EXPECT_EQ(bf16ToFloat(bfSums[lane]), l < 8 ? bf : 0.0f) << l;
      EXPECT_EQ(floatMax[lane], -0.25f - static_cast<float>(l)) << l;
      EXPECT_EQ(floatMin[lane], static_cast<float>(l) - (P - 1) * 0.5f) << l;
      EXPECT_EQ(doubleMax[lane], (P - 1) - 1000.5 - l) << l;
      EXPECT_EQ(intMax[lane], static_cast<int32_t>(P) - 1 - 100) << l;
      EXPECT_EQ(uintMin[lane], 0x7ffffe00u) << l;
      EXPECT_EQ(halfMax[lane], floatToHalf(0.0f)) << l;
      // The masked bf16 add's old values: the whole sequence on lanes < 8, 0 elsewhere.
      std::vector<int32_t> olds;
      for (size_t p = 0; p < P; ++p)
        olds.push_back(maskedOlds[p * 64 + lane] - 1000);
      std::sort(olds.begin(), olds.end());
      EXPECT_EQ(olds, l < 8 ? bfSequence : std::vector<int32_t>(P, 0)) << l;
      // One program wins each cell of the block compare-and-swap; the others see its value.
      int winners = 0;
      for (size_t p = 0; p < P; ++p) {
        const int32_t old = casOlds[p * 64 + lane];
        if (old == 0) {
          ++winners;
          EXPECT_EQ(casCells[lane], static_cast<int32_t>(p) + 1) << l;
        } else {
          EXPECT_EQ(old, casCells[lane]) << l;
        }
      }
      EXPECT_EQ(winners, 1) << l;
    }
    for (uint32_t word : orBits)
      EXPECT_EQ(word, 0xffffffffu);
    EXPECT_EQ(andWord, 0xfff00000u); // pids 0..19 cleared bits 0..19
    EXPECT_EQ(floatSum, 0.5f * P);
    // Old values of the counter: each of 0..P-1 once. The exchanged slot: -1 and every pid, once.
    std::vector<int32_t> sorted = counterOlds, expected(P);
    std::iota(expected.begin(), expected.end(), 0);
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, expected);
    EXPECT_EQ(counter, static_cast<int32_t>(P));
    sorted = slotOlds;
    sorted.push_back(slot);
    std::sort(sorted.begin(), sorted.end());
    expected.insert(expected.begin(), -1);
    EXPECT_EQ(sorted, expected);
    EXPECT_EQ(lock, 0);
    EXPECT_EQ(guarded, static_cast<int32_t>(P));
    EXPECT_EQ(casFloat, static_cast<float>(P));
  }
}

// IEEE 754's totalOrder as an unsigned key: negative values' bits reversed below positive ones.
uint32_t orderKey(uint32_t bits) {
  return (bits >> 31) != 0 ? ~bits : bits | 0x80000000u;
}
uint64_t orderKey(uint64_t bits) {
  return (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
}

// Every pair of specials (cell, value): atomic_max and atomic_min store the larger (smaller) in
// totalOrder, bit for bit, and return the cell's old bits.
template <class T, class Bits>
void checkExtremes(TlAtomic& test, const char* name, const std::vector<Bits>& specials) {
  std::vector<T> maxCells, minCells, values;
  std::vector<Bits> cellBits, valueBits;
  for (Bits a : specials)
    for (Bits b : specials) {
      T x, y;
      std::memcpy(&x, &a, sizeof(T));
      std::memcpy(&y, &b, sizeof(T));
      maxCells.push_back(x), minCells.push_back(x), values.push_back(y);
      cellBits.push_back(a), valueBits.push_back(b);
    }
  const size_t n = values.size();
  std::vector<T> maxOlds(n), minOlds(n);
  ASSERT_TCPU(test.launch(test.kernel(name), 1, 1, 1, maxCells.data(), minCells.data(),
                          values.data(), maxOlds.data(), minOlds.data(), static_cast<int32_t>(n)));
  const auto bitsOf = [](T x) {
    Bits b;
    std::memcpy(&b, &x, sizeof(T));
    return b;
  };
  for (size_t i = 0; i < n; ++i) {
    const Bits a = cellBits[i], b = valueBits[i];
    const Bits larger = orderKey(b) > orderKey(a) ? b : a;
    const Bits smaller = orderKey(b) < orderKey(a) ? b : a;
    EXPECT_EQ(bitsOf(maxCells[i]), larger) << name << " max of " << std::hex << a << ", " << b;
    EXPECT_EQ(bitsOf(minCells[i]), smaller) << name << " min of " << std::hex << a << ", " << b;
    EXPECT_EQ(bitsOf(maxOlds[i]), a) << name;
    EXPECT_EQ(bitsOf(minOlds[i]), a) << name;
  }
}

// Triton compiles float atomic_max as a signed integer max of the bits where the value's sign bit
// is clear and an unsigned min where it is set (atomic_min the other way round): numbers order as
// numbers, -0 below +0, NaN above +inf with the sign clear and below -inf with it set.
TEST_F(TlAtomic, FloatMaxAndMinFollowTritonsOrder) {
  checkExtremes<float, uint32_t>(*this, "f32_extremes",
                                 {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                                  0xff800000u, 0x7fc00000u, 0xffc00000u, 0x40200000u, 0xc0200000u,
                                  0x00000001u, 0x80000001u, 0x7f7fffffu, 0xff7fffffu});
  checkExtremes<double, uint64_t>(
      *this, "f64_extremes",
      {0x0ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
       0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
       0x0000000000000001ull, 0x8000000000000001ull, 0x4004000000000000ull, 0xc004000000000000ull});
}

// Block atomics across stripe boundaries from every program at once (block_tickets): each cell
// ends at the count of programs, each program's old value of a cell is a distinct ticket, and
// masked-off cells are not touched.
TEST_F(TlAtomic, BlocksAcrossStripesAreExactUnderAParallelGrid) {
  constexpr int P = 256, Rows = 16, Cols = 128;
  std::vector<int32_t> cells(3 + 15 * 100 + Cols + 8, 0), tickets(size_t{P} * Rows * Cols, -7);
  std::vector<int32_t> reversed(1600, 0), strided(2000, -1);
  ASSERT_TCPU(launch(kernel("block_tickets"), P, 1, 1, cells.data(), tickets.data(),
                     reversed.data(), strided.data()));
  std::vector<int32_t> expected(cells.size(), 0);
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c) {
      if (c < 97) expected[static_cast<size_t>(3 + r * 100 + c)] += P;
      std::vector<int32_t> seen;
      for (int p = 0; p < P; ++p)
        seen.push_back(tickets[(static_cast<size_t>(p) * Rows + static_cast<size_t>(r)) * Cols +
                               static_cast<size_t>(c)]);
      std::sort(seen.begin(), seen.end());
      for (int p = 0; p < P; ++p)
        ASSERT_EQ(seen[static_cast<size_t>(p)], c < 97 ? p : 0) << "row " << r << " col " << c;
    }
  EXPECT_EQ(cells, expected);
  EXPECT_EQ(reversed, std::vector<int32_t>(1600, 2 * P));
  for (size_t i = 0; i < strided.size(); ++i)
    ASSERT_EQ(strided[i], i % 2 == 0 ? P - 1 : -1) << i;
}

// Codegen marks the kernels whose programs wait for each other (TCPU_KERNEL_PROGRAMS_WAIT, which
// the runtime deals in launch order): a loop that leaves on a compare-and-swap of a fixed value
// (atomic_grid's spin lock) or on an exchange (test_and_set). tl's atomics take a stripe lock
// (a compare-and-swap of a fixed value, which is not a wait for another program's progress), and
// updates_only's own retry loop on compare-and-swap leaves whatever the other programs do: those
// mark nothing.
TEST_F(TlAtomic, OnlyKernelsWhoseProgramsWaitAreFlagged) {
  const auto flags = [&](const char* name) {
    unsigned int value = 0xdead;
    EXPECT_EQ(tcpuFuncGetFlags(&value, kernel(name)), TCPU_SUCCESS) << name;
    return value;
  };
  EXPECT_EQ(flags("atomic_grid"), TCPU_KERNEL_PROGRAMS_WAIT);
  EXPECT_EQ(flags("test_and_set"), TCPU_KERNEL_PROGRAMS_WAIT);
  EXPECT_EQ(flags("updates_only"), 0u);
  EXPECT_EQ(flags("f32_extremes"), 0u);
  EXPECT_EQ(flags("f64_extremes"), 0u);

  // The test-and-set lock keeps its increments exact.
  int32_t lock = 0, guarded = 0;
  ASSERT_TCPU(launch(kernel("test_and_set"), kPrograms, 1, 1, &lock, &guarded));
  EXPECT_EQ(guarded, kPrograms);
  EXPECT_EQ(lock, 0);
  // And the updates are exact.
  float sum = 0, casFloat = 0;
  std::vector<int32_t> counts(16, 0);
  std::vector<float> floatMax(16, -INFINITY);
  ASSERT_TCPU(launch(kernel("updates_only"), kPrograms, 1, 1, &sum, counts.data(), floatMax.data(),
                     &casFloat));
  EXPECT_EQ(sum, 0.5f * kPrograms);
  EXPECT_EQ(casFloat, static_cast<float>(kPrograms));
  for (int k = 0; k < 16; ++k) {
    EXPECT_EQ(counts[static_cast<size_t>(k)], kPrograms);
    EXPECT_EQ(floatMax[static_cast<size_t>(k)], static_cast<float>(kPrograms - 1));
  }
}

} // namespace
} // namespace tcpu::test
