#!/usr/bin/env bash
# Builds bench/aot/aot_bench (the tutorial matmul in three fp32 instantiations and one bf16,
# softmax and layer norm backward, compiled ahead of time for the CPU named, with the libraries it loads: tcpu's runtime,
# SLEEF, OpenMP) into .gpurun-a/, to time tcpu's code on a machine that has no LLVM 19 (the lent GPU host's
# CPU), beside PyTorch:
#
#   scripts/gpu/bundle-aot-bench.sh build-clang emeraldrapids
#   run, carrying .gpurun-a:  cd .gpurun-a && LD_LIBRARY_PATH=. ./aot_bench 21 &&
#                             python3 torch_baseline.py
#   or, matmul beside torch.mm in one process:
#                             cd .gpurun-a && LD_LIBRARY_PATH=. TCPU_NUM_THREADS=1 \
#                             python3 paired_matmul.py 1 9 2048
#
# BASELINE_TCPU=path/to/another/build/tools/tcpu adds matmul_f32_large as that build compiles it
# (matmul_large_baseline, from that tree's matmul.cpp and tl), so that paired_matmul.py times a
# change against the code before it in one process.
set -euo pipefail
build="$(cd "${1:?usage: $0 BUILD_DIR CPU}" && pwd)"
cpu=${2:?usage: $0 BUILD_DIR CPU}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tcpu=$build/tools/tcpu
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
(
  cd "$stage"
  # matmul KERNEL OUT_NAME BLOCK: an fp32 instantiation with BLOCK x BLOCK tiles of C.
  signature='*fp32:16, *fp32:16, *fp32:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1'
  matmul() {
    "$tcpu" compile "$here/kernels/tutorials/matmul.cpp" --kernel-name "$1" --out-name "$2" \
      --signature "$signature" --grid "((M+$3-1)/$3)*((N+$3-1)/$3),1,1" --target "$cpu" >/dev/null
  }
  matmul matmul_f32 matmul 64
  matmul matmul_f32_large matmul_large 128
  matmul matmul_f32_wrap matmul_wrap 64
  matmul_objects=(matmul.*.h matmul_large.*.h matmul_wrap.*.h)
  if [ -n "${BASELINE_TCPU:-}" ]; then
    baseline_source="$(cd "$(dirname "$BASELINE_TCPU")/../.." && git rev-parse --show-toplevel)"
    "$BASELINE_TCPU" compile "$baseline_source/kernels/tutorials/matmul.cpp" \
      --kernel-name matmul_f32_large --out-name matmul_large_baseline --signature "$signature" \
      --grid "((M+127)/128)*((N+127)/128),1,1" --target "$cpu" >/dev/null
    matmul_objects+=(matmul_large_baseline.*.h)
  fi
  "$tcpu" compile "$here/kernels/tutorials/softmax.cpp" --kernel-name softmax_1024 \
    --out-name softmax --signature '*fp32:16, *fp32:16, i32, i32, i32, i32' --grid 'n_rows,1,1' \
    --target "$cpu" >/dev/null
  # bf16 A and B, fp32 C (AMX or AVX512-BF16 where the CPU has them: tl/dot_bf16.h).
  "$tcpu" compile "$here/kernels/tutorials/matmul.cpp" --kernel-name matmul_bf16_f32out \
    --out-name matmul_bf16 --signature "${signature/\*fp32:16, \*fp32:16/*bf16:16, *bf16:16}" \
    --grid '((M+127)/128)*((N+127)/128),1,1' --target "$cpu" >/dev/null
  # Layer norm backward, 4096 rows of 1024 columns: dX with the locked partial dW/dB rows, then
  # their reduction (as kernels/layer_norm_bwd in tcpu_bench).
  "$tcpu" compile "$here/kernels/tutorials/layer_norm.cpp" --kernel-name layer_norm_bwd_dx_f32_1024 \
    --out-name layer_norm_dx --target "$cpu" --grid '4096,1,1' --signature \
    '*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, i32, i32' \
    >/dev/null
  "$tcpu" compile "$here/kernels/tutorials/layer_norm.cpp" --kernel-name layer_norm_bwd_dwdb_f32 \
    --out-name layer_norm_dwdb --target "$cpu" --grid '(N+127)/128,1,1' \
    --signature '*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32' >/dev/null
  "$tcpu" link layer_norm_dx.*.h -o layer_norm_dx_kernels
  "$tcpu" link layer_norm_dwdb.*.h -o layer_norm_dwdb_kernels
  "$tcpu" link "${matmul_objects[@]}" -o matmul_kernels
  "$tcpu" link matmul_bf16.*.h -o matmul_bf16_kernels
  "$tcpu" link softmax.*.h -o softmax_kernels
)
rm -rf .gpurun-a && mkdir -p .gpurun-a
clang-19 -O2 -c -I"$here/runtime/include" -I"$stage" "$stage"/matmul_kernels.c \
  "$stage"/matmul_bf16_kernels.c "$stage"/softmax_kernels.c "$stage"/layer_norm_dx_kernels.c \
  "$stage"/layer_norm_dwdb_kernels.c
mv matmul_kernels.o matmul_bf16_kernels.o softmax_kernels.o layer_norm_dx_kernels.o \
  layer_norm_dwdb_kernels.o "$stage/"
clang++-19 -O2 -std=c++20 -I"$here/runtime/include" -I"$stage" "$here/bench/aot/aot_bench.cpp" \
  "$stage"/*.o -L"$build/runtime" -ltcpu_runtime -lsleef -Wl,-rpath,'$ORIGIN' -o .gpurun-a/aot_bench
LD_LIBRARY_PATH="$build/runtime" ldd .gpurun-a/aot_bench | awk '/=> \// {print $3}' |
  grep -E '/lib(tcpu_runtime|sleef|omp)\.so' | xargs -I{} cp -L {} .gpurun-a/
# The matmul launchers as a shared library, for bench/aot/paired_matmul.py (torch.mm in the same
# process), with one thread's FMA peak where the CPU named has AVX-512.
peak=()
if clang-19 -O2 -march="$cpu" -fPIC -c "$here/bench/aot/fma_peak.c" -o "$stage/fma_peak.o" \
  2>/dev/null; then
  peak=("$stage/fma_peak.o")
fi
clang-19 -O2 -shared -fPIC -I"$here/runtime/include" -I"$stage" "$stage/matmul_kernels.c" \
  "$stage"/matmul.*.o "$stage"/matmul_large*.o "$stage"/matmul_wrap.*.o "${peak[@]}" \
  -L"$build/runtime" -ltcpu_runtime -Wl,-rpath,'$ORIGIN' -o .gpurun-a/libaot_kernels.so
# The same loop nest with libxsmm's micro-kernel, where Debian's libxsmm-dev (a static library)
# is installed: the comparison issue 19 asked for.
if [ -f /usr/lib/libxsmm.a ]; then
  clang-19 -O2 -shared -fPIC -fopenmp=libomp "$here/bench/aot/xsmm_nest.c" -Wl,--whole-archive \
    /usr/lib/libxsmm.a -Wl,--no-whole-archive /usr/lib/libxsmmnoblas.a -lm -ldl -lpthread \
    -o .gpurun-a/libxsmm_nest.so
else
  echo "bundle-aot-bench: no /usr/lib/libxsmm.a (Debian's libxsmm-dev): no xsmm_nest" >&2
fi
cp "$here/bench/aot/torch_baseline.py" "$here/bench/aot/paired_matmul.py" .gpurun-a/
ls -l .gpurun-a
