"""The Python front end's figures, each a ratio to a baseline measured in the same run:

  launch     an empty 4-argument @triton.jit kernel launched from Python (cached), and one that
             reads two pointers and writes a third, beside a numpy ufunc on a 1-element array;
             then the CPU time per launch (least of many samples), also with an argument by
             name and with a callable grid
  compile    a specialization's cold compile (a fresh cache holding only tl's precompiled
             header; and a fresh cache with nothing), and a warm process's first launch,
             each in a new process
  kernels    the tutorials' kernels written in Triton's Python (examples/python) against the
             same algorithms' tl C++ ports (kernels/tutorials), both compiled by codegen and
             launched through the same extension on the same arrays, interleaved

  phases     where a cold compile's time goes (tl's header precompiled, nothing else cached), per
             kernel: the Python lowering, clang, LLVM's IR preparation, optimization and code
             generation, ld.lld, and the rest of the first launch (loading the compiler, writing
             and loading the shared object), each as wall and CPU time (TCPU_DEBUG's `time:`
             lines); on a shared machine the CPU times and their shares are what to read

  parallel   four specializations of the vector add (BLOCK_SIZE 128..1024) compiled cold (tl's
             header precompiled) in a new process: one after another, and at once through
             compile_in_parallel (build/parallel.py) on the free cores

  suite      examples/pytest_project's tests (pytest, a new process each) on tcpu with an empty
             cache, with only tl's header precompiled, and warm, without and with pytest-xdist's
             `-n 2`, beside the same tests under Triton's interpreter (TRITON_INTERPRET=1, real
             Triton from the environment, which must have it and pytest-xdist): wall and CPU
             seconds of the whole pytest run

  reductions tl.argmax against tl.max over the same rows (fp32 and int32); then in CPU time at
             1, 8 and 32 rows a program

  interpreter  the examples' kernels at their default shapes, per launch, as multiples of a
             numpy ufunc call (to set beside Triton's interpreter's, measured on the GPU host)

    PYTHONPATH=build/python python3 bench/python/frontend_bench.py \
        [launch|compile|phases|parallel|suite|kernels|interpreter|reductions]...
Medians of 5 interleaved rounds; the machine is shared, so ratios are what to read."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import tcpu.triton as triton  # tcpu's, whatever `triton` is installed (kernels resolve globals)
import tcpu.triton.language as tl

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "python"))
ROUNDS = int(os.environ.get("TCPU_BENCH_ROUNDS", "5"))


@triton.jit
def empty(a, b, c, n):
    pass


@triton.jit
def add_one(a, b, c, n):  # reads a and b, writes c: each launch checks them for overlap
    tl.store(c, tl.load(a) + tl.load(b))


def median_us(fn, number: int) -> float:
    times = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number * 1e6)
    return statistics.median(times)


def least_cpu_us(fn, number: int, samples: int) -> float:
    """The least process CPU time per call of `fn` over `samples` samples of `number` calls."""
    least = float("inf")
    for _ in range(samples):
        t = time.process_time()
        for _ in range(number):
            fn()
        least = min(least, (time.process_time() - t) / number * 1e6)
    return least


def bench_launch() -> None:
    import numpy as np
    import torch

    x, y, z = torch.empty(16), torch.empty(16), torch.empty(16)
    empty[(1,)](x, y, z, 7)
    add_one[(1,)](x, y, z, 7)
    one, res = np.ones(1), np.empty(1)
    rows = []
    for _ in range(ROUNDS):
        rows.append((median_us(lambda: empty[(1,)](x, y, z, 7), 20000),
                     median_us(lambda: add_one[(1,)](x, y, z, 7), 20000),
                     median_us(lambda: np.add(one, one, out=res), 20000)))
    launch, writing, ufunc = (statistics.median(r[i] for r in rows) for i in range(3))
    print(f"launch: empty 4-arg kernel {launch:.2f} us, a 4-arg kernel reading two pointers and "
          f"writing one {writing:.2f} us, numpy add (1 element) {ufunc:.2f} us, ratios "
          f"{launch / ufunc:.1f}x / {writing / ufunc:.1f}x")
    # The process's CPU time per launch, the least of many samples: what a loaded machine's
    # wall clock (other processes, the workers' wake-ups) hides.
    cases = {"empty": lambda: empty[(1,)](x, y, z, 7),
             "reading two pointers": lambda: add_one[(1,)](x, y, z, 7),
             "empty, n=7 by name": lambda: empty[(1,)](x, y, z, n=7),
             "empty, a callable grid": lambda: empty[lambda meta: (1,)](x, y, z, 7),
             "numpy add": lambda: np.add(one, one, out=res)}
    cpu = {name: least_cpu_us(fn, 2000, 8 * ROUNDS) for name, fn in cases.items()}
    print("launch, CPU time: " + ", ".join(f"{name} {us:.2f} us" for name, us in cpu.items()))


CHILD = r"""
import sys, time
sys.path.insert(0, {examples!r})
t0 = time.perf_counter()
import torch, triton
import importlib
mod = importlib.import_module({module!r})
t1 = time.perf_counter()
{setup}
t2 = time.perf_counter()
{launch}
t3 = time.perf_counter()
{launch}
t4 = time.perf_counter()
print(f"{{(t1 - t0) * 1e3:.1f}} {{(t3 - t2) * 1e3:.1f}} {{(t4 - t3) * 1e3:.2f}}")
"""

CASES = {
    "vector_add": ("01_vector_add", "x, y, out = mod.make(98432, 0, torch.device('cpu'))",
                   "mod.add(x, y, out)"),
    "softmax": ("02_fused_softmax", "x, out = mod.make(1823, 781, 0, torch.device('cpu'))",
                "mod.softmax(x, out, 4)"),
    "matmul_f32": ("03_matrix_multiplication",
                   "a, b, c = mod.make(256, 256, 256, 'float32', torch.float32, 0, "
                   "torch.device('cpu'))", "mod.matmul(a, b, c)"),
}


def _run_child(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Runs `code` in a new Python with tcpu's `triton` installed; RuntimeError if it fails."""
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys, tcpu.aliases as a; a.install(); exec(sys.stdin.read())"],
        input=code, text=True, capture_output=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return out


