"""`pytest -p tcpu.pytest_plugin`: a project's Triton tests, unchanged, on the CPU.

Loading the plugin routes `import triton` (and `triton.language`, `triton.testing`, ...) to
tcpu for the whole session, before any conftest or test module is imported, so tests written
for real Triton run on machines without a GPU (CI runners). Their device question is answered
by `triton.runtime.driver.active.get_active_torch_device()`, which is the CPU here.

With TRITON_INTERPRET=1 (Triton's interpreter asked for), a real Triton installed beside tcpu
keeps `import triton` and its interpreter runs the tests (the header says so); where none is
installed, pytest stops with a usage error.

It is opt-in only: there is no entry point that pytest would load by itself, so installing tcpu
never takes `import triton` away from GPU users. It adds no command-line options and no
fixtures (projects define their own `--device` and `device`), only two lines in pytest's
header, one ini option and three rules. Kernels are compiled bounds-checked (as with
TCPU_CHECK=bounds): an unmasked access outside its tensor's storage fails the test that made it,
naming the kernel, program, parameter and offset, where unchecked it would corrupt the heap and
abort the whole session later, far from the cause; `tcpu_check_bounds = false` in the ini file
or TCPU_CHECK=none in the environment turns that off. `torch.cuda.device(None)` is a no-op (as
PyTorch documents) on a PyTorch without CUDA. And a test that reads a GPU compiler stage of a
kernel (`kernel.asm["ttgir"]`) is reported as skipped with the reason, as no CPU backend has one.
Under pytest-xdist each worker loads it too (`-p` reaches the workers), and all of them share
tcpu's compile cache, which is safe for many processes (tests/python/reliability/test_cache_processes.py).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

from . import aliases

# A real Triton imported before the plugin (by another plugin): its modules are replaced.
_replaced_real = "triton" in sys.modules and sys.modules["triton"].__name__ != "tcpu.triton"
# TRITON_INTERPRET=1: the real Triton's interpreter, or a usage error (aliases.route_triton).
try:
    _interpreting = aliases.route_triton("pytest -p tcpu.pytest_plugin")
except aliases.InterpreterUnavailable as error:
    raise pytest.UsageError(str(error)) from None


def pytest_addoption(parser: Any) -> None:
    parser.addini("tcpu_check_bounds", type="bool", default=True,
                  help="tcpu: compile kernels bounds-checked unless TCPU_CHECK says otherwise "
                  "(default true: a stray access fails its test instead of corrupting memory)")


def pytest_configure(config: Any) -> None:
    if _interpreting is None:
        from .frontend.build import route

        route.check_bounds_when_unset(bool(config.getini("tcpu_check_bounds")))


def pytest_report_header(config: Any) -> list[str]:
    """One line saying that `triton` is tcpu (and where), so a log shows what ran."""
    if _interpreting is not None:
        return [f"triton: Triton {_interpreting}'s interpreter (TRITON_INTERPRET): "
                "tcpu is not used"]
    import tcpu
    from tcpu.triton.runtime.driver import driver

    props = driver.active.utils.get_device_properties(0)
    line = (f"triton: tcpu {tcpu.__version__} on the CPU "
            f"({props['multiprocessor_count']} worker threads), from {tcpu.__path__[0]}")
    if _replaced_real:
        line += " (a real Triton had been imported before the plugin: it was replaced)"
    return [line, f"tcpu bounds checks: {_bounds_checks()}"]


def _bounds_checks() -> str:
    """Whether kernels are bounds-checked this session, and why (the header says so, as the
    checks cost time and their absence lets a stray store corrupt the session's heap)."""
    from .frontend.build import route

    value = os.environ.get("TCPU_CHECK")
    if value is not None:
        return f"{'on' if value == 'bounds' else 'off'} (TCPU_CHECK={value})"
    if route.bounds_when_unset():
        return "on (tcpu_check_bounds = false or TCPU_CHECK=none turns them off)"
    return "off (tcpu_check_bounds = false)"


def pytest_collection_finish(session: Any) -> None:
    """Once the tests have imported torch: `torch.cuda.device(x.device.index)` with a CPU
    tensor (index None) is the no-op PyTorch documents, also where PyTorch has no CUDA."""
    torch = sys.modules.get("torch")
    if torch is not None and _interpreting is None:
        from tcpu.triton.runtime import torch_cuda_device

        torch_cuda_device.ensure(torch)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any):
    """A test that reads one of Triton's GPU compiler stages (`kernel.asm["ttgir"]`, "ptx",
    ...) checks a GPU compiler's internals, which a CPU backend does not have: it is reported
    as skipped, with the reason, rather than failed (what ran before that line did run)."""
    outcome = yield
    if call.when != "call" or call.excinfo is None:
        return
    from .frontend.errors import GPUStageUnavailable

    if call.excinfo.errisinstance(GPUStageUnavailable):
        report = outcome.get_result()
        report.outcome = "skipped"
        path, line, _ = item.location
        report.longrepr = (str(item.path), (line or 0) + 1, f"Skipped: {call.excinfo.value}")
