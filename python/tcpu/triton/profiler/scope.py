"""Scopes: named frames that the kernels launched inside them are recorded under, with metrics
of their own, as Triton's `proton.scope`, `cpu_timed_scope`, `enter_scope` and `exit_scope`."""

from __future__ import annotations

import time
from functools import wraps
from typing import Any, Callable, Optional, Union

from ._record import recorder
from .flags import flags

MetricValueType = Union[float, int]


class scope:
    """`with proton.scope(name, {metric: value}):` or `@proton.scope(name)`: kernels launched
    inside are recorded under a frame `name`, which gets the metrics (added up over visits)."""

    def __init__(self, name: str, metrics: Optional[dict[str, MetricValueType]] = None) -> None:
        self.name = name
        self.metrics = metrics
        self.id: Optional[int] = None

    def _enter_scope(self) -> None:
        if not flags.profiling_on:
            return
        recorder.push(self.name)
        recorder.scope_entered(self.metrics)
        self.id = len(recorder.path())

    def _exit_scope(self) -> None:
        if not flags.profiling_on or self.id is None:
            return
        recorder.pop(self.name)
        self.id = None

    def __enter__(self) -> scope:
        self._enter_scope()
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        self._exit_scope()

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self._enter_scope()
            try:
                return func(*args, **kwargs)
            finally:
                self._exit_scope()

        return wrapper


class cpu_timed_scope(scope):
    """A scope that also records its own wall time as `cpu_time (ns)`."""

    def __init__(self, name: str, metrics: Optional[dict[str, float]] = None) -> None:
        super().__init__(name, metrics)
        self.start_time: Optional[int] = None
        if metrics and "cpu_time" in metrics:
            raise ValueError("The metric name 'cpu_time' is reserved.")

    def _enter_scope(self) -> None:
        if not flags.profiling_on:
            return
        self.start_time = time.time_ns()
        super()._enter_scope()

    def _exit_scope(self) -> None:
        if not flags.profiling_on or self.id is None:
            return
        if self.start_time is not None:
            recorder.scope_entered({"cpu_time (ns)": time.time_ns() - self.start_time})
        super()._exit_scope()


def enter_scope(name: str, *, metrics: Optional[dict[str, MetricValueType]] = None
                ) -> Optional[int]:
    """Enters a scope `name` (closed by exit_scope); returns its depth, None while off."""
    if not flags.profiling_on:
        return None
    recorder.push(name)
    recorder.scope_entered(metrics)
    return len(recorder.path())


def exit_scope(name: Optional[str] = None, *,
               metrics: Optional[dict[str, MetricValueType]] = None) -> Optional[int]:
    """Leaves the innermost scope (which must be `name`, when given), adding `metrics`."""
    if not flags.profiling_on:
        return None
    depth = len(recorder.path())
    if metrics:
        recorder.scope_entered(metrics)
    recorder.pop(name)
    return depth
