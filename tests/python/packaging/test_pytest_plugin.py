"""`pytest -p tcpu.pytest_plugin` (python/tcpu/pytest_plugin.py) on the example project
examples/pytest_project: its Triton tests pass unchanged on the CPU, under pytest-xdist with
one fresh compile cache shared by the workers, next to the project's own --device option."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

PROJECT = pathlib.Path(__file__).resolve().parents[3] / "examples" / "pytest_project"
HAS_XDIST = importlib.util.find_spec("xdist") is not None


def run_pytest(tmp_path, *args):
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PYTEST_XDIST_WORKER", None)
    # From the project's folder, as its developers run it (its conftest's --device is known
    # to pytest only where the conftest is found before the command line is parsed).
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          env=env, capture_output=True, text=True, cwd=PROJECT, timeout=600)


@pytest.mark.skipif(not HAS_XDIST, reason="pytest-xdist is not installed")
def test_project_tests_pass_under_xdist_with_a_shared_cache(tmp_path):
    result = run_pytest(tmp_path, "-p", "tcpu.pytest_plugin", "-n", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "11 passed" in result.stdout
    assert any((tmp_path / "cache").rglob("*")), "the workers compiled nothing into the cache"


def test_header_names_tcpu_and_the_projects_own_option_works(tmp_path):
    result = run_pytest(tmp_path, "-p", "tcpu.pytest_plugin", "--device=cpu", "-k", "gelu")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "triton: tcpu " in result.stdout and "on the CPU" in result.stdout
    assert "6 passed" in result.stdout


def test_without_the_plugin_triton_is_not_tcpu(tmp_path):
    # Opt-in only: nothing routes `import triton` to tcpu unless the plugin is named.
    # (This process has tcpu's alias installed by conftest: ask a fresh interpreter.)
    plain = subprocess.run([sys.executable, "-c", "import triton"], capture_output=True)
    if plain.returncode == 0:
        pytest.skip("a real Triton is installed here")
    result = run_pytest(tmp_path, "-k", "gelu")
    assert result.returncode != 0
    assert "No module named 'triton'" in result.stdout + result.stderr


GPU_STAGE_TEST = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _copy(X, Y):
    tl.store(Y, tl.load(X))


def _launch():
    x = torch.ones(1)
    return _copy[(1,)](x, torch.zeros(1))


def test_reads_ttgir():
    kernel = _launch()
    assert "ttgir" not in kernel.asm and "tl::" in kernel.asm["source"]
    assert "ttg." in kernel.asm["ttgir"]


def test_other_key_errors_still_fail():
    _launch().asm["no such stage"]


def test_cuda_device_of_a_cpu_tensor_is_a_no_op():
    with torch.cuda.device(torch.zeros(1).device.index):  # None: no device, as documented
        _launch()
    if not torch.cuda.is_available():
        try:
            with torch.cuda.device(0):
                raise AssertionError("entered a CUDA device without CUDA")
        except RuntimeError:
            pass
'''


def test_gpu_stages_skipped_with_the_reason_and_cuda_device_none(tmp_path):
    (tmp_path / "test_stage.py").write_text(GPU_STAGE_TEST)
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p",
                             "tcpu.pytest_plugin", "-rs", "test_stage.py"], env=env,
                            capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert "1 failed, 1 passed, 1 skipped" in result.stdout, result.stdout + result.stderr
    assert "Triton's GPU compiler stage 'ttgir' does not exist on the CPU" in result.stdout
    assert "test_other_key_errors_still_fail" in result.stdout
