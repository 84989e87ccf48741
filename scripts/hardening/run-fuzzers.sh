#!/usr/bin/env bash
# Builds tcpu's libFuzzer targets (tests/fuzz) with clang-19 and
# -fsanitize=fuzzer,address,undefined in their own build directory, and runs each for a
# bounded time over a copy of its seed corpus (the checked-in corpus is never modified).
#
#   scripts/hardening/run-fuzzers.sh [SECONDS] [TARGET...]     # default: 60 s each, all targets
#
# Environment: TCPU_FUZZ_BUILD_DIR (default build-fuzz), TCPU_FUZZ_REUSE_BUILD=1 (that directory
# is configured already, with the fuzz targets and the sanitizers: run-sanitizers.sh's asan build
# with TCPU_ASAN_FUZZERS=1, at -O1; only its fuzz targets are built), TCPU_FUZZ_JOBS (ninja -j,
# default: all cores), TCPU_FUZZ_KEEP_CORPUS=DIR (keep the grown corpora there instead of discarding them),
# TCPU_FUZZ_SEED=N (libFuzzer's -seed, and a fixed number of inputs per target instead of a time:
# the same inputs each run, on any machine; default: a random seed, SECONDS of fuzzing).
#
# Prints per target the executions per second and the coverage (libFuzzer's final cov:/ft:),
# and exits non-zero if any target crashed, leaked, timed out or ran out of memory, naming the
# reproducer (kept under BUILD_DIR/fuzz-artifacts/<target>/). Reproduce with
#   BUILD_DIR/tests/fuzz/fuzz_<target> <reproducer>
# and check it in under tests/fuzz/regressions/<target>/ once fixed (tests/fuzz/README.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${TCPU_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true
all_targets=(signature grid linker_line npy command_line cache_entry ir module xcheck_manifest
  xcheck_cases)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
jobs="${TCPU_FUZZ_JOBS:-$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)}"
# LeakSanitizer does not exist on macOS on Apple silicon (ASan refuses detect_leaks=1 there):
# leak checks are Linux's and Intel macOS's.
leaks_supported=1
[ "$(uname -s)/$(uname -m)" = Darwin/arm64 ] && leaks_supported=0

case "$seconds" in '' | *[!0-9]*)
  echo "run-fuzzers: SECONDS must be a whole number, got '$seconds'" >&2
  exit 2 ;;
esac
case "${TCPU_FUZZ_SEED:-0}" in '' | *[!0-9]*)
  echo "run-fuzzers: TCPU_FUZZ_SEED must be a whole number, got '$TCPU_FUZZ_SEED'" >&2
  exit 2 ;;
esac
for t in "${targets[@]}"; do
  case " ${all_targets[*]} " in *" $t "*) ;; *)
    echo "run-fuzzers: unknown target '$t' (targets: ${all_targets[*]})" >&2
    exit 2 ;;
  esac
done

# Per target: the largest input libFuzzer generates (compiles are slow; the seed .so is 1.6 KB)
# and the time one input may take before it counts as a hang.
max_len() {
  case "$1" in
    ir) echo 4096 ;;
    module) echo 16384 ;;
    *) echo 4096 ;;
  esac
}
# Leak detection while fuzzing. A compile that LLVM aborts (a fatal error or a crash, which
# tcpu's guarded path catches and returns as TCPU_ERROR_UNKNOWN) is unwound without running
# destructors, so what it had allocated leaks, by design (tests/fuzz/README.md). The targets
# that compile IR therefore fuzz without leak detection, and their seeds and regression inputs
# are checked for leaks afterwards instead (but for *llvm_fatal_error*, which leak so).
fuzz_leaks() {
  [ "$leaks_supported" = 1 ] || { echo 0; return; }
  case "$1" in
    ir | module) echo 0 ;;
    *) echo 1 ;;
  esac
}
# Inputs per second each target runs at on the CI machine (2 cores, ASan+UBSan; measured from
# its logs, rounded down). With TCPU_FUZZ_SEED set, a target runs for SECONDS times this many
# inputs rather than for SECONDS: the same seed then gives the same inputs on any machine, so
# a failure in CI reproduces with the same command (a time limit cuts the sequence wherever
# the machine's speed puts it). Twice SECONDS stays the limit on time.
inputs_per_second() {
  case "$1" in
    signature) echo 30000 ;;
    grid) echo 35000 ;;
    linker_line) echo 60000 ;;
    npy) echo 80000 ;;
    command_line) echo 20000 ;;
    cache_entry) echo 80000 ;;
    ir) echo 400 ;;
    module) echo 250 ;;
    xcheck_manifest) echo 30000 ;;
    xcheck_cases) echo 10000 ;;
  esac
}
unit_timeout() {
  case "$1" in
    ir | module) echo 30 ;;
    *) echo 5 ;;
  esac
}

