"""A pytest plugin (`-p triton_suite.plugin`) for running Triton's test files against tcpu:

--sample N        keep only the first N parametrized cases of each test function
--sample-seed S   with --sample: N cases of each function drawn at random (seeded by S and the
                  function's name, so every xdist worker draws the same) instead of the first N,
                  whose dtypes and shapes are mostly the same
--case-timeout S  a case running longer than S seconds fails; one stuck in native code (where
                  Python's alarm cannot reach it) ends its process after 2*S + 10 s, which
                  pytest-xdist reports as that case's failure and replaces the worker
--record PATH     one JSON line per case and per failed collection: the outcome, whether the
                  test is marked `interpreter`, and the first line of the error

Recording happens where the reports meet: the controller under xdist, the only process else."""

from __future__ import annotations

import faulthandler
import json
import random
import signal
import sys
from typing import Any

import pytest


class CaseTimeout(Exception):
    """A case ran past --case-timeout."""


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("tcpu triton suite")
    group.addoption("--sample", type=int, default=0,
                    help="run only the first N parametrized cases of each test function")
    group.addoption("--sample-seed", default="",
                    help="with --sample: draw the N cases of each function at random, seeded")
    group.addoption("--case-timeout", type=float, default=0.0,
                    help="fail a case that runs longer than this many seconds")
    group.addoption("--record", default="", help="write one JSON line per case outcome here")


def function_of(nodeid: str) -> str:
    """'path::test_x[case]' -> 'path::test_x' (the test function a case belongs to)."""
    return nodeid.split("[", 1)[0]


def sample(items: list[Any], per_function: int,
           seed: str = "") -> tuple[list[Any], list[Any]]:
    """`per_function` items of each test function, and the rest (both in collection order): the
    first ones, or with a seed ones drawn at random. The draw depends only on the seed, the
    function's name and its cases, so each xdist worker (which collects on its own) draws alike."""
    by_function: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        by_function.setdefault(function_of(item.nodeid), []).append(index)
    chosen: set[int] = set()
    for name, indices in by_function.items():
        if seed and len(indices) > per_function:
            indices = random.Random(f"{seed}:{name}").sample(indices, per_function)
        chosen.update(indices[:per_function])
    kept = [item for index, item in enumerate(items) if index in chosen]
    dropped = [item for index, item in enumerate(items) if index not in chosen]
    return kept, dropped


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    per_function = config.getoption("--sample")
    if per_function > 0:
        kept, dropped = sample(items, per_function, config.getoption("--sample-seed"))
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept


def _raise_timeout(signum: int, frame: Any) -> None:
    raise CaseTimeout("case timed out (--case-timeout)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any):
    seconds = item.config.getoption("--case-timeout")
    guarded = seconds > 0 and hasattr(signal, "setitimer")
    if guarded:
        previous = signal.signal(signal.SIGALRM, _raise_timeout)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        faulthandler.dump_traceback_later(2 * seconds + 10, exit=True, file=sys.stderr)
    try:
        yield
    finally:
        if guarded:
            faulthandler.cancel_dump_traceback_later()
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _is_recorder(config: Any) -> bool:
    return bool(config.getoption("--record")) and not hasattr(config, "workerinput")


def _first_line(report: Any) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr or "")
    if isinstance(report.longrepr, tuple):  # a skip: (file, line, reason)
        text = str(report.longrepr[2])
    lines = [line for line in text.splitlines() if line.strip()]
    # A failed collection's text is a traceback: its last "E   ..." line says what went wrong.
    errors = [line[1:].strip() for line in lines if line.startswith("E ")]
    if report.when == "collect" and errors:
        return errors[-1][:300]
    # A compilation error's text opens with where (File ..., the source line, a caret): what is
    # wrong follows the caret, and it is what groups failures by cause.
    if lines and ': File "' in lines[0]:
        carets = [i for i, line in enumerate(lines) if line.strip() == "^"]
        if carets and carets[0] + 1 < len(lines):
            kind = lines[0].split(': File "', 1)[0]
            return f"{kind}: {lines[carets[0] + 1].strip()}"[:300]
    return lines[0][:300] if lines else ""


class _Recorder:
    def __init__(self, path: str) -> None:
        self.out = open(path, "w", encoding="utf-8")

    def write(self, **record: Any) -> None:
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: Any) -> None:
        failed_call = report.when == "call" and report.failed
        if report.when != "call" and report.passed:
            return
        xfail = hasattr(report, "wasxfail")
        if xfail:
            outcome = "failed" if (report.passed and report.when == "call") else "skipped"
        elif report.skipped:
            outcome = "skipped"
        elif failed_call:
            outcome = "failed"
        elif report.failed:
            outcome = "error"
        else:
            outcome = "passed"
        self.write(nodeid=report.nodeid, when=report.when, outcome=outcome,
                   interpreter="interpreter" in report.keywords, message=_first_line(report))

    @pytest.hookimpl
    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.write(nodeid=report.nodeid, when="collect", outcome="error", interpreter=False,
                       message=_first_line(report))


def pytest_configure(config: Any) -> None:
    if _is_recorder(config):
        config.pluginmanager.register(_Recorder(config.getoption("--record")), "triton-suite-recorder")
