// Bad input gets a specific result and a detail naming the problem; nothing
// aborts, and nothing is left wedged.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

class ErrorPaths : public RuntimeTest {
protected:
  // Launch arguments for count_programs (five parameters).
  uint32_t hits[8] = {};
  uint32_t errors = 0;
  uint32_t* hitsPtr = hits;
  uint32_t* errorsPtr = &errors;
  uint32_t one = 1;
  void* params[5] = {&hitsPtr, &errorsPtr, &one, &one, &one};
};

std::filesystem::path writeTempFile(const std::string& name, const std::string& contents) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST_F(ErrorPaths, NullAndForeignHandles) {
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
                    TCPU_ERROR_INVALID_HANDLE, "not a valid function handle");
  tcpuFunction f;
  EXPECT_TCPU_ERROR(tcpuModuleGetFunction(&f, nullptr, "empty"), TCPU_ERROR_INVALID_HANDLE,
                    "not a loaded module");
  // A module handle is not a function handle, nor a stream.
  auto asFunction = reinterpret_cast<tcpuFunction>(module_);
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(asFunction, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
                    TCPU_ERROR_INVALID_HANDLE, "not a valid function handle");
  EXPECT_TCPU_ERROR(tcpuStreamSynchronize(reinterpret_cast<tcpuStream>(module_)),
                    TCPU_ERROR_INVALID_HANDLE, "not a live stream");
  // Garbage values are looked up, never dereferenced.
  EXPECT_EQ(tcpuEventQuery(reinterpret_cast<tcpuEvent>(uintptr_t{0xdeadbeef})),
            TCPU_ERROR_INVALID_HANDLE);
  EXPECT_EQ(tcpuModuleUnload(nullptr), TCPU_ERROR_INVALID_HANDLE);
}

TEST_F(ErrorPaths, DestroyedHandles) {
  tcpuModule second;
  ASSERT_TCPU(tcpuModuleLoad(&second, TCPU_TEST_KERNELS_PATH));
  tcpuFunction f;
  ASSERT_TCPU(tcpuModuleGetFunction(&f, second, "empty"));
  ASSERT_TCPU(tcpuModuleUnload(second));
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
                    TCPU_ERROR_INVALID_HANDLE, "unloaded");
  EXPECT_TCPU_ERROR(tcpuModuleUnload(second), TCPU_ERROR_INVALID_HANDLE, "not a loaded module");
  EXPECT_EQ(tcpuModuleGetFunction(&f, second, "empty"), TCPU_ERROR_INVALID_HANDLE);

  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  ASSERT_TCPU(tcpuStreamDestroy(stream));
  EXPECT_TCPU_ERROR(tcpuStreamSynchronize(stream), TCPU_ERROR_INVALID_HANDLE, "not a live stream");
  EXPECT_EQ(tcpuStreamDestroy(stream), TCPU_ERROR_INVALID_HANDLE);
  EXPECT_TCPU_ERROR(
      tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr),
      TCPU_ERROR_INVALID_HANDLE, "hStream");

  tcpuEvent event;
  ASSERT_TCPU(tcpuEventCreate(&event, 0));
  ASSERT_TCPU(tcpuEventDestroy(event));
  EXPECT_TCPU_ERROR(tcpuEventRecord(event, nullptr), TCPU_ERROR_INVALID_HANDLE, "not a live event");
  EXPECT_EQ(tcpuEventSynchronize(event), TCPU_ERROR_INVALID_HANDLE);
}

TEST_F(ErrorPaths, MissingFunctionName) {
  tcpuFunction f;
  EXPECT_TCPU_ERROR(tcpuModuleGetFunction(&f, module_, "no_such_kernel"), TCPU_ERROR_NOT_FOUND,
                    "no kernel named 'no_such_kernel'");
  EXPECT_TCPU_ERROR(tcpuModuleGetFunction(&f, module_, nullptr), TCPU_ERROR_INVALID_VALUE,
                    "name is NULL");
}

TEST_F(ErrorPaths, IncompatibleKernelAbi) {
  tcpuFunction f;
  EXPECT_TCPU_ERROR(tcpuModuleGetFunction(&f, module_, "future_abi"), TCPU_ERROR_INVALID_IMAGE,
                    "ABI v99");
}

