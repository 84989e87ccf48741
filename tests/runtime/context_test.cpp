// Contexts and the CUDA backend. The CPU-side tests run everywhere; those that need a GPU skip
// where no CUDA context can be created (CI), and run where one can (the GPU check in
// tests/xcheck/README.md). vector_add_sm70.ptx is the tutorial's add_kernel as
// `tcpu ptx build-clang/kernels/tutorials/vector_add.bc --arch sm_70
//  --signature "*fp32, *fp32, *fp32, i32"` writes it: sm_70 PTX is JIT-compiled for any newer GPU.
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string lastDetail() {
  return tcpuGetLastErrorDetail();
}

// Whether the driver library the runtime would load can be opened at all.
bool driverLibraryPresent() {
  const char* configured = std::getenv("TCPU_CUDA_DRIVER");
  void* library = dlopen(configured && *configured ? configured : "libcuda.so.1", RTLD_LAZY);
  if (library) dlclose(library);
  return library != nullptr;
}

class ContextTest : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TCPU(tcpuInit(0)); }
  void TearDown() override { EXPECT_TCPU(tcpuCtxSetCurrent(nullptr)); }
};

TEST_F(ContextTest, TheCpuContextIsCurrentUntilOneIsSet) {
  tcpuContext current = reinterpret_cast<tcpuContext>(1);
  ASSERT_TCPU(tcpuCtxGetCurrent(&current));
  EXPECT_EQ(current, nullptr);
  tcpuBackend backend = TCPU_BACKEND_CUDA;
  ASSERT_TCPU(tcpuCtxGetBackend(&backend, nullptr));
  EXPECT_EQ(backend, TCPU_BACKEND_CPU);
}

TEST_F(ContextTest, CpuContextIsCreatedCurrentAndDestroyed) {
  tcpuContext ctx = nullptr;
  ASSERT_TCPU(tcpuCtxCreate(&ctx, TCPU_BACKEND_CPU, 0));
  tcpuContext current = nullptr;
  ASSERT_TCPU(tcpuCtxGetCurrent(&current));
  EXPECT_EQ(current, ctx);
  tcpuBackend backend = TCPU_BACKEND_CUDA;
  ASSERT_TCPU(tcpuCtxGetBackend(&backend, ctx));
  EXPECT_EQ(backend, TCPU_BACKEND_CPU);
  char name[256];
  ASSERT_TCPU(tcpuCtxGetName(name, sizeof name, ctx));
  EXPECT_THAT(name, StartsWith("CPU ("));
  // Work on it is the CPU's: memory comes from the CPU allocator.
  tcpuDeviceptr memory = 0;
  ASSERT_TCPU(tcpuMemAlloc(&memory, 64));
  ASSERT_TCPU(tcpuMemsetD8(memory, 7, 64));
  EXPECT_EQ(reinterpret_cast<const unsigned char*>(static_cast<uintptr_t>(memory))[63], 7);
  ASSERT_TCPU(tcpuMemFree(memory));
  ASSERT_TCPU(tcpuCtxSynchronize());
  ASSERT_TCPU(tcpuCtxDestroy(ctx));
  ASSERT_TCPU(tcpuCtxGetCurrent(&current));
  EXPECT_EQ(current, nullptr);
  EXPECT_EQ(tcpuCtxDestroy(ctx), TCPU_ERROR_INVALID_CONTEXT);
  EXPECT_THAT(lastDetail(), HasSubstr("is not a live context"));
  EXPECT_EQ(tcpuCtxSetCurrent(ctx), TCPU_ERROR_INVALID_CONTEXT);
}

