"""The builtins: each op types its operands by Triton's rules and spells itself in tl.

An op is `fn(cx: OpContext, *args, **kwargs) -> value`, registered under its builtin name
(`tl.load` -> "load", `libdevice.asin` -> "libdevice.asin") with `@op(...)`. Arguments
arrive lowered: `Value`s for run-time values, Python objects for compile-time ones."""

from __future__ import annotations

from typing import Any, Callable

OPS: dict[str, Callable[..., Any]] = {}


def op(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            OPS[name] = fn
        return fn
    return register


def load_all() -> None:
    """Imports every op module (each registers its ops)."""
    from . import (arith, atomics, creation, debug, descriptors, dot_ops, dot_scaled,  # noqa: F401
                   map_ops, math_ops, memory, program, random_ops, reduce_ops, shape)
