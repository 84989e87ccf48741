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
    EXPECT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_GUIDED, 0)); // the default
    CodegenTest::TearDown();
  }
  // Loads wild_store.ll and launches it over 8 programs; program 3 faults.
  void launchWildStore(uintptr_t checkBounds) {
    tcpuModule module = load("wild_store.ll", JitOptions().set(TCPU_JIT_CHECK_BOUNDS, checkBounds));
    std::vector<int32_t> out(8, 0);
    int32_t* data = out.data();
    uint32_t victim = 3;
    void* params[] = {&data, &victim};
    tcpuLaunchKernel(function(module, "wild_store"), 8, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr);
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

} // namespace
} // namespace tcpu::test
