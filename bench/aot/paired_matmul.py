"""The tutorial matmul compiled ahead of time (libaot_kernels.so, scripts/gpu/bundle-aot-bench.sh)
timed beside torch.mm in one process, turn by turn, so that each ratio pairs two timings taken
seconds apart on the same core(s): on the lent GPU host the same baseline moves by 20-40 % between
minutes, which separate processes cannot tell from the kernels' own differences.

    cd .gpurun-a && LD_LIBRARY_PATH=. TCPU_NUM_THREADS=T python3 paired_matmul.py T ROUNDS [N ...]

Each round times torch.mm and matmul_f32, matmul_f32_large and matmul_f32_wrap (medians of
REPS launches after one warm-up, default 3), and, where the bundle has them, the same loop nest
with libxsmm's micro-kernel (xsmm_nest.c; sizes that are multiples of 128; OMP_NUM_THREADS sets
its threads) and one thread's FMA peak (fma_peak.c). It prints GFLOP/s per round, then per
kernel the ratios to torch.mm round by round and their median, and checks that tcpu's three
kernels' results are equal and close to torch's (and says whether libxsmm's are tcpu's)."""
import ctypes
import os
import statistics
import sys
import time

import torch
from torch_baseline import median_seconds

# tcpu's kernels and their launchers in libaot_kernels.so.
LAUNCHERS = {"matmul_f32": "matmul_default", "matmul_f32_large": "matmul_large_default",
             "matmul_f32_wrap": "matmul_wrap_default"}
KERNELS = tuple(LAUNCHERS)


def main() -> int:
    threads, rounds = int(sys.argv[1]), int(sys.argv[2])
    sizes = [int(n) for n in sys.argv[3:]] or [2048]
    repetitions = int(os.environ.get("REPS", "3"))
    torch.set_num_threads(threads)
    here = os.path.dirname(os.path.abspath(__file__))
    lib = ctypes.CDLL(os.path.join(here, "libaot_kernels.so"))
    if lib.tcpuInit(0) != 0:
        raise SystemExit("tcpuInit failed")
    # matmul_f32_large as another build compiled it (BASELINE_TCPU, bundle-aot-bench.sh), timed
    # beside this build's (named "matmul_f32_large_baseline"); its result must be the same bits.
    if hasattr(lib, "matmul_large_baseline_default"):
        LAUNCHERS["matmul_f32_large_baseline"] = "matmul_large_baseline_default"
    kernels = tuple(LAUNCHERS)
    peak = getattr(lib, "fma_peak", None)
    if peak is not None:
        peak.restype, peak.argtypes = ctypes.c_double, [ctypes.c_long]
    xsmm_path = os.path.join(here, "libxsmm_nest.so")
    xsmm = ctypes.CDLL(xsmm_path).xsmm_nest if os.path.exists(xsmm_path) else None
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; "
          f"TCPU_NUM_THREADS={os.environ.get('TCPU_NUM_THREADS', '(all)')}")
    for n in sizes:
        a, b = torch.randn(n, n), torch.randn(n, n)
        outputs = {name: torch.zeros(n, n) for name in ("torch.mm", "xsmm_nest") + kernels}
        runs = {"torch.mm": lambda: torch.mm(a, b, out=outputs["torch.mm"])}
        for name in kernels:
            launch = getattr(lib, LAUNCHERS[name])
            launch.restype = ctypes.c_int
            args = (None, ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(b.data_ptr()),
                    ctypes.c_void_p(outputs[name].data_ptr()), n, n, n, n, 1, n, 1, n, 1)

            def run(launch=launch, args=args, name=name):
                if (status := launch(*args)) != 0:
                    raise SystemExit(f"{name}: launch failed ({status})")
            runs[name] = run
        if xsmm is not None and n % 128 == 0:
            pointers = [ctypes.c_void_p(x.data_ptr()) for x in (a, b, outputs["xsmm_nest"])]

            def run_xsmm(pointers=pointers, n=n):
                if xsmm(*pointers, n) != 0:
                    raise SystemExit("xsmm_nest: libxsmm has no kernel for the tile")
            runs["xsmm_nest"] = run_xsmm
        rates = {name: [] for name in runs}
        peaks = []
        for round_ in range(rounds):
            if peak is not None:
                peaks.append(peak(30_000_000))
            for name, run in runs.items():
                if threads > 1:
                    time.sleep(0.4)  # both OpenMP runtimes' spinning workers go to sleep
                rates[name].append(2 * n**3 / median_seconds(run, repetitions) / 1e9)
            line = " ".join(f"{name} {rates[name][-1]:.0f}" for name in runs)
            print(f"n={n} round {round_}: {line}" + (f" fma_peak {peaks[-1]:.0f}" if peaks else ""),
                  flush=True)
        for name in kernels:
            if not torch.equal(outputs[name], outputs[KERNELS[0]]):
                raise SystemExit(f"n={n}: {name} differs from {KERNELS[0]}")
        # Each element sums n products in k order, MKL in its own: each within n * 2^-24 of the
        # sum of |a b| (the bound the tests use), so the two within twice that (on the largest).
        bound = 2 * n * 2.0**-24 * (a.abs() @ b.abs()).max().item()
        error = (outputs[KERNELS[0]] - outputs["torch.mm"]).abs().max().item()
        if error > bound:
            raise SystemExit(f"n={n}: the largest difference to torch.mm, {error}, exceeds {bound}")
        summary = " ".join(f"{name} {statistics.median(rates[name]):.1f}" for name in runs)
        print(f"n={n} T={threads} medians (GFLOP/s): {summary}" +
              (f" fma_peak {statistics.median(peaks):.1f}" if peaks else ""))
        if "xsmm_nest" in runs:
            same = torch.equal(outputs["xsmm_nest"], outputs[KERNELS[0]])
            print(f"n={n}: xsmm_nest's result is {'' if same else 'not '}bit-identical to tcpu's")
        for name in [name for name in runs if name != "torch.mm"]:
            ratios = [x / t for x, t in zip(rates[name], rates["torch.mm"])]
            print(f"n={n} T={threads} {name} / torch.mm by round: " +
                  " ".join(f"{r:.2f}" for r in ratios) +
                  f"; median {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