TEST_F(ContextTest, BadArgumentsAreNamed) {
  tcpuContext ctx = nullptr;
  EXPECT_EQ(tcpuCtxCreate(nullptr, TCPU_BACKEND_CPU, 0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_THAT(lastDetail(), HasSubstr("ctx is NULL"));
  EXPECT_EQ(tcpuCtxCreate(&ctx, 0, 0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_THAT(lastDetail(), HasSubstr("backends=0x0"));
  EXPECT_EQ(tcpuCtxCreate(&ctx, 8, 0), TCPU_ERROR_INVALID_VALUE);
  EXPECT_THAT(lastDetail(), HasSubstr("backends=0x8"));
  EXPECT_EQ(tcpuCtxCreate(&ctx, TCPU_BACKEND_CPU, 1), TCPU_ERROR_INVALID_DEVICE);
  EXPECT_THAT(lastDetail(), HasSubstr("ordinal=1"));
  EXPECT_EQ(tcpuCtxGetName(nullptr, 10, nullptr), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuCtxGetBackend(nullptr, nullptr), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(tcpuCtxSetCurrent(reinterpret_cast<tcpuContext>(0x42)), TCPU_ERROR_INVALID_CONTEXT);
}

TEST_F(ContextTest, CudaWithoutADriverIsNoDevice) {
  if (driverLibraryPresent()) GTEST_SKIP() << "a CUDA driver library is present here";
  tcpuContext ctx = nullptr;
  EXPECT_EQ(tcpuCtxCreate(&ctx, TCPU_BACKEND_CUDA, 0), TCPU_ERROR_NO_DEVICE);
  EXPECT_THAT(lastDetail(), HasSubstr("no CUDA driver: dlopen("));
  EXPECT_THAT(lastDetail(), HasSubstr("TCPU_BACKEND_CUDA ordinal 0"));
  // Either backend: the CPU, where there is no GPU.
  ASSERT_TCPU(tcpuCtxCreate(&ctx, TCPU_BACKEND_CPU | TCPU_BACKEND_CUDA, 0));
  tcpuBackend backend = TCPU_BACKEND_CUDA;
  ASSERT_TCPU(tcpuCtxGetBackend(&backend, ctx));
  EXPECT_EQ(backend, TCPU_BACKEND_CPU);
  ASSERT_TCPU(tcpuCtxDestroy(ctx));
}

TEST_F(ContextTest, PtxOnTheCpuContextIsRefusedWithWhereItBelongs) {
  tcpuModule module = nullptr;
  EXPECT_EQ(tcpuModuleLoad(&module, TCPU_TEST_PTX_PATH), TCPU_ERROR_INVALID_IMAGE);
  EXPECT_THAT(lastDetail(), HasSubstr("is GPU code (PTX or a cubin)"));
  EXPECT_THAT(lastDetail(), HasSubstr("TCPU_BACKEND_CUDA"));
}

// ---- On a GPU -----------------------------------------------------------------------------

class CudaContextTest : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (tcpuCtxCreate(&ctx_, TCPU_BACKEND_CUDA, 0) != TCPU_SUCCESS)
      GTEST_SKIP() << "no CUDA context here: " << lastDetail();
  }
  void TearDown() override {
    if (ctx_) EXPECT_TCPU(tcpuCtxDestroy(ctx_));
    ContextTest::TearDown();
  }
  tcpuContext ctx_ = nullptr;
};

TEST_F(CudaContextTest, VectorAddRunsOnTheGpuBitExact) {
  char name[256];
  ASSERT_TCPU(tcpuCtxGetName(name, sizeof name, ctx_));
  EXPECT_THAT(name, StartsWith("CUDA device 0 ("));
  std::cout << "context: " << name << "\n";
  tcpuModule module = nullptr;
  ASSERT_TCPU(tcpuModuleLoad(&module, TCPU_TEST_PTX_PATH));
  tcpuFunction add = nullptr;
  ASSERT_TCPU(tcpuModuleGetFunction(&add, module, "add_kernel"));
  unsigned int count = 0;
  ASSERT_TCPU(tcpuFuncGetParamCount(&count, add));
  ASSERT_EQ(count, 4u);
  tcpuParamDesc param{};
  ASSERT_TCPU(tcpuFuncGetParamInfo(&param, add, 0));
  EXPECT_EQ(param.type, TCPU_TYPE_PTR);
  EXPECT_EQ(param.pointee, TCPU_TYPE_FP32);
  EXPECT_STREQ(param.name, "x_ptr");

  constexpr int n = 100003; // not a multiple of the block: the mask matters
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i) * 0.25f;
    y[i] = 1.0f / static_cast<float>(i + 1);
  }
  const size_t bytes = n * sizeof(float);
  tcpuDeviceptr dx = 0, dy = 0, dout = 0;
  ASSERT_TCPU(tcpuMemAlloc(&dx, bytes));
  ASSERT_TCPU(tcpuMemAlloc(&dy, bytes));
  ASSERT_TCPU(tcpuMemAlloc(&dout, bytes));
  ASSERT_TCPU(tcpuMemcpyHtoD(dx, x.data(), bytes));
  ASSERT_TCPU(tcpuMemcpyHtoD(dy, y.data(), bytes));
  ASSERT_TCPU(tcpuMemsetD32(dout, 0, n));
  int32_t elements = n;
  void* params[] = {&dx, &dy, &dout, &elements};
  ASSERT_TCPU(tcpuLaunchKernel(add, (n + 1023) / 1024, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_TCPU(tcpuMemcpyDtoH(out.data(), dout, bytes));
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << "element " << i;

  // On a stream, timed by events.
  tcpuStream stream = nullptr;
  tcpuEvent start = nullptr, end = nullptr;
  ASSERT_TCPU(tcpuStreamCreate(&stream, TCPU_STREAM_NON_BLOCKING));
  ASSERT_TCPU(tcpuEventCreate(&start, 0));
  ASSERT_TCPU(tcpuEventCreate(&end, 0));
  ASSERT_TCPU(tcpuEventRecord(start, stream));
  ASSERT_TCPU(tcpuLaunchKernel(add, (n + 1023) / 1024, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  ASSERT_TCPU(tcpuEventRecord(end, stream));
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  float milliseconds = -1;
  ASSERT_TCPU(tcpuEventElapsedTime(&milliseconds, start, end));
  EXPECT_GT(milliseconds, 0.0f);
  std::cout << "add_kernel, " << n << " elements: " << milliseconds << " ms on the GPU\n";
  ASSERT_TCPU(tcpuEventDestroy(start));
  ASSERT_TCPU(tcpuEventDestroy(end));
  ASSERT_TCPU(tcpuStreamDestroy(stream));

  // A host pointer in a pointer parameter is refused before CUDA faults on it.
  tcpuDeviceptr host = reinterpret_cast<uintptr_t>(y.data());
  void* wrong[] = {&dx, &host, &dout, &elements};
  EXPECT_EQ(tcpuLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, nullptr, wrong, nullptr),
            TCPU_ERROR_INVALID_VALUE);
  EXPECT_THAT(lastDetail(), HasSubstr("kernelParams[1] (y_ptr)"));
  EXPECT_THAT(lastDetail(), HasSubstr("is not device memory"));
  // A copy past an allocation's end.
  EXPECT_EQ(tcpuMemcpyHtoD(dx, x.data(), bytes + 4), TCPU_ERROR_INVALID_VALUE);
  EXPECT_THAT(lastDetail(), HasSubstr("runs past the end of its allocation"));

  ASSERT_TCPU(tcpuMemFree(dx));
  ASSERT_TCPU(tcpuMemFree(dy));
  ASSERT_TCPU(tcpuMemFree(dout));
  EXPECT_EQ(tcpuMemFree(dout), TCPU_ERROR_INVALID_VALUE);
  ASSERT_TCPU(tcpuModuleUnload(module));
}

TEST_F(CudaContextTest, ObjectsOfTheOtherContextAreRefused) {
  // A CPU module and function, made on the CPU context.
  ASSERT_TCPU(tcpuCtxSetCurrent(nullptr));
  tcpuModule cpuModule = nullptr;
  ASSERT_TCPU(tcpuModuleLoad(&cpuModule, TCPU_TEST_KERNELS_PATH));
  tcpuFunction cpuAdd = nullptr;
  ASSERT_TCPU(tcpuModuleGetFunction(&cpuAdd, cpuModule, "vector_add_1024"));
  // CPU code on the CUDA context.
  ASSERT_TCPU(tcpuCtxSetCurrent(ctx_));
  tcpuModule module = nullptr;
  EXPECT_EQ(tcpuModuleLoad(&module, TCPU_TEST_KERNELS_PATH), TCPU_ERROR_INVALID_IMAGE);
  EXPECT_THAT(lastDetail(), HasSubstr("is not a PTX or cubin image"));
  EXPECT_EQ(tcpuLaunchKernel(cpuAdd, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
            TCPU_ERROR_INVALID_CONTEXT);
  EXPECT_THAT(lastDetail(), HasSubstr("belongs to the CPU context"));
  // A GPU function on the CPU context.
  ASSERT_TCPU(tcpuModuleLoad(&module, TCPU_TEST_PTX_PATH));
  tcpuFunction gpuAdd = nullptr;
  ASSERT_TCPU(tcpuModuleGetFunction(&gpuAdd, module, "add_kernel"));
  ASSERT_TCPU(tcpuCtxSetCurrent(nullptr));
  EXPECT_EQ(tcpuLaunchKernel(gpuAdd, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
            TCPU_ERROR_INVALID_CONTEXT);
  EXPECT_THAT(lastDetail(), HasSubstr("belongs to CUDA device 0"));
  ASSERT_TCPU(tcpuModuleUnload(cpuModule));
  // Destroying the context unloads its modules: the function handle dies with it.
  ASSERT_TCPU(tcpuCtxDestroy(ctx_));
  ctx_ = nullptr;
  const char* name = nullptr;
  EXPECT_EQ(tcpuFuncGetName(&name, gpuAdd), TCPU_ERROR_INVALID_HANDLE);
  EXPECT_EQ(tcpuModuleUnload(module), TCPU_ERROR_INVALID_HANDLE);
}

TEST_F(CudaContextTest, CudaErrorsCarryCudasNames) {
  tcpuModule module = nullptr;
  const std::string broken = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(\n"
                             ".param .u32 k_param_0\n)\n{\n  bogus.instruction;\n}\n";
  EXPECT_EQ(tcpuModuleLoadData(&module, broken.data(), broken.size()), TCPU_ERROR_INVALID_IMAGE);
  EXPECT_THAT(lastDetail(), HasSubstr("cuModuleLoadData: CUDA_ERROR_INVALID_PTX"));
  tcpuDeviceptr memory = 0;
  EXPECT_EQ(tcpuMemAlloc(&memory, size_t{1} << 50), TCPU_ERROR_OUT_OF_MEMORY);
  EXPECT_THAT(lastDetail(), HasSubstr("CUDA_ERROR_OUT_OF_MEMORY"));
}

} // namespace
} // namespace tcpu::test
