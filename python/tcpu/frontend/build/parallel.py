"""Compiles of independent specializations at once, where cores are free.

A compile spends nearly all its time in clang and LLVM with the GIL released (the extension lets
go of it), so threads overlap them; the Python lowering before each compile runs one at a time
(route.py's lock). What calls this: the autotuner (one specialization per config) and anyone
warming up a kernel's specializations before timing or testing them:

    from tcpu.frontend.build.parallel import compile_in_parallel
    compile_in_parallel([lambda c=c: kernel.warmup(*args, grid=grid, **c.all_kwargs())
                         for c in configs])
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence


def free_cores() -> int:
    """The cores this process may run on (its affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def compile_in_parallel(warmups: Sequence[Callable[[], Any]], workers: int | None = None
                        ) -> list[Any]:
    """Runs each of `warmups` (a call that compiles one specialization, such as a kernel's
    `warmup(...)`) on up to `workers` threads (default: the free cores) and returns their results
    in order. All of them run even when one fails; then the first failure is raised. With one
    worker, or one call, they run in this thread, in order."""
    calls = list(warmups)
    count = min(len(calls), workers if workers is not None else free_cores())
    if count <= 1:
        return [call() for call in calls]
    with ThreadPoolExecutor(max_workers=count, thread_name_prefix="tcpu-compile") as pool:
        futures = [pool.submit(call) for call in calls]
        errors = [f.exception() for f in futures]
    first = next((e for e in errors if e is not None), None)
    if first is not None:
        raise first
    return [f.result() for f in futures]
