#!/usr/bin/env bash
# macOS's C++ library, checked on Linux: builds what needs no LLVM (the runtime, tcpu-rt, the
# runtime tests and tl's host-compiled tests) with clang-19 and LLVM's libc++ instead of
# libstdc++, warnings as errors, and runs those tests (docs/internals/platforms.md).
#   scripts/platforms/run-libcxx-tests.sh [BUILD_DIR]   (default: build-libcxx)
# Codegen, the tools that use it and the Python extension are left out: they link Debian's libLLVM
# and libclang-cpp, which are compiled against libstdc++, and their interfaces pass std::string,
# std::vector and std::unique_ptr, which are other types under libc++ (its std::__1 namespace): the
# link fails (docs/internals/platforms.md shows how). macOS's Homebrew LLVM is built with libc++, so
# there the whole build uses one library.
# libc++ comes from Debian's own packages (libc++-19-dev and what it needs), unpacked into
# BUILD_DIR/libcxx instead of installed: installed, libc++abi-19-dev puts cxxabi.h and
# libunwind-19-dev unwind.h into /usr/lib/llvm-19/include, which every target using LLVM's headers
# searches first, and GoogleTest's <cxxabi.h> in the normal build then is libc++abi's (it no longer
# compiles).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build_dir="$(mkdir -p "${1:-$root/build-libcxx}" && cd "${1:-$root/build-libcxx}" && pwd)"
gtest_source=/usr/src/googletest # Debian's libgtest-dev ships the sources too
[ -d "$gtest_source" ] || { echo "run-libcxx-tests: no $gtest_source (libgtest-dev)" >&2; exit 1; }
start=$SECONDS

packages=(libc++-19-dev libc++1-19 libc++abi-19-dev libc++abi1-19 libunwind-19 libunwind-19-dev)
libcxx="$build_dir/libcxx"
stamp="$libcxx/.tcpu-libcxx-$(printf '%s\n' "${packages[@]}" | sha256sum | cut -c1-16)"
if [ ! -e "$stamp" ]; then
  rm -rf "$libcxx" "$build_dir/libcxx-debs"
  mkdir -p "$libcxx" "$build_dir/libcxx-debs"
  echo "run-libcxx-tests: downloading ${packages[*]} (apt-get download, unpacked into $libcxx)" >&2
  # apt's _apt user may not write under the build directory: download as the caller.
  (cd "$build_dir/libcxx-debs" && apt-get -qq -o APT::Sandbox::User="$(id -un)" download "${packages[@]}")
  for deb in "$build_dir"/libcxx-debs/*.deb; do dpkg-deb -x "$deb" "$libcxx"; done
  touch "$stamp"
fi
lib="$libcxx/usr/lib/llvm-19/lib"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# _LIBCPP_REMOVE_TRANSITIVE_INCLUDES: headers that libc++ includes only for compatibility are
# left out, as newer libc++ (Apple's) leaves them out: a missing #include fails here too.
link_flags="-stdlib=libc++ -L$lib -Wl,-rpath,$lib"
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 ${launcher[@]+"${launcher[@]}"} \
  -DCMAKE_CXX_FLAGS="-nostdinc++ -isystem $libcxx/usr/lib/llvm-19/include/c++/v1 -D_LIBCPP_REMOVE_TRANSITIVE_INCLUDES" \
  -DCMAKE_EXE_LINKER_FLAGS="$link_flags" -DCMAKE_SHARED_LINKER_FLAGS="$link_flags" \
  -DCMAKE_MODULE_LINKER_FLAGS="$link_flags" \
  -DTCPU_RUNTIME_ONLY=ON -DTCPU_GTEST_SOURCE_DIR="$gtest_source" >/dev/null
cmake --build "$build_dir"
# The build must really be libc++'s: the runtime and a test program need libc++, not libstdc++.
for binary in "$build_dir"/runtime/libtcpu_runtime.so "$build_dir"/tests/runtime/runtime_memory_test; do
  needed="$(readelf -d "$binary" | grep NEEDED)"
  if ! grep -q 'libc++\.so' <<<"$needed" || grep -q 'libstdc++' <<<"$needed"; then
    echo "run-libcxx-tests: $binary is not linked with libc++ alone:" >&2
    echo "$needed" >&2
    exit 1
  fi
done
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)"
"$build_dir/tools/tcpu-rt" --help >/dev/null
echo "run-libcxx-tests: passed in $((SECONDS - start)) s"
