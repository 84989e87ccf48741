"""tcpu against real Triton: every case of tests/goldens/triton (outputs of Triton 3.6 on an
H100, recorded by scripts/gpu/record_triton_goldens.py from the examples' golden_cases) runs on
the CPU on the very same inputs (loaded from the goldens' .npy files) and is judged by the
case's rule with `tcpu xcheck --compare` (exact where Triton is deterministic, a stated ULP or
relative-norm bound elsewhere; the rules and their reasons are in tests/goldens/README.md)."""

from __future__ import annotations

import pathlib
import subprocess

import numpy as np
import pytest
import torch

from conftest import REAL_TRITON, ROOT, tcpu_cli
from example_scripts import SCRIPTS, load

GOLDENS = ROOT / "tests" / "goldens" / "triton"
CASES = sorted(p.name for p in GOLDENS.iterdir() if (p / "xcheck.txt").exists())


def _cpu_cases() -> dict:
    cases = {}
    for stem in SCRIPTS:
        for case in load(stem).golden_cases(torch.device("cpu")):
            cases[case.name] = case
    return cases


@pytest.fixture(scope="module")
def cpu_cases() -> dict:
    return _cpu_cases()


def test_every_golden_has_a_case(cpu_cases: dict) -> None:
    assert set(CASES) <= set(cpu_cases), set(CASES) - set(cpu_cases)
    assert len(CASES) >= 15


def _write_run(case, directory: pathlib.Path, golden: pathlib.Path) -> None:
    directory.mkdir(parents=True)
    lines = (golden / "xcheck.txt").read_text().splitlines()
    # Same case, kernel and seed; this run's backend and device.
    lines = [("backend tcpu" if l.startswith("backend ") else
              "device CPU (tcpu)" if l.startswith("device ") else l) for l in lines]
    (directory / "xcheck.txt").write_text("\n".join(lines) + "\n")
    for name, tensor in {**case.inputs, **case.outputs}.items():
        np.save(directory / f"{name}.npy", np.ascontiguousarray(tensor.detach().cpu().numpy()))


def run_against_golden(case, golden: pathlib.Path,
                       run: pathlib.Path) -> subprocess.CompletedProcess:
    """Loads the golden's inputs into `case`'s input tensors, launches the case on the CPU, writes
    the run to `run` and judges it against the golden with `tcpu xcheck --compare` (exit status 0:
    every output within its rule; stdout: the comparison table)."""
    for input_name, tensor in case.inputs.items():
        data = np.load(golden / f"{input_name}.npy")
        if tensor.dtype == torch.bfloat16:
            tensor.view(torch.int16).copy_(torch.from_numpy(data.view(np.int16)))
        else:
            tensor.copy_(torch.from_numpy(data))
    case.launch()
    _write_run(case, run, golden)
    return subprocess.run([str(tcpu_cli()), "xcheck", "--compare", str(golden), str(run)],
                          capture_output=True, text=True)


@pytest.mark.skipif(REAL_TRITON, reason="compares tcpu's CPU results with the goldens")
@pytest.mark.parametrize("name", CASES)
def test_matches_real_triton(name: str, cpu_cases: dict, tmp_path: pathlib.Path) -> None:
    result = run_against_golden(cpu_cases[name], GOLDENS / name, tmp_path / name)
    assert result.returncode == 0, result.stdout + result.stderr