TEST_F(ErrorPaths, FilesThatAreNotModules) {
  tcpuModule m;
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&m, "/nonexistent/kernels.so"), TCPU_ERROR_FILE_NOT_FOUND,
                    "/nonexistent/kernels.so");
  const auto text = writeTempFile("tcpu-not-a-module.txt", "hello, I am not a kernel module\n");
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&m, text.c_str()), TCPU_ERROR_INVALID_IMAGE,
                    "not a module in any known format");
  const auto empty = writeTempFile("tcpu-empty-module.so", "");
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&m, empty.c_str()), TCPU_ERROR_INVALID_IMAGE, "is empty");
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&m, std::filesystem::temp_directory_path().c_str()),
                    TCPU_ERROR_INVALID_VALUE, "not a regular file");
  // An ELF header with nothing behind it: dlopen refuses, we report it.
  std::ifstream in(TCPU_TEST_KERNELS_PATH, std::ios::binary);
  std::string head(128, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  const auto truncated = writeTempFile("tcpu-truncated.so", head);
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&m, truncated.c_str()), TCPU_ERROR_INVALID_IMAGE,
                    "cannot be loaded");
  EXPECT_TCPU_ERROR(tcpuModuleLoadData(&m, head.data(), head.size()), TCPU_ERROR_INVALID_IMAGE,
                    "cannot be loaded");
  const char garbage[] = "\x01\x02\x03\x04garbage";
  EXPECT_TCPU_ERROR(tcpuModuleLoadData(&m, garbage, sizeof garbage), TCPU_ERROR_INVALID_IMAGE,
                    "first bytes: 0x1 0x2 0x3 0x4");
  EXPECT_TCPU_ERROR(tcpuModuleLoadData(&m, garbage, 0), TCPU_ERROR_INVALID_VALUE, "size is 0");
  EXPECT_TCPU_ERROR(tcpuModuleLoadData(&m, nullptr, 4), TCPU_ERROR_INVALID_VALUE, "image is NULL");
  EXPECT_TCPU_ERROR(tcpuModuleLoad(nullptr, TCPU_TEST_KERNELS_PATH), TCPU_ERROR_INVALID_VALUE,
                    "module is NULL");
  std::filesystem::remove(text);
  std::filesystem::remove(empty);
  std::filesystem::remove(truncated);
}

// The dynamic loader ends the process on what it cannot handle (a fault, or its assertions'
// exit with status 127); tcpu opens a shared object in a probe process first, so such an image
// is refused instead. A module whose initializer does the same stands in for a damaged image
// (tests/fuzz/regressions/module holds real ones, found by fuzz_module).
#if defined(__linux__)
class InitializerScope {
public:
  explicit InitializerScope(const char* what) { ::setenv("TCPU_TEST_INITIALIZER", what, 1); }
  ~InitializerScope() { ::unsetenv("TCPU_TEST_INITIALIZER"); }
  InitializerScope(const InitializerScope&) = delete;
  InitializerScope& operator=(const InitializerScope&) = delete;
};

TEST_F(ErrorPaths, ImageWhoseLoadingEndsTheProcessIsRefused) {
  tcpuModule m = nullptr;
  {
    const InitializerScope scope("segv");
    EXPECT_TCPU_ERROR(tcpuModuleLoad(&m, TCPU_TEST_FAULTING_INITIALIZER_PATH),
                      TCPU_ERROR_INVALID_IMAGE, "ended a probe process (signal SIGSEGV)");
  }
  {
    const InitializerScope scope("ld_so_exit");
    EXPECT_TCPU_ERROR(
        tcpuModuleLoad(&m, TCPU_TEST_FAULTING_INITIALIZER_PATH), TCPU_ERROR_INVALID_IMAGE,
        "(exit status 127): Inconsistency detected by ld.so: test: Assertion failed!");
  }
  // The same module loads and runs when its initializer returns.
  ASSERT_TCPU(tcpuModuleLoad(&m, TCPU_TEST_FAULTING_INITIALIZER_PATH));
  tcpuFunction f;
  ASSERT_TCPU(tcpuModuleGetFunction(&f, m, "initializer_module_kernel"));
  uint32_t out = 0;
  uint32_t* outPtr = &out;
  void* kernelParams[] = {&outPtr};
  ASSERT_TCPU(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, kernelParams, nullptr));
  EXPECT_EQ(out, 11u);
  ASSERT_TCPU(tcpuModuleUnload(m));
}

