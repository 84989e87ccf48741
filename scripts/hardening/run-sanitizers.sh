#!/usr/bin/env bash
# Builds and tests tcpu under the sanitizers (clang-19), each in a build directory of its own:
#   asan  build-asan: everything but benchmarks, examples and the Python extension, with
#         AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer; runs the whole ctest
#         suite but for most recorded-golden cross-checks (see asan_stage).
#   tsan  build-tsan: libtcpu_runtime and its tests (tests/runtime: streams, grid launches over
#         OpenMP, settings, linked kernels, error paths, ...) with ThreadSanitizer; runs them
#         with Archer, LLVM's OMPT tool that tells TSan about OpenMP's synchronization.
# Any finding fails the stage, in a test process or in one it starts (the tcpu tool, C programs
# built by the tool tests): reports go to files under <build>/sanitizer-reports/ and are printed.
# tests/sanitizers/README.md says what is checked, what is not, and why.
#
#   scripts/hardening/run-sanitizers.sh [asan] [tsan]          # default: both
#
# Environment: TCPU_SANITIZER_JOBS (ninja -j and ctest --parallel, default: all cores),
# TCPU_ASAN_BUILD_DIR (default build-asan), TCPU_TSAN_BUILD_DIR (default build-tsan),
# TCPU_ASAN_FUZZERS=1 (the asan build also builds the libFuzzer targets, its code instrumented for
# them as scripts/hardening/run-fuzzers.sh would: that script then runs them from there with
# TCPU_FUZZ_BUILD_DIR=<asan build> TCPU_FUZZ_REUSE_BUILD=1; one build instead of two in CI).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jobs="${TCPU_SANITIZER_JOBS:-$( (command -v nproc >/dev/null && nproc) || sysctl -n hw.ncpu)}"
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(asan tsan)
for stage in "${stages[@]}"; do
  case "$stage" in asan | tsan) ;; *)
    echo "run-sanitizers: unknown stage '$stage' (stages: asan tsan)" >&2
    exit 2 ;;
  esac
done
if [ "$(uname -s)" != Linux ]; then
  # Archer, LSan and the Debian paths below are Linux's; macOS runs the plain suites only.
  echo "run-sanitizers: Linux only; skipped on $(uname -s)"
  exit 0
fi

# The tools of scripts/install-deps.sh plus clang's sanitizer runtimes (libclang-rt-19-dev).
"$root/scripts/install-deps.sh"
clangc="$(command -v clang-19 || true)"
clangxx="$(command -v clang++-19 || true)"
if [ -z "$clangxx" ] || [ -z "$clangc" ]; then
  echo "run-sanitizers: clang-19 not found" >&2
  exit 1
fi
llvm_lib="$("$clangxx" -print-resource-dir)/../.." # /usr/lib/llvm-19/lib/clang/19 -> lib
llvm_lib="$(cd "$llvm_lib" && pwd)"
links_with() {
  echo 'int main() { return 0; }' | "$clangxx" "-fsanitize=$1" -x c++ - -o "$probe" 2>/dev/null
}
probe="$(mktemp "${TMPDIR:-/tmp}/tcpu-sanitizer-probe.XXXXXX")"
trap 'rm -f "$probe"' EXIT
if ! links_with address,undefined || ! links_with thread; then
  echo "run-sanitizers: installing libclang-rt-19-dev (the sanitizer runtimes)"
  if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo); fi
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends libclang-rt-19-dev
  if ! links_with address,undefined || ! links_with thread; then
    echo "run-sanitizers: $clangxx cannot link -fsanitize=address,undefined / thread" >&2
    exit 1
  fi
fi
symbolizer="$llvm_lib/../bin/llvm-symbolizer"
[ -x "$symbolizer" ] || symbolizer="$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || true)"

# Configures <build> with the sanitizer flags <flags> (C++; compile and link) and <c_flags> (C),
# -O1 with line tables: fast enough to run everything, and stacks with file:line.
configure() {
  local build="$1" flags="$2" c_flags="$3"
  shift 3
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$clangc" -DCMAKE_CXX_COMPILER="$clangxx" \
    "-DCMAKE_C_FLAGS=$c_flags" "-DCMAKE_CXX_FLAGS=$flags" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" \
    "-DCMAKE_MODULE_LINKER_FLAGS=$flags" \
    -DTCPU_BUILD_TESTS=ON -DTCPU_BUILD_BENCHMARKS=OFF -DTCPU_BUILD_EXAMPLES=OFF "$@" >/dev/null
}