def _child(case: str, cache: str, **extra_env: str) -> tuple[float, float, float]:
    """(ms importing torch, triton and the example; ms of the first launch, which loads the
    extension and the compiler and compiles or finds the kernel; ms of the second launch)."""
    module, setup, launch = CASES[case]
    code = CHILD.format(examples=str(ROOT / "examples" / "python"), module=module, setup=setup,
                        launch=launch)
    env = dict(os.environ, TCPU_CACHE_DIR=cache, **extra_env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run: modules load from their .pyc
    out = _run_child(code, env)
    imports, first, second = (float(v) for v in out.stdout.split())
    return imports, first, second


def bench_compile() -> None:
    for case in CASES:
        empty, pch_only, warm, second, in_process, cold_in_process = [], [], [], [], [], []
        for _ in range(ROUNDS):
            with tempfile.TemporaryDirectory() as cache:
                empty.append(_child(case, cache)[1])  # builds tl's precompiled header too
                # The precompiled header stays; the kernel's own objects and libraries go.
                for entry in pathlib.Path(cache).glob("*.tcpuobj"):
                    entry.unlink()
                shutil.rmtree(pathlib.Path(cache) / "python")
                pch_only.append(_child(case, cache)[1])
                _, first, again = _child(case, cache)
                warm.append(first)
                second.append(again)
                # The baselines: without the front end's cache of shared objects, a cold compile
                # links in process (no ld.lld), and a warm process loads the compiler and finds
                # the object in codegen's cache (the cold run puts it there).
                cold_in_process.append(_child(case, cache, TCPU_PYTHON_CACHE="0")[1])
                in_process.append(_child(case, cache, TCPU_PYTHON_CACHE="0")[1])
        w, b = statistics.median(warm), statistics.median(in_process)
        c, cb = statistics.median(pch_only), statistics.median(cold_in_process)
        print(f"compile {case}: first launch with a cold cache and tl's header precompiled "
              f"{statistics.median(pch_only):.0f} ms; with an empty cache "
              f"{statistics.median(empty):.0f} ms; warm process {w:.1f} ms "
              f"(second launch {statistics.median(second):.2f} ms); warm process without the "
              f"shared-object cache (TCPU_PYTHON_CACHE=0) {b:.1f} ms: {b / w:.2f}x; cold with "
              f"tl's header precompiled, without it {cb:.0f} ms: the shared object costs "
              f"{c - cb:+.0f} ms ({c / cb:.2f}x)")


PHASES_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {examples!r})
import torch, triton
import importlib
import tcpu.frontend.generate as generate_module
mod = importlib.import_module({module!r})
{setup}
lowering = [0.0, 0.0]
lower = generate_module.generate
def timed(*args, **kwargs):
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        return lower(*args, **kwargs)
    finally:
        lowering[0] += (time.perf_counter() - wall) * 1e3
        lowering[1] += (time.thread_time() - cpu) * 1e3
