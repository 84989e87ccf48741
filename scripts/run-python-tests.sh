#!/usr/bin/env bash
# Runs the Python package's tests (tests/python: the front end's language tests, the
# tutorials, the goldens of real Triton, the host API) against a build's package.
#   scripts/run-python-tests.sh [build-dir] [pytest args...]
# In parallel with pytest-xdist (one worker per core); the workers share one compile cache,
# as users' test suites do.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$here/build}"
shift $(( $# > 0 ? 1 : 0 ))
python="$("$here/scripts/find-python.sh")"
jobs="$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)"
workers=()
"$python" -c "import xdist" >/dev/null 2>&1 && workers=(-n "$jobs")
echo "== python tests ($python, package from $build_dir/python)"
PYTHONPATH="$build_dir/python" "$python" -m pytest "$here/tests/python" -q -p no:cacheprovider \
  ${workers[@]+"${workers[@]}"} "$@"  # (macOS's bash 3.2 calls an empty array unbound)
