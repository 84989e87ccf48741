// Kernels linked into the program itself (as AOT objects are) become a module
// through tcpuModuleLoadKernels, and a launch can set its own thread count.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tcpu/kernel.hpp"
#include "tcpu/tcpu.h"
#include "tcpu_assertions.hpp"

namespace {

void fill_ids(uint32_t* out, uint32_t x, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  out[x] = x + 1;
}
void scale(float* data, float factor, uint32_t x, uint32_t, uint32_t, uint32_t, uint32_t,
           uint32_t) {
  data[x] *= factor;
}

} // namespace

TCPU_EXPORT_KERNEL(fill_ids)
TCPU_EXPORT_KERNEL(scale)

namespace {

class LinkedKernels : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TCPU(tcpuInit(0)); }
};

TEST_F(LinkedKernels, DescriptorsInTheProgramLaunchLikeLoadedOnes) {
  const tcpuKernelDesc* kernels[] = {&tcpu_kernel_desc_fill_ids, &tcpu_kernel_desc_scale};
  tcpuModule module = nullptr;
  ASSERT_TCPU(tcpuModuleLoadKernels(&module, kernels, 2));
  tcpuFunction fill = nullptr, scaleFunction = nullptr;
  ASSERT_TCPU(tcpuModuleGetFunction(&fill, module, "fill_ids"));
  ASSERT_TCPU(tcpuModuleGetFunction(&scaleFunction, module, "scale"));
  std::vector<uint32_t> ids(37, 0);
  uint32_t* idsPointer = ids.data();
  void* fillParams[] = {&idsPointer};
  ASSERT_TCPU(tcpuLaunchKernel(fill, 37, 1, 1, 1, 1, 1, 0, nullptr, fillParams, nullptr));
  for (uint32_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(ids[i], i + 1);
  std::vector<float> data(5, 2.0f);
  float* dataPointer = data.data();
  float factor = 1.5f;
  void* scaleParams[] = {&dataPointer, &factor};
  ASSERT_TCPU(tcpuLaunchKernel(scaleFunction, 5, 1, 1, 1, 1, 1, 0, nullptr, scaleParams, nullptr));
  for (float value : data)
    EXPECT_EQ(value, 3.0f);
  tcpuFunction missing = nullptr;
  EXPECT_EQ(tcpuModuleGetFunction(&missing, module, "nope"), TCPU_ERROR_NOT_FOUND);
  EXPECT_TCPU(tcpuModuleUnload(module));
  EXPECT_EQ(tcpuLaunchKernel(fill, 1, 1, 1, 1, 1, 1, 0, nullptr, fillParams, nullptr),
            TCPU_ERROR_INVALID_HANDLE);
}

TEST_F(LinkedKernels, BadListsAreRefusedWithTheIndex) {
  tcpuModule module = nullptr;
  const tcpuKernelDesc* twice[] = {&tcpu_kernel_desc_scale, &tcpu_kernel_desc_scale};
  EXPECT_EQ(tcpuModuleLoadKernels(&module, twice, 2), TCPU_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tcpuGetLastErrorDetail(),
               "tcpuModuleLoadKernels: kernels[1]->name 'scale' is used by an earlier kernel too");
  const tcpuKernelDesc* withNull[] = {&tcpu_kernel_desc_scale, nullptr};
  EXPECT_EQ(tcpuModuleLoadKernels(&module, withNull, 2), TCPU_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tcpuGetLastErrorDetail(), "tcpuModuleLoadKernels: kernels[1] is NULL");
  EXPECT_EQ(tcpuModuleLoadKernels(&module, withNull, 0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuModuleLoadKernels(nullptr, withNull, 1), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuModuleLoadKernels(&module, nullptr, 1), TCPU_ERROR_INVALID_VALUE);
}

void recordThreads(const tcpuLaunchHookInfo* info, void* userData) {
  *static_cast<int*>(userData) = info->numThreads;
}

TEST_F(LinkedKernels, ALaunchCanSetItsOwnThreadCount) {
  int cores = 0;
  ASSERT_TCPU(tcpuDeviceGetAttribute(&cores, TCPU_DEVICE_ATTRIBUTE_NUM_CORES, 0));
  if (cores < 2) GTEST_SKIP() << "needs 2 cores to tell 1 thread from the default";
  const tcpuKernelDesc* kernels[] = {&tcpu_kernel_desc_fill_ids};
  tcpuModule module = nullptr;
  ASSERT_TCPU(tcpuModuleLoadKernels(&module, kernels, 1));
  tcpuFunction fill = nullptr;
  ASSERT_TCPU(tcpuModuleGetFunction(&fill, module, "fill_ids"));
  std::vector<uint32_t> ids(64, 0);
  uint32_t* idsPointer = ids.data();
  void* params[] = {&idsPointer};
  int seen = 0;
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetLaunchHooks(recordThreads, nullptr, &seen));
  void* one[] = {TCPU_LAUNCH_PARAM_NUM_THREADS, reinterpret_cast<void*>(uintptr_t{1}),
                 TCPU_LAUNCH_PARAM_END};
  ASSERT_TCPU(tcpuLaunchKernel(fill, 64, 1, 1, 1, 1, 1, 0, nullptr, params, one));
  EXPECT_EQ(seen, 1);
  ASSERT_TCPU(tcpuLaunchKernel(fill, 64, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(seen, 2);
  void* zero[] = {TCPU_LAUNCH_PARAM_NUM_THREADS, nullptr, TCPU_LAUNCH_PARAM_END};
  EXPECT_EQ(tcpuLaunchKernel(fill, 64, 1, 1, 1, 1, 1, 0, nullptr, params, zero),
            TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("extra[1]=0 is not a thread count"),
            std::string::npos)
      << tcpuGetLastErrorDetail();
  EXPECT_TCPU(tcpuSetLaunchHooks(nullptr, nullptr, nullptr));
  EXPECT_TCPU(tcpuSetNumThreads(0));
  EXPECT_TCPU(tcpuModuleUnload(module));
}

} // namespace