# Fails, printing them, when sanitizer reports were written under $1.
check_reports() {
  local reports="$1" name="$2"
  local found
  found="$(find "$reports" -type f 2>/dev/null | sort)"
  [ -z "$found" ] && return 0
  echo "run-sanitizers: $name reported (files under $reports):" >&2
  while IFS= read -r report; do
    echo "---- $report" >&2
    cat "$report" >&2
  done <<<"$found"
  return 1
}

summary=()

asan_stage() {
  local build="${TCPU_ASAN_BUILD_DIR:-$root/build-asan}"
  local start=$SECONDS
  echo "== sanitizers: AddressSanitizer + UndefinedBehaviorSanitizer, whole test suite ($build)"
  # -fno-sanitize=function: that check reads a type signature from the 8 bytes before the target
  # of each indirect call. Kernel entries are JIT'd or AOT code (never instrumented, so never
  # checked) and the JIT can place one at the start of a mapping: the read faults (a SEGV in
  # runRange, grid_runner.cpp, calling launch.entry). The other UBSan checks stay on.
  local flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-sanitize=function"
  flags+=" -fno-omit-frame-pointer"
  # The C flags, also used by the tool tests for the C programs they build against
  # libtcpu_runtime.so (TCPU_C_COMPILER): that library refers to UBSan's C++ (vptr) handlers,
  # which the C driver leaves out; -fsanitize-link-c++-runtime links them, and they need
  # libstdc++ (named on the link line, kept even under --as-needed). The tests build with
  # -Werror, and a compile-only step would warn that the linker flags go unused.
  local c_flags="$flags -fsanitize-link-c++-runtime"
  c_flags+=" -Wl,--push-state,--no-as-needed,-lstdc++,--pop-state -Wno-unused-command-line-argument"
  # (set -e does not reach into a function called in a condition: every step checks.)
  # No Python extension: no test of this suite loads it (the Python tests run on the clang
  # build), and it is the slowest thing to compile under ASan after codegen.
  local fuzzers=()
  if [ "${TCPU_ASAN_FUZZERS:-0}" = 1 ]; then
    # Coverage for libFuzzer in the C++ code (the C programs of the tool tests go without: the
    # ASan runtime's no-op hooks serve the test runs).
    flags+=" -fsanitize=fuzzer-no-link"
    fuzzers=(-DTCPU_BUILD_FUZZERS=ON)
  fi
  configure "$build" "$flags" "$c_flags" -DTCPU_BUILD_PYTHON=OFF "${fuzzers[@]}" || return 1
  ninja -C "$build" -j "$jobs" || return 1
  local built=$SECONDS
  local reports="$build/sanitizer-reports"
  rm -rf "$reports"
  mkdir -p "$reports"
  # Any finding ends the process with a report and a failing status (halt_on_error, and
  # -fno-sanitize-recover=undefined at compile time); leaks are findings (detect_leaks).
  # Reports go to files, so that findings in processes the tests start count too.
  # check_initialization_order/strict_init_order: static initializers reading uninitialized
  # globals of other files. detect_stack_use_after_return: locals used after their function
  # returned (fake stacks). strict_string_checks: str* functions reading past the terminator.
  local asan="detect_leaks=1:halt_on_error=1:abort_on_error=0:symbolize=1"
  asan+=":check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1"
  asan+=":strict_string_checks=1:log_path=$reports/report"
  # use_sigaltstack=0: codegen compiles on threads of its own, and LLVM (its signal handlers,
  # registered when clang runs there) replaces a thread's small alternate signal stack by a
  # larger one it allocates; at the thread's exit ASan then tries to unmap that stack as its
  # own and dies ("failed to deallocate ... UnsetAlternateSignalStack", EINVAL). Without it ASan
  # leaves the alternate stack to LLVM; what is lost is ASan's report of a stack overflow.
  asan+=":use_sigaltstack=0"
  local ubsan="halt_on_error=1:print_stacktrace=1:report_error_type=1:symbolize=1"
  ubsan+=":log_path=$reports/report"
  local status=0
  (
    export ASAN_OPTIONS="$asan" UBSAN_OPTIONS="$ubsan" LSAN_OPTIONS="report_objects=1"
    [ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"
    # Compiled kernels go to a cache of this build's own, filled afresh.
    export TCPU_CACHE_DIR="$build/kernel-cache"
    rm -rf "$TCPU_CACHE_DIR"
    # The recorded-golden cross-checks (one per reference kernel) all drive the same host code
    # (the .npy reader, the launch, the comparison); what differs between them is JIT'd kernel
    # code, which is not instrumented. Three of them (fp32, fp16, a reduction) run here, all of
    # them on the clang build: the stage's tests took 308 s instead of 359 (a fresh clone, 2 cores).
    local golden_cases
    golden_cases="$(ctest --test-dir "$build" -N -L xcheck |
      sed -nE 's@.*: (ReferenceKernels/XcheckCase[.]CpuMatchesTheGpuGoldens/[a-z0-9_]+).*@\1@p' |
      grep -vE '/(vector_add|softmax_1024|matmul_f16)$' | paste -sd'|' -)" || exit 1
    ctest --test-dir "$build" --output-on-failure --parallel "$jobs" \
      ${golden_cases:+-E "^(${golden_cases})( |\$)"}
  ) || status=$?
  check_reports "$reports" "AddressSanitizer/UndefinedBehaviorSanitizer" || status=1
  summary+=("asan+ubsan: build $((built - start)) s, tests $((SECONDS - built)) s, status $status")
  return "$status"
}

