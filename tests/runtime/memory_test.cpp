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

TEST_F(Memory, HostRangesRegisterOnceAndApartFromAllocations) {
  std::vector<uint8_t> host(256);
  uint8_t* p = host.data();
  ASSERT_TCPU(tcpuMemHostRegister(p + 64, 64, 0));
  EXPECT_TCPU_ERROR(tcpuMemHostRegister(p + 100, 64, TCPU_MEMHOSTREGISTER_DEVICEMAP),
                    TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "overlaps the registered range");
  EXPECT_TCPU_ERROR(tcpuMemHostRegister(p, 65, 0), TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                    "overlaps the registered range of 64 bytes");
  ASSERT_TCPU(tcpuMemHostRegister(p, 64, 0)); // adjacent, not overlapping
  tcpuDeviceptr allocation;
  ASSERT_TCPU(tcpuMemAlloc(&allocation, 100));
  auto* inside = reinterpret_cast<void*>(static_cast<uintptr_t>(allocation) + 8);
  EXPECT_TCPU_ERROR(tcpuMemHostRegister(inside, 8, 0), TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                    "overlaps the allocation of 100 bytes");
  EXPECT_TCPU_ERROR(tcpuMemHostRegister(p + 128, 8, 4), TCPU_ERROR_INVALID_VALUE, "flags=0x4");
  EXPECT_TCPU_ERROR(tcpuMemHostRegister(nullptr, 8, 0), TCPU_ERROR_INVALID_VALUE, "p is NULL");
  EXPECT_TCPU_ERROR(tcpuMemHostRegister(p + 128, 0, 0), TCPU_ERROR_INVALID_VALUE, "bytesize is 0");
  // A registered range is no allocation: neither freed nor copied to.
  EXPECT_TCPU_ERROR(tcpuMemFree(reinterpret_cast<uintptr_t>(p)), TCPU_ERROR_INVALID_VALUE,
                    "is not the start of a live tcpuMemAlloc allocation");
  EXPECT_TCPU_ERROR(tcpuMemsetD8(reinterpret_cast<uintptr_t>(p), 0, 8), TCPU_ERROR_INVALID_VALUE,
                    "is not inside a tcpuMemAlloc allocation");
  EXPECT_TCPU_ERROR(tcpuMemHostUnregister(p + 1), TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED,
                    "is not the start of a range registered with tcpuMemHostRegister");
  EXPECT_TCPU_ERROR(tcpuMemHostUnregister(inside), TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED,
                    "is not the start");
  ASSERT_TCPU(tcpuMemHostUnregister(p));
  ASSERT_TCPU(tcpuMemHostUnregister(p + 64));
  EXPECT_EQ(tcpuMemHostUnregister(p), TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED);
  ASSERT_TCPU(tcpuMemHostRegister(p, 256, 0)); // free again
  ASSERT_TCPU(tcpuMemHostUnregister(p));
  ASSERT_TCPU(tcpuMemFree(allocation));
}

} // namespace
} // namespace tcpu::test