// Without the probe (TCPU_DLOPEN_PROBE=0) the same load ends the process: the probe is what
// keeps it alive.
TEST(ErrorPathsDeathTest, WithoutTheProbeTheLoaderEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("TCPU_DLOPEN_PROBE", "0", 1);
        ::setenv("TCPU_TEST_INITIALIZER", "ld_so_exit", 1);
        tcpuModule m = nullptr;
        if (tcpuInit(0) == TCPU_SUCCESS)
          (void)tcpuModuleLoad(&m, TCPU_TEST_FAULTING_INITIALIZER_PATH);
        std::_Exit(0);
      },
      testing::ExitedWithCode(127), "Inconsistency detected by ld.so");
}
#endif

TEST_F(ErrorPaths, WrongParameterCount) {
  const tcpuFunction f = function("count_programs");
  void* threeOfFive[] = {TCPU_LAUNCH_PARAM_COUNT, reinterpret_cast<void*>(uintptr_t{3}),
                         TCPU_LAUNCH_PARAM_END};
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, threeOfFive),
                    TCPU_ERROR_INVALID_VALUE, "takes 5 parameters but the launch passes 3");
  void* fiveOfFive[] = {TCPU_LAUNCH_PARAM_COUNT, reinterpret_cast<void*>(uintptr_t{5}),
                        TCPU_LAUNCH_PARAM_END};
  EXPECT_TCPU(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, fiveOfFive));
  EXPECT_EQ(hits[0], 1u);
  // A parameter array cut short by a NULL entry.
  void* shortParams[] = {&hitsPtr, &errorsPtr, nullptr};
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, shortParams, nullptr),
                    TCPU_ERROR_INVALID_VALUE, "kernelParams[2] is NULL");
}

TEST_F(ErrorPaths, NullKernelParamsForAKernelWithParameters) {
  EXPECT_TCPU_ERROR(
      tcpuLaunchKernel(function("count_programs"), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
      TCPU_ERROR_INVALID_VALUE, "'count_programs' takes 5 parameters but kernelParams is NULL");
  // A kernel without parameters needs none.
  EXPECT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
}

TEST_F(ErrorPaths, MalformedExtra) {
  const tcpuFunction f = function("count_programs");
  void* unknownKey[] = {reinterpret_cast<void*>(uintptr_t{0x77}), nullptr, TCPU_LAUNCH_PARAM_END};
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, unknownKey),
                    TCPU_ERROR_INVALID_VALUE, "not a TCPU_LAUNCH_PARAM_* key");
  std::vector<void*> unterminated(70, TCPU_LAUNCH_PARAM_COUNT);
  for (size_t i = 1; i < unterminated.size(); i += 2)
    unterminated[i] = reinterpret_cast<void*>(uintptr_t{5});
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, unterminated.data()),
                    TCPU_ERROR_INVALID_VALUE, "no TCPU_LAUNCH_PARAM_END");
  char buffer[8] = {};
  size_t size = sizeof buffer;
  void* tooSmall[] = {TCPU_LAUNCH_PARAM_BUFFER_POINTER, buffer, TCPU_LAUNCH_PARAM_BUFFER_SIZE,
                      &size, TCPU_LAUNCH_PARAM_END};
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, tooSmall),
                    TCPU_ERROR_INVALID_VALUE, "holds 8 bytes but its 5 parameters need 28");
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, tooSmall),
                    TCPU_ERROR_INVALID_VALUE, "not both");
}

TEST_F(ErrorPaths, GridWhoseProgramCountOverflows64Bits) {
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(function("empty"), 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 1, 1,
                                     1, 0, nullptr, nullptr, nullptr),
                    TCPU_ERROR_INVALID_VALUE, "more than 2^64 - 1 programs");
}

