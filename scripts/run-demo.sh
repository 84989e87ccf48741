#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo: the C++ demo, then the eight tutorials
# written as Triton Python kernels, run by `python3 -m tcpu`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh" clang "$here/build"
"$here/build/examples/demo/tcpu_demo"
# Triton's tutorials, as Triton Python kernels (examples/python), on the CPU.
python="$("$here/scripts/find-python.sh")"
for script in "$here"/examples/python/0*.py; do
  PYTHONPATH="$here/build/python" "$python" -m tcpu "$script"
done
