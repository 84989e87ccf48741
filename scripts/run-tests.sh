#!/usr/bin/env bash
# Installs what is missing, checks formatting and the layering of #includes
# (scripts/checks/check-layering.sh), builds with clang-19 and (on Linux) g++-12 with warnings as
# errors, runs the whole test suite on the clang build, the kernel tests again for the x86-64-v3 and
# baseline x86-64 code paths (scripts/platforms/run-target-tests.sh), the runtime and ahead-of-time
# kernels built for arm64 under qemu (scripts/platforms/run-arm64-tests.sh) and the Python front end
# on emulated Arm with two tutorials (the whole stack there on request), the runtime and tl's host
# tests built with libc++ (scripts/platforms/run-libcxx-tests.sh), the Python tests in a virtual
# environment with PyPI's torch and Triton where pip installed tcpu (scripts/setup-venv.sh,
# scripts/run-python-tests.sh --installed), the wheel that bundles LLVM in a clean Debian 12
# (scripts/packaging/check-wheel.sh), and checks the clang build as an installed package
# (scripts/packaging/check-package.sh); on the g++ build it runs the tests of host code (below);
# then the sanitizer builds (scripts/hardening/run-sanitizers.sh) and the fuzzers
# (scripts/hardening/run-fuzzers.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/checks/check-format.sh"
"$here/scripts/checks/check-layering.sh"

# Each stage's time goes to the log, to see where CI's hour goes.
stage_done() { echo "== $1: $((SECONDS - stage_start)) s (total $SECONDS s)"; stage_start=$SECONDS; }
stage_start=$SECONDS
stage_done "dependencies, format and layering checks"

jobs="$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)"
toolchains=(clang)
[ "$(uname -s)" = Linux ] && toolchains+=(gcc)
# The clang build goes through ccache where it is installed, so that pip's build of the Python
# package below (scripts/pip-install.sh, the same compiler and flags in build-pip-*/) reuses its
# objects instead of compiling runtime and codegen a second time.
clang_args=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
  clang_args=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
