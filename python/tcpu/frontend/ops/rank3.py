"""Blocks of rank 3: Triton's [A, B, C] is held as tl's [A * B, C] (the same elements in the
same row-major order; cpp.block_dims, tl/rank3.h). Elementwise operations, loads and stores,
reshapes, and what acts along the last dimension need nothing more; these helpers are what the
other operations use."""

from __future__ import annotations

from typing import Any

from ..values import Value


def padded(shape: tuple[int, ...]) -> tuple[int, int, int]:
    a, b, c = (1,) * (3 - len(shape)) + tuple(shape)
    return a, b, c


def fit(v: Value, shape: tuple[int, ...]) -> Value:
    """An operand `v` of an operation whose result has `shape` (already checked to broadcast),
    spelled so that tl's own broadcasting gives the result: only rank-3 results need anything.
    Their tl form [A * B, C] broadcasts an operand lazily when it has all A * B rows or one
    (and C columns or one); any other operand is broadcast across its first two dimensions."""
    if len(shape) != 3 or not v.shape or v.shape == shape:
        return v
    s0, s1, s2 = padded(v.shape)
    if s0 * s1 in (1, shape[0] * shape[1]):
        return v
    return Value(f"tl::broadcast3<{shape[0]}, {shape[1]}, {s2}, {s0}, {s1}, {s2}>({v.expr})",
                 v.dtype, shape[:2] + (s2,), v.roots)


def fit_all(shape: tuple[int, ...], *values: Value | None) -> tuple[Any, ...]:
    return tuple(v if v is None else fit(v, shape) for v in values)


def permute3(v: Value, order: tuple[int, ...]) -> Value:
    """A rank-3 block with its dimensions in `order` (a permutation of 0, 1, 2)."""
    shape = tuple(v.shape[k] for k in order)
    o, s = ", ".join(map(str, order)), ", ".join(map(str, v.shape))
    return Value(f"tl::permute3<{o}, {s}>({v.expr})", v.dtype, shape, v.roots)


def along_last(v: Value, axis: int) -> tuple[Value, tuple[int, ...]]:
    """A rank-3 block `v` permuted so that `axis` is its last dimension (what tl reduces, scans,
    flips and gathers along in its [A * B, C] form), with the order that was used."""
    order = tuple(k for k in range(3) if k != axis) + (axis,)
    return (v, order) if axis == 2 else (permute3(v, order), order)


def inverse(order: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(order.index(k) for k in range(len(order)))
