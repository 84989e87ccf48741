"""A kernel's unmasked store past a torch tensor (64-96 bytes past its end, the size of a
forgotten mask on the last block): under tcpu's pytest plugin the test that made it fails,
naming the kernel, program, parameter and offset, and the rest of the session goes on; outside
the plugin, a process that dies of the corrupted heap later names the last kernels launched and
TCPU_CHECK=bounds on stderr. Each case runs in a child process (the unchecked ones corrupt
their heap)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import REAL_TRITON

pytestmark = pytest.mark.skipif(REAL_TRITON, reason="tcpu's bounds checks and crash report")

KERNEL = textwrap.dedent('''
    import torch
    import triton
    import triton.language as tl


    @triton.jit
    def store_block(out_ptr, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        tl.store(out_ptr + offsets, offsets.to(tl.float32))  # no mask: BLOCK may pass the end
''')

SESSION = KERNEL + textwrap.dedent('''
    import os


    def test_stores_past_the_tensor():
        store_block[(1,)](torch.zeros(40), BLOCK=64)  # 40 floats: 96 bytes past the end


    def test_stores_past_a_view_inside_its_storage():
        # A GPU does not fault inside an allocation: neither do the checks.
        storage = torch.zeros(128)
        store_block[(1,)](storage[32:72], BLOCK=64)
        assert storage[32:96].tolist() == list(range(64))


    def test_checked_as_the_session_says():
        kernel = store_block[(1,)](torch.zeros(64), BLOCK=64)
        assert kernel.check_bounds == (os.environ["EXPECT_CHECKED"] == "1")


    def test_later_tests_still_run():
        assert torch.ones(3).sum() == 3
''')


def run_session(tmp_path, expect_checked: bool, *args: str, **env: str):
    (tmp_path / "test_session.py").write_text(SESSION)
    environment = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"),
                       EXPECT_CHECKED="1" if expect_checked else "0", **env)
    for variable in ("TCPU_CHECK", "TRITON_DEBUG", "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS"):
        if variable not in env:
            environment.pop(variable, None)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tcpu.pytest_plugin",
                           "-p", "no:cacheprovider", "-rN", *args, "test_session.py"],
                          cwd=tmp_path, env=environment, capture_output=True, text=True,
                          timeout=600)


def test_plugin_fails_the_test_that_stores_out_of_bounds(tmp_path):
    result = run_session(tmp_path, True)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "1 failed, 3 passed" in output
    assert "test_stores_past_the_tensor" in output
    for part in ("kernel 'store_block'", "program (0, 0, 0)", "parameter 0 'out_ptr'",
                 "at offset 160 (element 40) outside its registered host range of 160 bytes"):
        assert part in output, output
    assert "tcpu bounds checks: on" in output


@pytest.mark.parametrize("opt_out", ["ini", "environment"])
def test_plugin_bounds_checks_can_be_turned_off(tmp_path, opt_out):
    # Only the test that asks which build it got: the unchecked store would corrupt the heap.
    if opt_out == "ini":
        result = run_session(tmp_path, False, "-o", "tcpu_check_bounds=false", "-k", "session_says")
        expected = "tcpu bounds checks: off (tcpu_check_bounds = false)"
    else:
        result = run_session(tmp_path, False, "-k", "session_says", TCPU_CHECK="none")
        expected = "tcpu bounds checks: off (TCPU_CHECK=none)"
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert expected in output


# Run as users run a script: python -m tcpu crash.py.
CRASH = KERNEL + textwrap.dedent('''
    store_block[(1,)](torch.ones(1), BLOCK=1)
    victims = [torch.zeros(40) for _ in range(64)]
    for victim in victims:
        store_block[(1,)](victim, BLOCK=64)  # past each one, into the next one's heap header
    del victims  # glibc finds its heap corrupted
    print("survived", flush=True)
''')


def test_a_process_dying_after_launches_names_them(tmp_path):
    (tmp_path / "crash.py").write_text(CRASH)
    environment = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"))
    for variable in ("TCPU_CHECK", "TRITON_DEBUG", "TCPU_CRASH_REPORT", "TCPU_MEM_GUARD"):
        environment.pop(variable, None)
    result = subprocess.run([sys.executable, "-m", "tcpu", "crash.py"], cwd=tmp_path,
                            env=environment, capture_output=True, text=True, timeout=600)
    assert result.returncode < 0, result.stdout + result.stderr  # killed by a signal
    assert "survived" not in result.stdout
    assert re.search(r"tcpu: the process got SIG[A-Z]+ \(.*\) outside a kernel, after "
                     r"\d+ kernel launches; the last:", result.stderr), result.stderr
    assert "tcpu:   'store_block' grid (1, 1, 1)" in result.stderr
    assert "TCPU_CHECK=bounds in the environment names the access" in result.stderr


GUARDED = KERNEL + textwrap.dedent('''
    import numpy as np

    storage = torch.zeros(128)
    store_block[(1,)](storage[32:72], BLOCK=64)  # inside the view's storage: runs, copied back
    assert storage[32:96].tolist() == list(range(64)) and storage[:32].sum() == 0
    array = np.zeros(64, dtype=np.float32)
    store_block[(1,)](array, BLOCK=64)
    assert array.tolist() == list(range(64))
    print("in bounds: written", flush=True)
    store_block[(1,)](torch.zeros(40), BLOCK=64)  # 96 bytes past: the guard page
    print("survived", flush=True)
''')


def test_mem_guard_covers_torch_tensors_and_numpy_arrays(tmp_path):
    (tmp_path / "guarded.py").write_text(GUARDED)
    environment = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"), TCPU_MEM_GUARD="1")
    for variable in ("TCPU_CHECK", "TRITON_DEBUG", "TCPU_CRASH_REPORT"):
        environment.pop(variable, None)
    result = subprocess.run([sys.executable, "-m", "tcpu", "guarded.py"], cwd=tmp_path,
                            env=environment, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == -signal.SIGSEGV, output
    assert "in bounds: written" in result.stdout and "survived" not in result.stdout
    assert "tcpu: kernel 'store_block' raised SIGSEGV (invalid memory access at" in result.stderr
    assert "double free" not in output