for toolchain in "${toolchains[@]}"; do
  build_dir="$here/build-$toolchain"
  echo "== build and test with $toolchain ($build_dir)"
  if [ "$toolchain" = clang ]; then
    "$here/scripts/build.sh" "$toolchain" "$build_dir" ${clang_args[@]+"${clang_args[@]}"}
  else
    "$here/scripts/build.sh" "$toolchain" "$build_dir"
  fi
  stage_done "$toolchain build"
  if [ "$toolchain" = clang ]; then
    ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs"
  else
    # g++ compiles the host code (runtime, codegen, tools, the tests); the kernels are LLVM's
    # either way. What runs here is the host code's own tests; the kernel and cross-check suites
    # (mostly JIT compiles, identical under both) run on the clang build, three times.
    ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" -L 'runtime|codegen|tools|scripts'
  fi
  stage_done "$toolchain tests"
  # tcpu as an installed package, used by a project of its own (examples/aot_vector_add).
  if [ "$toolchain" = clang ]; then
    "$here/scripts/packaging/check-package.sh" "$build_dir"
    stage_done "package check"
    # The AVX2 and SSE2 code paths (issue 20), on any x86-64 host (AVX2 only where the host
    # has AVX-512: elsewhere the run above was that path).
    "$here/scripts/platforms/run-target-tests.sh" "$build_dir" x86-64-v3 x86-64
    stage_done "x86-64-v3 and x86-64 code paths"
    # macOS's C++ library on Linux: what needs no LLVM built with libc++ and its tests run
    # (scripts/platforms/run-libcxx-tests.sh; Debian's LLVM is libstdc++'s, so codegen cannot take
    # part). About 30 s with a warm compile cache, 4 to 10 minutes cold on 2 cores. macOS builds
    # with libc++ throughout already.
    if [ "$(uname -s)" = Linux ]; then
      "$here/scripts/platforms/run-libcxx-tests.sh" "$here/build-libcxx"
      stage_done "libc++ build and tests"
    fi
    # Linux on Arm64 under qemu-aarch64 (docs/internals/platforms.md), from Linux x86-64; an arm64
    # host runs the whole suite natively instead.
    if [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ]; then
      "$here/scripts/platforms/run-arm64-tests.sh" "$build_dir" "$here/build-arm64"
      stage_done "arm64 (emulated)"
      # The whole stack on Arm (codegen, JIT, tcpu, the Python front end) under qemu, on request
      # (TCPU_ARM64_STACK=1): its C++ subset alone takes 20 minutes emulated. Otherwise the Python
      # front end on Arm with two tutorials, the matmul's and softmax's (their code JIT-compiled on
      # emulated Arm is checked for NEON FMAs and SLEEF's AdvSIMD exp): about 40 s of cross build
      # with a warm compile cache and 150 s of CPU for the tests; the first run on a machine also
      # makes the arm64 root (3 minutes, kept in ~/.cache/tcpu-ci) and cross-builds codegen cold
      # (about 4 minutes of CPU). TCPU_ARM64_PYTHON=0 leaves it out (docs/internals/platforms.md).
      if [ "${TCPU_ARM64_STACK:-0}" = 1 ]; then
        "$here/scripts/platforms/run-arm64-stack-tests.sh" "$build_dir" "$here/build-arm64-full"
        stage_done "arm64 whole stack (emulated)"
      elif [ "${TCPU_ARM64_PYTHON:-1}" != 0 ]; then
        TCPU_ARM64_ONLY_PYTHON=1 TCPU_ARM64_PYTHON_TUTORIALS="02 03" TCPU_ARM64_PYTHON_PYTEST=0 \
          "$here/scripts/platforms/run-arm64-stack-tests.sh" "$build_dir" "$here/build-arm64-full"
        stage_done "arm64 Python front end (emulated)"
      fi
    fi
    # The Python front end and package (tests/python), once (the extension is built by both
    # toolchains, the Python code is the same), where Triton's users are: a virtual environment
    # with PyPI's torch 2.13 (CPU), numpy 2 and real Triton 3.6 beside tcpu, which pip installs
    # there from this checkout (scripts/setup-venv.sh); the tests import that installed package.
    "$here/scripts/setup-venv.sh"
    stage_done "virtual environment and pip install"
    "$here/scripts/run-python-tests.sh" --installed
    stage_done "Python tests"
    # The wheel that bundles LLVM (scripts/packaging/build-wheel.sh), installed and run in a clean
    # Debian 12 made with debootstrap, cached in ~/.cache/tcpu-ci
    # (scripts/packaging/check-wheel.sh): about 4 minutes, 8 the first time. Needs root;
    # TCPU_CHECK_WHEEL=0 leaves it out.
    if [ "${TCPU_CHECK_WHEEL:-1}" = 0 ]; then
      echo "== wheel check left out (TCPU_CHECK_WHEEL=0)"
    elif [ "$(uname -s)/$(uname -m)" != Linux/x86_64 ] || [ "$(id -u)" != 0 ]; then
      echo "== wheel check left out: it needs root on x86-64 (debootstrap, chroot)"
    else
      "$here/scripts/packaging/check-wheel.sh"
      stage_done "wheel in a clean Debian 12"
    fi
  fi
done

# AddressSanitizer + UBSan over the whole suite, ThreadSanitizer (with Archer, for OpenMP) over the
# runtime's tests; any finding fails (scripts/hardening/run-sanitizers.sh,
# tests/sanitizers/README.md). The asan build also builds the fuzz targets (TCPU_ASAN_FUZZERS),
# which the fuzzers stage below runs from it: one sanitizer build of the host code instead of two
# (144 s saved on a 2-core Zen 4; the fuzz targets run at the asan build's -O1 instead of -O2).
TCPU_ASAN_FUZZERS=1 "$here/scripts/hardening/run-sanitizers.sh"
stage_done "sanitizers"

# Every parser fuzzed for a bounded time (tests/fuzz/README.md): TCPU_FUZZ_SECONDS per target
# (default 20 here, to keep the whole run under an hour on 2 cores: the x86 code-path and Arm stages
# took the time), from a fixed libFuzzer seed so that a failure here reproduces with the same
# command; any crash, leak, hang or broken invariant fails the run.
TCPU_FUZZ_BUILD_DIR="${TCPU_ASAN_BUILD_DIR:-$here/build-asan}" TCPU_FUZZ_REUSE_BUILD=1 \
  TCPU_FUZZ_SEED="${TCPU_FUZZ_SEED:-1}" "$here/scripts/hardening/run-fuzzers.sh" "${TCPU_FUZZ_SECONDS:-20}"
stage_done "fuzzers"
