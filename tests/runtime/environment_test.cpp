// Settings from the environment. Its own executable, with no fixture that
// sets a schedule through the API first (an API setting wins over the environment).
#include <cstdlib>

#include "tcpu_assertions.hpp"

namespace {

class Environment : public ::testing::Test {
protected:
  void TearDown() override {
    unsetenv("TCPU_NUM_THREADS");
    unsetenv("OMP_NUM_THREADS");
    unsetenv("TCPU_SCHEDULE");
  }
};

TEST_F(Environment, ScheduleFromEnvironmentUnlessSetThroughTheApi) {
  setenv("TCPU_SCHEDULE", "guided,8", 1);
  ASSERT_TCPU(tcpuInit(0));
  tcpuSchedule schedule;
  unsigned chunk;
  ASSERT_TCPU(tcpuGetSchedule(&schedule, &chunk));
  EXPECT_EQ(schedule, TCPU_SCHEDULE_GUIDED);
  EXPECT_EQ(chunk, 8u);
  // A bad variable changes nothing.
  setenv("TCPU_NUM_THREADS", "3", 1);
  setenv("TCPU_SCHEDULE", "sometimes", 1);
  EXPECT_EQ(tcpuInit(0), TCPU_ERROR_INVALID_VALUE);
  int threads = 0;
  ASSERT_TCPU(tcpuGetNumThreads(&threads));
  EXPECT_NE(threads, 3);
  // Once set through the API, a later tcpuInit keeps the API's schedule.
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DYNAMIC, 4));
  setenv("TCPU_SCHEDULE", "static", 1);
  ASSERT_TCPU(tcpuInit(0));
  ASSERT_TCPU(tcpuGetSchedule(&schedule, &chunk));
  EXPECT_EQ(schedule, TCPU_SCHEDULE_DYNAMIC);
  EXPECT_EQ(chunk, 4u);
}

TEST_F(Environment, ThreadCountComesFromApiThenTcpuThenOmpThenCores) {
  int cores = 0, threads = 0;
  unsetenv("TCPU_NUM_THREADS");
  unsetenv("OMP_NUM_THREADS");
  ASSERT_TCPU(tcpuInit(0));
  ASSERT_TCPU(tcpuDeviceGetAttribute(&cores, TCPU_DEVICE_ATTRIBUTE_NUM_CORES, 0));
  ASSERT_TCPU(tcpuGetNumThreads(&threads));
  EXPECT_EQ(threads, cores);
  setenv("OMP_NUM_THREADS", "5,2", 1);
  ASSERT_TCPU(tcpuInit(0));
  ASSERT_TCPU(tcpuGetNumThreads(&threads));
  EXPECT_EQ(threads, 5);
  setenv("TCPU_NUM_THREADS", "3", 1);
  ASSERT_TCPU(tcpuInit(0));
  ASSERT_TCPU(tcpuGetNumThreads(&threads));
  EXPECT_EQ(threads, 3);
  ASSERT_TCPU(tcpuSetNumThreads(7));
  ASSERT_TCPU(tcpuGetNumThreads(&threads));
  EXPECT_EQ(threads, 7);
  ASSERT_TCPU(tcpuDeviceGetAttribute(&threads, TCPU_DEVICE_ATTRIBUTE_NUM_THREADS, 0));
  EXPECT_EQ(threads, 7);
  ASSERT_TCPU(tcpuSetNumThreads(0)); // back to the environment's choice
  ASSERT_TCPU(tcpuGetNumThreads(&threads));
  EXPECT_EQ(threads, 3);
}

} // namespace
