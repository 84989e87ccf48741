#!/usr/bin/env bash
# Makes the virtual environment the Python tests run in, as a Triton user's: PyPI's torch 2.13
# (CPU), numpy 2.x, pytest, pytest-xdist and real triton 3.6 beside tcpu, all pinned in
# scripts/venv-requirements.txt; then installs tcpu into it from this checkout (pip install .).
#   scripts/setup-venv.sh [--no-tcpu]
# The environment is <repo>/.venv (TCPU_VENV overrides), made from Debian's /usr/bin/python3
# (Homebrew's python3 on macOS; TCPU_VENV_PYTHON overrides: any CPython >= 3.10 with venv). torch==2.13.0 is a CPU build
# where pip finds one (the project's machines keep its wheel for Python 3.11 in pip's find-links;
# elsewhere PIP_EXTRA_INDEX_URL may name PyTorch's CPU index), else PyPI's CUDA build (several
# GB, also runs on the CPU). Idempotent: the requirements are installed again
# only when venv-requirements.txt changed; tcpu is reinstalled every time (scripts/pip-install.sh:
# its build directory is reused, so only what changed is rebuilt).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${TCPU_VENV:-$here/.venv}"
requirements="$here/scripts/venv-requirements.txt"
install_tcpu=1
[ "${1:-}" = "--no-tcpu" ] && install_tcpu=0

base_python="${TCPU_VENV_PYTHON:-}"
if [ -z "$base_python" ]; then
  if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null; then
    base_python="$(brew --prefix)/bin/python3"  # Apple's /usr/bin/python3 is too old
  elif [ -x /usr/bin/python3 ]; then base_python=/usr/bin/python3
  else base_python=python3
  fi
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "setup-venv: creating $venv ($("$base_python" --version) from $base_python)"
  "$base_python" -m venv "$venv"
fi
python="$venv/bin/python"

stamp="$venv/.tcpu-requirements"
if ! cmp -s "$requirements" "$stamp"; then
  echo "setup-venv: installing scripts/venv-requirements.txt into $venv"
  # The machine's pip configuration may list local package directories that do not exist;
  # pip's warnings about them are noise here.
  "$python" -m pip install --quiet --disable-pip-version-check -r "$requirements" 2>&1 |
    { grep -v "^WARNING: Location '.*' is ignored" || true; }
  cp "$requirements" "$stamp"
fi

if [ "$install_tcpu" = 1 ]; then
  echo "setup-venv: installing tcpu into $venv (scripts/pip-install.sh)"
  "$here/scripts/pip-install.sh" "$python"
  "$venv/bin/tcpu" --version >/dev/null
fi
versions="$("$python" -c 'import torch, triton; print(f"torch {torch.__version__}, triton {triton.__version__}")')"
echo "setup-venv: $python ($versions)"
