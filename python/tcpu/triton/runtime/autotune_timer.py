"""The autotuner's default timer on the CPU.

``testing.do_bench`` with Triton's budgets (25 ms of warm-up, 100 ms of timed runs, five runs
to estimate one) runs each config at least eight times; on a CPU, at the shapes a GPU's tests
use, one run can take a good part of a second, and a library's 17 configs outlasted its test.
So the autotuner times a config by: one untimed run (it compiles, and warms code and data),
one timed run, and, unless that run is already ``CLEARLY_SLOWER`` times the best config's median
so far (then the config has lost and its one time is its result), more timed runs up to
``BUDGET_MS`` of them (cache sweeps included), ``MIN_RUNS`` at least so that a median means something. Each timed run
starts with the CPU caches swept, as do_bench's do. A do_bench given to ``autotune``, or a
benchmarker the driver was given in place of do_bench, is used as it is instead."""

from __future__ import annotations

import gc
import time
from typing import Any, Callable, Sequence

from .driver import driver

BUDGET_MS = 40.0
MIN_RUNS = 3
MAX_RUNS = 100
CLEARLY_SLOWER = 3.0


def time_config(kernel_call: Callable[[], Any], quantiles: Sequence[float],
                best_ms: float | None) -> list[float]:
    """The ``quantiles`` (ms) of ``kernel_call``'s timed runs; ``best_ms`` is the best median
    of the configs timed before (None for the first)."""
    from ..testing import _quantiles

    active = driver.active
    device = active.get_device_interface()
    kernel_call()
    device.synchronize()
    cache = active.get_empty_cache_for_benchmark()
    times: list[float] = []
    gc_was_enabled = gc.isenabled()
    gc.disable()  # a collection inside a timed run would be charged to it
    try:
        while True:
            swept = time.perf_counter()
            active.clear_cache(cache)
            begin = time.perf_counter()
            kernel_call()
            device.synchronize()
            end = time.perf_counter()
            times.append((end - begin) * 1e3)
            if len(times) == 1:
                if best_ms is not None and times[0] > CLEARLY_SLOWER * best_ms:
                    break
                # The budget bounds wall time: the sweep's share included.
                runs = min(MAX_RUNS, max(MIN_RUNS, int(BUDGET_MS / ((end - swept) * 1e3))))
            if len(times) >= runs:
                break
    finally:
        if gc_was_enabled:
            gc.enable()
    return _quantiles(times, quantiles)
