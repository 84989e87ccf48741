// Before tcpuInit, calls fail cleanly instead of running on an unset runtime.
// Its own executable: the rest of the suite initializes in SetUp.
#include "test_support.hpp"

TEST(NotInitialized, CallsBeforeInitReturnNotInitialized) {
  tcpuModule module;
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&module, TCPU_TEST_KERNELS_PATH), TCPU_ERROR_NOT_INITIALIZED,
                    "call tcpuInit(0) first");
  EXPECT_EQ(tcpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
            TCPU_ERROR_NOT_INITIALIZED);
  tcpuStream stream;
  EXPECT_EQ(tcpuStreamCreate(&stream, 0), TCPU_ERROR_NOT_INITIALIZED);
  // What needs no runtime state works anyway, as in CUDA.
  int version = 0;
  EXPECT_EQ(tcpuDriverGetVersion(&version), TCPU_SUCCESS);
  EXPECT_EQ(version, 10);
  ASSERT_EQ(tcpuInit(0), TCPU_SUCCESS);
  EXPECT_EQ(tcpuModuleLoad(&module, TCPU_TEST_KERNELS_PATH), TCPU_SUCCESS);
  EXPECT_EQ(tcpuModuleUnload(module), TCPU_SUCCESS);
}
