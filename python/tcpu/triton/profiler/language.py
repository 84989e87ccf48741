"""Triton's `triton.profiler.language`: scopes entered inside a kernel, recorded by the GPU
code Triton's instrumentation backend writes. tcpu's kernels are compiled for the CPU and have
no such backend: each name is refused, saying why. Scopes around launches (proton.scope) work."""

from __future__ import annotations

from typing import Any, NoReturn

from .flags import flags

__all__ = ["disable_semantic", "enable_semantic", "enter_scope", "exit_scope", "flags", "record",
           "scope"]

_WHY = ("in-kernel profiling scopes need Triton's instrumentation backend, which rewrites GPU "
        "code; tcpu's profiler times whole launches (use proton.scope around them)")


def _refuse(name: str) -> NoReturn:
    raise NotImplementedError(f"triton.profiler.language.{name}: {_WHY}")


def enable_semantic(semantic_name: str) -> None:
    _refuse("enable_semantic")


def disable_semantic(semantic_name: str) -> None:
    _refuse("disable_semantic")


def record(*args: Any, **kwargs: Any) -> None:
    _refuse("record")


def enter_scope(*args: Any, **kwargs: Any) -> None:
    _refuse("enter_scope")


def exit_scope(*args: Any, **kwargs: Any) -> None:
    _refuse("exit_scope")


class scope:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _refuse("scope")
