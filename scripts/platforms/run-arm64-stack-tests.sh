#!/usr/bin/env bash
# The whole stack on Linux Arm64, emulated (docs/internals/platforms.md): codegen, the JIT and the
# `tcpu` tool cross-built for aarch64-linux-gnu against a root of Debian 12's arm64 packages with
# their LLVM 19 and clang (scripts/platforms/arm64-sysroot.sh DIR full, kept in TCPU_CI_CACHE,
# default ~/.cache/tcpu-ci), and run under qemu-aarch64 -L: kernels JIT-compiled on Arm, C++ source
# through the in-process clang included.
#   scripts/platforms/run-arm64-stack-tests.sh HOST_BUILD_DIR [BUILD_DIR]   (default: build-arm64-full)
# HOST_BUILD_DIR holds a native build's tools/tcpu, which compiles the build's PTX at build time.
# By default a chosen subset is built and run (the tool, vector add through IR and C++, tl::dot,
# in-process C++ compiles); TCPU_ARM64_ALL=1 builds and runs every C++ suite instead (hours under
# emulation on 2 cores). Then the Python front end on Arm: the extension built against the root's
# python3 and run by it (scripts/platforms/run-arm64-python-tests.sh). TCPU_ARM64_ONLY_PYTHON=1 builds and
# runs only that (the extension and what it links).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
host_build="$(cd "${1:?usage: run-arm64-stack-tests.sh HOST_BUILD_DIR [BUILD_DIR]}" && pwd)"
build_dir="${2:-$root/build-arm64-full}"
[ -x "$host_build/tools/tcpu" ] || { echo "run-arm64-stack-tests: no $host_build/tools/tcpu: build it first" >&2; exit 1; }
command -v qemu-aarch64 >/dev/null || { echo "run-arm64-stack-tests: needs qemu-aarch64 (qemu-user)" >&2; exit 1; }
start=$SECONDS
cache="${TCPU_CI_CACHE:-$HOME/.cache/tcpu-ci}"
# TCPU_ARM64_SYSROOT: an arm64 root of one's own with the same packages, used as it is.
sysroot="${TCPU_ARM64_SYSROOT:-$(bash "$root/scripts/platforms/arm64-sysroot.sh" "$cache/arm64-full" full)}"
echo "run-arm64-stack-tests: root ready ($((SECONDS - start)) s)"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The root's python3 under qemu: an arm64 interpreter that host programs start as they start
# python3. CMake asks it for its version and its modules' suffix (.cpython-311-aarch64-linux-gnu.so);
# tests start it again as sys.executable, which is this file (-0 makes it the guest's argv[0],
# from which Python takes sys.executable).
mkdir -p "$build_dir"
printf '#!/bin/sh\nexec qemu-aarch64 -L "%s" -0 "$0" "%s" "$@"\n' "$sysroot" \
  "$sysroot/usr/bin/python3" >"$build_dir/python3-arm64"
chmod +x "$build_dir/python3-arm64"
# The host's clang++ and llvm-as make the build-time kernels, for the target
# (TcpuKernelFlags.cmake): the root's are arm64 programs. Python's headers are the root's.
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DTCPU_SYSROOT="$sysroot" -DTCPU_CLANG="$(command -v clang++-19)" \
  -DTCPU_LLVM_AS="$(command -v llvm-as-19)" \
  -DTCPU_EXECUTABLE="$host_build/tools/tcpu" ${launcher[@]+"${launcher[@]}"} \
  -DTCPU_BUILD_PYTHON=ON -DPython3_EXECUTABLE="$build_dir/python3-arm64" \
  -DPython3_INCLUDE_DIR="$sysroot/usr/include/python3.11" \
  -DTCPU_BUILD_BENCHMARKS=OFF -DTCPU_BUILD_EXAMPLES=OFF >/dev/null
python_targets=(_tcpu _tcpu_rt)
subset_targets=(tcpu kernels_vector_add_test kernels_tl_dot_test codegen_source_kernels_test
                codegen_signature_test codegen_apple_sdk_test "${python_targets[@]}")
subset_tests='^((Sizes|Forms)/)?(VectorAdd|TlDot|Source[A-Za-z]*|Signature[A-Za-z]*|AppleSdk|TutorialTest)[./]'
if [ "${TCPU_ARM64_ONLY_PYTHON:-0}" = 1 ]; then
  cmake --build "$build_dir" --target "${python_targets[@]}"
elif [ "${TCPU_ARM64_ALL:-0}" = 1 ]; then
  cmake --build "$build_dir"
else
  cmake --build "$build_dir" --target "${subset_targets[@]}"
fi
echo "run-arm64-stack-tests: built ($((SECONDS - start)) s)"
if [ "${TCPU_ARM64_ONLY_PYTHON:-0}" = 1 ]; then
  bash "$root/scripts/platforms/run-arm64-python-tests.sh" "$build_dir" "$sysroot" "$host_build"
  echo "run-arm64-stack-tests: passed in $((SECONDS - start)) s"
  exit 0
fi
run() { qemu-aarch64 -L "$sysroot" "$@"; }
# The tool: what it says of the emulated CPU, and a kernel JIT-compiled and run on it.
run "$build_dir/tools/tcpu" info
out="$build_dir/run-vector-add"
rm -rf "$out"
run "$build_dir/tools/tcpu" run "$root/kernels/ir/vector_add.ll" --kernel add_kernel \
  --signature "*fp32, *fp32, *fp32, i32" --grid 4,1,1 --arg rand:4096 --arg rand:4096 \
  --arg zeros:4096 --arg 4096 --out-dir "$out"
# The sums, checked on the host (exact: one fp32 add each).
python3 - "$out" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
x, y, out = (np.load(f"{d}/{n}.npy") for n in ("x", "y", "out"))
assert out.shape == (4096,) and np.array_equal(out, x + y), "vector add on arm64: wrong sums"
PY
echo "run-arm64-stack-tests: tool ran ($((SECONDS - start)) s)"
if [ "${TCPU_ARM64_ALL:-0}" = 1 ]; then
  ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)"
else
  ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" -R "$subset_tests"
fi
echo "run-arm64-stack-tests: C++ tests passed ($((SECONDS - start)) s)"
bash "$root/scripts/platforms/run-arm64-python-tests.sh" "$build_dir" "$sysroot" "$host_build"
echo "run-arm64-stack-tests: passed in $((SECONDS - start)) s"
