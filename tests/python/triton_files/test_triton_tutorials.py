"""Triton's own tutorial files, unmodified, under `python -m tcpu`
(scripts/triton/run-triton-tutorials.py): the quick ones, each benchmark cut to its first size
(TCPU_BENCH_BUDGET_S=0). Triton's files are not in this tree: the test runs where
TCPU_TRITON_TESTS names a Triton source tree, and is skipped, saying so, elsewhere. The
tutorials written in this tree (examples/python) are test_tutorials.py's."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import ROOT

# 03, 05, 06 and 08 take minutes on a small CPU even at one size (autotuning, GPU sizes).
QUICK = ["01", "02", "04", "07", "09", "10", "11"]


def test_quick_tutorials_run_or_fail_only_for_a_gpu(tmp_path: pathlib.Path) -> None:
    tree = os.environ.get("TCPU_TRITON_TESTS")
    if not tree or not (pathlib.Path(tree) / "python" / "tutorials").is_dir():
        pytest.skip("set TCPU_TRITON_TESTS to a Triton source tree (python/tutorials in it)")
    table = tmp_path / "table.md"
    script = ROOT / "scripts" / "triton" / "run-triton-tutorials.py"
    run = subprocess.run([sys.executable, str(script),
                          "--triton-tests", tree, "--bench-budget", "0", "--timeout", "300",
                          "--markdown", str(table), *QUICK],
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {line.split("|")[1].strip()[:2]: line.split("|")[2].strip()
            for line in table.read_text().splitlines()[2:]}
    assert rows == {"01": "passed", "02": "passed", "04": "passed", "07": "GPU only",
                    "09": "GPU only", "10": "skipped itself", "11": "skipped itself"}, run.stdout
