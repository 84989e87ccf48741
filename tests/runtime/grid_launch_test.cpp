// Every program of a grid runs exactly once and sees its own ids, for every
// thread count and schedule.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <tuple>
#include <vector>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

struct Grid {
  uint32_t x, y, z;
  uint64_t programs() const { return uint64_t{x} * y * z; }
};

struct Schedule {
  tcpuSchedule kind;
  unsigned chunk;
};

std::string describe(const ::testing::TestParamInfo<std::tuple<Grid, int, Schedule>>& info) {
  const auto& [grid, threads, schedule] = info.param;
  static const char* const kinds[] = {"static", "dynamic", "guided"};
  return std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z) +
         "_threads" + std::to_string(threads) + "_" + kinds[schedule.kind] +
         std::to_string(schedule.chunk);
}

class GridCoverage : public RuntimeTest,
                     public ::testing::WithParamInterface<std::tuple<Grid, int, Schedule>> {};

TEST_P(GridCoverage, EveryProgramRunsExactlyOnceWithItsIds) {
  const auto& [grid, threads, schedule] = GetParam();
  ASSERT_TCPU(tcpuSetNumThreads(threads));
  ASSERT_TCPU(tcpuSetSchedule(schedule.kind, schedule.chunk));
  std::vector<uint32_t> hits(grid.programs(), 0);
  uint32_t errors = 0;
  uint32_t* hitsPtr = hits.data();
  uint32_t* errorsPtr = &errors;
  uint32_t ex = grid.x, ey = grid.y, ez = grid.z;
  void* params[] = {&hitsPtr, &errorsPtr, &ex, &ey, &ez};
  ASSERT_TCPU(tcpuLaunchKernel(function("count_programs"), grid.x, grid.y, grid.z, 1, 1, 1, 0,
                               nullptr, params, nullptr));
  EXPECT_EQ(errors, 0u) << "programs saw wrong ids or num_programs";
  const auto wrong = std::count_if(hits.begin(), hits.end(), [](uint32_t h) { return h != 1; });
  EXPECT_EQ(wrong, 0) << "programs not run exactly once";
}

INSTANTIATE_TEST_SUITE_P(Grids, GridCoverage,
                         ::testing::Combine(::testing::Values(Grid{1, 1, 1}, Grid{7, 3, 5},
                                                              Grid{65536, 1, 1}, Grid{1, 1, 65535},
                                                              Grid{3, 1, 70000}),
                                            ::testing::Values(1, 2, 8),
                                            ::testing::Values(Schedule{TCPU_SCHEDULE_STATIC, 0},
                                                              Schedule{TCPU_SCHEDULE_STATIC, 7},
                                                              Schedule{TCPU_SCHEDULE_DYNAMIC, 0},
                                                              Schedule{TCPU_SCHEDULE_DYNAMIC, 64},
                                                              Schedule{TCPU_SCHEDULE_GUIDED, 0},
                                                              Schedule{TCPU_SCHEDULE_GUIDED, 16})),
                         describe);

class GridLaunch : public RuntimeTest {};

TEST_F(GridLaunch, OneThreadRunsProgramsInXFastestOrder) {
  ASSERT_TCPU(tcpuSetNumThreads(1));
  const Grid grid{5, 4, 3};
  std::vector<uint64_t> order(grid.programs(), ~uint64_t{0});
  uint64_t cursor = 0;
  uint64_t* orderPtr = order.data();
  uint64_t* cursorPtr = &cursor;
  void* params[] = {&orderPtr, &cursorPtr};
  ASSERT_TCPU(tcpuLaunchKernel(function("record_order"), grid.x, grid.y, grid.z, 1, 1, 1, 0,
                               nullptr, params, nullptr));
  std::vector<uint64_t> expected(grid.programs());
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(order, expected); // linear index x + gx*(y + gy*z), increasing
}

