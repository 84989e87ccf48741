"""A process killed (SIGKILL, as `kill -9` or the OOM killer) at each stage of a cold compile
leaves a cache that the next process uses as if nothing happened: the kernel's result is right,
with no warning, `tcpu cache ls` flags nothing as damaged, what the killed process left is only
temporaries that `tcpu cache prune` removes, and a third process loads the kernel without
compiling (the cache healed). docs/cache-guarantees.md lists these stages.

The process kills itself at the stage (TCPU_TEST_KILL_AT, codegen/src/support/kill_point.hpp):
a kill from outside cannot be timed to land between a write and its rename."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from conftest import REAL_TRITON, tcpu_cli
from test_cache_trust import KERNEL, cache_ls, run, warnings_of

pytestmark = pytest.mark.skipif(REAL_TRITON, reason="tcpu's compile cache")

# The stages of a cold compile from Python, in order (kill_point.hpp says what each is), on
# each route: the front end's disk cache of shared objects, and the in-process compile
# (TCPU_PYTHON_CACHE=0) through codegen's object cache.
DISK = {}
IN_PROCESS = {"TCPU_PYTHON_CACHE": "0"}
CASES = [("pch", DISK), ("clang", DISK), ("link", DISK), ("seal", DISK),
         ("pch", IN_PROCESS), ("clang", IN_PROCESS), ("object", IN_PROCESS)]


def killed_run(tmp_path, stage: str, route: dict[str, str]) -> subprocess.CompletedProcess:
    """The kernel `run` runs (the same script: its path is part of the kernel's key)."""
    script = tmp_path / "kernel_2.py"
    script.write_text(KERNEL.format(scale=2))
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONDONTWRITEBYTECODE="1", TCPU_TEST_KILL_AT=stage, **route)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)


@pytest.mark.parametrize("stage, route", CASES,
                         ids=[f"{stage}-{'disk' if route is DISK else 'in-process'}"
                              for stage, route in CASES])
def test_a_kill_at_each_stage_of_a_cold_compile_leaves_a_usable_cache(tmp_path, stage, route):
    killed = killed_run(tmp_path, stage, route)
    assert killed.returncode == -signal.SIGKILL, (stage, killed.returncode, killed.stderr)
    cache = tmp_path / "cache"

    value, compiled, stderr = run(tmp_path, cache, **route)
    assert (value, compiled) == (14.0, True)
    assert warnings_of(stderr) == [], stderr
    listed = cache_ls(cache)
    assert "DAMAGED" not in listed, listed

    pruned = subprocess.run([str(tcpu_cli()), "cache", "prune", "--dir", str(cache)],
                            capture_output=True, text=True, timeout=60)
    assert pruned.returncode == 0, pruned.stderr
    assert not list(cache.rglob("*.tmp.*")), "the killed writer's temporaries are still there"

    value, compiled, stderr = run(tmp_path, cache, **route)
    assert value == 14.0 and warnings_of(stderr) == [], stderr
    if route is DISK:
        assert not compiled, "the cache did not heal: compiled again"
    else:  # the compiler is loaded on this route; its object cache holds the module
        assert list(cache.glob("*.tcpuobj")), cache_ls(cache)


def test_a_library_its_killed_writer_never_sealed_is_pruned(tmp_path):
    """Killed between writing a kernel's shared object and sealing it: `tcpu cache ls` flags
    the library as not sealed, and `tcpu cache prune` removes it once it is a minute old (a
    younger one may be being sealed by a live writer)."""
    assert killed_run(tmp_path, "seal", DISK).returncode == -signal.SIGKILL
    cache = tmp_path / "cache"
    (library,) = (cache / "python").glob("*/*.so")
    assert "DAMAGED (not sealed:" in cache_ls(cache)

    def prune() -> None:
        pruned = subprocess.run([str(tcpu_cli()), "cache", "prune", "--dir", str(cache)],
                                capture_output=True, text=True, timeout=60)
        assert pruned.returncode == 0, pruned.stderr

    prune()
    assert library.exists()
    written = library.stat().st_mtime - 120
    os.utime(library, (written, written))
    prune()
    assert not library.exists()
    assert "DAMAGED" not in cache_ls(cache)
