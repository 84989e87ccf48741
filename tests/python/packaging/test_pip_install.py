"""`pip install .` and `pip install -e .` (pyproject.toml, scikit-build-core driving the CMake
build; scripts/pip-install.sh): the installed package imports without PYTHONPATH, its kernels
compile and run, the `tcpu` command works, for the Python that ran pip.

The regular install is the one the suite itself runs against in CI (scripts/run-tests.sh:
scripts/run-python-tests.sh --installed); the editable one is made here, into a fresh virtual
environment, from the same build directory (nothing is recompiled)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import sysconfig
import venv

import pytest

from conftest import ROOT

REQUIREMENTS = ROOT / "scripts" / "venv-requirements.txt"

KERNEL = """
import numpy as np
import triton
import triton.language as tl

@triton.jit
def scale(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) * 3, mask=mask)

x = np.arange(100, dtype=np.float32)
out = np.empty_like(x)
scale[(triton.cdiv(100, 64),)](x, out, 100, BLOCK=64)
assert (out == x * 3).all()
import tcpu
print("tcpu from", tcpu.__file__)
"""


def _installed_by_pip() -> bool:
    from tcpu._cli import tool_path
    return tool_path("tcpu").parent.name == "bin"


def _pinned(*names: str) -> list[str]:
    lines = [l.strip() for l in REQUIREMENTS.read_text().splitlines()]
    return [l for l in lines if l.split("==")[0] in names]


def _run(command, **kwargs) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **kwargs.pop("env", {}))
    environment.pop("PYTHONPATH", None)  # what is installed, not a build tree
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200,
                            env=environment, **kwargs)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.mark.skipif(not _installed_by_pip(), reason="the imported tcpu is a build tree's "
                    "(scripts/run-python-tests.sh --installed tests pip's install)")
def test_installed_package_and_command(tmp_path):
    import tcpu
    site = pathlib.Path(tcpu.__file__).resolve().parents[1]
    assert site == pathlib.Path(sysconfig.get_paths()["platlib"]).resolve(), site
    (tmp_path / "kernel.py").write_text(KERNEL)
    result = _run([sys.executable, "-m", "tcpu", "kernel.py"], cwd=tmp_path,
                  env={"TCPU_CACHE_DIR": str(tmp_path / "cache")})
    assert f"tcpu from {site}" in result.stdout
    # The entry point beside the interpreter runs the C++ tool installed in the package.
    command = pathlib.Path(sys.executable).parent / "tcpu"
    version = _run([str(command), "--version"], cwd=tmp_path)
    assert tcpu.__version__ in version.stdout + version.stderr


@pytest.mark.skipif(not _installed_by_pip(), reason="the imported tcpu is a build tree's "
                    "(scripts/run-python-tests.sh --installed tests pip's install)")
def test_installed_package_holds_every_module_of_the_checkout():
    # Packaging filters (pyproject.toml's exclusions, .gitignore) once left out
    # tcpu/frontend/build/, a folder whose name looks like a build tree's.
    import tcpu
    installed = pathlib.Path(tcpu.__file__).resolve().parent
    source = ROOT / "python" / "tcpu"
    missing = [str(f.relative_to(source)) for f in sorted(source.rglob("*.py"))
               if "__pycache__" not in f.parts and not (installed / f.relative_to(source)).is_file()]
    assert not missing, f"not installed by pip: {missing}"


def test_editable_install(tmp_path):
    # A fresh environment of the Python running the tests, seeing the system's packages (numpy)
    # but not this one's: what a developer's `pip install -e .` gives.
    environment = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=True).create(environment)
    python = environment / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
          *_pinned("scikit-build-core", "pybind11", "numpy")])
    _run([str(ROOT / "scripts" / "pip-install.sh"), str(python), "-e"])
    (tmp_path / "kernel.py").write_text(KERNEL)
    result = _run([str(python), "-m", "tcpu", "kernel.py"], cwd=tmp_path,
                  env={"TCPU_CACHE_DIR": str(tmp_path / "cache")})
    # Editable: the package's Python files are the checkout's own.
    assert f"tcpu from {ROOT / 'python' / 'tcpu' / '__init__.py'}" in result.stdout
    version = _run([str(environment / "bin" / "tcpu"), "--version"], cwd=tmp_path)
    assert "tcpu" in version.stdout + version.stderr
