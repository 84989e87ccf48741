// tcpu run: kernels launched on .npy files and generated buffers, outputs checked against
// values computed here; usage, input and kernel failures with their exit codes; and the
// scalar conversions run uses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <regex>
#include <string>

#include "crash_test_support.hpp"
#include "formats/npy.hpp"
#include "run/scalar_value.hpp"
#include "scoped_environment.hpp"
#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

using test::readText;
using test::runShell;
using test::runTool;
using test::TempDir;
using test::writeText;

const std::string kVectorAdd = TCPU_SOURCE_DIR "/kernels/ir/vector_add.ll";
const std::string kVectorAddSignature = "*fp32, *fp32, *fp32, i32";

// Precompiled kernels with typed, named parameters (what a shared object of AOT kernels
// describes), and one whose device_assert fails in program 2 when flags[0] is 0.
const char* const kSharedKernels = R"(
#include <stdint.h>
#include "tcpu/kernel_abi.h"

static void scale_entry(void* const* params, uint64_t begin, uint64_t end,
                        const tcpuLaunchFrame* frame) {
  const float* in = *(const float* const*)params[0];
  float* out = *(float* const*)params[1];
  const float factor = *(const float*)params[2];
  const int32_t n = *(const int32_t*)params[3];
  (void)frame;
  for (uint64_t p = begin; p < end; ++p)
    for (int64_t i = (int64_t)p * 256; i < (int64_t)(p + 1) * 256 && i < n; ++i)
      out[i] = in[i] * factor;
}
static const tcpuParamDesc scale_params[4] = {
    {TCPU_TYPE_PTR, TCPU_TYPE_FP32, 8, 8, "in"},
    {TCPU_TYPE_PTR, TCPU_TYPE_FP32, 8, 8, "out"},
    {TCPU_TYPE_FP32, TCPU_TYPE_UNKNOWN, 4, 4, "factor"},
    {TCPU_TYPE_I32, TCPU_TYPE_UNKNOWN, 4, 4, "n"}};
const tcpuKernelDesc tcpu_kernel_desc_scale = {TCPU_KERNEL_ABI_VERSION, 4, "scale", scale_entry,
                                               scale_params};

static void checked_entry(void* const* params, uint64_t begin, uint64_t end,
                          const tcpuLaunchFrame* frame) {
  const int32_t* flags = *(const int32_t* const*)params[0];
  (void)frame;
  for (uint64_t p = begin; p < end; ++p)
    if (p == 2 && flags[0] == 0) {
      tcpuAssertRecord record = {"flags[0] != 0", "checked.c", 7, "checked",
                                 {(uint32_t)p, 0, 0}};
      tcpuKernelAssertFail(&record);
    }
}
static const tcpuParamDesc checked_params[1] = {{TCPU_TYPE_PTR, TCPU_TYPE_I32, 8, 8, "flags"}};
const tcpuKernelDesc tcpu_kernel_desc_checked = {TCPU_KERNEL_ABI_VERSION, 1, "checked",
                                                 checked_entry, checked_params};

/* out[i] = the sum over r < count of rows[r][i]: rows is a table of addresses. */
static void sum_rows_entry(void* const* params, uint64_t begin, uint64_t end,
                           const tcpuLaunchFrame* frame) {
  const int64_t* rows = *(const int64_t* const*)params[0];
  float* out = *(float* const*)params[1];
  const int32_t count = *(const int32_t*)params[2];
  const int32_t n = *(const int32_t*)params[3];
  (void)frame;
  for (uint64_t i = begin; i < end && (int64_t)i < n; ++i) {
    float sum = 0;
    for (int32_t r = 0; r < count; ++r)
      sum += ((const float*)(uintptr_t)rows[r])[i];
    out[i] = sum;
  }
}
static const tcpuParamDesc sum_rows_params[4] = {
    {TCPU_TYPE_PTR, TCPU_TYPE_I64, 8, 8, "rows"},
    {TCPU_TYPE_PTR, TCPU_TYPE_FP32, 8, 8, "out"},
    {TCPU_TYPE_I32, TCPU_TYPE_UNKNOWN, 4, 4, "count"},
    {TCPU_TYPE_I32, TCPU_TYPE_UNKNOWN, 4, 4, "n"}};
/* out[i] = -in[i] in bf16: the sign bit flipped. */
static void negate_bf16_entry(void* const* params, uint64_t begin, uint64_t end,
                              const tcpuLaunchFrame* frame) {
  const uint16_t* in = *(const uint16_t* const*)params[0];
  uint16_t* out = *(uint16_t* const*)params[1];
  (void)frame;
  for (uint64_t i = begin; i < end; ++i)
    out[i] = (uint16_t)(in[i] ^ 0x8000u);
}
static const tcpuParamDesc negate_bf16_params[2] = {
    {TCPU_TYPE_PTR, TCPU_TYPE_BF16, 8, 8, "in"}, {TCPU_TYPE_PTR, TCPU_TYPE_BF16, 8, 8, "out"}};
