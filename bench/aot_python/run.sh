#!/usr/bin/env bash
# The AOT example's figures (bench/RESULTS.md): its program's size, its kernel objects' sizes,
# and the cost of one AOT launch (launch_cost.c) beside the runtime's own empty-kernel launch
# (tcpu_bench launch/empty, the same process kind, this run).
#   bench/aot_python/run.sh <build-dir>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: bench/aot_python/run.sh <build-dir>}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here/examples/aot_python_kernel" -B "$work/example" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" >/dev/null
kernels="$work/example/tcpu_kernels/aot_python_kernel"
echo "program: $(stat -c %s "$work/example/aot_python_kernel") bytes (stripped: $(strip -o "$work/stripped" "$work/example/aot_python_kernel" && stat -c %s "$work/stripped"))"
for o in "$kernels"/*.o; do echo "  $(basename "$o"): $(stat -c %s "$o") bytes"; done
echo "libtcpu_runtime: $(stat -c %s "$(readlink -f "$work/prefix/lib/libtcpu_runtime.so")") bytes"
cc -O2 -std=c11 -I"$work/prefix/include" -I"$kernels" "$here/bench/aot_python/launch_cost.c" \
  "$kernels"/*.o "$work/example/CMakeFiles/aot_python_kernel.dir/tcpu_kernels/aot_python_kernel/add_kernel.c.o" \
  -L"$work/prefix/lib" -Wl,-rpath,"$work/prefix/lib" -ltcpu_runtime -lsleef -o "$work/launch_cost"
for i in 1 2 3; do
  "$work/launch_cost" 21
  "$build/bench/tcpu_bench" --benchmark_filter='^launch/empty/1/' --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true 2>/dev/null | grep median
done
