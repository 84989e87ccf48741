"""Ctrl-C (SIGINT) during a launch: Python raises KeyboardInterrupt promptly, even for a kernel
that never ends, and the process goes on launching; a SIGINT handler of the user's is left to
do what it does; `tcpu run` exits 130.

Each case runs in a child process that is sent SIGINT once its kernel runs: the kernel writes
to a file the child maps (torch.from_file), which the parent watches."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import REAL_TRITON, tcpu_cli

pytestmark = pytest.mark.skipif(REAL_TRITON, reason="tcpu's launch; a GPU kernel runs elsewhere")

# How long the child may take to stop once signalled, on a loaded machine.
BOUND_S = 5.0

CHILD = textwrap.dedent('''
    import signal
    import sys
    import time

    import torch

    import tcpu.aliases
    tcpu.aliases.install()
    import triton
    import triton.language as tl


    @triton.jit
    def spin_kernel(X, STARTED, OUT, N, ENDLESS: tl.constexpr):
        v = tl.load(X)
        tl.store(STARTED + tl.program_id(0), 1)
        if ENDLESS:
            while v == v:          # never ends, and has no side effect
                pass
        else:
            i = 0
            while i < N:           # as long as N says
                v = (v * 3 + 1) % 1000
                i += 1
        tl.store(OUT + tl.program_id(0), v)


    started_path, mode = sys.argv[1], sys.argv[2]
    started = torch.from_file(started_path, shared=True, size=16, dtype=torch.int32)
    x = torch.ones(1, dtype=torch.int32)
    out = torch.zeros(16, dtype=torch.int32)
    caught = []
    if mode == "user_handler":
        signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    endless = mode != "user_handler"
    grid = (16,) if endless else (2,)
    n = 0 if endless else 100_000_000
    spin_kernel.warmup(x, started, out, n, ENDLESS=endless, grid=grid)
    spin_kernel.warmup(x, started, out, 1, ENDLESS=False, grid=(1,))  # the launch after
    print("launching", flush=True)
    try:
        spin_kernel[grid](x, started, out, n, ENDLESS=endless)
        print("returned", out[0].item(), caught, flush=True)
    except KeyboardInterrupt:
        print("interrupted", time.time(), flush=True)
    # The process goes on: the next launch runs (one step: v = 1 * 3 + 1).
    spin_kernel[(1,)](x, started, out, 1, ENDLESS=False)
    print("again", out[0].item(), flush=True)
''')


def _wait_started(path: pathlib.Path, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(path.read_bytes()):
            return
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the child ended before its kernel ran:\n{out}{err[-3000:]}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the child's kernel never started")


def _run_child(tmp_path: pathlib.Path, mode: str) -> tuple[subprocess.CompletedProcess, float]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    started = tmp_path / "started"
    started.write_bytes(bytes(64))
    proc = subprocess.Popen([sys.executable, str(script), str(started), mode], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_started(started, proc)
        signalled = time.time()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60 if mode == "user_handler" else BOUND_S + 30)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), signalled
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_ctrl_c_interrupts_an_endless_kernel(tmp_path):
    result, signalled = _run_child(tmp_path, "endless")
    lines = result.stdout.split("\n")
    interrupted = [line for line in lines if line.startswith("interrupted ")]
    assert result.returncode == 0 and interrupted, result.stdout + result.stderr[-3000:]
    assert "again 4" in lines, result.stdout + result.stderr[-3000:]
    latency = float(interrupted[0].split()[1]) - signalled
    assert latency < BOUND_S, f"KeyboardInterrupt {latency:.1f} s after SIGINT"


def test_a_user_sigint_handler_is_left_alone(tmp_path):
    """With the user's own SIGINT handler, tcpu does not cancel: the launch runs to its end and
    the handler runs once Python runs again."""
    result, _ = _run_child(tmp_path, "user_handler")
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    lines = result.stdout.split("\n")
    returned = [line for line in lines if line.startswith("returned")]
    assert returned and returned[0].endswith(f"[{int(signal.SIGINT)}]"), result.stdout
    assert "again 4" in lines, result.stdout


ENDLESS_CPP = textwrap.dedent('''\
    // A kernel that says on stderr that it runs, then never ends.
    #include <cstdint>
    extern "C" long write(int, const void*, unsigned long);
    extern "C" void endless(float* y, float v, uint32_t pid, uint32_t, uint32_t, uint32_t,
                            uint32_t, uint32_t) {
      if (pid == 0) write(2, "started\\n", 8);
      while (v == v)
        y[pid] += 1.0f;
    }
''')


def test_tcpu_run_exits_130_on_ctrl_c(tmp_path):
    source = tmp_path / "endless.cpp"
    source.write_text(ENDLESS_CPP)
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.Popen([str(tcpu_cli()), "run", str(source), "--kernel", "endless",
                             "--signature", "*fp32, fp32", "--grid", "4,1,1", "--arg", "zeros:4",
                             "--arg", "1.0"],
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        line = proc.stderr.readline()  # compiles first: no timeout needed until the launch
        assert line.strip() == "started", line + proc.stderr.read()[-3000:]
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=BOUND_S + 30)
        # Read through the text wrappers (communicate() would miss what readline() buffered).
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, f"rc {proc.returncode}\n{out}{err[-3000:]}"
    assert "interrupted" in err, err[-3000:]
