"""A bounded differential run: random kernels (tests/differential/generator.py) on tcpu and on
real Triton's interpreter (TRITON_INTERPRET=1, a separate process), compared by the rules of
tests/differential/runner.py. More seeds on demand: scripts/triton/run-differential.sh [count]
[first-seed]; docs/conformance/differential-testing.md says what is compared and what was found."""

from __future__ import annotations

import os
import sys

import pytest

from conftest import ROOT
from tcpu import aliases

sys.path.insert(0, str(ROOT / "tests" / "differential"))

import runner  # noqa: E402

# Seeds 0..N-1: the same kernels every run, so that a warm compile cache serves them.
SEEDS = int(os.environ.get("TCPU_DIFFERENTIAL_SEEDS", "120"))


@pytest.mark.skipif(aliases.real_triton_version() is None,
                    reason="real Triton is not installed beside tcpu: its interpreter is the "
                    "reference (pip install triton into this environment to run these)")
def test_tcpu_agrees_with_tritons_interpreter(tmp_path):
    summary = runner.differences(list(range(SEEDS)), tmp_path)
    print(summary)
    assert not summary.disagreements, (
        f"{summary}\n" + "\n".join(str(d) for d in summary.disagreements)
        + "\nreproduce one with scripts/triton/run-differential.sh 1 <seed>")
    # A generator that only produced refusals would compare nothing.
    assert summary.both_ran > SEEDS // 2, summary


def test_the_comparison_rules_tell_differences_apart():
    import numpy as np
    exact = runner.compare_output
    assert exact("exact", np.array([1, -2], np.int64), np.array([1, -2], np.int64)) is None
    assert "1 of 2" in exact("exact", np.array([1, 2], np.int64), np.array([1, 3], np.int64))
    nan = float("nan")
    assert exact("exact", np.array([nan, -0.0]), np.array([nan, 0.0])) is None
    assert exact("exact", np.array([nan]), np.array([1.0])) is not None
    assert exact("exact", np.array([1.0]), np.array([np.nextafter(1.0, 2.0)])) is not None
    one_ulp = float(np.nextafter(np.float32(1.5), np.float32(2.0)))
    assert exact("ulp:4", np.array([1.5]), np.array([one_ulp])) is None
    assert exact("ulp:4", np.array([1.5]), np.array([1.5 + 2.0**-15])) is not None
    assert "shape" in exact("exact", np.zeros(2), np.zeros(3))
