// A JIT-compiled kernel that crashes the process is named with its program before the process
// dies (LLVM's crash recovery handlers, installed by the compile, pass the signal on).
#include <signal.h>

#include <vector>

#include "codegen_test_support.hpp"
#include "crash_test_support.hpp"

namespace tcpu::test {
namespace {

class JitCrashReport : public CodegenTest {
protected:
  void SetUp() override {
    prepareCrashTests();
    CodegenTest::SetUp();
  }
  void TearDown() override {
    EXPECT_TCPU(tcpuSetNumThreads(0));
    EXPECT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DEFAULT, 0));
    CodegenTest::TearDown();
  }
  // Loads wild_store.ll and launches it over 8 programs; program 3 faults.
  void launchWildStore(uintptr_t checkBounds) {
    launch("wild_store", 8, 3, JitOptions().set(TCPU_JIT_CHECK_BOUNDS, checkBounds));
  }
  // Loads <kernel>.ll and launches it over `programs` programs; program `victim` faults.
  void launch(const std::string& kernel, uint32_t programs, uint32_t victim,
              const JitOptions& options = JitOptions()) {
    tcpuModule module = load(kernel + ".ll", options);
    std::vector<int32_t> out(programs, 0);
    int32_t* data = out.data();
    void* params[] = {&data, &victim};
    tcpuLaunchKernel(function(module, kernel.c_str()), programs, 1, 1, 1, 1, 1, 0, nullptr, params,
                     nullptr);
  }
};

TEST_F(JitCrashReport, NamesTheKernelProgramAndAddress) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DYNAMIC, 1));
  EXPECT_EXIT(launchWildStore(0), testing::KilledBySignal(SIGSEGV),
              "tcpu: kernel 'wild_store' raised SIGSEGV \\(invalid memory access at "
              "0x0000000000000040\\) in program \\(3, 0, 0\\) of grid \\(8, 1, 1\\)");
}

// A bounds-checked kernel tells the runtime each program it starts: the report is exact even
// when one entry call runs them all.
TEST_F(JitCrashReport, BoundsCheckedKernelsNameTheProgramInAnySchedule) {
  ASSERT_TCPU(tcpuSetNumThreads(1));
  EXPECT_EXIT(launchWildStore(1), testing::KilledBySignal(SIGSEGV),
              "tcpu: kernel 'wild_store' raised SIGSEGV .* in program \\(3, 0, 0\\) of grid "
              "\\(8, 1, 1\\)");
}

// Which programs one entry call ran shows the schedule: 64 programs on 2 threads, guided, are
// dealt as [0, 16), [16, 28), ... whichever thread takes them; dynamic,16 as [16, 32).
TEST_F(JitCrashReport, KernelsWhoseProgramsWaitRunInRunsOf16Programs) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  EXPECT_EXIT(launch("wild_store_spin", 64, 20), testing::KilledBySignal(SIGSEGV),
              "in one of programs \\(16, 0, 0\\) to \\(31, 0, 0\\)");
}

TEST_F(JitCrashReport, KernelsWithAtomicsThatDoNotWaitRunGuided) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  EXPECT_EXIT(launch("wild_store_atomic", 64, 20), testing::KilledBySignal(SIGSEGV),
              "in one of programs \\(16, 0, 0\\) to \\(27, 0, 0\\)");
}

TEST_F(JitCrashReport, KernelsWithoutAtomicsRunGuided) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  EXPECT_EXIT(launch("wild_store", 64, 20), testing::KilledBySignal(SIGSEGV),
              "in one of programs \\(16, 0, 0\\) to \\(27, 0, 0\\)");
}

TEST_F(JitCrashReport, AChosenScheduleAppliesToKernelsWhoseProgramsWait) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_GUIDED, 0));
  EXPECT_EXIT(launch("wild_store_spin", 64, 20), testing::KilledBySignal(SIGSEGV),
              "in one of programs \\(16, 0, 0\\) to \\(27, 0, 0\\)");
}

} // namespace
} // namespace tcpu::test
