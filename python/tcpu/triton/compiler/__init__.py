"""`triton.compiler` on tcpu: the error types that kernels' tests catch
(`from triton.compiler.errors import CompilationError`, as Triton's own tests write it), and
LazyDict, the launch metadata handed to the launch hooks."""

from __future__ import annotations

from typing import Any, Callable

from .errors import CompilationError, CompileTimeAssertionFailure

__all__ = ["CompilationError", "CompileTimeAssertionFailure", "LazyDict"]


class LazyDict:
    """A dict whose extra entries are computed only when `get()` is called: a launch's metadata
    (its kernel's name, then what the kernel's `launch_metadata` function returns), which a
    launch hook that wants it pays for, and no other launch does."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.extras: list[tuple[Callable[..., dict[str, Any]], tuple[Any, ...]]] = []

    def get(self) -> dict[str, Any]:
        for func, args in self.extras:
            self.data = self.data | func(*args)
        self.extras.clear()
        return self.data

    def add(self, func: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> None:
        self.extras.append((func, args))
