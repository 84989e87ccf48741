// tcpuMem*: aligned allocations, copies and sets, synchronous and queued.
#include <numeric>
#include <vector>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

class Memory : public RuntimeTest {};

TEST_F(Memory, AllocationsAre64ByteAligned) {
  std::vector<tcpuDeviceptr> pointers;
  for (size_t bytes : {1, 3, 64, 100, 4096, 1 << 20}) {
    tcpuDeviceptr p;
    ASSERT_TCPU(tcpuMemAlloc(&p, bytes));
    EXPECT_EQ(p % 64, 0u) << bytes;
    pointers.push_back(p);
  }
  for (tcpuDeviceptr p : pointers)
    EXPECT_TCPU(tcpuMemFree(p));
  EXPECT_TCPU(tcpuMemFree(0));
}

TEST_F(Memory, CopiesAndSetsRoundTrip) {
  const size_t n = 1000;
  std::vector<uint32_t> host(n);
  std::iota(host.begin(), host.end(), 7u);
  tcpuDeviceptr a, b;
  ASSERT_TCPU(tcpuMemAlloc(&a, n * 4));
  ASSERT_TCPU(tcpuMemAlloc(&b, n * 4));
  ASSERT_TCPU(tcpuMemcpyHtoD(a, host.data(), n * 4));
  ASSERT_TCPU(tcpuMemcpyDtoD(b, a, n * 4));
  std::vector<uint32_t> back(n, 0);
  ASSERT_TCPU(tcpuMemcpyDtoH(back.data(), b, n * 4));
  EXPECT_EQ(back, host);
  ASSERT_TCPU(tcpuMemsetD32(a + 8, 0xA5A5A5A5u, 10));
  ASSERT_TCPU(tcpuMemsetD8(a, 0x11, 8));
  ASSERT_TCPU(tcpuMemcpyDtoH(back.data(), a, n * 4));
  EXPECT_EQ(back[0], 0x11111111u);
  EXPECT_EQ(back[1], 0x11111111u);
  EXPECT_EQ(back[2], 0xA5A5A5A5u);
  EXPECT_EQ(back[11], 0xA5A5A5A5u);
  EXPECT_EQ(back[12], host[12]);
  ASSERT_TCPU(tcpuMemFree(a));
  ASSERT_TCPU(tcpuMemFree(b));
}

TEST_F(Memory, QueuedCopiesRunInStreamOrderWithLaunches) {
  const int32_t n = 3000;
  tcpuDeviceptr a, b, out;
  for (tcpuDeviceptr* p : {&a, &b, &out})
    ASSERT_TCPU(tcpuMemAlloc(p, n * sizeof(float)));
  std::vector<float> hostA(n, 1.25f), hostB(n, 2.5f), result(n, 0.0f);
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, TCPU_STREAM_NON_BLOCKING));
  ASSERT_TCPU(tcpuMemcpyHtoDAsync(a, hostA.data(), n * sizeof(float), stream));
  ASSERT_TCPU(tcpuMemcpyHtoDAsync(b, hostB.data(), n * sizeof(float), stream));
  int32_t count = n;
  void* params[] = {&a, &b, &out, &count}; // device pointers are passed like CUdeviceptr
  ASSERT_TCPU(
      tcpuLaunchKernel(function("vector_add_1024"), 3, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  ASSERT_TCPU(tcpuMemcpyDtoHAsync(result.data(), out, n * sizeof(float), stream));
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_EQ(result, std::vector<float>(n, 3.75f));
  ASSERT_TCPU(tcpuStreamDestroy(stream));
  for (tcpuDeviceptr p : {a, b, out})
    ASSERT_TCPU(tcpuMemFree(p));
}

} // namespace
} // namespace tcpu::test
