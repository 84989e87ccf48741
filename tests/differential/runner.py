"""Runs seeds on tcpu and on real Triton's interpreter and compares them (README.md).

    python runner.py [count] [first-seed]     prints each disagreement, exits 1 if any

Both sides run as subprocesses of this one (worker.py), in parallel, in batches: tcpu with its
`triton` alias installed, the interpreter with TRITON_INTERPRET=1 and Python's own
`import triton` (the real package installed beside tcpu). `compare` states the rules."""

from __future__ import annotations

import os
import re
import pathlib
import pickle
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generator import Case, generate  # noqa: E402


# Where the interpreter itself fails on valid Triton that compiles and runs on the GPU (each is
# shown by a kernel of scripts/gpu/differential-goldens.py,
# docs/conformance/differential-testing.md): a case whose interpreter run raises one of these while
# tcpu ran is the interpreter's deviation, counted apart, not a disagreement.
INTERPRETER_DEVIATIONS = {
    "invert-unsigned": re.compile(r"OverflowError\('Python integer -1 out of bounds for uint"),
    "reduce-keep-dims-rank": re.compile(r"Cannot broadcast, rank mismatch: \['1'\]"),
    "bool-subtract": re.compile(r"numpy boolean subtract"),
    "float-argument": re.compile(r"'float' object has no attribute"),
}


# Seeds whose values differ because the interpreter computes wrongly where no error says so,
# each checked by hand (docs/conformance/differential-testing.md) and shown by a GPU kernel.
INTERPRETER_VALUE_DEVIATIONS = {
    775: "ashr-unsigned-data",  # signed >> (promoted to unsigned): numpy data left signed
    1136: "ashr-unsigned-data",
    1196: "umulhi-sign-extends",  # int32 umulhi: operands sign-extended into the product
}


def interpreter_deviation(mine: dict, theirs: dict, seed: int | None = None) -> str | None:
    """The name of the interpreter's known failure that explains this pair, or None."""
    if seed in INTERPRETER_VALUE_DEVIATIONS and "error" not in mine and "error" not in theirs:
        return INTERPRETER_VALUE_DEVIATIONS[seed]
    if "error" in mine or "error" not in theirs:
        return None
    for name, pattern in INTERPRETER_DEVIATIONS.items():
        if pattern.search(theirs["error"]):
            return name
    return None


# Where the workers write each case's module: the same path in every run (worker.py says why).
CASES = pathlib.Path(tempfile.gettempdir()) / f"tcpu-differential-cases-{os.getuid()}"


@dataclass
class Disagreement:
    seed: int
    what: str

    def __str__(self) -> str:
        return f"seed {self.seed}: {self.what}"


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in units in the last place of a's precision (fp32 or fp64 data)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    spacing = np.abs(np.spacing(np.maximum(np.abs(a64), np.abs(b64)).astype(a.dtype)))
    return np.abs(a64 - b64) / spacing.astype(np.float64)


def compare_output(rule: str, mine: np.ndarray, theirs: np.ndarray) -> str | None:
    """None when equal under `rule`, else what differs.

    Integers and booleans (every output of an integer or bool value, stored as int64):
    bit for bit. Floats (stored as float64, exactly): equal values, NaN matching NaN whatever
    its payload, +0.0 matching -0.0 (min/max and where choose between zeros differently
    across implementations without either being wrong). "ulp:<n>": a transcendental
    function's result within n units in the last place of the type it was computed in."""
    if mine.shape != theirs.shape or mine.dtype != theirs.dtype:
        return f"shape/dtype {mine.shape} {mine.dtype} vs {theirs.shape} {theirs.dtype}"
    if mine.dtype.kind in "iub":
        bad = mine != theirs
    else:
        nan_mine, nan_theirs = np.isnan(mine), np.isnan(theirs)
        bad = (nan_mine != nan_theirs) | (~nan_mine & ~nan_theirs & (mine != theirs))
        if rule.startswith("ulp:"):
            limit = float(rule.split(":")[1])
            finite = np.isfinite(mine) & np.isfinite(theirs)
            close = np.zeros_like(bad)
            with np.errstate(all="ignore"):
                # The result was computed in fp32 or fp64: measure in that precision.
                narrow = mine.astype(np.float32)
                precision = np.float32 if np.array_equal(narrow.astype(np.float64), mine,
                                                         equal_nan=True) else np.float64
                close[finite] = _ulps(mine[finite].astype(precision),
                                      theirs[finite].astype(precision)) <= limit
            bad &= ~close
    if not bad.any():
        return None
    index = int(np.flatnonzero(bad)[0])
    return (f"{int(bad.sum())} of {bad.size} elements differ, first at {index}: "
            f"tcpu {mine.flat[index]!r} vs interpreter {theirs.flat[index]!r}")


