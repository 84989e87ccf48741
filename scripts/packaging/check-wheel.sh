#!/usr/bin/env bash
# Checks that tcpu's wheel (scripts/packaging/build-wheel.sh) runs where LLVM and no compiler are
# installed: in a clean Debian 12 root made with debootstrap (minbase, python3 and python3-venv
# only), a virtual environment gets PyPI's torch (CPU build), numpy and pytest, pinned as in
# scripts/venv-requirements.txt, and the wheel; there every ELF file of the package must find its
# libraries (ldd), the `tcpu` command must compile and run a C++ kernel, and a Triton project's
# tests (examples/pytest_project) must pass under `pytest -p tcpu.pytest_plugin`.
#   scripts/packaging/check-wheel.sh [WHEEL]   (default: build it with build-wheel.sh, beside this)
# Root only (debootstrap, chroot, mounts). The Debian root with the environment installed is kept
# in the cache directory (TCPU_CI_CACHE, default ~/.cache/tcpu-ci), keyed by the pins, so that a
# later run only copies it and installs the wheel; the first run downloads Debian's packages
# (TCPU_DEBIAN_MIRROR, default deb.debian.org) and pip's (pip's own configuration: torch must be
# pinned to a CPU build there).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ "$(uname -s)/$(uname -m)" != Linux/x86_64 ] || [ "$(id -u)" != 0 ]; then
  echo "check-wheel: needs root on Linux x86-64 (debootstrap, chroot)" >&2
  exit 1
fi
cache="${TCPU_CI_CACHE:-$HOME/.cache/tcpu-ci}"
mirror="${TCPU_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
host_python="$("$here/scripts/find-python.sh")"
start=$SECONDS
say() { echo "check-wheel: $* ($((SECONDS - start)) s)"; }

wheel="${1:-}"
if [ -z "$wheel" ]; then
  "$here/scripts/packaging/build-wheel.sh" "$host_python" "$here/dist"
  wheel="$(ls -t "$here"/dist/tcpu-*.whl | head -n1)"
  say "built $wheel"
fi
wheel="$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")"

# What the environment holds besides the wheel: the pins of scripts/venv-requirements.txt.
pins=()
for name in torch numpy pytest; do
  pins+=("$(grep -E "^$name==" "$here/scripts/venv-requirements.txt")")
done
key="$(printf '%s\n' bookworm minbase python3 python3-venv "${pins[@]}" | sha256sum | cut -c1-12)"
cached_root="$cache/debian12-root-$key"
wheelhouse="$cache/wheelhouse-$key"

# A chroot's kernel file systems: /proc and a /dev/shm of its own (debootstrap made the device
# nodes; the host's /dev is not bound in, so nothing mounted here can reach it).
mounted=()
mount_in() {
  local root="$1"
  mount -t proc proc "$root/proc" && mounted+=("$root/proc")
  mount -t tmpfs -o size=1g tmpfs "$root/dev/shm" && mounted+=("$root/dev/shm")
}
unmount_all() {
  local index
  for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do umount "${mounted[index]}" || true; done
  mounted=()
}
run_dir=""
cleanup() {
  unmount_all
  [ -n "$run_dir" ] && rm -rf "$run_dir"
  return 0
}
trap cleanup EXIT
in_root() { # in_root ROOT COMMAND...: runs COMMAND in the chroot with a plain environment
  local root="$1"
  shift
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/venv/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 "$@"
}

