// Cancel flags (TCPU_LAUNCH_PARAM_CANCEL_FLAG): a raised flag cancels its launch, skipping the
// programs not started; the count kernels poll follows raises and lowers.
#include <chrono>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

using Clock = std::chrono::steady_clock;

class CancelFlags : public RuntimeTest {
protected:
  void TearDown() override {
    tcpuCancelFlagLower(&flag_);
    EXPECT_EQ(tcpuKernelCancelPending, 0) << "a raised flag was not counted down";
    RuntimeTest::TearDown();
  }
  // count_programs over `programs` programs with the flag; returns how many ran.
  tcpuResult countPrograms(uint32_t programs, std::vector<uint32_t>& hits) {
    hits.assign(programs, 0);
    uint32_t errors = 0;
    uint32_t* hitsPtr = hits.data();
    uint32_t* errorsPtr = &errors;
    uint32_t ex = programs, ey = 1, ez = 1;
    void* params[] = {&hitsPtr, &errorsPtr, &ex, &ey, &ez};
    void* extra[] = {TCPU_LAUNCH_PARAM_CANCEL_FLAG, &flag_, TCPU_LAUNCH_PARAM_END};
    return tcpuLaunchKernel(function("count_programs"), programs, 1, 1, 1, 1, 1, 0, nullptr, params,
                            extra);
  }
  tcpuCancelFlag flag_{0};
};

TEST_F(CancelFlags, ALoweredFlagChangesNothing) {
  std::vector<uint32_t> hits;
  ASSERT_TCPU(countPrograms(1000, hits));
  EXPECT_EQ(hits, std::vector<uint32_t>(1000, 1));
}

TEST_F(CancelFlags, ARaisedFlagCancelsTheLaunchBeforeAnyProgram) {
  tcpuCancelFlagRaise(&flag_);
  std::vector<uint32_t> hits;
  EXPECT_TCPU_ERROR(countPrograms(1000, hits), TCPU_ERROR_CANCELLED,
                    "kernel 'count_programs': cancelled");
  EXPECT_EQ(hits, std::vector<uint32_t>(1000, 0));
  // Lowered, the flag's next launch runs: the process stays usable.
  tcpuCancelFlagLower(&flag_);
  ASSERT_TCPU(countPrograms(1000, hits));
  EXPECT_EQ(hits, std::vector<uint32_t>(1000, 1));
}

TEST_F(CancelFlags, KernelsPollACountOfRaisedFlags) {
  tcpuCancelFlag other{0};
  EXPECT_EQ(tcpuKernelCancelPending, 0);
  tcpuCancelFlagRaise(&flag_);
  tcpuCancelFlagRaise(&flag_); // raising a raised flag is no second count
  EXPECT_EQ(tcpuKernelCancelPending, 1);
  tcpuCancelFlagRaise(&other);
  EXPECT_EQ(tcpuKernelCancelPending, 2);
  tcpuCancelFlagLower(&other);
  tcpuCancelFlagLower(&other);
  EXPECT_EQ(tcpuKernelCancelPending, 1);
  // Outside a launch no program is cancelled, whatever flags are raised.
  EXPECT_EQ(tcpuKernelCancelled(), 0);
  tcpuCancelFlagLower(&flag_);
  EXPECT_EQ(tcpuKernelCancelPending, 0);
}

// Raised from another thread while the launch runs: the ranges not started are skipped. The
// kernel (built by the system compiler, without codegen's loop checks) runs its range to the end,
// so the programs come one per range: dynamic, chunk 1.
TEST_F(CancelFlags, RaisedDuringALaunchSkipsTheProgramsNotStarted) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DYNAMIC, 1));
  // 4000 programs of 1 ms on 2 threads: 2 s uncancelled.
  uint32_t micros = 1000;
  void* params[] = {&micros};
  void* extra[] = {TCPU_LAUNCH_PARAM_CANCEL_FLAG, &flag_, TCPU_LAUNCH_PARAM_END};
  std::thread raiser([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    tcpuCancelFlagRaise(&flag_);
  });
  const auto start = Clock::now();
  const tcpuResult result =
      tcpuLaunchKernel(function("spin"), 4000, 1, 1, 1, 1, 1, 0, nullptr, params, extra);
  const auto elapsed = Clock::now() - start;
  raiser.join();
  EXPECT_EQ(result, TCPU_ERROR_CANCELLED) << tcpuGetLastErrorDetail();
  EXPECT_LT(elapsed, std::chrono::milliseconds(1000));
}

// A launch queued on a stream heeds the flag when it runs.
TEST_F(CancelFlags, AQueuedLaunchIsCancelledWhenItRuns) {
  tcpuStream stream = nullptr;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  tcpuCancelFlagRaise(&flag_);
  std::vector<uint32_t> hits(100, 0);
  uint32_t errors = 0;
  uint32_t* hitsPtr = hits.data();
  uint32_t* errorsPtr = &errors;
  uint32_t ex = 100, ey = 1, ez = 1;
  void* params[] = {&hitsPtr, &errorsPtr, &ex, &ey, &ez};
  void* extra[] = {TCPU_LAUNCH_PARAM_CANCEL_FLAG, &flag_, TCPU_LAUNCH_PARAM_END};
  ASSERT_TCPU(
      tcpuLaunchKernel(function("count_programs"), 100, 1, 1, 1, 1, 1, 0, stream, params, extra));
  EXPECT_EQ(tcpuStreamSynchronize(stream), TCPU_ERROR_CANCELLED);
  EXPECT_EQ(hits, std::vector<uint32_t>(100, 0));
  EXPECT_TCPU(tcpuStreamDestroy(stream));
}

} // namespace
} // namespace tcpu::test