TEST_F(GridLaunch, StaticChunksAreContiguousRanges) {
  // With two threads and static shares, each thread runs one contiguous half in order. Static is
  // set here: the default (guided) deals ranges that interleave.
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_STATIC, 0));
  const Grid grid{1000, 1, 1};
  std::vector<uint64_t> order(grid.programs());
  uint64_t cursor = 0;
  uint64_t* orderPtr = order.data();
  uint64_t* cursorPtr = &cursor;
  void* params[] = {&orderPtr, &cursorPtr};
  ASSERT_TCPU(tcpuLaunchKernel(function("record_order"), grid.x, 1, 1, 1, 1, 1, 0, nullptr, params,
                               nullptr));
  std::vector<uint64_t> lowHalf, highHalf;
  for (uint64_t index : order)
    (index < 500 ? lowHalf : highHalf).push_back(index);
  EXPECT_TRUE(std::is_sorted(lowHalf.begin(), lowHalf.end()));
  EXPECT_TRUE(std::is_sorted(highHalf.begin(), highHalf.end()));
  EXPECT_EQ(lowHalf.size(), 500u);
}

TEST_F(GridLaunch, KernelsOfAbiV1StillRun) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  std::vector<int32_t> out(64, 0);
  int32_t* data = out.data();
  uint32_t victim = 99, kind = 0; // no program faults
  void* params[] = {&data, &victim, &kind};
  ASSERT_TCPU(
      tcpuLaunchKernel(function("fault_at_v1"), 64, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), 64);
}

