// Where codegen's run-time files are: beside an installed tcpu (a wheel carries clang's resource
// directory, the C and C++ library headers kernels include, compiler-rt's builtins and ld.lld,
// so that it runs where LLVM is not installed), else where the build found them on this machine.
#ifndef TCPU_CODEGEN_INSTALL_LAYOUT_HPP
#define TCPU_CODEGEN_INSTALL_LAYOUT_HPP

#include <filesystem>
#include <optional>
#include <string>

namespace tcpu::codegen {

// The directory of the binary this code is linked into: libtcpu_codegen, or an executable that
// links codegen statically (the tcpu tool). Empty if unknown.
std::filesystem::path ownBinaryDirectory();

// <prefix>/<relative>, where <prefix> holds the <prefix>/bin or <prefix>/lib (or Debian's
// multiarch <prefix>/lib/<triple>) this binary is in, if it exists there.
std::optional<std::filesystem::path> installedPath(const std::filesystem::path& relative);

// What a wheel carries below <prefix>/lib/tcpu (scripts/packaging/build-wheel.sh,
// TCPU_BUNDLE_TOOLCHAIN): clang/ (a clang resource directory), c++/ (the C++ library's
// headers), c/ (the C library's headers that those and tl.h include) and bin/ld.lld.
inline constexpr const char* kBundleDirectory = "lib/tcpu";

// clang's resource directory (its own headers, compiler-rt): the bundled one, else the build's.
const std::string& clangResourceDirectory();

// compiler-rt's builtins archive in that resource directory; empty if the build had none.
const std::string& compilerRtBuiltins();

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_INSTALL_LAYOUT_HPP
