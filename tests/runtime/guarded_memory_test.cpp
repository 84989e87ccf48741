// Guarded allocations (TCPU_MEMALLOC_GUARD, TCPU_MEM_GUARD=1): the data ends at a page that
// faults, so that the first access past a buffer kills the process there, with the crash report
// naming the kernel, instead of corrupting the heap. Its own executable: it sets TCPU_MEM_GUARD
// and re-runs tcpuInit.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gmock/gmock.h>

#include "crash_test_support.hpp"
#include "test_support.hpp"

namespace tcpu::test {
namespace {

// What touching a PROT_NONE page raises: SIGSEGV on Linux, SIGBUS on macOS.
#if defined(__APPLE__)
constexpr int kGuardSignal = SIGBUS;
constexpr const char* kGuardSignalName = "SIGBUS";
#else
constexpr int kGuardSignal = SIGSEGV;
constexpr const char* kGuardSignalName = "SIGSEGV";
#endif

class GuardedMemory : public RuntimeTest {
protected:
  void SetUp() override {
    prepareCrashTests();
    RuntimeTest::SetUp();
  }
  void TearDown() override {
    unsetenv("TCPU_MEM_GUARD");
    EXPECT_TCPU(tcpuInit(0)); // back to unguarded allocations for the next test
    RuntimeTest::TearDown();
  }
};

char* bytesAt(tcpuDeviceptr address) {
  return reinterpret_cast<char*>(static_cast<uintptr_t>(address));
}

// Writes one byte at `address` in a death test's child.
void poke(char* address) {
  *reinterpret_cast<volatile char*>(address) = 1;
}

TEST_F(GuardedMemory, KeepsTheAlignmentIsZeroedAndUsableByCopiesAndSets) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t bytes : {size_t{1}, size_t{100}, page, size_t{1} << 20, page * 3 + 5}) {
    tcpuDeviceptr p = 0;
    ASSERT_TCPU(tcpuMemAllocEx(&p, bytes, TCPU_MEMALLOC_GUARD));
    EXPECT_EQ(p % 64, 0u) << bytes;
    // The data (padded to 64 bytes) ends where a page does: the guard page follows.
    const size_t padded = (bytes + 63) / 64 * 64;
    EXPECT_EQ((p + padded) % page, 0u) << bytes;
    std::vector<unsigned char> back(bytes, 0xff);
    ASSERT_TCPU(tcpuMemcpyDtoH(back.data(), p, bytes));
    EXPECT_EQ(back, std::vector<unsigned char>(bytes, 0)) << bytes;
    ASSERT_TCPU(tcpuMemsetD8(p, 0x5a, bytes));
    ASSERT_TCPU(tcpuMemcpyDtoH(back.data(), p, bytes));
    EXPECT_EQ(back, std::vector<unsigned char>(bytes, 0x5a)) << bytes;
    // As any allocation: a copy past its end is refused before it runs.
    EXPECT_EQ(tcpuMemsetD8(p, 0, bytes + 1), TCPU_ERROR_INVALID_VALUE);
    EXPECT_TCPU(tcpuMemFree(p));
  }
}

TEST_F(GuardedMemory, AWriteJustPastTheEndFaults) {
  tcpuDeviceptr p = 0;
  ASSERT_TCPU(tcpuMemAllocEx(&p, 4096, TCPU_MEMALLOC_GUARD));
  poke(bytesAt(p) + 4095); // the last byte is the buffer's
  EXPECT_EXIT(poke(bytesAt(p) + 4096), testing::KilledBySignal(kGuardSignal), "");
  EXPECT_TCPU(tcpuMemFree(p));
}

TEST_F(GuardedMemory, TheAlignmentPaddingIsNotCaught) {
  // 100 bytes are padded to 128: bytes 100..127 are the allocation's, byte 128 the guard's.
  tcpuDeviceptr p = 0;
  ASSERT_TCPU(tcpuMemAllocEx(&p, 100, TCPU_MEMALLOC_GUARD));
  poke(bytesAt(p) + 127);
  EXPECT_EXIT(poke(bytesAt(p) + 128), testing::KilledBySignal(kGuardSignal), "");
  EXPECT_TCPU(tcpuMemFree(p));
}

// vector_add_1024 over n = 1000 with buffers of 16 floats: program 0 reads a[16] first.
void launchPastTheEnd(tcpuFunction add, tcpuDeviceptr a, tcpuDeviceptr b, tcpuDeviceptr out) {
  int32_t n = 1000;
  void* params[] = {&a, &b, &out, &n};
  tcpuLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr);
}

TEST_F(GuardedMemory, AKernelRunningOffTheEndIsNamedWithTheBoundsCheckHint) {
  tcpuDeviceptr buffers[3] = {};
  for (tcpuDeviceptr& buffer : buffers)
    ASSERT_TCPU(tcpuMemAllocEx(&buffer, 16 * sizeof(float), TCPU_MEMALLOC_GUARD));
  ASSERT_TCPU(tcpuSetNumThreads(1));
  EXPECT_EXIT(
      launchPastTheEnd(function("vector_add_1024"), buffers[0], buffers[1], buffers[2]),
      testing::KilledBySignal(kGuardSignal),
      testing::AllOf(testing::HasSubstr(std::string("tcpu: kernel 'vector_add_1024' raised ") +
                                        kGuardSignalName + " ("),
                     testing::HasSubstr("in program (0, 0, 0) of grid (1, 1, 1)"),
                     testing::HasSubstr("TCPU_CHECK=bounds")));
  for (tcpuDeviceptr buffer : buffers)
    EXPECT_TCPU(tcpuMemFree(buffer));
}

TEST_F(GuardedMemory, TheEnvironmentGuardsEveryAllocation) {
  setenv("TCPU_MEM_GUARD", "1", 1);
  ASSERT_TCPU(tcpuInit(0));
  tcpuDeviceptr p = 0;
  ASSERT_TCPU(tcpuMemAlloc(&p, 4096));
  EXPECT_EXIT(poke(bytesAt(p) + 4096), testing::KilledBySignal(kGuardSignal), "");
  EXPECT_TCPU(tcpuMemFree(p));
}

TEST_F(GuardedMemory, ABadEnvironmentValueFailsTcpuInitNamingIt) {
  setenv("TCPU_MEM_GUARD", "sometimes", 1);
  EXPECT_EQ(tcpuInit(0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_THAT(tcpuGetLastErrorDetail(), testing::HasSubstr("TCPU_MEM_GUARD='sometimes' is not a "
                                                           "boolean"));
}

TEST_F(GuardedMemory, UnknownFlagsAndANullPointerAreRefused) {
  tcpuDeviceptr p = 0;
  EXPECT_EQ(tcpuMemAllocEx(&p, 64, 0x6), TCPU_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tcpuGetLastErrorDetail(),
               "tcpuMemAllocEx: flags=0x6 has bits other than TCPU_MEMALLOC_GUARD");
  EXPECT_EQ(p, 0u);
  EXPECT_EQ(tcpuMemAllocEx(nullptr, 64, TCPU_MEMALLOC_GUARD), TCPU_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tcpuGetLastErrorDetail(), "tcpuMemAllocEx: dptr is NULL");
  EXPECT_EQ(tcpuMemAllocEx(&p, 0, TCPU_MEMALLOC_GUARD), TCPU_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tcpuGetLastErrorDetail(), "tcpuMemAllocEx: bytesize is 0");
}

} // namespace
} // namespace tcpu::test
