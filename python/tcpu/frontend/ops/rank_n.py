"""Blocks of rank 3 and more: Triton's [A, ..., Y, Z] is held as tl's [A * ... * Y, Z] (the same
elements in the same row-major order; cpp.block_dims, tl/rank_n.h). Elementwise operations,
loads and stores, reshapes, and what acts along the last dimension need nothing more; these
helpers are what the other operations use."""

from __future__ import annotations

import math
from typing import Any

from ..values import Value


def padded(shape: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return (1,) * (rank - len(shape)) + tuple(shape)


def dims_type(shape: tuple[int, ...]) -> str:
    """A shape (or a permutation) as tl's type `tl::dims<...>`."""
    return f"tl::dims<{', '.join(map(str, shape))}>"


def broadcast_nd(v: Value, shape: tuple[int, ...]) -> Value:
    """`v` broadcast to `shape` (of rank 3 or more; already checked to broadcast)."""
    src = dims_type(padded(v.shape, len(shape)))
    return Value(f"tl::broadcast_nd<{dims_type(shape)}, {src}>({v.expr})", v.dtype, shape,
                 v.roots)


def fit(v: Value, shape: tuple[int, ...]) -> Value:
    """An operand `v` of an operation whose result has `shape` (already checked to broadcast),
    spelled so that tl's own broadcasting gives the result: only results of rank 3 or more
    need anything. Their tl form [A * ... * Y, Z] broadcasts an operand lazily when it has all
    of those rows or one (and Z columns or one); any other operand is broadcast across its
    leading dimensions."""
    if len(shape) < 3 or not v.shape or v.shape == shape:
        return v
    if math.prod(padded(v.shape, len(shape))[:-1]) in (1, math.prod(shape[:-1])):
        return v
    return broadcast_nd(v, shape[:-1] + (v.shape[-1],))


def fit_all(shape: tuple[int, ...], *values: Value | None) -> tuple[Any, ...]:
    return tuple(v if v is None else fit(v, shape) for v in values)


def permute_nd(v: Value, order: tuple[int, ...]) -> Value:
    """A block of rank 3 or more with its dimensions in `order` (a permutation)."""
    shape = tuple(v.shape[k] for k in order)
    return Value(f"tl::permute_nd<{dims_type(order)}, {dims_type(v.shape)}>({v.expr})", v.dtype,
                 shape, v.roots)


def along_last(v: Value, axis: int) -> tuple[Value, tuple[int, ...]]:
    """A block `v` of rank 3 or more permuted so that `axis` is its last dimension (what tl
    reduces, scans, flips and gathers along in its [A * ... * Y, Z] form), with the order that
    was used."""
    rank = len(v.shape)
    order = tuple(k for k in range(rank) if k != axis) + (axis,)
    return (v, order) if axis == rank - 1 else (permute_nd(v, order), order)


def inverse(order: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(order.index(k) for k in range(len(order)))
