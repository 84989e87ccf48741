#!/usr/bin/env bash
# An arm64 (aarch64-linux-gnu) sysroot for the cross build, unpacked from Debian 12's own arm64
# packages into DIR/sysroot; prints its path. The system is left as it is: apt runs with a
# private state directory (DIR/apt) that knows only arm64, instead of
# `dpkg --add-architecture arm64`, which would change what the machine's apt installs.
# Idempotent: the packages are fetched once, and a finished sysroot is not touched again.
#   scripts/platforms/arm64-sysroot.sh DIR [full]
# Without `full`: what the runtime-only build links and runs with (listed one by one, about
# 12 MB). With `full`: also Debian's arm64 LLVM 19, clang, lld, compiler-rt, Python 3 with numpy,
# PyTorch 1.13 and pytest, with everything they depend on (apt resolves it: about 465 packages,
# 390 MB), for the whole stack, Python front end included, cross-built and run under
# qemu-aarch64 -L.
set -euo pipefail
build_dir="$(mkdir -p "${1:?usage: arm64-sysroot.sh DIR [full]}" && cd "$1" && pwd)"
mode="${2:-runtime}"
sysroot="$build_dir/sysroot"
apt_dir="$build_dir/apt"

# libc and libstdc++ to link against and run with, libomp for the runtime's grid, SLEEF for the
# AOT kernels' math, GoogleTest for the runtime tests. Their versions are the host's (same suite).
packages=(
  libc6 libc6-dev linux-libc-dev libcrypt1 libcrypt-dev libgcc-s1 libgcc-12-dev libatomic1
  libstdc++6 libstdc++-12-dev libomp5-19 libomp-19-dev libsleef3 libsleef-dev
  libgtest-dev libgmock-dev
)
# The whole stack: codegen links LLVM and clang; its JIT links kernels with compiler-rt's
# builtins; the Python package runs on python3, numpy and torch (the tutorials' tensors).
full_packages=(
  llvm-19-dev libclang-cpp19-dev libclang-19-dev libclang-common-19-dev libclang-rt-19-dev
  clang-19 lld-19 zlib1g-dev libzstd-dev python3 python3-dev python3-numpy python3-pytest
  pybind11-dev python3-torch
)
case "$mode" in
  runtime) ;;
  full) packages+=("${full_packages[@]}") ;;
  *) echo "arm64-sysroot: unknown mode '$mode' (expected full or nothing)" >&2; exit 2 ;;
esac
# The stamp names the package list: a changed list builds the sysroot again.
stamp="$sysroot/.tcpu-sysroot-$(printf '%s\n' "${packages[@]}" | sha256sum | cut -c1-16)"
if [ -e "$stamp" ]; then
  echo "$sysroot"
  exit 0
fi

mkdir -p "$apt_dir"/{lists/partial,archives/partial,debs/partial,etc/sources.list.d,etc/preferences.d}
: >"$apt_dir/status" # no packages "installed": apt resolves nothing against the host's
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$apt_dir/etc/sources.list" <<EOF
deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian bookworm main
deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian bookworm-updates main
deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main
EOF
apt_options=(
  -o APT::Architecture=arm64 -o APT::Architectures=arm64
  -o Dir::Etc::SourceList="$apt_dir/etc/sources.list"
  -o Dir::Etc::SourceParts="$apt_dir/etc/sources.list.d"
  -o Dir::Etc::Preferences="$apt_dir/etc/preferences"
  -o Dir::Etc::PreferencesParts="$apt_dir/etc/preferences.d"
  -o Dir::State::Lists="$apt_dir/lists" -o Dir::State::status="$apt_dir/status"
  -o Dir::Cache="$apt_dir" -o Dir::Cache::Archives="$apt_dir/archives"
  -o APT::Sandbox::User="$(id -un)" # apt's _apt user may not write under BUILD_DIR
)
# The lists only once: a second run downloads the packages it lacks from them.
if ! compgen -G "$apt_dir/lists/*_Packages*" >/dev/null; then
  echo "arm64-sysroot: fetching Debian's arm64 package lists into $apt_dir" >&2
  apt-get "${apt_options[@]}" -qq update >&2
fi
if [ "$mode" = full ]; then
  # Everything the packages depend on as well: apt resolves it against an empty system (the
  # private status file) and only downloads, into the same folder.
  echo "arm64-sysroot: downloading ${packages[*]} and what they depend on" >&2
  apt-get "${apt_options[@]}" -qq -o Dir::Cache::Archives="$apt_dir/debs" install --download-only \
    -y --no-install-recommends "${packages[@]}" >&2
else
  missing=()
  for p in "${packages[@]}"; do
    compgen -G "$apt_dir/debs/${p}_*_arm64.deb" >/dev/null || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "arm64-sysroot: downloading ${missing[*]}" >&2
    (cd "$apt_dir/debs" && apt-get "${apt_options[@]}" -qq download "${missing[@]}" >&2)
  fi
fi

rm -rf "$sysroot"
mkdir -p "$sysroot"
# Architecture-independent packages too: pytest, pybind11's headers and most of Python's
# libraries are `all`.
for deb in "$apt_dir"/debs/*_arm64.deb "$apt_dir"/debs/*_all.deb; do
  [ -e "$deb" ] || continue
  dpkg-deb -x "$deb" "$sysroot"
done
# Absolute links (libm.so -> /lib/aarch64-linux-gnu/libm.so.6) would point into the host: the
# linker then passes over them (to libm.a). Point them into the sysroot instead.
find "$sysroot" -type l -lname '/*' | while read -r link; do
  ln -sfn "$sysroot$(readlink "$link")" "$link"
done
# What maintainer scripts would have made: the BLAS and LAPACK that numpy and torch load
# (libblas.so.3) are links that update-alternatives writes, to the reference implementations
# here (libblas3, liblapack3; nothing configures a faster one).
multiarch="$sysroot/usr/lib/aarch64-linux-gnu"
for library in blas/libblas.so.3 lapack/liblapack.so.3; do
  if [ -e "$multiarch/$library" ]; then ln -sfn "$library" "$multiarch/$(basename "$library")"; fi
done
# The GPU offloading bitcode of libomp-19-dev is of no use here (and most of its size).
rm -f "$sysroot"/usr/lib/llvm-19/lib/libomptarget*
touch "$stamp"
echo "$sysroot"
