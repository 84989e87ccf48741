"""Every environment variable docs/environment.md lists, with values it must refuse, through two of
tcpu's three front doors: the Python front end (a fresh process that imports tcpu and launches a
kernel: a ValueError naming the variable and its value, never `terminate called`, a signal or "a
bug in tcpu") and the CLI (exit status 2, naming it). The third door, the C API, is
tests/runtime/environment_test.cpp's EnvironmentWalk (tcpuInit) and the module loads of
tests/codegen. A variable added to the docs without a place here fails
test_every_documented_variable_is_walked."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import tcpu_cli

DOCS = Path(__file__).resolve().parents[3] / "docs" / "environment.md"

# Values each variable must refuse. The C++ libraries' (runtime, OpenMP, codegen) are read by
# the CLI too; the Python front end's only by Python.
RUNTIME = {
    "TCPU_NUM_THREADS": "garbage", "OMP_NUM_THREADS": "garbage", "TCPU_SCHEDULE": "garbage",
    "TCPU_CRASH_REPORT": "garbage", "TCPU_MEM_GUARD": "garbage", "TCPU_DLOPEN_PROBE": "garbage",
    "TCPU_CACHE_DISABLE": "garbage", "TCPU_DEBUG": "garbage", "TCPU_PERF_MAP": "garbage",
    "TCPU_GDB_JIT": "garbage", "OMP_SCHEDULE": "garbage", "OMP_PROC_BIND": "garbage",
    "OMP_STACKSIZE": "100G", "OMP_WAIT_POLICY": "garbage", "OMP_DYNAMIC": "garbage",
    "OMP_THREAD_LIMIT": "0", "OMP_MAX_ACTIVE_LEVELS": "-1", "OMP_PLACES": "garbage",
    "OMP_NESTED": "garbage", "OMP_CANCELLATION": "garbage", "OMP_DISPLAY_ENV": "garbage",
    "OMP_DISPLAY_AFFINITY": "garbage", "OMP_DEFAULT_DEVICE": "x", "OMP_MAX_TASK_PRIORITY": "x",
    "OMP_NUM_TEAMS": "0", "OMP_TEAMS_THREAD_LIMIT": "x", "OMP_TARGET_OFFLOAD": "garbage",
    "OMP_TOOL": "garbage",
}
CODEGEN = {"TCPU_CHECK": "garbage", "TCPU_TARGET_CPU": "garbage", "TCPU_CACHE_MAX_SIZE": "5.5M"}
PYTHON = {"TCPU_PYTHON_CACHE": "garbage", "TCPU_DUMP_PYTHON_SOURCE": "/dev/null/dump"}
# Python variables read by something other than a launch: the statement that reads each.
PYTHON_USE = {
    "TCPU_TORCH_HALF": "triton.runtime.driver.active.get_active_torch_device()",
    "TCPU_BENCH_BUDGET_S": "import tcpu.triton.testing as t; t._sweep_budget_s()",
}
PYTHON_USE_VALUES = {"TCPU_TORCH_HALF": "garbage", "TCPU_BENCH_BUDGET_S": "soon"}
# Directories that cannot be used: not refused, the cache is (one warning, compiled in memory).
DIRECTORIES = {"TCPU_CACHE_DIR": "/dev/null/cache", "XDG_CACHE_HOME": "/dev/null/xdg",
               "HOME": "/dev/null/home"}
# Read where this walk does not go, each with what it does with a bad value.
ELSEWHERE = {
    "TCPU_CUDA_DRIVER": "a library path for dlopen: a CUDA context fails, naming it",
    "TCPU_LIBDEVICE": "a file path: `tcpu ptx` fails to read it, naming it",
    "TCPU_DUMP_DIR": "a directory for dumps, only while debugging a compile",
    "CPATH": "clang's", "CPLUS_INCLUDE_PATH": "clang's", "C_INCLUDE_PATH": "clang's",
    "SDKROOT": "clang's",
    "TRITON_DEBUG": "Triton's reading: every value means something",
    "TRITON_PRINT_AUTOTUNING": "Triton's reading", "TRITON_CACHE_AUTOTUNING": "Triton's reading",
    "TCPU_AUTOTUNE_FIRST_CONFIG": "a knob's boolean, read as Triton reads TRITON_PRINT_AUTOTUNING",
    "TRITON_PROTON_DISABLE": "Triton's reading (a boolean)",
    "TCPU_XCHECK_MODE": "tcpu.testing.xcheck raises XcheckError naming the value",
    "TCPU_BENCH": "only `full` means anything",
    "TCPU_CLI": "a path, read by python3 -m tcpu.compile",
}

SCRIPT = """
import numpy as np
import tcpu.triton as triton
import tcpu.triton.language as tl

