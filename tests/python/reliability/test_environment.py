"""tcpu's boolean environment variables in Python (tcpu/_environment.py) read as the C++
libraries read theirs: 1/0, true/false, on/off, yes/no in any case; anything else is an error
naming the variable and its value, not a silent default."""

from __future__ import annotations

import pytest
import torch

import triton
import triton.language as tl
from tcpu import _environment as environment


@pytest.mark.parametrize("text, value", [("1", True), ("TRUE", True), ("on", True), ("Yes", True),
                                         ("0", False), ("false", False), ("OFF", False),
                                         ("no", False)])
def test_flag_words(monkeypatch, text, value):
    monkeypatch.setenv("TCPU_TEST_FLAG", text)
    assert environment.flag("TCPU_TEST_FLAG", not value) is value


def test_unset_or_empty_is_the_default(monkeypatch):
    monkeypatch.delenv("TCPU_TEST_FLAG", raising=False)
    assert environment.flag("TCPU_TEST_FLAG", True) is True
    monkeypatch.setenv("TCPU_TEST_FLAG", "")
    assert environment.flag("TCPU_TEST_FLAG", False) is False


@pytest.mark.parametrize("text", ["2", "maybe", "y", " 1", "disable"])
def test_anything_else_names_the_variable_and_value(monkeypatch, text):
    monkeypatch.setenv("TCPU_TEST_FLAG", text)
    with pytest.raises(ValueError, match=f"TCPU_TEST_FLAG={text!r} is not a boolean"):
        environment.flag("TCPU_TEST_FLAG", True)


@triton.jit
def _fill(X, VALUE: tl.constexpr):
    tl.store(X + tl.arange(0, 8), VALUE)


def test_a_bad_cache_switch_stops_the_compile_with_its_name(monkeypatch):
    # TCPU_PYTHON_CACHE=disabled was taken as "on" before.
    monkeypatch.setenv("TCPU_PYTHON_CACHE", "disabled")
    x = torch.zeros(8)
    with pytest.raises(ValueError, match="TCPU_PYTHON_CACHE='disabled' is not a boolean"):
        _fill[(1,)](x, VALUE=3.0)
    monkeypatch.setenv("TCPU_PYTHON_CACHE", "off")
    _fill[(1,)](x, VALUE=3.0)
    assert x.tolist() == [3.0] * 8


_TARGET_SCRIPT = """
import sys, torch, triton, triton.language as tl
@triton.jit
def k(X):
    tl.store(X + tl.arange(0, 8), tl.arange(0, 8) * 3)
x = torch.zeros(8, dtype=torch.int32)
try:
    k[(1,)](x)
except ValueError as e:
    print("ValueError:", e)
    sys.exit(0)
print(x.tolist())
"""


@pytest.mark.parametrize("cpu", ["x86-64", "sapphirerapids"])
def test_target_cpu_chooses_the_code_path_or_is_refused(cpu, tmp_path):
    import os
    import platform
    import subprocess
    import sys
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("x86-64 CPU names")
    env = dict(os.environ, TCPU_TARGET_CPU=cpu, TCPU_CACHE_DIR=str(tmp_path))
    script = tmp_path / "k.py"
    script.write_text(_TARGET_SCRIPT)
    out = subprocess.run([sys.executable, "-m", "tcpu", str(script)], env=env, text=True,
                         capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    if cpu == "x86-64":  # baseline code runs on every x86-64 CPU
        assert out.stdout.strip() == str([i * 3 for i in range(8)])
    elif "ValueError" not in out.stdout:
        assert out.stdout.strip() == str([i * 3 for i in range(8)])  # this CPU has AMX
    else:
        assert "target CPU 'sapphirerapids' needs" in out.stdout and "amx-tile" in out.stdout


# Triton's TRITON_* booleans (TRITON_DEBUG, TRITON_INTERPRET, TRITON_PRINT_AUTOTUNING, ...) are
# read by its C++ getenv_bool: true for 1/true/on/yes/y in any case, false for anything else
# ("false" and "2" included), no whitespace trimmed. Measured with triton 3.6.0's
# triton._C.libtriton.getenv_bool; tcpu once took TRITON_DEBUG=false as debug on.
@pytest.mark.parametrize("text, value", [("1", True), ("TRUE", True), ("on", True), ("Yes", True),
                                         ("y", True), ("Y", True), ("0", False), ("false", False),
                                         ("off", False), ("2", False), (" 1", False),
                                         ("", False)])
def test_tritons_booleans_read_as_triton_reads_them(monkeypatch, text, value):
    monkeypatch.setenv("TRITON_TEST_FLAG", text)
    assert environment.triton_flag("TRITON_TEST_FLAG") is value


@triton.jit
def _assert_below(X, LIMIT: tl.constexpr):
    x = tl.load(X + tl.arange(0, 8))
    tl.device_assert(x < LIMIT, "x must stay below the limit")


@pytest.mark.parametrize("text, checked", [("1", True), ("true", True), ("false", False),
                                           ("0", False)])
def test_triton_debug_switches_device_assert_as_in_triton(monkeypatch, text, checked):
    monkeypatch.setenv("TRITON_DEBUG", text)
    x = torch.full((8,), 5, dtype=torch.int32)
    if checked:
        with pytest.raises(Exception, match="x must stay below the limit"):
            _assert_below[(1,)](x, LIMIT=3)
    else:
        _assert_below[(1,)](x, LIMIT=3)  # not compiled in: no check, as on the GPU