generate_module.generate = timed
def cpu_ms():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.process_time() + children.ru_utime + children.ru_stime) * 1e3
wall, cpu = time.perf_counter(), cpu_ms()
import tcpu._tcpu  # the first compile loads the compiler: timed apart
loading = [(time.perf_counter() - wall) * 1e3, cpu_ms() - cpu]
{launch}
print(json.dumps({{"first launch": [(time.perf_counter() - wall) * 1e3, cpu_ms() - cpu],
                  "loading the compiler": loading, "lowering (Python)": lowering}}))
"""

# TCPU_DEBUG's lines of a compile's phases: "time: <phase> <wall> ms (cpu <cpu> ms)", and clang's
# "clang compiled <name> in <wall> ms (cpu <cpu> ms)".
PHASE_LINE = re.compile(r"tcpu: (?:time: (?P<phase>[^\d]+?)|clang compiled .*? in) "
                        r"(?P<wall>[\d.e+-]+) ms \(cpu (?P<cpu>[\d.e+-]+) ms\)")
PHASES = ["loading the compiler", "lowering (Python)", "clang", "IR preparation", "optimization",
          "code generation", "ld.lld", "rest"]


def _phases_child(case: str, cache: str) -> dict[str, tuple[float, float]]:
    """{phase: (wall ms, CPU ms)} of the first launch of `case` in a new process."""
    module, setup, launch = CASES[case]
    code = PHASES_CHILD.format(examples=str(ROOT / "examples" / "python"), module=module,
                               setup=setup, launch=launch)
    out = _run_child(code, dict(os.environ, TCPU_CACHE_DIR=cache, TCPU_DEBUG="1"))
    measured = {k: tuple(v) for k, v in json.loads(out.stdout.splitlines()[-1]).items()}
    phases = {k: measured[k] for k in ("loading the compiler", "lowering (Python)")}
    for line in out.stderr.splitlines():
        if found := PHASE_LINE.search(line):
            name = found["phase"] or "clang"
            wall, cpu = phases.get(name, (0.0, 0.0))
            phases[name] = (wall + float(found["wall"]), cpu + float(found["cpu"]))
    first = measured["first launch"]
    phases["rest"] = (first[0] - sum(v[0] for v in phases.values()),
                      first[1] - sum(v[1] for v in phases.values()))
    phases["first launch"] = first
    return phases


def _drop_compiled(cache: str) -> None:
    """Empties `cache` but for tl's precompiled header."""
    for entry in pathlib.Path(cache).glob("*.tcpuobj"):
        entry.unlink()
    shutil.rmtree(pathlib.Path(cache) / "python", ignore_errors=True)


def bench_phases() -> None:
    with tempfile.TemporaryDirectory() as cache:
        _phases_child("vector_add", cache)  # builds tl's precompiled header
        rounds: dict[str, list[dict[str, tuple[float, float]]]] = {case: [] for case in CASES}
        for _ in range(ROUNDS):
            for case in CASES:
                _drop_compiled(cache)
                rounds[case].append(_phases_child(case, cache))
    for case, runs in rounds.items():
        cells = []
        total_cpu = statistics.median(r["first launch"][1] for r in runs)
        for phase in PHASES + ["first launch"]:
            wall = statistics.median(r.get(phase, (0.0, 0.0))[0] for r in runs)
            cpu = statistics.median(r.get(phase, (0.0, 0.0))[1] for r in runs)
            cells.append(f"{phase} {wall:.0f} / {cpu:.0f} ms ({cpu / total_cpu:.0%})")
        print(f"phases {case} (wall / CPU, share of the first launch's CPU): " + "; ".join(cells))


PARALLEL_CHILD = r"""
import sys, time
sys.path.insert(0, {examples!r})
import torch, triton
import importlib
import tcpu._tcpu  # the compiler loaded before the clock starts: both ways pay it once
from tcpu.frontend.build.parallel import compile_in_parallel
mod = importlib.import_module("01_vector_add")
x, y, out = mod.make(4096, 0, torch.device("cpu"))
calls = [lambda b=b: mod.add_kernel.warmup(x, y, out, 4096, BLOCK_SIZE=b, grid=(1,))
         for b in (128, 256, 512, 1024)]
start = time.perf_counter()
compile_in_parallel(calls, workers={workers})
print((time.perf_counter() - start) * 1e3)
"""


