// Buffers from tcpuMemAlloc, whose extents bounds-checked kernels know, freed
// when their owner goes. "Device" memory is host memory: tests read and write
// it through the pointers directly.
#ifndef TCPU_TESTS_SUPPORT_DEVICE_MEMORY_HPP
#define TCPU_TESTS_SUPPORT_DEVICE_MEMORY_HPP

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tcpu/tcpu.h"

namespace tcpu::test {

class DeviceMemory {
public:
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    for (tcpuDeviceptr buffer : buffers_)
      EXPECT_EQ(tcpuMemFree(buffer), TCPU_SUCCESS) << tcpuGetLastErrorDetail();
  }

  // A buffer of exactly `count` elements, each `fill` (null, and a test failure, if the
  // allocation fails).
  template <class T>
  T* allocate(size_t count, T fill = T{}) {
    tcpuDeviceptr buffer = 0;
    const tcpuResult result = tcpuMemAlloc(&buffer, count * sizeof(T));
    EXPECT_EQ(result, TCPU_SUCCESS)
        << "tcpuMemAlloc of " << count * sizeof(T) << " bytes: " << tcpuGetLastErrorDetail();
    if (result != TCPU_SUCCESS) return nullptr;
    buffers_.push_back(buffer);
    T* elements = reinterpret_cast<T*>(static_cast<uintptr_t>(buffer));
    std::fill(elements, elements + count, fill);
    return elements;
  }
  // A buffer of exactly values.size() elements holding them.
  template <class T>
  T* copyOf(const std::vector<T>& values) {
    T* elements = allocate<T>(values.size());
    if (elements) std::copy(values.begin(), values.end(), elements);
    return elements;
  }

private:
  std::vector<tcpuDeviceptr> buffers_;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_DEVICE_MEMORY_HPP
