#!/usr/bin/env bash
# Installs what is missing (the OS packages, and the virtual environment .venv with PyPI's torch
# and Triton: scripts/setup-venv.sh), builds, and runs the demo: the C++ demo, then the eight
# tutorials written as Triton Python kernels, run by `python3 -m tcpu` with the build's package.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/setup-venv.sh" --no-tcpu
"$here/scripts/build.sh" clang "$here/build"
"$here/build/examples/demo/tcpu_demo"
# Triton's tutorials, as Triton Python kernels (examples/python), on the CPU.
python="$("$here/scripts/find-python.sh")"
for script in "$here"/examples/python/0*.py; do
  PYTHONPATH="$here/build/python" "$python" -m tcpu "$script"
done