const tcpuKernelDesc tcpu_kernel_desc_negate_bf16 = {TCPU_KERNEL_ABI_VERSION, 2, "negate_bf16",
                                                     negate_bf16_entry, negate_bf16_params};

const tcpuKernelDesc tcpu_kernel_desc_sum_rows = {TCPU_KERNEL_ABI_VERSION, 4, "sum_rows",
                                                  sum_rows_entry, sum_rows_params};
)";

std::span<const std::byte> bytesOf(const std::vector<float>& values) {
  return std::as_bytes(std::span(values));
}

NpyArray floatArray(const std::vector<float>& values, std::vector<uint64_t> shape) {
  const auto bytes = bytesOf(values);
  return {TCPU_TYPE_FP32, std::move(shape), {bytes.begin(), bytes.end()}};
}

std::vector<float> floatsOf(const NpyArray& array) {
  std::vector<float> values(array.data.size() / sizeof(float));
  std::memcpy(values.data(), array.data.data(), array.data.size());
  return values;
}

void writeNpy(const std::filesystem::path& path, const NpyArray& array) {
  Expected<std::string> bytes = formatNpy(array);
  ASSERT_TRUE(bytes) << bytes.status().message();
  writeText(path, *bytes);
}

NpyArray readNpy(const std::filesystem::path& path) {
  Expected<NpyArray> array = readNpyFile(path);
  EXPECT_TRUE(array) << array.status().message();
  return array ? array.take() : NpyArray{};
}

class RunCommand : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    shared_ = new TempDir();
    writeText(shared_->path() / "kernels.c", kSharedKernels);
    const std::string command = std::string(TCPU_C_COMPILER) +
                                " -std=c11 -shared -fPIC -Werror -I" TCPU_RUNTIME_INCLUDE_DIR " " +
                                (shared_->path() / "kernels.c").string() + " -o " + sharedObject() +
                                " 2>&1";
    auto [status, output] = runShell(command);
    ASSERT_EQ(status, 0) << command << "\n" << output;
  }
  static void TearDownTestSuite() {
    delete shared_;
    shared_ = nullptr;
  }
  static std::string sharedObject() { return (shared_->path() / "kernels.so").string(); }

  // `tcpu run` of vector_add.ll with n elements and the given --arg values for x, y, out.
  test::CliResult vectorAdd(const std::string& x, const std::string& y, const std::string& out,
                            int n, std::vector<std::string> extra = {},
                            const std::string& grid = "(n+1023)/1024,1,1") {
    std::vector<std::string> arguments = {"run",         kVectorAdd,
                                          "--kernel",    "add_kernel",
                                          "--signature", kVectorAddSignature,
                                          "--grid",      grid,
                                          "--arg",       x,
                                          "--arg",       y,
                                          "--arg",       out,
                                          "--arg",       std::to_string(n),
                                          "--out-dir",   outDir().string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return runTool(arguments);
  }
  std::filesystem::path outDir() const { return dir_.path() / "out"; }

  static TempDir* shared_;
  TempDir dir_;
};

TempDir* RunCommand::shared_ = nullptr;

