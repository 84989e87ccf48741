"""What the bounds checks that tcpu's pytest plugin turns on by default cost, each a ratio to
the unchecked figure measured in the same run:

  tests      examples/pytest_project's tests under `pytest -p tcpu.pytest_plugin`, with the
             checks (the default) and with TCPU_CHECK=none, a warm compile cache for each,
             one process per run, runs interleaved: wall time of the whole pytest process
  kernels    the same project's kernels and a vector add, launched with and without checks
             (the launch option debug=True builds the checked specialization, as the plugin's
             default does), interleaved in one process: time per launch

    PYTHONPATH=$PWD/build-clang/python python3 bench/python/plugin_bounds_bench.py [tests|kernels]...
Medians of 7 interleaved rounds; the machine is shared, so ratios are what to read."""

from __future__ import annotations

import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROJECT = ROOT / "examples" / "pytest_project"
ROUNDS = 7


def run_tests(cache: str, checked: bool) -> float:
    env = dict(os.environ, TCPU_CACHE_DIR=cache)
    env.pop("TCPU_CHECK", None)
    if not checked:
        env["TCPU_CHECK"] = "none"
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-p", "tcpu.pytest_plugin"], cwd=PROJECT, env=env,
                            capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(result.stdout + result.stderr)
    return elapsed


def tests() -> None:
    with tempfile.TemporaryDirectory() as cache:
        run_tests(cache, True)  # warm the cache for both builds
        run_tests(cache, False)
        samples: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(ROUNDS):
            for checked in (False, True):
                samples[checked].append(run_tests(cache, checked))
    off, on = statistics.median(samples[False]), statistics.median(samples[True])
    print(f"tests  examples/pytest_project (11 tests, warm cache): "
          f"off {off:.2f} s  on {on:.2f} s  on/off {on / off:.2f}x")


def per_launch(launch: Callable[[], None], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        launch()
    return (time.perf_counter() - start) / repeat


def kernels() -> None:
    sys.path.insert(0, str(PROJECT))
    import torch

    import tcpu.aliases

    tcpu.aliases.install()
    import triton
    import triton.language as tl
    import kernels as project

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask) + tl.load(y_ptr + offsets, mask),
                 mask)

    def add(n: int) -> Callable[[bool], Callable[[], None]]:
        x, y, out = torch.rand(n), torch.rand(n), torch.empty(n)
        return lambda debug: lambda: add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024,
                                                                          debug=debug)

    def gelu(n: int):
        x, y = torch.rand(n), torch.empty(n)
        return lambda debug: lambda: project.gelu_kernel[(triton.cdiv(n, 1024),)](
            x, y, n, BLOCK=1024, debug=debug)

    def layer_norm(rows: int, cols: int):
        x, w, b, y = torch.rand(rows, cols), torch.rand(cols), torch.rand(cols), torch.empty(
            rows, cols)
        block = triton.next_power_of_2(cols)
        return lambda debug: lambda: project.layer_norm_kernel[(rows,)](
            x, w, b, y, x.stride(0), cols, 1e-5, BLOCK=block, debug=debug)

    def cross_entropy(rows: int, classes: int):
        logits, target = torch.rand(rows, classes), torch.randint(0, classes, (rows,))
        loss = torch.empty(rows)
        block = triton.next_power_of_2(classes)
        return lambda debug: lambda: project.cross_entropy_kernel[(rows,)](
            logits, target, loss, logits.stride(0), classes, BLOCK=block, debug=debug)

    cases = [("vector add, 2^16 floats", add(1 << 16), 200),
             ("vector add, 2^22 floats", add(1 << 22), 20),
             ("gelu, 2^20 floats", gelu(1 << 20), 20),
             ("layer norm, 4096 x 1024", layer_norm(4096, 1024), 10),
             ("cross entropy, 4096 x 1000", cross_entropy(4096, 1000), 10)]
    for name, make, repeat in cases:
        launches = {False: make(False), True: make(True)}
        for launch in launches.values():
            launch()  # compile both builds first
        samples: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(ROUNDS):
            for checked in (False, True):
                samples[checked].append(per_launch(launches[checked], repeat))
        off, on = statistics.median(samples[False]), statistics.median(samples[True])
        print(f"kernel {name}: off {off * 1e6:.1f} us  on {on * 1e6:.1f} us  "
              f"on/off {on / off:.2f}x")


if __name__ == "__main__":
    chosen = sys.argv[1:] or ["tests", "kernels"]
    for part in chosen:
        {"tests": tests, "kernels": kernels}[part]()
