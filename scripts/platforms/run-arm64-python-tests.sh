#!/usr/bin/env bash
# The Python front end on Linux Arm64, emulated (docs/internals/platforms.md): the root's own python3,
# numpy and torch (Debian 12's arm64 packages) run under qemu-aarch64 -L with tcpu's extension
# cross-built for them (scripts/platforms/run-arm64-stack-tests.sh builds it), and run users' Triton code:
# the tutorials through `python3 -m tcpu`, the tutorial kernels against real Triton's goldens,
# and the pytest plugin on examples/pytest_project. Kernels are JIT-compiled on emulated Arm;
# the check fails unless the matmul's code has NEON's vector FMAs and softmax calls SLEEF's
# AdvSIMD exp.
#   scripts/platforms/run-arm64-python-tests.sh BUILD_DIR SYSROOT HOST_BUILD_DIR
# BUILD_DIR: the cross build (its python/ and python3-arm64, the interpreter's wrapper);
# HOST_BUILD_DIR: a native build, whose tools/tcpu compares outputs with the goldens (arrays in
# files: the same on any machine). TCPU_ARM64_PYTHON_TUTORIALS names the tutorials to run
# (default: all eight); TCPU_ARM64_PYTHON_PYTEST=0 leaves out the two pytest runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build_dir="$(cd "${1:?usage: run-arm64-python-tests.sh BUILD_DIR SYSROOT HOST_BUILD_DIR}" && pwd)"
sysroot="$(cd "${2:?usage: run-arm64-python-tests.sh BUILD_DIR SYSROOT HOST_BUILD_DIR}" && pwd)"
host_build="$(cd "${3:?usage: run-arm64-python-tests.sh BUILD_DIR SYSROOT HOST_BUILD_DIR}" && pwd)"
python="$build_dir/python3-arm64"
[ -x "$python" ] || { echo "run-arm64-python-tests: no $python (run-arm64-stack-tests.sh writes it)" >&2; exit 1; }
compgen -G "$build_dir/python/tcpu/_tcpu.*.so" >/dev/null ||
  { echo "run-arm64-python-tests: no extension in $build_dir/python/tcpu: build _tcpu" >&2; exit 1; }
start=$SECONDS
work="$build_dir/python-run"
rm -rf "$work"
mkdir -p "$work"
export PYTHONPATH="$build_dir/python"
# A compile cache of this run's own: every kernel is compiled on emulated Arm.
export TCPU_CACHE_DIR="$work/cache"
# In memory, not as cached shared objects: writing one runs ld.lld as a child process, and a
# guest's child is started by the host's kernel, which runs the host's x86-64 ld.lld (with the
# guest's paths, which it cannot find) or, without binfmt_misc, no arm64 program at all.
export TCPU_PYTHON_CACHE=0
# Outputs are compared with the goldens by the native tool (tcpu xcheck --compare).
export TCPU_CLI="$host_build/tools/tcpu"

# The tutorials, each as a user runs it; the matmul's and softmax's compiled code is dumped for
# the checks below.
tutorials="${TCPU_ARM64_PYTHON_TUTORIALS:-01 02 03 04 05 06 07 08}"
for number in $tutorials; do
  script="$(echo "$root"/examples/python/"$number"_*.py)"
  [ -f "$script" ] || { echo "run-arm64-python-tests: no tutorial $number" >&2; exit 1; }
  TCPU_DUMP_DIR="$work/dump-$number" "$python" -m tcpu "$script"
done
echo "run-arm64-python-tests: tutorials ran ($((SECONDS - start)) s)"

# tl::dot's register tiles on Arm are NEON's (vector FMAs by element: fmla vN.4s) and exp is
# SLEEF's AdvSIMD variant, in code the JIT compiled on (emulated) Arm. grep reads all of its
# input (not -q: under pipefail its early exit would fail the pipe).
check_code() { # tutorial, pattern, what
  [ -d "$work/dump-$1" ] || return 0 # not run this time
  cat "$work/dump-$1"/*.s | grep -E "$2" >/dev/null ||
    { echo "run-arm64-python-tests: no $3 in tutorial $1's code ($work/dump-$1)" >&2; exit 1; }
}
check_code 03 'fmla[[:space:]]+v[0-9]+\.4s' "NEON FMAs (tl::dot)"
check_code 02 'Sleef_[a-z0-9]+_u[0-9]+advsimd' "SLEEF AdvSIMD call"

if [ "${TCPU_ARM64_PYTHON_PYTEST:-1}" != 0 ]; then
  # The tutorials' kernels on real Triton's inputs, judged against its outputs (Triton 3.6 on an
  # H100: tests/goldens/triton).
  (cd "$root" && "$python" -m pytest tests/python/conformance/test_triton_goldens.py -q \
    -p no:cacheprovider)
  echo "run-arm64-python-tests: goldens matched ($((SECONDS - start)) s)"
  # A Triton project's own tests through the plugin (one process: no pytest-xdist in the root).
  (cd "$root/examples/pytest_project" && "$python" -m pytest -q -p no:cacheprovider -p tcpu.pytest_plugin)
  echo "run-arm64-python-tests: the plugin ran examples/pytest_project ($((SECONDS - start)) s)"
fi
echo "run-arm64-python-tests: passed in $((SECONDS - start)) s"
