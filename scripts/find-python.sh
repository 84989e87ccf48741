#!/usr/bin/env bash
# Prints the Python interpreter tcpu's Python package is tested with: one that has numpy, torch
# and pytest. First the repository's virtual environment (.venv, made by scripts/setup-venv.sh:
# PyPI's torch 2.x and real Triton, as users have them); else, on Debian, /usr/bin/python3 with
# python3-numpy, -torch and -pytest from apt (torch 1.13); the python3 first on PATH may be
# another interpreter (pyenv's) without them. TCPU_PYTHON overrides.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# On macOS, Homebrew's python3 (the one its numpy and pytorch are built for), not Apple's
# /usr/bin/python3.
brew_python=""
[ "$(uname -s)" = Darwin ] && command -v brew >/dev/null && brew_python="$(brew --prefix)/bin/python3"
for candidate in "${TCPU_PYTHON:-}" "${TCPU_VENV:-$here/.venv}/bin/python" "$brew_python" \
                 /usr/bin/python3 python3; do
  [ -n "$candidate" ] || continue
  command -v "$candidate" >/dev/null 2>&1 || continue
  if "$candidate" -c "import numpy, torch, pytest" >/dev/null 2>&1; then
    command -v "$candidate"
    exit 0
  fi
done
echo "find-python: no python3 with numpy, torch and pytest (scripts/setup-venv.sh makes one)" >&2
exit 1
