// The macOS SDK for kernels compiled in process for an Apple target. On a Mac, the C and C++
// library headers are not under /usr/include but in the SDK that Xcode or its command-line tools
// install; the clang++ command finds it by itself (xcrun, or a configuration file Homebrew's LLVM
// installs), but clang's libraries called in process do neither. Without it, a kernel that
// includes <cmath> or <cstdint> through tl.h does not compile.
#ifndef TCPU_CODEGEN_APPLE_SDK_HPP
#define TCPU_CODEGEN_APPLE_SDK_HPP

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tcpu::codegen {

// Where the SDK comes from, as the clang++ command looks: SDKROOT if set (as Xcode's tools set
// it), else what `xcrun --show-sdk-path` prints.
struct AppleSdkSources {
  std::optional<std::string> sdkrootVariable;
  std::function<std::optional<std::string>()> xcrunSdkPath;
};

// {"-isysroot", <sdk>} for a compile for `targetTriple` when it is an Apple OS and no sysroot
// was given (one given is the caller's choice); empty otherwise, and where no SDK is found
// (clang then says which header it misses).
std::vector<std::string> appleSdkArguments(const std::string& targetTriple,
                                           const std::string& sysroot,
                                           const AppleSdkSources& sources);

// This machine's sources: the SDKROOT variable and the xcrun command, run at most once per
// process (about 20 ms), and only when an Apple target asks.
const AppleSdkSources& processAppleSdkSources();

// `xcrun --show-sdk-path`'s output without its line end; nullopt where xcrun is missing (any
// system but macOS) or fails.
std::optional<std::string> runXcrunShowSdkPath();

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_APPLE_SDK_HPP
