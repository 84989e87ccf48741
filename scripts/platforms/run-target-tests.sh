#!/usr/bin/env bash
# The kernel, codegen and cross-check tests again with every kernel compiled for a lesser x86-64
# CPU than the host (TCPU_TARGET_CPU; docs/environment.md): x86-64-v3 (AVX2 + FMA) and the
# x86-64 baseline (SSE2, no FMA), so that the code paths of machines without AVX-512 run here.
# Each run has a fresh, empty compile cache (the key has the target in it; a fresh one keeps
# runs from sharing anything). Kernels built ahead of time by tcpu_add_kernels keep the build
# machine's target: those paths are the JIT's.
# A host without AVX-512 already is the x86-64-v3 path (AVX2 + FMA, 256-bit vectors): the main
# test run covered it, so that pass is skipped there (TCPU_TARGET_TESTS_ALL=1 runs it anyway).
#   scripts/platforms/run-target-tests.sh BUILD_DIR [CPU...]   (default: x86-64-v3 x86-64)
set -euo pipefail
build_dir="${1:?usage: run-target-tests.sh BUILD_DIR [CPU...]}"
shift
cpus=("$@")
[ ${#cpus[@]} -gt 0 ] || cpus=(x86-64-v3 x86-64)
if [ "$(uname -m)" != x86_64 ]; then
  echo "run-target-tests: the CPUs named are x86-64's; this machine is $(uname -m): skipped"
  exit 0
fi
# Whether the host has AVX-512 (Linux: /proc/cpuinfo; macOS: sysctl).
host_has_avx512() {
  if [ -r /proc/cpuinfo ]; then
    grep -qw avx512f /proc/cpuinfo
  else
    sysctl -n machdep.cpu.leaf7_features 2>/dev/null | grep -q AVX512F
  fi
}
jobs="$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)"
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
for cpu in "${cpus[@]}"; do
  if [ "$cpu" = x86-64-v3 ] && [ "${TCPU_TARGET_TESTS_ALL:-0}" != 1 ] && ! host_has_avx512; then
    echo "== kernels compiled for $cpu: skipped, the host has no AVX-512 and is this code path"
    continue
  fi
  echo "== kernels compiled for $cpu"
  rm -rf "${cache:?}"/*
  TCPU_TARGET_CPU="$cpu" TCPU_CACHE_DIR="$cache" \
    ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" -L 'kernels|codegen|xcheck'
done
