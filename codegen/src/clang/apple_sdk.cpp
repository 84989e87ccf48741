#include "clang/apple_sdk.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <llvm/TargetParser/Triple.h>

namespace tcpu::codegen {

std::vector<std::string> appleSdkArguments(const std::string& targetTriple,
                                           const std::string& sysroot,
                                           const AppleSdkSources& sources) {
  if (!sysroot.empty() || !llvm::Triple(targetTriple).isOSDarwin()) return {};
  std::optional<std::string> sdk = sources.sdkrootVariable;
  if ((!sdk || sdk->empty()) && sources.xcrunSdkPath) sdk = sources.xcrunSdkPath();
  if (!sdk || sdk->empty()) return {};
  return {"-isysroot", *sdk};
}

std::optional<std::string> runXcrunShowSdkPath() {
  // popen runs /bin/sh, which reports a missing xcrun as status 127: nothing is printed.
  FILE* pipe = popen("xcrun --show-sdk-path 2>/dev/null", "r");
  if (!pipe) return std::nullopt;
  std::string output;
  std::array<char, 512> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe))
    output += buffer.data();
  const int status = pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r'))
    output.pop_back();
  if (status != 0 || output.empty()) return std::nullopt;
  return output;
}

const AppleSdkSources& processAppleSdkSources() {
  static const AppleSdkSources sources = [] {
    AppleSdkSources found;
    if (const char* value = std::getenv("SDKROOT")) found.sdkrootVariable = value;
    found.xcrunSdkPath = [] {
      static std::once_flag once;
      static std::optional<std::string> path;
      std::call_once(once, [] { path = runXcrunShowSdkPath(); });
      return path;
    };
    return found;
  }();
  return sources;
}

} // namespace tcpu::codegen
