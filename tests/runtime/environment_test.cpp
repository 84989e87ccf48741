// Settings from the environment. Its own executable, with no fixture that
// sets a schedule through the API first (an API setting wins over the environment).
#include <cstdlib>
#include <string>
#include <utility>

#include "tcpu/environment.hpp"
#include "tcpu_assertions.hpp"

namespace {

class Environment : public ::testing::Test {
protected:
  void TearDown() override {
    unsetenv("TCPU_NUM_THREADS");
    unsetenv("OMP_NUM_THREADS");
    unsetenv("TCPU_SCHEDULE");
    unsetenv("TCPU_TEST_FLAG");
    unsetenv("TCPU_CACHE_DISABLE");
    unsetenv("TCPU_DLOPEN_PROBE");
  }
};

TEST_F(Environment, BooleansAcceptTheUsualWordsInAnyCaseAndNothingElse) {
  EXPECT_TRUE(*tcpu::environmentFlag("TCPU_TEST_FLAG", true)); // unset: the default
  setenv("TCPU_TEST_FLAG", "", 1);
  EXPECT_FALSE(*tcpu::environmentFlag("TCPU_TEST_FLAG", false)); // empty: the default
  for (const char* on : {"1", "true", "TRUE", "On", "yes", "YES"}) {
    setenv("TCPU_TEST_FLAG", on, 1);
    const tcpu::Expected<bool> flag = tcpu::environmentFlag("TCPU_TEST_FLAG", false);
    ASSERT_TRUE(flag) << on;
    EXPECT_TRUE(*flag) << on;
  }
  for (const char* off : {"0", "false", "False", "OFF", "no", "No"}) {
    setenv("TCPU_TEST_FLAG", off, 1);
    const tcpu::Expected<bool> flag = tcpu::environmentFlag("TCPU_TEST_FLAG", true);
    ASSERT_TRUE(flag) << off;
    EXPECT_FALSE(*flag) << off;
  }
  for (const char* bad : {"2", "maybe", "truee", " 1", "y", "disable"}) {
    setenv("TCPU_TEST_FLAG", bad, 1);
    const tcpu::Expected<bool> flag = tcpu::environmentFlag("TCPU_TEST_FLAG", true);
    ASSERT_FALSE(flag) << bad;
    EXPECT_EQ(flag.status().code(), TCPU_ERROR_INVALID_VALUE);
    EXPECT_EQ(flag.status().message(),
              std::string("TCPU_TEST_FLAG='") + bad +
                  "' is not a boolean (use 1/0, true/false, on/off or yes/no)");
  }
}

TEST_F(Environment, ABadBooleanFailsTcpuInitNamingItAndItsValue) {
  // These were silently taken for their defaults before (only "1" or "0" counted).
  setenv("TCPU_CACHE_DISABLE", "maybe", 1);
  EXPECT_EQ(tcpuInit(0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("TCPU_CACHE_DISABLE='maybe'"),
            std::string::npos)
      << tcpuGetLastErrorDetail();
  unsetenv("TCPU_CACHE_DISABLE");
  setenv("TCPU_DLOPEN_PROBE", "of", 1);
  EXPECT_EQ(tcpuInit(0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("TCPU_DLOPEN_PROBE='of'"),
            std::string::npos);
  setenv("TCPU_DLOPEN_PROBE", "off", 1); // now a word it knows
  ASSERT_TCPU(tcpuInit(0));
}

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
  // TCPU_SCHEDULE_DEFAULT goes back to the environment's schedule, and without one to guided.
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DEFAULT, 0));
  ASSERT_TCPU(tcpuGetSchedule(&schedule, &chunk));
  EXPECT_EQ(schedule, TCPU_SCHEDULE_STATIC);
  EXPECT_EQ(chunk, 0u);
  unsetenv("TCPU_SCHEDULE");
  ASSERT_TCPU(tcpuInit(0));
  ASSERT_TCPU(tcpuGetSchedule(&schedule, &chunk));
  EXPECT_EQ(schedule, TCPU_SCHEDULE_GUIDED);
  EXPECT_EQ(chunk, 0u);
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

// Every variable tcpuInit reads, the runtime's and the OpenMP runtime's, with values it must
// refuse: each fails tcpuInit with TCPU_ERROR_INVALID_VALUE naming the variable and the value,
// before the OpenMP runtime reads it (OMP_NUM_THREADS=garbage made it abort, out of heap memory),
// and leaves tcpuInit working once the variable is gone.
// tests/python/reliability/test_environment_doors.py walks the same variables through the Python
// front end and the CLI.
TEST(EnvironmentWalk, EveryBadValueFailsTcpuInitNamingItsVariable) {
  const std::pair<const char*, const char*> bad[] = {{"TCPU_NUM_THREADS", "garbage"},
                                                     {"TCPU_NUM_THREADS", "0"},
                                                     {"TCPU_NUM_THREADS", "99999"},
                                                     {"OMP_NUM_THREADS", "garbage"},
                                                     {"OMP_NUM_THREADS", "4,x"},
                                                     {"OMP_NUM_THREADS", "100000"},
                                                     {"TCPU_SCHEDULE", "garbage"},
                                                     {"TCPU_SCHEDULE", "static,x"},
                                                     {"TCPU_CRASH_REPORT", "garbage"},
                                                     {"TCPU_MEM_GUARD", "garbage"},
                                                     {"TCPU_DLOPEN_PROBE", "garbage"},
                                                     {"TCPU_CACHE_DISABLE", "garbage"},
                                                     {"TCPU_DEBUG", "garbage"},
                                                     {"TCPU_PERF_MAP", "garbage"},
                                                     {"TCPU_GDB_JIT", "garbage"},
                                                     {"OMP_SCHEDULE", "garbage"},
                                                     {"OMP_SCHEDULE", "dynamic,0"},
                                                     {"OMP_PROC_BIND", "garbage"},
                                                     {"OMP_STACKSIZE", "100G"},
                                                     {"OMP_STACKSIZE", "garbage"},
                                                     {"OMP_WAIT_POLICY", "garbage"},
                                                     {"OMP_DYNAMIC", "garbage"},
                                                     {"OMP_NESTED", "garbage"},
                                                     {"OMP_THREAD_LIMIT", "0"},
                                                     {"OMP_MAX_ACTIVE_LEVELS", "-1"},
                                                     {"OMP_PLACES", "garbage"},
                                                     {"OMP_DISPLAY_ENV", "garbage"},
                                                     {"OMP_CANCELLATION", "garbage"},
                                                     {"OMP_DEFAULT_DEVICE", "x"},
                                                     {"OMP_MAX_TASK_PRIORITY", "x"},
                                                     {"OMP_TARGET_OFFLOAD", "garbage"},
                                                     {"OMP_TOOL", "garbage"},
                                                     {"OMP_NUM_TEAMS", "0"},
                                                     {"OMP_TEAMS_THREAD_LIMIT", "x"},
                                                     {"OMP_DISPLAY_AFFINITY", "garbage"}};
  for (const auto& [name, value] : bad) {
    setenv(name, value, 1);
    EXPECT_EQ(tcpuInit(0), TCPU_ERROR_INVALID_VALUE) << name << "=" << value;
    const std::string detail = tcpuGetLastErrorDetail();
    EXPECT_NE(detail.find(std::string(name) + "='" + value + "'"), std::string::npos) << detail;
    unsetenv(name);
    EXPECT_EQ(tcpuInit(0), TCPU_SUCCESS) << name << ": " << tcpuGetLastErrorDetail();
  }
}

TEST(EnvironmentWalk, GoodOpenMpValuesAreAccepted) {
  const std::pair<const char*, const char*> good[] = {
      {"OMP_NUM_THREADS", "4,2"},        {"OMP_SCHEDULE", "nonmonotonic:dynamic,4"},
      {"OMP_PROC_BIND", "spread,close"}, {"OMP_STACKSIZE", "64M"},
      {"OMP_STACKSIZE", " 512k "},       {"OMP_WAIT_POLICY", "PASSIVE"},
      {"OMP_DYNAMIC", "false"},          {"OMP_PLACES", "cores(2)"},
      {"OMP_PLACES", "{0:2},{2:2}"},     {"OMP_DISPLAY_ENV", "verbose"},
      {"OMP_MAX_ACTIVE_LEVELS", "1"},    {"OMP_AFFINITY_FORMAT", "anything %n"}};
  for (const auto& [name, value] : good) {
    setenv(name, value, 1);
    EXPECT_EQ(tcpuInit(0), TCPU_SUCCESS)
        << name << "=" << value << ": " << tcpuGetLastErrorDetail();
    unsetenv(name);
  }
}

} // namespace
