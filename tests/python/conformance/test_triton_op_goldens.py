"""tcpu against real Triton, one op at a time: every case of tests/goldens/triton_ops (outputs of
Triton 3.6 on an H100, recorded by scripts/gpu/record_triton_op_goldens.py from op_cases.py) runs
on the CPU on the very same inputs and is judged by the case's rules with `tcpu xcheck --compare`
(exact where Triton is deterministic, a stated ULP or relative-norm bound elsewhere; the rules and
their reasons are in tests/goldens/README.md)."""

from __future__ import annotations

import pathlib
import re

import pytest
import torch

import op_cases
from conftest import REAL_TRITON, ROOT
from test_triton_goldens import run_against_golden

GOLDENS = ROOT / "tests" / "goldens" / "triton_ops"
CASES = sorted(p.name for p in GOLDENS.iterdir() if (p / "xcheck.txt").exists())

# Valid Triton that tcpu gets wrong (the goldens were recorded from these kernels). A case whose
# kernel tcpu cannot compile is expected to raise InternalError; for the others, the outputs named
# here are expected to fail their rule and every other output to pass. Strict both ways: a fix
# shows up as a failure that asks for its entry to be removed.
TCPU_BUGS: dict[str, tuple[frozenset[str] | None, str]] = {}

_RESULT_LINE = re.compile(r"^(\S+)\s+(\S+)\s+\d+\s.*\s(pass|FAIL\b.*)$")


@pytest.fixture(scope="module")
def cpu_cases() -> dict:
    return {build.__name__: build for build in op_cases.BUILDERS}


def test_every_golden_has_a_case(cpu_cases: dict) -> None:
    assert set(CASES) <= set(cpu_cases), set(CASES) - set(cpu_cases)
    assert len(CASES) >= 15


def _marks(name: str) -> list:
    outputs, reason = TCPU_BUGS.get(name, (frozenset(), ""))
    if outputs is None and not REAL_TRITON:
        from tcpu.frontend.errors import InternalError
        return [pytest.mark.xfail(raises=InternalError, strict=True, reason=reason)]
    return []


def failing_outputs(stdout: str, case: str) -> set[str]:
    """The outputs of `case` that `tcpu xcheck --compare` reports as failing their rule."""
    found = (_RESULT_LINE.match(line) for line in stdout.splitlines())
    return {m.group(2) for m in found if m and m.group(1) == case and m.group(3).startswith("FAIL")}


@pytest.mark.skipif(REAL_TRITON, reason="compares tcpu's CPU results with the goldens")
@pytest.mark.parametrize("name", [pytest.param(n, marks=_marks(n)) for n in CASES])
def test_matches_real_triton(name: str, cpu_cases: dict, tmp_path: pathlib.Path) -> None:
    case = cpu_cases[name](torch.device("cpu"))
    assert case.name == name
    result = run_against_golden(case, GOLDENS / name, tmp_path / name)
    known, reason = TCPU_BUGS.get(name, (frozenset(), ""))
    if not known:
        assert result.returncode == 0, result.stdout + result.stderr
        return
    failing = failing_outputs(result.stdout, name)
    assert failing == known, (f"expected exactly {sorted(known)} to fail (known tcpu bug), got "
                              f"{sorted(failing)}; if fixed, remove the entry from TCPU_BUGS\n"
                              + result.stdout + result.stderr)
    pytest.xfail(reason)