TEST_F(GridLaunch, ZeroSizedGridsAreNoOps) {
  uint32_t hit = 0;
  uint32_t errors = 0;
  uint32_t* hitPtr = &hit;
  uint32_t* errorsPtr = &errors;
  uint32_t one = 1;
  void* params[] = {&hitPtr, &errorsPtr, &one, &one, &one};
  const tcpuFunction f = function("count_programs");
  EXPECT_TCPU(tcpuLaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_TCPU(tcpuLaunchKernel(f, 1, 0, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_TCPU(tcpuLaunchKernel(f, 5, 5, 0, 1, 1, 1, 0, nullptr, params, nullptr));
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  EXPECT_TCPU(tcpuLaunchKernel(f, 0, 0, 0, 1, 1, 1, 0, stream, params, nullptr));
  EXPECT_TCPU(tcpuStreamDestroy(stream));
  EXPECT_EQ(hit, 0u);
}

TEST_F(GridLaunch, MoreThan2To32Programs) {
  // 65536 * 65537 = 2^32 + 65536 programs: the linear index needs 64 bits.
  const uint32_t gx = 65536, gy = 65537;
  std::vector<uint32_t> rowHits(gy, 0);
  uint32_t lastSeen = 0;
  uint32_t* rowPtr = rowHits.data();
  uint32_t* lastPtr = &lastSeen;
  void* params[] = {&rowPtr, &lastPtr};
  ASSERT_TCPU(
      tcpuLaunchKernel(function("row_starts"), gx, gy, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(std::count(rowHits.begin(), rowHits.end(), 1u), gy);
  EXPECT_EQ(lastSeen, 1u);
}

TEST_F(GridLaunch, ScratchIsPerProgramAlignedAndSized) {
  for (int threads : {1, 2}) {
    ASSERT_TCPU(tcpuSetNumThreads(threads));
    uint32_t errors = 0;
    uint32_t* errorsPtr = &errors;
    uint32_t bytes = 4096;
    void* params[] = {&errorsPtr, &bytes};
    ASSERT_TCPU(tcpuLaunchKernel(function("scratch_check"), 257, 1, 1, 1, 1, 1, bytes, nullptr,
                                 params, nullptr));
    EXPECT_EQ(errors, 0u) << threads << " threads";
  }
}

TEST_F(GridLaunch, LaunchFromInsideAKernelKeepsTheOuterScratch) {
  tcpuModule nested;
  ASSERT_TCPU(tcpuModuleLoad(&nested, TCPU_TEST_NESTED_KERNELS_PATH));
  tcpuFunction outer, inner;
  ASSERT_TCPU(tcpuModuleGetFunction(&outer, nested, "outer_scratch"));
  ASSERT_TCPU(tcpuModuleGetFunction(&inner, nested, "inner_scratch"));
  for (int threads : {1, 2}) {
    ASSERT_TCPU(tcpuSetNumThreads(threads));
    uint32_t errors = 0;
    uint32_t* errorsPtr = &errors;
    void* params[] = {&inner, &errorsPtr};
    ASSERT_TCPU(tcpuLaunchKernel(outer, 4, 1, 1, 1, 1, 1, 256, nullptr, params, nullptr));
    EXPECT_EQ(errors, 0u) << threads << " threads";
  }
  ASSERT_TCPU(tcpuModuleUnload(nested));
}

TEST_F(GridLaunch, BlockDimensionsAreAcceptedAndIgnored) {
  std::vector<uint32_t> hits(6, 0);
  uint32_t errors = 0;
  uint32_t* hitsPtr = hits.data();
  uint32_t* errorsPtr = &errors;
  uint32_t ex = 6, one = 1;
  void* params[] = {&hitsPtr, &errorsPtr, &ex, &one, &one};
  ASSERT_TCPU(tcpuLaunchKernel(function("count_programs"), 6, 1, 1, 128, 1, 1, 0, nullptr, params,
                               nullptr));
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 1u), 6);
}

TEST_F(GridLaunch, CallersOpenMpScheduleIsLeftAlone) {
  omp_set_schedule(omp_sched_static, 3);
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DYNAMIC, 2));
  ASSERT_TCPU(
      tcpuLaunchKernel(function("empty"), 100, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  omp_sched_t kind;
  int chunk = 0;
  omp_get_schedule(&kind, &chunk);
  EXPECT_EQ(kind, omp_sched_static);
  EXPECT_EQ(chunk, 3);
}

TEST_F(GridLaunch, MisalignedParameterValuesArriveIntact) {
  // A 16-byte-aligned parameter whose value sits at an address that is not:
  // CUDA accepts any address, so must we (the entry reads through typed pointers).
  alignas(16) unsigned char storage[64] = {};
  const float lanes[4] = {1.5f, 2.5f, 3.0f, 4.0f};
  std::memcpy(storage + 4, lanes, sizeof lanes);
  float result = 0;
  float* resultPtr = &result;
  void* params[] = {&resultPtr, storage + 4};
  ASSERT_TCPU(
      tcpuLaunchKernel(function("sum_vec4"), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(result, 11.0f);
  // The packed-buffer form, at an offset that breaks the 16-byte alignment.
  alignas(16) unsigned char packed[64] = {};
  std::memcpy(packed + 8, &resultPtr, sizeof resultPtr);
  std::memcpy(packed + 8 + 16, lanes, sizeof lanes); // Vec4 at offset 16 of the buffer
  size_t size = 32;
  void* extra[] = {TCPU_LAUNCH_PARAM_BUFFER_POINTER, packed + 8, TCPU_LAUNCH_PARAM_BUFFER_SIZE,
                   &size, TCPU_LAUNCH_PARAM_END};
  result = 0;
  ASSERT_TCPU(tcpuLaunchKernel(function("sum_vec4"), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra));
  EXPECT_EQ(result, 11.0f);
}

TEST_F(GridLaunch, VectorAddComputesTheSum) {
  const int32_t n = 5000; // not a multiple of the 1024 block
  std::vector<float> a(n), b(n), out(n, -1.0f);
  for (int32_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = static_cast<float>(n - i);
  }
  const float* aPtr = a.data();
  const float* bPtr = b.data();
  float* outPtr = out.data();
  int32_t count = n;
  void* params[] = {&aPtr, &bPtr, &outPtr, &count};
  ASSERT_TCPU(tcpuLaunchKernel(function("vector_add_1024"), (n + 1023) / 1024, 1, 1, 1, 1, 1, 0,
                               nullptr, params, nullptr));
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], a[i] + b[i]) << "at " << i; // exact: one add
}

} // namespace
} // namespace tcpu::test
