#!/usr/bin/env bash
# Installs tcpu from this checkout into the environment of a Python: `pip install .` with the
# build requirements taken from that environment (no build isolation: pyproject.toml's
# scikit-build-core and pybind11 must be installed there, as scripts/setup-venv.sh does), so
# nothing is downloaded for the build.
#   scripts/pip-install.sh PYTHON [pip install args...]   e.g. -e for an editable install
# The build directory is build-pip-<python tag>/ (pyproject.toml), reused by later installs. With
# ccache on PATH the compiler goes through it, CCACHE_BASEDIR being the checkout, so the objects
# scripts/build.sh compiled into build-clang/ with ccache are reused; every install passes the
# same CMake arguments, so an unchanged tree rebuilds nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$1"
shift
cmake_args="${CMAKE_ARGS:-}"
if [ "$(uname -s)" = Darwin ]; then  # Homebrew's LLVM 19 and libomp, as scripts/build.sh takes them
  llvm="$(brew --prefix llvm@19)"
  cmake_args="$cmake_args -DCMAKE_C_COMPILER=$llvm/bin/clang -DCMAKE_CXX_COMPILER=$llvm/bin/clang++"
  cmake_args="$cmake_args -DOpenMP_ROOT=$(brew --prefix libomp) -DCMAKE_PREFIX_PATH=$llvm"
fi
if command -v ccache >/dev/null; then
  cmake_args="$cmake_args -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
fi
cd "$here"
# The machine's pip configuration may name local package directories that do not exist: pip's
# warnings about them are noise here.
CMAKE_ARGS="$cmake_args" "$python" -m pip install --quiet --no-deps --no-build-isolation \
  --disable-pip-version-check "$@" . 2>&1 | { grep -v "^WARNING: Location '.*' is ignored" || true; }
