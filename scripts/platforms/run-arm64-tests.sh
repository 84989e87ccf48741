#!/usr/bin/env bash
# Linux on 64-bit Arm, emulated (docs/internals/platforms.md): cross-builds the runtime, tcpu-rt,
# the runtime tests and tl's host-compiled tests for aarch64-linux-gnu (clang-19, a sysroot of
# Debian's arm64 packages), compiles tutorial kernels ahead of time for an Arm CPU with the host's
# tcpu, and runs all of it under qemu-aarch64. The whole stack (codegen, the JIT, the tcpu tool) on
# Arm is scripts/platforms/run-arm64-stack-tests.sh.
#   scripts/platforms/run-arm64-tests.sh [HOST_BUILD_DIR [ARM64_BUILD_DIR]]   (default: build, build-arm64)
# HOST_BUILD_DIR holds a native build's tools/tcpu (scripts/build.sh makes one).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
host_build="$(cd "${1:-$root/build}" && pwd)"
build_dir="${2:-$root/build-arm64}"
for tool in qemu-aarch64 clang-19; do
  command -v "$tool" >/dev/null || { echo "run-arm64-tests: needs $tool (scripts/install-deps.sh)" >&2; exit 1; }
done
# The linker clang-19 runs for -fuse-ld=lld: its own ld.lld (Debian's lld-19 puts it in
# /usr/lib/llvm-19/bin, and only ld.lld-19 on PATH).
[ -x "$(clang-19 -print-prog-name=ld.lld)" ] ||
  { echo "run-arm64-tests: clang-19 finds no ld.lld (lld-19; scripts/install-deps.sh)" >&2; exit 1; }
[ -x "$host_build/tools/tcpu" ] || { echo "run-arm64-tests: no $host_build/tools/tcpu: build it first" >&2; exit 1; }
start=$SECONDS
sysroot="$(bash "$root/scripts/platforms/arm64-sysroot.sh" "$build_dir")"
# Through ccache where it is installed: tl's host-compiled tests take minutes to compile.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DTCPU_SYSROOT="$sysroot" -DTCPU_RUNTIME_ONLY=ON ${launcher[@]+"${launcher[@]}"} \
  -DTCPU_EXECUTABLE="$host_build/tools/tcpu" -DTCPU_AOT_TARGET_CPU=neoverse-n1 >/dev/null
cmake --build "$build_dir"
# Left out under qemu-user, which emulates neither case (docs/internals/platforms.md says why):
# - a guest killed by SIGSEGV/SIGBUS reaches its parent as SIGABRT (qemu aborts), and so does
#   exit_group from a library initializer while threads run: the death tests that expect them;
# - GridLaunch.MoreThan2To32Programs: 2^32 empty programs, 3 minutes emulated (0.5 s native).
excluded='^(CrashReport\.(WildPointer|ProgramsRunInOneEntryCall|CanBeTurnedOff|FaultsAfterLaunchesNameTheLastKernels'
excluded+='|KernelsWhoseProgramsWaitRunInRunsOf16Programs|AChosenScheduleAppliesToKernelsWhoseProgramsWait'
excluded+='|KernelsOfAbiV1RunGuided)'
excluded+='|GuardedMemory\.(AWriteJustPastTheEnd|TheAlignmentPaddingIsNotCaught|AKernelRunningOffTheEnd|TheEnvironmentGuardsEveryAllocation)'
excluded+='|ErrorPathsDeathTest\.WithoutTheProbeTheLoaderEndsTheProcess|GridLaunch\.MoreThan2To32Programs)'
jobs="$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" -E "$excluded"
# tl::dot's register tiles on Arm are NEON's (vector FMAs by element: fmla vN.4s) and math
# calls SLEEF's AdvSIMD variants: checked in the AOT objects, so that a scalar fallback fails.
# (grep reads all of its input, not -q: under pipefail, -q's early exit would fail the pipe with
# the writer's SIGPIPE.)
aot_objects="$build_dir/tests/aot_cross"
matmul_object="$(find "$aot_objects" -name 'matmul_f32.*.o' | head -n 1)"
softmax_object="$(find "$aot_objects" -name 'softmax_1024.*.o' | head -n 1)"
llvm-objdump-19 -d "$matmul_object" | grep -E 'fmla[[:space:]]+v[0-9]+\.4s' >/dev/null ||
  { echo "run-arm64-tests: no NEON FMAs in $matmul_object (tl::dot)" >&2; exit 1; }
llvm-nm-19 "$softmax_object" | grep -E 'Sleef_[a-z0-9]+_u[0-9]+advsimd' >/dev/null ||
  { echo "run-arm64-tests: no SLEEF AdvSIMD call in $softmax_object" >&2; exit 1; }
# tcpu-rt, the runtime-only tool, runs on Arm too.
qemu-aarch64 -L "$sysroot" "$build_dir/tools/tcpu-rt" --help >/dev/null
echo "run-arm64-tests: passed in $((SECONDS - start)) s"
