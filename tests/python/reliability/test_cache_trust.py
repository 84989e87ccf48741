"""The compile cache trusts nothing it did not check (docs/cache-guarantees.md): a directory
someone else may write to, a file of another user's, a truncated or garbled shared object, a whole
entry of another kernel under this one's key, a damaged precompiled header, a full or read-only
disk. Each is met by a compile in memory or a rebuild, with at most one warning, and the kernel's
result is right; `tcpu cache ls` flags what is damaged, and temporaries of killed writers go.

Each run is a fresh process over its own cache directory, as users' processes are."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from conftest import tcpu_cli

KERNEL = textwrap.dedent("""
    import sys
    import numpy as np
    import tcpu.triton as triton
    import tcpu.triton.language as tl

    @triton.jit
    def kernel(a, b, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(b + offs, tl.load(a + offs, mask=m) * {scale}, mask=m)

    a = np.arange(3000, dtype=np.float32)
    b = np.zeros_like(a)
    kernel[(3,)](a, b, 3000, BLOCK=1024)
    print(float(b[7]), "tcpu._tcpu" in sys.modules)
""")


def run(tmp_path: Path, cache: Path | None = None, scale: int = 2,
        preexec_fn: Callable[[], None] | None = None, **env_extra: str
        ) -> tuple[float, bool, str]:
    """Runs the kernel in a new process: (b[7], whether the compiler was loaded, stderr)."""
    script = tmp_path / f"kernel_{scale}.py"
    script.write_text(KERNEL.format(scale=scale))
    env = dict(os.environ, TCPU_CACHE_DIR=str(cache or tmp_path / "cache"),
               PYTHONDONTWRITEBYTECODE="1", **env_extra)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=300, preexec_fn=preexec_fn)
    assert out.returncode == 0, out.stderr
    assert "a bug in tcpu" not in out.stderr
    value, compiled = out.stdout.split()
    return float(value), compiled == "True", out.stderr


def variant_files(cache: Path, suffix: str) -> list[Path]:
    return sorted((cache / "python").glob(f"*/*{suffix}"))


def cache_ls(cache: Path) -> str:
    listed = subprocess.run([str(tcpu_cli()), "cache", "ls", "--dir", str(cache)],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    return listed.stdout


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tcpu: warning:")]


def test_a_cache_writable_by_others_is_refused_with_one_warning(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o777)
    value, compiled, stderr = run(tmp_path)
    assert (value, compiled) == (14.0, True)
    (warning,) = warnings_of(stderr)
    assert "writable by others" in warning and "compiled in memory" in warning
    assert not (cache / "python").exists()  # nothing written into it, nothing read from it


def test_files_of_another_user_are_not_loaded(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    cache = tmp_path / "cache"
    run(tmp_path)
    for path in variant_files(cache, ".so") + variant_files(cache, ".json"):
        os.chown(path, 12345, 12345)
    assert "belongs to another user" in cache_ls(cache)
    assert run(tmp_path)[:2] == (14.0, True)  # compiled again, and written anew as this user's
    assert all(p.stat().st_uid == os.geteuid() for p in variant_files(cache, ".so"))
    assert run(tmp_path)[:2] == (14.0, False)


@pytest.mark.parametrize("damage", ["truncate", "zero", "garble"])
def test_a_damaged_shared_object_is_flagged_and_compiled_again(tmp_path, damage):
    cache = tmp_path / "cache"
    run(tmp_path)
    (library,) = variant_files(cache, ".so")
    data = bytearray(library.read_bytes())
    if damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "zero":
        data = bytearray(len(data))
    else:
        data[len(data) // 3: len(data) // 3 + 64] = b"\xab" * 64
    library.write_bytes(bytes(data))
    assert "DAMAGED" in cache_ls(cache)
    assert run(tmp_path)[:2] == (14.0, True)  # before: SIGSEGV in dlopen (truncated)
    assert "DAMAGED" not in cache_ls(cache)
    assert run(tmp_path)[:2] == (14.0, False)


def test_an_entry_of_another_kernel_under_a_key_is_refused(tmp_path):
    """A whole, valid variant (its .so and .json) of kernel x3 copied over kernel x2's."""
    cache = tmp_path / "cache"
    run(tmp_path, scale=2)
    (mine,) = variant_files(cache, ".json")
    run(tmp_path, scale=3)
    (other,) = [p for p in variant_files(cache, ".json") if p.parent != mine.parent]
    for suffix in (".so", ".json"):
        shutil.copyfile(other.with_suffix(suffix), mine.parent / (other.stem + suffix))
    assert "not for where it is" in cache_ls(cache)
    assert run(tmp_path, scale=2)[:2] == (14.0, True)  # before: 21.0, kernel x3's result
    assert run(tmp_path, scale=2)[:2] == (14.0, False)


def test_a_damaged_precompiled_header_is_flagged_and_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, TCPU_PYTHON_CACHE="0")
    (pch,) = cache.glob("*.tcpupch")
    size = pch.stat().st_size
    with open(pch, "r+b") as f:
        f.truncate(size // 2)
    assert "DAMAGED" in cache_ls(cache)
    # A kernel not compiled before (codegen's object cache would spare it clang).
    assert run(tmp_path, scale=5, TCPU_PYTHON_CACHE="0")[0] == 35.0
    assert "DAMAGED" not in cache_ls(cache)
    assert pch.stat().st_size == size
    # Garbage inside the header that its structure does not show: clang fails or crashes on it;
    # the compile goes on without it and rebuilds it.
    with open(pch, "r+b") as f:
        f.seek(size // 2)
        f.write(b"\xff" * 4096)
    assert run(tmp_path, scale=7, TCPU_PYTHON_CACHE="0")[0] == 49.0
    assert run(tmp_path, scale=9, TCPU_PYTHON_CACHE="0")[0] == 63.0


@contextlib.contextmanager
def small_filesystem(path: Path, read_only: bool = False):
    """A 2 MiB tmpfs at `path`, filled up unless `read_only`: yields (the directory, None). Where
    no tmpfs can be mounted (not root), a full disk is stood in for by a file size limit
    (RLIMIT_FSIZE of 1 KiB: a write past it fails with EFBIG, as one on a full disk fails with
    ENOSPC): yields (a directory, the function that sets the limit in the child); read-only then
    skips."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o",
                              f"size=2m,mode=0700{',ro' if read_only else ''}", "tmpfs",
                              str(path)], capture_output=True)
    if mounted.returncode != 0 or os.environ.get("TCPU_TEST_NO_TMPFS"):
        if mounted.returncode == 0:
            subprocess.run(["umount", str(path)], check=True)
        if read_only:
            pytest.skip("no tmpfs can be mounted here (needs root)")
        yield path, _limit_file_size
        return
    try:
        if not read_only:
            with open(path / "filler", "wb") as f, contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
        yield path, None
    finally:
        subprocess.run(["umount", str(path)], check=True)


def _limit_file_size() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


@pytest.mark.parametrize("read_only", [False, True], ids=["disk-full", "read-only"])
def test_a_cache_that_cannot_be_written_costs_one_warning(tmp_path, read_only):
    with small_filesystem(tmp_path / "small", read_only) as (cache, limit):
        for _ in range(2):
            value, compiled, stderr = run(tmp_path, cache, preexec_fn=limit)
            assert (value, compiled) == (14.0, True)
            assert len(warnings_of(stderr)) <= 1, stderr
        assert not list(cache.rglob("*.tmp.*"))  # nothing half-written left behind


def test_temporaries_of_killed_writers_are_removed(tmp_path):
    """What a kill -9 leaves: clang's temporary of a precompiled header, the linker's input and
    log beside a shared object's temporary. `tcpu cache prune` removes them at once (their
    writers are gone), a compile once they are old enough."""
    cache = tmp_path / "cache"
    run(tmp_path)
    (library,) = variant_files(cache, ".so")
    dead = 2**22 + 12345  # above pid_max's default: no such process
    key = "f" * 64
    left = [cache / f"{key}.tmp.{dead}.0.123-AbC9xYz1", cache / f"{key}.tmp.{dead}.1.5",
            library.parent / f"{library.name}.tmp.{dead}.0.77.o",
            library.parent / f"{library.name}.tmp.{dead}.0.77.log"]
    for path in left:
        path.write_bytes(b"x" * 1000)
    listed = cache_ls(cache)
    assert listed.count("temporary, stale") == len(left)
    pruned = subprocess.run([str(tcpu_cli()), "cache", "prune", "--dir", str(cache)],
                            capture_output=True, text=True, timeout=60)
    assert pruned.returncode == 0, pruned.stderr
    assert not any(p.exists() for p in left)
    for path in left:  # again, now an hour old
        path.write_bytes(b"x" * 1000)
        os.utime(path, (path.stat().st_atime - 3600, path.stat().st_mtime - 3600))
    assert run(tmp_path, scale=4)[0] == 28.0  # a compile, which writes into the cache
    assert not any(p.exists() for p in left)