@triton.jit
def k(a, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(a + o, o * 2, mask=o < n)

a = np.zeros(16, dtype=np.int32)
k[(1,)](a, 16, BLOCK=16)
{use}
print("ran", a[3])
"""


def documented() -> set[str]:
    """The variables of docs/environment.md's tables, but for the scripts' and tests' own."""
    text = DOCS.read_text().split("## Scripts and tests")[0]
    names = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def test_every_documented_variable_is_walked():
    walked = (set(RUNTIME) | set(CODEGEN) | set(PYTHON) | set(PYTHON_USE) | set(DIRECTORIES)
              | set(ELSEWHERE))
    assert documented() - walked == set()


def python_door(tmp_path: Path, name: str, value: str, use: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TCPU_", "OMP_"))}
    env.update(TCPU_CACHE_DIR=str(tmp_path / "cache"))
    if name in ("XDG_CACHE_HOME", "HOME"):
        env.pop("TCPU_CACHE_DIR")
        env.pop("XDG_CACHE_HOME", None)
    env[name] = value
    script = tmp_path / "launch.py"  # a file: the front end reads the kernel's source
    script.write_text(SCRIPT.format(use=use))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)


def assert_refused(out: subprocess.CompletedProcess, name: str, value: str) -> None:
    assert out.returncode == 1, out.stderr  # an exception, not a signal or an abort
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError:"), out.stderr
    assert name in last and value in last, last
    assert "terminate called" not in out.stderr and "a bug in tcpu" not in out.stderr


@pytest.mark.parametrize("name", sorted(RUNTIME | CODEGEN | PYTHON))
def test_python_refuses_a_bad_value_naming_it(tmp_path, name):
    value = (RUNTIME | CODEGEN | PYTHON)[name]
    assert_refused(python_door(tmp_path, name, value), name, value)


@pytest.mark.parametrize("name", sorted(PYTHON_USE))
def test_python_refuses_a_bad_value_where_it_is_read(tmp_path, name):
    value = PYTHON_USE_VALUES[name]
    assert_refused(python_door(tmp_path, name, value, PYTHON_USE[name]), name, value)


@pytest.mark.parametrize("name", sorted(DIRECTORIES))
def test_a_directory_that_cannot_be_used_costs_a_warning(tmp_path, name):
    out = python_door(tmp_path, name, DIRECTORIES[name])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ran", "6"]
    assert len([line for line in out.stderr.splitlines() if "warning" in line]) <= 1, out.stderr


@pytest.mark.parametrize("name", sorted(RUNTIME | CODEGEN))
def test_the_cli_exits_2_naming_a_bad_value(name):
    value = (RUNTIME | CODEGEN)[name]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TCPU_", "OMP_"))}
    env[name] = value
    for command in (["info"], ["cache", "ls"]):
        out = subprocess.run([str(tcpu_cli()), *command], capture_output=True, text=True,
                             env=env, timeout=60)
        assert out.returncode == 2, (command, out.stderr)
        assert f"{name}='{value}'" in out.stderr or f"{name}={value}" in out.stderr, out.stderr
