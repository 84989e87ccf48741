// Bounds checking (TCPU_JIT_CHECK_BOUNDS / TCPU_CHECK=bounds): a planted
// off-by-one in tutorial 01 is caught with the program, parameter, offset and
// buffer size, without touching memory past the buffer; masked-off lanes and
// memory the runtime does not know are never reported; every kind of access
// (masked, gathered, copied, atomic, through a pointer read from memory) is
// checked.
#include <cstring>
#include <string>
#include <vector>

#include "codegen_test_support.hpp"
#include "device_memory.hpp"

namespace tcpu::test {
namespace {

class BoundsCheck : public CodegenTest {
protected:
  void TearDown() override {
    unsetenv("TCPU_CHECK");
    CodegenTest::TearDown();
  }
  // `file` compiled with bounds checks.
  tcpuModule loadChecked(const std::string& file) {
    return load(file, JitOptions().set(TCPU_JIT_CHECK_BOUNDS, uintptr_t{1}));
  }
  template <class... Args>
  tcpuResult launch(tcpuFunction f, unsigned programs, Args... args) {
    void* params[] = {static_cast<void*>(&args)..., nullptr};
    return tcpuLaunchKernel(f, programs, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr);
  }
  // Expects `result` to be TCPU_ERROR_ILLEGAL_ADDRESS with exactly this detail (what `call`
  // reports about the kernel).
  static void expectIllegal(tcpuResult result, const std::string& kernel, const std::string& detail,
                            const std::string& call = "tcpuLaunchKernel: ") {
    EXPECT_EQ(result, TCPU_ERROR_ILLEGAL_ADDRESS);
    EXPECT_EQ(std::string(tcpuGetLastErrorDetail()), call + "kernel '" + kernel + "': " + detail);
  }
};

std::vector<float> iota(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>(i) * scale;
  return values;
}

// The output is a std::vector registered with tcpuMemHostRegister for its first n
// elements; the 64 after them are a guard the skipped store must leave alone.
TEST_F(BoundsCheck, PlantedOffByOneStoreIsReportedAndSkipped) {
  const tcpuFunction bad = function(loadChecked("vector_add_off_by_one.bc"), "add_kernel_bad");
  const int32_t n = 4000; // programs 0-3; program 3 holds element 4000, one past the end
  DeviceMemory memory;
  // Inputs one element longer: only the store leaves its buffer.
  const std::vector<float> xs = iota(n + 1, 0.5f), ys = iota(n + 1, 0.25f);
  const float* x = memory.copyOf(xs);
  const float* y = memory.copyOf(ys);
  std::vector<float> storage(n + 64, -7.0f);
  ASSERT_TCPU(tcpuMemHostRegister(storage.data(), n * sizeof(float), 0));
  expectIllegal(launch(bad, 4, x, y, storage.data(), n), "add_kernel_bad",
                "program (3, 0, 0): parameter 2 'output_ptr' (*fp32): store of 4 bytes at offset "
                "16000 (element 4000) outside its registered host range of 16000 bytes");
  for (size_t i = n; i < storage.size(); ++i)
    ASSERT_EQ(storage[i], -7.0f) << "guard element " << i << " was written";
  // Programs 0-2 stay in bounds and ran in full.
  for (size_t i = 0; i < 3072; ++i)
    ASSERT_EQ(storage[i], xs[i] + ys[i]) << i;

  // The process goes on: a launch that stays in bounds succeeds.
  ASSERT_TCPU(launch(bad, 4, x, y, storage.data(), n - 1));
  for (size_t i = 0; i < static_cast<size_t>(n); ++i)
    ASSERT_EQ(storage[i], xs[i] + ys[i]) << i;
  EXPECT_TCPU(tcpuMemHostUnregister(storage.data()));
}

TEST_F(BoundsCheck, PlantedOffByOneLoadIsReportedFirst) {
  const tcpuFunction bad = function(loadChecked("vector_add_off_by_one.bc"), "add_kernel_bad");
  const int32_t n = 4000;
  DeviceMemory memory;
  const float* x = memory.copyOf(iota(n, 1.0f));
  const float* y = memory.copyOf(iota(n, 2.0f));
  float* out = memory.allocate<float>(n);
  EXPECT_EQ(launch(bad, 4, x, y, out, n), TCPU_ERROR_ILLEGAL_ADDRESS);
  const std::string detail = tcpuGetLastErrorDetail();
  EXPECT_NE(detail.find("kernel 'add_kernel_bad': program (3, 0, 0): parameter "),
            std::string::npos)
      << detail;
  EXPECT_NE(detail.find(" (*fp32): load of 4 bytes at offset 16000 (element 4000) outside its "
                        "buffer of 16000 bytes"),
            std::string::npos)
      << detail;
}

TEST_F(BoundsCheck, CorrectMaskStaysSilentOnExactBuffers) {
  // The same kernel with n + 1 as the bound it checks against: every masked-off lane of the
  // last block would leave the buffers, and none is reported.
  const tcpuFunction bad = function(loadChecked("vector_add_off_by_one.bc"), "add_kernel_bad");
  for (int32_t n : {1, 1000, 1024, 1025, 4097}) {
    DeviceMemory memory;
    const std::vector<float> xs = iota(static_cast<size_t>(n), 1.0f);
    const float* x = memory.copyOf(xs);
    const float* y = memory.copyOf(xs);
    float* out = memory.allocate<float>(static_cast<size_t>(n));
    ASSERT_TCPU(launch(bad, static_cast<unsigned>((n + 1023) / 1024), x, y, out, n - 1));
    for (size_t i = 0; i < static_cast<size_t>(n); ++i)
      ASSERT_EQ(out[i], 2 * xs[i]) << "n=" << n << ", i=" << i;
  }
}

TEST_F(BoundsCheck, QueuedLaunchReportsAtSynchronize) {
  const tcpuFunction bad = function(loadChecked("vector_add_off_by_one.bc"), "add_kernel_bad");
  const int32_t n = 100;
  DeviceMemory memory;
  const float* x = memory.allocate<float>(n + 1);
  const float* y = memory.allocate<float>(n + 1);
  float* out = memory.allocate<float>(n);
  tcpuStream stream = nullptr;
  ASSERT_TCPU(tcpuStreamCreate(&stream, TCPU_STREAM_NON_BLOCKING));
  int32_t count = n;
  void* params[] = {&x, &y, &out, &count};
  ASSERT_TCPU(tcpuLaunchKernel(bad, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  expectIllegal(tcpuStreamSynchronize(stream), "add_kernel_bad",
                "program (0, 0, 0): parameter 2 'output_ptr' (*fp32): store of 4 bytes at offset "
                "400 (element 100) outside its buffer of 400 bytes",
                "tcpuStreamSynchronize: earlier work failed: ");
  EXPECT_TCPU(tcpuStreamDestroy(stream));
}

TEST_F(BoundsCheck, EnvironmentTurnsItOnAndTheOptionOverrides) {
  const int32_t n = 10;
  DeviceMemory memory;
  const float* x = memory.allocate<float>(n + 1);
  const float* y = memory.allocate<float>(n + 1);
  float* out = memory.allocate<float>(n);
  setenv("TCPU_CHECK", "bounds", 1);
  EXPECT_EQ(launch(function(load("vector_add_off_by_one.bc"), "add_kernel_bad"), 1, x, y, out, n),
            TCPU_ERROR_ILLEGAL_ADDRESS);
  // Off for this load: the lane past the end stays masked (n - 1), as any unchecked launch must.
  const tcpuModule unchecked =
      load("vector_add_off_by_one.bc", JitOptions().set(TCPU_JIT_CHECK_BOUNDS, uintptr_t{0}));
  EXPECT_TCPU(launch(function(unchecked, "add_kernel_bad"), 1, x, y, out, n - 1));
  setenv("TCPU_CHECK", "everything", 1);
  tcpuModule module = nullptr;
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&module, irPath("vector_add_off_by_one.bc").c_str()),
                    TCPU_ERROR_INVALID_VALUE,
                    "TCPU_CHECK=everything is not a check: use 'bounds' or 'none'");
  // The option decides alone where it is given.
  load("vector_add_off_by_one.bc", JitOptions().set(TCPU_JIT_CHECK_BOUNDS, uintptr_t{1}));
  EXPECT_TCPU_ERROR(
      tcpuModuleLoadEx(&module, irPath("vector_add_off_by_one.bc").c_str(), 1,
                       std::vector<tcpuJitOption>{TCPU_JIT_CHECK_BOUNDS}.data(),
                       std::vector<void*>{reinterpret_cast<void*>(uintptr_t{2})}.data()),
      TCPU_ERROR_INVALID_VALUE, "TCPU_JIT_CHECK_BOUNDS=2 must be 0 or 1");
}

TEST_F(BoundsCheck, CheckedAndUncheckedBuildsAreCachedApart) {
  const tcpuModule checked = loadChecked("vector_add_off_by_one.bc");
  const tcpuModule plain = load("vector_add_off_by_one.bc");
  EXPECT_NE(text(checked, TCPU_MODULE_TEXT_OPTIMIZED_IR).find("tcpuKernelReportAccess"),
            std::string::npos);
  EXPECT_EQ(text(plain, TCPU_MODULE_TEXT_OPTIMIZED_IR).find("tcpuKernelReportAccess"),
            std::string::npos);
}

TEST_F(BoundsCheck, MaskedVectorAccessesCheckOnlyActiveLanes) {
  const tcpuFunction copy = function(loadChecked("bounds_ops.ll"), "masked_copy");
  DeviceMemory memory;
  const float* src = memory.copyOf(iota(5, 1.0f));
  float* dst = memory.allocate<float>(5, -1.0f);
  // Lanes 5-7 would leave both buffers, but are off.
  ASSERT_TCPU(launch(copy, 1, src, dst, int32_t{5}));
  EXPECT_EQ(std::vector<float>(dst, dst + 5), iota(5, 1.0f));
  std::fill(dst, dst + 5, -1.0f);
  expectIllegal(launch(copy, 1, src, dst, int32_t{6}), "masked_copy",
                "program (0, 0, 0): parameter 0 'src' (*fp32): load of 4 bytes at offset 20 "
                "(element 5) outside its buffer of 20 bytes");
  EXPECT_EQ(std::vector<float>(dst, dst + 5), std::vector<float>(5, -1.0f))
      << "the store past the end was skipped whole";
}

TEST_F(BoundsCheck, GathersAndScattersCheckEachActiveLane) {
  const tcpuFunction gather = function(loadChecked("bounds_ops.ll"), "gather_scatter");
  DeviceMemory memory;
  const float* src = memory.copyOf(iota(4, 1.0f));
  float* dst = memory.allocate<float>(4);
  ASSERT_TCPU(launch(gather, 1, src, dst, int32_t{100}, int32_t{0})); // lane 3 off
  ASSERT_TCPU(launch(gather, 1, src, dst, int32_t{3}, int32_t{1}));
  EXPECT_EQ(std::vector<float>(dst, dst + 4), iota(4, 1.0f));
  expectIllegal(launch(gather, 1, src, dst, int32_t{100}, int32_t{1}), "gather_scatter",
                "program (0, 0, 0): parameter 0 'src' (*fp32): load of 4 bytes at offset 400 "
                "(element 100) outside its buffer of 16 bytes");
}

TEST_F(BoundsCheck, CopiesAndSetsCheckTheirWholeLength) {
  const tcpuFunction copy = function(loadChecked("bounds_ops.ll"), "copy_bytes");
  DeviceMemory memory;
  uint8_t* src = memory.allocate<uint8_t>(32, 1);
  uint8_t* dst = memory.allocate<uint8_t>(16);
  ASSERT_TCPU(launch(copy, 1, src, dst, int64_t{16}));
  EXPECT_EQ(std::vector<uint8_t>(dst, dst + 16), std::vector<uint8_t>(16, 1));
  EXPECT_EQ(src[0], 7);
  ASSERT_TCPU(launch(copy, 1, src, dst, int64_t{0}));
  expectIllegal(launch(copy, 1, src, dst, int64_t{24}), "copy_bytes",
                "program (0, 0, 0): parameter 1 'dst' (ptr): store of 24 bytes at offset 0 "
                "outside its buffer of 16 bytes");
}

TEST_F(BoundsCheck, AtomicsAreChecked) {
  const tcpuFunction count = function(loadChecked("bounds_ops.ll"), "count");
  DeviceMemory memory;
  int32_t* counters = memory.allocate<int32_t>(10);
  ASSERT_TCPU(launch(count, 3, counters, int32_t{0}));
  EXPECT_EQ(counters[0], 3);
  EXPECT_EQ(counters[1], 5);
  expectIllegal(launch(count, 1, counters, int32_t{9}), "count",
                "program (0, 0, 0): parameter 0 'counters' (*i32): atomic update of 4 bytes at "
                "offset 40 (element 10) outside its buffer of 40 bytes");
  EXPECT_EQ(counters[9], 1) << "the add in bounds still ran";
}

TEST_F(BoundsCheck, PointersReadFromABufferAreChecked) {
  const tcpuFunction indirect = function(loadChecked("bounds_ops.ll"), "indirect");
  DeviceMemory memory;
  float* target = memory.allocate<float>(4);
  float* direct = memory.allocate<float>(4);
  float** table = memory.copyOf(std::vector<float*>{target});
  ASSERT_TCPU(launch(indirect, 1, table, direct, int32_t{3}, int32_t{0}));
  EXPECT_EQ(target[3], 1.0f);
  expectIllegal(launch(indirect, 1, table, direct, int32_t{4}, int32_t{0}), "indirect",
                "program (0, 0, 0): a pointer read from parameter 0 'table' (*fp32): store of 4 "
                "bytes at offset 16 (element 4) outside its buffer of 16 bytes");
  expectIllegal(launch(indirect, 1, table, direct, int32_t{0}, int32_t{-1}), "indirect",
                "program (0, 0, 0): parameter 1 'direct' (*fp32): store of 4 bytes at offset -4 "
                "(element -1) outside its buffer of 16 bytes");
  // A pointer into the middle of its buffer: offsets count from the pointer.
  expectIllegal(launch(indirect, 1, table, direct + 2, int32_t{0}, int32_t{2}), "indirect",
                "program (0, 0, 0): parameter 1 'direct' (*fp32): store of 4 bytes at offset 8 "
                "(element 2) outside its buffer of 16 bytes (offsets -8 to 8)");
}

TEST_F(BoundsCheck, OnlyMemoryTheRuntimeKnowsIsChecked) {
  const tcpuFunction indirect = function(loadChecked("bounds_ops.ll"), "indirect");
  DeviceMemory memory;
  float* target = memory.allocate<float>(4);
  float** table = memory.copyOf(std::vector<float*>{target});
  std::vector<float> host(8, 0.0f);
  // Plain host memory: no extent to check against.
  ASSERT_TCPU(launch(indirect, 1, table, host.data(), int32_t{0}, int32_t{6}));
  EXPECT_EQ(host[6], 2.0f);
  ASSERT_TCPU(tcpuMemHostRegister(host.data(), 4 * sizeof(float), TCPU_MEMHOSTREGISTER_PORTABLE));
  expectIllegal(launch(indirect, 1, table, host.data(), int32_t{0}, int32_t{5}), "indirect",
                "program (0, 0, 0): parameter 1 'direct' (*fp32): store of 4 bytes at offset 20 "
                "(element 5) outside its registered host range of 16 bytes");
  EXPECT_EQ(host[5], 0.0f);
  ASSERT_TCPU(tcpuMemHostUnregister(host.data()));
  ASSERT_TCPU(launch(indirect, 1, table, host.data(), int32_t{0}, int32_t{5}));
  EXPECT_EQ(host[5], 2.0f);
}

TEST_F(BoundsCheck, FirstViolationOfAGridWins) {
  // Every program of a one-thread grid leaves the buffer; the first program's report wins.
  const tcpuFunction count = function(loadChecked("bounds_ops.ll"), "count");
  DeviceMemory memory;
  int32_t* counters = memory.allocate<int32_t>(2);
  ASSERT_TCPU(tcpuSetNumThreads(1));
  expectIllegal(launch(count, 5, counters, int32_t{2}), "count",
                "program (0, 0, 0): parameter 0 'counters' (*i32): atomic update of 4 bytes at "
                "offset 8 (element 2) outside its buffer of 8 bytes");
  ASSERT_TCPU(tcpuSetNumThreads(0));
}

} // namespace
} // namespace tcpu::test