def compare(case: Case, mine: dict, theirs: dict) -> str | None:
    """A disagreement between tcpu's result (`mine`) and the interpreter's, or None."""
    if "harness" in str(mine.get("error", "")) or "harness" in str(theirs.get("error", "")):
        return f"harness failure: tcpu {mine.get('error')} / interpreter {theirs.get('error')}"
    if ("error" in mine) != ("error" in theirs):
        return (f"refusal differs: tcpu {mine.get('error', 'ran')!s} / interpreter "
                f"{theirs.get('error', 'ran')!s}")
    if "error" in mine:
        return None  # both refused: the message wording is each side's own
    for argument, a, b in zip(case.outputs, mine["outputs"], theirs["outputs"]):
        problem = compare_output(argument.rule, a, b)
        if problem:
            return f"{argument.name}: {problem}"
    return None


def _side_command(side: str, results: pathlib.Path, workdir: pathlib.Path, seeds: list[int]
                  ) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    if side == "interpret":
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("TRITON_INTERPRET", None)
    command = [sys.executable, str(HERE / "worker.py"), side, str(results), str(workdir)]
    return command + [str(s) for s in seeds], env


def run_both(seeds: list[int], scratch: pathlib.Path, batch: int = 200
             ) -> tuple[dict[int, dict], dict[int, dict]]:
    """Each side's results for `seeds`, both sides running at once, `batch` seeds a process."""
    results: dict[str, dict[int, dict]] = {"tcpu": {}, "interpret": {}}
    for start in range(0, len(seeds), batch):
        chunk = seeds[start:start + batch]
        running = []
        for side in results:
            out = scratch / f"{side}-{start}.pkl"
            command, env = _side_command(side, out, CASES / side, chunk)
            running.append((side, out, subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                                        stderr=subprocess.STDOUT, text=True)))
        for side, out, process in running:
            log, _ = process.communicate()
            if process.returncode != 0 or not out.exists():
                raise RuntimeError(f"the {side} worker failed ({process.returncode}):\n"
                                   f"{log[-4000:]}")
            results[side].update(pickle.loads(out.read_bytes()))
    return results["tcpu"], results["interpret"]


@dataclass
class Summary:
    cases: int
    both_ran: int
    both_refused: int
    deviations: dict[int, str]  # seed -> the interpreter's known deviation
    disagreements: list[Disagreement]

    def __str__(self) -> str:
        return (f"{self.cases} cases: {self.both_ran} ran on both sides, {self.both_refused} "
                f"refused by both, {len(self.deviations)} the interpreter's known deviations, "
                f"{len(self.disagreements)} disagreements")


def differences(seeds: list[int], scratch: pathlib.Path | None = None) -> Summary:
    with tempfile.TemporaryDirectory(prefix="tcpu-differential-") as temporary:
        where = scratch or pathlib.Path(temporary)
        mine, theirs = run_both(seeds, where)
    summary = Summary(len(seeds), 0, 0, {}, [])
    for seed in seeds:
        deviation = interpreter_deviation(mine[seed], theirs[seed], seed)
        if deviation:
            summary.deviations[seed] = deviation
            continue
        try:
            problem = compare(generate(seed), mine[seed], theirs[seed])
        except Exception as e:  # noqa: BLE001 - the generator itself
            problem = f"harness failure: {type(e).__name__}: {e}"
        if problem:
            summary.disagreements.append(Disagreement(seed, problem))
        elif "error" in mine[seed]:
            summary.both_refused += 1
        else:
            summary.both_ran += 1
    return summary


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    seeds = list(range(first, first + count))
    total = Summary(0, 0, 0, {}, [])
    began = time.monotonic()
    step = 50  # report as batches finish: a cold run compiles every kernel
    for start in range(0, len(seeds), step):
        summary = differences(seeds[start:start + step])
        for d in summary.disagreements:
            print(d, flush=True)
        for seed, name in sorted(summary.deviations.items()):
            print(f"seed {seed}: the interpreter's deviation {name}", flush=True)
        total.cases += summary.cases
        total.both_ran += summary.both_ran
        total.both_refused += summary.both_refused
        total.deviations.update(summary.deviations)
        total.disagreements += summary.disagreements
        print(f"-- seeds {first}..{first + total.cases - 1}: {total} "
              f"({time.monotonic() - began:.0f} s)", flush=True)
    return 1 if total.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
