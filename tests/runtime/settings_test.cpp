// Worker threads, schedules and launch hooks.
#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

class LaunchSettings : public RuntimeTest {};

struct HookLog {
  std::vector<std::string> events;
  uint64_t lastDuration = 0;
  uint32_t grid[3] = {};
};

void onEnter(const tcpuLaunchHookInfo* info, void* user) {
  auto* log = static_cast<HookLog*>(user);
  log->events.push_back(std::string("enter ") + info->kernelName);
  for (int i = 0; i < 3; ++i)
    log->grid[i] = info->grid[i];
}

void onExit(const tcpuLaunchHookInfo* info, void* user) {
  auto* log = static_cast<HookLog*>(user);
  log->events.push_back(std::string("exit ") + info->kernelName);
  log->lastDuration = info->durationNs;
}

TEST_F(LaunchSettings, HooksSeeKernelGridAndDuration) {
  HookLog log;
  ASSERT_TCPU(tcpuSetLaunchHooks(onEnter, onExit, &log));
  uint32_t micros = 2000;
  void* params[] = {&micros};
  ASSERT_TCPU(tcpuLaunchKernel(function("spin"), 2, 3, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[0], "enter spin");
  EXPECT_EQ(log.events[1], "exit spin");
  EXPECT_EQ(log.grid[0], 2u);
  EXPECT_EQ(log.grid[1], 3u);
  EXPECT_GE(log.lastDuration, 2000u * 1000u);
  // Empty grids run nothing and call no hooks; removed hooks are not called.
  ASSERT_TCPU(tcpuLaunchKernel(function("spin"), 0, 3, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_TCPU(tcpuSetLaunchHooks(nullptr, nullptr, nullptr));
  ASSERT_TCPU(tcpuLaunchKernel(function("spin"), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(log.events.size(), 2u);
}

TEST_F(LaunchSettings, DeviceDescribesTheHost) {
  int count = 0;
  ASSERT_TCPU(tcpuDeviceGetCount(&count));
  EXPECT_EQ(count, 1);
  tcpuDevice dev;
  ASSERT_TCPU(tcpuDeviceGet(&dev, 0));
  char name[256];
  ASSERT_TCPU(tcpuDeviceGetName(name, sizeof name, dev));
  EXPECT_GT(std::string(name).size(), 0u);
  char truncated[4];
  ASSERT_TCPU(tcpuDeviceGetName(truncated, sizeof truncated, dev));
  EXPECT_EQ(std::string(truncated).size(), 3u);
  char features[1024];
  ASSERT_TCPU(tcpuDeviceGetFeatures(features, sizeof features, dev));
  int bits = 0;
  ASSERT_TCPU(tcpuDeviceGetAttribute(&bits, TCPU_DEVICE_ATTRIBUTE_VECTOR_BITS, dev));
  EXPECT_TRUE(bits == 128 || bits == 256 || bits == 512);
  if (bits == 512) {
    EXPECT_NE(std::string(features).find("avx512f"), std::string::npos);
  }
}

} // namespace
} // namespace tcpu::test
