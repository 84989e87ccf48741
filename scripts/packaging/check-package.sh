#!/usr/bin/env bash
# Checks tcpu as an installed package: installs a build into a temporary prefix, builds
# examples/aot_vector_add (find_package(tcpu), tcpu compile, tcpu link) and
# examples/aot_python_kernel (the same from Triton-language kernels, python3 -m tcpu.compile)
# against it, runs their tests, checks that the programs link neither LLVM, clang nor Python,
# and builds a C program with pkg-config's flags. Removes everything it made.
#   scripts/packaging/check-package.sh <build-dir>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$(cd "${1:?usage: scripts/packaging/check-package.sh <build-dir>}" && pwd)"

work="$(mktemp -d "${TMPDIR:-/tmp}/tcpu-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
# Compiled kernels go to a cache of this check's own.
export TCPU_CACHE_DIR="$work/cache"

echo "== package: install $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null

cached() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"; }
libdir="$(cached CMAKE_INSTALL_LIBDIR)"
# The example is built with the C compiler tcpu was built with.
cc="$(cached CMAKE_C_COMPILER)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# Builds and tests an example project against the package; its program must need
# libtcpu_runtime, and neither LLVM, clang nor Python.
check_example() {
  local name="$1"
  echo "== package: build and test examples/$name against it"
  cmake -S "$here/examples/$name" -B "$work/$name" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$name"
  ctest --test-dir "$work/$name" --output-on-failure
  local program="$work/$name/$name" libraries
  if [ "$(uname -s)" = Darwin ]; then
    libraries="$(otool -L "$program")"
  else
    libraries="$(ldd "$program")"
  fi
  if grep -Ei 'libLLVM|libclang|libpython' <<<"$libraries"; then
    echo "check-package: $program links LLVM, clang or Python (above); it should need libtcpu_runtime only" >&2
    exit 1
  fi
  grep -q tcpu_runtime <<<"$libraries" || { echo "check-package: $program does not link libtcpu_runtime" >&2; exit 1; }
  echo "== package: $name links no LLVM and no Python"
}
check_example aot_vector_add
# Triton-language kernels (kernels.py) through python3 -m tcpu.compile, where the package has
# its Python part.
if [ -f "$prefix/$libdir/cmake/tcpu/tcpuPython.cmake" ]; then
  check_example aot_python_kernel
fi

if command -v pkg-config >/dev/null; then
  printf '%s\n' '#include <tcpu/codegen.h>' '#include <tcpu/tcpu.h>' \
    'int main(void) { return tcpuInit(0) != TCPU_SUCCESS || tcpuCodegenRegister() != TCPU_SUCCESS; }' \
    >"$work/pkg_config.c"
  # shellcheck disable=SC2046  # pkg-config's output is a list of flags
  "$cc" "$work/pkg_config.c" -o "$work/pkg_config" \
    $(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --cflags --libs tcpu-codegen) \
    -Wl,-rpath,"$prefix/$libdir"
  "$work/pkg_config"
  echo "== package: pkg-config (tcpu, tcpu-codegen) builds and runs a C program"
fi
