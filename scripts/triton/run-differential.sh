#!/usr/bin/env bash
# Differential testing on demand (docs/conformance/differential-testing.md): [count] random kernels
# from [first-seed] on, run by tcpu and by real Triton's interpreter (TRITON_INTERPRET=1, its own
# process), each disagreement printed; exits 1 if there is any.
#   scripts/triton/run-differential.sh [count=500] [first-seed=0] [build-dir=build]
# Needs the Python environment scripts/find-python.sh picks (TCPU_VENV) with torch and a real
# Triton installed beside tcpu.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
count="${1:-500}"
first="${2:-0}"
build_dir="$(cd "${3:-$here/build}" && pwd)"
python="$("$here/scripts/find-python.sh")"
export PYTHONPATH="$build_dir/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" "$here/tests/differential/runner.py" "$count" "$first"
