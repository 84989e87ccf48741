#!/usr/bin/env bash
# Configures and builds tcpu.
#   scripts/build.sh [clang|gcc] [build-dir] [extra cmake args...]
# clang (the default) is clang-19 with LLVM's OpenMP: the compiler tcpu's
# kernels are built with, on Linux and macOS alike. gcc is g++-12 (Linux),
# built too so that the tree stays warning-free under both.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
toolchain="${1:-clang}"
build_dir="${2:-$here/build}"
shift $(( $# > 2 ? 2 : $# ))

case "$toolchain" in
  clang)
    if [ "$(uname -s)" = Darwin ]; then
      llvm="$(brew --prefix llvm@19)"
      cc="$llvm/bin/clang"; cxx="$llvm/bin/clang++"
      extra=(-DOpenMP_ROOT="$(brew --prefix libomp)" -DCMAKE_PREFIX_PATH="$llvm")
      # The Python extension for the interpreter the tests run (Homebrew's, with numpy and torch).
      if python="$("$here/scripts/find-python.sh" 2>/dev/null)"; then
        extra+=(-DPython3_EXECUTABLE="$python")
      fi
    else
      cc=clang-19; cxx=clang++-19; extra=()
    fi ;;
  gcc) cc=gcc-12; cxx=g++-12; extra=() ;;
  *) echo "build.sh: unknown toolchain '$toolchain' (expected clang or gcc)" >&2; exit 2 ;;
esac

jobs="$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)"
cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" "${extra[@]}" "$@" >/dev/null
cmake --build "$build_dir" --parallel "$jobs"