# The build needs the tools of scripts/install-deps.sh plus clang's sanitizer and libFuzzer
# runtimes (libclang-rt-19-dev on Debian and Ubuntu).
"$root/scripts/install-deps.sh"
clangxx="$(command -v clang++-19 || true)"
clangc="$(command -v clang-19 || true)"
if [ -z "$clangxx" ] && [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null; then
  clangxx="$(brew --prefix llvm@19)/bin/clang++"
  clangc="$(brew --prefix llvm@19)/bin/clang"
fi
[ -n "$clangxx" ] || { echo "run-fuzzers: clang++-19 not found" >&2; exit 1; }
links_fuzzer() {
  echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    "$clangxx" -fsanitize=fuzzer,address,undefined -x c++ - -o "$1" 2>/dev/null
}
probe="$(mktemp "${TMPDIR:-/tmp}/tcpu-fuzz-probe.XXXXXX")"
if ! links_fuzzer "$probe"; then
  if command -v apt-get >/dev/null; then
    echo "run-fuzzers: installing libclang-rt-19-dev (libFuzzer and the sanitizer runtimes)"
    if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo); fi
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends libclang-rt-19-dev
  fi
  links_fuzzer "$probe" || { rm -f "$probe"; echo "run-fuzzers: $clangxx cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi
rm -f "$probe"

sanitize="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
sanitize+=" -fno-omit-frame-pointer"
start_build=$(date +%s)
if [ "${TCPU_FUZZ_REUSE_BUILD:-0}" != 1 ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$clangc" -DCMAKE_CXX_COMPILER="$clangxx" \
    "-DCMAKE_C_FLAGS=$sanitize" "-DCMAKE_CXX_FLAGS=$sanitize" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
    "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined" \
    -DTCPU_BUILD_FUZZERS=ON -DTCPU_BUILD_TESTS=OFF -DTCPU_BUILD_BENCHMARKS=OFF \
    -DTCPU_BUILD_EXAMPLES=OFF >/dev/null
fi
ninja -C "$build" -j "$jobs" $(printf 'fuzz_%s ' "${targets[@]}")
build_seconds=$(($(date +%s) - start_build))

work="$(mktemp -d "${TMPDIR:-/tmp}/tcpu-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Sanitizer settings: stop at the first error, with a stack; leaks are errors.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=$leaks_supported:abort_on_error=0:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Leaks inside LLVM's own error paths are LLVM's (tests/fuzz/lsan.supp says which).
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0}"

failed=()
summary=()
start_fuzz=$(date +%s)
for t in "${targets[@]}"; do
  corpus="$work/corpus/$t"
  mkdir -p "$corpus" "$work/tmp/$t"
  cp -R "$root/tests/fuzz/corpus/$t/." "$corpus/"
  artifacts="$build/fuzz-artifacts/$t"
  rm -rf "$artifacts"
  mkdir -p "$artifacts"
  log="$work/$t.log"
  if [ -n "${TCPU_FUZZ_SEED:-}" ]; then
    echo "== fuzz_$t: $((seconds * $(inputs_per_second "$t"))) inputs from seed $TCPU_FUZZ_SEED" \
      "(at most $((2 * seconds)) s) over $(ls "$corpus" | wc -l) seeds"
  else
    echo "== fuzz_$t: ${seconds} s over $(ls "$corpus" | wc -l) seeds"
  fi
  if [ -n "${TCPU_FUZZ_SEED:-}" ]; then
    bound=(-seed="$TCPU_FUZZ_SEED" -runs="$((seconds * $(inputs_per_second "$t")))"
      -max_total_time="$((2 * seconds))")
  else
    bound=(-max_total_time="$seconds")
  fi
  status=0
  # In a private directory (temporary files of the module loader included), so that nothing
  # is written elsewhere.
  # -detect_leaks=0 stops libFuzzer's checks after each input; LeakSanitizer's own check at
  # exit is stopped by ASAN_OPTIONS (it would report every aborted compile of the whole run).
  (cd "$work/tmp/$t" && TMPDIR="$work/tmp/$t" \
    ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=$(fuzz_leaks "$t")" "$build/tests/fuzz/fuzz_$t" \
    "${bound[@]}" -max_len="$(max_len "$t")" -timeout="$(unit_timeout "$t")" \
    -rss_limit_mb=4096 -print_final_stats=1 -detect_leaks="$(fuzz_leaks "$t")" \
    -artifact_prefix="$artifacts/" "$corpus") >"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ] && [ "$leaks_supported" = 1 ] && [ "$(fuzz_leaks "$t")" = 0 ]; then
    inputs=()
    for f in "$root/tests/fuzz/corpus/$t"/* "$root/tests/fuzz/regressions/$t"/*; do
      case "$f" in *llvm_fatal_error* | *'*') ;; *) inputs+=("$f") ;; esac
    done
    echo "   leak check over ${#inputs[@]} seeds and regression inputs"
    (cd "$work/tmp/$t" && TMPDIR="$work/tmp/$t" "$build/tests/fuzz/fuzz_$t" -detect_leaks=1 \
      "${inputs[@]}") >"$work/$t.leaks.log" 2>&1 || status=$?
    cat "$work/$t.leaks.log" >>"$log"
  fi
  final="$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)"
  cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$final")"
  ft="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$final")"
  execs="$(sed -nE 's/^stat::number_of_executed_units: +([0-9]+)/\1/p' "$log" | tail -n 1)"
  rate="$(sed -nE 's/^stat::average_exec_per_sec: +([0-9]+)/\1/p' "$log" | tail -n 1)"
  rss="$(sed -nE 's/^stat::peak_rss_mb: +([0-9]+)/\1/p' "$log" | tail -n 1)"
  line="$(printf '%-13s %10s execs %8s exec/s  cov: %-6s ft: %-6s peak rss: %s MB' "$t" \
    "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${rss:-?}")"
  if [ "$status" -ne 0 ]; then
    reproducer="$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -n 1)"
    cp "$log" "$artifacts/fuzz.log"
    grep -E 'ERROR: |SUMMARY: |fuzz invariant failed|runtime error|ALARM|out-of-memory' "$log" |
      head -n 5 | sed 's/^/   /' || true
    echo "   FAILED (exit $status); reproducer: ${reproducer:-none written}; log: $artifacts/fuzz.log"
    line+="  FAILED: ${reproducer:-see $artifacts/fuzz.log}"
    failed+=("$t")
  else
    rmdir "$artifacts" 2>/dev/null || true
  fi
  if [ -n "${TCPU_FUZZ_SEED:-}" ] && [ "${execs:-0}" -lt "$((seconds * $(inputs_per_second "$t")))" ]; then
    line+="  (stopped at the time limit: fewer inputs than asked, not reproducible)"
  fi
  echo "   $line"
  summary+=("$line")
  if [ -n "${TCPU_FUZZ_KEEP_CORPUS:-}" ]; then
    mkdir -p "$TCPU_FUZZ_KEEP_CORPUS/$t"
    cp -R "$corpus/." "$TCPU_FUZZ_KEEP_CORPUS/$t/"
  fi
done
fuzz_seconds=$(($(date +%s) - start_fuzz))

echo
echo "run-fuzzers: build ${build_seconds} s, fuzzing ${fuzz_seconds} s (${seconds} s x ${#targets[@]} targets)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-fuzzers: FAILED: ${failed[*]} (reproducers under $build/fuzz-artifacts/)" >&2
  exit 1
fi
echo "run-fuzzers: no crash, leak or timeout"
