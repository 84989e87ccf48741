// A kernel that crashes the process is named, with its program, before the
// process dies by the same signal it would have died by without tcpu.
#include <signal.h>

#include <cstdlib>
#include <vector>

#include <gmock/gmock.h>

#include "crash_test_support.hpp"
#include "test_support.hpp"

namespace tcpu::test {
namespace {

class CrashReport : public RuntimeTest {
protected:
  void SetUp() override {
    prepareCrashTests();
    RuntimeTest::SetUp();
  }

  // Launches fault_at over an 8 x 2 grid; program `victim` faults as `kind` says.
  void launchFault(uint32_t victim, uint32_t kind) { launchFault("fault_at", 8, 2, victim, kind); }
  // Launches `kernel` (fault_at behind another descriptor) over gx x gy programs.
  void launchFault(const char* kernel, uint32_t gx, uint32_t gy, uint32_t victim, uint32_t kind) {
    std::vector<int32_t> out(static_cast<size_t>(gx) * gy, 0);
    int32_t* data = out.data();
    void* params[] = {&data, &victim, &kind};
    tcpuLaunchKernel(function(kernel), gx, gy, 1, 1, 1, 1, 0, nullptr, params, nullptr);
  }
};

TEST_F(CrashReport, WildPointerNamesTheKernelAndTheProgram) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DYNAMIC, 1)); // an entry call per program
  EXPECT_EXIT(launchFault(13, 0), testing::KilledBySignal(SIGSEGV),
              "tcpu: kernel 'fault_at' raised SIGSEGV \\(invalid memory access at "
              "0x0000000000000040\\) in program \\(5, 1, 0\\) of grid \\(8, 2, 1\\)");
}

TEST_F(CrashReport, ProgramsRunInOneEntryCallAreNamedAsARange) {
  ASSERT_TCPU(tcpuSetNumThreads(1)); // one entry call runs the whole grid
  EXPECT_EXIT(launchFault(13, 0), testing::KilledBySignal(SIGSEGV),
              "tcpu: kernel 'fault_at' raised SIGSEGV .* in one of programs \\(0, 0, 0\\) to "
              "\\(7, 1, 0\\) \\(TCPU_SCHEDULE=dynamic,1 names the one\\) of grid \\(8, 2, 1\\)");
}

#if defined(__x86_64__) || defined(__i386__)
// x86 traps integer division by zero (AArch64 gives 0 and no signal).
TEST_F(CrashReport, IntegerDivisionByZero) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DYNAMIC, 1));
  EXPECT_EXIT(launchFault(2, 1), testing::KilledBySignal(SIGFPE),
              "tcpu: kernel 'fault_at' raised SIGFPE \\(integer division by zero\\) in program "
              "\\(2, 0, 0\\) of grid \\(8, 2, 1\\)");
}
#endif

// Which programs one entry call ran shows the schedule: 64 programs on 2 threads, guided, are
// dealt as [0, 16), [16, 28), ... whichever thread takes them; dynamic,16 as [16, 32).
TEST_F(CrashReport, KernelsWhoseProgramsWaitRunInRunsOf16Programs) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  EXPECT_EXIT(launchFault("fault_at_waiting", 64, 1, 20, 0), testing::KilledBySignal(SIGSEGV),
              "kernel 'fault_at_waiting' .* in one of programs \\(16, 0, 0\\) to "
              "\\(31, 0, 0\\)");
}

TEST_F(CrashReport, AChosenScheduleAppliesToKernelsWhoseProgramsWait) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ASSERT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_GUIDED, 0));
  EXPECT_EXIT(launchFault("fault_at_waiting", 64, 1, 20, 0), testing::KilledBySignal(SIGSEGV),
              "in one of programs \\(16, 0, 0\\) to \\(27, 0, 0\\)");
}

// A descriptor of ABI v1 has no flags: its kernel runs guided.
TEST_F(CrashReport, KernelsOfAbiV1RunGuided) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  EXPECT_EXIT(launchFault("fault_at_v1", 64, 1, 20, 0), testing::KilledBySignal(SIGSEGV),
              "kernel 'fault_at_v1' .* in one of programs \\(16, 0, 0\\) to \\(27, 0, 0\\)");
}

TEST_F(CrashReport, CanBeTurnedOff) {
  setenv("TCPU_CRASH_REPORT", "0", 1);
  EXPECT_EXIT(launchFault(13, 0), testing::KilledBySignal(SIGSEGV),
              testing::Not(testing::HasSubstr("tcpu: kernel")));
  unsetenv("TCPU_CRASH_REPORT");
}

// A kernel that wrote a little past a buffer leaves the process to die later, elsewhere: the
// report then names the last launches and the setting that would have caught the access.
TEST_F(CrashReport, FaultsAfterLaunchesNameTheLastKernels) {
  launchFault(99, 0); // no program faults; the handlers are installed by this first launch
  launchFault("fault_at_v1", 4, 1, 99, 0);
  EXPECT_EXIT(raise(SIGSEGV), testing::KilledBySignal(SIGSEGV),
              "tcpu: the process got SIGSEGV \\(invalid memory access\\) outside a kernel, after 2 "
              "kernel launches; the last:\n"
              "tcpu:   'fault_at_v1' grid \\(4, 1, 1\\)\n"
              "tcpu:   'fault_at' grid \\(8, 2, 1\\)\n"
              "tcpu: if a kernel wrote outside a buffer .*TCPU_CHECK=bounds");
}

// glibc aborts when it finds its heap corrupted ("double free or corruption").
TEST_F(CrashReport, AbortAfterALaunchNamesTheKernel) {
  launchFault(99, 0);
  EXPECT_EXIT(abort(), testing::KilledBySignal(SIGABRT),
              "tcpu: the process got SIGABRT \\(abort\\) outside a kernel, after 1 kernel launch; "
              "the last:\ntcpu:   'fault_at' grid \\(8, 2, 1\\)");
}

TEST_F(CrashReport, NothingIsReportedWithoutALaunch) {
  EXPECT_EXIT(abort(), testing::KilledBySignal(SIGABRT), testing::Not(testing::HasSubstr("tcpu:")));
}

} // namespace
} // namespace tcpu::test
