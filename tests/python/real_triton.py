"""Running a script under an interpreter that has the real Triton (not tcpu's alias), for tests
that compare tcpu's names with Triton's: the interpreter running the tests (the tests' .venv
has Triton 3.6 beside tcpu), else <repo>/.venv, or the one TCPU_REAL_TRITON_PYTHON names."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRITON_VERSION = "3.6"


def _candidates() -> list[str]:
    explicit = os.environ.get("TCPU_REAL_TRITON_PYTHON")
    found = [explicit] if explicit else []
    return found + [sys.executable, str(ROOT / ".venv" / "bin" / "python")]


def run_json(script: str) -> dict:
    """What `script` prints as JSON (a dict holding "file" and "version": triton's), run by the
    first interpreter with a real Triton of TRITON_VERSION; skips the test, saying what was
    tried, where none has it."""
    tried = []
    for python in _candidates():
        if not os.path.exists(python):
            continue
        env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
        run = subprocess.run([python, "-c", script], capture_output=True, text=True,
                             env=env, cwd="/", timeout=120)
        if run.returncode != 0:
            tried.append(f"{python}: no triton ({run.stderr.strip().splitlines()[-1:]})")
            continue
        found = json.loads(run.stdout)
        if "tcpu" in pathlib.Path(found["file"]).parts:
            tried.append(f"{python}: its triton is tcpu's")
        elif not found["version"].startswith(TRITON_VERSION):
            tried.append(f"{python}: Triton {found['version']}, the test is for {TRITON_VERSION}")
        else:
            return found
    pytest.skip(f"needs a real Triton {TRITON_VERSION} (tried: {'; '.join(tried) or 'none'}); "
                "set TCPU_REAL_TRITON_PYTHON to an interpreter that has it")
