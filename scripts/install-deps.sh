#!/usr/bin/env bash
# Installs what tcpu needs to build, test and benchmark, from the OS package
# manager only (no downloads of our own). Idempotent: installs only what is
# missing and says what it installs.
set -euo pipefail

debian_packages=(
  cmake ninja-build pkg-config g++-12
  clang-19 lld-19 llvm-19-dev libclang-19-dev libclang-cpp19-dev
  libomp-19-dev clang-format-19
  libclang-rt-19-dev  # compiler-rt's builtins: helpers kernels call (fp32 -> bf16 without AVX512-BF16)
  libsleef-dev libgtest-dev libgmock-dev libbenchmark-dev libdnnl-dev
  zlib1g-dev libzstd-dev
  python3-numpy python3-torch python3-pytest python3-pytest-xdist python3-dev pybind11-dev
  python3-venv ccache  # scripts/setup-venv.sh: the tests' virtual environment, pip's build reusing objects
  python3-tabulate  # Triton's tutorial 04 prints its tables with it
  libtorch-dev python3-pip  # examples/torch_op: find_package(Torch); its setuptools build (pip wheel)
  qemu-user  # scripts/platforms/run-arm64-tests.sh: the arm64 build's tests under emulation
  debootstrap  # scripts/packaging/check-wheel.sh: the wheel in a clean Debian 12
)
# The Python package (python/) builds against the Python that Homebrew's numpy and pytorch
# formulae are built for (Homebrew's default python3, which they depend on; scripts/find-python.sh
# finds it). Homebrew has no pytest formula: pytest and pytest-xdist come from pip into that
# Python (PEP 668 marks it externally managed, hence --break-system-packages). Homebrew's
# pytorch includes Torch's CMake package (examples/torch_op).
brew_packages=(cmake ninja pkg-config llvm@19 libomp sleef googletest google-benchmark onednn
               pybind11 numpy pytorch)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_debian() {
  local missing=()
  for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#debian_packages[@]} Debian packages already installed"
    return
  fi
  echo "install-deps: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

install_macos() {
  command -v brew >/dev/null || { echo "install-deps: Homebrew is required on macOS (https://brew.sh)" >&2; exit 1; }
  local missing=()
  for p in "${brew_packages[@]}"; do
    brew list --versions "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    brew install "${missing[@]}"
  else
    echo "install-deps: all ${#brew_packages[@]} Homebrew packages already installed"
  fi
  local python
  python="$(brew --prefix)/bin/python3"
  if ! "$python" -c "import pytest, xdist" >/dev/null 2>&1; then
    echo "install-deps: installing pytest and pytest-xdist into $python (pip)"
    "$python" -m pip install --quiet --break-system-packages pytest pytest-xdist
  fi
}

case "$(uname -s)" in
  Linux)
    if command -v apt-get >/dev/null; then install_debian
    else echo "install-deps: only Debian/Ubuntu (apt) and macOS (Homebrew) are automated; install the equivalents of: ${debian_packages[*]}" >&2; exit 1
    fi ;;
  Darwin) install_macos ;;
  *) echo "install-deps: unsupported OS $(uname -s)" >&2; exit 1 ;;
esac