tsan_stage() {
  local build="${TCPU_TSAN_BUILD_DIR:-$root/build-tsan}"
  local start=$SECONDS
  local archer="$llvm_lib/libarcher.so"
  echo "== sanitizers: ThreadSanitizer with Archer, runtime tests ($build)"
  [ -f "$archer" ] || { echo "run-sanitizers: $archer not found (libomp-19-dev)" >&2; return 1; }
  configure "$build" "-fsanitize=thread -fno-omit-frame-pointer" "-fsanitize=thread -fno-omit-frame-pointer" ||
    return 1
  # The runtime, its kernel modules and its tests (label "runtime"); nothing with LLVM in it.
  local targets
  targets="$(ninja -C "$build" -t targets all |
    sed -nE 's/^(runtime_[a-z_]+_test|tcpu_test_[a-z_]*kernels): .*/\1/p' | sort -u)" || return 1
  # shellcheck disable=SC2086  # one target a word
  ninja -C "$build" -j "$jobs" $targets || return 1
  local built=$SECONDS
  local reports="$build/sanitizer-reports"
  rm -rf "$reports"
  mkdir -p "$reports"
  # ignore_noninstrumented_modules: libomp (and libstdc++) are not instrumented; their memory
  # accesses made through TSan's interceptors are not checked, their synchronization still is.
  # Archer's documentation asks for it; Archer supplies OpenMP's synchronization instead.
  local tsan="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:symbolize=1"
  tsan+=":log_path=$reports/tsan"
  local status=0
  (
    export TSAN_OPTIONS="$tsan" OMP_TOOL_LIBRARIES="$archer"
    [ -n "$symbolizer" ] && export TSAN_SYMBOLIZER_PATH="$symbolizer"
    # Controls (tests/sanitizers/openmp_canary.cpp): Archer attaches (verbose=1 says so), a
    # race-free OpenMP program gives no report, and a race inside an OpenMP region is found.
    local canary="$build/openmp_canary" out
    "$clangxx" -fopenmp -fsanitize=thread -O1 -g "$root/tests/sanitizers/openmp_canary.cpp" \
      -o "$canary"
    out="$(TSAN_OPTIONS="${tsan%%:log_path=*}" ARCHER_OPTIONS=verbose=1 "$canary" 2>&1)" || {
      echo "run-sanitizers: the race-free OpenMP control failed under TSan:" >&2
      echo "$out" >&2
      exit 1
    }
    if ! grep -q "Archer detected OpenMP application with TSan" <<<"$out"; then
      echo "run-sanitizers: Archer did not attach to the OpenMP runtime:" >&2
      echo "$out" >&2
      exit 1
    fi
    if out="$(TSAN_OPTIONS="${tsan%%:log_path=*}" "$canary" race 2>&1)" ||
      ! grep -q "WARNING: ThreadSanitizer: data race" <<<"$out"; then
      echo "run-sanitizers: TSan missed the race of the OpenMP control:" >&2
      echo "$out" >&2
      exit 1
    fi
    echo "== sanitizers: controls: Archer attached, no report without a race, the race found"
    ctest --test-dir "$build" -L runtime --output-on-failure --parallel "$jobs"
  ) || status=$?
  check_reports "$reports" "ThreadSanitizer" || status=1
  summary+=("tsan: build $((built - start)) s, tests $((SECONDS - built)) s, status $status")
  return "$status"
}

failed=()
for stage in "${stages[@]}"; do
  "${stage}_stage" || failed+=("$stage")
done
echo
echo "run-sanitizers:"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-sanitizers: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "run-sanitizers: no findings"
