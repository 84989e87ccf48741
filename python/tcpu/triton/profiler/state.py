"""States: a frame that the kernels launched while it holds are recorded under, below the
scopes, as Triton's `proton.state` (its launch hook computes a launch's metadata in the state
`__proton_launch_metadata`, so that kernels launched by that computation are told apart)."""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from ._record import recorder
from .flags import flags


class state:
    """`with proton.state(name):` or `@proton.state(name)`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> state:
        if flags.profiling_on:
            enter_state(self.name)
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        if flags.profiling_on:
            exit_state()

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapper


def enter_state(name: str) -> None:
    recorder.push(name)


def exit_state() -> None:
    recorder.pop()
