"""Triton's tutorials 01-08, as written in Triton's language in examples/python: each script's
main() runs its kernels on the tutorial's algorithm and checks them against PyTorch (the
tolerances and their reasons are in the scripts)."""

from __future__ import annotations

import pytest

from example_scripts import SCRIPTS, load


def test_all_eight_tutorials_are_here() -> None:
    assert len(SCRIPTS) == 8, SCRIPTS


@pytest.mark.parametrize("stem", SCRIPTS)
def test_tutorial_checks_pass(stem: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = load(stem).main([])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "OK" in out, out
