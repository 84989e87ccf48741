#!/usr/bin/env bash
# Installs what is missing, checks formatting and the layering of #includes
# (scripts/check-layering.sh), builds with clang-19 and (on
# Linux) g++-12 with warnings as errors, runs the whole test suite on both, the Python
# tests (scripts/run-python-tests.sh) on the clang build, and checks
# the clang build as an installed package (scripts/check-package.sh), then the sanitizer
# builds (scripts/run-sanitizers.sh) and the fuzzers (scripts/run-fuzzers.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/check-format.sh"
"$here/scripts/check-layering.sh"

# Each stage's time goes to the log, to see where CI's hour goes.
stage_done() { echo "== $1: $((SECONDS - stage_start)) s (total $SECONDS s)"; stage_start=$SECONDS; }
stage_start=$SECONDS
stage_done "dependencies, format and layering checks"

jobs="$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)"
toolchains=(clang)
[ "$(uname -s)" = Linux ] && toolchains+=(gcc)
for toolchain in "${toolchains[@]}"; do
  build_dir="$here/build-$toolchain"
  echo "== build and test with $toolchain ($build_dir)"
  "$here/scripts/build.sh" "$toolchain" "$build_dir"
  stage_done "$toolchain build"
  ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs"
  stage_done "$toolchain tests"
  # tcpu as an installed package, used by a project of its own (examples/aot_vector_add).
  if [ "$toolchain" = clang ]; then
    "$here/scripts/check-package.sh" "$build_dir"
    stage_done "package check"
    # The Python front end and package (tests/python), once: the extension is built by both
    # toolchains, the Python code is the same.
    "$here/scripts/run-python-tests.sh" "$build_dir"
    stage_done "Python tests"
  fi
done

# AddressSanitizer + UBSan over the whole suite, ThreadSanitizer (with Archer, for OpenMP) over
# the runtime's tests; any finding fails (scripts/run-sanitizers.sh, tests/sanitizers/README.md).
"$here/scripts/run-sanitizers.sh"
stage_done "sanitizers"

# Every parser fuzzed for a bounded time (tests/fuzz/README.md): TCPU_FUZZ_SECONDS per target
# (default 30 here, to keep the whole run under an hour on 2 cores), from a fixed libFuzzer
# seed so that a failure here reproduces with the same command; any crash, leak, hang or
# broken invariant fails the run.
TCPU_FUZZ_SEED="${TCPU_FUZZ_SEED:-1}" "$here/scripts/run-fuzzers.sh" "${TCPU_FUZZ_SECONDS:-30}"
stage_done "fuzzers"
