"""TRITON_INTERPRET=1 under `python3 -m tcpu` and `pytest -p tcpu.pytest_plugin`
(tcpu.aliases.route_triton): a real Triton installed beside tcpu keeps `import triton` and its
interpreter runs the kernels; with none installed the run is refused with a message. Never
ignored: these tests fail if tcpu ran the kernels while the interpreter was asked for."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import ROOT
from tcpu import aliases

REAL_TRITON = aliases.real_triton_version()
needs_real_triton = pytest.mark.skipif(REAL_TRITON is None,
                                       reason="no real Triton installed beside tcpu")

SCRIPT = """
import torch
import triton
import triton.language as tl

@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)

x, y = torch.rand(1000), torch.rand(1000)
out = torch.empty(1000)
add[(triton.cdiv(1000, 256),)](x, y, out, 1000, BLOCK=256)
assert torch.equal(out, x + y)
print("triton from", triton.__file__)
"""


def _run(args: list[str], tmp_path: pathlib.Path, **env: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"), **env)
    environment.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(args, env=environment, capture_output=True, text=True, timeout=600,
                          cwd=tmp_path)


@needs_real_triton
def test_interpret_runs_the_real_tritons_interpreter(tmp_path):
    (tmp_path / "script.py").write_text(SCRIPT)
    result = _run([sys.executable, "-m", "tcpu", "script.py"], tmp_path, TRITON_INTERPRET="1")
    assert result.returncode == 0, result.stdout + result.stderr
    line = next(l for l in result.stdout.splitlines() if l.startswith("triton from"))
    assert "tcpu" not in line, line
    assert f"the installed Triton {REAL_TRITON}, whose interpreter runs" in result.stderr


def test_without_interpret_the_script_runs_on_tcpu_even_beside_a_real_triton(tmp_path):
    (tmp_path / "script.py").write_text(SCRIPT)
    result = _run([sys.executable, "-m", "tcpu", "script.py"], tmp_path, TRITON_INTERPRET="0")
    assert result.returncode == 0, result.stdout + result.stderr
    line = next(l for l in result.stdout.splitlines() if l.startswith("triton from"))
    assert f"{os.sep}tcpu{os.sep}triton{os.sep}" in line, line
    assert result.stderr == ""


def test_interpret_without_a_real_triton_is_refused(tmp_path):
    # An interpreter that sees tcpu and nothing else: no site-packages (-S), only a directory
    # holding a link to the imported tcpu package.
    import tcpu
    path = tmp_path / "path"
    path.mkdir()
    (path / "tcpu").symlink_to(pathlib.Path(tcpu.__file__).parent, target_is_directory=True)
    (tmp_path / "script.py").write_text(SCRIPT)
    result = _run([sys.executable, "-S", "-m", "tcpu", "script.py"], tmp_path,
                  TRITON_INTERPRET="true", PYTHONPATH=str(path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "TRITON_INTERPRET=true asks for Triton's interpreter" in result.stderr
    assert "unset TRITON_INTERPRET to run the kernels on tcpu" in result.stderr
    assert result.stdout == ""  # the script never ran


@needs_real_triton
def test_pytest_plugin_honours_interpret(tmp_path):
    project = ROOT / "examples" / "pytest_project"
    environment = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"), TRITON_INTERPRET="1")
    environment.pop("PYTEST_XDIST_WORKER", None)
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p",
                             "tcpu.pytest_plugin", "--device=cpu", "-k", "gelu"],
                            env=environment, capture_output=True, text=True, cwd=project,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"triton: Triton {REAL_TRITON}'s interpreter (TRITON_INTERPRET)" in result.stdout
    assert "6 passed" in result.stdout
    assert not (tmp_path / "cache").exists(), "tcpu compiled kernels while interpreting"
