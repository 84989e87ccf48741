// Loading kernel modules from files and memory; functions and their parameters.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kernels/typed_out.hpp"
#include "test_support.hpp"

namespace tcpu::test {
namespace {

class Modules : public RuntimeTest {};

TEST_F(Modules, FunctionHandleIsStableAndDescribesItsParameters) {
  const tcpuFunction f = function("typed_params");
  EXPECT_EQ(function("typed_params"), f);
  const char* name = nullptr;
  ASSERT_TCPU(tcpuFuncGetName(&name, f));
  EXPECT_STREQ(name, "typed_params");
  unsigned count = 0;
  ASSERT_TCPU(tcpuFuncGetParamCount(&count, f));
  ASSERT_EQ(count, 9u);
  const tcpuDataType expected[] = {TCPU_TYPE_PTR,  TCPU_TYPE_I8,   TCPU_TYPE_I16,
                                   TCPU_TYPE_I32,  TCPU_TYPE_I64,  TCPU_TYPE_U64,
                                   TCPU_TYPE_FP32, TCPU_TYPE_FP64, TCPU_TYPE_I1};
  const unsigned sizes[] = {8, 1, 2, 4, 8, 8, 4, 8, 1};
  for (unsigned i = 0; i < count; ++i) {
    tcpuParamDesc info;
    ASSERT_TCPU(tcpuFuncGetParamInfo(&info, f, i));
    EXPECT_EQ(info.type, static_cast<uint32_t>(expected[i])) << "parameter " << i;
    EXPECT_EQ(info.size, sizes[i]) << "parameter " << i;
  }
  tcpuParamDesc info;
  EXPECT_TCPU_ERROR(tcpuFuncGetParamInfo(&info, f, 9), TCPU_ERROR_INVALID_VALUE,
                    "index=9 but kernel 'typed_params' has 9 parameters");
  EXPECT_STREQ(tcpuDataTypeName(TCPU_TYPE_FP16), "fp16");
  ASSERT_TCPU(tcpuFuncGetParamInfo(&info, function("vector_add_1024"), 0));
  EXPECT_EQ(info.pointee, static_cast<uint32_t>(TCPU_TYPE_FP32));
}

TEST_F(Modules, ScalarParametersArriveExactly) {
  TypedOut out{};
  TypedOut* outPtr = &out;
  int8_t a = -7;
  int16_t b = -30000;
  int32_t c = 2000000000;
  int64_t d = -(int64_t{1} << 40);
  uint64_t e = ~uint64_t{0} - 5;
  float f = 0.1f;
  double g = 1.0 / 3.0;
  bool h = true;
  void* params[] = {&outPtr, &a, &b, &c, &d, &e, &f, &g, &h};
  ASSERT_TCPU(
      tcpuLaunchKernel(function("typed_params"), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(out.i8, a);
  EXPECT_EQ(out.i16, b);
  EXPECT_EQ(out.i32, c);
  EXPECT_EQ(out.i64, d);
  EXPECT_EQ(out.u64, e);
  EXPECT_EQ(out.f32, f);
  EXPECT_EQ(out.f64, g);
  EXPECT_EQ(out.flag, h);
}

TEST_F(Modules, PackedParameterBufferAsInCuda) {
  // CUDA's extra form: values packed at natural alignment into one buffer.
  TypedOut out{};
  struct Packed {
    TypedOut* out;
    int8_t a;
    int16_t b;
    int32_t c;
    int64_t d;
    uint64_t e;
    float f;
    double g;
    bool h;
  } packed{&out, 5, 6, 7, 8, 9, 1.5f, 2.5, true};
  size_t size = sizeof packed;
  void* extra[] = {TCPU_LAUNCH_PARAM_BUFFER_POINTER, &packed, TCPU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   TCPU_LAUNCH_PARAM_END};
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  ASSERT_TCPU(
      tcpuLaunchKernel(function("typed_params"), 1, 1, 1, 1, 1, 1, 0, stream, nullptr, extra));
  std::memset(&packed, 0, sizeof packed); // the queued launch copied the values
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  ASSERT_TCPU(tcpuStreamDestroy(stream));
  EXPECT_EQ(out.i8, 5);
  EXPECT_EQ(out.i64, 8);
  EXPECT_EQ(out.f32, 1.5f);
  EXPECT_EQ(out.f64, 2.5);
  EXPECT_TRUE(out.flag);
}

TEST_F(Modules, LoadFromMemoryImage) {
  std::ifstream in(TCPU_TEST_KERNELS_PATH, std::ios::binary);
  const std::vector<char> image((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  ASSERT_FALSE(image.empty());
  tcpuModule fromMemory;
  ASSERT_TCPU(tcpuModuleLoadData(&fromMemory, image.data(), image.size()));
  tcpuFunction f;
  ASSERT_TCPU(tcpuModuleGetFunction(&f, fromMemory, "vector_add_1024"));
  std::vector<float> a(10, 1.0f), b(10, 2.0f), out(10, 0.0f);
  const float* aPtr = a.data();
  const float* bPtr = b.data();
  float* outPtr = out.data();
  int32_t n = 10;
  void* params[] = {&aPtr, &bPtr, &outPtr, &n};
  ASSERT_TCPU(tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(out, std::vector<float>(10, 3.0f));
  ASSERT_TCPU(tcpuModuleUnload(fromMemory));
}

std::vector<char> fileBytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_F(Modules, MemoryImagesLoadWithoutTheTemporaryDirectoryAndStayApart) {
#if defined(__linux__)
  // A memory image is opened as a memory file: $TMPDIR is not used (it may be noexec), so
  // one that cannot hold files does not matter.
  const auto blocked =
      std::filesystem::temp_directory_path() / ("tcpu-not-a-dir-" + std::to_string(::getpid()));
  std::ofstream(blocked.string()) << "a file where a directory should be";
  const char* saved = std::getenv("TMPDIR");
  const std::string previous = saved ? saved : "";
  setenv("TMPDIR", (blocked / "sub").c_str(), 1);
#endif
  // Two different images loaded at once stay two modules (dlopen matches loaded objects by
  // name first: the memory files' names must differ while both are loaded).
  const std::vector<char> image = fileBytes(TCPU_TEST_KERNELS_PATH);
  const std::vector<char> alternative = fileBytes(TCPU_TEST_ALT_KERNELS_PATH);
  tcpuModule first, second;
  ASSERT_TCPU(tcpuModuleLoadData(&first, image.data(), image.size()));
  ASSERT_TCPU(tcpuModuleLoadData(&second, alternative.data(), alternative.size()));
#if defined(__linux__)
  // Mapped from memory files, not from files written to a directory.
  const std::vector<char> mapBytes = fileBytes("/proc/self/maps");
  const std::string maps(mapBytes.begin(), mapBytes.end());
  EXPECT_NE(maps.find("/memfd:tcpu-module"), std::string::npos);
  EXPECT_EQ(maps.find("/tcpu-module-"), std::string::npos);
#endif
  tcpuFunction f;
  EXPECT_TCPU(tcpuModuleGetFunction(&f, first, "empty"));
  EXPECT_EQ(tcpuModuleGetFunction(&f, first, "alt_only"), TCPU_ERROR_NOT_FOUND);
  EXPECT_TCPU(tcpuModuleGetFunction(&f, second, "alt_only"));
  EXPECT_EQ(tcpuModuleGetFunction(&f, second, "empty"), TCPU_ERROR_NOT_FOUND);
  ASSERT_TCPU(tcpuModuleUnload(first));
  // After an unload, the next image may get the freed name: it is still its own module.
  tcpuModule third;
  ASSERT_TCPU(tcpuModuleLoadData(&third, image.data(), image.size()));
  EXPECT_TCPU(tcpuModuleGetFunction(&f, third, "empty"));
  ASSERT_TCPU(tcpuModuleUnload(second));
  ASSERT_TCPU(tcpuModuleUnload(third));
#if defined(__linux__)
  if (saved)
    setenv("TMPDIR", previous.c_str(), 1);
  else
    unsetenv("TMPDIR");
  std::filesystem::remove(blocked);
#endif
}

TEST_F(Modules, AMemoryImageLoadsWithStandardOutputClosed) {
  // memfd_create then returns 1, the number the dlopen probe's child gives its pipe: the
  // memory file must be moved out of the way of the standard streams.
  const std::vector<char> image = fileBytes(TCPU_TEST_KERNELS_PATH);
  std::fflush(stdout);
  const int saved = ::dup(1);
  ASSERT_GE(saved, 0);
  ::close(1);
  tcpuModule module = nullptr;
  const tcpuResult loaded = tcpuModuleLoadData(&module, image.data(), image.size());
  ::dup2(saved, 1);
  ::close(saved);
  ASSERT_TCPU(loaded);
  tcpuFunction f;
  EXPECT_TCPU(tcpuModuleGetFunction(&f, module, "empty"));
  ASSERT_TCPU(tcpuModuleUnload(module));
}

TEST_F(Modules, LoadingAPathAgainReadsTheFileAgain) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("tcpu-reload-" + std::to_string(::getpid()) + ".so");
  std::filesystem::copy_file(TCPU_TEST_KERNELS_PATH, path,
                             std::filesystem::copy_options::overwrite_existing);
  tcpuModule first, second;
  ASSERT_TCPU(tcpuModuleLoad(&first, path.c_str()));
  // Replaced on disk (a new inode, as a rebuild does) while the first stays loaded.
  std::filesystem::remove(path);
  std::filesystem::copy_file(TCPU_TEST_ALT_KERNELS_PATH, path);
  ASSERT_TCPU(tcpuModuleLoad(&second, path.c_str()));
  tcpuFunction f;
  EXPECT_TCPU(tcpuModuleGetFunction(&f, second, "alt_only"));
  EXPECT_EQ(tcpuModuleGetFunction(&f, second, "empty"), TCPU_ERROR_NOT_FOUND);
  EXPECT_TCPU(tcpuModuleGetFunction(&f, first, "empty"));
  ASSERT_TCPU(tcpuModuleUnload(first));
  ASSERT_TCPU(tcpuModuleUnload(second));
  std::filesystem::remove(path);
}

TEST_F(Modules, SameFileLoadsAsIndependentModules) {
  tcpuModule second;
  ASSERT_TCPU(tcpuModuleLoad(&second, TCPU_TEST_KERNELS_PATH));
  EXPECT_NE(second, module_);
  tcpuFunction fromSecond;
  ASSERT_TCPU(tcpuModuleGetFunction(&fromSecond, second, "empty"));
  EXPECT_NE(fromSecond, function("empty"));
  ASSERT_TCPU(tcpuModuleUnload(second));
  // The first module is unaffected.
  EXPECT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
}

} // namespace
} // namespace tcpu::test