TEST_F(ErrorPaths, BlockDimensionsAndScratch) {
  const tcpuFunction f = function("empty");
  EXPECT_TCPU_ERROR(tcpuLaunchKernel(f, 1, 1, 1, 0, 1, 1, 0, nullptr, nullptr, nullptr),
                    TCPU_ERROR_INVALID_VALUE, "block dimensions (0, 1, 1)");
  EXPECT_TCPU_ERROR(
      tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, TCPU_MAX_SCRATCH_BYTES + 1, nullptr, nullptr, nullptr),
      TCPU_ERROR_INVALID_VALUE, "sharedMemBytes=67108865");
}

TEST_F(ErrorPaths, UnknownScheduleAndThreadCounts) {
  EXPECT_TCPU_ERROR(tcpuSetSchedule(static_cast<tcpuSchedule>(7), 0), TCPU_ERROR_INVALID_VALUE,
                    "schedule=7");
  EXPECT_TCPU_ERROR(tcpuSetNumThreads(-1), TCPU_ERROR_INVALID_VALUE, "numThreads=-1");
  tcpuSchedule schedule;
  unsigned chunk;
  ASSERT_TCPU(tcpuGetSchedule(&schedule, &chunk));
  EXPECT_EQ(schedule, TCPU_SCHEDULE_GUIDED); // the default: the rejected value changed nothing
}

TEST_F(ErrorPaths, MalformedEnvironmentIsReportedByInit) {
  ASSERT_EQ(setenv("TCPU_SCHEDULE", "sometimes", 1), 0);
  EXPECT_TCPU_ERROR(tcpuInit(0), TCPU_ERROR_INVALID_VALUE, "TCPU_SCHEDULE='sometimes'");
  ASSERT_EQ(setenv("TCPU_SCHEDULE", "dynamic,x", 1), 0);
  EXPECT_TCPU_ERROR(tcpuInit(0), TCPU_ERROR_INVALID_VALUE,
                    "TCPU_SCHEDULE='dynamic,x': the chunk='x'");
  ASSERT_EQ(unsetenv("TCPU_SCHEDULE"), 0);
  ASSERT_EQ(setenv("TCPU_NUM_THREADS", "many", 1), 0);
  EXPECT_TCPU_ERROR(tcpuInit(0), TCPU_ERROR_INVALID_VALUE, "TCPU_NUM_THREADS='many'");
  ASSERT_EQ(setenv("TCPU_NUM_THREADS", "0", 1), 0);
  EXPECT_TCPU_ERROR(tcpuInit(0), TCPU_ERROR_INVALID_VALUE, "TCPU_NUM_THREADS='0'");
  ASSERT_EQ(unsetenv("TCPU_NUM_THREADS"), 0);
  EXPECT_TCPU(tcpuInit(0));
  EXPECT_TCPU_ERROR(tcpuInit(3), TCPU_ERROR_INVALID_VALUE, "flags=3");
}