def bench_parallel() -> None:
    one, many = [], []
    with tempfile.TemporaryDirectory() as cache:
        _phases_child("vector_add", cache)  # builds tl's precompiled header
        for _ in range(ROUNDS):
            for workers, times in ((1, one), (None, many)):
                _drop_compiled(cache)
                code = PARALLEL_CHILD.format(examples=str(ROOT / "examples" / "python"),
                                             workers=workers)
                out = _run_child(code, dict(os.environ, TCPU_CACHE_DIR=cache))
                times.append(float(out.stdout.split()[-1]))
    a, b = statistics.median(one), statistics.median(many)
    print(f"parallel: 4 vector-add specializations compiled cold one after another {a:.0f} ms, "
          f"at once on {os.cpu_count()} CPUs {b:.0f} ms: {a / b:.2f}x")


def _pytest_seconds(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one pytest run of examples/pytest_project, its children's CPU
    (xdist's workers) included."""
    before = os.times()
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                         cwd=ROOT / "examples" / "pytest_project", env=env, text=True,
                         capture_output=True)
    wall = time.perf_counter() - start
    after = os.times()
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    return wall, (after.children_user - before.children_user
                  + after.children_system - before.children_system)


def bench_suite() -> None:
    base = {k: v for k, v in os.environ.items() if k not in ("TRITON_INTERPRET", "PYTHONPATH")}
    tcpu_path = os.environ.get("PYTHONPATH", "")
    figures: dict[str, list[tuple[float, float]]] = {}

    def measure(label: str, args: list[str], env: dict[str, str]) -> None:
        figures.setdefault(label, []).append(_pytest_seconds(args, env))
        wall, cpu = figures[label][-1]
        print(f"  {label}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)

    for _ in range(ROUNDS):
        for workers in ([], ["-n", "2"]):
            label = " -n 2" if workers else " -n 0"
            with tempfile.TemporaryDirectory() as cache:
                env = dict(base, PYTHONPATH=tcpu_path, TCPU_CACHE_DIR=cache)
                plugin = ["-p", "tcpu.pytest_plugin", *workers]
                measure("tcpu, empty cache" + label, plugin, env)
                _drop_compiled(cache)
                measure("tcpu, tl's header precompiled" + label, plugin, env)
                measure("tcpu, warm" + label, plugin, env)
            measure("Triton's interpreter" + label, ["--device", "cpu", *workers],
                    dict(base, TRITON_INTERPRET="1"))
    for label, runs in figures.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"suite {label}: {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"({', '.join(f'{r[0]:.2f}' for r in runs)})")


def _cpp_kernel(source: str, name: str):
    from tcpu import _tcpu
    text = (ROOT / "kernels" / "tutorials" / source).read_text()
    return _tcpu.compile_kernel(text, name)


def bench_kernels() -> None:
    import importlib

    import torch
    dev = torch.device("cpu")
    add_mod = importlib.import_module("01_vector_add")
    soft_mod = importlib.import_module("02_fused_softmax")
    mm_mod = importlib.import_module("03_matrix_multiplication")
    ln_mod = importlib.import_module("05_layer_norm")
    at_mod = importlib.import_module("06_fused_attention")

    def compare(label: str, py, cpp, number: int) -> None:
        py(), cpp()
        pys, cpps = [], []
        for _ in range(ROUNDS):
            pys.append(median_us(py, number))
            cpps.append(median_us(cpp, number))
        p, c = statistics.median(pys), statistics.median(cpps)
        print(f"kernels {label}: Python {p / 1e3:.3f} ms, tl C++ port {c / 1e3:.3f} ms, "
              f"Python / C++ speed {c / p:.2f}")

    # 01 vector add, 2^24 floats (out of cache), BLOCK 1024.
    n = 1 << 24
    x, y, out = add_mod.make(n, 0, dev)
    add_cpp = _cpp_kernel("vector_add.cpp", "add_kernel")
    grid = triton.cdiv(n, 1024)
    compare("vector_add 2^24", lambda: add_mod.add_kernel[(grid,)](x, y, out, n, BLOCK_SIZE=1024),
            lambda: add_cpp.launch(grid, 1, 1, 0, "PPPi", (x.data_ptr(), y.data_ptr(),
                                                          out.data_ptr(), n)), 5)
    # 02 softmax, 4096 x 1024, one row per program (the CPU's grid for persistent kernels).
    rows, cols = 4096, 1024
    sx, sout = soft_mod.make(rows, cols, 0, dev)
    soft_cpp = _cpp_kernel("softmax.cpp", "softmax_1024")
    compare("softmax 4096x1024",
            lambda: soft_mod.softmax_kernel[(rows,)](sout, sx, cols, cols, rows, cols,
                                                     BLOCK_SIZE=1024, num_stages=2),
            lambda: soft_cpp.launch(rows, 1, 1, 0, "PPiiii", (sout.data_ptr(), sx.data_ptr(), cols,
                                                              cols, rows, cols)), 5)
    # 03 matmul fp32, the C++ port's configuration (64 x 64 x 128, GROUP_SIZE_M 8).
    mm_cpp = _cpp_kernel("matmul.cpp", "matmul_f32")
    for size in (512, 1024):
        a, b, c = mm_mod.make(size, size, size, "float32", torch.float32, 0, dev)
        tiles = triton.cdiv(size, 64) ** 2
        args = (a.data_ptr(), b.data_ptr(), c.data_ptr(), size, size, size, size, 1, size, 1,
                size, 1)
        compare(f"matmul fp32 {size}",
                lambda: mm_mod.matmul_kernel[(tiles,)](
                    a, b, c, size, size, size, size, 1, size, 1, size, 1, BLOCK_SIZE_M=64,
                    BLOCK_SIZE_N=64, BLOCK_SIZE_K=128, GROUP_SIZE_M=8, ACTIVATION="", IEEE=True),
                lambda: mm_cpp.launch(tiles, 1, 1, 0, "PPPiiiiiiiii", args), 2)
    # 05 layer norm forward, fp32, 4096 x 1024, one row per program, BLOCK_SIZE 1024.
    rows, cols = 4096, 1024
    x, w, b, *_ = ln_mod.make(rows, cols, 0, dev, "float32")
    y, mean, rstd = torch.empty_like(x), torch.empty(rows), torch.empty(rows)
    ln_cpp = _cpp_kernel("layer_norm.cpp", "layer_norm_fwd_f32")
    ln_args = (x.data_ptr(), y.data_ptr(), w.data_ptr(), b.data_ptr(), mean.data_ptr(),
               rstd.data_ptr(), cols, cols, 1e-5)
    compare("layer_norm_fwd fp32 4096x1024",
            lambda: ln_mod.layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, cols, cols, 1e-5,
                                                          BLOCK_SIZE=1024),
            lambda: ln_cpp.launch(rows, 1, 1, 0, "PPPPPPiif", ln_args), 5)
    # 06 attention forward, fp16, head dim 64, Z * H = 4, N_CTX 1024, BLOCK_M 64, BLOCK_N 32.
    z, h, n_ctx, d = 1, 4, 1024, 64
    q, k, v, o, m = at_mod.make(z, h, n_ctx, d, 0, dev)
    at_cpp = _cpp_kernel("attention.cpp", "attn_fwd_d64")
    strides = [s for t in (q, k, v, o) for s in t.stride()]
    cpp_strides = [s for t in (q, k, v, o) for s in t.stride()[:3]]
    at_args = (q.data_ptr(), k.data_ptr(), v.data_ptr(), 0.125, m.data_ptr(), o.data_ptr(),
               *cpp_strides, h, n_ctx)
    compare("attention fwd d64 fp16 4x1024",
            lambda: at_mod.attn_fwd_kernel[(n_ctx // 64, z * h, 1)](
                q, k, v, 0.125, m, o, *strides, z, h, n_ctx, HEAD_DIM=d, BLOCK_M=64, BLOCK_N=32,
                STAGE=1),
            lambda: at_cpp.launch(n_ctx // 64, z * h, 1, 0, "PPPfPP" + "i" * 14, at_args), 2)


def bench_interpreter() -> None:
    """tcpu's time per launch of the examples' kernels at their default shapes, as a multiple
    of a numpy ufunc call, to set beside the same figures of Triton's interpreter measured on
    the lent GPU host (tests/goldens/triton/TIMINGS.json): a cross-machine comparison."""
    import importlib

    import numpy as np
    import torch
    dev = torch.device("cpu")
    add = importlib.import_module("01_vector_add")
    soft = importlib.import_module("02_fused_softmax")
    mm = importlib.import_module("03_matrix_multiplication")
    x, y, out = add.make(98432, 0, dev)
    sx, sout = soft.make(300, 781, 0, dev)
    programs = soft.program_count(300, dev)
    a, b, c = mm.make(256, 256, 256, "float16", torch.float16, 0, dev)
    one, res = np.ones(1), np.empty(1)
    for label, fn in (("vector_add n=98432 fp32", lambda: add.add(x, y, out)),
                      ("softmax 300x781 fp32", lambda: soft.softmax(sx, sout, programs)),
                      ("matmul 256x256x256 fp16", lambda: mm.matmul(a, b, c))):
        fn()
        t = median_us(fn, 50)
        u = median_us(lambda: np.add(one, one, out=res), 20000)
        print(f"interpreter-comparison {label}: tcpu {t:.1f} us per launch = {t / u:.0f}x a numpy "
              f"ufunc call ({u:.2f} us)")


@triton.jit
def _row_max(x_ptr, out_ptr, N: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    x = tl.load(x_ptr + rows[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(out_ptr + rows, tl.max(x, axis=1))


@triton.jit
def _row_argmax(x_ptr, out_ptr, N: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    x = tl.load(x_ptr + rows[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(out_ptr + rows, tl.argmax(x, axis=1))


@triton.jit
def _column_argmax(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + cols[None, :])
    tl.store(out_ptr + cols, tl.argmax(x, axis=0))


def bench_reductions() -> None:
    """tl.argmax against tl.max over the rows of a 4096 x 1024 block of fp32 and int32 (8 rows
    a program), and down 64-row columns, interleaved, with TCPU_NUM_THREADS as set."""
    import torch
    m, n, block_m = 4096, 1024, 8
    for dtype in (torch.float32, torch.int32):
        x = (torch.randn(m, n) * 1000).to(dtype)
        out_max = torch.empty(m, dtype=dtype)
        out_arg = torch.empty(m, dtype=torch.int32)
        grid = (m // block_m,)
        row_max = lambda: _row_max[grid](x, out_max, N=n, BLOCK_M=block_m)  # noqa: E731
        row_arg = lambda: _row_argmax[grid](x, out_arg, N=n, BLOCK_M=block_m)  # noqa: E731
        row_max(), row_arg()  # compile
        assert torch.equal(out_arg.long(), x.argmax(dim=1))
        t_max, t_arg = [], []
        for _ in range(ROUNDS):
            t_max.append(median_us(row_max, 5))
            t_arg.append(median_us(row_arg, 5))
        a, b = statistics.median(t_arg), statistics.median(t_max)
        print(f"reductions {dtype}: argmax(axis=1) {a / 1e3:.2f} ms = {a / b:.2f}x max(axis=1) "
              f"({b / 1e3:.2f} ms), 4096 x 1024")
        for rows in (1, 8, 32):  # CPU time, least of 5 * ROUNDS samples of 3 launches
            g = (m // rows,)
            a = least_cpu_us(lambda: _row_argmax[g](x, out_arg, N=n, BLOCK_M=rows), 3,
                             5 * ROUNDS)
            b = least_cpu_us(lambda: _row_max[g](x, out_max, N=n, BLOCK_M=rows), 3, 5 * ROUNDS)
            print(f"  CPU time, {rows} rows a program: argmax {a / 1e3:.2f} ms, max "
                  f"{b / 1e3:.2f} ms, {a / b:.2f}x")
    x = torch.randn(64, n)
    out = torch.empty(n, dtype=torch.int32)
    col = lambda: _column_argmax[(n // 256,)](x, out, M=64, N=n, BLOCK_N=256)  # noqa: E731
    col()
    assert torch.equal(out.long(), x.argmax(dim=0))
    print(f"reductions argmax(axis=0) of 64 x 1024 fp32: {median_us(col, 50):.1f} us")


def main(argv: list[str]) -> int:
    import tcpu.aliases
    tcpu.aliases.install()
    which = argv or ["launch", "compile", "kernels", "interpreter"]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs")
    for name in which:
        {"launch": bench_launch, "compile": bench_compile, "phases": bench_phases,
         "parallel": bench_parallel, "suite": bench_suite,
         "kernels": bench_kernels, "interpreter": bench_interpreter,
         "reductions": bench_reductions}[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