if [ ! -f "$cached_root/.complete" ]; then
  rm -rf "$cached_root" "$wheelhouse"
  mkdir -p "$cache"
  say "making $cached_root (debootstrap --variant=minbase bookworm, python3 python3-venv)"
  debootstrap --variant=minbase --include=python3,python3-venv bookworm "$cached_root" \
    "$mirror" >"$cache/debootstrap-$key.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap-$key.log" >&2; exit 1; }
  apt-get -o "Dir=$cached_root" clean 2>/dev/null || rm -f "$cached_root"/var/cache/apt/archives/*.deb
  say "debootstrap done"
  # pip's downloads on the host (its configuration knows where the CPU build of torch is), then
  # installed in the root without an index.
  "$host_python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --dest "$wheelhouse" "${pins[@]}" 2>&1 | { grep -v "^WARNING: Location '.*' is ignored" || true; }
  say "pip download done ($(du -sh "$wheelhouse" | cut -f1))"
  mkdir -p "$cached_root/wheelhouse"
  cp "$wheelhouse"/*.whl "$cached_root/wheelhouse/"
  mount_in "$cached_root"
  in_root "$cached_root" python3 -m venv /venv
  in_root "$cached_root" pip install --quiet --no-index --find-links /wheelhouse "${pins[@]}"
  unmount_all
  rm -rf "$cached_root/wheelhouse" "$cached_root/root/.cache"
  touch "$cached_root/.complete"
  say "environment installed ($(du -sh "$cached_root" | cut -f1))"
fi

# Each check in a fresh root: nothing of an earlier run's installation or kernel cache remains.
# An overlay over the cached root (its writes go to upper/), else a copy of it (1.2 GB).
run_dir="$(mktemp -d "$cache/run-XXXXXX")"
run_root="$run_dir/root"
mkdir -p "$run_dir/upper" "$run_dir/work" "$run_root"
if mount -t overlay overlay -o "lowerdir=$cached_root,upperdir=$run_dir/upper,workdir=$run_dir/work" \
  "$run_root" 2>/dev/null; then
  mounted+=("$run_root")
  say "overlay over the cached root"
else
  cp -a "$cached_root/." "$run_root/"
  say "copied the cached root"
fi
mkdir -p "$run_root/wheelhouse" "$run_root/project"
cp "$wheel" "$wheelhouse"/numpy-*.whl "$run_root/wheelhouse/"
cp "$here"/examples/pytest_project/*.py "$run_root/project/"
cp "$here"/kernels/tutorials/vector_add.cpp "$run_root/project/"
mount_in "$run_root"
install_start=$SECONDS
in_root "$run_root" pip install --quiet --no-index --find-links /wheelhouse "/wheelhouse/$(basename "$wheel")"
say "installed the wheel in $((SECONDS - install_start)) s"

cat >"$run_root/check.sh" <<'CHECK'
set -euo pipefail
# Nothing of LLVM, a compiler or the C library's headers is on this system.
for absent in /usr/lib/llvm-19 /usr/include/stdio.h /usr/include/c++ /usr/bin/clang /usr/bin/cc \
              /usr/bin/ld /usr/bin/ld.lld; do
  if [ -e "$absent" ]; then echo "$absent exists: not a clean root"; exit 1; fi
done
site="$(python -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
# Every ELF file of the package finds all its libraries here.
missing=0
while IFS= read -r -d '' file; do
  head -c4 "$file" | grep -q ELF || continue
  if ldd "$file" 2>&1 | grep -E "not found|No such file"; then echo "  in $file"; missing=1; fi
done < <(find "$site/tcpu" "$site"/tcpu.libs -type f \( -name '*.so*' -o -perm -u+x \) -print0)
[ "$missing" = 0 ]
echo "ldd: every library of the package's ELF files found"
ldd "$site"/tcpu/_tcpu.*.so | grep -v -E "tcpu\.libs|tcpu/lib|linux-vdso|ld-linux" | sed 's/ (0x.*//'
cd /project
export TCPU_CACHE_DIR=/tmp/tcpu-cache
tcpu --version
tcpu info | head -n 5
# A C++ kernel compiled by the in-process clang against the bundled headers, JIT'd and run.
tcpu run vector_add.cpp --kernel add_kernel --grid "(n_elements+1023)/1024,1,1" --arg arange:3000 \
  --arg full:3000:2 --arg zeros:3000 --arg 3000 --out-dir /tmp/out
python -c "import numpy as np; o = np.load('/tmp/out/output_ptr.npy'); assert (o == np.arange(3000) + 2).all(), o"
echo "tcpu run: vector_add correct"
python -m pytest -p tcpu.pytest_plugin -q -p no:cacheprovider
# The front end keeps each compiled kernel as a shared object that the bundled ld.lld linked.
linked="$(find "$TCPU_CACHE_DIR" -name '*.so' | wc -l)"
[ "$linked" -gt 0 ] || { echo "no shared object in the kernel cache: ld.lld did not link"; exit 1; }
echo "kernel cache: $linked shared objects linked by the bundled ld.lld"
CHECK
in_root "$run_root" bash /check.sh
say "passed: $(basename "$wheel") ($(du -h "$wheel" | cut -f1)) in a clean Debian 12 root"
