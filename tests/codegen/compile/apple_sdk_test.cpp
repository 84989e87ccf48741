// The macOS SDK for in-process compiles (clang/apple_sdk.hpp): Apple targets get -isysroot from
// SDKROOT or xcrun, every other target nothing; and on this machine, what a real compile's
// arguments hold. The Darwin side's choices are checked here with the sources given as values;
// xcrun itself runs only on a Mac.
#include "clang/apple_sdk.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include "clang/clang_invocation.hpp"

namespace tcpu::codegen {
namespace {

using Arguments = std::vector<std::string>;

AppleSdkSources xcrunPrints(std::optional<std::string> path, int* calls = nullptr) {
  return {std::nullopt, [path, calls] {
            if (calls) ++*calls;
            return path;
          }};
}

TEST(AppleSdk, AppleTargetsTakeTheSdkThatXcrunNames) {
  const Arguments expected = {"-isysroot", "/Library/Developer/CommandLineTools/SDKs/MacOSX.sdk"};
  for (const char* triple : {"arm64-apple-macosx14.0.0", "x86_64-apple-darwin23.1.0"})
    EXPECT_EQ(appleSdkArguments(triple, "",
                                xcrunPrints("/Library/Developer/CommandLineTools/SDKs/MacOSX.sdk")),
              expected)
        << triple;
}

TEST(AppleSdk, SdkrootComesBeforeXcrun) {
  int calls = 0;
  AppleSdkSources sources = xcrunPrints("/from/xcrun", &calls);
  sources.sdkrootVariable = "/from/SDKROOT";
  EXPECT_EQ(appleSdkArguments("arm64-apple-macosx14.0.0", "", sources),
            (Arguments{"-isysroot", "/from/SDKROOT"}));
  EXPECT_EQ(calls, 0);
  sources.sdkrootVariable = ""; // set but empty: as unset
  EXPECT_EQ(appleSdkArguments("arm64-apple-macosx14.0.0", "", sources),
            (Arguments{"-isysroot", "/from/xcrun"}));
  EXPECT_EQ(calls, 1);
}

TEST(AppleSdk, OtherTargetsAGivenSysrootOrNoSdkAddNothing) {
  int calls = 0;
  const AppleSdkSources sources = xcrunPrints("/from/xcrun", &calls);
  for (const char* triple : {"x86_64-pc-linux-gnu", "aarch64-linux-gnu", "x86_64-pc-windows-msvc"})
    EXPECT_EQ(appleSdkArguments(triple, "", sources), Arguments{}) << triple;
  EXPECT_EQ(calls, 0) << "xcrun is asked only for Apple targets";
  EXPECT_EQ(appleSdkArguments("arm64-apple-macosx14.0.0", "/my/sdk", sources), Arguments{});
  EXPECT_EQ(appleSdkArguments("arm64-apple-macosx14.0.0", "", xcrunPrints(std::nullopt)),
            Arguments{});
}

TEST(AppleSdk, ThisMachinesCompilesFollowItsTarget) {
  const llvm::Triple host(llvm::sys::getProcessTriple());
  const std::optional<std::string> xcrun = runXcrunShowSdkPath();
  const Arguments arguments = kernelClangArguments("kernel.cpp", CompileOptions{});
  const bool hasIsysroot =
      std::find(arguments.begin(), arguments.end(), "-isysroot") != arguments.end();
  if (host.isOSDarwin()) {
    ASSERT_TRUE(xcrun.has_value()) << "xcrun --show-sdk-path failed on a Mac";
    EXPECT_TRUE(hasIsysroot);
  } else {
    EXPECT_FALSE(xcrun.has_value()) << "no xcrun outside macOS";
    EXPECT_FALSE(hasIsysroot);
  }
}

} // namespace
} // namespace tcpu::codegen
