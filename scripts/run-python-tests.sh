#!/usr/bin/env bash
# Runs the Python package's tests (tests/python: the front end's language tests, the
# tutorials, the goldens of real Triton, the host API, pip's installs) with the interpreter
# scripts/find-python.sh prints (the repository's .venv when there is one).
#   scripts/run-python-tests.sh [build-dir] [pytest args...]   a build tree's package
#                                                              (PYTHONPATH=<build-dir>/python)
#   scripts/run-python-tests.sh --installed [pytest args...]   the tcpu installed into that
#                                                              interpreter's environment (pip)
# In parallel with pytest-xdist (one worker per core); the workers share one compile cache,
# as users' test suites do.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$("$here/scripts/find-python.sh")"
if [ "${1:-}" = "--installed" ]; then
  shift
  unset PYTHONPATH
  package="$(cd / && "$python" -c 'import os, tcpu; print(os.path.dirname(tcpu.__file__))')"
  echo "== python tests ($python, installed package $package)"
else
  build_dir="$(cd "${1:-$here/build}" && pwd)"  # absolute: tests run subprocesses elsewhere
  shift $(( $# > 0 ? 1 : 0 ))
  export PYTHONPATH="$build_dir/python"
  echo "== python tests ($python, package from $build_dir/python)"
fi
jobs="$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)"
workers=()
"$python" -c "import xdist" >/dev/null 2>&1 && workers=(-n "$jobs")
"$python" -m pytest "$here/tests/python" -q -p no:cacheprovider \
  ${workers[@]+"${workers[@]}"} "$@"  # (macOS's bash 3.2 calls an empty array unbound)