TEST_F(ErrorPaths, NullOutputArguments) {
  EXPECT_EQ(tcpuStreamCreate(nullptr, 0), TCPU_ERROR_INVALID_VALUE);
  tcpuStream stream;
  EXPECT_TCPU_ERROR(tcpuStreamCreate(&stream, 8), TCPU_ERROR_INVALID_VALUE, "flags=8");
  EXPECT_EQ(tcpuEventCreate(nullptr, 0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuMemAlloc(nullptr, 8), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuGetNumThreads(nullptr), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuFuncGetParamCount(nullptr, function("empty")), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuFuncGetFlags(nullptr, function("empty")), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuDriverGetVersion(nullptr), TCPU_ERROR_INVALID_VALUE);
  const char* text;
  EXPECT_EQ(tcpuGetErrorName(static_cast<tcpuResult>(12345), &text), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuGetErrorString(TCPU_SUCCESS, nullptr), TCPU_ERROR_INVALID_VALUE);
}

TEST_F(ErrorPaths, MemoryMisuse) {
  EXPECT_TCPU_ERROR(tcpuMemFree(0x1234), TCPU_ERROR_INVALID_VALUE, "not the start of a live");
  tcpuDeviceptr dptr;
  EXPECT_TCPU_ERROR(tcpuMemAlloc(&dptr, 0), TCPU_ERROR_INVALID_VALUE, "bytesize is 0");
  ASSERT_TCPU(tcpuMemAlloc(&dptr, 100));
  std::vector<char> host(200);
  EXPECT_TCPU_ERROR(tcpuMemcpyHtoD(dptr, host.data(), 101), TCPU_ERROR_INVALID_VALUE,
                    "+ 101 bytes runs past the end of its allocation (100 bytes");
  EXPECT_TCPU_ERROR(tcpuMemcpyDtoH(host.data(), dptr + 50, 51), TCPU_ERROR_INVALID_VALUE,
                    "runs past the end");
  EXPECT_TCPU_ERROR(tcpuMemcpyHtoD(dptr, nullptr, 10), TCPU_ERROR_INVALID_VALUE, "srcHost is NULL");
  EXPECT_TCPU_ERROR(tcpuMemsetD8(reinterpret_cast<tcpuDeviceptr>(host.data()), 0, 1),
                    TCPU_ERROR_INVALID_VALUE, "not inside a tcpuMemAlloc allocation");
  EXPECT_TCPU_ERROR(tcpuMemsetD32(dptr + 2, 0, 1), TCPU_ERROR_INVALID_VALUE, "4-byte aligned");
  ASSERT_TCPU(tcpuMemFree(dptr));
  EXPECT_TCPU_ERROR(tcpuMemFree(dptr), TCPU_ERROR_INVALID_VALUE, "not the start of a live");
}

TEST_F(ErrorPaths, DeviceQueries) {
  char name[8];
  EXPECT_TCPU_ERROR(tcpuDeviceGetName(name, sizeof name, 1), TCPU_ERROR_INVALID_DEVICE, "dev=1");
  EXPECT_TCPU_ERROR(tcpuDeviceGetName(name, 0, 0), TCPU_ERROR_INVALID_VALUE, "len=0");
  int value;
  EXPECT_TCPU_ERROR(tcpuDeviceGetAttribute(&value, static_cast<tcpuDeviceAttribute>(99), 0),
                    TCPU_ERROR_INVALID_VALUE, "attrib=99");
  tcpuDevice dev;
  EXPECT_EQ(tcpuDeviceGet(&dev, 1), TCPU_ERROR_INVALID_DEVICE);
}

TEST(ErrorNames, EveryResultHasANameAndAString) {
  for (tcpuResult code : {TCPU_SUCCESS,
                          TCPU_ERROR_INVALID_VALUE,
                          TCPU_ERROR_OUT_OF_MEMORY,
                          TCPU_ERROR_NOT_INITIALIZED,
                          TCPU_ERROR_NO_DEVICE,
                          TCPU_ERROR_INVALID_DEVICE,
                          TCPU_ERROR_INVALID_IMAGE,
                          TCPU_ERROR_INVALID_SOURCE,
                          TCPU_ERROR_FILE_NOT_FOUND,
                          TCPU_ERROR_OPERATING_SYSTEM,
                          TCPU_ERROR_INVALID_HANDLE,
                          TCPU_ERROR_NOT_FOUND,
                          TCPU_ERROR_NOT_READY,
                          TCPU_ERROR_ILLEGAL_ADDRESS,
                          TCPU_ERROR_ASSERT,
                          TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                          TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED,
                          TCPU_ERROR_LAUNCH_FAILED,
                          TCPU_ERROR_NOT_SUPPORTED,
                          TCPU_ERROR_UNKNOWN,
                          TCPU_ERROR_CANCELLED}) {
    const char* name = nullptr;
    const char* text = nullptr;
    ASSERT_EQ(tcpuGetErrorName(code, &name), TCPU_SUCCESS);
    ASSERT_EQ(tcpuGetErrorString(code, &text), TCPU_SUCCESS);
    EXPECT_EQ(std::string(name).rfind("TCPU_", 0), 0u);
    EXPECT_GT(std::string(text).size(), 3u);
  }
  const char* name = nullptr;
  ASSERT_EQ(tcpuGetErrorName(TCPU_ERROR_INVALID_HANDLE, &name), TCPU_SUCCESS);
  EXPECT_STREQ(name, "TCPU_ERROR_INVALID_HANDLE");
}

} // namespace
} // namespace tcpu::test