TEST_F(RunCommand, VectorAddIrWritesXPlusYAndKeepsInputShapes) {
  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(-100, 100);
  std::vector<float> x(5000), y(5000);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = uniform(random);
    y[i] = uniform(random);
  }
  writeNpy(dir_.path() / "x.npy", floatArray(x, {50, 100}));
  writeNpy(dir_.path() / "y.npy", floatArray(y, {5000}));
  const test::CliResult result =
      vectorAdd((dir_.path() / "x.npy").string(), (dir_.path() / "y.npy").string(), "zeros:5000",
                5000, {"--repeat", "3", "--num-threads", "1"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_NE(result.out.find("add_kernel: grid (5, 1, 1), 3 launches (the first a warm-up)"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("time: median "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("GB/s"), std::string::npos) << result.out;

  const NpyArray out = readNpy(outDir() / "out.npy");
  EXPECT_EQ(out.shape, std::vector<uint64_t>{5000});
  const std::vector<float> sums = floatsOf(out);
  ASSERT_EQ(sums.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(sums[i], x[i] + y[i]) << "element " << i;
  const NpyArray xBack = readNpy(outDir() / "x.npy");
  EXPECT_EQ(xBack.shape, (std::vector<uint64_t>{50, 100}));
  EXPECT_EQ(floatsOf(xBack), x);
}

TEST_F(RunCommand, GeneratorsFillBuffersAsDocumented) {
  const test::CliResult result = vectorAdd("arange:1500", "full:1500:0.25", "zeros:1500", 1500);
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_NE(result.out.find("grid (2, 1, 1), 1 launch\n"), std::string::npos) << result.out;
  const std::vector<float> out = floatsOf(readNpy(outDir() / "out.npy"));
  ASSERT_EQ(out.size(), 1500u);
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], static_cast<float>(i) + 0.25f) << "element " << i;
}

TEST_F(RunCommand, RandIsUniformInUnitIntervalAndReproducibleFromTheSeed) {
  const auto randomBuffer = [&](const std::string& seed) {
    const test::CliResult result =
        vectorAdd("rand:4096", "zeros:4096", "zeros:4096", 4096, {"--seed", seed});
    EXPECT_EQ(result.code, kExitSuccess) << result.err;
    return floatsOf(readNpy(outDir() / "x.npy"));
  };
  const std::vector<float> first = randomBuffer("7");
  ASSERT_EQ(first.size(), 4096u);
  double sum = 0;
  for (float value : first) {
    ASSERT_GE(value, 0.0f);
    ASSERT_LT(value, 1.0f);
    sum += value;
  }
  EXPECT_NEAR(sum / 4096, 0.5, 0.05);
  EXPECT_EQ(randomBuffer("7"), first);
  EXPECT_NE(randomBuffer("8"), first);
}

TEST_F(RunCommand, SharedObjectKernelTakesTypedNamedParametersWithoutSignature) {
  std::vector<float> in(1000);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i) * 1.5f - 300;
  writeNpy(dir_.path() / "in.npy", floatArray(in, {1000}));
  const test::CliResult result =
      runTool({"run", sharedObject(), "--kernel", "scale", "--grid", "(n + 255) / 256, 1, 1",
               "--arg", (dir_.path() / "in.npy").string(), "--arg", "zeros:1000", "--arg", "0.1",
               "--arg", "1000", "--out-dir", outDir().string()});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_NE(result.out.find("scale: grid (4, 1, 1)"), std::string::npos) << result.out;
  const std::vector<float> out = floatsOf(readNpy(outDir() / "out.npy"));
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(out[i], in[i] * 0.1f) << "element " << i;
  EXPECT_TRUE(std::filesystem::exists(outDir() / "in.npy"));
}

TEST_F(RunCommand, AddressTablesPointAtBuffersAndParameters) {
  const auto sumRows = [&](const std::string& rows, std::vector<std::string> extra) {
    std::vector<std::string> arguments = {
        "run",       sharedObject(),   "--kernel",        "sum_rows", "--grid", "n,1,1", "--arg",
        rows,        "--arg",          "values:10,20,30", "--arg",    "3",      "--arg", "3",
        "--out-dir", outDir().string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return runTool(arguments);
  };
  // The table may name --buffer arrays and pointer parameters, one of them twice.
  const test::CliResult result =
      sumRows("ptrs:x,y,x", {"--buffer", "x:fp32=values:1,2.5,-3", "--buffer", "y:fp32=arange:3",
                             "--xcheck", "sums", "--output", "out", "--output", "y"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  // out is read back after the launch: 1+0+1, 2.5+1+2.5, -3+2-3.
  EXPECT_EQ(floatsOf(readNpy(outDir() / "out.npy")), (std::vector<float>{2, 6, -4}));
  EXPECT_EQ(floatsOf(readNpy(outDir() / "x.npy")), (std::vector<float>{1, 2.5, -3}));
  EXPECT_EQ(floatsOf(readNpy(outDir() / "y.npy")), (std::vector<float>{0, 1, 2}));
  EXPECT_FALSE(std::filesystem::exists(outDir() / "rows.npy")) << "addresses are not outputs";
  const std::string manifest = readText(outDir() / "xcheck.txt");
  EXPECT_NE(manifest.find("\ninput x\noutput out exact\noutput y exact\n"), std::string::npos)
      << manifest;
  EXPECT_EQ(manifest.find("input rows"), std::string::npos) << manifest;

  std::filesystem::remove_all(outDir());
  const test::CliResult parameter = sumRows("ptrs:out,out,out", {});
  ASSERT_EQ(parameter.code, kExitSuccess) << parameter.err;
  EXPECT_EQ(floatsOf(readNpy(outDir() / "out.npy")), (std::vector<float>{30, 60, 90}));
}

TEST_F(RunCommand, AddressTableAndBufferErrorsNameTheArgument) {
  const auto error = [&](const std::string& rows, std::vector<std::string> extra) {
    std::vector<std::string> arguments = {
        "run",       sharedObject(),   "--kernel", "sum_rows", "--grid", "n,1,1", "--arg",
        rows,        "--arg",          "zeros:3",  "--arg",    "1",      "--arg", "3",
        "--out-dir", outDir().string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const test::CliResult result = runTool(arguments);
    EXPECT_EQ(result.code, kExitUsage) << result.err;
    EXPECT_FALSE(std::filesystem::exists(outDir()));
    return result.err;
  };
  EXPECT_NE(error("ptrs:z", {"--buffer", "x:fp32=zeros:3"})
                .find("--arg 1 (rows) ptrs: 'z' is no array of this run (arrays: out, x)"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x,", {}).find("--arg 1 (rows: *i64)='ptrs:x,' has an empty buffer name"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x", {"--buffer", "x=zeros:3"})
                .find("--buffer x: a generated buffer needs its element type, as in "
                      "x:fp32=zeros:3"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x", {"--buffer", "x:float=zeros:3"})
                .find("--buffer x: 'float' is not an element type"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x", {"--buffer", "x y:fp32=zeros:3"})
                .find("the name 'x y' is not [A-Za-z0-9_-]+"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x", {"--buffer", "x:fp32"}).find("is not NAME:TYPE=GENERATOR"),
            std::string::npos);
  EXPECT_NE(error("ptrs:out", {"--buffer", "out:fp32=zeros:3"})
                .find("--buffer out: the name is taken by a parameter or another --buffer"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x", {"--buffer", "x:fp32=zeros:3", "--buffer", "x:fp32=zeros:3"})
                .find("--buffer x: the name is taken"),
            std::string::npos);
  EXPECT_NE(error("ptrs:x", {"--buffer", "x:i32=values:1,,3"})
                .find("--buffer x values element 2='' is not an integer"),
            std::string::npos);

  // ptrs: fills only tables of 64-bit integers.
  const test::CliResult floats = vectorAdd("ptrs:y", "zeros:1", "zeros:1", 1);
  EXPECT_EQ(floats.code, kExitUsage);
  EXPECT_NE(floats.err.find("--arg 1 (x: *fp32): 'ptrs:' fills a table of 64-bit addresses, but "
                            "'x' points to fp32; give it the type *i64 or *u64"),
            std::string::npos)
      << floats.err;
}

TEST_F(RunCommand, Bf16ArraysAreMarkedInTheManifest) {
  const test::CliResult result =
      runTool({"run", sharedObject(), "--kernel", "negate_bf16", "--grid", "2,1,1", "--arg",
               "values:1,-2.5", "--arg", "zeros:2", "--xcheck", "negate", "--output", "out=ulp:0",
               "--out-dir", outDir().string()});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  const NpyArray out = readNpy(outDir() / "out.npy");
  EXPECT_EQ(out.type, TCPU_TYPE_U16) << "bf16 travels as <u2";
  ASSERT_EQ(out.data.size(), 4u);
  uint16_t bits[2];
  std::memcpy(bits, out.data.data(), sizeof bits);
  EXPECT_EQ(bits[0], 0xbf80); // -1
  EXPECT_EQ(bits[1], 0x4020); // 2.5
  const std::string manifest = readText(outDir() / "xcheck.txt");
  EXPECT_NE(manifest.find("\ninput in bf16\noutput out ulp:0 bf16\n"), std::string::npos)
      << manifest;
}

TEST_F(RunCommand, FailedDeviceAssertExitsOneWithTheDetailAndWritesNothing) {
  const test::CliResult result =
      runTool({"run", sharedObject(), "--kernel", "checked", "--grid", "4,1,1", "--arg", "zeros:4",
               "--out-dir", outDir().string()});
  EXPECT_EQ(result.code, kExitKernelFailure) << result.err;
  EXPECT_NE(result.err.find("kernel 'checked' failed on launch 1 of 1: TCPU_ERROR_ASSERT"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("flags[0] != 0"), std::string::npos) << result.err;
  EXPECT_FALSE(std::filesystem::exists(outDir()));

  const test::CliResult passing =
      runTool({"run", sharedObject(), "--kernel", "checked", "--grid", "4,1,1", "--arg", "full:4:1",
               "--out-dir", outDir().string()});
  EXPECT_EQ(passing.code, kExitSuccess) << passing.err;
  EXPECT_TRUE(std::filesystem::exists(outDir() / "flags.npy"));
}

TEST_F(RunCommand, WrongArgumentCountListsTheParameters) {
  const test::CliResult result =
      runTool({"run", kVectorAdd, "--kernel", "add_kernel", "--grid", "1,1,1", "--arg", "1"});
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_NE(result.err.find("kernel 'add_kernel' takes 4 arguments (x: *?, y: *?, out: *?, n: "
                            "i32) but 1 --arg was given"),
            std::string::npos)
      << result.err;
}

TEST_F(RunCommand, UsageErrorsNameTheArgumentAndValue) {
  const auto error = [&](const std::string& x, int n, std::vector<std::string> extra,
                         const std::string& grid = "(n+1023)/1024,1,1") {
    const test::CliResult result = vectorAdd(x, "zeros:10", "zeros:10", n, std::move(extra), grid);
    EXPECT_EQ(result.code, kExitUsage) << result.err;
    EXPECT_FALSE(std::filesystem::exists(outDir()));
    return result.err;
  };
  EXPECT_NE(error("zeros:10", 10, {}, "(m+1)/2,1,1")
                .find("--grid column 2: unknown argument 'm' in '(m+1)/2' (arguments: n)"),
            std::string::npos);
  EXPECT_NE(error("zeros:10", 10, {}, "n-20,1,1")
                .find("--grid gridX 'n-20' is -10; a grid dimension must be in [0, 4294967295]"),
            std::string::npos);
  EXPECT_NE(error("zeros:x", 10, {}).find("--arg 1 (x: *fp32) zeros:N='x' is not an integer"),
            std::string::npos);
  EXPECT_NE(error("full:10", 10, {}).find("needs a value: full:N:VALUE"), std::string::npos);
  EXPECT_NE(error("full:10:abc", 10, {}).find("full value='abc' is not a number"),
            std::string::npos);
  EXPECT_NE(error("zeros:10", 10, {"--repeat", "0"}).find("--repeat=0 is out of range"),
            std::string::npos);
  EXPECT_NE(error("zeros:10", 10, {"--num-threads", "-2"}).find("--num-threads=-2 is out of range"),
            std::string::npos);
  EXPECT_NE(error("zeros:10", 10, {"--seed", "x"}).find("--seed='x' is not an integer"),
            std::string::npos);

  const test::CliResult scalar = vectorAdd("zeros:10", "zeros:10", "zeros:10", 0);
  EXPECT_EQ(scalar.code, kExitSuccess) << scalar.err; // n = 0: an empty grid runs nothing
  const test::CliResult big = runTool(
      {"run", kVectorAdd, "--kernel", "add_kernel", "--signature", kVectorAddSignature, "--grid",
       "1,1,1", "--arg", "zeros:1", "--arg", "zeros:1", "--arg", "zeros:1", "--arg", "2147483648"});
  EXPECT_EQ(big.code, kExitUsage);
  EXPECT_NE(big.err.find("--arg 4 (n: i32)='2147483648' is out of range for i32 [-2147483648, "
                         "2147483647]"),
            std::string::npos)
      << big.err;
}

TEST_F(RunCommand, UntypedPointersAskForASignature) {
  const test::CliResult result =
      runTool({"run", kVectorAdd, "--kernel", "add_kernel", "--grid", "1,1,1", "--arg", "zeros:4",
               "--arg", "zeros:4", "--arg", "zeros:4", "--arg", "4"});
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_NE(result.err.find("--arg 1 (x: *?): the kernel does not say what pointer 'x' points "
                            "to"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("pass --signature"), std::string::npos);
}

// A tl C++ kernel says what its pointers point to (TL_KERNEL's parameter types): no --signature.
TEST_F(RunCommand, ATlKernelNeedsNoSignature) {
  const test::CliResult result =
      runTool({"run", TCPU_SOURCE_DIR "/kernels/tutorials/vector_add.cpp", "--kernel", "add_kernel",
               "--grid", "1,1,1", "--arg", "arange:8", "--arg", "full:8:2.5", "--arg", "zeros:8",
               "--arg", "8", "--out-dir", outDir().string()});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  const NpyArray out = readNpy(outDir() / "output_ptr.npy");
  EXPECT_EQ(out.type, TCPU_TYPE_FP32);
  const std::vector<float> values = floatsOf(out);
  ASSERT_EQ(values.size(), 8u);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(values[static_cast<std::size_t>(i)], static_cast<float>(i) + 2.5f) << i;
}

TEST_F(RunCommand, NpyDtypeMustMatchTheElementType) {
  writeNpy(dir_.path() / "x.npy", {TCPU_TYPE_FP64, {10}, std::vector<std::byte>(80)});
  const test::CliResult result =
      vectorAdd((dir_.path() / "x.npy").string(), "zeros:10", "zeros:10", 10);
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_NE(result.err.find("holds fp64 (<f8) but the kernel reads fp32 (<f4)"), std::string::npos)
      << result.err;
}

TEST_F(RunCommand, UnknownKernelAndBadSignatureAreUsageErrors) {
  const test::CliResult kernel =
      runTool({"run", kVectorAdd, "--kernel", "nope", "--grid", "1,1,1"});
  EXPECT_EQ(kernel.code, kExitUsage);
  EXPECT_NE(kernel.err.find("--kernel nope:"), std::string::npos) << kernel.err;
  const test::CliResult signature = runTool(
      {"run", kVectorAdd, "--kernel", "add_kernel", "--signature", "*fp32", "--grid", "1,1,1"});
  EXPECT_EQ(signature.code, kExitUsage);
  EXPECT_NE(signature.err.find("signature has 1 entries"), std::string::npos) << signature.err;
  const test::CliResult missing = runTool({"run", kVectorAdd, "--grid", "1,1,1"});
  EXPECT_EQ(missing.code, kExitUsage);
  EXPECT_NE(missing.err.find("missing required option --kernel"), std::string::npos);
}

TEST_F(RunCommand, UnreadableInputsAreInputErrors) {
  const test::CliResult module =
      runTool({"run", (dir_.path() / "none.ll").string(), "--kernel", "k", "--grid", "1,1,1"});
  EXPECT_EQ(module.code, kExitInputOutput);
  EXPECT_NE(module.err.find("none.ll' does not exist"), std::string::npos) << module.err;

  const test::CliResult missing =
      vectorAdd((dir_.path() / "missing.npy").string(), "zeros:10", "zeros:10", 10);
  EXPECT_EQ(missing.code, kExitInputOutput);
  EXPECT_NE(missing.err.find("--arg 1 (x: *fp32): '"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("missing.npy' does not exist"), std::string::npos) << missing.err;

  writeText(dir_.path() / "bad.npy", "\x93NUMPY\x01");
  const test::CliResult bad =
      vectorAdd((dir_.path() / "bad.npy").string(), "zeros:10", "zeros:10", 10);
  EXPECT_EQ(bad.code, kExitInputOutput);
  EXPECT_NE(bad.err.find("shorter than the 10-byte preamble"), std::string::npos) << bad.err;
}

TEST_F(RunCommand, UnwritableOutDirIsAnOutputError) {
  writeText(dir_.path() / "file", "a file, not a directory");
  const test::CliResult result =
      runTool({"run", kVectorAdd, "--kernel", "add_kernel", "--signature", kVectorAddSignature,
               "--grid", "1,1,1", "--arg", "zeros:4", "--arg", "zeros:4", "--arg", "zeros:4",
               "--arg", "4", "--out-dir", (dir_.path() / "file" / "sub").string()});
  EXPECT_EQ(result.code, kExitInputOutput);
  EXPECT_NE(result.err.find("cannot create --out-dir"), std::string::npos) << result.err;
}

// Issue 21's runs: vector_add over arrays of 4 elements with n = 1000000, as a process of its
// own (the kernel may kill it), stdout and stderr together, ending with "exit=<status>".
std::string runPastTheArrays(const TempDir& dir, const std::string& grid, int threads,
                             const std::string& environment = "") {
  // Under a sanitizer the tool leaves the fault to tcpu's crash report and the default action.
  const std::string command =
      concat(test::sanitizersLeaveFatalSignalsPrefix(), "TCPU_CACHE_DIR='",
             (dir.path() / "cache").string(), "' ", environment, " '", TCPU_TOOL_PATH, "' run '",
             kVectorAdd, "' -k add_kernel --signature '", kVectorAddSignature, "' --grid '", grid,
             "' --arg zeros:4 --arg zeros:4", " --arg zeros:4 --arg 1000000 --num-threads ",
             threads, " --out-dir '", (dir.path() / "out").string(), "' 2>&1; echo \"exit=$?\"");
  return runShell(command).second;
}

TEST_F(RunCommand, KernelsRunningFarPastTheirArraysDieAtTheGuardPageNamingTheKernel) {
  // Before the guard pages these ended in "double free or corruption", an OpenMP assertion or a
  // bare SIGSEGV, depending on grid and threads: the heap was overwritten and something else
  // crashed later.
  for (const std::string grid : {"1,1,1", "cdiv(n, 1024),1,1"})
    for (const int threads : {1, 2}) {
      const std::string output = runPastTheArrays(dir_, grid, threads);
      SCOPED_TRACE(concat("--grid ", grid, " --num-threads ", threads, "\n", output));
      EXPECT_NE(output.find("tcpu: kernel 'add_kernel' raised SIGSEGV (invalid memory access at "),
                std::string::npos);
      EXPECT_NE(output.find("TCPU_CHECK=bounds in the environment names the access"),
                std::string::npos);
      EXPECT_TRUE(output.ends_with("exit=139\n")); // 128 + SIGSEGV
      EXPECT_FALSE(std::filesystem::exists(outDir()));
    }
}

TEST_F(RunCommand, KernelsRunningPastTheirArraysFailTheBoundsCheckNamingTheAccess) {
  for (const std::string grid : {"1,1,1", "cdiv(n, 1024),1,1"}) {
    const std::string output = runPastTheArrays(dir_, grid, 2, "TCPU_CHECK=bounds");
    SCOPED_TRACE(concat("--grid ", grid, "\n", output));
    EXPECT_NE(output.find("tcpu run: kernel 'add_kernel' failed on launch 1 of 1: "
                          "TCPU_ERROR_ILLEGAL_ADDRESS"),
              std::string::npos);
    // One program reports its first bad access, element 4. With many programs on two threads,
    // whichever program gets there first reports (a race, as on a GPU): any element past the end.
    if (grid == "1,1,1")
      EXPECT_NE(output.find("parameter 0 'x' (*fp32): load of 4 bytes at offset 16 (element 4) "
                            "outside its buffer of 16 bytes"),
                std::string::npos);
    else
      EXPECT_TRUE(std::regex_search(
          output, std::regex(R"(program \(\d+, 0, 0\): parameter 0 'x' \(\*fp32\): load of 4 )"
                             R"(bytes at offset \d+ \(element \d+\) outside its buffer of 16 )"
                             R"(bytes)")));
    EXPECT_TRUE(output.ends_with("exit=1\n"));
  }
}

// out[i] = a[i] * sin(a[i]) + a[i]: a multiply-add to fuse and a SLEEF function to choose.
const char* const kMathKernel = R"(
declare float @llvm.sin.f32(float)

define void @math_kernel(ptr noalias %a, ptr noalias %out, i32 %n,
                         i32 %pid, i32 %py, i32 %pz, i32 %gx, i32 %gy, i32 %gz) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %wide = sext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %wide
  %po = getelementptr inbounds float, ptr %out, i64 %wide
  %v = load float, ptr %pa, align 4
  %s = call float @llvm.sin.f32(float %v)
  %p = fmul float %v, %s
  %r = fadd float %p, %v
  store float %r, ptr %po, align 4
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";

TEST_F(RunCommand, MathOptionsReachTheCompiler) {
  writeText(dir_.path() / "math.ll", kMathKernel);
  // The compiled module's optimized IR and assembly, as TCPU_DUMP_DIR writes them.
  const auto compiled = [&](std::vector<std::string> flags) {
    const std::filesystem::path dumps = dir_.path() / "dumps";
    std::filesystem::remove_all(dumps);
    const test::ScopedEnvironment dumpDir("TCPU_DUMP_DIR", dumps.string());
    std::vector<std::string> arguments = {"run",         (dir_.path() / "math.ll").string(),
                                          "--kernel",    "math_kernel",
                                          "--signature", "*fp32, *fp32, i32",
                                          "--grid",      "1,1,1",
                                          "--arg",       "rand:64",
                                          "--arg",       "zeros:64",
                                          "--arg",       "64",
                                          "--out-dir",   outDir().string()};
    arguments.insert(arguments.end(), flags.begin(), flags.end());
    const test::CliResult result = runTool(arguments);
    EXPECT_EQ(result.code, kExitSuccess) << result.err;
    std::pair<std::string, std::string> texts;
    for (const auto& entry : std::filesystem::directory_iterator(dumps)) {
      const std::string name = entry.path().filename().string();
      if (name.ends_with(".opt.ll")) texts.first = readText(entry.path());
      if (name.ends_with(".s")) texts.second = readText(entry.path());
    }
    EXPECT_FALSE(texts.first.empty() || texts.second.empty()) << "no dumps in " << dumps;
    return texts;
  };
  const auto [plainIr, plainAssembly] = compiled({});
  EXPECT_NE(plainIr.find("_u10"), std::string::npos);
  EXPECT_EQ(plainIr.find("fmul fast"), std::string::npos);
  EXPECT_NE(compiled({"--math-ulp", "3.5"}).first.find("_u35"), std::string::npos);
  EXPECT_NE(compiled({"--math-ulp=1.0"}).first.find("_u10"), std::string::npos);
  EXPECT_NE(compiled({"--fast-math"}).first.find("fmul fast"), std::string::npos);
#if defined(__x86_64__)
  char features[1024] = {};
  ASSERT_EQ(tcpuDeviceGetFeatures(features, sizeof features, 0), TCPU_SUCCESS);
  if (std::string(" ").append(features).append(" ").find(" fma ") != std::string::npos &&
      !std::getenv("TCPU_TARGET_CPU")) {
    EXPECT_NE(plainAssembly.find("vfmadd"), std::string::npos); // contraction is on by default
    EXPECT_EQ(compiled({"--fp-contract", "off"}).second.find("vfmadd"), std::string::npos);
    EXPECT_NE(compiled({"--fp-contract=on"}).second.find("vfmadd"), std::string::npos);
  }
#endif
}

TEST_F(RunCommand, MathOptionValuesAreCheckedNamingTheFlag) {
  const auto error = [&](std::vector<std::string> flags) {
    const test::CliResult result = vectorAdd("zeros:4", "zeros:4", "zeros:4", 4, std::move(flags));
    EXPECT_EQ(result.code, kExitUsage) << result.err;
    return result.err;
  };
  EXPECT_NE(error({"--fp-contract", "1"}).find("tcpu run: --fp-contract '1' is not on or off"),
            std::string::npos);
  EXPECT_NE(error({"--math-ulp", "1"})
                .find("tcpu run: --math-ulp '1' is not 1.0 or 3.5 (the SLEEF variants' accuracy "
                      "in ULP)"),
            std::string::npos);
  EXPECT_NE(error({"--fast-math=yes"}).find("--fast-math"), std::string::npos);
}

ScalarValue scalar(tcpuDataType type, const std::string& text) {
  Expected<ScalarValue> value = parseScalar(type, text, "--arg 1");
  EXPECT_TRUE(value) << text << ": " << value.status().message();
  return value ? *value : ScalarValue{};
}

template <class T>
T bitsOf(const ScalarValue& value) {
  T bits{};
  std::memcpy(&bits, value.bytes.data(), sizeof bits);
  return bits;
}

std::string scalarError(tcpuDataType type, const std::string& text) {
  Expected<ScalarValue> value = parseScalar(type, text, "--arg 1");
  EXPECT_FALSE(value) << text;
  return value ? "" : value.status().message();
}

TEST(RunScalars, IntegersAreWholeAndInTheirTypesRange) {
  EXPECT_EQ(bitsOf<int8_t>(scalar(TCPU_TYPE_I8, "-128")), -128);
  EXPECT_EQ(bitsOf<uint16_t>(scalar(TCPU_TYPE_U16, "65535")), 65535);
  EXPECT_EQ(bitsOf<int64_t>(scalar(TCPU_TYPE_I64, "-9223372036854775808")), INT64_MIN);
  const ScalarValue big = scalar(TCPU_TYPE_U64, "18446744073709551615");
  EXPECT_EQ(bitsOf<uint64_t>(big), UINT64_MAX);
  EXPECT_FALSE(big.integer) << "beyond int64: no value for grid expressions";
  EXPECT_EQ(scalar(TCPU_TYPE_I32, "+42").integer, 42);
  EXPECT_EQ(scalar(TCPU_TYPE_I1, "true").integer, 1);
  EXPECT_EQ(scalar(TCPU_TYPE_I1, "0").integer, 0);
  EXPECT_EQ(scalarError(TCPU_TYPE_I8, "128"), "--arg 1='128' is out of range for i8 [-128, 127]");
  EXPECT_EQ(scalarError(TCPU_TYPE_U32, "-1"),
            "--arg 1='-1' is out of range for u32 [0, 4294967295]");
  EXPECT_NE(scalarError(TCPU_TYPE_I64, "9223372036854775808").find("out of range"),
            std::string::npos);
  EXPECT_NE(scalarError(TCPU_TYPE_I64, "-99999999999999999999").find("out of range"),
            std::string::npos);
  EXPECT_EQ(scalarError(TCPU_TYPE_I32, "1.5"), "--arg 1='1.5' is not an integer");
  EXPECT_EQ(scalarError(TCPU_TYPE_I32, "-"), "--arg 1='-' is not an integer");
  EXPECT_EQ(scalarError(TCPU_TYPE_I32, ""), "--arg 1='' is not an integer");
  EXPECT_NE(scalarError(TCPU_TYPE_I1, "2").find("is not a boolean"), std::string::npos);
  EXPECT_NE(scalarError(TCPU_TYPE_PTR, "1").find("takes no number"), std::string::npos);
}

TEST(RunScalars, Fp32AndFp64AreParsedExactly) {
  EXPECT_EQ(bitsOf<float>(scalar(TCPU_TYPE_FP32, "0.1")), 0.1f);
  // Halfway between two floats when read as a double first; exactly parsed, it rounds up.
  EXPECT_EQ(bitsOf<uint32_t>(scalar(TCPU_TYPE_FP32, "1.00000005960464477550")), 0x3f800001u);
  EXPECT_EQ(bitsOf<double>(scalar(TCPU_TYPE_FP64, "-2.5e-300")), -2.5e-300);
  EXPECT_TRUE(std::isinf(bitsOf<float>(scalar(TCPU_TYPE_FP32, "inf"))));
  EXPECT_NE(scalarError(TCPU_TYPE_FP32, "1e39").find("out of range for fp32"), std::string::npos);
  EXPECT_NE(scalarError(TCPU_TYPE_FP64, "1.5x").find("is not a number"), std::string::npos);
}

TEST(RunScalars, Fp16AndBf16RoundToNearestEven) {
  EXPECT_EQ(halfFromDouble(1.0), 0x3c00);
  EXPECT_EQ(halfFromDouble(-0.0), 0x8000);
  EXPECT_EQ(halfFromDouble(65504.0), 0x7bff);
  EXPECT_EQ(halfFromDouble(65519.99), 0x7bff);
  EXPECT_EQ(halfFromDouble(65520.0), 0x7c00);       // the tie above the largest finite is infinity
  EXPECT_EQ(halfFromDouble(1.0 + 0x1p-11), 0x3c00); // tie: to the even 1.0
  EXPECT_EQ(halfFromDouble(1.0 + 3 * 0x1p-11), 0x3c02); // tie: to the even 1+2^-9
  EXPECT_EQ(halfFromDouble(0x1p-24), 0x0001);           // smallest subnormal
  EXPECT_EQ(halfFromDouble(0x1p-25), 0x0000);           // tie with zero: to zero
  EXPECT_EQ(halfFromDouble(0x1.0001p-25), 0x0001);
  EXPECT_EQ(halfFromDouble(0x1.ffcp-15), 0x0400); // rounds up out of the subnormals
  EXPECT_EQ(halfFromDouble(std::nan("")), 0x7e00);
  EXPECT_EQ(bfloat16FromDouble(1.0), 0x3f80);
  EXPECT_EQ(bfloat16FromDouble(1.0 + 0x1p-8), 0x3f80);
  EXPECT_EQ(bfloat16FromDouble(1.0 + 3 * 0x1p-8), 0x3f82);
  EXPECT_EQ(bfloat16FromDouble(-3.0e38), 0xff62);
  EXPECT_EQ(bfloat16FromDouble(1e300), 0x7f80);
  EXPECT_EQ(bitsOf<uint16_t>(scalar(TCPU_TYPE_FP16, "0.5")), 0x3800);
  EXPECT_EQ(bitsOf<uint16_t>(scalar(TCPU_TYPE_BF16, "-2")), 0xc000);
  EXPECT_EQ(scalarError(TCPU_TYPE_FP16, "70000"), "--arg 1='70000' is out of range for fp16");
  EXPECT_NE(scalarError(TCPU_TYPE_BF16, "1e39").find("out of range for bf16"), std::string::npos);
}

} // namespace
} // namespace tcpu::cli
