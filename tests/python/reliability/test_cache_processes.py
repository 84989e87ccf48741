"""Many processes share one compile cache (pytest-xdist workers, parallel scripts): processes
compiling the same new specializations at once into an empty cache all get correct kernels,
and a later process finds every one of them without running clang."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

CHILD = r"""
import sys, torch
import tcpu.aliases; tcpu.aliases.install()
import triton, triton.language as tl

@triton.jit
def scale(x_ptr, out_ptr, n, FACTOR: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * FACTOR, mask=mask)

x = torch.arange(1000, dtype=torch.float32)
for factor in (3, 5, 7):
    out = torch.empty_like(x)
    scale[(4,)](x, out, 1000, FACTOR=factor, BLOCK=256)
    assert torch.equal(out, x * factor), factor
print("ok")
"""


def _run(cache: pathlib.Path, count: int) -> list[subprocess.CompletedProcess[str]]:
    env = dict(os.environ, TCPU_CACHE_DIR=str(cache), TCPU_DEBUG="1")
    script = cache.parent / "child.py"  # a file: kernels' sources are read from their file
    script.write_text(CHILD)
    procs = [subprocess.Popen([sys.executable, str(script)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(count)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        results.append(subprocess.CompletedProcess(p.args, p.returncode, out, err))
    return results


def test_processes_share_one_cache(tmp_path: pathlib.Path) -> None:
    cache = tmp_path / "cache"
    for r in _run(cache, 4):  # four at once, into an empty cache
        assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
    assert any(cache.iterdir())
    (warm,) = _run(cache, 1)
    assert warm.returncode == 0 and warm.stdout.strip() == "ok", warm.stderr[-2000:]
    assert "clang: compiling" not in warm.stderr, warm.stderr[-2000:]


def test_processes_missing_one_specialization_at_once_compile_it_once(
        tmp_path: pathlib.Path) -> None:
    """Each of the three specializations is compiled by one process: the others wait for its
    compile lock (tcpu/frontend_cache.hpp's EntryCompileLock), then load what it wrote. Without
    the lock, processes that overlap each compile every specialization they miss."""
    cache = tmp_path / "cache"
    results = _run(cache, 3)
    for r in results:
        assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
    compiles = sum(r.stderr.count("clang: compiling") for r in results)
    assert compiles == 3, "\n".join(r.stderr[-2000:] for r in results)
