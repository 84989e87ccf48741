"""What the front end computes with: compile-time values (plain Python objects, or
`Const` where a constexpr must be told apart) and run-time values (`Value`: a C++
expression with a Triton dtype and shape)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..triton.language import core as tlc


@dataclass(frozen=True)
class Value:
    """A run-time value of the kernel: `expr` is its C++ spelling (usually a name),
    `dtype` its element dtype (a scalar dtype or a pointer_type), `shape` () for a scalar.
    `roots` are the pointer parameters a pointer value derives from (to know which
    parameters the kernel writes through)."""

    expr: str
    dtype: tlc.dtype
    shape: tuple[int, ...] = ()
    roots: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_block(self) -> bool:
        return len(self.shape) > 0

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def type_text(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]" if self.shape else str(self.dtype)


def unwrap(x: Any) -> Any:
    """A constexpr's Python value (tl.constexpr wrappers removed)."""
    return x.value if isinstance(x, tlc.constexpr) else x


def is_number(x: Any) -> bool:
    x = unwrap(x)
    return isinstance(x, (bool, int, float)) and not isinstance(x, Value)


def retuple(like: tuple, items: Any) -> tuple:
    """`items` as a tuple of `like`'s class: a NamedTuple stays one (its fields name its
    items), any other tuple is a plain tuple."""
    cls = type(like)
    return cls._make(items) if hasattr(cls, "_fields") else tuple(items)
