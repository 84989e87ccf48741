"""examples/torch_op: a PyTorch operator library over Triton-language kernels compiled ahead of
time by tcpu, built the three ways users build custom ops, each against tcpu installed into a
temporary prefix, then checked by the example's check_ops.py in a fresh process (a
TORCH_LIBRARY namespace registers once per process). CMake runs in every CI run; setuptools and
torch.utils.cpp_extension.load took 44 s and 21 s more here and run when asked
(TCPU_SLOW_TESTS=1)."""

from __future__ import annotations

import glob
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, tcpu_cli

EXAMPLE = ROOT / "examples" / "torch_op"
slow = pytest.mark.skipif(os.environ.get("TCPU_SLOW_TESTS") != "1",
                          reason="slow: TCPU_SLOW_TESTS=1 runs it")


def _torch_cmake_args() -> list[str] | None:
    """CMake arguments that find the torch this process imports: a pip-installed torch carries
    its CMake package (torch.utils.cmake_prefix_path, as its users pass it); Debian's
    python3-torch has it in libtorch-dev. The library must be built against the torch that
    loads it. TorchConfig looks for its libraries (libtorch.so, libc10.so) in the system's
    directories before its own, so beside Debian's libtorch-dev a pip torch's library
    directory is put first (CMAKE_LIBRARY_PATH)."""
    import torch
    prefix = pathlib.Path(torch.utils.cmake_prefix_path)
    if (prefix / "Torch").is_dir():
        libraries = pathlib.Path(torch.__file__).parent / "lib"
        return [f"-DCMAKE_PREFIX_PATH={prefix}", f"-DCMAKE_LIBRARY_PATH={libraries}"]
    for pattern in ("/usr/lib/*/cmake/Torch", "/usr/local/lib/*/cmake/Torch"):
        found = glob.glob(pattern)
        if found:
            return [f"-DCMAKE_PREFIX_PATH={pathlib.Path(found[0]).parent}"]
    return None


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> pathlib.Path:
    cli = tcpu_cli()
    if cli.parent.name == "bin" and cli.parents[1].name == "tcpu":
        # Installed by pip: site-packages is the prefix (site-packages/tcpu/lib/cmake/tcpu).
        return cli.parents[2]
    build = cli.parents[1]
    target = tmp_path_factory.mktemp("prefix")
    subprocess.run(["cmake", "--install", str(build), "--prefix", str(target)], check=True,
                   capture_output=True)
    return target


def _python_dir(prefix: pathlib.Path) -> pathlib.Path:
    if (prefix / "tcpu" / "compile.py").is_file():  # pip's site-packages
        return prefix
    return next(p.parents[1] for p in prefix.rglob("tcpu/compile.py"))


def _check(library: pathlib.Path) -> None:
    result = subprocess.run([sys.executable, str(EXAMPLE / "check_ops.py"), str(library)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all checks passed" in result.stdout


def _run(command, **kwargs) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, **kwargs)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"


def test_cmake_build(prefix, tmp_path):
    torch_args = _torch_cmake_args()
    if torch_args is None:
        pytest.fail("Torch's CMake package is missing (Debian: libtorch-dev; "
                    "scripts/install-deps.sh installs it)")
    build = tmp_path / "build"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    torch_args[0] += f";{prefix}"  # CMAKE_PREFIX_PATH: tcpu's too
    _run(["cmake", "-S", str(EXAMPLE), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
          *torch_args])
    _run(["cmake", "--build", str(build)])
    _check(build / "libtcpu_ops.so")


@slow
def test_setuptools_build(prefix, tmp_path):
    source = tmp_path / "torch_op"
    shutil.copytree(EXAMPLE, source)
    env = dict(os.environ, PYTHONPATH=str(_python_dir(prefix)))
    _run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w",
          str(tmp_path / "dist"), "."], cwd=source, env=env)
    wheel = next((tmp_path / "dist").glob("tcpu_ops-*.whl"))
    shutil.unpack_archive(wheel, tmp_path / "installed", "zip")
    _check(next((tmp_path / "installed").glob("tcpu_ops_lib*.so")))


@slow
def test_jit_build(prefix, tmp_path):
    env = dict(os.environ, PYTHONPATH=f"{_python_dir(prefix)}{os.pathsep}{EXAMPLE}")
    code = ("import pathlib, sys, load_jit\n"
            f"load_jit.build_and_load(pathlib.Path({str(tmp_path)!r}))\n")
    _run([sys.executable, "-c", code], env=env)
    _check(tmp_path / "jit" / "tcpu_ops_jit.so")
