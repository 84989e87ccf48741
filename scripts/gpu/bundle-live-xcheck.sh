#!/usr/bin/env bash
# Packs xcheck_goldens_test, the shared libraries it loads (LLVM, clang, SLEEF, OpenMP and
# theirs; not glibc or libstdc++, which a newer host has) and the tutorial bitcode, so that the
# live CPU-vs-GPU half of the suite can run on a GPU host that has no LLVM 19 (the lent device
# machine). The device tool carries at most 64 MiB, so libLLVM goes in a tarball of its own:
#
#   scripts/gpu/bundle-live-xcheck.sh build-clang      # writes .gpurun-a/ and .gpurun/
#   run 1, carrying .gpurun-a:  mkdir -p build-live && tar xJf .gpurun-a/llvm.tar.xz -C build-live
#   run 2, carrying .gpurun:    tar xJf .gpurun/live.tar.xz -C build-live &&
#     mkdir -p build-clang/kernels && ln -sfn $PWD/build-live/tutorials build-clang/kernels/tutorials &&
#     LD_LIBRARY_PATH=$PWD/build-live/lib build-live/bin/xcheck_goldens_test
#
# (build-live/ survives between runs of one lease; the test finds the cases, goldens and bitcode
# at the paths it was built with, so the checkout must sit where it does here.)
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR}
test_binary=$build/tests/xcheck/xcheck_goldens_test
[[ -x $test_binary ]] || { echo "$0: $test_binary is not built" >&2; exit 2; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/tutorials" .gpurun .gpurun-a
cp "$test_binary" "$stage/bin/"
ldd "$test_binary" | awk '/=> \// {print $3}' |
  grep -vE '/(libc|libm|libstdc\+\+|libgcc_s)\.so' | xargs -I{} cp -L {} "$stage/lib/"
cp "$build"/kernels/tutorials/*.bc "$stage/tutorials/"
tar cf - -C "$stage" lib/libLLVM.so.19.1 | xz -T0 -7 >.gpurun-a/llvm.tar.xz
tar cf - -C "$stage" --exclude lib/libLLVM.so.19.1 bin lib tutorials | xz -T0 -7 >.gpurun/live.tar.xz
ls -l .gpurun-a/llvm.tar.xz .gpurun/live.tar.xz
