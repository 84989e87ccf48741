#!/usr/bin/env python3
"""Runs Triton's tutorials (python/tutorials/NN-*.py of a Triton source tree), each unmodified,
under `python -m tcpu` (kernels on the CPU), and prints per tutorial: passed / skipped itself /
failed for a GPU-only reason / failed in its own PyTorch reference / failed, why, and how long
it took. docs/conformance/tutorials.md has the latest figures and what each tutorial needs.

  PYTHONPATH=$PWD/build-clang/python /work/main/.venv/bin/python scripts/triton/run-triton-tutorials.py \\
      --triton-tests /work/triton-tests [--timeout 900] [--markdown out.md] [01 03 ...]

Triton's files are located, never copied into this tree: --triton-tests DIR or
TCPU_TRITON_TESTS=DIR names a Triton source tree (DIR/python/tutorials). From a Triton git
repository: `git -C REPO archive 004d7f5f5 python/tutorials | tar -x -C DIR`.

Each tutorial runs in its own process, in a scratch directory (they write plots, CSV files
and profiles into the current one), with the interpreter running this script (it must have
tcpu and torch; 06 imports pytest; without matplotlib, plots are skipped, saying so). Benchmarks run
at the tutorials' GPU sizes; tcpu's `perf_report` stops starting new sizes after
TCPU_BENCH_BUDGET_S seconds per benchmark (60 by default), which --bench-budget sets."""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from triton_suite.locate import ENV_TESTS  # the same variable names Triton's tree for the tests
TUTORIALS = pathlib.PurePosixPath("python/tutorials")

# Tutorials that cannot run on any CPU backend, each with what stops it (read in the
# tutorial) and the text its failure prints, so that a different failure is not excused.
GPU_ONLY = {
    "07": ("asserts `x.is_cuda` on its tensors, then raises 'unknown backend' unless the "
           "target is CUDA or HIP (it passes libdevice's bitcode path)", "x.is_cuda"),
    "09": ("allocates its inputs with device=\"cuda\" and asks torch.cuda for the SM count "
           "(its kernels take a CPU tensor, but its driver code does not)",
           "Torch not compiled with CUDA enabled"),
}
# Tutorials whose own reference (PyTorch on the CPU) is further from the exact result than the
# tutorial's tolerance, while the kernels' results are within it.
REFERENCE_OFF = {
    "05": ("its reference, PyTorch's CPU fp16 layer_norm backward (torch 2.13), is 0.06 off the "
           "exact bias and weight gradients (sums over 1151 rows, computed in float64), beyond "
           "the tutorial's atol 1e-2; tcpu's are within 0.008 of them (fp16 rounding)",
           "assert torch.allclose(db_tri, db_ref"),
}
# Tutorials that check for a GPU feature themselves and exit without running a kernel.
SELF_SKIPS = {
    "10": ("needs block-scaled MMA (NVIDIA compute capability 10, or AMD gfx950)",
           "requires GPU support for block scaled matmul"),
    "11": ("needs programmatic dependent launch (NVIDIA compute capability >= 9)",
           "PDL is not supported on this device"),
}


@dataclass
class Outcome:
    number: str
    name: str
    status: str  # passed, skipped itself, GPU only, reference off, failed, timed out
    why: str
    seconds: float


def locate(explicit: str | None) -> pathlib.Path:
    root = explicit or os.environ.get(ENV_TESTS)
    if not root:
        raise SystemExit(f"Triton's tutorials were not found: give --triton-tests DIR or "
                         f"{ENV_TESTS}=DIR (a Triton source tree holding {TUTORIALS})")
    tutorials = pathlib.Path(root).resolve() / TUTORIALS
    if not tutorials.is_dir():
        raise SystemExit(f"{tutorials} is not a directory: --triton-tests names a Triton "
                         f"source tree holding {TUTORIALS}")
    return tutorials


def last_error(output: str) -> str:
    """The exception a failed run ended with (the last line that names one)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if re.match(r"^[\w.]+(Error|Exception|Failure|Interrupt)\b", line) or \
                line.startswith("AssertionError"):
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def run_one(path: pathlib.Path, timeout: float, env: dict[str, str], log_dir: pathlib.Path | None
            ) -> Outcome:
    number = path.name[:2]
    with tempfile.TemporaryDirectory(prefix=f"tutorial-{number}-") as scratch:
        begin = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-m", "tcpu", str(path)], cwd=scratch,
                                  env=env, capture_output=True, text=True, timeout=timeout)
            output, returncode = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired as expired:
            output = _text(expired.stdout) + _text(expired.stderr)
            returncode = None
        seconds = time.monotonic() - begin
    if log_dir is not None:
        (log_dir / f"{path.stem}.log").write_text(output)
    if returncode is None:
        return Outcome(number, path.stem, "timed out", f"after {timeout:.0f} s", seconds)
    if returncode == 0:
        skip = SELF_SKIPS.get(number)
        if skip and skip[1] in output:
            return Outcome(number, path.stem, "skipped itself", skip[0], seconds)
        return Outcome(number, path.stem, "passed", "", seconds)
    error = last_error(output)
    gpu = GPU_ONLY.get(number)
    if gpu and gpu[1] in output:
        return Outcome(number, path.stem, "GPU only", f"{gpu[0]}: {error}", seconds)
    reference = REFERENCE_OFF.get(number)
    if reference and reference[1] in output:
        return Outcome(number, path.stem, "reference off", reference[0], seconds)
    return Outcome(number, path.stem, "failed", error, seconds)


def _text(data: str | bytes | None) -> str:
    if data is None:
        return ""
    return data.decode(errors="replace") if isinstance(data, bytes) else data


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--triton-tests", help=f"a Triton source tree (or {ENV_TESTS})")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per tutorial")
    parser.add_argument("--bench-budget", type=float, default=None,
                        help="seconds per perf_report benchmark (TCPU_BENCH_BUDGET_S)")
    parser.add_argument("--logs", help="a directory for each tutorial's output")
    parser.add_argument("--markdown", help="also write the table here")
    parser.add_argument("only", nargs="*", help="tutorial numbers (01 ... 11); default all")
    args = parser.parse_args(argv)
    tutorials = locate(args.triton_tests)
    paths = sorted(p for p in tutorials.glob("[0-9][0-9]-*.py")
                   if not args.only or p.name[:2] in args.only)
    env = dict(os.environ)
    env.setdefault("MPLBACKEND", "Agg")  # show_plots=True must not open a window
    if args.bench_budget is not None:
        env["TCPU_BENCH_BUDGET_S"] = str(args.bench_budget)
    log_dir = pathlib.Path(args.logs) if args.logs else None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    outcomes = []
    for path in paths:
        outcome = run_one(path, args.timeout, env, log_dir)
        outcomes.append(outcome)
        print(f"{outcome.name:40} {outcome.status:15} {outcome.seconds:7.1f} s  {outcome.why}",
              flush=True)
    table = ["| tutorial | result | time (s) | why |", "|---|---|---|---|"]
    table += [f"| {o.name} | {o.status} | {o.seconds:.0f} | {o.why} |" for o in outcomes]
    if args.markdown:
        pathlib.Path(args.markdown).write_text("\n".join(table) + "\n")
    bad = [o for o in outcomes if o.status in ("failed", "timed out")]
    print(f"{len(outcomes)} tutorials: {len(outcomes) - len(bad)} as expected on a CPU, "
          f"{len(bad)} failed or timed out")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
